"""Group commit: the single-log ingests waiting at one moment in a server process share
one write transaction.

On SQLite, which has one writer, each commit writes every page it changed to the
write-ahead log: a single POST changes ~34 pages (the log's row, the right-hand leaf of
each of a dozen indexes, the verdict, its decision rows; counts since the tenth pass),
nearly all of them the same pages as the request before it. On PostgreSQL each commit
waits for its WAL flush, and in queue mode each POST was a verification job of its own.
Requests that arrive while a group is being written wait for the next group, which
writes those shared pages (one insert a table), commits once and enqueues one job for
all of them (docs/performance.md, "Eighth pass").

A request's work comes in two steps (``Staged``): ``prepare``, which only reads (the
key, the parse, the verification), runs for each request alone, in arrival order;
then ``write`` runs once, under a savepoint, for all the requests of the group with the
same ``write``, with what each prepared (the single POSTs' logs stored by one ``store``
call). What each request sees is what it would see alone:

- if its ``prepare`` raises (an invalid log, a refused key), it gets that exception
  and nothing of it is written;
- if the write together raises, it is rolled back and each request is written again
  alone, under its own savepoint, so that one bad log fails alone with its exception;
- it is answered only after the commit that made its rows durable; if ``BEGIN`` or
  ``COMMIT`` fails, or a savepoint cannot be rolled back (its rows could not be told
  from the others'), every request of the group gets that error and none is stored;
- the write keeps the arrival order, so a second post of the same ``game_id`` in the
  same group is a duplicate (or a conflict), as it would be later.

Two reads every ingest makes and none changes, the API key's credentials and the active
webhook filters, are read once a group (``database.shared_read``).

On SQLite the event loop runs a group itself when the write lock is free (the work is
CPU-bound under one GIL and one writer: a worker thread beside the loop cost 0.6-1.7
ms of CPU a request in hand-offs, "Seventh pass"); when another connection holds the
lock, the group goes to a worker thread that waits for it, and the loop keeps serving
(and gathering the next group) meanwhile. On PostgreSQL, whose round trips would block
the loop, every group runs on a worker thread. Each server process has its own groups.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import anyio
from sqlalchemy.orm import Session, sessionmaker

from .database import Database, WriteLockBusy, share_reads, transaction
from .system.metrics import GROUP_SIZE

T = TypeVar("T")
P = TypeVar("P")

#: at most this many requests a transaction (bounds how long the event loop is busy
#: with one group: ~16 × 2 ms).
MAX_GROUP = 16
#: event-loop turns a group waits before it starts, so that the requests already read
#: reach it.
GATHER_TURNS = 2

Write = Callable[[Session, list[Any]], list[Any]]


@dataclass(frozen=True, slots=True)
class Staged(Generic[P, T]):
    """A request's work in two steps, so that the requests of a group write together.

    ``prepare`` only reads (it runs for each request alone, with no savepoint);
    ``write`` gets the prepared values of every request of the group with an equal
    ``write`` (so ``write`` is a value: a frozen dataclass, or a module's function) and
    returns one result each, in order: a value, or an exception for a request that
    wrote nothing.
    """

    prepare: Callable[[Session], P]
    write: Callable[[Session, list[P]], list[T | Exception]]


@dataclass(slots=True)
class _Waiting:
    work: Staged[Any, Any]
    answer: asyncio.Future[Any]


@dataclass(slots=True)
class GroupCommit:
    """One per application: ``submit`` a request's work, get what its write returned
    for it (or its exception) once its group is committed."""

    db: Database
    #: the worker thread a group runs on when the event loop does not run it
    #: (PostgreSQL, or SQLite's write lock held elsewhere): one group at a time
    limiter: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(1))
    waiting: list[_Waiting] = field(default_factory=list)
    #: the task writing the groups while any wait (held: the loop keeps only a weak one)
    writer: asyncio.Task[None] | None = None
    #: groups committed and requests in them by this application (``/metrics`` has
    #: ``paohuzi_ingest_group_size`` for the whole process)
    groups: int = 0
    requests: int = 0

    async def submit(self, work: Staged[Any, T]) -> T:
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

    async def _run(self, group: list[_Waiting]) -> list[tuple[Exception | None, Any]]:
        """SQLite: on the event loop while the write lock is free; else, and always on
        PostgreSQL, on a worker thread (``db.write``, which waits for the lock)."""
        if self.db.write_now is not None:
            try:
                return run_group(self.db.write_now, group)
            except WriteLockBusy:  # nothing was done: BEGIN failed
                pass
        return await anyio.to_thread.run_sync(
            run_group, self.db.write, group, limiter=self.limiter
        )

    async def _commit(self, group: list[_Waiting]) -> None:
        try:
            outcomes = await self._run(group)
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
    """The group in one transaction: each request prepared in arrival order, then
    written together with the others of its ``write``; ``(error, value)`` each."""
    outcomes: list[tuple[Exception | None, Any]] = [(None, None)] * len(group)
    prepared: dict[Any, list[tuple[int, Any]]] = {}  # by write: (index, prepared)
    with transaction(factory) as session:
        session.connection()  # BEGIN here: a ``WriteLockBusy`` is the group's, not a work's
        share_reads(session)
        for index, waiting in enumerate(group):
            try:
                value = waiting.work.prepare(session)  # (reads only)
            except Exception as exc:
                outcomes[index] = (exc, None)
            else:
                prepared.setdefault(waiting.work.write, []).append((index, value))
        for write, items in prepared.items():
            _write_together(session, write, items, outcomes)
    return outcomes


def _write_together(
    session: Session,
    write: Write,
    items: list[tuple[int, Any]],
    outcomes: list[tuple[Exception | None, Any]],
) -> None:
    """One ``write`` for all ``items`` (``(index in the group, prepared)``) under a
    savepoint; if it raises, each item written alone, so that one bad item fails alone."""
    savepoint = session.begin_nested()
    try:
        results = write(session, [value for _, value in items])
    except Exception:
        savepoint.rollback()  # (if that fails, the whole group is rolled back)
        for index, value in items:
            outcomes[index] = _alone(session, write, value)
        return
    savepoint.commit()
    for (index, _), result in zip(items, results, strict=True):
        outcomes[index] = (result, None) if isinstance(result, Exception) else (None, result)


def _alone(session: Session, write: Write, value: Any) -> tuple[Exception | None, Any]:
    """``write`` of one prepared value under its own savepoint: undone if it raises."""
    savepoint = session.begin_nested()
    try:
        (result,) = write(session, [value])
        if isinstance(result, Exception):
            raise result
    except Exception as exc:
        savepoint.rollback()  # (if that fails, the whole group is rolled back)
        return exc, None
    savepoint.commit()
    return None, result
