"""The fast evaluator against the slow brute-force oracle (tests/engine/oracle.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.evaluate import Arrangement, best_arrangement, is_winning
from games.engine.melds import classify, seventeen_value, sum_value
from games.engine.tiles import format_tiles, kind_notation, kind_of
from games.tools.engine.bench import near_winning_rack, winning_rack

from .oracle import oracle_is_winning, oracle_melds, oracle_pairs

VALUES = (None, "sum", "seventeen")


def check_shapes(arr: Arrangement, rack: list[int], okey_kind: int, ace_high: bool) -> None:
    """Every meld is valid as laid (classify with the okeys' plays) and the melds
    plus the leftover are exactly the rack."""
    for m in arr.melds:
        assign = {t: p for t, p in zip(m.tiles, m.plays, strict=True) if kind_of(t) == okey_kind}
        shape = classify(
            list(m.tiles), okey_kind, ace_high=ace_high, allow=(m.kind,), assign=assign
        )
        assert shape == m, (m, shape)
    used = sorted([t for m in arr.melds for t in m.tiles] + list(arr.leftover))
    assert used == sorted(rack)
    kinds = {m.kind for m in arr.melds}
    if arr.kind == "pairs":
        assert kinds == {"pair"}
    elif arr.kind == "melds":
        assert kinds and kinds <= {"run", "group"}
    else:
        assert not arr.melds


def total_of(arr: Arrangement, values: str) -> int:
    if values == "sum":
        return sum(sum_value(m.plays) for m in arr.melds)
    return sum(seventeen_value(m.kind, m.plays) for m in arr.melds)


def compare(rack: list[int], okey_kind: int, ace_high: bool, values: str | None) -> list[str]:
    """Disagreements between the evaluator and the oracle on one rack."""
    where = f"{format_tiles(rack)} okey={kind_notation(okey_kind)} ace_high={ace_high} {values}"
    errors = []
    melds = best_arrangement(rack, okey_kind, ace_high=ace_high, values=values, pairs=False)
    check_shapes(melds, rack, okey_kind, ace_high)
    o_left, o_total = oracle_melds(rack, okey_kind, ace_high=ace_high, values=values)
    if len(melds.leftover) != o_left:
        errors.append(f"{where}: melds leftover {len(melds.leftover)} != oracle {o_left}")
    if values is not None:
        if melds.opening_total != o_total:
            errors.append(f"{where}: total {melds.opening_total} != oracle {o_total}")
        if melds.opening_total != total_of(melds, values):
            errors.append(f"{where}: opening_total is not the melds' total")
    full = best_arrangement(rack, okey_kind, ace_high=ace_high, values=values, pairs=True)
    check_shapes(full, rack, okey_kind, ace_high)
    p_left, p_total = oracle_pairs(rack, okey_kind, values=values)
    best_left = min(o_left, p_left)
    if len(full.leftover) != best_left:
        errors.append(f"{where}: with pairs leftover {len(full.leftover)} != oracle {best_left}")
    if full.kind == "pairs" and values is not None and full.opening_total != p_total:
        errors.append(f"{where}: pairs total {full.opening_total} != oracle {p_total}")
    if len(rack) == 14:
        win = is_winning(rack, okey_kind, ace_high=ace_high)
        if (win is not None) != oracle_is_winning(rack, okey_kind, ace_high=ace_high):
            errors.append(f"{where}: is_winning {win is not None} disagrees with the oracle")
        if win is not None:
            check_shapes(win, rack, okey_kind, ace_high)
            assert not win.leftover and win.kind in ("melds", "pairs")
            assert (win.kind == "pairs") == (p_left == 0)
    return errors


def random_rack_with_okeys(rng: random.Random, size: int) -> tuple[list[int], int]:
    """A random rack holding 0, 1 or 2 real okeys and sometimes false jokers."""
    okey_kind = rng.randrange(52)
    n_okeys = rng.randrange(3)
    plain = [t for t in range(106) if kind_of(t) != okey_kind]
    n_false = rng.choice([0, 0, 1, 2])
    rest = [t for t in plain if t < 104]
    rack = rng.sample(rest, size - n_okeys - n_false)
    rack += [104, 105][:n_false] + [2 * okey_kind, 2 * okey_kind + 1][:n_okeys]
    rng.shuffle(rack)
    return rack, okey_kind


def run_many(racks, rng: random.Random) -> None:
    errors: list[str] = []
    for rack, okey_kind, ace_high in racks:
        errors += compare(rack, okey_kind, ace_high, rng.choice(VALUES))
    assert not errors, "\n".join(errors[:10])


@pytest.mark.parametrize("size", [14, 15])
def test_random_racks_agree_with_oracle(size: int) -> None:
    rng = random.Random(1000 + size)
    racks = []
    for _ in range(400):
        rack, ok = random_rack_with_okeys(rng, size)
        racks.append((rack, ok, rng.random() < 0.75))
    run_many(racks, rng)


@pytest.mark.parametrize("n_okeys", [0, 1, 2])
def test_built_winning_racks_agree_with_oracle(n_okeys: int) -> None:
    rng = random.Random(2000 + n_okeys)
    racks = []
    for _ in range(60):
        ace_high = rng.random() < 0.75
        rack, ok = winning_rack(rng, n_okeys, ace_high=ace_high)
        assert is_winning(rack, ok, ace_high=ace_high) is not None, format_tiles(rack)
        racks.append((rack, ok, ace_high))
    run_many(racks, rng)


@pytest.mark.parametrize("n_okeys", [0, 1, 2])
def test_near_winning_racks_agree_with_oracle(n_okeys: int) -> None:
    rng = random.Random(3000 + n_okeys)
    racks = []
    for i in range(60):
        rack, ok = near_winning_rack(rng, n_okeys)
        if i % 3 == 0:  # a 15th tile: the rack before a discard
            rack.append(rng.choice([t for t in range(106) if t not in rack]))
        racks.append((rack, ok, rng.random() < 0.75))
    run_many(racks, rng)


def test_seven_pairs_racks_agree_with_oracle() -> None:
    """Racks made of pairs (some broken, some okey-filled)."""
    rng = random.Random(4000)
    racks = []
    for _ in range(100):
        ok = rng.randrange(52)
        kinds = rng.sample([k for k in range(52) if k != ok], 7)
        rack = []
        for k in kinds:
            rack += [2 * k, 2 * k + 1]
        for _ in range(rng.randrange(3)):  # break a pair or two
            spare = [t for t in range(106) if t not in rack and kind_of(t) != ok]
            rack[rng.randrange(14)] = rng.choice(spare)
        for i, t in enumerate(rng.sample(range(14), rng.randrange(3))):
            rack[t] = 2 * ok + i
        racks.append((rack, ok, True))
    run_many(racks, rng)


def test_every_built_winning_rack_wins() -> None:
    """Many built racks (no oracle needed: they are winning by construction)."""
    rng = random.Random(5000)
    for i in range(1500):
        ace_high = i % 4 != 0
        rack, ok = winning_rack(rng, i % 3, ace_high=ace_high)
        arr = is_winning(rack, ok, ace_high=ace_high)
        assert arr is not None, format_tiles(rack)
        check_shapes(arr, rack, ok, ace_high)
        best = best_arrangement(rack, ok, ace_high=ace_high, values="sum")
        assert best.leftover == []


rack_strategy = st.tuples(
    st.integers(0, 51),  # okey kind
    st.integers(0, 2),  # okeys
    st.lists(st.integers(0, 105), min_size=16, max_size=16, unique=True),
    st.sampled_from([14, 15]),
    st.booleans(),
    st.sampled_from(VALUES),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rack_strategy)
def test_hypothesis_racks_agree_with_oracle(case) -> None:
    okey_kind, n_okeys, ids, size, ace_high, values = case
    plain = [t for t in ids if kind_of(t) != okey_kind]
    rack = plain[: size - n_okeys] + [2 * okey_kind, 2 * okey_kind + 1][:n_okeys]
    if len(rack) < size:
        return
    assert compare(rack, okey_kind, ace_high, values) == []
