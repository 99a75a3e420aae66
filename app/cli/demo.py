"""``demo``: fill the database with demo hands (simulated, some doctored)."""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from ..database import Database, transaction
from ..demo import demo_hands, example_files, example_hands, in_the_past
from ..games.repository import GameRepository
from ..games.service import Source
from ..settings import Settings
from .importer import load, summary
from .sources import Entry


def _entries(games: int, seed: int) -> Iterator[Entry]:
    for index, raw in enumerate(example_hands()):
        yield Entry(f"example {index}", raw)
    now = datetime.now(UTC)
    for doc in in_the_past(demo_hands(games, seed), games, now, timedelta(minutes=3)):
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        yield Entry(str(doc.get("game_id")), text.encode("utf-8"))


def run(db: Database, settings: Settings, args: argparse.Namespace) -> int:
    if args.if_empty:
        with transaction(db.read) as session:
            stored = GameRepository(session).count_logs()
        if stored:
            print(f"the database already holds {stored} hands; no demo hands added")
            return 0
    total = args.games + len(example_files())
    counts, bad, seconds = load(
        db,
        settings,
        itertools.islice(_entries(args.games, args.seed), total),
        total,
        source=Source.DEMO,
        verify=True,
        label="demo",
    )
    print(summary(counts, bad, seconds))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="load demo hands (simulated, some doctored)")
    p.add_argument("--games", type=int, default=300, help="simulated hands to add")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--if-empty", action="store_true", help="only if no hand is stored yet")
    p.set_defaults(handler=run, needs_settings=True)
