"""The app's conventions (docs/architecture.md), checked on the code itself."""

from __future__ import annotations

import ast
from pathlib import Path

from pydantic_settings import BaseSettings

import app.main  # noqa: F401  (imports every module that defines tables and settings)
from app.models import Base
from app.settings import Settings

APP = Path(__file__).resolve().parents[2] / "app"


def _sources() -> dict[str, ast.Module]:
    return {str(p.relative_to(APP.parent)): ast.parse(p.read_text()) for p in APP.rglob("*.py")}


def _imports(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_every_table_is_in_app_models() -> None:
    modules = {m.class_.__module__ for m in Base.registry.mappers}
    assert modules and all(m.startswith("app.models.") for m in modules), modules


def test_one_settings_class() -> None:
    def subclasses(cls: type) -> set[type]:
        return {c for s in cls.__subclasses__() for c in {s, *subclasses(s)}}

    assert {c for c in subclasses(BaseSettings) if c.__module__.startswith("app.")} == {Settings}


def test_the_ingest_counter_is_counted_in_one_layer() -> None:
    users = {name for name, tree in _sources().items()
             if any(isinstance(n, ast.Attribute) and n.attr == "labels"
                    and isinstance(n.value, ast.Name) and n.value.id == "INGEST"
                    for n in ast.walk(tree))}
    assert users == {"app/games/endpoints.py"}, users


def test_pages_reach_the_rules_core_through_one_bridge() -> None:
    reaching = {name for name, tree in _sources().items()
                if name.startswith("app/web/")
                and any(m == "replay" or m.startswith("replay.") for m in _imports(tree))}
    assert reaching == {"app/web/replay.py"}, reaching


def test_a_cached_hand_is_never_changed_by_a_request() -> None:
    from app.web.replay import build_hand

    raw = (APP.parent / "examples" / "violations_guo_zhang.json").read_bytes()
    first = build_hand(raw, "sha-x", stored_engine="engine-a", played_at="then")
    second = build_hand(raw, "sha-x", stored_engine="engine-b", played_at="now")
    assert (first.stored_engine, first.played_at) == ("engine-a", "then")
    assert (second.stored_engine, second.played_at) == ("engine-b", "now")
    assert first.steps is second.steps  # the replay itself is shared (read-only)
