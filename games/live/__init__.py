"""The live table: everything that happens at a table while it is played.

- ``actions/``: every write to a table, one ``do_*`` function each, split by domain
  (``table``, ``clock``, ``presence``, ``rack``, ``leavers``, ``sweep``; ``base`` is
  what they share). ``games.live.actions`` gathers them for callers outside.
- ``realtime``: what is sent, to whom and when (the broadcaster, the snapshot cache,
  the per-table hub, fragment diffing).
- ``presenter``: the table page's and fragments' context, from a seat's view only.
- ``consumers``: one websocket consumer per browser at a table.
- ``staging``, ``outcome``, ``messages``: the staging total, the outcome dialog, the
  words of refusals and events. ``cpu``: the CPU seats. ``sweeper``: plays what is due.
- ``rated``: who may sit at a rated table.

The layers import one way: realtime <- actions <- presenter <- consumers
(``tests/games/test_module_graph.py``).
"""
