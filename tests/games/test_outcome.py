"""The outcome dialog and the running score table: what they say, from the engine.

Every ending of every rule set names the hand's winner or says why the hand is drawn,
the dialog says which way the totals win (``Rules.higher_wins``), its totals are the
game's, every score reason the engine can give has words, and the dialog arrives over
the websocket as a live fragment. Also the clicks that no longer do anything: an
immediate duplicate of a move just accepted changes nothing and is not an error, and
the invite card goes once the table has started.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from games.engine import apply, view_for
from games.engine.game import Game
from games.engine.rules import RULES, rules_for
from games.engine.simulate import play_hand
from games.engine.testing import make_state
from games.live import actions as table_actions
from games.live import messages, outcome, presenter, realtime
from games.models import HandAction, Table
from tests.games.conftest import cpu_table, play_out_hand

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
VARIANTS = tuple(RULES)  # every registered rule set (games/engine/rulesets/)
NAMES = {0: "Ayla", 1: "Baran", 2: "Cem", 3: "Deniz"}


def _tile(t: dict) -> dict:
    return presenter.tile_ctx(t, "classic")


def finished_hands(variant: str, n: int = 60) -> dict[str, object]:
    """One finished hand per ending that random play reaches (deterministic seeds)."""
    found: dict[str, object] = {}
    for i in range(n):
        state = play_hand(variant, None, f"outcome/{variant}/{i}", i % 4, random.Random(i))
        if state.over:
            found.setdefault(state.result["ending"], state)
    return found


def rummy_target_state():
    """A rummy hand that ends on a show of the indicator's twin reaching the target."""
    state = make_state(
        "rummy",
        racks=["R4 R1 R2 R3 Y5 Y6 Y7 K9 K10 K11 B1 B2 B3 R13 Y13", None, None, None],
        indicator="R3",
        turns_done=[0, 0, 0, 0],
        context={"totals": [7, 0, 0, 0]},
    )
    twin = state.indicator ^ 1
    state, _ = apply(state, {"type": "show", "seat": 0, "tile": twin})
    return state


# Endings random play does not reach, built by hand: rule set -> ending -> finished state.
BUILT_ENDINGS = {"rummy": {"target": rummy_target_state}}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_ending_names_the_winner_or_why_the_hand_is_drawn(variant):
    hands = finished_hands(variant)
    for ending, build in BUILT_ENDINGS.get(variant, {}).items():
        hands[ending] = build()
    assert "exhausted" in hands and len(hands) >= 2, hands.keys()
    for ending, state in hands.items():
        game = Game(variant, state.options)
        game.record_hand(state)
        with translation.override("en"):
            data = outcome.hand_outcome(view_for(state, 0), NAMES, game, _tile)
        finisher = state.result["finisher"]
        if ending == "exhausted":
            assert data["draw"] and data["winners"] == []
            assert data["headline"] == "The hand is drawn."
            assert "pile ran out" in data["why"]
        else:
            winner = finisher if finisher is not None else state.result["detail"]["shower"]
            assert data["winners"] == [winner]
            assert data["headline"] == f"{NAMES[winner]} wins the hand."
            assert data["groups"], f"{variant}/{ending}: the finishing rack is shown"
            if ending != "target":
                assert data["last_tile"], f"{variant}/{ending}: and the finishing tile"
        higher = rules_for(variant).higher_wins
        assert data["direction"] == (
            "The highest total wins." if higher else "The lowest total wins."
        )
        # the totals are the game's, and each seat's lines add up to its hand total
        assert [r["total"] for r in data["rows"]] == game.totals()
        for row in data["rows"]:
            assert sum(x["points"] for x in row["lines"]) == state.hand_totals()[row["seat"]]
            assert all(x["label"] != x["reason"].replace("_", " ") for x in row["lines"])


