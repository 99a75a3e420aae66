"""Engines and sessions.

SQLite runs in WAL mode with its driver's own transaction handling turned off, so
that SQLAlchemy emits ``BEGIN`` itself: writers use ``BEGIN IMMEDIATE`` (taking the
write lock up front, so two concurrent ingests of one log queue rather than both
reading "absent" and one failing), readers a plain ``BEGIN``. Savepoints work.

``Database.write_now`` (SQLite only) is a writer that does not wait for the write lock:
its ``BEGIN IMMEDIATE`` raises ``WriteLockBusy`` at once when another connection holds
the lock, so that the event loop can run a short write itself and hand it to a worker
thread only when it would have to wait (``group_commit``: the single-log ingests).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    ARRAY,
    Engine,
    Insert,
    String,
    Text,
    any_,
    bindparam,
    create_engine,
    event,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import QueryableAttribute, Session, sessionmaker
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeEngine

from .settings import Settings

T = TypeVar("T")

#: execution option that makes an SQLite transaction take the write lock at BEGIN.
WRITE_OPTION = "paohuzi_write"
#: with ``WRITE_OPTION``: do not wait for the lock, raise ``WriteLockBusy``.
NOWAIT_OPTION = "paohuzi_nowait"
#: how long an SQLite connection waits for a lock (ms), as its ``timeout`` says.
BUSY_TIMEOUT_MS = 30000


class WriteLockBusy(Exception):
    """Another connection holds SQLite's write lock (raised by ``write_now`` at BEGIN,
    before anything was read or written: the transaction can be run again elsewhere)."""


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable across a process crash in WAL
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        if not options.get(WRITE_OPTION, False):
            conn.exec_driver_sql("BEGIN")
        elif options.get(NOWAIT_OPTION, False):
            _begin_now(conn.connection.dbapi_connection)
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def _begin_now(dbapi_connection: Any) -> None:
    """``BEGIN IMMEDIATE`` with no wait: ``WriteLockBusy`` if the lock is taken."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout=0")
        try:
            cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:  # (or an extended code)
                raise WriteLockBusy("another connection holds the write lock") from exc
            raise
        finally:
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def make_engine(url: str, *, echo: bool = False) -> Engine:
    if is_sqlite(url):
        engine = create_engine(
            url,
            echo=echo,
            connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        )
        _sqlite_setup(engine)
        return engine
    # No pre-ping (a ``SELECT 1`` per checkout, two checkouts a request): a connection
    # the server dropped fails its one request (503, "database_unavailable"), and the
    # disconnect makes SQLAlchemy discard the whole pool, so the next requests reconnect.
    return create_engine(url, echo=echo, pool_size=10, max_overflow=10)


@dataclass(slots=True)
class Database:
    """One engine and its session factories (read, write and, on SQLite, a writer that
    does not wait for the write lock)."""

    engine: Engine
    read: sessionmaker[Session]
    write: sessionmaker[Session]
    #: SQLite: raises ``WriteLockBusy`` at BEGIN instead of waiting; ``None`` elsewhere.
    write_now: sessionmaker[Session] | None = None

    @classmethod
    def from_engine(cls, engine: Engine) -> Database:
        writer = engine.execution_options(**{WRITE_OPTION: True})
        now = None
        if engine.dialect.name == "sqlite":
            now = sessionmaker(
                engine.execution_options(**{WRITE_OPTION: True, NOWAIT_OPTION: True}),
                expire_on_commit=False,
            )
        return cls(
            engine=engine,
            read=sessionmaker(engine, expire_on_commit=False),
            write=sessionmaker(writer, expire_on_commit=False),
            write_now=now,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        return cls.from_engine(make_engine(settings.database_url, echo=settings.echo_sql))

    def dispose(self) -> None:
        self.engine.dispose()


#: ``Session.info`` key of a transaction's shared reads (``share_reads``).
SHARED_READS = "paohuzi.shared_reads"


def share_reads(session: Session) -> None:
    """From now on in this transaction, ``shared_read`` reads each key once (a group
    commit's: its requests repeat reads that none of them changes)."""
    session.info[SHARED_READS] = {}


def shared_read(session: Session, key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, made once for each ``key`` in a transaction that ``share_reads`` (a
    group commit's) and every time in any other (only for what no ingest changes)."""
    memo: dict[Hashable, Any] | None = session.info.get(SHARED_READS)
    if memo is None:
        return read()
    if key in memo:
        value: T = memo[key]
        return value
    value = memo[key] = read()
    return value


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """The unit of work: commit when the body returns, roll back when it raises."""
    with factory() as session:
        try:
            yield session
        except BaseException:
            session.rollback()
            raise
        session.commit()


def insert_if_absent(session: Session, model: type[Any], values: dict[str, Any]) -> None:
    """``INSERT … ON CONFLICT DO NOTHING`` on either database."""
    dialect = session.get_bind().dialect.name
    stmt: Insert = (postgresql if dialect == "postgresql" else sqlite).insert(model).values(values)
    session.execute(stmt.on_conflict_do_nothing())  # type: ignore[attr-defined]


def among(
    session: Session, column: ColumnElement[Any] | QueryableAttribute[Any], values: Iterable[Any]
) -> ColumnElement[bool]:
    """``column IN (values)``: on PostgreSQL ``column = ANY(:array)``, one parameter
    whatever the count. An ``IN`` list of a job's 200 ids is 200 parameters, which
    SQLAlchemy renders into the statement at each execution and psycopg then converts
    anew (it caches statements of at most 50 parameters): ~1 ms a statement, several a
    verification job (docs/performance.md, "Tenth pass")."""
    listed = list(values)
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(bindparam(None, listed, type_=ARRAY(array_element(column.type))))
    return column.in_(listed)


def array_element(column_type: TypeEngine[Any]) -> TypeEngine[Any]:
    """The element type of a PostgreSQL array of a column's values: text for any string
    column, not ``varchar(n)``, whose cast would cut a longer value to fit (a value the
    column itself refuses; ``among`` and ``games.copy``'s array inserts)."""
    return Text() if isinstance(column_type, String) else column_type
