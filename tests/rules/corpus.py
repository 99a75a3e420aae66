"""The pinned corpora: 2,000 stored hands per profile and the hash of each verdict.

``tests/data/corpus-<ruleset>.ndjson.xz`` holds logs made once, before the issue-8
refactor, by the simulator of that time (1,200 ordinary hands, 400 hands whose bots
refuse most wins, 400 hands doctored with one injector kind each, cycling through the
kinds; a doctoring that found no place left the hand clean). The files never change.
``tests/data/corpus-pins.json`` maps each ``game_id`` to the SHA-256 of its canonical
verdict JSON without the ``engine`` field (the engine version moves at every release).
The pins move only on purpose, when a rule is fixed:
``python -m tests.rules.corpus --write`` rewrites them and prints every verdict that moved.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import sys
from collections.abc import Iterator
from pathlib import Path

from replay import parse_log, verify
from replay.verdict import canonical_json

DATA = Path(__file__).resolve().parent.parent / "data"
RULESETS = ("standard", "hengshan")
PINS = DATA / "corpus-pins.json"


def corpus_lines(ruleset: str) -> Iterator[bytes]:
    with lzma.open(DATA / f"corpus-{ruleset}.ndjson.xz", "rb") as fh:
        for line in fh:
            if line.strip():
                yield line


def verdict_json(raw: bytes) -> dict[str, object]:
    doc = verify(parse_log(raw)).to_json()
    del doc["engine"]
    return doc


def pin_of(raw: bytes) -> tuple[str, str, dict[str, object]]:
    doc = verdict_json(raw)
    return str(doc["game_id"]), hashlib.sha256(canonical_json(doc)).hexdigest(), doc


def compute(ruleset: str) -> dict[str, str]:
    return {gid: sha for gid, sha, _ in map(pin_of, corpus_lines(ruleset))}


def stored() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(PINS.read_text("utf-8"))
    return data


def _codes(doc: dict[str, object]) -> list[str]:
    findings = doc["findings"]
    assert isinstance(findings, list)
    return [str(f["code"]) for f in findings]


def main(argv: list[str]) -> int:
    old = stored() if PINS.exists() else {}
    new: dict[str, dict[str, str]] = {}
    for ruleset in RULESETS:
        new[ruleset] = {}
        for raw in corpus_lines(ruleset):
            gid, sha, doc = pin_of(raw)
            new[ruleset][gid] = sha
            before = old.get(ruleset, {}).get(gid)
            if before is not None and before != sha:
                print(f"moved: {ruleset} {gid} {doc['status']} {_codes(doc)}")
    if "--write" in argv:
        PINS.write_text(json.dumps(new, indent=0, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
