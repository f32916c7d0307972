"""Duplicate scoring (games/tournaments/duplicate.py, RULES.md [D38]).

The worked examples are the ones of docs/duplicate.md, computed by hand here.
"""

from __future__ import annotations

import hashlib

import pytest

from games.engine.rulesets import RULES
from games.engine.state import new_hand
from games.engine.tiles import kind_notation, notation
from games.tournaments.duplicate import (
    IMP_FACTOR,
    METHODS,
    DuplicateError,
    DuplicateRow,
    Holding,
    breakdown,
    commitment,
    deal_cards,
    matchpoint_top,
    score,
    standings,
)


def seat_row(scores, *, seat=0, deal=1, rnd=1, players=None):
    """One deal at len(scores) tables, every seat held; ``scores`` are ``seat``'s
    hand totals table by table (tables 1..t), the other seats all score 0."""
    players = players or [f"p{t}" for t in range(1, len(scores) + 1)]
    out = []
    for t, (s, p) in enumerate(zip(scores, players, strict=True), start=1):
        for other in range(4):
            if other == seat:
                out.append(Holding(rnd, deal, seat, t, p, s))
            else:
                out.append(Holding(rnd, deal, other, t, None, 0))
    return out


def points(scored, seat=0, deal=1, rnd=1):
    """``seat``'s points table by table."""
    return [v for (r, d, s, _t), v in sorted(scored.items()) if (r, d, s) == (rnd, deal, seat)]


# ------------------------------------------------------------------ matchpoints


def test_two_tables_matchpoints_lower_wins():
    # 101, seat 0: table 1 finishes (-101), table 2 never opens (202): 2 and 0
    scored = score(seat_row([-101, 202]), method="matchpoints", higher_is_better=False)
    assert points(scored) == [2.0, 0.0]


def test_two_tables_matchpoints_higher_wins():
    # classic: table 1's holder closed (0), table 2's paid a close (-2)
    scored = score(seat_row([0, -2]), method="matchpoints", higher_is_better=True)
    assert points(scored) == [2.0, 0.0]
    # the same totals where lower wins turn round
    scored = score(seat_row([0, -2]), method="matchpoints", higher_is_better=False)
    assert points(scored) == [0.0, 2.0]


def test_three_tables_matchpoints():
    # 101, seat 0: -101 beats both (4), 118 beats 202 (2), 202 beats nobody (0)
    scored = score(seat_row([-101, 118, 202]), method="matchpoints", higher_is_better=False)
    assert points(scored) == [4.0, 2.0, 0.0]
    assert matchpoint_top(3) == 4


def test_ties_share_a_matchpoint_each():
    # 118 at tables 2 and 3: each gets 1 for the tie, nothing against the other
    scored = score(seat_row([-101, 118, 118]), method="matchpoints", higher_is_better=False)
    assert points(scored) == [4.0, 1.0, 1.0]
    scored = score(seat_row([5, 5, 5]), method="matchpoints", higher_is_better=True)
    assert points(scored) == [2.0, 2.0, 2.0]


def test_a_deal_played_at_one_table_scores_nothing():
    scored = score(seat_row([-101]), method="matchpoints", higher_is_better=False)
    assert set(scored.values()) == {0.0}
    scored = score(seat_row([-101]), method="imps", higher_is_better=False, variant="101")
    assert set(scored.values()) == {0.0}
    assert matchpoint_top(1) == 0


def test_seats_are_compared_only_with_the_same_seat():
    # seat 0 scores 10 at table 1 and 0 at table 2; seat 1 the other way round: each
    # seat's winner is at another table, and the other seats (all 0) tie
    holdings = [
        Holding(1, 1, 0, 1, "a", 10),
        Holding(1, 1, 1, 1, "b", 0),
        Holding(1, 1, 0, 2, "c", 0),
        Holding(1, 1, 1, 2, "d", 10),
    ]
    scored = score(holdings, method="matchpoints", higher_is_better=True)
    assert scored == {(1, 1, 0, 1): 2.0, (1, 1, 1, 1): 0.0, (1, 1, 0, 2): 0.0, (1, 1, 1, 2): 2.0}


def test_deals_and_rounds_are_compared_apart():
    holdings = seat_row([3, 0], deal=1) + seat_row([0, 3], deal=2) + seat_row([0, 3], rnd=2)
    scored = score(holdings, method="matchpoints", higher_is_better=True)
    assert points(scored, deal=1) == [2.0, 0.0]
    assert points(scored, deal=2) == [0.0, 2.0]
    assert points(scored, rnd=2) == [0.0, 2.0]


