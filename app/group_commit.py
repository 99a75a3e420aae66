"""Group commit: on SQLite, the single-log ingests waiting at one moment share one
write transaction, each under its own savepoint.

SQLite has one writer, and each commit writes every page it changed to the
write-ahead log: a single POST changes ~34 pages (the log's row, the right-hand leaf of
each of a dozen indexes, the verdict, its decisions), nearly all of them the same pages
as the request before it. Requests that arrive while a group is being written wait for
the next group, which writes those shared pages and commits once for all of them
(docs/performance.md, "Eighth pass").

What each request sees is what it would see alone:

- its work runs under a ``SAVEPOINT``: if it raises (a conflict, an invalid log, a
  refused key), only its own changes are rolled back and it gets its own exception;
- it is answered only after the commit that made its rows durable; if ``BEGIN`` or
  ``COMMIT`` fails, or a failed work's savepoint cannot be rolled back (its rows could
  not be told from the others'), every request of the group gets that error and none
  of them is stored;
- the works run one after the other in arrival order, so a second post of the same
  ``game_id`` in the same group is a duplicate (or a conflict), as it would be later.

Two reads every ingest makes and none changes, the API key's credentials and the active
webhook filters, are read once a group (``shared_read``): the group's transaction holds
the write lock, so no other connection changes them while it runs.

The event loop runs a group itself when the write lock is free (the work is
CPU-bound under one GIL and one writer: a worker thread beside the loop cost 0.6-1.7
ms of CPU a request in hand-offs, "Seventh pass"); when another connection holds the
lock, the group goes to a worker thread that waits for it, and the loop keeps serving
(and gathering the next group) meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
from sqlalchemy.orm import Session, sessionmaker

from .database import Database, WriteLockBusy, transaction
from .system.metrics import GROUP_SIZE

T = TypeVar("T")

#: at most this many requests a transaction (bounds how long the event loop is busy
#: with one group: ~16 × 2.3 ms).
MAX_GROUP = 16
#: event-loop turns a group waits before it starts, so that the requests already read
#: reach it.
GATHER_TURNS = 2


#: ``Session.info`` key of a group transaction's shared reads.
SHARED_READS = "group_commit.shared_reads"


def shared_read(session: Session, key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, made once for each ``key`` in a group commit's transaction and every
    time in any other (only for what no ingest changes)."""
    memo: dict[Hashable, Any] | None = session.info.get(SHARED_READS)
    if memo is None:
        return read()
    if key in memo:
        value: T = memo[key]
        return value
    value = memo[key] = read()
    return value


@dataclass(slots=True)
class _Waiting:
    work: Callable[[Session], Any]
    answer: asyncio.Future[Any]


@dataclass(slots=True)
class GroupCommit:
    """One per application (SQLite only): ``submit`` a request's write work, get what
    it returned (or its exception) once its group is committed."""

    db: Database
    limiter: anyio.CapacityLimiter
    waiting: list[_Waiting] = field(default_factory=list)
    #: the task writing the groups while any wait (held: the loop keeps only a weak one)
    writer: asyncio.Task[None] | None = None
    #: groups committed and requests in them (the figures of the benchmark's notes)
    groups: int = 0
    requests: int = 0

    async def submit(self, work: Callable[[Session], T]) -> T:
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.waiting.append(_Waiting(work, answer))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.get_running_loop().create_task(self._write())
        return await answer

    async def _write(self) -> None:
        while self.waiting:
            for _ in range(GATHER_TURNS):
                await asyncio.sleep(0)
            group = self.waiting[:MAX_GROUP]
            del self.waiting[:MAX_GROUP]
            await self._commit(group)

    async def _commit(self, group: list[_Waiting]) -> None:
        now = self.db.write_now
        assert now is not None, "group commit is for SQLite"
        try:
            try:
                outcomes = run_group(now, group)
            except WriteLockBusy:  # nothing was done: BEGIN failed
                outcomes = await anyio.to_thread.run_sync(
                    run_group, self.db.write, group, limiter=self.limiter
                )
        except Exception as exc:  # BEGIN (after waiting) or COMMIT failed: nothing stored
            for waiting in group:
                if not waiting.answer.done():
                    waiting.answer.set_exception(exc)
            return
        except BaseException:  # the writer itself is stopped (shutdown): no answer hangs
            for waiting in group:
                waiting.answer.cancel()
            raise
        self.groups += 1
        self.requests += len(group)
        GROUP_SIZE.observe(len(group))
        for waiting, (error, value) in zip(group, outcomes, strict=True):
            if waiting.answer.done():  # the request was cancelled meanwhile
                continue
            if error is None:
                waiting.answer.set_result(value)
            else:
                waiting.answer.set_exception(error)


def run_group(
    factory: sessionmaker[Session], group: list[_Waiting]
) -> list[tuple[Exception | None, Any]]:
    """Each work under its own savepoint of one transaction; ``(error, value)`` each."""
    outcomes: list[tuple[Exception | None, Any]] = []
    with transaction(factory) as session:
        session.connection()  # BEGIN here: a ``WriteLockBusy`` is the group's, not a work's
        session.info[SHARED_READS] = {}
        for waiting in group:
            savepoint = session.begin_nested()
            try:
                value = waiting.work(session)
            except Exception as exc:  # this request's own failure: its changes undone
                savepoint.rollback()  # (if that fails, the whole group is rolled back)
                outcomes.append((exc, None))
            else:
                savepoint.commit()
                outcomes.append((None, value))
    return outcomes
