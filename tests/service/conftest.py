# ruff: noqa: E402  (the warning filter must come before the TestClient import)
"""Fixtures: every service test runs once on SQLite and once on PostgreSQL.

The schema is made by the real migrations. ``db`` binds the app's sessions to one
connection whose transaction is rolled back after the test (the app's commits become
savepoint releases); tests that need real concurrency or real processes use
``committed_db`` or ``fresh_database`` instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.auth.service import create_key
from app.database import Database, transaction
from app.main import create_app
from app.models import DecisionCount, FindingRow, HandLog, LogPlayer, VerdictRow
from app.models.decision import KIND_COLUMNS
from app.settings import Settings

from .backends import Backend, fresh_database, kinds, rolled_back

ALL_SCOPES = ("ingest", "read", "operate", "admin")


@pytest.fixture(scope="session", params=kinds())
def backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    with fresh_database(request.param, tmp_path_factory.mktemp("db")) as b:
        yield b


@pytest.fixture
def kind(backend: Backend) -> str:
    return backend.kind


@pytest.fixture
def db(backend: Backend) -> Iterator[Database]:
    with rolled_back(backend) as database:
        yield database


@pytest.fixture
def committed_db(backend: Backend, tmp_path: Path) -> Iterator[Database]:
    """A database of its own that really commits (for concurrency)."""
    with fresh_database(backend.kind, tmp_path) as b:
        database = Database.from_engine(b.engine)
        yield database


def make_settings(backend: Backend, **overrides: object) -> Settings:
    """Inline verification on both databases unless a test asks for the queue
    (tests/service/test_queue*.py), so that these tests check the inline path."""
    overrides.setdefault("verify_mode", "inline")
    return Settings(database_url=backend.url, **overrides)  # type: ignore[arg-type]


@pytest.fixture
def settings(backend: Backend) -> Settings:
    return make_settings(
        backend,
        bulk_batch_size=4,
        max_log_bytes=64 * 1024,
        max_bulk_bytes=512 * 1024,
        max_bulk_lines=50,
    )


@pytest.fixture
def client(settings: Settings, db: Database) -> Iterator[TestClient]:
    with TestClient(create_app(settings, db=db)) as c:
        yield c


KeyMaker = Callable[..., str]


@pytest.fixture
def make_key(db: Database) -> KeyMaker:
    def make(*scopes: str, name: str = "test") -> str:
        with transaction(db.write) as session:
            _, secret = create_key(session, name, scopes or ALL_SCOPES)
        return secret

    return make


@pytest.fixture
def key(make_key: KeyMaker) -> str:
    return make_key(*ALL_SCOPES)


@pytest.fixture
def headers(key: str) -> dict[str, str]:
    return {"X-API-Key": key}


def key_headers(db: Database, *scopes: str, name: str = "test") -> dict[str, str]:
    """The headers of a new API key (``ingest`` and ``read`` unless ``scopes`` say),
    committed on ``db``: for tests whose app has a database of its own."""
    with transaction(db.write) as session:
        _, secret = create_key(session, name, scopes or ("ingest", "read"))
    return {"X-API-Key": secret}


def row_counts(db: Database) -> dict[str, int]:
    """Rows a table, and ``decisions``: the decisions the count rows count."""
    with db.read() as session:
        counts = {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (HandLog, LogPlayer, VerdictRow, FindingRow, DecisionCount)
        }
        sums = session.execute(
            select(*(func.sum(DecisionCount.__table__.c[c]) for c in KIND_COLUMNS.values()))
        ).one()
        counts["decisions"] = sum(n or 0 for n in sums)
        return counts
