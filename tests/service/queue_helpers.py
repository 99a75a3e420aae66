"""Worker processes and waits for the queue tests (PostgreSQL)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text

from app.database import Database

from .server import Child

ROOT = Path(__file__).resolve().parents[2]


def postgres_only(kind: str) -> None:
    if kind != "postgresql":
        pytest.skip("the job queue lives in PostgreSQL (SQLite verifies inline)")


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def jobs(db: Database, status: str | None = None, queue: str | None = None) -> int:
    sql = "SELECT count(*) FROM procrastinate_jobs WHERE true"
    if status:
        sql += " AND status = :status"
    if queue:
        sql += " AND queue_name = :queue"
    with db.read() as session:
        return int(session.execute(text(sql), {"status": status, "queue": queue}).scalar() or 0)


def cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())", *args]


class Worker(Child):
    """``paohuzi-audit worker`` in a child process, with quick stall detection. ``kill``
    is a SIGKILL of the one worker process when ``processes=1`` (it runs in this very
    process)."""

    grace = 20

    def __init__(self, database_url: str, log: Path, *, processes: int = 1, **env: str) -> None:
        self.env = {**os.environ, "PAOHUZI_DATABASE_URL": database_url}
        self.env.update({f"PAOHUZI_{k.upper()}": v for k, v in env.items()})
        self.log = log
        self.processes = processes

    def start(self) -> Worker:
        args = cli(
            "worker",
            "--processes",
            str(self.processes),
            "--heartbeat",
            "0.5",
            "--stalled-after",
            "2",
            "--recover-every",
            "0.5",
            "--poll",
            "0.2",
        )
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        return self
