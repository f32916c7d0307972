"""Names others see (display names, usernames, tournament entries) refuse what can
deceive: invisible or direction-changing characters, and names that pass for a CPU seat."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.forms import ProfileForm, SignUpForm
from accounts.names import clean_public_name
from games.live.cpu import cpu_name
from games.tournaments.forms import EntryForm


def refusal(name: str) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        clean_public_name(name)
    return info.value


@pytest.mark.parametrize(
    "name", ["Ayşe", "Zeynep K.", "Ünal-Öztürk", "李小龙", "محمد", "José", "CPU fan club"]
)
def test_ordinary_names_pass(name):
    assert clean_public_name(name) == name


def test_surrounding_whitespace_is_stripped_and_text_normalised():
    assert clean_public_name("  Ayşe \u00a0") == "Ayşe"
    assert clean_public_name("Ａｙｓｅ") == "Ayse"  # fullwidth letters, NFKC


@pytest.mark.parametrize("char", ["\t", "\n", "\r", "\x00", "\x1b", "\x7f", "\x85", "\u2028"])
def test_control_characters_are_refused(char):
    error = refusal(f"Ay{char}şe")
    assert error.code == "control"
    assert "control characters" in error.messages[0]
    assert f"U+{ord(char):04X}" in error.messages[0]


@pytest.mark.parametrize(
    "char", [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
)
def test_bidi_overrides_and_isolates_are_refused(char):
    error = refusal(f"Ada{char}UPC)")
    assert error.code == "bidi"
    assert "writing direction" in error.messages[0]


@pytest.mark.parametrize(
    "char",
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\U000e0041"]
    + ["\u3164", "\u115f", "\u2800", "\ue000"],
)
def test_zero_width_and_invisible_characters_are_refused(char):
    error = refusal(f"Ay{char}şe")
    assert error.code == "invisible"
    assert "invisible characters" in error.messages[0]


def test_a_pile_of_accents_is_refused():
    assert clean_public_name("e\u0302\u0301") == "ế"  # two marks: an ordinary letter
    assert refusal("Ada" + "\u0301" * 8).code == "marks"


@pytest.mark.parametrize(
    "name",
    [
        cpu_name(0, "hard"),  # exactly what a CPU seat shows: "Ada (CPU)"
        "Ayşe (CPU)",
        "ayşe (cpu)",
        "Ayşe(CPU)",
        "Ayşe ( C P U )",
        "Ayşe （ＣＰＵ）",  # fullwidth parentheses and letters
        "Ayşe ﹙CPU﹚",  # small parentheses
        "Ayşe ⁽ᶜᴾᵁ⁾",  # superscript-ish
        "Ayşe [CPU]",
        "Ayşe ❨CPU❩",
        "Ayşe (СРU)",  # Cyrillic С and Р
        "Ayşe CPU",
        "CPU",
        "Ayşe (CPU · hard)",
        "Ayşe (Bilgisayar)",  # the Turkish label
        "Ayşe (BİLGİSAYAR)",
        "Ayşe (bılgısayar)",
        "Ayşe (CPU).",
    ],
)
def test_names_that_pass_for_a_cpu_seat_are_refused(name):
    error = refusal(name)
    assert error.code == "cpu"
    assert "computer player" in error.messages[0]


def test_cpu_check_uses_the_translated_labels(monkeypatch):
    """A language whose catalogue gives "CPU" another label refuses that label too."""
    from accounts import names

    monkeypatch.setattr(names, "gettext", lambda text: "Rechner" if text == "CPU" else text)
    assert refusal("Ayşe (Rechner)").code == "cpu"


# In the forms ----------------------------------------------------------------------------


def signup_form(**overrides):
    data = {
        "username": "mehmet",
        "display_name": "Mehmet",
        "email": "",
        "password1": "tile-rack-47-okey",
        "password2": "tile-rack-47-okey",
    }
    data.update(overrides)
    return SignUpForm(data)


@pytest.mark.django_db
def test_signup_refuses_a_bad_display_name_with_the_reason(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "mehmet",
            "display_name": "Baran (CPU)",
            "password1": "tile-rack-47-okey",
            "password2": "tile-rack-47-okey",
        },
    )
    assert response.status_code == 200
    assert "could be taken for a computer player" in response.content.decode()
    assert response.context["form"].has_error("display_name", "cpu")


@pytest.mark.django_db
def test_signup_stores_the_clean_display_name():
    form = signup_form(display_name="  Mehmet  ")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["display_name"] == "Mehmet"


@pytest.mark.django_db
@pytest.mark.parametrize(("username", "code"), [("cpu", "cpu"), ("Bilgisayar", "cpu")])
def test_signup_usernames_follow_the_same_rules(username, code):
    form = signup_form(username=username)
    assert not form.is_valid()
    assert form.has_error("username", code)


@pytest.mark.django_db
def test_signup_username_with_invisible_characters_is_refused():
    form = signup_form(username="meh\u200bmet")
    assert not form.is_valid()
    assert "username" in form.errors


@pytest.mark.django_db
def test_profile_refuses_a_bad_display_name(client, make_user):
    user = make_user(display_name="Ayşe")
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "Ayşe\u202e", "language": "en"}
    )
    assert response.status_code == 200
    assert "writing direction" in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.display_name == "Ayşe"


@pytest.mark.django_db
def test_profile_form_strips_the_display_name(make_user):
    user = make_user()
    form = ProfileForm({"display_name": " Ayşe ", "language": "en"}, instance=user.profile)
    assert form.is_valid(), form.errors
    assert form.save().display_name == "Ayşe"


def test_tournament_entries_by_name_follow_the_same_rules():
    ok = EntryForm({"name": " Ayşe "})
    assert ok.is_valid() and ok.cleaned_data["name"] == "Ayşe"
    for name, code in [("Ada (CPU)", "cpu"), ("Ada\u2066", "bidi"), ("A\u200dda", "invisible")]:
        form = EntryForm({"name": name})
        assert not form.is_valid()
        assert form.has_error("name", code)
    assert EntryForm({"username": "ayse"}).is_valid()  # no name: by account


def test_length_is_checked_after_normalising():
    """NFKC can lengthen a name: U+FDFA is one character and eighteen letters after it."""
    assert len(clean_public_name("\ufdfa")) == 18
    with pytest.raises(ValidationError) as info:
        clean_public_name("Ada \ufdfa\ufdfa\ufdfa", max_length=40)
    assert info.value.code == "max_length"
    form = ProfileForm({"display_name": "\ufdfa\ufdfa\ufdfa", "language": "en"})
    assert not form.is_valid()
    assert form.has_error("display_name", "max_length")