def test_cpu_holders_are_compared_against_but_never_listed():
    # three tables; the CPU at table 2 beat the human at table 3
    holdings = seat_row([-101, 118, 202], players=["ada", None, "cem"])
    scored = score(holdings, method="matchpoints", higher_is_better=False)
    assert points(scored) == [4.0, 2.0, 0.0]
    rows = standings(holdings, method="matchpoints", higher_is_better=False)
    assert [r.player for r in rows] == ["ada", "cem"]
    assert [r.points for r in rows] == [4.0, 0.0]


# ------------------------------------------------------------------ IMPs


def test_imps_two_tables():
    # 101 (factor 2): -101 against 202 is 303 points = 606 bridge points = 12 IMPs
    scored = score(seat_row([-101, 202]), method="imps", higher_is_better=False, variant="101")
    assert points(scored) == [12.0, -12.0]
    # classic (factor 50): a close (0) against paying it (-2): 2 = 100 = 3 IMPs
    scored = score(seat_row([0, -2]), method="imps", higher_is_better=True, variant="classic")
    assert points(scored) == [3.0, -3.0]


def test_imps_three_tables_against_the_mean_of_the_others():
    # 101, seat 0 at three tables: -101, 118, 202
    # table 1: datum (118 + 202) / 2 = 160, 261 better = 522 bridge points = 11 IMPs
    # table 2: datum (-101 + 202) / 2 = 50.5, 67.5 worse = 135 = -4 IMPs
    # table 3: datum (-101 + 118) / 2 = 8.5, 193.5 worse = 387 = -9 IMPs
    holdings = seat_row([-101, 118, 202])
    scored = score(holdings, method="imps", higher_is_better=False, variant="101")
    assert points(scored) == [11.0, -4.0, -9.0]


def test_imps_table_edges():
    # fifty-one counts its points as bridge points: 19 is nothing, 20 one IMP, 4000 the top
    for diff, imps in [(10, 0), (19, 0), (20, 1), (49, 1), (50, 2), (585, 11), (3999, 23)]:
        scored = score(
            seat_row([0, diff]), method="imps", higher_is_better=True, variant="fifty-one"
        )
        assert points(scored) == [-imps, imps], diff
    scored = score(seat_row([0, 9000]), method="imps", higher_is_better=True, variant="fifty-one")
    assert points(scored) == [-24.0, 24.0]


def test_imps_from_a_fractional_datum():
    # classic, three tables: 0, 0, -1. Table 3: datum 0, 1 worse = 50 = -2 IMPs.
    # Tables 1 and 2: datum (0 - 1) / 2 = -0.5, 0.5 better = 25 bridge points = 1 IMP
    scored = score(seat_row([0, 0, -1]), method="imps", higher_is_better=True, variant="classic")
    assert points(scored) == [1.0, 1.0, -2.0]
    # six tables, one -2: the others' datum is -2 / 5 = -0.4, and 0.4 x 50 = 20 is one IMP
    scored = score(
        seat_row([0, -2, 0, 0, 0, 0]), method="imps", higher_is_better=True, variant="classic"
    )
    assert points(scored) == [1.0, -3.0, 1.0, 1.0, 1.0, 1.0]


def test_imps_need_the_rule_sets_scale():
    with pytest.raises(DuplicateError) as e:
        score(seat_row([0, 1]), method="imps", higher_is_better=True)
    assert e.value.code == "imp_scale_unknown"
    with pytest.raises(DuplicateError) as e:
        score(seat_row([0, 1]), method="imps", higher_is_better=True, variant="bridge")
    assert e.value.code == "imp_scale_unknown"
    assert set(IMP_FACTOR) == set(RULES)  # every rule set has its scale


# ------------------------------------------------------------------ standings


def test_standings_add_up_ranks_and_ties():
    # two deals at three tables, seat 0 held by a, b, c; then by b, c, a
    holdings = seat_row([-101, 118, 202], players=["a", "b", "c"], deal=1) + seat_row(
        [-101, 118, 202], players=["b", "c", "a"], deal=2
    )
    rows = standings(holdings, method="matchpoints", higher_is_better=False)
    # a: 4 + 0, b: 2 + 4, c: 0 + 2
    assert rows == [
        DuplicateRow(rank=1, player="b", points=6.0, deals=2),
        DuplicateRow(rank=2, player="a", points=4.0, deals=2),
        DuplicateRow(rank=3, player="c", points=2.0, deals=2),
    ]


