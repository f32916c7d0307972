"""Tournament seating."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.tiles import SeedRng
from games.tournaments.seating import (
    FREE,
    IN_TURN,
    OUT_TURN,
    SeatedTable,
    SeatingImpossible,
    cpu_table_counts,
    cpu_turns,
    meeting_matrix,
    repeat_pairs,
    seat_round,
    start_counts,
    table_shape,
)


def ids(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def as_round(tables: list[SeatedTable]) -> list[tuple]:
    return [t.seats for t in tables]


def play(players, rounds, *, seed="club-night", past=None, **kw):
    past = list(past or [])
    start = len(past)
    for r in range(start + 1, start + rounds + 1):
        past.append(as_round(seat_round(players, past, seed=seed, round_no=r, **kw)))
    return past


def check_round(tables: list[SeatedTable], players: list[str]) -> None:
    seated = [p for t in tables for p in t.seats if p is not None]
    assert sorted(seated) == sorted(players)  # everyone exactly once
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    for t in tables:
        assert t.seats and t.seats[0] is not None  # a player starts every table


# --------------------------------------------------------------------- statistics


def test_meeting_matrix_start_counts_and_repeats():
    rounds = [
        [("a", "b", "c", None), ("d", "e", "f", "g")],
        [("b", "a", "d", "e"), ("c", "f", "g", None)],
    ]
    m = meeting_matrix(rounds)
    assert m[("a", "b")] == 2 and m[("d", "e")] == 2 and m[("f", "g")] == 2
    assert m[("a", "d")] == 1 and ("a", "g") not in m
    assert all(a < b for a, b in m)
    assert start_counts(rounds) == {"a": 1, "d": 1, "b": 1, "c": 1}
    assert repeat_pairs(rounds) == 3
    assert repeat_pairs(rounds[:1]) == 0


# ---------------------------------------------------------------------- table shape


@pytest.mark.parametrize(
    "n,size,least,expect",
    [
        (16, 4, None, [(4, 4)] * 4),
        (13, 4, None, [(4, 4), (3, 4), (3, 4), (3, 4)]),  # one CPU at each of three tables
        (14, 4, None, [(4, 4), (4, 4), (3, 4), (3, 4)]),
        (5, 4, None, [(3, 4), (2, 4)]),
        (2, 4, None, [(2, 4)]),
        (13, 4, 3, [(4, 4), (3, 3), (3, 3), (3, 3)]),  # three-player tables, no CPU
        (6, 4, 3, [(3, 3), (3, 3)]),
        (5, 4, 3, [(3, 3), (2, 3)]),  # too few for two three-player tables: one CPU
        (0, 4, None, []),
    ],
)
def test_table_shape(n, size, least, expect):
    assert table_shape(n, size, least) == expect


@given(st.integers(0, 80), st.sampled_from([3, 4]), st.booleans())
def test_table_shape_properties(n, size, three):
    least = 3 if three and size == 4 else None
    shape = table_shape(n, size, least)
    assert sum(p for p, _ in shape) == n
    if shape:
        assert len(shape) == -(-n // size)
        assert max(p for p, _ in shape) - min(p for p, _ in shape) <= 1
    for players, seats in shape:
        assert players <= seats <= size
        assert seats == max(players, least or size)


def test_bad_arguments():
    with pytest.raises(ValueError):
        seat_round(["a", "a", "b"], [], seed="s", round_no=1)
    with pytest.raises(ValueError):
        seat_round(ids(8), [], seed="s", round_no=1, method="random")
    with pytest.raises(ValueError):
        seat_round(ids(8), [], seed="s", round_no=1, min_table_size=5)
    assert seat_round([], [], seed="s", round_no=1) == []


# ---------------------------------------------------------------------- round one


def test_round_one_is_the_published_shuffle():
    players = ids(10)
    tables = seat_round(players, [], seed="autumn-cup", round_no=1)
    order = sorted(players)
    SeedRng("autumn-cup", stream="tournament-seating/1").shuffle(order)
    # 10 players at tables of four: 4 + 3 + 3, CPU seats last
    assert as_round(tables) == [
        tuple(order[0:4]),
        (*order[4:7], None),
        (*order[7:10], None),
    ]


def test_round_one_reproducible_and_order_independent():
    players = ids(23)
    a = seat_round(players, [], seed="s1", round_no=1)
    b = seat_round(list(reversed(players)), [], seed="s1", round_no=1)
    assert a == b
    check_round(a, players)


def test_different_seeds_differ():
    players = ids(16)
    seatings = {
        tuple(as_round(seat_round(players, [], seed=f"s{i}", round_no=1))) for i in range(8)
    }
    assert len(seatings) == 8
    past = play(players, 1, seed="same")
    later = {tuple(as_round(seat_round(players, past, seed=f"s{i}", round_no=2))) for i in range(6)}
    assert len(later) > 1


@pytest.mark.parametrize("n,rounds", [(14, 4), (24, 3)])
def test_later_rounds_reproducible(n, rounds):
    players = ids(n)
    past = play(players, rounds, seed="x")
    assert play(players, rounds, seed="x") == past
    one = seat_round(players, past, seed="x", round_no=rounds + 1)
    two = seat_round(list(reversed(players)), past, seed="x", round_no=rounds + 1)
    assert one == two


# ------------------------------------------------------------------------ repeats


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_sixteen_players_five_rounds_without_a_repeat(seed):
    players = ids(16)
    past = play(players, 5, seed=seed)
    assert repeat_pairs(past) == 0
    assert len(meeting_matrix(past)) == 16 * 15 // 2  # everyone met everyone once


@pytest.mark.parametrize("n,rounds", [(16, 5), (24, 5), (20, 4)])
def test_no_repeats_with_the_number_of_rounds_known(n, rounds):
    past = play(ids(n), rounds, seed="known", rounds_total=rounds)
    assert repeat_pairs(past) == 0


def test_sixteen_players_search_alone_finds_repeat_free_rounds():
    # without the affine-plane continuation the two-round look-ahead still avoids the
    # dead ends for these seeds (the benchmark reports the rate over more seeds)
    for seed in ("a", "b"):
        past = play(ids(16), 5, seed=seed, construction=False)
        assert repeat_pairs(past) == 0


def test_nine_players_at_tables_of_three_four_rounds_without_a_repeat():
    past = play(ids(9), 4, seed="trio", table_size=3)
    assert repeat_pairs(past) == 0


@pytest.mark.parametrize("n,rounds", [(24, 4), (32, 5), (40, 4), (100, 5)])
def test_no_repeats_where_easily_possible(n, rounds):
    players = ids(n)
    past = []
    for r in range(1, rounds + 1):
        tables = seat_round(players, past, seed="open", round_no=r)
        check_round(tables, players)
        past.append(as_round(tables))
    assert repeat_pairs(past) == 0


def test_twelve_players_fewest_repeats():
    # 3 tables of 4: every new table holds two players of one old table (pigeonhole), so
    # round 2 has at least 3 repeated pairs, and the search finds exactly that.
    past = play(ids(12), 2, seed="small")
    assert repeat_pairs(past) == 3


def test_sixth_round_of_sixteen_spreads_repeats():
    # after the five repeat-free rounds every pair has met once: round 6 repeats 24 pairs
    # (6 per table), but nobody meets anyone a third time and nobody sits with the
    # players of their round-5 table again
    players = ids(16)
    past = play(players, 6, seed="long")
    assert repeat_pairs(past) == 24
    assert max(meeting_matrix(past).values()) == 2
    last = {frozenset(t) for t in past[-1]}
    previous = {frozenset(t) for t in past[-2]}
    assert not last & previous


def test_previous_round_costs_more():
    # players 0-3 met in round 1 and 4-7 in round 2 … with 8 players and tables of 4,
    # round 3 must repeat pairs; it prefers pairs from round 1 over pairs from round 2
    players = ids(8)
    past = [
        [("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7")],
        [("p0", "p1", "p4", "p5"), ("p2", "p3", "p6", "p7")],
    ]
    tables = seat_round(players, past, seed="s", round_no=3)
    last = meeting_matrix(past[-1:])
    met_last = sum(
        1 for t in as_round(tables) for a, b in combinations(sorted(t), 2) if (a, b) in last
    )
    # every split of 8 into two fours repeats pairs; the best one repeats none of round 2's
    # pairs more than it must: two pairs from round 2 (p0-p1 style) can be avoided? No: each
    # table of 4 takes 2 of {p0,p1,p4,p5} or … the minimum is 4 pairs from round 2.
    best = min(
        sum(1 for a, b in combinations(sorted(g), 2) if (a, b) in last)
        + sum(1 for a, b in combinations(sorted(set(players) - set(g)), 2) if (a, b) in last)
        for g in combinations(players, 4)
    )
    assert met_last == best


# ------------------------------------------------------------ entries and drop-outs


def test_late_entries_and_drop_outs():
    players = ids(12)
    past = play(players, 2, seed="club")
    # two players drop out, five enter late before round 3
    now = [p for p in players if p not in ("p3", "p7")] + ids(5, "late")
    tables = seat_round(now, past, seed="club", round_no=3)
    check_round(tables, now)
    assert not {"p3", "p7"} & {p for t in tables for p in t.seats}
    # 15 players at tables of four: 4 + 4 + 4 + 3 with one CPU
    assert sorted(sum(p is None for p in t.seats) for t in tables) == [0, 0, 0, 1]
    past.append(as_round(tables))
    # a round later the newcomers are still seated with fresh opponents
    tables4 = seat_round(now, past, seed="club", round_no=4)
    check_round(tables4, now)
    old = meeting_matrix(past)
    fresh = meeting_matrix([as_round(tables4)])
    assert sum(1 for pair in fresh if pair in old) <= 3


def test_no_shows_in_round_one():
    players = ids(10)
    present = players[:7]
    tables = seat_round(present, [], seed="s", round_no=1)
    check_round(tables, present)


# ----------------------------------------------------------- CPU and three-player fill


def test_cpu_seats_spread_one_per_table():
    players = ids(13)
    past = play(players, 3, seed="cpu")
    for rnd in past:
        assert sorted(sum(p is None for p in t) for t in rnd) == [0, 1, 1, 1]
        for t in rnd:
            assert len(t) == 4 and t[0] is not None


def test_three_player_tables_when_allowed():
    players = ids(13)
    past = play(players, 3, seed="rummy-night", min_table_size=3)
    for rnd in past:
        assert sorted(len(t) for t in rnd) == [3, 3, 3, 4]
        assert all(p is not None for t in rnd for p in t)


@pytest.mark.parametrize("seed", ["rotate", "b", "c"])
def test_short_tables_rotate(seed):
    # 17 players: 4 + 4 + 3 + 3 + 3 each round (9 short seats of 17): the three-player
    # tables go round instead of landing on the same players
    players = ids(17)
    past = play(players, 4, seed=seed, min_table_size=3)
    short = Counter(p for rnd in past for t in rnd if len(t) == 3 for p in t)
    per_player = [short[p] for p in players]
    assert sum(per_player) == 36
    assert max(per_player) - min(per_player) <= 2
    assert repeat_pairs(past) <= 1


# ------------------------------------------------------------------ starting seats


@pytest.mark.parametrize("n,rounds", [(8, 8), (12, 6), (16, 7), (13, 6), (40, 6)])
def test_starting_seats_balanced(n, rounds):
    players = ids(n)
    past = play(players, rounds, seed="starts")
    counts = start_counts(past)
    per_player = [counts.get(p, 0) for p in players]
    assert sum(per_player) == sum(len(r) for r in past)
    assert max(per_player) - min(per_player) <= 1


# ------------------------------------------------------------------------- Swiss


def test_swiss_groups_by_ranking():
    players = ids(16)
    round1 = [tuple(players[i : i + 4]) for i in range(0, 16, 4)]
    # the top four never met: they form table 1; the next four table 2, and so on
    ranking = [players[i + 4 * k] for i in range(4) for k in range(4)]
    tables = seat_round(players, [round1], seed="s", round_no=2, method="swiss", ranking=ranking)
    for no, t in enumerate(tables):
        assert set(t.seats) == set(ranking[4 * no : 4 * no + 4])


def test_swiss_still_avoids_repeats():
    players = ids(16)
    round1 = [tuple(players[i : i + 4]) for i in range(0, 16, 4)]
    ranking = list(players)  # the top four all met in round 1
    tables = seat_round(players, [round1], seed="s", round_no=2, method="swiss", ranking=ranking)
    assert repeat_pairs([round1, as_round(tables)]) == 0
    pos = {p: i for i, p in enumerate(ranking)}
    means = [sum(pos[p] for p in t.seats) / 4 for t in tables]
    assert means == sorted(means)  # tables numbered from the top
    assert "p0" in tables[0].seats  # the leader plays at table 1
    # without repeats each table takes one player of each round-1 table; Swiss makes them
    # neighbours: table 1 near the best of each block ({0, 4, 8, 12}: mean 6), the last
    # table near the worst ({3, 7, 11, 15}: mean 9)
    assert means[0] <= 7 and means[-1] >= 8


def test_swiss_unranked_players_go_last():
    players = ids(12)
    past = play(players, 1, seed="s")
    ranking = players[:8]  # p8..p11 entered late: not ranked yet
    tables = seat_round(players, past, seed="s", round_no=2, method="swiss", ranking=ranking)
    check_round(tables, players)
    last = set(tables[-1].seats)
    assert len(last & {"p8", "p9", "p10", "p11"}) >= 2


def test_swiss_many_rounds_uses_the_ranking_each_round():
    players = ids(32)
    past = play(players, 1, seed="sw")
    for r in range(2, 7):
        ranking = sorted(players, key=lambda p: (int(p[1:]) * 7 + r) % 32)
        tables = seat_round(players, past, seed="sw", round_no=r, method="swiss", ranking=ranking)
        check_round(tables, players)
        past.append(as_round(tables))
    # the ranking is reshuffled each round, so Swiss would seat many old pairs together
    # again; the repeat penalty keeps that to a handful (without it: 40+)
    assert repeat_pairs(past) <= 12


# ---------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(1, 4),
    st.sampled_from([None, 3]),
    st.text(min_size=1, max_size=8),
    st.sampled_from(["avoid_repeats", "swiss"]),
)
def test_every_player_seated_once(n, rounds, least, seed, method):
    players = ids(n)
    past = []
    for r in range(1, rounds + 1):
        ranking = list(reversed(players)) if method == "swiss" else None
        tables = seat_round(
            players,
            past,
            seed=seed,
            round_no=r,
            min_table_size=least,
            method=method,
            ranking=ranking,
        )
        check_round(tables, players)
        shape = table_shape(n, 4, least)
        assert sorted(
            (sum(p is not None for p in t.seats), len(t.seats)) for t in tables
        ) == sorted(shape)
        past.append(as_round(tables))


# ------------------------------------------------------------------ search internals


@settings(max_examples=30, deadline=None)
@given(st.integers(8, 20), st.integers(1, 3), st.booleans(), st.randoms(use_true_random=False))
def test_swap_delta_matches_the_cost_function(n, n_rounds, swiss, rnd):
    """The tabu search's incremental cost of a swap equals the full cost difference."""
    from games.tournaments import seating as S

    sizes = [p for p, _ in table_shape(n, 4, 3)]
    past = [[0] * n for _ in range(n)]
    last = [[0] * n for _ in range(n)]
    for u, x in combinations(range(n), 2):
        past[u][x] = past[x][u] = rnd.randrange(3)
        last[u][x] = last[x][u] = int(past[u][x] > 0 and rnd.random() < 0.5)
    starts = [rnd.randrange(3) for _ in range(n)]
    shorts = [rnd.randrange(3) for _ in range(n)]
    short_table = [size < 4 for size in sizes]
    rank = list(range(n))
    rnd.shuffle(rank)
    apart = [[False] * n for _ in range(n)]
    for _ in range(3):  # must-not-meet pairs and CPU-table turns are costs too
        u, x = rnd.sample(range(n), 2)
        apart[u][x] = apart[x][u] = True
    search = S._Search(
        n,
        sizes,
        n_rounds,
        past,
        last,
        starts,
        shorts,
        short_table,
        rank if swiss else None,
        S._Stream("test", n),
        apart=apart,
        turn=[rnd.choice([S.FREE, S.IN_TURN, S.OUT_TURN]) for _ in range(n)],
        cpu_table=short_table,
    )
    search.load(search.greedy(None))
    for _ in range(60):
        r, a, b = rnd.randrange(n_rounds), rnd.randrange(n), rnd.randrange(n)
        if search.tab[r][a] == search.tab[r][b]:
            continue
        before = search.total()
        d = search.delta(r, a, b)
        search.swap(r, a, b)
        assert search.total() - before == d


