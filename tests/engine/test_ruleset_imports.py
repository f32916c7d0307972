"""No module outside ``games/engine/rulesets/`` imports a concrete rule-set module.

A rule set is reached through the registry (``games.engine.rules.RULES`` / ``rules_for``,
``rulesets.register``), never by importing its module: that is what lets a new rule set be
one module and nothing else (docs/rule-sets.md). The scan reads every module of the site
(games/, accounts/, okeysite/) with ``ast`` and resolves relative imports; importing the
registry package itself (``from .rulesets import RULES``) is allowed. Tests may import the
rule set they test.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("games", "accounts", "okeysite")
RULESETS = "games.engine.rulesets"
CONCRETE = {
    f"{RULESETS}.{p.stem}"
    for p in (ROOT / "games" / "engine" / "rulesets").glob("*.py")
    if p.stem != "__init__"
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def concrete_imports(module: str, source: str, is_package: bool = False) -> list[str]:
    """The concrete rule-set modules ``source`` (the text of ``module``) imports."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from games.engine.rulesets import classic`` imports the submodule too
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        else:
            continue
        hits = {c for name in names for c in CONCRETE if name == c or name.startswith(c + ".")}
        found += sorted(hits)
    return found


def test_the_scan_sees_each_way_of_importing_a_rule_set_module():
    """The checker finds absolute, from-package and relative imports (else the test
    below would pass on nothing), and lets the registry through."""
    assert "games.engine.rulesets.classic" in CONCRETE
    samples = {
        "import games.engine.rulesets.classic": 1,
        "from games.engine.rulesets.classic import ClassicRules": 1,
        "from games.engine.rulesets import classic": 1,
        "from .rulesets.rummy import rummy_target": 1,
        "from .rulesets import RULES": 0,
        "from games.engine.rules import RULES, rules_for": 0,
    }
    for source, n in samples.items():
        assert len(concrete_imports("games.engine.rules", source)) == n, source
    assert concrete_imports("games.engine.bots.core", "from ..rulesets import fifty_one")


def test_no_module_outside_rulesets_imports_a_rule_set_module():
    offenders = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            module = _module_name(path)
            if module.startswith(RULESETS) or "migrations" in path.parts:
                continue
            hits = concrete_imports(module, path.read_text(), path.name == "__init__.py")
            if hits:
                offenders[module] = hits
    assert not offenders, offenders
