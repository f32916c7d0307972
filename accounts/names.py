"""Names other people see: one check for every place a name is typed.

Display names (sign-up and profile), usernames at sign-up (they are shown when a player has
no display name) and tournament entries registered by name all go through
:func:`clean_public_name`. It returns the name as it is stored (NFKC-normalised, surrounding
whitespace stripped) or raises a ``ValidationError`` whose code says what is wrong:

- ``control``: control characters (Unicode category Cc, e.g. tabs and line breaks) and line
  or paragraph separators.
- ``bidi``: direction overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069) and
  the direction marks (U+200E, U+200F, U+061C), which can make a name read backwards or drag
  the text after it along.
- ``invisible``: zero-width and other invisible format characters (category Cf, e.g.
  U+200B–U+200D, U+2060, U+FEFF, the soft hyphen), private-use, unassigned and surrogate code
  points, the "filler" letters that draw nothing (U+115F, U+1160, U+3164, U+FFA0, U+2800),
  the default-ignorable marks (U+034F, U+17B4, U+17B5) and a variation selector that follows
  no symbol (a Mongolian one no Mongolian letter).
- ``marks``: more than :data:`MAX_MARKS` combining marks on one letter (text that spills
  over the lines around it).
- ``cpu``: a name that would pass for a CPU seat. Seats played by the computer are labelled
  "<name> (CPU)" at the table (``games/live/cpu.py``) and "CPU" in tournament seatings, so a name
  whose last word is a CPU label in any shipped language ("CPU", Turkish "Bilgisayar"), or
  whose closing bracket group holds one, is refused, however it is cased, spaced or
  bracketed: the check runs on NFKC (fullwidth and small parentheses become plain ones),
  case-folded text without accents, with any opening/closing punctuation (``[ ]``, ``❨ ❩``…)
  read as parentheses and Cyrillic, Greek, Cherokee, Coptic and small-capital lookalike
  letters read as Latin ones.
- ``bot``: a name ending in the bot accounts' marker "(BOT)" (any bracket, case or
  lookalike letters, as for ``cpu``): bot accounts carry it after their name.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

MAX_MARKS = 4

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
)
# Letters (category Lo/So) that render as nothing at all.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Marks (category Mn) that Unicode lists as default-ignorable: they draw nothing, so
# "Ayşe" followed by one looks like "Ayşe". The combining grapheme joiner and the Khmer
# inherent vowels are refused everywhere; a variation selector only where it does its
# job, right after a symbol ("❤️" is U+2764 U+FE0F), and a Mongolian free variation
# selector right after a Mongolian letter.
IGNORABLE_MARKS = frozenset("\u034f\u17b4\u17b5")
VARIATION_SELECTORS = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)] + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
MONGOLIAN_SELECTORS = frozenset("\u180b\u180c\u180d\u180f")

# The labels a CPU seat carries, whatever the language: the table's "(CPU)" suffix is not
# translated, tournament seatings show gettext("CPU") ("Bilgisayar" in Turkish). The
# translations are read from the catalogues too (see cpu_labels), so a new language's
# label is refused as soon as its catalogue has one.
KNOWN_CPU_LABELS = ("CPU", "Bilgisayar")

# Lookalikes of the Latin letters, read as those letters by the CPU check only.
_LOOKALIKES = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "с": "c",
        "е": "e",
        "ɡ": "g",
        "һ": "h",
        "і": "i",
        "ı": "i",
        "ι": "i",
        "ӏ": "l",
        "ǀ": "l",
        "о": "o",
        "ο": "o",
        "р": "p",
        "ρ": "p",
        "ѕ": "s",
        "υ": "u",
        "ս": "u",
        "ʋ": "u",
        "у": "y",
        "γ": "y",
        "х": "x",
        "α": "a",
        "β": "b",
        "ϲ": "c",
        # Cherokee capitals (their small letters case-fold to these), Coptic, small capitals
        "Ꮯ": "c",
        "Ꮲ": "p",
        "Ꮜ": "u",
        "ⲣ": "p",
        "ⲥ": "c",
        "ᴄ": "c",
        "ᴘ": "p",
        "ᴜ": "u",
    }
)
_WORD = re.compile(r"[^\W_]+")

MESSAGES = {
    "control": _("Names cannot contain control characters such as tabs or line breaks (%(char)s)."),
    "bidi": _("Names cannot contain characters that change the writing direction (%(char)s)."),
    "invisible": _("Names cannot contain invisible characters (%(char)s)."),
    "marks": _("Names cannot pile up so many accents on one letter."),
    "cpu": _(
        "This name could be taken for a computer player's (they are marked “%(label)s”). "
        "Please choose another name."
    ),
    "bot": _(
        "This name could be taken for a bot account's (they are marked “%(label)s”). "
        "Please choose another name."
    ),
}


def _code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _refuse(code: str, **params: str) -> ValidationError:
    return ValidationError(MESSAGES[code], code=code, params=params or {"char": ""})


def character_problem(ch: str) -> str | None:
    """The refusal code for one character of a name, or None when it may appear."""
    if ch in BIDI_CONTROLS:
        return "bidi"
    category = unicodedata.category(ch)
    if category == "Cc" or category in ("Zl", "Zp"):
        return "control"
    if category[0] == "C" or ch in BLANK_LETTERS or ch in IGNORABLE_MARKS:  # Cf, Co, Cn, Cs
        return "invisible"
    return None


def selector_problem(text: str) -> str | None:
    """``invisible`` when a variation selector follows anything but what it can vary
    (see ``VARIATION_SELECTORS``); None otherwise."""
    before = ""
    for ch in text:
        if ch in VARIATION_SELECTORS and (not before or unicodedata.category(before) != "So"):
            return _code_point(ch)
        if ch in MONGOLIAN_SELECTORS and not "\u1800" <= before <= "\u18af":
            return _code_point(ch)
        before = ch
    return None


def cpu_labels() -> frozenset[str]:
    """Every CPU label (skeleton form) in the shipped languages."""
    labels = set(KNOWN_CPU_LABELS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            labels.add(gettext("CPU"))
    return frozenset(skeleton(label) for label in labels)


def skeleton(text: str) -> str:
    """``text`` as the CPU check reads it: NFKC, case-folded, accents dropped, lookalike
    letters as Latin ones, opening/closing punctuation as parentheses."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    out = []
    for ch in folded:
        category = unicodedata.category(ch)
        if category in ("Mn", "Me"):
            continue
        if category == "Ps":
            ch = "("
        elif category == "Pe":
            ch = ")"
        out.append(ch)
    return "".join(out).translate(_LOOKALIKES)


