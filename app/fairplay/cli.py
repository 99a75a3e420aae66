"""``paohuzi-audit fairplay simulate|scan``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..database import Database
from ..settings import Settings


def simulate(_: Settings, args: argparse.Namespace) -> int:
    from replay.tools.population import Plant, write_population

    try:
        n = write_population(Path(args.out), args.players, args.hands, args.seed, args.ruleset,
                             Plant.parse(args.plant))
    except ValueError as exc:
        print(f"paohuzi-audit fairplay simulate: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {n} hands of {args.players} players to {args.out}/hands.ndjson, "
          f"labels to {args.out}/labels.json", file=sys.stderr)
    return 0


def scan(db: Database, args: argparse.Namespace) -> int:
    from .service import scan as run

    summary = run(db, args.batch)
    print(summary.line())
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser("fairplay", help="fair-play analytics: simulate a population, scan")
    fsub = p.add_subparsers(dest="fairplay_command", required=True)
    s = fsub.add_parser("simulate", help="a population of players with planted cheats")
    s.add_argument("--players", type=int, default=60)
    s.add_argument("--hands", type=int, default=1000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--ruleset", choices=("standard", "hengshan", "changde"), default="standard")
    s.add_argument("--plant", default="pairs=0,seers=0", metavar="pairs=K,seers=M")
    s.add_argument("--out", required=True, metavar="DIR")
    s.set_defaults(plain=simulate)
    c = fsub.add_parser("scan", help="every detector over the stored hands (incremental)")
    c.add_argument("--batch", type=int, default=500, help="hands read per transaction")
    c.set_defaults(handler=scan)
