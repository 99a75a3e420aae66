# ruff: noqa: E402
"""Fixtures of the page and case tests: a migrated database per backend (SQLite, and
PostgreSQL when the service suite uses it), seeded once with the example hands and two
operators; each test runs in a transaction that is rolled back."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient
from service.backends import Backend, fresh_database, kinds, rolled_back

from app.auth.service import create_key
from app.database import Database, transaction
from app.games.service import Source, ingest_one
from app.main import create_app
from app.operators.service import create_operator
from app.settings import Settings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PASSWORD = "correct horse battery staple"
OPERATORS = ("alice", "bob")


def example_bytes(name: str) -> bytes:
    return (EXAMPLES / name).read_bytes()


def doctored(name: str, game_id: str, players: list[str]) -> bytes:
    """An example hand under another game id and other player ids."""
    doc = json.loads(example_bytes(name))
    doc["game_id"] = game_id
    doc["players"] = [{"seat": i, "id": p} for i, p in enumerate(players)]
    return json.dumps(doc, ensure_ascii=False).encode()


#: producer data that must come out escaped on every page
NASTY_PLAYER = '<script>alert("p")</script>'
NASTY_GAME = 'ex-<b>"bold"</b>&\'quote\''


def seed(db: Database) -> None:
    with transaction(db.write) as session:
        for path in sorted(EXAMPLES.glob("*.json")):
            ingest_one(session, path.read_bytes(), api_key_id=None, source=Source.IMPORT,
                       verify=True, max_depth=64)
        raw = doctored("violations_guo_zhang.json", NASTY_GAME, [NASTY_PLAYER, "p1", "p2"])
        ingest_one(session, raw, api_key_id=None, source=Source.IMPORT, verify=True,
                   max_depth=64)
        for name in OPERATORS:
            create_operator(session, name, PASSWORD, name.title())


@pytest.fixture(scope="session", params=kinds())
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Backend]:
    with fresh_database(request.param, tmp_path_factory.mktemp("webdb")) as b:
        seed(Database.from_engine(b.engine))
        yield b


@pytest.fixture
def db(backend: Backend) -> Iterator[Database]:
    with rolled_back(backend) as database:
        yield database


@pytest.fixture
def settings(backend: Backend) -> Settings:
    # Verification inline on PostgreSQL too (the queue has its own tests/service ones).
    return Settings(database_url=backend.url, secret_key="test-secret",  # type: ignore[arg-type]
                    sign_in_hash_interval_seconds=0,  # tests sign in back to back
                    verify_mode="inline")


@pytest.fixture
def app(settings: Settings, db: Database) -> Any:
    return create_app(settings, db=db)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    # https: the console's cookies are Secure (no PAOHUZI_DEV_MODE here)
    with TestClient(app, follow_redirects=False, base_url="https://testserver") as c:
        yield c


@pytest.fixture
def make_key(db: Database) -> Callable[..., dict[str, str]]:
    def make(*scopes: str, name: str = "test") -> dict[str, str]:
        with transaction(db.write) as session:
            _, secret = create_key(session, name, scopes)
        return {"X-API-Key": secret}

    return make


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found, "no CSRF token in the page"
    return found.group(1)


@dataclass
class Console:
    client: TestClient

    def token(self, path: str = "/ops") -> str:
        r = self.client.get(path)
        assert r.status_code == 200, r.text
        return csrf_of(r.text)

    def post(self, path: str, data: dict[str, Any], *, token: bool = True) -> Any:
        if token:
            data = {"csrf_token": self.token(), **data}
        return self.client.post(path, data=data)


def sign_in(client: TestClient, username: str = "alice") -> Console:
    page = client.get("/ops/sign-in")
    r = client.post(
        "/ops/sign-in",
        data={"username": username, "password": PASSWORD, "csrf_token": csrf_of(page.text),
              "next": "/ops"},
    )
    assert r.status_code == 303, r.text
    return Console(client)


@pytest.fixture
def console(client: TestClient) -> Console:
    return sign_in(client)


def report(client: TestClient, headers: dict[str, str], game_id: str = "ex-guo-zhang",
           reporter: str = "p0", **extra: Any) -> Any:
    body = {"game_id": game_id, "reporter": reporter, "accused_seat": 1,
            "reason": "illegal_move", "text": "took a card he had passed", **extra}
    return client.post("/api/v1/reports", json=body, headers=headers)
