"""The code's boundaries, read from the real files.

- The live table's layers import one way only: realtime <- actions <- presenter <-
  consumers (and the views). No module of the games app imports one of them back,
  directly or through others, at the top or inside a function (an import inside a
  function is how a cycle hides).
- The core (``games/*.py`` and ``games/live/``) never imports a sub-app: the sub-apps
  plug in through signals (``games/signals.py``), URL includes and the registry
  (``games/plugins.py``)."""

from __future__ import annotations

from pathlib import Path

from tests.support.imports import imports_of as support_imports_of
from tests.support.imports import module_name

GAMES = Path(__file__).resolve().parents[2] / "games"
LAYERS = (
    "games.live.realtime",
    "games.live.actions",
    "games.live.presenter",
    "games.live.consumers",
)
# The sub-apps: each an installed Django app of its own (okeysite/settings.py).
SUB_APPS = tuple(
    f"games.{p.parent.name}" for p in GAMES.glob("*/apps.py") if p.parent.name != "live"
)


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """The games modules one file imports (and whether inside a function)."""
    return [
        (t, inner)
        for t, inner in support_imports_of(path)
        if t == "games" or t.startswith("games.")
    ]


def layer_of(name: str) -> str:
    """A module's layer (the actions package is one layer), or the module itself."""
    return next((layer for layer in LAYERS if name == layer or name.startswith(f"{layer}.")), name)


def graph() -> dict[str, set[str]]:
    """Who imports whom among the games app's modules, the live table's layers taken
    as one node each."""
    edges: dict[str, set[str]] = {}
    for path in GAMES.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        node = layer_of(module_name(path))
        targets = {layer_of(t) for t, _inner in imports_of(path)}
        edges.setdefault(node, set()).update(targets - {node})
    return edges


def reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), list(edges.get(start, ()))
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, ()))
    return False


def test_the_graph_is_read_from_the_real_files():
    edges = graph()
    assert set(LAYERS) <= set(edges)
    assert "games.live.realtime" in edges["games.live.actions"]
    assert "games.live.actions" in edges["games.live.presenter"]
    assert {"games.live.actions", "games.live.presenter", "games.live.realtime"} <= edges[
        "games.live.consumers"
    ]


def test_no_cycle_runs_through_the_live_table_layers():
    edges = graph()
    cycles = [m for m in LAYERS if reaches(edges, m, m)]
    assert cycles == []


def test_the_layers_import_each_other_one_way_only():
    edges = graph()
    for i, lower in enumerate(LAYERS):
        for upper in LAYERS[i + 1 :]:
            assert not reaches(edges, lower, upper), f"{lower} reaches {upper}"


def test_the_layers_do_not_import_each_other_inside_functions():
    for path in (GAMES / "live").rglob("*.py"):
        name = layer_of(module_name(path))
        if name not in LAYERS:
            continue
        hidden = [
            t
            for t, inner in imports_of(path)
            if inner and layer_of(t) in LAYERS and layer_of(t) != name
        ]
        assert hidden == [], f"{module_name(path)} imports {hidden} inside a function"


def core_modules() -> list[Path]:
    """The core's files: the games app's own modules, the live table and the shared
    helpers (not the engine, which imports nothing of Django, nor the sub-apps)."""
    paths = [
        *GAMES.glob("*.py"),
        *(GAMES / "live").rglob("*.py"),
        *(GAMES / "common").glob("*.py"),
        *(GAMES / "templatetags").glob("*.py"),
    ]
    return [p for p in paths if "migrations" not in p.parts]


def test_the_sub_apps_are_the_installed_apps_inside_games():
    assert {
        "games.insights",
        "games.ratings",
        "games.review",
        "games.solo",
        "games.tournaments",
    } <= set(SUB_APPS)


def test_the_core_never_imports_a_sub_app():
    """Not at the top, not inside a function: a sub-app listens to a signal, mounts its
    URLs in okeysite/urls.py or sets a hook of games/plugins.py."""
    found = sorted(
        f"{module_name(path)} -> {target}"
        for path in core_modules()
        for target, _inner in imports_of(path)
        if any(target == app or target.startswith(f"{app}.") for app in SUB_APPS)
    )
    assert found == []
