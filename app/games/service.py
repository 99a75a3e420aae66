"""Ingest: parse, verify, store. Works on batches (a single POST is a batch of one).

Never commits: the caller's transaction decides. Nothing is half-stored: a log, its
players, its verdict and its rows go in the same transaction or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import groupby
from operator import itemgetter

from sqlalchemy.orm import Session

from replay.logformat import LogFormatError

from ..bounds import log_problems
from ..errors import AppError, Conflict, InvalidLog
from ..jobs.queue import defer_verification
from ..models.types import utcnow
from . import audit
from .audit import Parsed, VerdictData
from .repository import GameRepository
from .rows import log_row, player_rows
from .verdicts import Verified, store_verdicts


class Outcome(StrEnum):
    CREATED = "created"
    DUPLICATE = "duplicate"
    CONFLICT = "conflict"
    REJECTED = "rejected"
    #: the server could not finish (database down mid-bulk): retry the line.
    FAILED = "failed"


class Source(StrEnum):
    API = "api"
    IMPORT = "import"
    DEMO = "demo"


@dataclass(slots=True)
class Prepared:
    """A log that parsed, with its verdict (``None`` when not verified at ingest)."""

    parsed: Parsed
    verdict: VerdictData | None


@dataclass(slots=True)
class Result:
    outcome: Outcome
    game_id: str | None = None
    log_sha256: str | None = None
    #: the verdict now stored for this game (new, or the one already there).
    verdict_json: str | None = None
    verdict_status: str | None = None
    finding_count: int | None = None
    error: AppError | None = None
    problems: list[dict[str, str]] = field(default_factory=list)


def parse(raw: bytes, max_depth: int) -> Parsed:
    """Raises ``InvalidLog`` with one problem per fault (each with its JSON pointer)."""
    try:
        parsed = audit.parse(raw, max_depth)
    except LogFormatError as exc:
        raise InvalidLog(
            "the body is not a valid paohuzi-log/1 document", problems=exc.to_json()
        ) from None
    problems = log_problems(parsed.log)
    if problems:
        raise InvalidLog("the log holds values that cannot be stored", problems=problems)
    return parsed


def prepare(parsed: Parsed, verify: bool) -> Prepared:
    return Prepared(parsed, audit.verify(parsed.log) if verify else None)


def conflict_error(game_id: str, stored: str, received: str) -> Conflict:
    return Conflict(
        f"game_id {game_id!r} is already stored with different content "
        f"(stored log_sha256 {stored}, received {received}); nothing was changed",
        extra={"game_id": game_id, "stored_log_sha256": stored, "log_sha256": received},
    )


def store(
    session: Session,
    items: Sequence[Prepared],
    *,
    api_key_id: int | None,
    source: Source,
    enqueue: bool = False,
) -> list[Result]:
    """Store the new logs among ``items``; one ``Result`` per item, in order. With
    ``enqueue``, one verification job for the new unverified logs joins the transaction."""
    repo = GameRepository(session)
    now = utcnow()
    first_of: dict[str, int] = {}
    for index, item in enumerate(items):
        first_of.setdefault(item.parsed.game_id, index)
    unique = [items[i] for i in first_of.values()]

    times = {item.parsed.game_id: audit.played_at(item.parsed.log, now) for item in unique}
    inserted = repo.insert_logs(
        [
            log_row(
                item.parsed,
                started_at=times[item.parsed.game_id][0],
                played_at=times[item.parsed.game_id][1],
                ingested_at=now,
                api_key_id=api_key_id,
                source=str(source),
            )
            for item in unique
        ]
    )
    new = [item for item in unique if item.parsed.game_id in inserted]
    players = []
    for item in new:
        players.extend(player_rows(inserted[item.parsed.game_id], item.parsed.log.players))
    repo.insert_players(players)
    store_verdicts(
        session,
        [
            Verified(inserted[i.parsed.game_id], i.parsed, i.verdict, times[i.parsed.game_id][1])
            for i in new
            if i.verdict is not None
        ],
        now=now,
        deliver=True,
    )
    if enqueue:
        defer_verification(session, [inserted[i.parsed.game_id] for i in new if i.verdict is None])

    # Everything not inserted was already there (stored earlier or just now by another
    # transaction): same content is a duplicate, different content a conflict.
    old = repo.refs_by_game_id(g for g in first_of if g not in inserted)
    stored_verdicts = repo.current_verdicts(ref.id for ref in old.values())

    results: list[Result] = []
    for index, item in enumerate(items):
        gid = item.parsed.game_id
        sha = item.parsed.log_sha256
        if gid in inserted and first_of[gid] == index:
            results.append(_created(item))
            continue
        if gid in inserted:  # repeated within this batch
            first = items[first_of[gid]].parsed.log_sha256
            if first == sha:
                results.append(_created(items[first_of[gid]], Outcome.DUPLICATE))
            else:
                results.append(_conflict(gid, first, sha))
            continue
        ref = old[gid]
        if ref.log_sha256 != sha:
            results.append(_conflict(gid, ref.log_sha256, sha))
            continue
        row = stored_verdicts.get(ref.id)
        results.append(
            Result(
                Outcome.DUPLICATE,
                gid,
                sha,
                verdict_json=row.verdict_json if row else None,
                verdict_status=row.status if row else None,
                finding_count=row.finding_count if row else None,
            )
        )
    return results


def _created(item: Prepared, outcome: Outcome = Outcome.CREATED) -> Result:
    v = item.verdict
    return Result(
        outcome,
        item.parsed.game_id,
        item.parsed.log_sha256,
        verdict_json=v.json_text if v else None,
        verdict_status=v.status if v else None,
        finding_count=len(v.verdict.findings) if v else None,
    )


def _conflict(game_id: str, stored: str, received: str) -> Result:
    error = conflict_error(game_id, stored, received)
    return Result(Outcome.CONFLICT, game_id, received, error=error)


@dataclass(frozen=True, slots=True)
class StoreSingles:
    """``store`` for logs sent one a request, the write step of the single POSTs of a
    group commit (``group_commit.Staged``): the logs of consecutive requests with the
    same API key in one call, in arrival order (so the first of two posts of one
    ``game_id`` creates it, as it would alone). One result each: the ``Result``, or the
    ``Conflict`` of a log that clashes with the stored one (which wrote nothing). A
    value, so that every request's write is the same (``Staged`` groups by it)."""

    source: Source
    enqueue: bool = False

    def __call__(
        self, session: Session, items: list[tuple[int | None, Prepared]]
    ) -> list[Result | Exception]:
        out: list[Result | Exception] = []
        for key_id, run in groupby(items, key=itemgetter(0)):
            batch = [prepared for _, prepared in run]
            out += map(_answer, store(session, batch, api_key_id=key_id,
                                      source=self.source, enqueue=self.enqueue))
        return out


def _answer(result: Result) -> Result | Exception:
    """What one POST gets: a conflict as its ``Conflict`` (409), else the result."""
    if result.outcome is Outcome.CONFLICT and result.error is not None:
        return result.error
    return result


def ingest_one(
    session: Session,
    raw: bytes,
    *,
    api_key_id: int | None,
    source: Source,
    verify: bool,
    max_depth: int,
    enqueue: bool = False,
) -> Result:
    """One log: ``CREATED`` or ``DUPLICATE``; raises ``InvalidLog`` (422) or ``Conflict`` (409)."""
    item = prepare(parse(raw, max_depth), verify)
    (answer,) = StoreSingles(source, enqueue)(session, [(api_key_id, item)])
    if isinstance(answer, Exception):
        raise answer
    return answer
