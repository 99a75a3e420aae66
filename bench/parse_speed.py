"""CPU time of the strict parse (``replay.logformat.parse_log``) per simulated hand.

Simulates ``--hands`` hands per ruleset (seed 1, the bench corpus), writes them as the
simulator does (compact JSON, UTF-8) and times, per log, best of ``--repeat`` passes of
CPU time (``time.process_time``): ``json.loads`` alone (the floor), ``loads_strict``,
``parse_log`` and the canonical bytes of the hash (``canonical_log_bytes``)::

    python bench/parse_speed.py --hands 500 --repeat 5
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from typing import Any

from replay.logformat import canonical_log_bytes, loads_strict, parse_log
from replay.tools.simulate import RULESETS, dumps, simulate


def best_us(fn: Callable[[Any], object], items: list[Any], repeat: int) -> float:
    """Best CPU time per item, in microseconds, over ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return best / len(items) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ruleset", action="append", choices=RULESETS)
    a = ap.parse_args()
    print(f"{'ruleset':10} {'bytes':>6} {'json.loads':>10} {'loads_strict':>12} "
          f"{'parse_log':>9} {'canonical':>9}  (us a log, CPU, best of {a.repeat})")
    for ruleset in a.ruleset or RULESETS:
        logs = [dumps(doc).encode() for doc in simulate(a.hands, 1, ruleset)]
        docs = [json.loads(raw) for raw in logs]
        gc.collect()
        gc.freeze()
        size = sum(map(len, logs)) / len(logs)
        row = [best_us(fn, items, a.repeat) for fn, items in (
            (json.loads, logs), (loads_strict, logs), (parse_log, logs),
            (canonical_log_bytes, docs))]
        print(f"{ruleset:10} {size:6.0f} " + " ".join(
            f"{v:{w}.1f}" for v, w in zip(row, (10, 12, 9, 9), strict=True)))
        gc.unfreeze()


if __name__ == "__main__":
    main()
