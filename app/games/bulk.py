"""Bulk ingest: NDJSON lines in, one NDJSON result line per input line out.

Lines are handled in batches of ``bulk_batch_size``: parsed, verified (skipping logs
already stored), then stored in one transaction per batch. A batch's result lines
are produced only after its commit, so every ``created``/``duplicate`` a client has
read is durable. One bad line never spoils the others.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from ..database import Database, transaction
from ..errors import AppError, InvalidLog, InvalidRequest, PayloadTooLarge
from .repository import GameRepository
from .service import Outcome, Prepared, Result, Source, parse, prepare, store

logger = logging.getLogger(__name__)

#: the database is down or full: nothing more can be stored in this request.
UNAVAILABLE = (OperationalError, InterfaceError)


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based line number in the input
    raw: bytes


@dataclass(frozen=True, slots=True)
class Limits:
    max_log_bytes: int
    max_depth: int
    batch_size: int
    verify: bool
    #: enqueue a verification job per batch instead (queue mode).
    enqueue: bool = False


def split_lines(body: bytes, max_lines: int) -> list[Line]:
    """Non-blank lines with their numbers; 413 when there are more than ``max_lines``."""
    lines = []
    for number, raw in enumerate(body.split(b"\n"), start=1):
        raw = raw.rstrip(b"\r")
        if raw.strip():
            lines.append(Line(number, raw))
    if not lines:
        raise InvalidRequest(
            "the body holds no log: send one paohuzi-log/1 document per line",
            problems=[{"pointer": "/body", "expected": "at least one non-blank NDJSON line"}],
        )
    if len(lines) > max_lines:
        raise PayloadTooLarge(
            f"the body holds {len(lines)} logs; at most {max_lines} are accepted per request",
            extra={"limit_lines": max_lines},
        )
    return lines


def batched(lines: Iterable[Line], size: int) -> Iterator[list[Line]]:
    batch: list[Line] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _guess_game_id(raw: bytes, most: int = 1_048_576) -> str | None:
    """The ``game_id`` of a line that was refused, if it is plain to see (for the answer)."""
    if len(raw) > most:
        return None
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    gid = doc.get("game_id") if isinstance(doc, dict) else None
    return gid if isinstance(gid, str) and len(gid) <= 128 else None


def line_json(line: Line, result: Result) -> dict[str, Any]:
    out: dict[str, Any] = {"line": line.number, "game_id": result.game_id}
    out["status"] = str(result.outcome)
    if result.log_sha256 is not None:
        out["log_sha256"] = result.log_sha256
    if result.outcome in (Outcome.CREATED, Outcome.DUPLICATE):
        out["verdict"] = (
            {"status": result.verdict_status, "findings": result.finding_count}
            if result.verdict_status is not None
            else None
        )
    if result.error is not None:
        out.update(result.error.to_json())
    return out


def process_batch(
    db: Database, lines: list[Line], limits: Limits, *, api_key_id: int | None, source: Source
) -> list[Result]:
    """Parse, verify and store one batch; one ``Result`` per line, in order."""
    results: list[Result | None] = [None] * len(lines)
    parsed_at: list[int] = []
    parsed = []
    for index, line in enumerate(lines):
        try:
            if len(line.raw) > limits.max_log_bytes:
                raise PayloadTooLarge(
                    f"the line is larger than the limit of {limits.max_log_bytes} bytes"
                )
            parsed.append(parse(line.raw, limits.max_depth))
            parsed_at.append(index)
        except (InvalidLog, PayloadTooLarge) as exc:
            results[index] = Result(
                Outcome.REJECTED,
                _guess_game_id(line.raw, limits.max_log_bytes),
                error=exc,
                problems=exc.problems,
            )
    if parsed:
        known = {}
        if limits.verify:  # no need to re-execute the logs that are already stored
            with db.read() as session:
                known = GameRepository(session).refs_by_game_id(p.game_id for p in parsed)
        items: list[Prepared] = [
            prepare(p, limits.verify and p.game_id not in known) for p in parsed
        ]
        stored = _store(db, items, api_key_id, source, limits.enqueue)
        for index, result in zip(parsed_at, stored, strict=True):
            results[index] = result
    return [r for r in results if r is not None]


def _store(
    db: Database, items: list[Prepared], api_key_id: int | None, source: Source, enqueue: bool
) -> list[Result]:
    """The batch in one transaction; if the database refuses it for what a line holds
    (not because it is down), each line alone, so that one bad line fails alone."""
    try:
        with transaction(db.write) as session:
            return store(session, items, api_key_id=api_key_id, source=source, enqueue=enqueue)
    except UNAVAILABLE:
        raise
    except SQLAlchemyError:
        if len(items) == 1:
            raise
        logger.exception("a bulk batch was refused; storing its lines one by one")
    results = []
    for item in items:
        try:
            with transaction(db.write) as session:
                results += store(session, [item], api_key_id=api_key_id, source=source,
                                 enqueue=enqueue)
        except UNAVAILABLE:
            raise
        except SQLAlchemyError:
            logger.exception("the database refused game %s", item.parsed.game_id)
            failed = AppError("the database refused this log; it was not stored")
            results.append(Result(Outcome.FAILED, item.parsed.game_id, error=failed))
    return results


def ingest_batches(
    db: Database,
    lines: Iterable[Line],
    limits: Limits,
    *,
    api_key_id: int | None,
    source: Source,
) -> Iterator[list[tuple[Line, Result]]]:
    """Each batch of lines with their results, after the batch is committed.

    If the server fails mid-way (the database goes away), the lines of the failed
    batch and all after it come back as ``failed``: none of them is stored.
    """
    pending = batched(lines, limits.batch_size)
    for batch in pending:
        try:
            results = process_batch(db, batch, limits, api_key_id=api_key_id, source=source)
        except Exception:
            logger.exception("bulk ingest stopped by a server error")
            failed = AppError("the server failed before storing this line; send it again")
            rest = [line for chunk in (batch, *pending) for line in chunk]
            yield [
                (line, Result(Outcome.FAILED, _guess_game_id(line.raw), error=failed))
                for line in rest
            ]
            return
        yield list(zip(batch, results, strict=True))