# ------------------------------------------------------------ must-not-meet pairs


def together(rounds, a, b) -> int:
    return sum(1 for rnd in rounds for t in rnd if a in t and b in t)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(5, 26),
    st.integers(1, 4),
    st.sampled_from([None, 3]),
    st.sampled_from(["avoid_repeats", "swiss"]),
    st.randoms(use_true_random=False),
)
def test_must_not_meet_pairs_never_share_a_table(n, rounds, least, method, rnd):
    players = ids(n)
    n_tables = len(table_shape(n, 4, least))
    # a family of up to as many players as there are tables (all apart from each other)
    # and a few couples among the others: always possible to seat
    shuffled = rnd.sample(players, n)
    k = min(n_tables, 3)
    family, others = shuffled[:k], shuffled[k:]
    pairs = list(combinations(family, 2))
    pairs += [
        (others[2 * i], others[2 * i + 1]) for i in range(min(rnd.randrange(4), len(others) // 2))
    ]
    past: list = []
    for r in range(1, rounds + 1):
        ranking = sorted(players, key=lambda p: rnd.random()) if method == "swiss" else None
        tables = seat_round(
            players,
            past,
            seed=f"apart-{n}",
            round_no=r,
            min_table_size=least,
            method=method,
            ranking=ranking,
            keep_apart=pairs,
        )
        check_round(tables, players)
        past.append(as_round(tables))
    for a, b in pairs:
        assert together(past, a, b) == 0, (a, b)


def test_pairs_with_a_player_not_in_the_round_are_ignored():
    players = ids(8)
    tables = seat_round(players, [], seed="s", round_no=1, keep_apart=[("p0", "gone")])
    assert as_round(tables) == as_round(seat_round(players, [], seed="s", round_no=1))


def test_round_one_keeps_the_shuffle_where_the_pairs_allow():
    players = ids(12)
    plain = as_round(seat_round(players, [], seed="fam", round_no=1))
    a, b = plain[0][0], plain[0][1]  # seated together by the shuffle
    tables = as_round(seat_round(players, [], seed="fam", round_no=1, keep_apart=[(a, b)]))
    assert together([tables], a, b) == 0
    # only the pair's table and one other change
    assert sum(set(x) != set(y) for x, y in zip(plain, tables, strict=True)) == 2


@pytest.mark.parametrize("round_no", [1, 3])
def test_impossible_pairs_say_so(round_no):
    # 8 players sit at two tables: three players who must all sit apart cannot
    players = ids(8)
    past = play(players, round_no - 1, seed="imp")
    pairs = [("p0", "p1"), ("p1", "p2"), ("p0", "p2")]
    with pytest.raises(SeatingImpossible) as err:
        seat_round(players, past, seed="imp", round_no=round_no, keep_apart=pairs)
    assert err.value.proven and err.value.tables == 2
    assert err.value.pairs == sorted(pairs)
    assert "no seating of 2 table(s)" in str(err.value)


def test_bad_pairs_refused():
    with pytest.raises(ValueError):
        seat_round(ids(8), [], seed="s", round_no=1, keep_apart=[("p0", "p0")])


@pytest.mark.parametrize("round_no", [1, 2, 4])
def test_seating_with_pairs_is_reproducible(round_no):
    players = ids(14)
    pairs = [("p0", "p1"), ("p2", "p3"), ("p0", "p5")]
    past = play(players, round_no - 1, seed="pub", keep_apart=pairs)
    first = seat_round(players, past, seed="pub", round_no=round_no, keep_apart=pairs)
    again = seat_round(
        list(reversed(players)), past, seed="pub", round_no=round_no, keep_apart=pairs[::-1]
    )
    assert first == again


# ------------------------------------------------------------------ CPU-table turns


def cpu_turn_kept(tables, counts, players) -> bool:
    """Nobody at a CPU table has had more CPU tables than someone of the round not at one."""
    at = {p for t in tables for p in t.seats if p is not None and None in t.seats}
    if not at:
        return True
    rest = [counts.get(p, 0) for p in players if p not in at]
    return not rest or max(counts.get(p, 0) for p in at) <= min(rest)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(5, 30).filter(lambda n: n % 4),
    st.integers(2, 6),
    st.sampled_from(["avoid_repeats", "swiss"]),
    st.text(min_size=1, max_size=6),
    st.booleans(),
)
@pytest.mark.slow
def test_nobody_gets_a_second_cpu_table_before_everyone_had_one(n, rounds, method, seed, pair):
    # Nobody sits out: the seats a player count leaves over are CPU seats, so a seat at
    # a CPU table is what stands in for a bye, and those go round.
    players = ids(n)
    pairs = [("p0", "p1")] if pair else []
    past: list = []
    for r in range(1, rounds + 1):
        counts = cpu_table_counts(past)
        ranking = list(reversed(players)) if method == "swiss" else None
        tables = seat_round(
            players, past, seed=seed, round_no=r, method=method, ranking=ranking, keep_apart=pairs
        )
        check_round(tables, players)
        assert cpu_turn_kept(tables, counts, players)
        past.append(as_round(tables))


def test_seven_players_the_cpu_table_goes_round():
    # 4 + 3 (one CPU seat): seven rounds give each player the CPU table three times at
    # most, and nobody a second time before all seven had one
    players = ids(7)
    past = play(players, 7, seed="seven")
    for k in range(1, 7):
        counts = cpu_table_counts(past[:k])
        tables = [SeatedTable(i + 1, t) for i, t in enumerate(past[k])]
        assert cpu_turn_kept(tables, counts, players)
    per = cpu_table_counts(past)
    assert sorted(per.values()) == [3, 3, 3, 3, 3, 3, 3]


def test_late_entries_have_had_no_cpu_table():
    players = ids(7)
    past = play(players, 2, seed="late")  # 4 + 3: six players had the CPU table once
    assert sorted(cpu_table_counts(past).values()) == [1] * 6
    never = [p for p in players if p not in cpu_table_counts(past)]
    late = [*players, "z1", "z2", "z3", "z4"]  # 11 players: 4 + 4 + 3 and a CPU seat
    tables = seat_round(late, past, seed="late", round_no=3)
    cpu = next(t for t in tables if None in t.seats)
    assert {p for p in cpu.seats if p} <= {*never, "z1", "z2", "z3", "z4"}


def test_cpu_turns():
    assert cpu_turns([0, 0, 1, 1, 2], 2) == [FREE, FREE, OUT_TURN, OUT_TURN, OUT_TURN]
    assert cpu_turns([0, 1, 1, 2], 2) == [IN_TURN, FREE, FREE, OUT_TURN]
    assert cpu_turns([0, 1], 0) == [FREE, FREE]


def can_part(players, sizes, pairs) -> bool:
    """Brute force: some split of the players over tables of these sizes parts every pair."""
    from itertools import product

    for tables in product(range(len(sizes)), repeat=len(players)):
        if any(tables.count(t) != size for t, size in enumerate(sizes)):
            continue
        where = dict(zip(players, tables, strict=True))
        if all(where[a] != where[b] for a, b in pairs):
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 9), st.integers(1, 3), st.randoms(use_true_random=False))
def test_any_pairs_are_kept_apart_or_the_draw_says_it_cannot(n, rounds, rnd):
    players = ids(n)
    pairs = [tuple(rnd.sample(players, 2)) for _ in range(rnd.randrange(1, 8))]
    sizes = [size for size, _ in table_shape(n, 4)]
    past: list = []
    for r in range(1, rounds + 1):
        try:
            tables = seat_round(players, past, seed="any", round_no=r, keep_apart=pairs)
        except SeatingImpossible as err:
            assert err.proven and not can_part(players, sizes, pairs)
            return
        for a, b in pairs:
            assert together([as_round(tables)], a, b) == 0
        past.append(as_round(tables))


