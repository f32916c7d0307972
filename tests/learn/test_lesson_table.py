"""The lesson on the real table: the view opens it, the sweeper plays its CPUs' script,
the learner's wrong moves are refused with the lesson's reason, and the panel follows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import plugins
from games.engine.tiles import notation
from games.learn import script as lesson
from games.live import actions, presenter
from games.models import Table

pytestmark = pytest.mark.django_db
SCRIPT = lesson.CLASSIC


@pytest.fixture(autouse=True)
def _fast_cpus(settings):
    settings.OKEY_CPU_DELAY_MS = 0


def start(client) -> Table:
    response = client.post(reverse("learn:start", args=["classic"]))
    assert response.status_code == 302
    table = Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])
    learner = table.seats.get(position=SCRIPT.seat)
    actions.do_set_presence(learner.pk, True, channel="test-page")
    return table


def cpus_play(table) -> None:
    for _ in range(40):
        table.refresh_from_db()
        _hand, state, _game = actions.snapshot(table)
        if state.over or state.turn == SCRIPT.seat:
            return
        assert actions.sweep() >= 1


def state_of(table):
    table.refresh_from_db()
    return actions.snapshot(table)[1]


def submit(table, **action):
    table.refresh_from_db()
    return actions.do_submit_action(table.pk, SCRIPT.seat, action, table.version)


def tile(table, text: str) -> int:
    return next(t for t in state_of(table).racks[SCRIPT.seat] if notation(t) == text)


def panel(table, error=None) -> dict:
    table.refresh_from_db()
    seat = table.seats.get(position=SCRIPT.seat)
    ctx = presenter.table_context(table, seat, error=error)
    return ctx["lesson"]


def test_the_index_lists_the_lesson_and_the_home_and_rules_pages_link_to_it(client):
    page = client.get(reverse("learn:index"))
    assert page.status_code == 200
    learn = reverse("learn:index")
    assert learn in client.get(reverse("home")).content.decode()
    for slug in ("classic", "rummy", "fifty-one", "101", "seventeen"):
        assert reverse("learn:start", args=[slug]) in page.content.decode()
        rules = client.get(reverse("games:rules_page", args=[lesson.SCRIPTS[slug].variant]))
        assert learn in rules.content.decode()


def test_an_unknown_lesson_is_not_found_and_start_needs_a_post(client):
    assert client.post(reverse("learn:start", args=["chess"])).status_code == 404
    assert client.get(reverse("learn:start", args=["classic"])).status_code == 405


def test_lesson_starts_are_limited_per_player_with_play_now(settings):
    """Each start deals a table: starts count with "Play now" (PLAY_NOW_LIMIT per address
    for guests); a refused start opens nothing and says why."""
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    settings.PLAY_NOW_LIMIT = 2
    url = reverse("learn:start", args=["classic"])
    Client().post(reverse("games:play"))  # one Play now from the address
    assert Client().post(url).status_code == 302
    assert Table.objects.count() == 2
    refused = Client().post(url, follow=True)
    assert Table.objects.count() == 2
    assert refused.redirect_chain[-1][0] == reverse("learn:index")
    assert "Wait a minute" in refused.content.decode()
    cache.clear()


def test_the_classic_lesson_from_deal_to_close(client):
    table = start(client)
    assert table.current_hand.seed == SCRIPT.seed
    assert table.seats.get(position=SCRIPT.seat).guest_key  # the visitor sits there
    cpus_play(table)
    assert panel(table)["key"][1] == lesson.DRAW
    # a wrong move: refused with the lesson's reason, nothing changes
    with pytest.raises(actions.ActionRefused) as refused:
        submit(table, type="take")
    assert refused.value.code == "lesson_draw"
    shown = panel(table, {"code": refused.value.code, "message": refused.value.message})
    assert 'data-testid="lesson-wrong"' in shown["html"]
    assert "draw from the pile" in shown["html"]
    submit(table, type="draw")
    assert panel(table)["key"][1] == lesson.DISCARD
    submit(table, type="discard", tile=tile(table, SCRIPT.discards[0]))
    cpus_play(table)
    assert panel(table)["key"][1] == lesson.TAKE
    submit(table, type="take")
    learner = table.seats.get(position=SCRIPT.seat)
    with pytest.raises(actions.ActionRefused) as refused:
        submit(table, type="discard", tile=tile(table, SCRIPT.discards[1]))
    assert refused.value.code == "lesson_arrange"
    assert panel(table)["key"][1] == lesson.ARRANGE
    actions.do_sort_rack(learner.pk, "runs")
    assert panel(table)["key"][1] == lesson.OKEY
    submit(table, type="discard", tile=tile(table, SCRIPT.discards[1]))
    cpus_play(table)
    assert panel(table)["key"][1] == lesson.DRAW_AGAIN
    submit(table, type="draw")
    assert panel(table)["key"][1] == lesson.CLOSE
    submit(table, type="close", tile=tile(table, SCRIPT.close))
    done = panel(table)
    assert done["key"][1] == lesson.OVER and done["key"][2] is True
    assert 'data-testid="lesson-done"' in done["html"]


def test_the_panel_never_names_a_hidden_tile(client):
    """The panel is rendered from the learner's view: no tile of another rack or of the
    pile is in it (the tiles it may show are the learner's own, the indicator, the okey
    and the discards)."""
    table = start(client)
    cpus_play(table)
    state = state_of(table)
    html = panel(table)["html"]
    own = {notation(t) for t in state.racks[SCRIPT.seat]}
    shown = own | {notation(state.indicator), "F", SCRIPT.take, SCRIPT.first_discard}
    shown |= {SCRIPT.close, *SCRIPT.discards}
    for t in set(state.pile[-3:]) | set(state.racks[2]):
        if notation(t) not in shown:
            assert f'data-t="{notation(t)}"' not in html


def test_other_tables_have_no_lesson(client):
    table = actions.do_create_table(
        variant="classic",
        options={},
        seats=[actions.SeatSpec("me")] + [actions.SeatSpec("cpu")] * 3,
        guest_key="g",
    )
    seat = table.seats.get(position=0)
    assert presenter.table_context(table, seat)["lesson"] is None
    hand, state, _game = actions.snapshot(table)
    assert plugins.scripted_move(hand, state, 1) is None
    assert plugins.lesson_refusal(hand, state, 0, {"type": "take"}) is None
    assert not hand.seed.startswith(lesson.PREFIX)


@pytest.mark.parametrize("sc", [lesson.FIFTY_ONE, lesson.OKEY_101], ids=lambda s: s.slug)
def test_a_lay_down_lesson_through_opening_and_adding(client, sc):
    response = client.post(reverse("learn:start", args=[sc.slug]))
    table = Table.objects.get(code=response["Location"].rstrip("/").split("/")[-1])
    actions.do_set_presence(table.seats.get(position=sc.seat).pk, True, channel="test-page")
    cpus_play(table)
    assert panel(table)["key"][1] == lesson.DRAW
    submit(table, type="draw")
    assert panel(table)["key"][1] == lesson.OPEN
    minimum = actions.snapshot(table)[1].rules.opening_min(actions.snapshot(table)[1], "melds")
    assert f"at least {minimum}" in panel(table)["html"]  # the minimum, from the learner's view
    with pytest.raises(actions.ActionRefused) as refused:
        submit(table, type="open", melds=[[tile(table, t) for t in sc.opening[0].split()]])
    assert not refused.value.code.startswith("lesson_")  # the engine's own refusal
    submit(table, type="open", melds=[[tile(table, t) for t in m.split()] for m in sc.opening])
    submit(table, type="discard", tile=tile(table, sc.discards[0]))
    cpus_play(table)
    submit(table, type="draw")
    assert panel(table)["key"][1] == lesson.ADD
    table.refresh_from_db()
    placed = actions.resolve_place(table.pk, sc.seat, {"tile": tile(table, sc.add), "meld": None})
    submit(table, **placed)
    submit(table, type="discard", tile=tile(table, sc.discards[1]))
    assert panel(table)["key"][1] == lesson.DONE
