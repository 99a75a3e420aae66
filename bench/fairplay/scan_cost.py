"""What the fair-play scan costs against verifying the same hands (docs/fairplay.md).

    .venv/bin/python bench/fairplay/scan_cost.py /tmp/fp_acc/changde-cheats/hands.ndjson \
        --sizes 10000,20000 --sample 1500 --profiles /tmp/fp_hands_{ruleset}.ndjson

For each size N (the first N hands of the file), on a fresh SQLite database in a
temporary folder, in this one process (so CPU time, ``time.process_time``, is all of it):

- ``verify``: verifying the N parsed hands alone (``replay.verify``), the yardstick;
- ``import``: ``paohuzi-audit import`` (parse, verify and read the features in one walk,
  store verdicts and features);
- ``scan``: ``paohuzi-audit fairplay scan`` with every hand's features stored (the scan
  only aggregates);
- ``backfill``: the same scan after deleting every stored feature (one ``extract`` replay
  a hand, as for hands stored before features were read at verification, then the
  aggregation).

Then per hand, on ``--sample`` hands of each file given by ``--profiles`` (median of 3
runs): ``verify`` alone, ``verify_and_read`` (the verdict and the features JSON in one
walk) and ``extract`` alone. Prints one JSON object; the load average beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay import parse_log, verify
from replay.fairplay import extract
from replay.fairplay.fused import verify_and_read
from replay.model import Log


def cpu(fn: Callable[[], Any]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def per_hand(logs: list[Log]) -> dict[str, float]:
    def fused() -> None:
        for log in logs:
            _, f = verify_and_read(log)
            assert f is not None
            f.to_json()

    runs = {"verify": lambda: [verify(log) for log in logs], "verify_and_features": fused,
            "extract": lambda: [extract(log).to_json() for log in logs]}
    return {name: round(1000 * statistics.median(cpu(fn) for _ in range(3)) / len(logs), 3)
            for name, fn in runs.items()}


def sized(lines: list[bytes], n: int) -> dict[str, Any]:
    from app.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "fp.sqlite3"
        os.environ["PAOHUZI_DATABASE_URL"] = f"sqlite:///{db}"
        hands = Path(tmp) / "hands.ndjson"
        hands.write_bytes(b"".join(lines[:n]))
        logs = [parse_log(raw) for raw in lines[:n]]
        out: dict[str, Any] = {"hands": n}
        out["verify_s"] = round(cpu(lambda: [verify(log) for log in logs]), 1)
        assert main(["migrate"]) == 0
        out["import_s"] = round(cpu(lambda: main(["import", str(hands)])), 1)
        out["scan_s"] = round(cpu(lambda: main(["fairplay", "scan"])), 1)
        with sqlite3.connect(db) as con:
            con.execute("DELETE FROM fairplay_features")
        out["backfill_s"] = round(cpu(lambda: main(["fairplay", "scan"])), 1)
        out["scan_over_verify"] = round(out["scan_s"] / out["verify_s"], 3)
        out["backfill_over_verify"] = round(out["backfill_s"] / out["verify_s"], 3)
        return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("hands")
    ap.add_argument("--sizes", default="10000,20000")
    ap.add_argument("--sample", type=int, default=1500)
    ap.add_argument("--profiles", default="", help="files of hands, {ruleset} expanded")
    args = ap.parse_args()
    lines = [ln for ln in Path(args.hands).read_bytes().splitlines(keepends=True) if ln.strip()]
    result: dict[str, Any] = {"load_before": os.getloadavg()}
    if args.profiles:
        result["per_hand_ms"] = {}
        for ruleset in ("standard", "hengshan", "changde"):
            path = Path(args.profiles.format(ruleset=ruleset))
            if path.exists():
                sample = path.read_bytes().splitlines()[: args.sample]
                result["per_hand_ms"][ruleset] = per_hand([parse_log(ln) for ln in sample])
                print(ruleset, result["per_hand_ms"][ruleset], file=sys.stderr, flush=True)
    result["sizes"] = []
    for n in (int(x) for x in args.sizes.split(",")):
        result["sizes"].append(sized(lines, n))
        print(result["sizes"][-1], file=sys.stderr, flush=True)
    result["load_after"] = os.getloadavg()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
