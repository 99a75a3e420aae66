"""Demo and benchmark hands: the simulator's when it exists, with some doctored.

``replay.tools.simulate`` (the rules core's simulator) is used when it can be imported;
until then ``synthetic`` makes hands here. The hand-written logs under
``examples/`` are added to the demo when present.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from . import synthetic

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RULESETS = ("standard", "hengshan")

Simulator = Callable[[int, int, str], Iterator[dict[str, Any]]]


def _simulator() -> Simulator | None:
    try:
        from replay.tools.simulate import simulate  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    sim: Simulator = simulate
    return sim


def simulated(games: int, seed: int, ruleset: str) -> Iterator[dict[str, Any]]:
    """``games`` honest hands of ``ruleset``."""
    sim = _simulator()
    if sim is None:
        return synthetic.hands(games, seed, ruleset, doctored_every=0)
    return sim(games, seed, ruleset)


def doctor(doc: dict[str, Any], index: int) -> dict[str, Any]:
    """A copy of an honest hand with one thing wrong (marked in ``meta``)."""
    out = copy.deepcopy(doc)
    result = out.get("result")
    how: str
    if isinstance(result, dict) and isinstance(result.get("scores"), list) and index % 2 == 0:
        scores = result["scores"]
        scores[0] += 1
        scores[1] -= 1
        how = "scores"
    else:
        deal = out["deal"]
        commitment = deal.get("commitment")
        if commitment:
            commitment["sha256"] = "0" * 64
            how = "commitment"
        else:
            deal["commitment"] = {"salt": "doctored", "sha256": "0" * 64}
            how = "commitment"
    out["game_id"] = f"{out['game_id']}-doctored"
    meta = out.setdefault("meta", {})
    meta["demo_doctored"] = how
    return out


def demo_hands(games: int, seed: int, doctored_every: int = 5) -> Iterator[dict[str, Any]]:
    """``games`` hands split over the rulesets; every ``doctored_every``-th one doctored."""
    per = [games // len(RULESETS) + (i < games % len(RULESETS)) for i in range(len(RULESETS))]
    plan = list(zip(per, RULESETS, strict=True))
    if _simulator() is None:
        for i, (n, ruleset) in enumerate(plan):
            yield from synthetic.hands(n, seed + i, ruleset, doctored_every)
        return
    counter = itertools.count(1)
    for i, (n, ruleset) in enumerate(plan):
        for doc in simulated(n, seed + i, ruleset):
            k = next(counter)
            yield doctor(doc, k) if doctored_every and k % doctored_every == 0 else doc


def in_the_past(
    docs: Iterable[dict[str, Any]], total: int, now: datetime, spacing: timedelta
) -> Iterator[dict[str, Any]]:
    """The hands re-dated one ``spacing`` apart, the last one ``spacing`` before ``now``:
    demo hands never sit in the future above the hands sent after them."""
    for index, doc in enumerate(docs):
        at = (now - spacing * (total - index)).replace(microsecond=0)
        yield {**doc, "started_at": at.isoformat().replace("+00:00", "Z")}


def example_files() -> list[Path]:
    return sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []


def example_hands() -> Iterator[bytes]:
    """The hand-written examples, byte for byte (skipping any that are not one object)."""
    for path in example_files():
        raw = path.read_bytes()
        try:
            if isinstance(json.loads(raw), dict):
                yield raw
        except ValueError:
            continue
