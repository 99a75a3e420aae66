"""Instructions per verified hand, counted by valgrind (steady on a shared machine).

    python bench/core_instructions.py --ruleset standard --hands 300
    python bench/core_instructions.py --ruleset hengshan --hands 300 --features

Simulates the first N hands of ``simulate(2000, 1, ruleset)`` (the corpus of ``python -m
replay bench``) into a temporary file, then runs this script twice under ``valgrind
--tool=cachegrind --cache-sim=no`` on it (parse only, then parse + verify with the engine
caches cleared, both with ``PYTHONHASHSEED=0``) and prints the difference per hand;
``--features`` verifies and reads the fair-play features in one walk
(``replay.fairplay.fused.verify_and_read``, what the service does with every hand).
Needs ``valgrind`` (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import tempfile
from itertools import islice

from measure import instructions


def _child(corpus: str, mode: str) -> None:
    from replay import arrangements
    from replay.engine import verify as verify_log
    from replay.fairplay.fused import verify_and_read
    from replay.logformat import parse_log

    with open(corpus, "rb") as fh:
        logs = [parse_log(line) for line in fh.read().splitlines()]
    if mode != "parse":
        arrangements.clear_caches()
        for log in logs:
            verify_and_read(log) if mode == "features" else verify_log(log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--features", action="store_true",
                    help="verify and read the fair-play features (verify_and_read)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="parse", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        _child(a.child, a.mode)
        return
    from replay.tools.simulate import dumps, simulate

    with tempfile.NamedTemporaryFile("wb", suffix=".ndjson") as fh:
        for doc in islice(simulate(2000, 1, a.ruleset), a.hands):
            fh.write(dumps(doc).encode("utf-8") + b"\n")
        fh.flush()
        mode = "features" if a.features else "verify"
        base = instructions(__file__, "--child", fh.name)
        full = instructions(__file__, "--child", fh.name, "--mode", mode)
    what = "verified and read hand" if a.features else "verified hand"
    print(f"{a.ruleset}: {(full - base) // a.hands:,} instructions per {what} "
          f"({a.hands} hands, caches cleared)")


if __name__ == "__main__":
    main()
