"""A verified hand is freed by reference counting alone.

Nothing the rules core builds for a hand (the parsed log, the state, its tables and
ledger, the verdict, the features) may sit in a reference cycle: the hand would then stay
in memory until the cycle collector runs, and in a server that collector ran every few
hundred requests over ~50,000 objects (0.25 ms a request; docs/performance.md, "Seventh
pass"). The cycle was a state holding its own bound methods as its phase handlers.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator

import pytest

from replay.fairplay.features import extract
from replay.fairplay.fused import verify_and_read
from replay.logformat import parse_log
from replay.state import State
from replay.tools.mutate import KINDS, NoPlace, mutate
from replay.tools.simulate import simulate


def _raws(ruleset: str) -> list[bytes]:
    docs = list(simulate(6, 5, ruleset))
    out = [json.dumps(d).encode() for d in docs]
    for doc, kind in zip(docs, sorted(KINDS)[:6], strict=True):
        try:
            out.append(json.dumps(mutate(doc, kind)["log"]).encode())
        except NoPlace:
            pass
    return out


def _work(raws: list[bytes]) -> None:
    for raw in raws:
        log = parse_log(raw)
        verdict, features = verify_and_read(log)
        assert verdict.to_bytes()
        assert features is None or features.to_json()
        extract(log)
        state = State(log)
        for event in log.events[:8]:
            state.apply(event)
        state.clone()


def _replay_garbage(raws: list[bytes]) -> Iterator[str]:
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        _work(raws)
        gc.collect()
        garbage = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    # only the rules core's own objects: a test runner's thread may leave its own garbage
    for obj in garbage:
        module = type(obj).__module__
        if module.startswith("replay."):
            yield f"{module}.{type(obj).__qualname__}"


@pytest.mark.parametrize("ruleset", ["standard", "hengshan", "changde"])
def test_a_verified_hand_leaves_no_reference_cycle(ruleset: str) -> None:
    raws = _raws(ruleset)
    assert len(raws) >= 9
    _work(raws)  # warm: memo tables and lazily made module state are not garbage
    assert sorted(set(_replay_garbage(raws))) == []
