"""HTTP ingest benchmark: hands/s and latency, single and bulk, SQLite and PostgreSQL,
verification inline, queued or off, each beside a baseline measured in the same sitting.

Starts a real server (one uvicorn worker) on loopback for each configuration, on a fresh
migrated database, and sends simulated hands:

* single: one log per request, ``--concurrency`` keep-alive connections;
* bulk: NDJSON requests of ``--bulk-size`` logs each, one connection.

``--baseline`` adds, per database and shape, a minimal endpoint in the same server
process (``bench/baseline_app.py``: same engine, pool and durability settings, same
client) that parses the body with the same JSON library and inserts the raw bytes;
every row then shows its ratio to that baseline. ``--workers N`` adds the queue's end
to end figure on PostgreSQL: logs posted in bulk while ``paohuzi-audit worker
--processes N`` verifies them, and the workers alone on a stored backlog.
Latency is per request (so a bulk request's latency covers all its logs).
``--write docs/performance.md`` puts the tables under the "Service" heading.

    .venv/bin/python bench/ingest.py --games 2000 --baseline --workers 2 --write docs/performance.md
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import quote

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.auth.service import create_key  # noqa: E402
from app.database import Database, make_engine, transaction  # noqa: E402
from app.demo import _simulator, demo_hands  # noqa: E402
from app.games.audit import engine_version  # noqa: E402
from app.jobs.queue import VERIFY_QUEUE  # noqa: E402
from app.migrate import upgrade  # noqa: E402

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process and its live children (``uvicorn --workers``),
    from ``/proc``."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            pending += [int(child) for child in task.read_text().split()]
    return total


def own_cpu(pids: Sequence[int]) -> dict[int, float]:
    """User + system CPU of each process of ``pids`` and of each of their children, each
    on its own (which of ``uvicorn --workers N``'s processes did the work)."""
    out: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        family = [pid]
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            family += [int(child) for child in task.read_text().split()]
        for member in family:
            try:
                fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            out[member] = (int(fields[11]) + int(fields[12])) / tick
    return out


def postgres_cpu() -> float:
    """User + system CPU of every PostgreSQL process (backends, WAL writer, checkpointer…)
    alive now, plus what the postmaster collected from those that have exited. Every
    client of the server counts, not only this benchmark's."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text_ = stat.read_text()
        except OSError:
            continue
        name, fields = text_[text_.index("(") + 1 : text_.rindex(")")], text_.rsplit(")", 1)[1]
        if name != "postgres":
            continue
        values = fields.split()
        total += (int(values[11]) + int(values[12])) / tick
        if values[1] == "1" or _name(int(values[1])) != "postgres":  # the postmaster
            total += (int(values[13]) + int(values[14])) / tick
    return total


def _name(pid: int) -> str:
    try:
        text_ = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return text_[text_.index("(") + 1 : text_.rindex(")")]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Figure:
    backend: str
    #: ``single`` or ``bulk``.
    mode: str
    #: ``baseline``, ``inline``, ``queue`` or ``off``.
    path: str
    hands: int
    seconds: float
    latencies: list[float]
    #: CPU seconds the server process spent on the run.
    server_cpu: float = 0.0
    #: CPU seconds of the PostgreSQL processes over the run (``None``: SQLite).
    postgres_cpu: float | None = None

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.server_cpu / self.hands

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
    url: str,
    path: str,
    log: Path,
    extra_env: dict[str, str] | None = None,
    processes: int = 1,
) -> Iterator[tuple[str, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "PAOHUZI_DATABASE_URL": url,
        "PAOHUZI_VERIFY_ON_INGEST": "false" if path == "off" else "true",
        "PAOHUZI_VERIFY_MODE": "queue" if path == "queue" else "inline",
        **(extra_env or {}),
    }
    factory = "baseline_app:create_app" if path == "baseline" else "app.main:create_app"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--app-dir",
                str(ROOT / "bench"),
                factory,
                "--factory",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-access-log",
                *(["--workers", str(processes)] if processes > 1 else []),
            ],
            cwd=ROOT,
            env={**env, "PYTHONPATH": str(ROOT)},
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
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@contextmanager
def servers(
    url: str, path: str, log: Path, processes: int, *, balanced: bool = False
) -> Iterator[tuple[list[str], list[int]]]:
    """``processes`` server processes: one uvicorn with ``--workers`` (the kernel hands
    each new connection to one of them), or with ``balanced`` as many one-process
    servers on their own ports, the client spreading its connections over them (what a
    load balancer in front of stateless API processes does)."""
    if not balanced or processes == 1:
        with server(url, path, log, processes=processes) as (base, pid):
            yield [base], [pid]
        return
    with ExitStack() as stack:
        started = [stack.enter_context(server(url, path, log)) for _ in range(processes)]
        yield [base for base, _ in started], [pid for _, pid in started]


def api_key(url: str) -> str:
    db = Database.from_engine(make_engine(url))
    with transaction(db.write) as session:
        _, secret = create_key(session, "bench", ["ingest"])
    db.dispose()
    return secret


def run_single(
    base: str | Sequence[str],
    key: str,
    logs: list[bytes],
    path: str = "inline",
    concurrency: int = 8,
) -> tuple[float, list[float]]:
    """``concurrency`` connections, each posting one log after another (spread round-robin
    over the servers when ``base`` lists several, as a load balancer would)."""
    bases = [base] if isinstance(base, str) else list(base)
    latencies: list[float] = []
    target = "/bench/baseline" if path == "baseline" else "/api/v1/games"
    pending = iter(logs)

    async def connection(client: httpx.AsyncClient) -> None:
        for raw in pending:
            t0 = time.perf_counter()
            answer = await client.post(target, content=raw)
            latencies.append(time.perf_counter() - t0)
            if answer.status_code != 201:
                raise RuntimeError(f"{answer.status_code}: {answer.text[:300]}")

    async def run() -> float:
        limits = httpx.Limits(max_connections=concurrency)
        clients = [
            httpx.AsyncClient(base_url=b, headers={"X-API-Key": key}, timeout=60, limits=limits)
            for b in bases
        ]
        try:
            for client in clients:
                await client.get("/api/v1/healthz")
            start = time.perf_counter()
            await asyncio.gather(
                *(connection(clients[i % len(clients)]) for i in range(concurrency))
            )
            return time.perf_counter() - start
        finally:
            for client in clients:
                await client.aclose()

    return asyncio.run(run()), latencies


def run_bulk(
    base: str | Sequence[str],
    key: str,
    logs: list[bytes],
    size: int,
    path: str = "inline",
    connections: int = 1,
) -> tuple[float, list[float]]:
    """NDJSON requests of ``size`` logs, over ``connections`` connections at once (spread
    round-robin over the servers when ``base`` lists several)."""
    bases = [base] if isinstance(base, str) else list(base)
    latencies: list[float] = []
    headers = {"X-API-Key": key, "Content-Type": "application/x-ndjson"}
    target = "/bench/baseline:bulk" if path == "baseline" else "/api/v1/games:bulk"
    chunks = iter([logs[i : i + size] for i in range(0, len(logs), size)])
    lock = threading.Lock()

    def connection(client: httpx.Client) -> None:
        while True:
            with lock:
                chunk = next(chunks, None)
            if chunk is None:
                return
            t0 = time.perf_counter()
            answer = client.post(target, content=b"\n".join(chunk))
            lines = answer.text.splitlines()
            latencies.append(time.perf_counter() - t0)
            created = sum(1 for line in lines if json.loads(line)["status"] == "created")
            if answer.status_code != 200 or created != len(chunk):
                raise RuntimeError(f"bulk: {answer.status_code}, {created}/{len(chunk)} created")

    clients = [
        httpx.Client(base_url=bases[i % len(bases)], headers=headers, timeout=300)
        for i in range(connections)
    ]
    try:
        for client in clients:
            client.get("/api/v1/healthz")
        start = time.perf_counter()
        with ThreadPoolExecutor(connections) as pool:
            for done in [pool.submit(connection, client) for client in clients]:
                done.result()
        return time.perf_counter() - start, latencies
    finally:
        for client in clients:
            client.close()


def _baseline_of(f: Figure, figures: list[Figure]) -> Figure | None:
    return next(
        (b for b in figures if b.path == "baseline" and (b.backend, b.mode) == (f.backend, f.mode)),
        None,
    )


def table(figures: list[Figure]) -> str:
    rows = [
        "| database | shape | verification | hands | hands/s | × baseline | p50 ms | p99 ms "
        "| server CPU ms/hand | PostgreSQL CPU ms/hand |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        base = _baseline_of(f, figures)
        ratio = f"{f.rate / base.rate:.0%}" if base and base is not f else "—"
        pg = "—" if f.postgres_cpu is None else f"{1000 * f.postgres_cpu / f.hands:.2f}"
        rows.append(
            f"| {f.backend} | {f.mode} | {f.path} | {f.hands} | {f.rate:,.0f} | {ratio} | "
            f"{f.pct(0.5):.1f} | {f.pct(0.99):.1f} | {f.cpu_ms:.2f} | {pg} |"
        )
    return "\n".join(rows)


@dataclass
class EndToEnd:
    workers: int
    hands: int
    #: posted in bulk while the workers verify: first post to last verdict.
    stored_seconds: float
    verified_seconds: float
    #: the workers alone on a stored backlog (no client competing for the cores), from
    #: the moment their processes are started to the last verdict: start-up included.
    backlog_seconds: float
    #: of which: from the start of the processes until all have registered with the
    #: queue (imports, connections; the backlog after that is ``backlog - startup``).
    startup_seconds: float
    #: CPU seconds of the worker processes on the backlog (less what they spend started
    #: and idle as long).
    backlog_cpu: float
    #: CPU seconds of every PostgreSQL process over the backlog run.
    postgres_cpu: float = 0.0

    def row(self) -> str:
        n = self.hands
        return (
            f"| {self.workers} | {n} | {n / self.stored_seconds:,.0f} | "
            f"{n / self.verified_seconds:,.0f} | {n / self.backlog_seconds:,.0f} | "
            f"{self.startup_seconds:.1f} | {n / (self.backlog_seconds - self.startup_seconds):,.0f}"
            f" | {1000 * self.backlog_cpu / n:.2f} | {1000 * self.postgres_cpu / n:.2f} |"
        )


class VerdictCount:
    """Polls the number of verdicts over one connection (a new engine a poll would cost
    the client CPU that the workers need)."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)

    def __enter__(self) -> VerdictCount:
        return self

    def __exit__(self, *_: object) -> None:
        self.engine.dispose()

    def count(self, table: str = "verdicts") -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0)

    def unfinished_jobs(self) -> int:
        """Verification jobs still to do or being done: a look at the queue's partial
        indexes, whatever the number of verdicts already stored."""
        sql = (
            "SELECT count(*) FROM procrastinate_jobs WHERE queue_name = :queue"
            " AND status IN ('todo', 'doing')"
        )
        with self.engine.connect() as conn:
            return int(conn.execute(text(sql), {"queue": VERIFY_QUEUE}).scalar() or 0)

    def wait(self, n: int, table: str = "verdicts", timeout: float = 1800) -> float:
        """Wait for ``n`` rows in ``table``; when they were there (``time.perf_counter``,
        to the polling interval)."""
        deadline = time.perf_counter() + timeout
        while self.count(table) < n:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"not {n} rows in {table} after {timeout} s")
            time.sleep(0.05)
        return time.perf_counter()

    def wait_verified(self, n: int, timeout: float = 1800) -> float:
        """Wait for ``n`` verdicts, every log's verification job already queued: until no
        verification job is left to do, then the verdicts are counted once (and polled, as
        ``wait``, if any are missing). A ``count(*)`` of the verdicts every 50 ms, as
        ``wait`` does, scans the table each time: 7.6-9.2 ms of PostgreSQL at 20,000
        verdicts (docs/performance.md, "Twelfth pass"), on the cores the workers are measured
        on."""
        deadline = time.perf_counter() + timeout
        while self.unfinished_jobs():
            if time.perf_counter() > deadline:
                raise RuntimeError(f"verification jobs still unfinished after {timeout} s")
            time.sleep(0.05)
        finished = time.perf_counter()
        if self.count() >= n:
            return finished  # a job is finished after its verdicts are committed
        return self.wait(n, timeout=max(deadline - time.perf_counter(), 1.0))

    def wait_workers(self, n: int) -> float:
        """Wait until ``n`` worker processes have registered with the queue."""
        return self.wait(n, "procrastinate_workers", timeout=120)


