"""Console security (issue 12): no forged sessions, sessions that really end, sign-in
that can be neither brute-forced nor used to stall ingest, headers on every answer."""

from __future__ import annotations

import io
import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeTimedSerializer
from service.backends import Backend, fresh_database
from service.logs import log_bytes

import app.operators.sign_in as sign_in_module
from app.auth.service import create_key
from app.cli import main as cli_main
from app.database import Database, transaction
from app.main import create_app
from app.migrate import upgrade
from app.operators.service import create_operator, reset_password, set_disabled
from app.settings import Settings

from .conftest import PASSWORD, csrf_of, report, sign_in

CONSTANT_KEYS = ("dev-only-secret-change-me", "test-secret", "", "secret")


def _attempt(client: TestClient, username: str, password: str) -> Any:
    token = csrf_of(client.get("/ops/sign-in").text)
    return client.post(
        "/ops/sign-in", data={"username": username, "password": password, "csrf_token": token}
    )


@pytest.mark.parametrize("key", CONSTANT_KEYS)
@pytest.mark.parametrize("salt", ["paohuzi-ops-session-v1", "paohuzi-ops-csrf-v2"])
def test_a_cookie_forged_with_any_constant_key_is_no_session(
    client: TestClient, make_key: Any, key: str, salt: str
) -> None:
    case_id = report(client, make_key("ingest")).json()["case"]["id"]
    for payload in ({"c": "x", "o": 1}, {"c": "x", "o": 2}, 1, "1"):
        forged = URLSafeTimedSerializer(key, salt=salt).dumps(payload)
        for name in ("paohuzi_ops", "paohuzi_csrf"):
            client.cookies.clear()
            client.cookies.set(name, forged)
            r = client.get("/ops")
            assert r.status_code == 303 and r.headers["location"].startswith("/ops/sign-in")
            r = client.post(f"/ops/cases/{case_id}/transition",
                            data={"to": "under_review", "note": "x", "csrf_token": "x"})
            assert r.status_code in (303, 401, 403)
    case = client.get(f"/api/v1/cases/{case_id}", headers=make_key("operate")).json()
    assert case["state"] == "open"


def test_sign_out_ends_a_copied_session(client: TestClient, app: Any) -> None:
    sign_in(client)
    stolen = client.cookies.get("paohuzi_ops")
    assert stolen and client.get("/ops").status_code == 200
    with TestClient(app, follow_redirects=False, base_url="https://testserver") as thief:
        thief.cookies.set("paohuzi_ops", stolen)
        assert thief.get("/ops").status_code == 200
        out = client.post("/ops/sign-out", data={"csrf_token": csrf_of(client.get("/ops").text)})
        assert out.status_code == 303
        assert thief.get("/ops").status_code == 303  # the row is ended, not just the cookie


@pytest.mark.parametrize("how", ["disable", "reset-password"])
def test_disable_and_reset_end_live_sessions(
    client: TestClient, db: Database, how: str
) -> None:
    sign_in(client)
    assert client.get("/ops").status_code == 200
    with transaction(db.write) as session:
        if how == "disable":
            set_disabled(session, "alice", True)
        else:
            reset_password(session, "alice", "a brand new password")
    assert client.get("/ops").status_code == 303
    if how == "disable":
        assert _attempt(client, "alice", PASSWORD).status_code == 401
        with transaction(db.write) as session:
            set_disabled(session, "alice", False)
        assert _attempt(client, "alice", PASSWORD).status_code == 303
    else:
        assert _attempt(client, "alice", PASSWORD).status_code == 401
        assert _attempt(client, "alice", "a brand new password").status_code == 303


def _no_tarpit(app: Any) -> None:
    app.state.settings = app.state.settings.model_copy(update={"sign_in_tarpit_seconds": 0})


