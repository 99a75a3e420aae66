"""``import``: store logs from files straight into the database (no HTTP), in batches."""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..database import Database
from ..games.bulk import Limits, Line, ingest_batches
from ..games.service import Outcome, Result, Source
from ..settings import Settings, Verification, verification
from . import sources
from .progress import Progress

SHOWN = 20


def load(
    db: Database,
    settings: Settings,
    entries: Iterable[sources.Entry],
    total: int,
    *,
    source: Source,
    verify: bool,
    enqueue: bool = False,
    label: str = "import",
) -> tuple[Counter[str], list[tuple[str, Result]], float]:
    """Store ``entries``; outcome counts, the entries not stored, and the seconds taken."""
    where: list[str] = []

    def lines() -> Iterator[Line]:
        for index, entry in enumerate(entries):
            where.append(entry.where)
            yield Line(index, entry.raw)

    limits = Limits(
        max_log_bytes=settings.max_log_bytes,
        max_depth=settings.max_json_depth,
        batch_size=settings.bulk_batch_size,
        verify=verify,
        enqueue=enqueue,
    )
    counts: Counter[str] = Counter()
    bad: list[tuple[str, Result]] = []
    bar = Progress(total, label)
    for batch in ingest_batches(db, lines(), limits, api_key_id=None, source=source):
        for line, result in batch:
            counts[str(result.outcome)] += 1
            if result.outcome in (Outcome.CONFLICT, Outcome.REJECTED, Outcome.FAILED):
                bad.append((where[line.number], result))
        bar.advance(len(batch))
    return counts, bad, bar.close()


def summary(counts: Counter[str], bad: list[tuple[str, Result]], seconds: float) -> str:
    total = sum(counts.values())
    parts = ", ".join(f"{counts[str(o)]} {o}" for o in Outcome if counts[str(o)])
    out = [f"{total} logs in {seconds:.1f}s: {parts or 'nothing to do'}"]
    for where, result in bad[:SHOWN]:
        error = result.error
        detail = error.message if error else str(result.outcome)
        if result.problems:
            first = result.problems[0]
            detail += f" ({first['pointer'] or '/'}: {first['expected']})"
        out.append(f"  {where}: {result.outcome}: {detail}")
    if len(bad) > SHOWN:
        out.append(f"  ... and {len(bad) - SHOWN} more")
    return "\n".join(out)


def run(db: Database, settings: Settings, args: argparse.Namespace) -> int:
    paths = [Path("-")] if args.paths == ["-"] else sources.files(args.paths)
    total = sum(sources.count(p) for p in paths if str(p) != "-")
    entries = itertools.chain.from_iterable(sources.entries(p) for p in paths)
    mode = Verification.OFF if args.no_verify else verification(settings)
    counts, bad, seconds = load(
        db,
        settings,
        entries,
        total,
        source=Source.IMPORT,
        verify=mode is Verification.INLINE,
        enqueue=mode is Verification.QUEUE,
    )
    print(summary(counts, bad, seconds))
    return 1 if bad else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import",
        help="store logs from files, folders or NDJSON (- for standard input)",
        description="A .json file is one log; .ndjson/.jsonl hold one per line; folders are "
        "searched recursively. Exit status 1 if any log was rejected or conflicted.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--no-verify", action="store_true", help="store only; verify later by reaudit")
    p.set_defaults(handler=run, needs_settings=True)
