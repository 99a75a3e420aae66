"""HTTP ingest benchmark: hands/s and latency, single and bulk, SQLite and PostgreSQL,
with and without verification.

Starts a real server (``uvicorn app.main:create_app``, one worker) on loopback for
each configuration, on a fresh migrated database, and sends simulated hands:

* single: one log per request, one keep-alive connection, requests back to back;
* bulk: NDJSON requests of ``--bulk-size`` logs each.

Latency is per request (so a bulk request's latency covers all its logs).
``--write docs/performance.md`` puts the table under the "Service" heading.

    .venv/bin/python bench/ingest.py --games 2000 --write docs/performance.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.auth.service import create_key  # noqa: E402
from app.database import Database, make_engine, transaction  # noqa: E402
from app.demo import _simulator, demo_hands  # noqa: E402
from app.games.audit import engine_version  # noqa: E402
from app.migrate import upgrade  # noqa: E402

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass
class Figure:
    backend: str
    mode: str
    verify: bool
    hands: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    def pct(self, q: float) -> float:
        data = sorted(self.latencies)
        return data[min(len(data) - 1, int(q * len(data)))] * 1000


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'bench-{secrets.token_hex(4)}.sqlite3'}"
        return
    base = os.environ.get("PAOHUZI_BENCH_POSTGRES_URL", PG_DEFAULT)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    schema = f"paohuzi_bench_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def server(
    url: str, verify: bool, log: Path, extra_env: dict[str, str] | None = None
) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "PAOHUZI_DATABASE_URL": url,
        "PAOHUZI_VERIFY_ON_INGEST": "true" if verify else "false",
        **(extra_env or {}),
    }
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:create_app",
                "--factory",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-access-log",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/v1/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise RuntimeError("server did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def api_key(url: str) -> str:
    db = Database.from_engine(make_engine(url))
    with transaction(db.write) as session:
        _, secret = create_key(session, "bench", ["ingest"])
    db.dispose()
    return secret


def run_single(base: str, key: str, logs: list[bytes]) -> tuple[float, list[float]]:
    latencies = []
    with httpx.Client(base_url=base, headers={"X-API-Key": key}, timeout=60) as client:
        client.get("/api/v1/healthz")
        start = time.perf_counter()
        for raw in logs:
            t0 = time.perf_counter()
            answer = client.post("/api/v1/games", content=raw)
            latencies.append(time.perf_counter() - t0)
            if answer.status_code != 201:
                raise RuntimeError(f"{answer.status_code}: {answer.text[:300]}")
        return time.perf_counter() - start, latencies


def run_bulk(base: str, key: str, logs: list[bytes], size: int) -> tuple[float, list[float]]:
    latencies = []
    headers = {"X-API-Key": key, "Content-Type": "application/x-ndjson"}
    with httpx.Client(base_url=base, headers=headers, timeout=300) as client:
        client.get("/api/v1/healthz")
        start = time.perf_counter()
        for i in range(0, len(logs), size):
            chunk = logs[i : i + size]
            t0 = time.perf_counter()
            answer = client.post("/api/v1/games:bulk", content=b"\n".join(chunk))
            lines = answer.text.splitlines()
            latencies.append(time.perf_counter() - t0)
            created = sum(1 for line in lines if json.loads(line)["status"] == "created")
            if answer.status_code != 200 or created != len(chunk):
                raise RuntimeError(f"bulk: {answer.status_code}, {created}/{len(chunk)} created")
        return time.perf_counter() - start, latencies


def table(figures: list[Figure]) -> str:
    rows = [
        "| database | mode | verify | hands | hands/s | p50 ms | p99 ms |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for f in figures:
        rows.append(
            f"| {f.backend} | {f.mode} | {'yes' if f.verify else 'no'} | {f.hands} | "
            f"{f.rate:,.0f} | {f.pct(0.5):.1f} | {f.pct(0.99):.1f} |"
        )
    return "\n".join(rows)


def section(figures: list[Figure], args: argparse.Namespace, logs: list[bytes]) -> str:
    source = "replay.simulate" if _simulator() else "app.demo.synthetic"
    size = sum(len(x) for x in logs) / len(logs)
    return f"""## Service

HTTP ingest over loopback, measured by `bench/ingest.py` (`.venv/bin/python bench/ingest.py
--games {args.games} --bulk-size {args.bulk_size} --write docs/performance.md`). One uvicorn
worker, a fresh migrated database per row, the client on the same machine
({os.cpu_count()} cores, Python {platform.python_version()}, engine `{engine_version()}`).
Hands from `{source}` (every 5th doctored), {size:,.0f} bytes each on average.
*single*: one log per request on one keep-alive connection, back to back (latency per
request). *bulk*: NDJSON requests of {args.bulk_size} logs (latency per request, i.e. per
{args.bulk_size} logs; the server commits every 200). *verify no* stores the log only
(`PAOHUZI_VERIFY_ON_INGEST=false`; `reaudit` verifies later), so the difference is the cost
of re-executing the hand.

{table(figures)}

Where the time goes (in-process, same hands): parsing ~0.5 ms and re-executing ~1 ms a
hand; storing a verified hand (log, players, verdict, ~22 decision rows) ~1 ms more on
SQLite and ~2.5 ms on PostgreSQL, whose commit also waits for the disk
(`synchronous_commit=on`; SQLite runs in WAL mode with `synchronous=NORMAL`, durable across
a process crash as the SIGKILL test shows). The rest of a single request is HTTP, the API
key lookup and the client itself, which shares the two cores with the server. Figures
vary by 20-30% between runs on a shared machine; several workers (`serve --workers N`)
are not measured here, where the client needs a core too.
"""


def write_section(path: Path, text_: str) -> None:
    old = path.read_text() if path.exists() else "# Performance\n"
    lines = old.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "## Service"), None)
    if start is None:
        new = old.rstrip("\n") + "\n\n" + text_
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        rest = "".join(lines[end:])
        new = "".join(lines[:start]) + text_ + ("\n" + rest if rest else "")
    path.write_text(new)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--bulk-size", type=int, default=500)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--backends", default="sqlite,postgresql")
    p.add_argument("--write", type=Path, help="put the figures into this markdown file")
    args = p.parse_args()

    t0 = time.perf_counter()
    logs = [
        json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        for doc in demo_hands(args.games, args.seed)
    ]
    print(f"{len(logs)} hands made in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for backend in args.backends.split(","):
            for verify in (True, False):
                for mode in ("single", "bulk"):
                    with database(backend, folder) as url:
                        upgrade(url)
                        key = api_key(url)
                        with server(url, verify, folder / "server.log") as base:
                            if mode == "single":
                                seconds, lat = run_single(base, key, logs)
                            else:
                                seconds, lat = run_bulk(base, key, logs, args.bulk_size)
                    fig = Figure(backend, mode, verify, len(logs), seconds, lat)
                    figures.append(fig)
                    print(table([fig]).splitlines()[-1], file=sys.stderr)
    print(table(figures))
    if args.write:
        write_section(args.write, section(figures, args, logs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
