"""Databases for the service tests: a fresh SQLite file or a fresh PostgreSQL schema.

PostgreSQL comes from ``PAOHUZI_TEST_POSTGRES_URL`` (default: the local server's
``test`` database). Each database gets its own schema with a random name, put on the
URL as the connection's ``search_path``, so parallel workers never meet. Set the
variable to ``off`` to leave PostgreSQL out; when it is asked for and no server
answers, the tests fail (they do not skip).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import sessionmaker

from app.database import Database, make_engine
from app.migrate import upgrade

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_url() -> str | None:
    url = os.environ.get("PAOHUZI_TEST_POSTGRES_URL", DEFAULT_PG).strip()
    return None if url.lower() in ("", "off", "none", "0") else url


def kinds() -> list[str]:
    return ["sqlite", "postgresql"] if postgres_url() else ["sqlite"]


@dataclass(frozen=True, slots=True)
class Backend:
    kind: str
    url: str
    engine: Engine


@contextmanager
def _pg_schema(base: str) -> Iterator[str]:
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            schema = f"paohuzi_t_{secrets.token_hex(6)}"
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as exc:
        admin.dispose()
        pytest.fail(
            f"PostgreSQL was asked for ({base}) but does not answer: {exc.orig}. "
            "Start it (bash .ci/run does) or set PAOHUZI_TEST_POSTGRES_URL=off.",
            pytrace=False,
        )
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def blank_database(kind: str, folder: Path) -> Iterator[str]:
    """The URL of an empty database of ``kind``, removed afterwards."""
    if kind == "sqlite":
        path = folder / f"db-{secrets.token_hex(4)}.sqlite3"
        yield f"sqlite:///{path}"
        return
    base = postgres_url()
    assert base is not None
    with _pg_schema(base) as url:
        yield url


@contextmanager
def fresh_database(kind: str, folder: Path) -> Iterator[Backend]:
    """A migrated database (``alembic upgrade head``) of ``kind``."""
    with blank_database(kind, folder) as url:
        upgrade(url)
        engine = make_engine(url)
        try:
            yield Backend(kind, url, engine)
        finally:
            engine.dispose()


@contextmanager
def rolled_back(backend: Backend) -> Iterator[Database]:
    """A database whose sessions share one connection; all is rolled back at the end."""
    conn = backend.engine.connect()
    outer = conn.begin()
    factory = sessionmaker(
        bind=conn, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    try:
        yield Database(engine=backend.engine, read=factory, write=factory)
    finally:
        outer.rollback()
        conn.close()
