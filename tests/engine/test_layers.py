"""The engine's layers: its modules import each other without a cycle, at the top of the
module, and never Django.

Read from the source (``ast``), not by importing: every module of ``games/engine``
(sub-packages included) and every import in it, at the top level and inside functions.
Imports under ``if TYPE_CHECKING:`` are for annotations only (never run) and are left
out, so a module may name a type from a module above it. The rule sets' registry
(``rulesets/__init__.py``) finds its modules with ``importlib``, which is no edge here;
each rule set's own imports are.

The layers, bottom to top (API.md "Where things live"): tiles, refusals, melds, table,
evaluate, scoring, phases; legal (the move generator's building blocks); actions (the
transitions); rulebase, rulesets, rules, options; state (with its JSON and replay);
serial, game, view, testing, simulate, bots, cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"

# Function-level imports of engine modules that stay, each with its reason. Any other
# one fails ``test_no_engine_module_is_imported_inside_a_function``.
FUNCTION_LEVEL_EXCEPTIONS: dict[str, str] = {
    "games.engine.cli": "the command line loads a subcommand's modules (the evaluator, "
    "the simulator) only when that subcommand runs",
    "games.engine.simulate": "simulate._players validates the options on demand",
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ENGINE.parents[1]).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The modules one import statement names (absolute dotted names)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".")
        if not _is_package(module):
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    out = []
    for a in node.names:  # ``from . import legal`` names a module
        sub = f"{target}.{a.name}"
        out.append(sub if sub in MODULES else target)
    return out


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _imports(module: str) -> list[tuple[str, bool, int]]:
    """(imported module, inside a function?, line) for each import run by ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[tuple[str, bool, int]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_block(child):
                for sub in child.orelse:
                    walk(sub, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in _resolve(module, child):
                    found.append((name, in_function, child.lineno))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    walk(tree, False)
    return found


def _engine_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m in MODULES:
        for name, _, _ in _imports(m):
            # a module's own package runs first anyway (Python imports parents first):
            # only edges to other engine modules count
            if name in MODULES and name != m and not m.startswith(name + "."):
                graph[m].add(name)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n) :] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_reader_sees_every_engine_module_and_its_imports():
    """The parser finds the modules and the edges a reader sees (else the checks below
    would pass on nothing)."""
    graph = _engine_graph()
    assert {"games.engine.actions", "games.engine.legal", "games.engine.state"} <= set(graph)
    assert "games.engine.rulesets.classic" in graph
    assert "games.engine.rulebase" in graph["games.engine.rulesets.classic"]
    assert "games.engine.legal" in graph["games.engine.rulebase"]  # ``from . import legal``
    assert "games.engine.actions" in graph["games.engine.state"]
    # annotations only: a TYPE_CHECKING import is no edge
    assert "games.engine.state" not in graph["games.engine.rulebase"]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_engine_imports_without_a_cycle():
    assert _cycle(_engine_graph()) is None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_engine_module_is_imported_inside_a_function(module):
    if module in FUNCTION_LEVEL_EXCEPTIONS:
        return
    inside = [
        (name, line)
        for name, in_function, line in _imports(module)
        if in_function and name in MODULES
    ]
    assert not inside, f"{module}: engine modules imported inside a function: {inside}"


def test_the_listed_exceptions_still_exist():
    """An exception whose module no longer imports inside a function is dropped."""
    for module in FUNCTION_LEVEL_EXCEPTIONS:
        assert any(f and n in MODULES for n, f, _ in _imports(module)), module


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_engine_never_imports_django_or_the_web_app(module):
    for name, _, line in _imports(module):
        top = name.split(".")[0]
        assert top != "django", f"{module}:{line} imports {name}"
        assert top != "games" or name.startswith("games.engine"), f"{module}:{line}: {name}"