def test_fifty_one_partners_win_the_hand_together():
    for i in range(40):
        state = play_hand("fifty-one", {"partners": True}, f"partners/{i}", 0, random.Random(i))
        if state.over and state.result["finisher"] is not None:
            break
    else:
        pytest.fail("no finished partners hand")
    game = Game("fifty-one", state.options)
    game.record_hand(state)
    with translation.override("en"):
        data = outcome.hand_outcome(view_for(state, 1), NAMES, game, _tile)
    f = state.result["finisher"]
    team = sorted([f, (f + 2) % 4])
    assert data["winners"] == team
    assert data["headline"] == f"{NAMES[team[0]]}, {NAMES[team[1]]} win the hand."
    assert [t["total"] for t in data["game"]["teams"]] == game.team_totals()


def engine_reason_codes(path: Path) -> set[str]:
    """Every reason a score line written in one engine module can carry (scoring.line)."""
    text = path.read_text()
    codes = set(re.findall(r"line\([^()]*?,[^()]*?,\s*\"([a-z_]+)\"", text, re.S))
    codes |= set(re.findall(r"line\(\s*\w+,\s*[^,]+,\s*\"([a-z_]+)\"", text))
    if path.name == "scoring.py":
        codes |= set(re.findall(r"\"([a-z_]+)\": \d", text))
    return codes


def shared_reason_codes() -> set[str]:
    return set().union(
        *(
            engine_reason_codes(ENGINE / name)
            for name in ("scoring.py", "rulebase.py", "actions.py")
        )
    )


def test_the_shared_reasons_have_words():
    codes = shared_reason_codes()
    assert {"tiles_left", "indicator_shown", "not_opened", "finished"} <= codes
    with translation.override("en"):
        missing = sorted(c for c in codes if c not in messages.REASONS)
    assert not missing, f"score reasons without words: {missing}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_reason_and_ending_a_rule_set_gives_has_words(variant):
    """The shared lists (messages.REASONS, ENDINGS) or the rule set's own
    (Rules.reason_labels, ending_labels) name every reason its score lines carry and every
    way its hands end."""
    rules = RULES[variant]
    module = ENGINE / "rulesets" / f"{type(rules).__module__.rsplit('.', 1)[-1]}.py"
    codes = engine_reason_codes(module)  # the lines its own module writes
    seen: set[str] = set()
    endings: set[str] = set()
    rng = random.Random(variant)
    for i in range(30):
        state = play_hand(variant, None, f"reasons/{variant}/{i}", i % 4, rng)
        seen |= {x["reason"] for x in state.scores}
        if state.over:
            endings.add(state.result["ending"])
    endings |= set(BUILT_ENDINGS.get(variant, {}))
    with translation.override("en"):
        missing = sorted(
            c for c in codes | seen if messages.reason_label(c, variant) == c.replace("_", " ")
        )
        assert not missing, f"{variant}: score reasons without words: {missing}"
        wordless = sorted(
            e for e in endings if messages.ending_text(e, "Cem", variant) == e.replace("_", " ")
        )
        assert not wordless, f"{variant}: endings without words: {wordless}"
        for code in rules.ending_labels:  # an ending's own text names the finisher
            assert "Cem" in messages.ending_text(code, "Cem", variant), code


def test_places_share_equal_totals_in_the_rule_sets_direction():
    assert outcome.places([5, 9, 5, 1], higher_wins=True) == [2, 1, 2, 4]
    assert outcome.places([5, 9, 5, 1], higher_wins=False) == [2, 4, 2, 1]


# ---------------------------------------------------------------- the live fragment


def _ctx(table: Table, position: int = 0):
    table.refresh_from_db()
    seat = table.seats.get(position=position)
    return presenter.table_context(table, seat)


def _render(name: str, ctx: dict) -> str:
    return get_template(f"games/table.html#{name}").render(ctx)


