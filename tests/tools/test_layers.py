"""The rules core never imports the tools, and the tools read no private engine state."""

from __future__ import annotations

import ast
from pathlib import Path

REPLAY = Path(__file__).resolve().parents[2] / "replay"
#: the program entry point joins the core commands and the tools' commands
ENTRY = REPLAY / "__main__.py"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, resolved to ``replay....`` names."""
    tree = ast.parse(path.read_text("utf-8"))
    package = ".".join(path.relative_to(REPLAY.parent).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def core_modules() -> list[Path]:
    return [p for p in REPLAY.rglob("*.py") if "tools" not in p.relative_to(REPLAY).parts
            and p != ENTRY]


def test_the_core_never_imports_the_tools() -> None:
    assert len(core_modules()) > 15
    bad = {str(p.relative_to(REPLAY)): sorted(m for m in _imports(p) if m.startswith(
        "replay.tools")) for p in core_modules()}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_guard_sees_relative_imports() -> None:
    # a relative import of the tools from a core module is found
    assert "replay.tools.simulate" in _imports(REPLAY / "tools" / "bench.py")
    assert "replay.tools.toolkit_cli" in _imports(ENTRY)


def test_the_tools_read_no_private_attribute_of_the_core() -> None:
    for path in (REPLAY / "tools").glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        private = sorted({
            node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name)
                     and node.value.id in ("self", "cls", "argparse"))
        })
        assert private == [], (path.name, private)
        imported = sorted(a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                          for a in node.names if a.name.startswith("_"))
        assert imported == [], (path.name, imported)


def test_tests_import_no_private_helper_of_replay() -> None:
    tests = Path(__file__).resolve().parents[1]
    bad = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("replay"):
                bad += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert bad == []
