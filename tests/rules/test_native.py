"""The compiled build of the rules core (``make native``, ``replay/native.py``) runs the
same rules as the sources: byte-identical verdicts and features, and the sources run
whenever the build does not match them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from replay import native
from replay.tools.mutate import KINDS, NoPlace, mutate
from replay.tools.simulate import dumps, simulate

from .native_digest import digest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
IS_NATIVE = native.BUILD == native.NATIVE
needs_build = pytest.mark.skipif(not IS_NATIVE, reason="the compiled build is not in use "
                                 "(make native builds it; NATIVE=0 runs the sources only)")

DIGEST = Path(__file__).with_name("native_digest.py")  # run by the other builds


def _corpus(path: Path) -> list[bytes]:
    """Simulated hands of the three profiles, a doctored copy of some of each kind, and
    the examples: clean verdicts, every finding code the mutator makes, and the scores."""
    lines: list[bytes] = []
    kinds = sorted(KINDS)
    for ruleset in ("standard", "hengshan", "changde"):
        docs = list(simulate(40, 5, ruleset))
        lines += [dumps(doc).encode() for doc in docs]
        for i, doc in enumerate(docs[: len(kinds)]):
            try:
                lines.append(dumps(mutate(doc, kinds[i])["log"]).encode())
            except NoPlace:
                continue
    lines += [json.dumps(json.loads(p.read_bytes())).encode() for p in EXAMPLES]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return lines


def _run(corpus: Path, *, pythonpath: Path | None = None, pure: bool = False) \
        -> tuple[dict[str, object], str]:
    env = {k: v for k, v in os.environ.items() if k != "PAOHUZI_REPLAY_PURE"}
    if pure:
        env["PAOHUZI_REPLAY_PURE"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, str(DIGEST), str(corpus)], env=env,
                          cwd=corpus.parent,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out, done.stderr


def test_the_build_make_test_asked_for_is_in_use() -> None:
    if os.environ.get("PAOHUZI_EXPECT_NATIVE") != "1":
        pytest.skip("make test sets PAOHUZI_EXPECT_NATIVE=1 when it built the compiled modules")
    assert native.BUILD == native.NATIVE, native.stale()
    assert native.stale() == []
    for name in native.COMPILED:
        assert not sys.modules[name].__file__.endswith(".py"), name  # type: ignore[union-attr]


@needs_build
def test_compiled_and_pure_verdicts_and_features_are_byte_identical(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.ndjson"
    lines = _corpus(corpus)
    assert len(lines) > 150
    pure, _ = _run(corpus, pure=True)
    assert pure["build"] == native.PURE
    assert all(str(f).endswith(".py") for _, f in pure["files"])  # type: ignore[attr-defined]
    compiled, _ = _run(corpus)
    assert compiled["build"] == native.NATIVE
    assert pure["digest"] == compiled["digest"] == digest(lines)


@needs_build
def test_a_source_newer_than_its_build_runs_the_sources(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "replay", copy / "replay",
                    ignore=shutil.ignore_patterns("__pycache__"))
    corpus = tmp_path / "corpus.ndjson"
    corpus.write_bytes(b"".join(p.read_bytes().replace(b"\n", b"") + b"\n"
                                for p in EXAMPLES[:3]))
    ran, _ = _run(corpus, pythonpath=copy)
    assert ran["build"] == native.NATIVE
    edited = copy / "replay" / "claims.py"
    later = time.time() + 5
    os.utime(edited, (later, later))
    ran, err = _run(corpus, pythonpath=copy)
    assert ran["build"] == native.PURE
    assert "replay.claims" in err and "make native" in err
    files = dict(ran["files"])  # type: ignore[call-overload]
    assert files["replay.arrangements"] == str(copy / "replay" / "arrangements.py")
    # a compiled module of a module the build no longer compiles: the sources again
    os.utime(edited, (0, 0))
    stray = next((copy / "replay").glob("chi.*.so")).read_bytes()
    (copy / "replay" / ("steps" + EXTENSION_SUFFIXES[0])).write_bytes(stray)
    ran, err = _run(corpus, pythonpath=copy)
    assert ran["build"] == native.PURE and "replay.steps" in err
