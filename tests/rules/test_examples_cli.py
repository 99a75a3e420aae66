"""The example logs, the command line and determinism."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli import main
from replay.engine import verify
from replay.logformat import parse_log
from replay.verdict import Code

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.json"))
EXIT = {"clean": 0, "violations": 1, "invalid": 2}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_status_matches_its_name(path: Path) -> None:
    verdict = verify(parse_log(path.read_bytes()))
    assert str(verdict.status) == path.name.split("_")[0]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_golden_verdicts_unchanged(path: Path) -> None:
    golden = path.parent / "golden" / path.name
    got = verify(parse_log(path.read_bytes())).to_bytes(pretty=True) + b"\n"
    assert got == golden.read_bytes(), "verdict changed: run examples/build_examples.py on purpose"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_verify_twice_gives_identical_bytes(path: Path) -> None:
    raw = path.read_bytes()
    a = verify(parse_log(raw)).to_bytes()
    b = verify(parse_log(raw)).to_bytes()
    assert a == b
    # key order in the input does not change the verdict or the log hash
    doc = json.loads(raw)
    shuffled = json.dumps(dict(reversed(list(doc.items()))))
    assert verify(parse_log(shuffled)).to_bytes() == a


def test_cli_exit_status_is_the_worst(capsys: pytest.CaptureFixture[str]) -> None:
    by_status = {p.name.split("_")[0]: str(p) for p in EXAMPLES}
    assert main(["verify", by_status["clean"]]) == 0
    assert main(["verify", by_status["clean"], by_status["violations"]]) == 1
    assert main(["verify", by_status["violations"], by_status["invalid"]]) == 2
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and all(json.loads(line)["engine"] for line in out)


def test_cli_malformed_input_one_clear_line_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    doc = json.loads(EXAMPLES[0].read_bytes())
    doc["events"][0]["card"] = "x11"
    bad.write_text(json.dumps(doc))
    proc = subprocess.run([sys.executable, "-m", "replay", "verify", str(bad)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert "/events/0/card" in proc.stderr and "x11" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "replay", "verify", "-"], input="{nope",
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "line 1" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_reads_standard_input(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    raw = EXAMPLES[0].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    main(["verify", "-", "--pretty"])
    out = capsys.readouterr().out
    assert out.startswith("{\n") and json.loads(out)["game_id"]


def test_required_finding_codes_exist_with_their_names() -> None:
    required = ["guo_zhang", "chou_pai", "chou_hu", "bi_missing", "chi_not_allowed",
                "pao_missed", "ti_missed", "discard_not_owed", "discard_missing", "out_of_turn",
                "card_not_held", "draw_mismatch", "deal_invalid", "commitment_mismatch",
                "hu_invalid", "priority_violated", "score_mismatch", "log_truncated"]
    assert all(Code(c).value == c for c in required)


def test_verdict_carries_engine_and_log_hash() -> None:
    from replay.logformat import log_sha256
    from replay.version import ENGINE_VERSION

    doc = json.loads(EXAMPLES[0].read_bytes())
    v = verify(parse_log(doc))
    assert v.engine == ENGINE_VERSION
    assert v.log_sha256 == log_sha256(doc) and len(v.log_sha256) == 64
