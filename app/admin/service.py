"""Re-audit: re-verify stored logs whose current verdict is not from the current engine.

The new verdict becomes current; the old one stays (non-current) for history; the
finding and decision rows follow the current verdict.

Work goes in batches, each in three steps so that no write transaction is held while
the engine runs: ``stale`` (read), ``reverify`` (no database), ``apply`` (write; locks
the logs and skips any that another re-audit has just done). ``apply`` never commits;
``run_batches`` commits each batch through the given session factories.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..games import audit
from ..games.audit import Parsed, VerdictData
from ..games.repository import GameRepository
from ..games.verdicts import Verified, store_verdicts
from ..models.types import utcnow
from .repository import ReauditRepository, StoredLog
from .schemas import ReauditFailure, ReauditOut, VerdictChange

MAX_CHANGES_LISTED = 1000
BATCH = 200

UnitOfWork = Callable[[], AbstractContextManager[Session]]


@dataclass(frozen=True, slots=True)
class Fresh:
    log_id: int
    parsed: Parsed
    verdict: VerdictData


def empty_report(engine: str) -> ReauditOut:
    return ReauditOut(
        engine=engine,
        checked=0,
        changed=0,
        unchanged=0,
        newly_verified=0,
        failed=[],
        remaining=0,
        changes=[],
    )


def reverify(stale: Sequence[StoredLog], max_depth: int, report: ReauditOut) -> list[Fresh]:
    """Parse and verify each stored log; failures go into ``report.failed``."""
    fresh: list[Fresh] = []
    for row in stale:
        try:
            parsed = audit.parse(row.raw, max_depth)
        except ValueError as exc:  # LogFormatError: the parser grew stricter
            report.failed.append(ReauditFailure(game_id=row.game_id, reason=str(exc)))
            continue
        data = audit.verify(parsed.log)
        if data is None:
            report.failed.append(ReauditFailure(game_id=row.game_id, reason="engine error"))
            continue
        fresh.append(Fresh(row.id, parsed, data))
    return fresh


def apply(
    session: Session,
    fresh: Sequence[Fresh],
    engine: str,
    report: ReauditOut,
    *,
    deliver: bool = False,
) -> list[Fresh]:
    """Store the new verdicts as current (with their webhook deliveries if ``deliver``)
    and count what changed into ``report``; the logs verified now (others may have
    been done meanwhile)."""
    repo = ReauditRepository(session)
    games = GameRepository(session)
    still = repo.lock_stale(engine, [f.log_id for f in fresh])
    fresh = [f for f in fresh if f.log_id in still]
    ids = [f.log_id for f in fresh]
    old = games.current_verdicts(ids)
    games.retire_verdicts(ids)
    games.delete_verdicts_of_engine(ids, engine)
    store_verdicts(
        session,
        [Verified(f.log_id, f.parsed, f.verdict, still[f.log_id]) for f in fresh],
        now=utcnow(),
        deliver=deliver,
        replace_features=True,
    )
    for f in fresh:
        report.checked += 1
        before = old.get(f.log_id)
        if before is None:
            report.newly_verified += 1
        elif before.content_sha256 == f.verdict.content_sha256:
            report.unchanged += 1
        else:
            report.changed += 1
            if len(report.changes) < MAX_CHANGES_LISTED:
                report.changes.append(
                    VerdictChange(
                        game_id=f.parsed.game_id,
                        from_engine=before.engine_version,
                        to_engine=f.verdict.engine,
                        from_status=before.status,
                        to_status=f.verdict.status,
                        findings_before=before.finding_count,
                        findings_after=len(f.verdict.verdict.findings),
                    )
                )
    return list(fresh)


def run_batches(
    read: UnitOfWork,
    write: UnitOfWork,
    *,
    limit: int,
    game_ids: Sequence[str] | None = None,
    max_depth: int = 64,
    batch: int = BATCH,
) -> Iterator[ReauditOut]:
    """Re-audit up to ``limit`` logs, a committed batch at a time; one report per batch
    (the last one's ``remaining`` is what is left)."""
    engine = audit.engine_version()
    after = 0
    done = 0
    while done < limit:
        report = empty_report(engine)
        with read() as session:
            stale = ReauditRepository(session).stale(
                engine, min(batch, limit - done), game_ids, after
            )
        if not stale:
            with read() as session:
                report.remaining = ReauditRepository(session).count_stale(engine, game_ids)
            yield report
            return
        after = stale[-1].id
        done += len(stale)
        fresh = reverify(stale, max_depth, report)
        with write() as session:
            apply(session, fresh, engine, report)
        if done >= limit:
            with read() as session:
                report.remaining = ReauditRepository(session).count_stale(engine, game_ids)
        yield report


def merge(reports: Iterator[ReauditOut]) -> ReauditOut:
    total: ReauditOut | None = None
    for r in reports:
        if total is None:
            total = r
            continue
        total.checked += r.checked
        total.changed += r.changed
        total.unchanged += r.unchanged
        total.newly_verified += r.newly_verified
        total.failed += r.failed
        total.changes += r.changes[: MAX_CHANGES_LISTED - len(total.changes)]
        total.remaining = r.remaining
    assert total is not None
    return total
