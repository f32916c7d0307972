"""The tooling (games/tools/: benches, the bots' arena, generators) stays apart from the
site: no module of games/, accounts/ or okeysite/ imports it, except the thin management
commands that run a tool, and those only inside a function (so loading the command list
loads no tool). The engine's tools stay Django-free like the engine they measure.

Read from the source (``ast``), every import at the top level and inside functions,
relative imports resolved."""

from __future__ import annotations

from pathlib import Path

from tests.support.imports import ROOT, module_name
from tests.support.imports import imports_of as imports

TOOLS = ROOT / "games" / "tools"
COMMANDS = ROOT / "games" / "management" / "commands"


def is_tools(module: str) -> bool:
    return module == "games.tools" or module.startswith("games.tools.")


def site_files() -> list[Path]:
    files = []
    for top in ("games", "accounts", "okeysite"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if TOOLS in path.parents or COMMANDS in path.parents:
                continue
            files.append(path)
    return files


def test_the_scan_sees_the_site_and_resolves_relative_imports():
    files = site_files()
    names = {module_name(p) for p in files}
    assert {"games.views", "games.engine.cli", "accounts.views", "okeysite.settings"} <= names
    assert not any(n.startswith("games.tools") for n in names)
    # a relative import is resolved to its absolute name
    found = dict(imports(ROOT / "games" / "tools" / "site" / "load.py"))
    assert "games.tools.site.servers" in found


def test_no_module_of_the_site_imports_the_tools():
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in site_files()
        for module, _inner in imports(path)
        if is_tools(module)
    ]
    assert offenders == []


def test_a_management_command_imports_its_tool_only_when_it_runs():
    runs_a_tool = {}
    for path in sorted(COMMANDS.glob("*.py")):
        found = [(m, inner) for m, inner in imports(path) if is_tools(m)]
        if found:
            runs_a_tool[path.stem] = all(inner for _m, inner in found)
    assert {"loadbench", "floodbench", "heavybench", "seatingbench"} <= set(runs_a_tool)
    assert all(runs_a_tool.values()), runs_a_tool


def test_the_engine_tools_are_pure_python_like_the_engine():
    allowed = ("games.engine", "games.tools.engine")
    outside = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((TOOLS / "engine").rglob("*.py"))
        for module, _inner in imports(path)
        if module.split(".")[0] in ("django", "channels", "daphne", "okeysite", "accounts")
        or (module.startswith("games.") and not module.startswith(allowed))
    ]
    assert outside == []
