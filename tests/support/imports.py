"""Reading a module's imports from its source (``ast``), for the tests that hold the code's
boundaries (tests/games/test_module_graph.py, test_tools_separate.py): every import at the
top level and inside functions (an import inside a function is how a cycle hides),
relative imports resolved."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    """The dotted name of a file of the repository (a package's ``__init__`` is the package)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether the import is inside a function) of one file. ``from a
    import b`` names ``a.b`` when that is a module of the repository, else ``a``."""
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
            targets = [
                f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base for a in node.names
            ]
        found += [(t, id(node) in inner) for t in targets]
    return found