@pytest.mark.django_db
def test_the_outcome_dialog_arrives_over_the_websocket_when_the_hand_ends():
    table = cpu_table("classic")
    ctx = _ctx(table)
    frame, keys = realtime.live_frame(ctx, None, "en")
    assert 'id="outcome-dialog"' not in frame  # the hand is being played
    assert 'id="standings-dialog"' in frame  # the running scores can be opened
    table = play_out_hand(table)
    with translation.override("en"):
        ctx = _ctx(table)
        frame, _ = realtime.live_frame(ctx, keys, "en")
    hand = table.current_hand
    dialog = re.search(r'<dialog class="outcome" id="outcome-dialog".*?</dialog>', frame, re.S)
    assert dialog, "the ending's frame carries the dialog"
    html = dialog.group(0)
    assert 'aria-labelledby="outcome-title"' in html
    game = table_actions.game_for(table)
    result = hand.result
    if result["ending"] == "exhausted":
        assert "The hand is drawn." in html
    else:
        name = table.seats.get(position=result["finisher"]).display_name()
        assert f"{name} wins the hand." in html
    assert "The highest total wins." in html
    for seat in range(4):
        total = re.search(rf'data-testid="outcome-total-{seat}"><b>(-?\d+)</b>', html).group(1)
        assert int(total) == game.totals()[seat]
    assert 'data-act="next_hand"' in html
    assert reverse("review:hand", args=[hand.id]) in html
    assert reverse("games:sheet", args=[table.code]) in html
    # the running score table has the hand too
    standings = _render("standings", ctx)
    assert [int(x) for x in re.findall(r'standing-total-\d"><b>(-?\d+)', standings)] == (
        game.totals()
    )


@pytest.mark.django_db
def test_all_racks_draws_every_tile_with_its_number_and_colour():
    """The outcome's "All racks" (RULES.md "Information": every rack is revealed once the
    hand is over) draws each seat's tiles as the table does: number and colour shown."""
    table = play_out_hand(cpu_table("classic"))
    ctx = _ctx(table)
    racks = table_actions.load_state(table.current_hand).racks
    html = get_template("games/_outcome.html#outcome").render(ctx)
    revealed = re.search(r'<details class="outcome-revealed">.*?</details>', html, re.S).group(0)
    shown = re.findall(r'data-t="([^"]+)"[^>]*><span class="num"[^>]*>([^<]*)</span>', revealed)
    assert len(shown) == sum(len(r) for r in racks)
    for t, number in shown:
        assert number == ("F" if t == "F" else t[1:]), (t, number)
    assert all(f"c-{t[0].lower()}" in revealed for t, _ in shown if t != "F")


@pytest.mark.django_db
def test_the_end_of_the_game_names_its_winner_and_the_places():
    table = cpu_table("fifty-one", hands=1, clock=0)
    table = play_out_hand(table)
    assert table.status == Table.Status.FINISHED
    with translation.override("en"):
        ctx = _ctx(table)
        html = _render("result", ctx)
    game = table_actions.game_for(table)
    names = {s.position: s.display_name() for s in table.seats.all()}
    winners = game.winners()
    if len(winners) == 1:
        assert f"{names[winners[0]]} wins the game." in html
    else:
        assert "The game is won by" in html
    places = re.search(r'data-testid="places".*?</ol>', html, re.S).group(0)
    listed = re.findall(r'<span class="name">([^<]+)</span> <b>(-?\d+)</b>', places)
    assert [int(t) for _, t in listed] == sorted(game.totals())  # lowest wins
    assert "The lowest total wins." in html
    assert 'data-act="next_hand"' not in html  # no hand follows


# ------------------------------------------------------------ clicks that did already


