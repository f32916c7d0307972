"""The web app reads the registry of rule sets: a new rule set needs no edit outside it.

A rule set is one module of games/engine/rulesets/ (games/engine/rulebase.py). Here a
made-up one is put in the registry for the length of a test, and the models, the
new-table form, the pages and the texts of the outcome pick it up from its rules object:
its name is a valid variant without a migration, its options and their labels are the
form's, its own score reasons and endings have words.
"""

from __future__ import annotations

import io

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