def test_twenty_wrong_passwords_get_429_without_hashing(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    _no_tarpit(app)
    calls: list[str] = []
    real = sign_in_module.verify_password

    def counting(stored: str | None, password: str) -> bool:
        calls.append(password)
        return real(stored, password)

    monkeypatch.setattr(sign_in_module, "verify_password", counting)
    caplog.set_level(logging.WARNING, logger="paohuzi.security")
    statuses = [_attempt(client, "alice", f"guess {i}").status_code for i in range(20)]
    assert statuses[:5] == [401] * 5  # the account limit (5 failures) ...
    assert statuses[5:] == [429] * 15  # ... then locked out
    assert len(calls) == 5  # no argon2 call once locked out
    locked = _attempt(client, "alice", PASSWORD)  # even the right password waits
    assert locked.status_code == 429 and len(calls) == 5
    assert 1 <= int(locked.headers["Retry-After"]) <= 900
    events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "paohuzi.security"]
    assert [e["reason"] for e in events[:5]] == ["wrong_password"] * 5
    assert {e["reason"] for e in events[5:]} == {"locked_out"}
    assert all(e["event"] == "sign_in_failed" and e["username"] == "alice" for e in events)
    assert all("guess" not in json.dumps(e) for e in events)  # never the password
    # alice's lockout is hers: bob signs in from the same address (5 failures < 20)
    assert _attempt(client, "bob", PASSWORD).status_code == 303