@contextmanager
def workers(url: str, processes: int, log: Path) -> Iterator[None]:
    env = {**os.environ, "PAOHUZI_DATABASE_URL": url}
    main = "import sys; from app.cli import main; sys.exit(main())"
    args = ["worker", "--processes", str(processes), "--poll", "0.2"]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", main, *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def end_to_end(logs: list[bytes], size: int, processes: int, folder: Path) -> EndToEnd:
    with database("postgresql", folder) as url:
        upgrade(url)
        key = api_key(url)
        with VerdictCount(url) as verdicts, server(url, "queue", folder / "server.log") as (
            base,
            _,
        ):
            with workers(url, processes, folder / "workers.log"):
                verdicts.wait_workers(processes)  # up and listening
                start = time.perf_counter()
                posted, _ = run_bulk(base, key, logs, size)  # every job queued
                done = verdicts.wait_verified(len(logs))
        e2e_stored, e2e_verified = posted, done - start
    with database("postgresql", folder) as url:
        upgrade(url)
        key = api_key(url)
        with server(url, "queue", folder / "server.log") as (base, _):
            run_bulk(base, key, logs, size)  # the backlog: stored, jobs waiting
        cpu = children_cpu()
        pg = postgres_cpu()
        with VerdictCount(url) as verdicts:
            # Timed from the moment the processes are started: they begin verifying as
            # soon as they are up, so a clock started later would miss part of the work.
            start = time.perf_counter()
            with workers(url, processes, folder / "workers.log"):
                ready = verdicts.wait_workers(processes)
                done = verdicts.wait_verified(len(logs))
        cpu = children_cpu() - cpu
        pg = postgres_cpu() - pg
    # What starting and stopping the processes costs, with nothing to do: not per hand.
    with database("postgresql", folder) as url:
        upgrade(url)
        idle = children_cpu()
        with workers(url, processes, folder / "workers.log"):
            time.sleep(done - start)
        idle = children_cpu() - idle
    return EndToEnd(
        processes,
        len(logs),
        e2e_stored,
        e2e_verified,
        done - start,
        ready - start,
        max(cpu - idle, 0.0),
        pg,
    )


