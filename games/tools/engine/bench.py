"""Evaluator and engine throughput figures (``python -m games.tools.engine bench``).

Not a timed test: it prints winning-rack checks, deficiencies, ukeire and best
arrangements per second on random 14/15-tile racks and on built winning racks
with 0, 1 and 2 okeys, random-play hands per second for every rule set of the
registry (through ``games.engine.simulate`` when it exists) and the peak memory
(RSS).

Rates are calls per CPU second (``time.process_time``, one core), three of them:

* cold: racks the process has not seen (each pass makes new ones from a seed not used
  before) and every lazy memo table cleared before each call, each call timed alone;
* fresh: racks the process has not seen either, but the memo tables kept from the calls
  before (what a long-running server sees), timed in chunks of 100 calls;
* warm: a fixed set of racks (a fixed seed) timed pass after pass after a warm-up pass
  that fills the shared memo tables; each chunk of 100 racks keeps its fastest pass.

The precomputed tables (``efftables/``: data, not memo) are loaded at import and stay in
all three; their file sizes and load times are printed too.

Also tile efficiency (``efficiency.deficiency`` and ``ukeire``, classic; the lay-down rule
sets' deficiency before and after opening on random racks of their deal size).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from games.engine.tiles import FALSE_KIND, N_KINDS, ids_of_kind

# ------------------------------------------------------------ rack generators


def _kind_copies(okey_kind: int) -> dict[int, list[int]]:
    """Plain copies per played kind: the okey kind's plain copies are the false jokers."""
    out = {k: list(ids_of_kind(k)) for k in range(N_KINDS) if k != okey_kind}
    out[okey_kind] = list(ids_of_kind(FALSE_KIND))
    return out


def random_rack(rng: random.Random, size: int = 14) -> tuple[list[int], int]:
    """A random rack of ``size`` distinct tiles and a random okey kind."""
    return rng.sample(range(106), size), rng.randrange(N_KINDS)


def winning_rack(
    rng: random.Random, n_okeys: int = 0, *, ace_high: bool = True, okey_kind: int | None = None
) -> tuple[list[int], int]:
    """A 14-tile rack built from random runs and groups, ``n_okeys`` of whose
    tiles are then replaced by real okeys (so it stays winning)."""
    if okey_kind is None:
        okey_kind = rng.randrange(N_KINDS)
    while True:
        copies = _kind_copies(okey_kind)
        for v in copies.values():
            rng.shuffle(v)
        rack: list[int] = []
        ok = True
        while len(rack) < 14 and ok:
            room = 14 - len(rack)
            if room in (1, 2):
                ok = False
                break
            size = rng.choice(
                [s for s in (3, 3, 3, 4, 4, 5, 6) if s <= room and room - s != 1 and room - s != 2]
                or [room]
            )
            meld = _random_meld(rng, copies, size, ace_high)
            if meld is None:
                ok = False
                break
            rack.extend(meld)
        if not ok or len(rack) != 14:
            continue
        wild = list(ids_of_kind(okey_kind))
        for i in rng.sample(range(14), n_okeys):
            rack[i] = wild.pop()
        rng.shuffle(rack)
        return rack, okey_kind


def _random_meld(rng: random.Random, copies: dict[int, list[int]], size: int, ace_high: bool):
    for _ in range(30):
        if size <= 4 and rng.random() < 0.35:
            number = rng.randrange(13)
            colours = rng.sample(range(4), size)
            kinds = [c * 13 + number for c in colours]
        else:
            colour = rng.randrange(4)
            top = 14 if ace_high else 13
            if size > 13:
                return None
            start = rng.randrange(1, top - size + 2)
            kinds = [colour * 13 + ((p - 1) % 13) for p in range(start, start + size)]
        if all(copies[k] for k in kinds):
            return [copies[k].pop() for k in kinds]
    return None


def near_winning_rack(rng: random.Random, n_okeys: int = 0) -> tuple[list[int], int]:
    """A built winning rack with one tile swapped for a random other tile."""
    rack, okey_kind = winning_rack(rng, n_okeys)
    rest = [t for t in range(106) if t not in rack]
    rack[rng.randrange(14)] = rng.choice(rest)
    return rack, okey_kind


