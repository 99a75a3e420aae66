"""Engines and sessions.

SQLite runs in WAL mode with its driver's own transaction handling turned off, so
that SQLAlchemy emits ``BEGIN`` itself: writers use ``BEGIN IMMEDIATE`` (taking the
write lock up front, so two concurrent ingests of one log queue rather than both
reading "absent" and one failing), readers a plain ``BEGIN``. Savepoints work.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Insert, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, sessionmaker

from .settings import Settings

#: execution option that makes an SQLite transaction take the write lock at BEGIN.
WRITE_OPTION = "paohuzi_write"


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
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def make_engine(url: str, *, echo: bool = False) -> Engine:
    if is_sqlite(url):
        engine = create_engine(
            url, echo=echo, connect_args={"check_same_thread": False, "timeout": 30}
        )
        _sqlite_setup(engine)
        return engine
    # No pre-ping (a ``SELECT 1`` per checkout, two checkouts a request): a connection
    # the server dropped fails its one request (503, "database_unavailable"), and the
    # disconnect makes SQLAlchemy discard the whole pool, so the next requests reconnect.
    return create_engine(url, echo=echo, pool_size=10, max_overflow=10)


@dataclass(slots=True)
class Database:
    """One engine and its two session factories (read and write)."""

    engine: Engine
    read: sessionmaker[Session]
    write: sessionmaker[Session]

    @classmethod
    def from_engine(cls, engine: Engine) -> Database:
        writer = engine.execution_options(**{WRITE_OPTION: True})
        return cls(
            engine=engine,
            read=sessionmaker(engine, expire_on_commit=False),
            write=sessionmaker(writer, expire_on_commit=False),
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        return cls.from_engine(make_engine(settings.database_url, echo=settings.echo_sql))

    def dispose(self) -> None:
        self.engine.dispose()


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
