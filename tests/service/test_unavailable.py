"""A database that is down or full is a 503 with Retry-After, never a 500; /healthz says
so; an unexpected error never drops a keep-alive connection."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.database import Database, make_engine
from app.main import create_app
from app.settings import Settings

from .backends import Backend, fresh_database
from .conftest import make_settings
from .logs import log_bytes
from .server import free_port

DEAD = {
    "sqlite": "sqlite:////nonexistent-folder/paohuzi/x.db",
    "postgresql": "postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=2",
}


@pytest.fixture
def down(kind: str) -> Iterator[TestClient]:
    url = DEAD[kind]
    settings = Settings(database_url=url, retry_after_seconds=7)  # type: ignore[arg-type]
    db = Database.from_engine(make_engine(url))
    with TestClient(create_app(settings, db=db)) as client:
        yield client
    db.dispose()


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v1/findings"), ("POST", "/api/v1/games"), ("POST", "/api/v1/games:bulk"),
     ("GET", "/api/v1/games/x"), ("GET", "/api/v1/cases/1"), ("GET", "/")],
)
def test_database_down_is_503_with_retry_after(down: TestClient, method: str, path: str) -> None:
    r = down.request(method, path, headers={"X-API-Key": "pha_x"}, content=log_bytes("d"))
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "7"
    assert r.json()["error"]["code"] == "database_unavailable"


def test_healthz_says_the_database_is_down(down: TestClient) -> None:
    r = down.get("/api/v1/healthz")
    assert r.status_code == 503 and r.headers["retry-after"] == "7"
    assert r.json()["status"] == "unavailable"


def test_a_full_sqlite_database_is_503_and_healthz_says_full(
    backend: Backend, tmp_path: Path
) -> None:
    if backend.kind != "sqlite":
        pytest.skip("the page limit is SQLite's; PostgreSQL reports a full disk the same way")
    with fresh_database("sqlite", tmp_path) as fresh:
        engine = make_engine(fresh.url)

        @event.listens_for(engine, "connect")
        def _cap(dbapi_connection: Any, _: Any) -> None:  # the file may not grow any more
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        settings = make_settings(fresh, retry_after_seconds=3)
        from app.auth.service import create_key
        from app.database import transaction

        db = Database.from_engine(engine)
        with transaction(db.write) as session:
            _, key = create_key(session, "k", ["ingest"])
        with TestClient(create_app(settings, db=db)) as client:
            docs = [log_bytes(f"full-{i}") for i in range(30)]
            answers = [client.post("/api/v1/games", content=d, headers={"X-API-Key": key})
                       for d in docs]
            codes = {a.status_code for a in answers}
            assert 503 in codes and codes <= {201, 503}, codes
            full = next(a for a in answers if a.status_code == 503)
            assert full.headers["retry-after"] == "3"
            health = client.get("/api/v1/healthz")
            assert health.status_code == 503 and health.json()["database"] == "full"
        engine.dispose()


def _read_response(sock: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    length = next(int(x.split(b":")[1]) for x in lines if x.lower().startswith(b"content-length"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        body += chunk
    assert b"connection: close" not in head.lower()
    return int(lines[0].split()[1]), body


def test_a_500_keeps_the_connection_open(backend: Backend, tmp_path: Path) -> None:
    with fresh_database(backend.kind, tmp_path) as fresh:
        app = create_app(make_settings(fresh), db=Database.from_engine(fresh.engine))

        @app.get("/api/v1/boom", include_in_schema=False)
        def boom() -> None:
            raise RuntimeError("a bug")

        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="critical"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                request = "GET {} HTTP/1.1\r\nHost: x\r\n\r\n"
                sock.sendall(request.format("/api/v1/boom").encode())
                status, body = _read_response(sock)
                assert status == 500 and b"internal_error" in body
                sock.sendall(request.format("/api/v1/healthz").encode())  # same connection
                status, body = _read_response(sock)
                assert status == 200 and b'"ok"' in body
        finally:
            server.should_exit = True
            thread.join(10)