# ------------------------------------------------------------------- timing


def _rate(
    fn: Callable[[list[int], int], object], racks: list, seconds: float, chunk: int = 100
) -> float:
    """Calls per CPU second of fn over the racks.

    The racks are timed in chunks, pass after pass, for about ``seconds`` (at
    least two passes); each chunk keeps its fastest pass (timeit's advice: the
    minimum is the figure least disturbed by other processes on the machine).
    """
    chunks = [racks[i : i + chunk] for i in range(0, len(racks), chunk)]
    best = [float("inf")] * len(chunks)
    clock = time.process_time
    start = clock()
    passes = 0
    while passes < 2 or clock() - start < seconds:
        for i, part in enumerate(chunks):
            t = clock()
            for rack, ok in part:
                fn(rack, ok)
            best[i] = min(best[i], clock() - t)
        passes += 1
    total = sum(best)
    return len(racks) / total if total > 0 else float("inf")


# ------------------------------------------------------------------ figures


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    import sys

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


_COLD_SEEDS = [0]  # cold passes draw their racks from seeds this process never used before


def _cold_rate(
    fn: Callable[[list[int], int], object],
    make: Callable[[random.Random], tuple[list[int], int]],
    seconds: float,
    n_racks: int,
    clear: Callable[[], None],
) -> float:
    """Calls per CPU second on racks the process has not seen: every pass makes new racks
    (from a seed not used before) and every call starts with the lazy memo tables cleared
    (outside the timed part; each call is timed alone, so the clock's own cost counts
    against the figure). The precomputed colour tables stay: they are data, not memo."""
    clock = time.process_time
    spent, calls, start = 0.0, 0, clock()
    while calls < n_racks or clock() - start < seconds:
        _COLD_SEEDS[0] += 1
        rng = random.Random(f"cold/{_COLD_SEEDS[0]}")
        for _ in range(min(n_racks, 200)):
            rack, ok = make(rng)
            clear()
            t = clock()
            fn(rack, ok)
            spent += clock() - t
            calls += 1
        if calls >= 20 * n_racks:
            break
    return calls / spent if spent > 0 else float("inf")


def _fresh_rate(
    fn: Callable[[list[int], int], object],
    make: Callable[[random.Random], tuple[list[int], int]],
    seconds: float,
    n_racks: int,
    chunk: int = 100,
) -> float:
    """Calls per CPU second on racks the process has not seen, the memo tables kept from
    the calls before (not cleared): new racks every pass, timed ``chunk`` calls at once."""
    clock = time.process_time
    spent, calls, start = 0.0, 0, clock()
    while calls < n_racks or clock() - start < seconds:
        _COLD_SEEDS[0] += 1
        rng = random.Random(f"fresh/{_COLD_SEEDS[0]}")
        racks = [make(rng) for _ in range(chunk)]
        t = clock()
        for rack, ok in racks:
            fn(rack, ok)
        spent += clock() - t
        calls += chunk
        if calls >= 20 * n_racks:
            break
    return calls / spent if spent > 0 else float("inf")


def table_figures() -> dict:
    """The precomputed tables: per file its size and the CPU seconds its loading took
    (each is loaded once a process: the evaluator's at import, the colour tables on first
    use)."""
    from games.engine import efficiency, evaluate
    from games.engine.efftables import cover, longcolour, solved

    efficiency.colour_table(0, True)  # loads the colour tables if not yet loaded
    here = Path(efficiency.__file__).with_name("efftables")
    seconds = {**evaluate.TABLE_LOAD_SECONDS, **efficiency.TABLE_LOAD_SECONDS}
    out = {}
    files = (here / "colour_tables.bin", longcolour.LONG_FILE, cover.COVER_FILE, solved.SOLVED_FILE)
    for path in files:
        out[path.name] = {
            "bytes": path.stat().st_size if path.exists() else 0,
            "load_seconds": round(seconds.pop(path.name, 0.0), 3),
        }
    # what is built in memory from those files on first use (no file of its own)
    for name, spent in sorted(seconds.items()):
        out[name] = {"bytes": 0, "load_seconds": round(spent, 3)}
    return out


