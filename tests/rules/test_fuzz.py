"""Doctored logs never crash the engine: every event sequence gets a verdict."""

import json
import random
from pathlib import Path

from replay.cards import NAMES
from replay.engine import verify
from replay.logformat import LogFormatError, parse_log
from replay.steps import table_steps

ROOT = Path(__file__).parents[2]
DOCS = [json.loads(p.read_bytes()) for p in sorted((ROOT / "examples").glob("*.json"))]
DOCS += [json.loads(p.read_bytes()) for p in sorted((ROOT / "tests/regressions").glob("*.json"))]
TYPES = ["draw", "discard", "ti", "wei", "pao", "peng", "chi", "pass", "hu", "end"]


def _doctor(rng: random.Random, doc: dict) -> dict:  # type: ignore[type-arg]
    d = json.loads(json.dumps(doc))
    ev = d["events"]
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        if op < 0.3 and ev:
            del ev[rng.randrange(len(ev))]
        elif op < 0.6:
            t = rng.choice(TYPES)
            e: dict = {"type": t, "seat": rng.randrange(3), "card": rng.choice(NAMES)}  # type: ignore[type-arg]
            if t == "chi":
                e["groups"] = [[rng.choice(NAMES) for _ in range(3)]
                               for _ in range(rng.randint(1, 3))]
            if t == "hu" and rng.random() < 0.2:
                e["card"] = None
            if t == "end":
                e = {"type": "end", "reason": rng.choice(["exhausted", "abandoned"])}
            ev.insert(rng.randint(0, len(ev)), e)
        elif ev:
            e = ev[rng.randrange(len(ev))]
            if "seat" in e:
                e["seat"] = rng.randrange(3)
            if e.get("card") is not None:
                e["card"] = rng.choice(NAMES)
    return d


def test_doctored_logs_always_get_a_verdict() -> None:
    rng = random.Random(20261130)
    checked = 0
    for _ in range(3000):
        doc = _doctor(rng, rng.choice(DOCS))
        try:
            log = parse_log(doc)
        except LogFormatError:
            continue
        verdict = verify(log)
        steps = table_steps(log)
        assert steps.verdict.to_bytes() == verdict.to_bytes()
        assert verdict.status.value in ("clean", "violations", "invalid")
        checked += 1
    assert checked > 2000
