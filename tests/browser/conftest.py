"""Browser tests: the real server (uvicorn in a child process) on a free loopback port,
with its own migrated SQLite database seeded with the example hands, driven by Debian's
Chromium through Playwright. One server per xdist worker (per-worker tmp folder and
port). A failing test saves a screenshot under ``test-results/browser/``."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.auth.service import create_key
from app.database import Database, make_engine, transaction
from app.games.service import Source, ingest_one
from app.migrate import upgrade
from app.operators.service import create_operator

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "correct horse battery staple"
SHOTS = ROOT / "test-results" / "browser"


@dataclass(frozen=True)
class Live:
    url: str
    ingest_key: str
    operate_key: str
    log: Path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = str(Path(__file__).parent)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.browser)


def _seed(url: str) -> tuple[str, str]:
    upgrade(url)
    db = Database.from_engine(make_engine(url))
    try:
        with transaction(db.write) as session:
            for path in sorted(EXAMPLES.glob("*.json")):
                ingest_one(session, path.read_bytes(), api_key_id=None, source=Source.IMPORT,
                           verify=True, max_depth=64)
            for name in ("alice", "bob"):
                create_operator(session, name, PASSWORD, name.title())
            _, ingest = create_key(session, "game-client", ["ingest"])
            _, operate = create_key(session, "pipeline", ["operate"])
    finally:
        db.dispose()
    return ingest, operate


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    folder = tmp_path_factory.mktemp("live")
    database_url = f"sqlite:///{folder / 'live.db'}"
    ingest, operate = _seed(database_url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # a free port, held from here on: no race with others
    sock.listen(64)
    sock.set_inheritable(True)
    port = sock.getsockname()[1]
    log = folder / "server.log"
    env = {**os.environ, "PAOHUZI_DATABASE_URL": database_url,
           "PAOHUZI_SECRET_KEY": "browser-test-secret", "PAOHUZI_DEV_MODE": "true"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
             "--fd", str(sock.fileno()), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            pass_fds=(sock.fileno(),),
        )
    sock.close()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/api/v1/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 30 s")
            time.sleep(0.05)
        yield Live(url, ingest, operate, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def base_url(live: Live) -> str:
    return live.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium fonts-wqy-microhei "
                    "(bash .ci/run does)", pytrace=False)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(autouse=True)
def _screenshot_on_failure(request: pytest.FixtureRequest, page: Any) -> Iterator[None]:
    page.set_default_timeout(10_000)
    yield
    failed = any(getattr(request.node, f"rep_{w}", None) is not None
                 and getattr(request.node, f"rep_{w}").failed for w in ("setup", "call"))
    if failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-150:]
        path = SHOTS / f"{name}.png"
        try:
            page.screenshot(path=str(path), full_page=True)
            print(f"\nscreenshot of the failure: {path}")
        except Exception as exc:  # the page may be gone
            print(f"\nno screenshot: {exc}")
