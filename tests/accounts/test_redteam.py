"""Names that still looked like someone else's, or like a CPU seat's, when the site was probed."""

import pytest
from django.core.exceptions import ValidationError

from accounts.names import clean_public_name


def refusal(name: str) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        clean_public_name(name)
    return info.value


@pytest.mark.parametrize(
    "char",
    ["\u034f", "\u17b4", "\u17b5", "\ufe0f", "\ufe00", "\U000e0100", "\u180b"],
)
def test_marks_that_draw_nothing_are_refused_as_invisible(char):
    """ "Ayşe" followed by a combining grapheme joiner or a variation selector looks like
    "Ayşe": another player could pass for her."""
    error = refusal(f"Ayşe{char}")
    assert error.code == "invisible"
    assert f"U+{ord(char):04X}" in error.messages[0]


@pytest.mark.parametrize("name", ["Ayşe ❤️", "Ayşe ☺\ufe0e", "ᠠ\u180bᠡ"])
def test_a_variation_selector_after_a_symbol_or_a_mongolian_letter_is_kept(name):
    assert clean_public_name(name) == name


@pytest.mark.parametrize(
    "name",
    ["Ayşe (ᏟᏢᏌ)", "Ayşe (ꮯꮲꮜ)", "Ayşe (ⲤⲢU)", "Ayşe (ᴄᴘᴜ)", "Ayşe ᴄᴘᴜ"],
)
def test_cherokee_coptic_and_small_capital_lookalikes_of_cpu_are_refused(name):
    assert refusal(name).code == "cpu"
