"""The web app reads the registry of rule sets: a new rule set needs no edit outside it.

A rule set is one module of games/engine/rulesets/ (games/engine/rulebase.py). Here a
made-up one is put in the registry for the length of a test, and the models, the
new-table form, the pages and the texts of the outcome pick it up from its rules object:
its name is a valid variant without a migration, its options and their labels are the
form's, its own score reasons and endings have words.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.utils import translation

from games.engine.rulebase import COMMON_OPTIONS, LayDownRules
from games.engine.rules import RULES
from games.forms import CreateTableForm, field_name, value_label
from games.models import Table, variant_choices
from games.solo.models import SoloResult


class MadeUpRules(LayDownRules):
    name = "made-up"
    label = "Made-up Okey"
    order = 999
    options = {
        "players": ((4,), 4),
        "hands": ((1, 3, 5), 3),
        "pace": (("brisk", "gentle"), "brisk"),
        "clock": ((0, 30), 0),
        **COMMON_OPTIONS,
    }
    option_labels = {"pace": "Pace"}
    value_labels = {"brisk": "brisk pace"}
    reason_labels = {"made_up_bonus": "Made-up bonus"}
    ending_labels = {"made_up_end": "%(name)s made it up."}
    rack_size = 21

    def game_hands(self, options: dict) -> int | None:
        return options["hands"]


@pytest.fixture
def made_up(monkeypatch):
    rules = MadeUpRules()
    monkeypatch.setitem(RULES, rules.name, rules)
    return rules


def test_the_choices_follow_the_registry_in_its_order(made_up):
    names = [name for name, _label in variant_choices()]
    assert names == list(RULES) and names[-1] == "made-up"
    with translation.override("de"):
        labels = dict(variant_choices())
        assert str(labels["classic"]) == "Klassisch"  # the engine's msgid, translated
    for model in (Table, SoloResult):
        field = model._meta.get_field("variant")
        field.validate("made-up", None)  # a registered rule set is a valid variant
        with pytest.raises(Exception, match="not a valid choice"):
            field.validate("no-such-set", None)


@pytest.mark.django_db
def test_a_new_rule_set_needs_no_migration(made_up):
    # migrations store the callable (its reference), not the list of today's rule sets
    for model in (Table, SoloResult):
        _name, _path, _args, kwargs = model._meta.get_field("variant").deconstruct()
        assert kwargs["choices"] is variant_choices
    out = io.StringIO()
    call_command("makemigrations", "games", "solo", check=True, dry_run=True, stdout=out)
    assert "No changes detected" in out.getvalue()


def test_the_new_table_form_offers_every_rule_set_with_its_own_options(made_up):
    with translation.override("en"):
        form = CreateTableForm()
        sets = {fs["variant"]: fs for fs in form.fieldsets()}
        assert list(sets) == list(RULES)
        fs = sets["made-up"]
        assert fs["label"] == "Made-up Okey" and fs["rules_page"] == "made-up"
        pace = form.fields[field_name("made-up", "pace")]
        assert str(pace.label) == "Pace"
        assert [str(label) for _v, label in pace.choices] == ["brisk pace", "gentle"]
        hands = form.fields[field_name("made-up", "hands")]
        assert str(hands.label) == "Hands"  # a shared option key keeps the shared label
        assert [str(label) for _v, label in hands.choices] == ["1", "3", "5"]
    data = {"variant": "made-up", field_name("made-up", "hands"): "5"}
    data |= {f"seat_{i}": "cpu:easy" for i in (1, 2, 3)}
    form = CreateTableForm(data)
    assert form.is_valid(), form.errors
    assert form.options() == {"hands": 5}
    assert len(form.seat_specs()) == 4


def test_option_labels_and_values_are_translated_at_render_time():
    form = CreateTableForm()
    players = form.fields[field_name("rummy", "players")]
    length = form.fields[field_name("rummy", "length")]
    with translation.override("de"):
        assert str(players.label) == "Spieler"
        assert str(form.fieldsets()[list(RULES).index("rummy")]["label"]) == "Okey-Rommé"
    with translation.override("en"):
        assert str(players.label) == "Players"
        assert [str(label) for _v, label in length.choices] == ["short", "standard", "long"]


def test_value_labels_never_read_a_number_as_on_or_off():
    with translation.override("en"):
        assert str(value_label(True)) == "on" and str(value_label(False)) == "off"
        assert str(value_label(0)) == "off"  # a turn clock of 0 seconds
        assert value_label(1) == "1"  # 1 == True, but one hand is "1"
        assert value_label("brisk") == "brisk"  # no rule set: the value itself


# ------------------------------------------------------------------ pages


@pytest.mark.django_db
def test_the_rules_pages_nav_lists_every_rule_set(client, made_up):
    from django.urls import reverse

    html = client.get(reverse("games:rules_page", args=["classic"])).content.decode()
    nav = re.search(r'<nav class="rules-nav".*?</nav>', html, re.S).group(0)
    links = re.findall(r'<a href="/rules/([^"]*)"', nav)
    assert links == ["", *(r.rules_page for r in RULES.values())]  # the overview first
    assert ">Made-up Okey</a>" in nav
    assert 'href="/rules/classic" aria-current="page"' in nav


@pytest.mark.django_db
def test_the_lobby_names_every_rule_set(client, made_up):
    with translation.override("en"):
        html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{len(RULES)} rule sets" in html
    listed = re.search(r'data-testid="rule-sets">(.*?)</p>', html, re.S).group(1)
    assert re.findall(r'href="/rules/([^"]*)"', listed) == [r.rules_page for r in RULES.values()]
    for name in RULES:
        assert f'value="{name}"' in html  # the rule set select and its options
        assert f'data-variant="{name}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "options", "chip"), [
    ("seventeen", {}, "Hand 1 of 7"),
    ("fifty-one", {"hands": 3}, "Hand 1 of 3"),
    ("classic", {}, None),  # played until someone reaches 0: no fixed number of hands
    ("rummy", {}, None),
])  # fmt: skip
def test_the_table_says_which_hand_of_how_many(client, variant, options, chip):
    from django.urls import reverse

    from tests.games.conftest import cpu_table

    table = cpu_table(variant, guest_key=client.session.session_key or "", **options)
    assert (rules := RULES[variant]).hands_shown(table.options) == (int(chip[-1]) if chip else None)
    session = client.session
    session.save()
    table.seats.filter(position=0).update(guest_key=session.session_key)
    page = client.get(reverse("games:table", args=[table.code])).content.decode()
    found = re.search(r'data-testid="round">([^<]*)<', page)
    assert (found.group(1) if found else None) == chip, rules.name


def test_seats_and_tiles_follow_the_rules_object(made_up, monkeypatch):
    from games.live import presenter
    from games.templatetags.okey_tiles import tile_html

    assert presenter.relative_positions(4, 0, "made-up") == {
        0: "bottom", 3: "left", 1: "right", 2: "top"
    }  # fmt: skip
    monkeypatch.setattr(MadeUpRules, "direction", "clockwise")
    assert presenter.relative_positions(4, 0, "made-up") == {
        0: "bottom", 3: "right", 1: "left", 2: "top"
    }  # fmt: skip
    with translation.override("en"):
        assert "yellow 5" in tile_html(presenter.tile_ctx({"id": 1, "t": "Y5"}, "made-up"))
        monkeypatch.setattr(MadeUpRules, "yellow_shown_green", True)
        tile = presenter.tile_ctx({"id": 1, "t": "Y5"}, "made-up")
        assert tile["symbol"] == "♣" and "green 5" in tile_html(tile)
        # an okey standing for a yellow tile is drawn and named as that tile: green here
        okey = presenter.tile_ctx({"id": 2, "t": "R1", "plays": "Y9", "okey": True}, "made-up")
        html = tile_html(okey)
        assert "c-y rummy" in html and "green 9" in html


# ------------------------------------------------------------------ texts


def test_a_rule_set_brings_its_own_reasons_and_endings(made_up):
    from games.live import messages

    with translation.override("en"):
        assert messages.reason_label("made_up_bonus", "made-up") == "Made-up bonus"
        assert messages.ending_text("made_up_end", "Cem", "made-up") == "Cem made it up."
        # the shared texts come first; another rule set does not lend its own
        assert messages.reason_label("close", "made-up") == "Hand closed"
        assert messages.reason_label("made_up_bonus", "classic") == "made up bonus"
    with translation.override("de"):
        # the shared words stay translated when a rule set is named
        assert messages.ending_text("exhausted", "", "made-up") == str(
            messages.ENDINGS["exhausted"]
        )
