"""Which build of the rules core runs: the compiled one or the pure-Python sources.

``scripts/build_native.py`` (``make native``) compiles the modules of ``COMPILED`` with
mypyc, in place: beside each ``.py`` an extension module that Python's import system
prefers. The sources are the rules; the compiled modules are the same code, about
twice as fast, and give byte-identical verdicts (``tests/rules/test_native.py``).

``select()`` runs when ``replay`` is imported, before any of these modules is: it keeps
the compiled build only if every module of ``COMPILED`` has one that is not older than
its source, and otherwise (no build, a partial one, a source edited since, or
``PAOHUZI_REPLAY_PURE=1`` in the environment) makes every one of them load from its
source, so that the rules that run are always those of the sources. A stale build
is said once, as a ``RuntimeWarning``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

_PACKAGE_DIR: Final = Path(__file__).resolve().parent

#: the modules compiled by ``make native``: the hot path of verification and of the
#: fair-play features (``audit``, ``engine`` and ``version`` stay interpreted: tests
#: and re-audits swap their names at run time)
COMPILED: Final = (
    "replay.actions",
    "replay.arrangements",
    "replay.cards",
    "replay.chi",
    "replay.claims",
    "replay.discard_rule",
    "replay.fairplay.features",
    "replay.fairplay.reach",
    "replay.groups",
    "replay.ledger",
    "replay.logformat",
    "replay.mingtang",
    "replay.model",
    "replay.opening",
    "replay.results",
    "replay.scoring",
    "replay.settlement",
    "replay.state",
    "replay.strictjson",
    "replay.table",
    "replay.verdict",
)
#: the group's shared library (``group_name`` of the build)
SHARED: Final = "replay._native__mypyc"

PURE: Final = "pure Python"
NATIVE: Final = "compiled (mypyc)"


def module_path(name: str) -> Path:
    """The source file of ``name`` (a module of ``replay``)."""
    return _PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _extension(name: str) -> Path | None:
    base = _PACKAGE_DIR.joinpath(*name.split(".")[1:])
    for suffix in EXTENSION_SUFFIXES:
        path = base.with_name(base.name + suffix)
        if path.exists():
            return path
    return None


def _module_of(path: Path) -> str:
    rel = path.relative_to(_PACKAGE_DIR)
    stem = rel.name.split(".", 1)[0]
    return ".".join(("replay", *rel.parent.parts, stem))


def built_files() -> list[Path]:
    """Every compiled module of the package on disk (of a build of any module list)."""
    found = {p for suffix in EXTENSION_SUFFIXES for p in _PACKAGE_DIR.rglob("*" + suffix)}
    return sorted(found)


def stale() -> list[str]:
    """Why the build on disk cannot run: the modules of ``COMPILED`` whose compiled
    module is missing or older than the source, and any compiled module not in
    ``COMPILED`` (all of ``COMPILED`` when nothing is built)."""
    if _extension(SHARED) is None:
        return list(COMPILED)
    out: list[str] = []
    for name in COMPILED:
        ext = _extension(name)
        if ext is None or ext.stat().st_mtime < module_path(name).stat().st_mtime:
            out.append(name)
    known = {*COMPILED, SHARED}
    out += sorted({m for m in map(_module_of, built_files()) if m not in known})
    return out


class _FromSource:
    """A finder that loads the modules of ``COMPILED`` from their ``.py`` sources."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.names or not module_path(fullname).exists():
            return None
        return importlib.util.spec_from_file_location(fullname, module_path(fullname))


#: the build in use: ``NATIVE`` or ``PURE`` (set by ``select``)
BUILD = PURE


def select() -> str:
    """Decide the build (see the module doc); returns it and sets ``BUILD``."""
    global BUILD
    forced = os.environ.get("PAOHUZI_REPLAY_PURE", "") not in ("", "0")
    old = [] if forced else stale()
    if not forced and not old:
        BUILD = NATIVE
        return BUILD
    if not forced and built_files():
        warnings.warn(
            "replay: the compiled build does not match the sources (missing, older or "
            f"extra: {', '.join(old)}); running the sources (rebuild: make native)",
            RuntimeWarning, stacklevel=2)
    if not any(isinstance(f, _FromSource) for f in sys.meta_path):
        built = {_module_of(path) for path in built_files()} - {SHARED}
        sys.meta_path.insert(0, _FromSource(sorted({*COMPILED, *built})))
    BUILD = PURE
    return BUILD


__all__ = ["BUILD", "COMPILED", "NATIVE", "PURE", "built_files", "module_path", "select",
           "stale"]
