"""CPU time of the strict parse (``replay.logformat.parse_log``) per simulated hand.

Simulates ``--hands`` hands per ruleset (seed 1, the bench corpus), writes them as the
simulator does (compact JSON, UTF-8) and times, per log, best of ``--repeat`` passes of
CPU time (``time.process_time``): ``json.loads`` alone (the floor), ``loads_strict``,
``parse_log`` and the canonical bytes of the hash (``canonical_log_bytes``)::

    python bench/parse_speed.py --hands 500 --repeat 5

``--instructions`` counts instead, with valgrind (steady under load): the instructions of
one process that reads the logs and parses each once, less those of one that only reads
them (``PYTHONHASHSEED=0``), per log::

    python bench/parse_speed.py --hands 300 --instructions

``--refused`` times the refusals instead: the byte inputs of the pinned parser cases
(``tests/data/parse-cases.ndjson.xz``) that ``parse_log`` refuses, per input::

    python bench/parse_speed.py --refused
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from measure import best_cpu_seconds, instructions

from replay.logformat import LogFormatError, canonical_log_bytes, loads_strict, parse_log
from replay.tools.simulate import RULESETS, dumps, simulate


def best_us(fn: Callable[[Any], object], items: list[Any], repeat: int) -> float:
    """Best CPU time per item, in microseconds, over ``repeat`` passes."""
    return best_cpu_seconds(items, fn, repeat) * 1e6


def _child(corpus: str, parse: bool) -> None:
    with open(corpus, "rb") as fh:
        lines = fh.read().splitlines()
    if parse:
        for line in lines:
            parse_log(line)


def _instructions(corpus: str, parse: bool) -> int:
    return instructions(__file__, "--child", corpus, *(["--parse"] if parse else []))


def count_instructions(rulesets: list[str], hands: int) -> None:
    for ruleset in rulesets:
        with tempfile.NamedTemporaryFile("wb", suffix=".ndjson") as fh:
            for doc in simulate(hands, 1, ruleset):
                fh.write(dumps(doc).encode() + b"\n")
            fh.flush()
            per_log = (_instructions(fh.name, True) - _instructions(fh.name, False)) // hands
        print(f"{ruleset}: {per_log:,} instructions per parse_log ({hands} logs)")


CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "parse-cases.ndjson.xz"


def _refuse(raw: bytes) -> None:
    try:
        parse_log(raw)
    except LogFormatError:
        pass


def time_refusals(repeat: int) -> None:
    with lzma.open(CASES, "rt", encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh]
    refused = [
        case["input"].encode("latin-1") for case in cases
        if case["as"] == "bytes" and case["call"] == "parse_log" and "problems" in case["answer"]
    ]
    gc.collect()
    gc.freeze()
    print(f"{len(refused)} refused inputs: {best_us(_refuse, refused, repeat):.1f} us each "
          f"(CPU, best of {repeat})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ruleset", action="append", choices=RULESETS)
    ap.add_argument("--instructions", action="store_true", help="count with valgrind")
    ap.add_argument("--refused", action="store_true", help="time the pinned refusals")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--parse", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        _child(a.child, a.parse)
        return
    if a.instructions:
        count_instructions(a.ruleset or list(RULESETS), a.hands)
        return
    if a.refused:
        time_refusals(a.repeat)
        return
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
