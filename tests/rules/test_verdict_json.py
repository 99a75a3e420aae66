"""A verdict's bytes (``Verdict.to_bytes``) are the canonical JSON of its ``to_json()``:
the definition of the bytes every verdict hash is taken over, for any strings the log
and the engine put in it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from replay.engine import verify
from replay.logformat import LogFormatError, parse_log
from replay.tools.mutate import KINDS, NoPlace, mutate
from replay.tools.simulate import simulate
from replay.verdict import (
    Code,
    Decision,
    DecisionKind,
    Finding,
    Severity,
    Status,
    Verdict,
    canonical_json,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _sorted_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    assert keys == sorted(keys), keys
    return dict(pairs)


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _same(verdict: Verdict) -> None:
    data = verdict.to_bytes()
    assert data == canonical_json(verdict.to_json())
    assert verdict.to_bytes(pretty=True) == canonical_json(verdict.to_json(), pretty=True)
    # the canonical form itself: the same value back with every object's keys in order,
    # no space between tokens, and characters as UTF-8: only control characters escaped
    # as \uXXXX
    assert json.loads(data, object_pairs_hook=_sorted_object) == verdict.to_json()
    assert not re.search(rb"\s", _STRING.sub(b"", data))
    escapes = re.findall(rb"\\u([0-9a-f]{4})", data.replace(b"\\\\", b""))
    assert all(int(code, 16) < 0x20 for code in escapes), escapes


@pytest.mark.parametrize("ruleset", ["standard", "hengshan", "changde"])
def test_engine_verdicts(ruleset: str) -> None:
    docs = list(simulate(40, 13, ruleset))
    kinds = sorted(KINDS)
    for i, doc in enumerate(docs[:20]):
        try:
            docs.append(mutate(doc, kinds[i % len(kinds)])["log"])
        except NoPlace:
            continue
    outcomes = set()
    for doc in docs:
        verdict = verify(parse_log(json.dumps(doc, ensure_ascii=False).encode()))
        outcomes.update(d.outcome for d in verdict.decisions)
        _same(verdict)
    assert {None, "ok"} <= outcomes


def test_examples() -> None:
    checked = 0
    for path in sorted(EXAMPLES.glob("*.json")):
        try:
            log = parse_log(path.read_bytes())
        except LogFormatError:
            continue
        _same(verify(log))
        checked += 1
    assert checked >= 10


AWKWARD = ['a"b\\c', "tab\tnew\nline\x00\x1f\x7f", "三 臭牌 過張", "emoji 🀄 \u2028\u2029", ""]


@pytest.mark.parametrize("text", AWKWARD)
def test_awkward_strings_and_empty_values(text: str) -> None:
    decisions = [
        Decision(None, 0, DecisionKind.CHOU_HU, None, text),
        Decision(7, 2, DecisionKind.CHECK, text or "x1", "ok", (3, 12, 0), "violation"),
        Decision(0, 1, DecisionKind.GUO_ZHANG, "d10", text, (), text),
    ]
    findings = [Finding(None, None, Code.COMMITMENT_MISMATCH, Severity.VIOLATION, text, ())]
    for score in (None, {"huxi": 12, "nested": {"b": [1.5, text], "a": None}, "t": True}):
        _same(Verdict(text, text, text, text, Status.VIOLATIONS, findings, decisions, score))
        _same(Verdict("g", "standard", "e", "0" * 64, Status.CLEAN, [], [], score))


def test_nan_is_refused_as_before() -> None:
    verdict = Verdict("g", "standard", "e", "0" * 64, Status.CLEAN, score={"x": float("nan")})
    with pytest.raises(ValueError):
        verdict.to_bytes()