@pytest.mark.django_db
def test_an_immediate_duplicate_of_the_move_just_made_changes_nothing_silently():
    table = cpu_table("classic")
    table.refresh_from_db()
    state = table_actions.load_state(table.current_hand)
    assert state.turn == 0  # the human starts, in the play phase
    tile = state.racks[0][0]
    v = table.version
    table_actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": tile}, v)
    again = table_actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": tile}, v)
    table.refresh_from_db()
    assert again.version == table.version == v + 1
    assert HandAction.objects.filter(hand=table.current_hand).count() == 1
    # another move on the old version is still refused: the table had moved on
    other = state.racks[0][1]
    with pytest.raises(table_actions.ActionRefused) as refused:
        table_actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": other}, v)
    assert refused.value.code == "stale_state"


@pytest.mark.django_db
def test_a_second_next_hand_click_changes_nothing_silently():
    table = cpu_table("classic")
    table = play_out_hand(table)
    v = table.version
    table_actions.do_next_hand(table.pk, v)
    table.refresh_from_db()
    number = table.current_hand.number
    table_actions.do_next_hand(table.pk, v)  # the double click
    table.refresh_from_db()
    assert table.version == v + 1 and table.current_hand.number == number


@pytest.mark.django_db
def test_the_invite_card_goes_for_everyone_once_the_table_starts():
    table = table_actions.do_create_table(
        variant="classic",
        options={},
        seats=[table_actions.SeatSpec("me")] + [table_actions.SeatSpec("human")] * 3,
        user=None,
        guest_key="host",
    )
    ctx = _ctx(table)
    frame, keys = realtime.live_frame(ctx, None, "en")
    assert 'id="t-invite"' not in frame  # waiting: the page's card stays
    table_actions.do_fill_with_cpus(table.pk, guest_key="host")
    frame, _ = realtime.live_frame(_ctx(table), keys, "en")
    assert re.search(r'<section id="t-invite" hidden hx-swap-oob="true">', frame)


# ---------------------------------------------------------------- meld staging's total


def test_staged_melds_count_against_what_the_opening_needs():
    from games.live.staging import staged_text, staged_total

    state = make_state(
        "fifty-one",
        racks=["R10 R11 R12 K7 Y7 B7 B1 B2 Y9 K3 K5 R2 R5 Y11 B13", None, None, None],
        indicator="B4",
        options={"clock": 0},
    )
    run = [t for t in state.racks[0][:3]]
    group = list(state.racks[0][3:6])
    data = staged_total(state, 0, [run])
    assert (data["total"], data["need"]) == (33, 51)
    with translation.override("en"):
        assert staged_text(data) == "33 of 51 needed to open · 18 more"
    data = staged_total(state, 0, [run, group])
    assert (data["total"], data["need"]) == (54, 51)
    # doubling [D10]: after an opening of 60 the next one needs 61
    state.limit = 60
    assert staged_total(state, 0, [run, group])["need"] == 61
    # a tile that is not in the seat's rack is worth nothing
    other = state.racks[1][0]
    assert staged_total(state, 0, [[other, *run[1:]]])["melds"][0]["kind"] is None


def test_seventeen_staging_needs_its_own_minimum():
    from games.live.staging import staged_total

    state = make_state(
        "seventeen",
        racks=["R10 R11 R12 K7 Y7 B7 B1 B2 Y9 K3 K5 R2 R5 Y11 B13", None, None, None],
        indicator="B4",
    )
    data = staged_total(state, 0, [list(state.racks[0][:3])])
    assert (data["total"], data["need"]) == (11, 17)  # a run counts its middle tile


@pytest.mark.django_db
def test_the_staging_view_values_only_the_askers_own_tiles(client):
    from django.contrib.auth.models import User

    user = User.objects.create_user("stager", password="pw-stager-1")
    client.force_login(user)
    table = cpu_table("fifty-one", user=user, clock=0)
    state = table_actions.load_state(table.current_hand)
    mine = list(state.racks[0][:3])
    url = reverse("games:staging", args=[table.code])
    r = client.get(url, {"melds": json.dumps([mine])})
    assert r.status_code == 200 and r.json()["need"] == 51
    assert "of 51 needed to open" in r.json()["text"]
    client.logout()  # a spectator has no rack to stage from
    assert client.get(url, {"melds": json.dumps([mine])}).status_code == 400
    client.force_login(user)
    assert client.get(url, {"melds": "[[1, 2"}).status_code == 400