def _clear_all() -> None:
    from games.engine import efficiency, evaluate

    evaluate.clear_caches()
    efficiency.clear_caches()


def run_bench(seconds: float = 1.0, seed: int = 12345, n_racks: int = 3000) -> dict:
    """Measure and return the figures: per rack set and function, the cold rate (racks
    the process has not seen, memo tables cleared before each call) and the warm rate
    (the same racks again and again after a warm-up pass, the shared memo tables full).
    Rates are calls per CPU second on one core."""
    from games.engine.efficiency import deficiency, ukeire
    from games.engine.evaluate import best_arrangement, is_winning
    from games.engine.rules import RULES

    classic = RULES["classic"]
    unseen = {k: 2 for k in range(FALSE_KIND + 1)}
    makers: list[tuple[str, Callable[[random.Random], tuple[list[int], int]]]] = [
        ("random 14", lambda r: random_rack(r, 14)),
        ("random 15", lambda r: random_rack(r, 15)),
    ]
    for j in range(3):
        makers.append((f"winning, {j} okeys", partial(winning_rack, n_okeys=j)))
    for j in range(3):
        makers.append((f"near-winning, {j} okeys", partial(near_winning_rack, n_okeys=j)))

    def win(rack: list[int], ok: int) -> object:
        return is_winning(rack, ok)

    def best(rack: list[int], ok: int) -> object:
        return best_arrangement(rack, ok)

    def best_sum(rack: list[int], ok: int) -> object:
        return best_arrangement(rack, ok, values="sum")

    def best_17(rack: list[int], ok: int) -> object:
        return best_arrangement(rack, ok, ace_high=False, values="seventeen")

    def defi(rack: list[int], ok: int) -> object:
        return deficiency(rack, ok, classic)

    def uke(rack: list[int], ok: int) -> object:
        return ukeire(rack, ok, classic, unseen)

    t0 = time.process_time()
    rows = []
    rng = random.Random(seed)
    for name, make in makers:
        racks = [make(rng) for _ in range(n_racks)]
        row: dict = {"racks": name}
        fns = [("is_winning", win)] if len(racks[0][0]) == 14 else []
        fns += [("deficiency", defi), ("ukeire", uke), ("best", best)]
        fns += [("best_sum", best_sum), ("best_seventeen", best_17)]
        for label, fn in fns:
            few = label == "ukeire"  # 53 deficiencies a call: fewer racks
            part = racks[: max(1, n_racks // 30)] if few else racks
            for rack, ok in part:  # warm-up pass
                fn(rack, ok)
            row[label] = round(_rate(fn, part, seconds))
            if label in ("is_winning", "deficiency", "ukeire", "best"):
                n_cold = max(1, n_racks // 30) if few else min(n_racks, 1000)
                row[label + "_cold"] = round(_cold_rate(fn, make, seconds, n_cold, _clear_all))
                row[label + "_fresh"] = round(
                    _fresh_rate(fn, make, seconds, n_cold, 10 if few else 100)
                )
        rows.append(row)
    lay_rows = _lay_down_rows(seconds, seed, n_racks)
    phases = is_winning_phases(seconds, min(n_racks, 1000))
    spent = time.process_time() - t0
    hands = _hands_per_second(seconds)
    return {
        "tables": table_figures(),
        "evaluator": rows,
        "lay_down": lay_rows,
        "is_winning_phases": phases,
        "hands_per_second": hands,
        "peak_rss_mb": _peak_rss_mb(),
        "seconds_per_figure": seconds,
        "cpu_seconds_evaluator": round(spent, 2),
        "note": "calls per CPU second (time.process_time) on one core; cold: racks the"
        " process has not seen, memo tables cleared before each call; fresh: racks not"
        " seen, memo tables kept from the calls before; warm: the same racks after a"
        " warm-up pass, each chunk of 100 racks keeping its fastest pass",
    }


def is_winning_phases(seconds: float, n_racks: int = 1000) -> list[dict]:
    """Where ``is_winning``'s time goes on built winning racks with 0, 1 and 2 okeys, cold
    (racks not seen before, memo tables cleared before each call): microseconds a call
    for packing the rack (``evaluate._pack``), the verdict (``evaluate.winning_verdict``,
    packing included) and laying out the arrangement found (``evaluate.lay_out_win``),
    each call's phases timed apart. Both phases are ``is_winning`` itself, split: the
    sum is its cold time (less one call's overhead), and 100,000 racks a second is 10 µs.
    ``clock_us`` is what an empty timed section reads (the clock's own cost, in each
    phase's figure). ``answer_us`` is a floor for any ``is_winning`` that returns what it
    returns: the rack packed and the very arrangement found built again from its shapes'
    tiles (``evaluate._shape``, ``evaluate._arrangement``), no search at all, also cold."""
    from games.engine.evaluate import _arrangement, _pack, _shape, lay_out_win, winning_verdict

    def answer_alone(rack: list[int], ok: int, melds: list) -> object:
        _pack(rack, ok)
        shapes = [_shape(kind, tiles, plays) for kind, tiles, plays in melds]
        return _arrangement("melds", shapes, [], None)

    clock = time.process_time
    rows = []
    for j in range(3):
        pack = verdict = lay = empty = answer = 0.0
        calls, start = 0, clock()
        while calls < n_racks or clock() - start < seconds:
            _COLD_SEEDS[0] += 1
            rng = random.Random(f"phases/{_COLD_SEEDS[0]}")
            for _ in range(min(n_racks, 200)):
                rack, ok = winning_rack(rng, j)
                _clear_all()
                t0 = clock()
                _pack(rack, ok)
                t1 = clock()
                found = winning_verdict(rack, ok)
                t2 = clock()
                arrangement = lay_out_win(found, rack, ok)
                t3 = clock()
                t4 = clock()
                empty += t4 - t3
                melds = [(m.kind, m.tiles, m.plays) for m in arrangement.melds]
                _clear_all()
                t5 = clock()
                answer_alone(rack, ok, melds)
                answer += clock() - t5
                pack += t1 - t0
                verdict += t2 - t1
                lay += t3 - t2
                calls += 1
            if calls >= 20 * n_racks:
                break
        rows.append(
            {
                "racks": f"winning, {j} okeys",
                "pack_us": round(1e6 * pack / calls, 1),
                "verdict_us": round(1e6 * verdict / calls, 1),
                "lay_out_us": round(1e6 * lay / calls, 1),
                "clock_us": round(1e6 * empty / calls, 2),
                "answer_us": round(1e6 * answer / calls, 1),
            }
        )
    return rows


def _lay_down_rows(seconds: float, seed: int, n_racks: int) -> list[dict]:
    """Deficiency (before and after opening) of random racks in the lay-down rule sets."""
    from games.engine.efficiency import deficiency
    from games.engine.rules import RULES

    rows = []
    rng = random.Random(f"{seed}/lay")
    for variant, rules in RULES.items():
        if rules.whole_rack:
            continue
        size = rules.rack_size
        row: dict = {"racks": f"{variant}, random {size}"}
        for label, opened in (("opening", False), ("opened", True)):

            def fn(rack: list[int], ok: int, rules=rules, opened=opened) -> object:
                return deficiency(rack, ok, rules, opened=opened)

            part = [random_rack(rng, size) for _ in range(max(1, n_racks // 30))]
            for rack, ok in part:
                fn(rack, ok)
            row[label] = round(_rate(fn, part, seconds))
            row[label + "_cold"] = round(
                _cold_rate(fn, partial(random_rack, size=size), seconds, len(part), _clear_all)
            )
            row[label + "_fresh"] = round(
                _fresh_rate(fn, partial(random_rack, size=size), seconds, len(part), 10)
            )
        rows.append(row)
    return rows


def _hands_per_second(seconds: float) -> dict:
    try:
        from games.engine.simulate import simulate
    except ImportError as e:  # another engineer's module: skip gracefully
        return {"skipped": f"games.engine.simulate is not available ({e})"}
    out: dict = {}
    from games.engine.rules import RULES

    for variant in RULES:  # every rule set of the registry (rulesets/)
        try:
            n, hands = 0, 1
            start = time.process_time()
            while True:
                simulate(variant, hands, seed=f"bench/{n}")
                n += hands
                spent = time.process_time() - start
                if spent >= seconds:
                    break
                hands = min(hands * 2, 64)
            out[variant] = round(n / spent, 1)
        except Exception as e:  # a failing simulator should not hide the other figures
            out[variant] = f"error: {type(e).__name__}: {e}"
    return out


def format_table(figures: dict) -> str:
    """The figures as text; a part the figures do not hold (``bench --phases`` holds only
    the phases) is left out."""
    cols = ["is_winning", "deficiency", "ukeire", "best"]
    lines: list[str] = []
    if figures.get("tables"):
        lines += ["Precomputed tables (loaded once a process; data, not memo)", ""]
        for name, t in figures["tables"].items():
            size = f"{t['bytes']:>12,} bytes" if t["bytes"] else f"{'(built)':>18}"
            lines.append(f"  {name:<26}{size}  load {t['load_seconds']:.3f} s")
        lines.append("")

    def cell(row: dict, c: str) -> str:
        if c not in row:
            return f"{'-':>26}"
        parts = [row.get(c + "_cold", "-"), row.get(c + "_fresh", "-"), row[c]]
        return f"{' / '.join(map(str, parts)):>26}"

    if figures.get("evaluator"):
        lines += ["Evaluator and tile efficiency (calls per CPU second, cold / fresh / warm)", ""]
        head = f"{'racks':<24}" + "".join(f"{c:>26}" for c in cols)
        lines += [head, "-" * len(head)]
        for row in figures["evaluator"]:
            lines.append(f"{row['racks']:<24}" + "".join(cell(row, c) for c in cols))
        lines += ["", "best_arrangement with values (warm)", ""]
        for row in figures["evaluator"]:
            cells = "".join(f"{row.get(c, '-'):>16}" for c in ("best_sum", "best_seventeen"))
            lines.append(f"{row['racks']:<24}{cells}")
        lines.append("")
    if figures.get("lay_down"):
        lines += ["Lay-down deficiency (cold / fresh / warm): before, after opening", ""]
        for row in figures["lay_down"]:
            lines.append(
                f"{row['racks']:<24}" + "".join(cell(row, c) for c in ("opening", "opened"))
            )
        lines.append("")
    if figures.get("is_winning_phases"):
        lines += ["is_winning, where the time goes (cold, µs a call; 100,000/s is 10 µs)", ""]
        phase_head = ("racks", "pack", "verdict", "lay out", "sum", "answer", "clock")
        lines.append(f"{phase_head[0]:<24}" + "".join(f"{h:>10}" for h in phase_head[1:]))
        for row in figures["is_winning_phases"]:
            parts = (row["pack_us"], row["verdict_us"], row["lay_out_us"])
            total = row["verdict_us"] + row["lay_out_us"]  # the verdict packs the rack itself
            cells = "".join(f"{x:>10.1f}" for x in (*parts, total, row.get("answer_us", 0.0)))
            lines.append(f"{row['racks']:<24}{cells}{row['clock_us']:>10.2f}")
        lines += ["(answer: the rack packed and the arrangement's shapes built, no search)", ""]
    hands = figures.get("hands_per_second")
    if hands:
        lines += ["Random-play hands per CPU second (games.engine.simulate)", ""]
        if "skipped" in hands:
            lines.append("  " + hands["skipped"])
        else:
            for variant, rate in hands.items():
                lines.append(f"  {variant:<12}{rate:>12}")
        lines.append("")
    rss = figures.get("peak_rss_mb")
    if rss is not None:
        lines.append(f"Peak RSS: {rss:.1f} MB")
    return "\n".join(lines).rstrip("\n")
