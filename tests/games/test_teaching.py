"""Hints that teach and the CPUs' pace, server side: the "CPU speed" table option (every
rule set's), the wait it sets before each CPU step, the hint sentence that names the
meld, the cost of a discard in words and the okey's face-down control."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import translation

from games.engine import options as engine_options
from games.engine.refusals import Refusal
from games.engine.rules import RULES
from games.engine.testing import make_state
from games.engine.view import view_for
from games.live import actions, messages, presenter
from games.models import Table
from tests.games.conftest import cpu_table

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("variant", list(RULES))
def test_every_rule_set_offers_a_cpu_speed_normal_by_default(variant):
    assert engine_options.validate_options(variant, {})["cpu_speed"] == "normal"
    assert engine_options.validate_options(variant, {"cpu_speed": "fast"})["cpu_speed"] == "fast"
    with pytest.raises(Refusal) as refused:
        engine_options.validate_options(variant, {"cpu_speed": "turbo"})
    assert refused.value.code == "bad_option"


def test_the_new_table_form_offers_the_cpu_speed_in_words():
    from games.forms import CreateTableForm

    with translation.override("en"):
        form = CreateTableForm()
        field = form.fields["classic__cpu_speed"]
        assert str(field.label) == "CPU speed"
        assert [str(label) for _value, label in field.choices] == ["normal", "fast"]


def test_a_fast_table_waits_less_before_each_cpu_step(settings):
    settings.OKEY_CPU_DELAY_MS = 300
    normal, fast = Table(options={"cpu_speed": "normal"}), Table(options={"cpu_speed": "fast"})
    assert actions.cpu_delay(normal) == timedelta(milliseconds=300)
    assert actions.cpu_delay(Table(options={})) == actions.cpu_delay(normal)  # older tables
    assert actions.cpu_delay(fast) == timedelta(milliseconds=45)


def test_a_cpu_turn_after_the_players_move_falls_due_at_the_tables_pace(settings):
    settings.OKEY_CPU_DELAY_MS = 300
    for speed, ms in (("normal", 300), ("fast", 45)):
        table = cpu_table("classic", cpu_speed=speed)
        assert table.options["cpu_speed"] == speed
        state = actions.snapshot(table)[1]
        at = actions.now()
        tile = state.racks[0][-1]  # seat 0 starts: a discard without a draw
        actions.do_submit_action(
            table.pk, 0, {"type": "discard", "tile": tile}, table.version, at=at
        )
        table.refresh_from_db()
        assert table.cpu_due_at == at + timedelta(milliseconds=ms), speed


def test_an_add_hint_names_the_marked_meld_in_words():
    with translation.override("en"):
        text = messages.hint_text("add", {"tile": "K9", "meld": "K6 K7 K8"}, "101")
        assert text == "Add black 9 to the marked meld: black 6, black 7, black 8."
        swap = messages.hint_text("swap", {"tile": "R5", "meld": "R4 R5 R6"}, "fifty-one")
        assert "marked meld (red 4, red 5, red 6)" in swap
        # a stored hint without its meld (older analyses) keeps the plain sentence
        assert messages.hint_text("add", {"tile": "K9"}, "101") == (
            "Add black 9 to a meld on the table."
        )


def test_a_discards_cost_is_said_with_its_tile_and_points():
    """The rule set's msgid (``Rules.discard_penalty``, in the seat's view) in words."""
    state = make_state(
        "101",
        racks=["K9 R1 Y3 R8 Y11 B13 R13 K2 Y7 B9", None, None, None],
        indicator="R10",
        melds=[{"owner": 1, "tiles": "K6 K7 K8"}],
        opened=["melds", "melds", None, None],
        phase="play",
        options={"assisted": True},
    )
    view = view_for(state, 0)
    (cost,) = view["discard_costs"]
    tile = next(t for t in view["rack"] if t["id"] == cost["tile"])
    with translation.override("en"):
        text = presenter.discard_cost_text(cost, tile, "101")
    assert text == "Black 9 fits a meld on the table (işlek): discarding it costs you 101 points."


def test_the_okey_control_turns_the_first_face_up_okey_down_then_up_again():
    up = {"id": 3, "t": "Y5", "okey": True, "face_down": False}
    down = {"id": 9, "t": "Y5", "okey": True, "face_down": True}
    plain = {"id": 4, "t": "R1", "okey": False, "face_down": False}
    with translation.override("en"):
        control = presenter.flip_control({"rack": [plain, down, up], "legal": ["flip"]})
        assert control == {"tile": 3, "label": "Turn the okey face down"}
        control = presenter.flip_control({"rack": [plain, down], "legal": ["flip"]})
        assert control == {"tile": 9, "label": "Turn the okey face up"}
    assert presenter.flip_control({"rack": [plain], "legal": ["arrange"]}) is None
