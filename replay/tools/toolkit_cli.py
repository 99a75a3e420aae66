"""The simulator toolkit's commands: ``simulate``, ``stats``, ``mutate``, ``bench``.

``main`` is ``python -m replay``: the core commands of ``replay.cli`` plus these
(``register`` adds them to its sub-command parsers). Exit status:
``simulate`` 0; ``stats`` 0 (2 when nothing could be read); ``mutate`` 0, 2 for
an unreadable log, 3 when the log offers no place for the kind; ``bench`` 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import cli
from ..logformat import LogFormatError, loads_strict
from .simulate import RULESETS, set_quarantine_hook


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import dumps, simulate

    skipped: list[str] = []
    set_quarantine_hook(lambda gid, why, doc: skipped.append(f"{gid}: {why}"))
    out_dir: Path | None = None if args.out == "-" else Path(args.out)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    stdout = sys.stdout.buffer
    n = 0
    for doc in simulate(args.games, args.seed, args.ruleset, match=args.match):
        data = (dumps(doc) + "\n").encode("utf-8")
        if out_dir is None:
            stdout.write(data)
        else:
            (out_dir / f"{doc['game_id']}.json").write_bytes(data)
        n += 1
    stdout.flush()
    set_quarantine_hook(None)
    for line in skipped:
        print(f"skipped (engine disagreement): {line}", file=sys.stderr)
    if out_dir is not None:
        print(f"wrote {n} hands to {out_dir}", file=sys.stderr)
    return 0


def cmd_population(args: argparse.Namespace) -> int:
    from .population import Plant, write_population

    try:
        n = write_population(Path(args.out), args.players, args.hands, args.seed,
                             args.ruleset, Plant.parse(args.plant))
    except ValueError as exc:
        print(f"population: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {n} hands to {args.out}/hands.ndjson, labels to {args.out}/labels.json",
          file=sys.stderr)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from .stats import collect, read_docs

    stats = collect(read_docs(args.source))
    if args.json:
        sys.stdout.write(json.dumps(stats.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
    else:
        stats.render(sys.stdout)
    return 0 if stats.hands else 2


def cmd_mutate(args: argparse.Namespace) -> int:
    from .mutate import KINDS, NoPlace, mutate

    if args.list:
        width = max(len(k) for k in KINDS)
        for name, kind in KINDS.items():
            print(f"{name:<{width}}  {kind.code!s:<20}  {kind.what}")
        return 0
    if not args.kind or not args.log:
        print("mutate: --kind K and LOG are required (or --list)", file=sys.stderr)
        return 2
    if args.kind not in KINDS:
        print(f"mutate: unknown kind {args.kind!r}; one of: {', '.join(KINDS)}",
              file=sys.stderr)
        return 2
    try:
        raw = sys.stdin.buffer.read() if args.log == "-" else Path(args.log).read_bytes()
        doc: Any = loads_strict(raw)
    except OSError as exc:
        print(f"{args.log}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except LogFormatError as exc:
        for p in exc.problems:
            print(f"{args.log}: {p.pointer or '/'}: expected {p.expected}", file=sys.stderr)
        return 2
    if not isinstance(doc, dict):
        print(f"{args.log}: not a log object", file=sys.stderr)
        return 2
    try:
        out = mutate(doc, args.kind)
    except LogFormatError as exc:
        for p in exc.problems:
            print(f"{args.log}: {p.pointer or '/'}: expected {p.expected}", file=sys.stderr)
        return 2
    except NoPlace as exc:
        print(f"mutate: {exc}", file=sys.stderr)
        return 3
    sys.stdout.write(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


def _at_least_one(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return n


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import render, run

    result = run(args.games, args.ruleset, args.seed, args.win_checks, args.repeat)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), sort_keys=True) + "\n")
    else:
        sys.stdout.write(render(result))
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("simulate", help="self-play: write complete simulated hands")
    s.add_argument("--games", type=int, default=10, help="hands to play (default 10)")
    s.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    s.add_argument("--ruleset", choices=RULESETS, default="standard")
    s.add_argument("--match", type=int, default=1, metavar="K",
                   help="play K hands a table, with dealer rotation and match headers")
    s.add_argument("--out", default="-", metavar="DIR",
                   help="a directory for one file a hand, or - for NDJSON on stdout (default)")
    s.set_defaults(func=cmd_simulate)

    pp = sub.add_parser("population", help="a population of players with planted cheats "
                        "(the same as paohuzi-audit fairplay simulate)")
    pp.add_argument("--players", type=int, default=60)
    pp.add_argument("--hands", type=int, default=1000)
    pp.add_argument("--seed", type=int, default=0)
    pp.add_argument("--ruleset", choices=RULESETS, default="standard")
    pp.add_argument("--plant", default="pairs=0,seers=0", metavar="pairs=K,seers=M")
    pp.add_argument("--out", required=True, metavar="DIR")
    pp.set_defaults(func=cmd_population)

    st = sub.add_parser("stats", help="counts over a corpus of logs")
    st.add_argument("source", metavar="DIR|-", help="a directory of logs, a file, or - (NDJSON)")
    st.add_argument("--json", action="store_true", help="one JSON object")
    st.set_defaults(func=cmd_stats)

    m = sub.add_parser("mutate", help="doctor a clean log with one named violation")
    m.add_argument("--kind", help="the violation (see --list)")
    m.add_argument("--list", action="store_true", help="list the kinds")
    m.add_argument("log", nargs="?", metavar="LOG", help="a clean log file, or -")
    m.set_defaults(func=cmd_mutate)

    b = sub.add_parser("bench", help="time verification over a simulated corpus")
    b.add_argument("--games", type=int, default=1000, help="hands to simulate (default 1000)")
    b.add_argument("--ruleset", choices=RULESETS, default="standard")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--win-checks", type=int, default=20000, dest="win_checks",
                   help="holdings for the win-check timing (default 20000)")
    b.add_argument("--repeat", type=_at_least_one, default=3, metavar="N",
                   help="timed runs, each from cleared caches; the median is reported "
                        "(default 3)")
    b.add_argument("--json", action="store_true", help="one JSON object")
    b.set_defaults(func=cmd_bench)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m replay``: every command, core and tools."""
    return cli.main(argv, register)
