"""The cheat injector (replay.tools.mutate): each doctored log raises exactly its finding."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from replay.engine import verify
from replay.logformat import parse_log
from replay.tools.mutate import KINDS, NoPlace, mutate
from replay.tools.simulate import dumps, simulate
from replay.tools.toolkit_cli import main

RULESETS = ("standard", "hengshan", "changde")


@cache
def corpus(ruleset: str, n: int) -> tuple[str, ...]:
    return tuple(dumps(d) for d in simulate(n, 404, ruleset))


def findings(doc: dict[str, Any]) -> list[tuple[int | None, str]]:
    return [(f.seq, str(f.code)) for f in verify(parse_log(doc)).findings]


def doctor_some(kind: str, ruleset: str, n: int, want: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for raw in corpus(ruleset, n):
        try:
            out.append(mutate(json.loads(raw), kind))
        except NoPlace:
            continue
        if len(out) >= want:
            break
    return out


def check(result: dict[str, Any], kind: str, clean: dict[str, Any] | None = None) -> None:
    expect = result["expect"]
    assert expect["code"] == str(KINDS[kind].code)
    doc = result["log"]
    assert findings(doc) == [(expect["seq"], expect["code"])]
    kept = doc["meta"]["mutation"]["kept"]
    if clean is not None:
        # the events before the doctoring are the clean log's, as they were
        assert doc["events"][:kept] == clean["events"][:kept]
        assert doc["deal"]["hands"] == clean["deal"]["hands"]
    if expect["seq"] is not None:
        assert kept <= expect["seq"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_doctors_a_simulated_log(kind: str) -> None:
    for ruleset in RULESETS:
        for raw in corpus(ruleset, 30):
            clean = json.loads(raw)
            try:
                result = mutate(clean, kind)
            except NoPlace:
                continue
            check(result, kind, clean)
            assert json.loads(raw) == clean  # the input is not changed
            break
        else:
            pytest.fail(f"no log of 30 {ruleset} hands had a place for {kind}")


def test_same_log_same_doctoring() -> None:
    doc = json.loads(corpus("standard", 30)[3])
    for kind in ("bi_missing", "out_of_turn", "score_misstated"):
        assert mutate(copy.deepcopy(doc), kind) == mutate(copy.deepcopy(doc), kind)


def test_no_place_is_reported() -> None:
    doc = json.loads(corpus("standard", 30)[0])
    bare = copy.deepcopy(doc)
    del bare["deal"]["commitment"]
    with pytest.raises(NoPlace):
        mutate(bare, "commitment_tampered")
    del bare["result"]
    with pytest.raises(NoPlace):
        mutate(bare, "score_misstated")
    bare["events"] = [{"type": "end", "reason": "abandoned"}]
    bare["result"] = {"outcome": "abandoned", "winner": None, "scores": [0, 0, 0]}
    for kind in ("draw_tampered", "pao_missed", "bi_missing"):
        with pytest.raises(NoPlace):
            mutate(bare, kind)


def test_cli_mutate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", "--list"]) == 0
    listed = capsys.readouterr().out
    assert all(kind in listed for kind in KINDS)
    path = tmp_path / "hand.json"
    path.write_text(corpus("hengshan", 30)[1])
    assert main(["mutate", "--kind", "discard_missing", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    check(result, "discard_missing")
    assert main(["mutate", "--kind", "no_such_kind", str(path)]) == 2
    capsys.readouterr()
    bare = json.loads(path.read_text())
    bare["events"] = [{"type": "end", "reason": "abandoned"}]
    bare["result"] = {"outcome": "abandoned", "winner": None, "scores": [0, 0, 0]}
    path.write_text(json.dumps(bare))
    assert main(["mutate", "--kind", "draw_tampered", str(path)]) == 3
    assert "no draw" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_hundred_doctored_logs_per_kind(kind: str) -> None:
    """At least 100 doctored logs of each kind over both profiles, each detected exactly:
    the expected finding at the expected seq, and no other violation."""
    made = {ruleset: doctor_some(kind, ruleset, 150, 60) for ruleset in RULESETS}
    for ruleset, results in made.items():
        assert results, f"no {ruleset} log had a place for {kind}"
        for result in results:
            check(result, kind)
    total = sum(len(r) for r in made.values())
    assert total >= 100, f"only {total} doctored logs for {kind}"