def poses_as_cpu(name: str) -> bool:
    """True when ``name`` ends like a CPU seat's label (see the module docstring)."""
    labels = cpu_labels()
    text = skeleton(name)
    words = _WORD.findall(text)
    if words and words[-1] in labels:
        return True
    stripped = text.rstrip()
    if stripped.endswith(")") and "(" in stripped:
        group = stripped[stripped.rindex("(") + 1 : -1]
        group_words = _WORD.findall(group)
        if "".join(group_words) in labels or any(w in labels for w in group_words):
            return True
    return False


def poses_as_bot(name: str) -> bool:
    """True when ``name`` ends in a bracket group reading "bot" (a bot account's marker,
    ``accounts.models.BOT_MARK``), read as the CPU check reads names."""
    stripped = skeleton(name).rstrip()
    if not (stripped.endswith(")") and "(" in stripped):
        return False
    group = stripped[stripped.rindex("(") + 1 : -1]
    return "".join(_WORD.findall(group)) == "bot"


def clean_public_name(value: str, max_length: int | None = None) -> str:
    """The name as stored (NFKC, stripped), or ``ValidationError`` saying what is wrong.

    An empty value stays empty (whether a name is required is the form field's business).
    ``max_length`` is checked again after normalising, which can lengthen a name (one
    ligature can become many letters).
    """
    if not value:
        return ""
    for ch in value:
        problem = character_problem(ch)
        if problem is not None:
            raise _refuse(problem, char=_code_point(ch))
    name = unicodedata.normalize("NFKC", value).strip()
    selector = selector_problem(name)
    if selector is not None:
        raise _refuse("invisible", char=selector)
    for ch in name:  # NFKC never adds such characters, but check what is stored
        problem = character_problem(ch)
        if problem is not None:
            raise _refuse(problem, char=_code_point(ch))
    run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            raise ValidationError(MESSAGES["marks"], code="marks")
    if poses_as_cpu(name):
        raise _refuse("cpu", label="(CPU)")
    if poses_as_bot(name):
        raise _refuse("bot", label="(BOT)")
    if max_length is not None:
        MaxLengthValidator(max_length)(name)
    return name
