"""Instructions per verified hand, counted by valgrind (steady on a shared machine).

    python bench/core_instructions.py --ruleset standard --hands 300

Simulates the first N hands of ``simulate(2000, 1, ruleset)`` (the corpus of ``python -m
replay bench``) into a temporary file, then runs this script twice under ``valgrind
--tool=cachegrind --cache-sim=no`` on it (parse only, then parse + verify with the engine
caches cleared, both with ``PYTHONHASHSEED=0``) and prints the difference per hand.
Needs ``valgrind`` (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from itertools import islice


def _child(corpus: str, verify: bool) -> None:
    from replay import arrangements
    from replay.engine import verify as verify_log
    from replay.logformat import parse_log

    with open(corpus, "rb") as fh:
        logs = [parse_log(line) for line in fh.read().splitlines()]
    if verify:
        arrangements.clear_caches()
        for log in logs:
            verify_log(log)


def _instructions(corpus: str, verify: bool) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--child", corpus]
    if verify:
        cmd.append("--verify")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    match = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if match is None:
        raise SystemExit("valgrind printed no instruction count:\n" + out[-2000:])
    return int(match.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--verify", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        _child(a.child, a.verify)
        return
    from replay.tools.simulate import dumps, simulate

    with tempfile.NamedTemporaryFile("wb", suffix=".ndjson") as fh:
        for doc in islice(simulate(2000, 1, a.ruleset), a.hands):
            fh.write(dumps(doc).encode("utf-8") + b"\n")
        fh.flush()
        base = _instructions(fh.name, False)
        full = _instructions(fh.name, True)
    print(f"{a.ruleset}: {(full - base) // a.hands:,} instructions per verified hand "
          f"({a.hands} hands, caches cleared)")


if __name__ == "__main__":
    main()
