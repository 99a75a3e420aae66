"""The command line: ``python -m replay verify FILE... [--pretty]`` and friends.

Exit status of ``verify``: 0 all clean, 1 some violations, 2 some invalid or
unreadable input. Malformed input gets one line per problem on standard error,
naming the file, the JSON pointer and what was expected.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .engine import verify
from .logformat import LogFormatError, parse_log
from .match import check_match
from .verdict import Status


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def cmd_verify(args: argparse.Namespace) -> int:
    worst = 0
    out = sys.stdout.buffer
    for path in args.files:
        try:
            raw = _read(path)
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            worst = 2
            continue
        try:
            log = parse_log(raw)
        except LogFormatError as exc:
            for p in exc.problems:
                print(f"{path}: {p.pointer or '/'}: expected {p.expected}", file=sys.stderr)
            worst = 2
            continue
        verdict = verify(log)
        out.write(verdict.to_bytes(pretty=args.pretty) + b"\n")
        out.flush()
        code = {Status.CLEAN: 0, Status.VIOLATIONS: 1, Status.INVALID: 2}[verdict.status]
        worst = max(worst, code)
    return worst


def cmd_match(args: argparse.Namespace) -> int:
    hands = []
    status = 0
    for path in args.files:
        try:
            log = parse_log(_read(path))
        except (OSError, LogFormatError) as exc:
            print(f"{path}: {exc}".splitlines()[0], file=sys.stderr)
            status = 2
            continue
        hands.append((log, (verify(log).score or {}).get("expected")))
    problems = check_match(hands)
    for p in problems:
        sys.stdout.write(json.dumps(p.to_json(), sort_keys=True, ensure_ascii=False) + "\n")
    return max(status, 1 if problems else 0)


Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def build_parser(register: Register | None = None) -> argparse.ArgumentParser:
    """The core commands; ``register`` adds more (the tools' ``simulate``, ``stats`` …)."""
    parser = argparse.ArgumentParser(
        prog="python -m replay", description="Re-execute paohuzi-log/1 hands and audit them."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("verify", help="print one verdict JSON object per log")
    v.add_argument("files", nargs="+", metavar="FILE", help="log files; - reads standard input")
    v.add_argument("--pretty", action="store_true", help="indented JSON for people")
    v.set_defaults(func=cmd_verify)
    m = sub.add_parser("match", help="check dealer rotation across the hands of a match")
    m.add_argument("files", nargs="+", metavar="FILE")
    m.set_defaults(func=cmd_match)
    if register is not None:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None, register: Register | None = None) -> int:
    parser = build_parser(register)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        return 130