def test_an_address_is_locked_after_twenty_failures_on_any_accounts(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_tarpit(app)
    calls: list[int] = []
    monkeypatch.setattr(sign_in_module, "verify_password",
                        lambda stored, password: calls.append(1) is None and False)
    statuses = [_attempt(client, f"user{i}", "wrong").status_code for i in range(25)]
    assert statuses[:20] == [401] * 20 and statuses[20:] == [429] * 5
    assert len(calls) == 20


def test_a_locked_out_attempt_waits_in_the_tarpit(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Locked-out attempts are slowed down (asynchronously), wrong passwords are not."""
    import anyio

    waits: list[float] = []
    real_sleep = anyio.sleep

    async def recorded(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(anyio, "sleep", recorded)
    statuses = [_attempt(client, "alice", f"guess {i}").status_code for i in range(7)]
    assert statuses == [401] * 5 + [429] * 2
    assert waits == [1.0, 1.0]
    app.state.settings = app.state.settings.model_copy(update={"sign_in_tarpit_slots": 0})
    assert _attempt(client, "alice", "guess").status_code == 429 and waits == [1.0, 1.0]


def test_hashes_are_spaced_out(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process starts an argon2 verification at most every ``interval`` seconds."""
    import anyio

    waits: list[float] = []

    async def recorded(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(anyio, "sleep", recorded)
    app.state.settings = app.state.settings.model_copy(
        update={"sign_in_hash_interval_seconds": 30.0})
    assert [_attempt(client, "bob", f"guess {i}").status_code for i in range(3)] == [401] * 3
    assert len(waits) == 2 and all(0 < w <= 30.0 for w in waits), waits


def test_cookies_are_secure_unless_dev_mode(client: TestClient, app: Any) -> None:
    r = client.get("/ops/sign-in")
    assert "secure" in r.headers["set-cookie"].lower()
    app.state.settings = app.state.settings.model_copy(update={"dev_mode": True})
    client.cookies.clear()
    r = client.get("/ops/sign-in")
    assert "secure" not in r.headers["set-cookie"].lower()


@pytest.mark.parametrize("path", ["/api/v1/healthz", "/api/v1/findings", "/api/v1/nope",
                                  "/api/v1/games/none", "/api/v1/openapi.json", "/",
                                  "/api/v1/docs", "/static/replay.css"])
def test_security_headers_on_every_answer(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert "default-src 'self'" in r.headers["content-security-policy"], path
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["strict-transport-security"].startswith("max-age=")


def test_api_docs_load_nothing_from_another_host(client: TestClient) -> None:
    page = client.get("/api/v1/docs").text
    assert "http://" not in page and "https://" not in page and "<script>" not in page
    for asset in ("/api/v1/docs/assets/swagger-ui-bundle.js",
                  "/api/v1/docs/assets/swagger-ui.css", "/api/v1/docs/init.js"):
        assert asset in page
        r = client.get(asset)
        assert r.status_code == 200 and len(r.content) > 100, asset


# --- sign-in never holds up ingest: real commits, concurrent requests ------------------


@pytest.fixture
def live(backend: Backend, tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    with fresh_database(backend.kind, tmp_path) as fresh:
        db = Database.from_engine(fresh.engine)
        with transaction(db.write) as session:
            create_operator(session, "alice", PASSWORD)
            _, key = create_key(session, "ingest", ["ingest"])
        settings = Settings(database_url=fresh.url, sign_in_concurrency=1,  # type: ignore[arg-type]
                            sign_in_queue=2, sign_in_hash_interval_seconds=0)
        with TestClient(create_app(settings, db=db), follow_redirects=False,
                        base_url="https://testserver") as client:
            yield client, {"X-API-Key": key}


def test_ingest_commits_while_a_password_hash_is_in_progress(
    live: tuple[TestClient, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, headers = live
    hashing, release = threading.Event(), threading.Event()
    still_hashing_when_stored: list[bool] = []

    def blocked(stored: str | None, password: str) -> bool:
        hashing.set()
        release.wait(20)  # a safety net: the test releases it itself
        return False

    monkeypatch.setattr(sign_in_module, "verify_password", blocked)
    token = csrf_of(client.get("/ops/sign-in").text)
    answer: list[int] = []
    attempt = threading.Thread(target=lambda: answer.append(client.post(
        "/ops/sign-in", data={"username": "alice", "password": "x", "csrf_token": token}
    ).status_code))
    attempt.start()
    assert hashing.wait(10)
    stored = client.post("/api/v1/games", content=log_bytes("during-hash"), headers=headers)
    still_hashing_when_stored.append(not release.is_set() and attempt.is_alive())
    release.set()
    attempt.join(20)
    assert stored.status_code == 201, stored.text
    assert still_hashing_when_stored == [True]  # stored while the hash was blocked
    assert answer == [401]


def test_concurrent_hashing_is_bounded(
    live: tuple[TestClient, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _ = live
    release = threading.Event()
    active, most = [0], [0]
    lock = threading.Lock()

    def blocked(stored: str | None, password: str) -> bool:
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        release.wait(20)
        with lock:
            active[0] -= 1
        return False

    monkeypatch.setattr(sign_in_module, "verify_password", blocked)
    limiter_of = lambda: client.app.state.hash_limiter  # noqa: E731
    results: list[int] = []

    def attempt(name: str) -> None:
        token_client = client  # one client: the CSRF cookie is shared
        token = csrf_of(token_client.get("/ops/sign-in").text)
        results.append(token_client.post("/ops/sign-in", data={
            "username": name, "password": "x", "csrf_token": token}).status_code)

    threads = []
    for i in range(3):  # one hashing, two waiting (the queue's size)
        t = threading.Thread(target=attempt, args=(f"user{i}",))
        t.start()
        threads.append(t)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if getattr(client.app.state, "hash_limiter", None) is not None:
                stats = limiter_of().statistics()
                if stats.borrowed_tokens + stats.tasks_waiting == i + 1:
                    break
            time.sleep(0.01)
    extra = [threading.Thread(target=attempt, args=(f"extra{i}",)) for i in range(2)]
    for t in extra:
        t.start()
    for t in extra:
        t.join(10)
    assert sorted(results) == [429, 429]  # refused at once: no thread, no memory spent
    release.set()
    for t in threads:
        t.join(20)
    assert sorted(results) == [401, 401, 401, 429, 429]
    assert most[0] == 1  # sign_in_concurrency


# --- the CLI ------------------------------------------------------------------------------


def test_operators_disable_enable_reset_password_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    upgrade(url)
    monkeypatch.setenv("PAOHUZI_DATABASE_URL", url)
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert cli_main(["operators", "create", "carol", "--password-stdin"]) == 0
    assert cli_main(["operators", "disable", "carol"]) == 0
    assert cli_main(["operators", "list"]) == 0
    assert "(disabled)" in capsys.readouterr().out
    assert cli_main(["operators", "enable", "carol"]) == 0
    assert cli_main(["operators", "list"]) == 0
    assert "(disabled)" not in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert cli_main(["operators", "reset-password", "carol", "--password-stdin"]) == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("another long password\n"))
    assert cli_main(["operators", "reset-password", "carol", "--password-stdin"]) == 0
    assert cli_main(["operators", "disable", "nobody"]) == 2