@pytest.mark.django_db
def test_a_refused_opening_says_its_numbers():
    table = cpu_table("fifty-one", clock=0)
    state = table_actions.load_state(table.current_hand)
    rack = state.racks[0]
    from games.engine.melds import classify

    run = next(  # any three tiles of the rack that make a meld worth less than 51
        [a, b, c]
        for i, a in enumerate(rack)
        for j, b in enumerate(rack[i + 1 :], i + 1)
        for c in rack[j + 1 :]
        if classify([a, b, c], state.okey_kind, ace_high=True) is not None
    )
    with pytest.raises(table_actions.ActionRefused) as refused:
        table_actions.do_submit_action(table.pk, 0, {"type": "open", "melds": [run]}, table.version)
    assert refused.value.code == "below_opening_limit"
    with translation.override("en"):
        text = messages.refusal_text(refused.value.code, refused.value.message)
    assert re.fullmatch(r"Your opening totals \d+; it needs at least 51\.", text), text


@pytest.mark.django_db
def test_the_discard_on_the_felt_is_clickable_only_while_it_may_be_taken():
    table = cpu_table("classic")
    state = table_actions.load_state(table.current_hand)
    table_actions.do_submit_action(table.pk, 0, {"type": "discard", "tile": state.racks[0][0]}, 1)
    takeable = re.compile(r'<div data-testid="takeable"[^>]*>')

    def div(position: int) -> str:
        return takeable.search(_render("center", _ctx(table, position))).group(0)

    # seat 1 may take seat 0's discard now; for seat 0 a click could only be refused
    assert 'data-act="take"' in div(1)
    assert 'data-act="take"' not in div(0)


def test_a_score_lines_why_does_not_repeat_its_reason():
    """ "Hand closed" is followed by who closed it, not by "closed by" again."""
    names = {0: "Ayşe", 1: "Cem"}
    for reason in ("close", "okey_close", "pairs_close"):
        assert str(messages.REASONS[reason]).startswith("Hand closed")
        why = outcome.line_detail({"reason": reason, "detail": {"closer": 1}}, names, "classic")
        assert why == "by Cem", (reason, why)
    shown = outcome.line_detail(
        {"reason": "indicator_shown", "detail": {"shower": 0}}, names, "classic"
    )
    assert shown == "by Ayşe"


def test_101_lines_say_the_okey_value_and_the_endings_multiplier():
    """101 (RULES.md §6): an okey left counts 101 inside the sum [D34], and an okey finish
    doubles the finisher's and the unopened rival's lines (× 2): the dialog says both."""
    rules = rules_for("101")
    # indicator R2: the okey is R3; seat 1 opened and keeps K5 and an okey, seat 3 never opened
    state = make_state(
        "101",
        ["R7", "K5 R3", "B9 B10", "K1 K2 K4"],
        indicator="R2",
        opened=["melds", "melds", "melds", None],
    )
    ending, lines = rules.end_lines(state, 0, True)
    by_seat = {ln["seat"]: ln for ln in lines}
    assert by_seat[1]["points"] == (5 + 101) * 2
    left = outcome.line_detail(by_seat[1], NAMES, "101")
    assert "the sum counts 1 okey as 101" in left
    assert "× 2" in left
    assert outcome.line_detail(by_seat[0], NAMES, "101") == "× 2 for this ending"
    assert by_seat[3]["points"] == 404
    assert outcome.line_detail(by_seat[3], NAMES, "101") == "× 2 for this ending"
    _, plain = rules.end_lines(state, 0, False)
    assert outcome.line_detail(plain[0], NAMES, "101") == ""  # a normal finish: nothing to add
