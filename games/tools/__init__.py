"""Tooling: what measures the site and the engine, apart from what runs the site.

Nothing here is part of the site. No module of ``games/``, ``accounts/`` or ``okeysite/``
imports ``games.tools`` (``tests/games/test_tools_separate.py`` reads every import to
check it); the only way in from the site's side is a thin management command in
``games/management/commands/`` that imports its tool inside ``handle``. Tests may import
the tools (their rack and table generators are test data too).

``engine/`` — pure Python, no Django (like ``games/engine/``, which it measures):

- ``bench.py``: evaluator and engine throughput (``python -m games.tools.engine bench``),
  and the rack generators the engine tests share (``random_rack``, ``winning_rack``,
  ``near_winning_rack``);
- ``bench_side.py``: two versions of an evaluator module timed side by side in one
  process (``python -m games.tools.engine.bench_side REV``);
- ``arena.py``: duplicate-deal matches between two bot levels
  (``python -m games.tools.engine arena …``), and ``arena_results.jsonl``, the raw reports
  of the runs docs/bots-experiments.md lists;
- ``ceiling.py``: the defence ceiling, a sighted expert on the arena's deals;
- ``par_bench.py``: par's CPU cost per hand and seat per rule set
  (``python -m games.tools.engine.par_bench``; docs/par.md);
- ``efftables_gen.py``: writes the engine's precomputed tables
  (``games/engine/efftables/*.bin``; ``python -m games.tools.engine.efftables_gen``);
- ``cli.py`` / ``__main__.py``: the ``bench`` and ``arena`` commands on the engine's own
  command line (``games/engine/cli.py``).

``site/`` — the live benchmarks, which start real servers with Django:
``manage.py loadbench``, ``floodbench``, ``heavybench``, ``seatingbench``,
``python -m games.tools.site.insights_bench`` and ``python -m games.tools.site.bot_streams``
(many idle bot streams' memory, docs/bots-api.md) (their package
docstring lists the modules; docs/benchmarks.md has the figures and how they were measured).

``bot_client/`` — the example bot of the bot API (``python -m games.tools.bot_client``,
docs/bots-api.md): the standard library and the engine's CPU policy, never the site.
"""