E2E_HEADER = (
    "| workers | hands | stored hands/s | verified hands/s (end to end) "
    "| verified hands/s (backlog) | start-up s | verified hands/s (backlog after start-up) "
    "| worker CPU ms/hand | PostgreSQL CPU ms/hand |\n"
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def section(
    figures: list[Figure], e2e: EndToEnd | None, args: argparse.Namespace, logs: list[bytes]
) -> str:
    source = "replay.tools.simulate" if _simulator() else "app.demo.synthetic"
    size = sum(len(x) for x in logs) / len(logs)
    flags = " --baseline" if args.baseline else ""
    flags += f" --workers {args.workers}" if args.workers else ""
    n = args.server_processes
    flags += f" --server-processes {n}" if n > 1 else ""
    flags += " --balanced" if n > 1 and args.balanced else ""
    flags += f" --bulk-connections {args.bulk_connections}" if args.bulk_connections else ""
    if n == 1:
        processes = "One uvicorn worker"
    elif args.balanced:
        processes = f"{n} one-process servers, the client's connections spread over them"
    else:
        processes = f"{n} uvicorn workers (`--workers {n}`)"
    k = args.bulk_connections or n
    connections = "one connection" if k == 1 else f"{k} connections at once"
    e2e_text = ""
    if e2e is not None:
        e2e_text = f"""
Queue end to end (PostgreSQL, `paohuzi-audit worker --processes {e2e.workers}`, bulk
ingest of the same hands): *stored* is the ingest rate while the workers run beside it,
*verified* is hands over the time from the first post to the last verdict, *backlog* the
workers alone on the same hands already stored (no client sharing the cores), timed from
the moment the worker processes are started to the last verdict (start-up included; the
end-to-end run waits for the workers to be up before it posts), *start-up* the time
until every worker process has registered with the queue (they may verify before), and
the CPU the worker processes spent per hand there (less what they spend started and idle
as long) and the PostgreSQL processes over the same run (every client of the server
counts: on a shared machine, other sessions' queries too).
*server CPU ms/hand* in the table above is the server process's CPU time over the run
per hand: it depends much less than the rates on what else the machine is doing, so a
core's capacity is about 1,000 / that figure. *PostgreSQL CPU ms/hand* is that of every
PostgreSQL process over the run (backends, WAL writer…; other sessions' queries on the
same server count too).

{E2E_HEADER}
{e2e.row()}
"""
    return f"""## Service

HTTP ingest over loopback, measured by `bench/ingest.py` (`.venv/bin/python bench/ingest.py
--games {args.games} --bulk-size {args.bulk_size} --concurrency {args.concurrency}{flags}
--write docs/performance.md`), all in one sitting. {processes}, a fresh migrated
database per row, the client on the same machine ({os.cpu_count()} cores, Python
{platform.python_version()}, engine `{engine_version()}`). Hands from `{source}` (every
5th doctored), {size:,.0f} bytes each on average. *single*: one log per request over
{args.concurrency} keep-alive connections (latency per request). *bulk*: NDJSON requests of
{args.bulk_size} logs on {connections} (latency per request, i.e. per {args.bulk_size}
logs; the server commits every 200). Verification *inline* re-executes the hand in the
request; *queue* stores the log and enqueues its verification in the same transaction
(`paohuzi-audit worker` verifies it); *off* stores only (`PAOHUZI_VERIFY_ON_INGEST=false`).
*baseline* is the minimal endpoint of `bench/baseline_app.py` in the same server process
(parse with `json`, insert the raw bytes, same engine and durability settings); *×
baseline* is each row's rate over the baseline's of the same database and shape.

{table(figures)}
{e2e_text}
SQLite runs in WAL mode with `synchronous=NORMAL` (durable across a process crash, as
the SIGKILL test shows); PostgreSQL commits wait for the disk (`synchronous_commit=on`).
Figures vary by 20-30% between runs on a shared machine: compare rows of one sitting.
"""


BEGIN: Final = "<!-- bench/ingest.py --write: from here -->"
END: Final = "<!-- bench/ingest.py --write: to here -->"


def write_section(path: Path, text_: str) -> None:
    """Put the figures between the BEGIN and END markers (what follows END, such as
    notes on other sittings, is kept); without markers, replace the "## Service" section."""
    old = path.read_text() if path.exists() else "# Performance\n"
    block = f"{BEGIN}\n{text_.rstrip()}\n{END}\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        path.write_text(head + block + ("\n" + tail if tail else ""))
        return
    lines = old.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "## Service"), None)
    if start is None:
        new = old.rstrip("\n") + "\n\n" + block
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        rest = "".join(lines[end:])
        new = "".join(lines[:start]) + block + ("\n" + rest if rest else "")
    path.write_text(new)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--bulk-size", type=int, default=500)
    p.add_argument("--concurrency", type=int, default=8, help="connections in single mode")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--backends", default="sqlite,postgresql")
    p.add_argument("--paths", help="comma-separated: baseline,inline,queue,off")
    p.add_argument("--shapes", default="single,bulk")
    p.add_argument("--baseline", action="store_true", help="add the baseline rows")
    p.add_argument("--workers", type=int, default=0, help="queue end to end with N workers")
    p.add_argument(
        "--server-processes",
        type=int,
        default=1,
        help="uvicorn --workers N for every server (bulk then posts over N connections)",
    )
    p.add_argument(
        "--balanced",
        action="store_true",
        help="with --server-processes N: N one-process servers on their own ports, the "
        "client's connections spread round-robin over them (a load balancer's share) "
        "instead of one uvicorn --workers N, whose processes take new connections as the "
        "kernel hands them out (at times all to one)",
    )
    p.add_argument(
        "--bulk-connections",
        type=int,
        default=0,
        help="connections bulk posts over (default: one per server process); with one "
        "uvicorn --workers N the kernel may still hand them all to one process (measured: "
        "four connections to two processes did not even out), see --balanced",
    )
    p.add_argument("--write", type=Path, help="put the figures into this markdown file")
    args = p.parse_args()

    t0 = time.perf_counter()
    logs = [
        json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        for doc in demo_hands(args.games, args.seed)
    ]
    print(f"{len(logs)} hands made in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    figures: list[Figure] = []
    e2e: EndToEnd | None = None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for backend in args.backends.split(","):
            if args.paths:
                paths = args.paths.split(",")
            else:
                paths = ["inline", "off"] if backend == "sqlite" else ["queue", "inline", "off"]
                paths = (["baseline"] if args.baseline else []) + paths
            for path in paths:
                if path == "queue" and backend == "sqlite":
                    continue
                for mode in args.shapes.split(","):
                    with database(backend, folder) as url:
                        upgrade(url)
                        key = api_key(url)
                        n = args.server_processes
                        with servers(
                            url, path, folder / "server.log", n, balanced=args.balanced
                        ) as (bases, pids):
                            cpu = sum(cpu_seconds(pid) for pid in pids)
                            each = own_cpu(pids)
                            pg = postgres_cpu() if backend == "postgresql" else None
                            if mode == "single":
                                seconds, lat = run_single(
                                    bases, key, logs, path, args.concurrency
                                )
                            else:
                                seconds, lat = run_bulk(
                                    bases, key, logs, args.bulk_size, path,
                                    connections=args.bulk_connections or n,
                                )
                            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu
                            if pg is not None:
                                pg = postgres_cpu() - pg
                            if n > 1:  # how the work fell on the server processes
                                after = own_cpu(pids)
                                shares = ", ".join(
                                    f"{after[p] - each.get(p, 0.0):.2f}" for p in sorted(after)
                                )
                                print(f"CPU s of each server process (by pid, the uvicorn "
                                      f"master included): {shares}", file=sys.stderr)
                    fig = Figure(backend, mode, path, len(logs), seconds, lat, cpu, pg)
                    figures.append(fig)
                    print(table(figures).splitlines()[-1], file=sys.stderr)
        if args.workers and "postgresql" in args.backends:
            e2e = end_to_end(logs, args.bulk_size, args.workers, folder)
            print(e2e.row(), file=sys.stderr)
    print(table(figures))
    if e2e:
        print(e2e.row())
    if args.write:
        write_section(args.write, section(figures, e2e, args, logs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
