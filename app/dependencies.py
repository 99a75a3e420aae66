"""Request-scoped dependencies. The session dependency owns the transaction: it commits
after the endpoint returns and before the response is sent, and rolls back on any error.

They are ``async`` so that FastAPI runs them on the event loop: making a ``Session``
does no I/O, and only the commit or rollback goes to a worker thread (one hop
instead of two for a sync generator's enter and exit).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session, sessionmaker

from .database import Database
from .group_commit import GroupCommit, Staged
from .operators.sign_in import HashPacer
from .settings import Settings


async def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def hash_limiter(app: FastAPI) -> tuple[anyio.CapacityLimiter, HashPacer]:
    """The process's bound on password hashing: how many at once, how often (made on
    first use; deliberately shared by every request)."""
    limiter = getattr(app.state, "hash_limiter", None)
    if not isinstance(limiter, anyio.CapacityLimiter):
        limiter = anyio.CapacityLimiter(app.state.settings.sign_in_concurrency)
        app.state.hash_limiter = limiter
        app.state.hash_pacer = HashPacer()
    pacer: HashPacer = app.state.hash_pacer
    return limiter, pacer


def tarpit_limiter(app: FastAPI) -> anyio.CapacityLimiter:
    """How many locked-out sign-ins may be kept waiting at once (made on first use)."""
    limiter = getattr(app.state, "tarpit_limiter", None)
    if not isinstance(limiter, anyio.CapacityLimiter):
        limiter = anyio.CapacityLimiter(max(1, app.state.settings.sign_in_tarpit_slots))
        app.state.tarpit_limiter = limiter
    return limiter


T = TypeVar("T")


async def run_ingest(app: FastAPI, work: Staged[Any, T]) -> T:
    """Run ``work`` in a write transaction and return what it returned, once committed:
    it joins the application's group commit (``group_commit``: the requests waiting at
    one moment share a transaction, each under its own savepoint; on SQLite the event
    loop runs it while the write lock is free, on PostgreSQL a worker thread)."""
    return await group_commit(app).submit(work)


def group_commit(app: FastAPI) -> GroupCommit:
    """The application's group commit (made on first use)."""
    group = getattr(app.state, "group_commit", None)
    if not isinstance(group, GroupCommit):
        group = GroupCommit(app.state.db)
        app.state.group_commit = group
    return group


def _finish(session: Session, commit: bool) -> None:
    try:
        if commit:
            session.commit()
        else:
            session.rollback()
    finally:
        session.close()


@asynccontextmanager
async def unit_of_work(factory: sessionmaker[Session]) -> AsyncIterator[Session]:
    session = factory()
    try:
        yield session
    except BaseException:
        await run_in_threadpool(_finish, session, False)
        raise
    await run_in_threadpool(_finish, session, True)


async def read_session(request: Request) -> AsyncIterator[Session]:
    async with unit_of_work(request.app.state.db.read) as session:
        yield session


async def write_session(request: Request) -> AsyncIterator[Session]:
    async with unit_of_work(request.app.state.db.write) as session:
        yield session


DB = Annotated[Database, Depends(get_db)]
AppSettings = Annotated[Settings, Depends(get_app_settings)]
ReadSession = Annotated[Session, Depends(read_session, scope="function")]
WriteSession = Annotated[Session, Depends(write_session, scope="function")]