def test_equal_totals_share_a_rank_and_skip_the_next():
    holdings = seat_row([1, 1, 0, -1], players=["9", "10", "3", "4"])
    rows = standings(holdings, method="matchpoints", higher_is_better=True)
    # 9 and 10: 2 + 2 + 1 = 5 each (share 1st, ordered by entry id), 3: 2, 4: 0
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (1, "9", 5.0),
        (1, "10", 5.0),
        (3, "3", 2.0),
        (4, "4", 0.0),
    ]


def test_a_late_entry_counts_only_the_deals_it_held():
    holdings = seat_row([0, -2], players=["a", None], rnd=1) + seat_row(
        [0, -2], players=["a", "late"], rnd=2
    )
    rows = standings(holdings, method="imps", higher_is_better=True, variant="classic")
    assert [(r.player, r.points, r.deals) for r in rows] == [("a", 6.0, 2), ("late", -3.0, 1)]


# ------------------------------------------------------------------ refusals


def test_refuses_a_deal_at_tables_of_different_sizes():
    holdings = seat_row([0, 1])[:-1]  # table 2 has seats 0-2 only
    with pytest.raises(DuplicateError) as e:
        score(holdings, method="matchpoints", higher_is_better=True)
    assert e.value.code == "player_count_mismatch"
    assert "another deal" in e.value.message


def test_refuses_a_holding_given_twice():
    holdings = seat_row([0, 1])
    with pytest.raises(DuplicateError) as e:
        score(holdings + [holdings[0]], method="matchpoints", higher_is_better=True)
    assert e.value.code == "duplicate_holding"


def test_refuses_seats_outside_the_table():
    holdings = [Holding(1, 1, s, 1, None, 0) for s in (0, 1, 3)]
    with pytest.raises(DuplicateError) as e:
        score(holdings, method="matchpoints", higher_is_better=True)
    assert e.value.code == "bad_seat"


def test_refuses_an_unknown_method():
    with pytest.raises(DuplicateError) as e:
        score([], method="butler", higher_is_better=True)
    assert e.value.code == "unknown_method"
    assert METHODS == ("matchpoints", "imps")


# ------------------------------------------------------------------ breakdown


def test_breakdown_lists_each_tables_holder_in_table_order():
    holdings = list(reversed(seat_row([-101, 118, 202], players=["a", None, "c"])))
    scored = score(holdings, method="matchpoints", higher_is_better=False)
    lines = breakdown(holdings, scored)
    assert [(line.round, line.deal, line.seat) for line in lines] == [(1, 1, s) for s in range(4)]
    first = lines[0]
    assert [(r.table, r.player, r.score, r.points) for r in first.results] == [
        (1, "a", -101, 4.0),
        (2, None, 118, 2.0),
        (3, "c", 202, 0.0),
    ]


# ------------------------------------------------------------------ seeds and cards


def test_commitment_is_the_sha256_of_the_seed():
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    assert commitment("güç") == hashlib.sha256("güç".encode()).hexdigest()
    assert commitment("abc") != commitment("abd")


def _cases():
    for name, rules in RULES.items():
        for n in rules.players:
            yield name, n


@pytest.mark.parametrize(("variant", "players"), list(_cases()))
def test_cards_are_the_servers_deal(variant, players):
    options = {"players": players}
    for deal_number, seed in enumerate(["dup-1-1", "dup-1-2", "Ω seed"], start=1):
        starter = (deal_number - 1) % players  # [D2]: deal k starts at seat k - 1
        state = new_hand(variant, options, seed, starter)
        cards = deal_cards(variant, options, seed, starter)
        assert len(cards) == players
        for seat, card in enumerate(cards):
            assert card.seat == seat
            assert card.starter == (seat == starter)
            assert list(card.rack) == [notation(t) for t in state.racks[seat]]
            assert sorted(card.sorted_rack) == sorted(card.rack)
            assert card.indicator == notation(state.indicator)
            assert card.okey == kind_notation(state.okey_kind)
            assert list(card.pile) == [notation(t) for t in reversed(state.pile)]
        # every tile once: racks + indicator + pile is the whole set
        every = [t for c in cards for t in c.rack] + [cards[0].indicator, *cards[0].pile]
        assert len(every) == 106


def test_sorted_rack_runs_by_colour_then_number_false_jokers_last():
    cards = deal_cards("classic", {}, "dup-1-1", 0)
    order = "RYBK"
    for card in cards:
        keys = [(4, 0) if t == "F" else (order.index(t[0]), int(t[1:])) for t in card.sorted_rack]
        assert keys == sorted(keys)


def test_cards_refuse_a_starter_outside_the_table():
    from games.engine.refusals import Refusal

    with pytest.raises(Refusal):
        deal_cards("classic", {}, "x", 4)
