"""``reaudit``: re-verify every stale log, a committed batch at a time."""

from __future__ import annotations

import argparse
from functools import partial

from ..admin.repository import ReauditRepository
from ..admin.service import run_batches
from ..database import Database, transaction
from ..games.audit import engine_version
from ..jobs.reaudit import enqueue_chunks, wait
from ..settings import Settings, Verification, verification
from .progress import Progress

SHOWN = 50


def run_as_jobs(db: Database, settings: Settings, args: argparse.Namespace) -> int:
    """PostgreSQL: enqueue chunk jobs for the workers, then follow them to the end."""
    engine = engine_version()
    with transaction(db.read) as session:
        total = ReauditRepository(session).count_stale(engine, None)
    jobs = enqueue_chunks(db, engine, args.chunk_size or settings.reaudit_chunk_size)
    print(
        f"engine {engine}: {total} logs to re-verify, {jobs} chunk jobs enqueued "
        "(for `paohuzi-audit worker` processes; Ctrl-C stops following, not the jobs)"
    )
    if args.no_wait:
        return 0
    bar = Progress(total, "reaudit")

    def progress(left: int) -> None:
        bar.advance(max(total - left - bar.done, 0))

    left = wait(db, engine, progress)
    seconds = bar.close()
    print(
        f"engine {engine}: {total - left} logs re-verified by the workers in {seconds:.1f}s, "
        f"{left} still without a verdict of this engine"
    )
    return 1 if left else 0


def run(db: Database, settings: Settings, args: argparse.Namespace) -> int:
    queued = settings.model_copy(update={"verify_on_ingest": True})
    if verification(queued) is Verification.QUEUE and not args.inline:
        return run_as_jobs(db, settings, args)
    engine = engine_version()
    with transaction(db.read) as session:
        total = ReauditRepository(session).count_stale(engine, None)
    bar = Progress(total, "reaudit")
    checked = changed = unchanged = newly = 0
    changes: list[str] = []
    failed: list[str] = []
    for report in run_batches(
        partial(transaction, db.read),
        partial(transaction, db.write),
        limit=max(total, 1),
        max_depth=settings.max_json_depth,
        batch=args.batch_size,
    ):
        bar.advance(report.checked + len(report.failed))
        checked += report.checked
        changed += report.changed
        unchanged += report.unchanged
        newly += report.newly_verified
        changes += [
            f"  {c.game_id}: {c.from_status} -> {c.to_status} "
            f"({c.findings_before} -> {c.findings_after} findings, {c.from_engine})"
            for c in report.changes
        ]
        failed += [f"  {f.game_id}: {f.reason}" for f in report.failed]
    seconds = bar.close()
    print(
        f"engine {engine}: {checked} logs re-verified in {seconds:.1f}s: {changed} changed, "
        f"{unchanged} unchanged, {newly} newly verified, {len(failed)} failed"
    )
    for line in changes[:SHOWN] + failed[:SHOWN]:
        print(line)
    return 1 if failed else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("reaudit", help="re-verify stored logs with the current engine")
    p.add_argument("--batch-size", type=int, default=200, help="logs per transaction (inline)")
    p.add_argument(
        "--inline", action="store_true", help="PostgreSQL: verify here, not by the workers"
    )
    p.add_argument("--chunk-size", type=int, help="logs per job (PAOHUZI_REAUDIT_CHUNK_SIZE)")
    p.add_argument("--no-wait", action="store_true", help="enqueue the jobs and return")
    p.set_defaults(handler=run, needs_settings=True)
