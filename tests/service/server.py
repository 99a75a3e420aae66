"""A real uvicorn server in a child process, for the durability tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Child:
    """A child process that a test may SIGKILL or stop."""

    process: subprocess.Popen[bytes] | None = None
    #: seconds a SIGTERM may take before SIGKILL.
    grace: float = 10

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing, like a power cut of the process."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=self.grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Server(Child):
    def __init__(self, database_url: str, log: Path, **settings: str) -> None:
        self.database_url = database_url
        self.settings = settings
        self.log = log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "PAOHUZI_DATABASE_URL": self.database_url}
        env.update({f"PAOHUZI_{k.upper()}": v for k, v in self.settings.items()})
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "app.main:create_app",
                    "--factory",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--log-level",
                    "warning",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 90  # a loaded 2-core machine starts slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/v1/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()  # not left running for the rest of the session
        raise RuntimeError("the server did not start in 90 s")
