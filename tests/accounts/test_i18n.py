"""Translations: the .po files are complete for the site shell, and pages switch language."""

import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("es", "de", "tr")
# Where the site shell's strings live (the games app's strings are checked by its own tests).
SHELL_SOURCES = ("templates/base.html", "templates/accounts/", "accounts/", "okeysite/")


@pytest.fixture(scope="module")
def compiled_messages():
    """Compile the .po files (make does this too; .mo files are not committed)."""
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext (msgfmt) is not installed")
    call_command("compilemessages", ignore_patterns=[".venv", "staticfiles"], verbosity=0)
    translation.trans_real._translations.clear()
    translation.trans_real._default = None
    yield


def po_entries(path: Path):
    """(msgid, msgstr, flags, occurrences) per entry; enough of the format for this check."""
    entries, current, key = [], None, None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if current is not None and current["msgid"]:
                entries.append(current)
            current, key = None, None
            continue
        if current is None:
            current = {"msgid": "", "msgstr": "", "flags": "", "refs": ""}
        if line.startswith("#,"):
            current["flags"] += line
        elif line.startswith("#:"):
            current["refs"] += line
        elif line.startswith("msgid "):
            key = "msgid"
            current[key] = line[6:].strip('"')
        elif line.startswith("msgstr "):
            key = "msgstr"
            current[key] = line[7:].strip('"')
        elif line.startswith('"') and key:
            current[key] += line.strip('"')
    return entries


@pytest.mark.parametrize("lang", LANGS)
def test_site_shell_strings_are_translated(lang):
    paths = [
        ROOT / "okeysite" / "locale" / lang / "LC_MESSAGES" / "django.po",
        ROOT / "accounts" / "locale" / lang / "LC_MESSAGES" / "django.po",
    ]
    untranslated = []
    for path in paths:
        assert path.exists(), path
        for entry in po_entries(path):
            if not any(src in entry["refs"] for src in SHELL_SOURCES):
                continue
            if not entry["msgstr"] or "fuzzy" in entry["flags"]:
                untranslated.append(entry["msgid"])
    assert untranslated == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "expected"),
    [("es", "Cómo se juega"), ("de", "Spielregeln"), ("tr", "Nasıl oynanır")],
)
def test_home_page_in_each_language(client, compiled_messages, lang, expected):
    client.cookies["django_language"] = lang
    html = client.get(reverse("home")).content.decode()
    assert f'<html lang="{lang}"' in html
    assert expected in html


@pytest.mark.django_db
def test_throttle_message_is_translated(client, compiled_messages, django_user_model):
    django_user_model.objects.create_user(username="ayse", password="x-very-secret-1")
    client.cookies["django_language"] = "tr"
    for _ in range(5):
        client.post(reverse("accounts:login"), {"username": "ayse", "password": "wrong"})
    html = client.post(
        reverse("accounts:login"), {"username": "ayse", "password": "x-very-secret-1"}
    ).content.decode()
    assert "Çok fazla başarısız deneme" in html


@pytest.mark.django_db
def test_profile_language_wins_without_a_language_cookie(client, compiled_messages, make_user):
    """A player who set German in their profile and signs in on a new device (no
    language cookie, an English browser) gets German menus, not English ones."""
    client.force_login(make_user(language="de"))
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert '<html lang="de"' in html
    assert "Spielregeln" in html  # the menu's "How to play"
    assert response["Content-Language"] == "de"


@pytest.mark.django_db
def test_profile_language_wins_over_a_stale_cookie(client, compiled_messages, make_user):
    client.force_login(make_user(language="tr"))
    client.cookies["django_language"] = "es"
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="tr"' in html
    assert "Nasıl oynanır" in html


@pytest.mark.django_db
def test_switching_language_signed_in_switches_the_next_page(client, compiled_messages, make_user):
    """The switcher saves the profile language too, so the profile winning does not
    undo an explicit switch."""
    client.force_login(make_user(language="de"))
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="es"' in html
    assert "Cómo se juega" in html


@pytest.mark.django_db
def test_guests_still_follow_the_cookie(client, compiled_messages):
    client.cookies["django_language"] = "de"
    assert '<html lang="de"' in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_websocket_language_is_chosen_as_a_pages(make_user):
    """Profile, then cookie, then the browser's Accept-Language, then English: the same
    order as the pages (so a guest's table does not turn English at its first frame)."""
    from django.contrib.auth.models import AnonymousUser

    from accounts.middleware import language_for_scope

    guest = AnonymousUser()
    german_browser = [(b"accept-language", b"de-DE,de;q=0.9,en;q=0.8")]
    assert language_for_scope({"user": guest, "headers": german_browser}) == "de"
    assert (
        language_for_scope({"user": guest, "headers": [(b"accept-language", b"fr, tr;q=0.5")]})
        == "tr"
    )
    assert (
        language_for_scope(
            {"user": guest, "cookies": {"django_language": "es"}, "headers": german_browser}
        )
        == "es"
    )
    player = make_user(language="tr")
    scope = {"user": player, "cookies": {"django_language": "es"}, "headers": german_browser}
    assert language_for_scope(scope) == "tr"
    assert language_for_scope({"user": guest, "headers": []}) == "en"
    assert language_for_scope({"user": guest, "cookies": {"django_language": "xx"}}) == "en"
    # the table's websocket frames use exactly this choice
    from games.live.consumers import scope_language

    assert scope_language({"user": guest, "headers": german_browser}) == "de"


def plural_forms(path: Path) -> tuple[int, list[tuple[str, int]]]:
    """The catalogue's nplurals and, per plural entry, its msgid and how many forms it has."""
    text = path.read_text(encoding="utf-8")
    nplurals = int(text.split("nplurals=", 1)[1].split(";", 1)[0])
    out = []
    for block in text.split("\n\n"):
        lines = block.splitlines()
        if any(x.startswith("msgid_plural ") for x in lines):
            msgid = next(x for x in lines if x.startswith("msgid "))
            out.append((msgid, sum(1 for x in lines if x.startswith("msgstr["))))
    return nplurals, out


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_has_all_the_forms_of_its_language(lang):
    # Spanish has three forms in Django's catalogues ("one", "many": exact millions,
    # "other"): an entry with two would show the English text for every n but 1
    for path in sorted(ROOT.glob(f"*/locale/{lang}/LC_MESSAGES/django.po")):
        nplurals, entries = plural_forms(path)
        short = [msgid for msgid, forms in entries if forms != nplurals]
        assert not short, (path, nplurals, short)


@pytest.mark.parametrize(
    ("lang", "want"), [("es", "3 okeys a 5 cada uno"), ("de", "3 Okeys zu je 5")]
)
def test_a_plural_reads_in_the_language_for_many(compiled_messages, lang, want):
    from django.utils.translation import ngettext

    with translation.override(lang):
        text = ngettext("%(n)s okey at %(each)s", "%(n)s okeys at %(each)s each", 3)
    assert text % {"n": 3, "each": 5} == want