def test_pairs_come_before_the_cpu_table_turn():
    # seven players (4 + 3 with a CPU seat): the three who had the CPU table in round 1
    # must all sit at the table of four in round 2, unless two of them must not meet;
    # then one of them takes the CPU table again, and the pair sits apart
    players = ids(7)
    round1 = [("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", None)]
    plain = seat_round(players, [round1], seed="turn", round_no=2)
    full = next(t for t in plain if None not in t.seats)
    assert {"p4", "p5", "p6"} <= set(full.seats)
    tables = seat_round(players, [round1], seed="turn", round_no=2, keep_apart=[("p4", "p5")])
    check_round(tables, players)
    assert together([as_round(tables)], "p4", "p5") == 0


def test_the_cpu_table_turns_are_handed_out_so_the_pair_can_stay_apart_next_round():
    # Ten players (4 + 3 + 3, six CPU-table places a round), p0 and p1 must not meet.
    # After round 1 six players have had a CPU table, so round 2 gives the four others
    # theirs and two of the six a second one; if those two were p0 and p1, round 3 would
    # have to seat both at the one table of four (everyone else had one CPU table fewer)
    # or give one of them a third: round 2 hands the second ones to others.
    players = ids(10)
    pairs = [("p0", "p1")]
    past: list = []
    for r in range(1, 4):
        counts = cpu_table_counts(past)
        tables = seat_round(players, past, seed="00000", round_no=r, keep_apart=pairs)
        check_round(tables, players)
        assert cpu_turn_kept(tables, counts, players), r
        assert together([as_round(tables)], "p0", "p1") == 0
        again = seat_round(players[::-1], past, seed="00000", round_no=r, keep_apart=pairs)
        assert again == tables  # the published seed still gives the same seating
        past.append(as_round(tables))


