"""CPU per hand of what a long-running server or worker does with each new hand, on
warm caches: verify alone, and verify with the fair-play features in one walk
(``replay.fairplay.fused.verify_and_read``, what the service runs).

    .venv/bin/python bench/verify_warm.py
    .venv/bin/python bench/verify_warm.py --hands 3000 --seed 7 --repeat 5

Makes ``demo_hands(hands, seed)`` (the service benchmark's hands: the three profiles,
every fifth one doctored), verifies the first half once to warm the engine's memos (as
the hands a process has already seen do), then times each step over the second half:
the best of ``--repeat`` passes, ``time.process_time``. ``python -m replay bench``
measures from cleared caches instead (the acceptance figure); this one is the steady
state, where a change to the memos' use shows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import best_cpu_seconds  # noqa: E402

import replay.engine  # noqa: E402
from app.demo import demo_hands  # noqa: E402
from replay.fairplay.fused import verify_and_read  # noqa: E402
from replay.logformat import parse_log  # noqa: E402
from replay.model import Log  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=3000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    logs = [parse_log(json.dumps(d).encode()) for d in demo_hands(args.hands, args.seed)]
    half = len(logs) // 2
    engine = replay.engine.verify

    def both(log: Log) -> object:
        return verify_and_read(log, engine)

    for log in logs[:half]:
        both(log)
    timed = logs[half:]
    alone = 1000 * best_cpu_seconds(timed, engine, args.repeat)
    fused = 1000 * best_cpu_seconds(timed, both, args.repeat)
    print(f"{len(timed)} demo hands (seed {args.seed}) on warm caches, "
          f"best of {args.repeat} passes; CPU a hand:")
    print(f"  verify                {alone:.3f} ms")
    print(f"  verify + features     {fused:.3f} ms   (features {fused - alone:.3f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
