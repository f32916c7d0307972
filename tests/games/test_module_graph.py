"""The live table's layers import one way only: realtime <- services <- presenter
<- consumers (and the views). No module of the games app imports one of them
back, directly or through others, at the top or inside a function (an import
inside a function is how a cycle hides)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
LAYERS = ("games.realtime", "games.services", "games.presenter", "games.consumers")


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = GAMES.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """(games module imported, whether the import is inside a function) of one file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
    }
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from games import services`` imports the module games.services
            targets = [
                f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base for a in node.names
            ]
        for target in targets:
            if target == "games" or target.startswith("games."):
                found.append((target, id(node) in inner))
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in GAMES.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        edges.setdefault(module_name(path), set()).update(t for t, _inner in imports_of(path))
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
    assert "games.realtime" in edges["games.services"]
    assert "games.services" in edges["games.presenter"]
    assert {"games.services", "games.presenter", "games.realtime"} <= edges["games.consumers"]


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
    for name in LAYERS:
        path = GAMES / f"{name.split('.')[1]}.py"
        hidden = [t for t, inner in imports_of(path) if inner and t in LAYERS]
        assert hidden == [], f"{name} imports {hidden} inside a function"