def test_where_the_turns_must_give_way_one_seat_out_of_turn_is_enough():
    # p0 and p1 must not meet and both had two CPU tables, everyone else one: keeping the
    # turn would put both at the one table of four, so one of them takes a third CPU
    # table; only one (the other sits at the table of four), not both
    players = ids(10)
    past = [
        [("p3", "p7", "p4", "p5"), ("p1", "p2", "p6", None), ("p8", "p9", "p0", None)],
        [("p6", "p9", "p8", "p2"), ("p0", "p3", "p7", None), ("p5", "p1", "p4", None)],
    ]
    counts = cpu_table_counts(past)
    assert counts["p0"] == counts["p1"] == 2 and {counts[p] for p in players[2:]} == {1}
    tables = seat_round(players, past, seed="give-way", round_no=3, keep_apart=[("p0", "p1")])
    check_round(tables, players)
    assert together([as_round(tables)], "p0", "p1") == 0
    at_cpu = {p for t in tables if None in t.seats for p in t.seats if p is not None}
    assert len(at_cpu & {"p0", "p1"}) == 1


def can_keep_turns_apart(players, shape, pairs, counts) -> bool:
    """Brute force: some seating at tables of this shape parts every pair and keeps the
    CPU-table turns (nobody at a CPU table has had more than someone who is not)."""
    from itertools import product

    sizes = [size for size, _ in shape]
    for where_t in product(range(len(sizes)), repeat=len(players)):
        if any(where_t.count(t) != size for t, size in enumerate(sizes)):
            continue
        where = dict(zip(players, where_t, strict=True))
        if any(where[a] == where[b] for a, b in pairs):
            continue
        tables = [
            SeatedTable(t + 1, (*[p for p in players if where[p] == t], *[None] * (seats - size)))
            for t, (size, seats) in enumerate(shape)
        ]
        if cpu_turn_kept(tables, counts, players):
            return True
    return False


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([6, 7, 10]),
    st.integers(2, 5),
    st.text(min_size=1, max_size=4),
    st.randoms(use_true_random=False),
)
@pytest.mark.slow
def test_the_cpu_table_turns_give_way_only_when_no_seating_keeps_both(n, rounds, seed, rnd):
    # whenever a round breaks the CPU-table turn, no seating of that round keeps every
    # must-not-meet pair apart and the turn too (brute force over all seatings)
    players = ids(n)
    pairs = [tuple(rnd.sample(players, 2)) for _ in range(rnd.randrange(1, 4))]
    shape = table_shape(n, 4)
    past: list = []
    for r in range(1, rounds + 1):
        counts = cpu_table_counts(past)
        try:
            tables = seat_round(players, past, seed=seed, round_no=r, keep_apart=pairs)
        except SeatingImpossible:
            assert not can_part(players, [size for size, _ in shape], pairs)
            return
        for a, b in pairs:
            assert together([as_round(tables)], a, b) == 0
        if r > 1 and not cpu_turn_kept(tables, counts, players):
            assert not can_keep_turns_apart(players, shape, pairs, counts)
        past.append(as_round(tables))
