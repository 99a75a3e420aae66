"""``paohuzi-audit fairplay simulate|scan``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..database import Database
from ..settings import Settings


def simulate(_: Settings, args: argparse.Namespace) -> int:
    from replay.tools.population import Plant, population
    from replay.tools.simulate import dumps

    try:
        plant = Plant.parse(args.plant)
        pop, hands = population(args.players, args.hands, args.seed, args.ruleset, plant)
    except ValueError as exc:
        print(f"paohuzi-audit fairplay simulate: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    with (out / "hands.ndjson").open("w", encoding="utf-8") as f:
        for doc in hands:
            f.write(dumps(doc) + "\n")
            n += 1
    (out / "labels.json").write_text(json.dumps(pop.labels, indent=1) + "\n", encoding="utf-8")
    (out / "players.json").write_text(json.dumps(pop.roster(), indent=1) + "\n",
                                      encoding="utf-8")
    print(f"wrote {n} hands of {args.players} players to {out / 'hands.ndjson'}, "
          f"labels to {out / 'labels.json'}", file=sys.stderr)
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
    s.add_argument("--ruleset", choices=("standard", "hengshan"), default="standard")
    s.add_argument("--plant", default="pairs=0,seers=0", metavar="pairs=K,seers=M")
    s.add_argument("--out", required=True, metavar="DIR")
    s.set_defaults(plain=simulate)
    c = fsub.add_parser("scan", help="every detector over the stored hands (incremental)")
    c.add_argument("--batch", type=int, default=500, help="hands read per transaction")
    c.set_defaults(handler=scan)
