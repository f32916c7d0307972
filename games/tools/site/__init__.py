"""The site's benchmarks and load tools: commands that print figures (docs/benchmarks.md).
Nothing of the site imports them (``games/tools/__init__.py``).

- ``servers``: the set-up every live benchmark shares (a fresh database, guest tables,
  ``manage.py serve`` processes on free loopback ports, their CPU time and memory);
- ``players``: scripted websocket players that read a table's live frames by their
  stable markers (ids, ``data-*`` attributes) and play the actions the page offers;
- ``load`` (``manage.py loadbench``), ``flood`` (``manage.py floodbench``), ``heavy``
  (``manage.py heavybench``): the live benchmarks;
- ``soak`` (the servers' RSS over time, presence rows left, tracebacks: ``loadbench
  --soak``) and ``pages`` (the heaviest pages' data and the client that loops over them:
  ``loadbench --with-pages``);
- ``dbs.sh``: the throw-away PostgreSQL and Redis of ``loadbench --processes N``;
- ``seating`` (``manage.py seatingbench``, or ``python -m games.tools.site.seating``): the
  tournament seating search, pure Python;
- ``insights_bench`` (``python -m games.tools.site.insights_bench``): the Insights page of
  a player with 5,000 hands and the cost of a finished hand's Insights rows (docs/insights.md);
- ``api_bench`` (``python -m games.tools.site.api_bench``): a few API routes timed in one
  process (docs/api.md).

This module imports nothing, so that ``python -m games.tools.site.seating`` needs no Django.
"""
