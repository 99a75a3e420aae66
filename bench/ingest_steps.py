"""CPU per hand of each step of the ingest path, in one process (no HTTP, no client):
the key lookup, the strict parse, verification, and storing with the commit.

    .venv/bin/python bench/ingest_steps.py --backend sqlite --hands 600
    .venv/bin/python bench/ingest_steps.py --backend postgresql --mode queue
    .venv/bin/python bench/ingest_steps.py --backend postgresql --mode worker

``--mode request`` walks fresh hands as a lone single POST does, each in its own write
transaction (begin and parse, verify with the features, store and commit; posts that
arrive together share one, ``app/group_commit.py``, which this does not time), once each
from cold caches, and times each step and the cycle collector (``gc.callbacks``); wall
time too, which counts what SQLite spends waiting on the disk (its checkpoints):

    .venv/bin/python bench/ingest_steps.py --backend sqlite --mode request --hands 3000

``--mode worker`` times what a verification job does with the logs of one bulk batch
(``--job-size`` hands): read them, parse and re-execute them, store the verdicts and their
rows and commit, each hand once (cold caches, as in a worker).

CPU time (``time.process_time``), best of ``--repeat`` passes for the steps that do not
write; the store step stores each hand once, in its own transaction, as a lone single
POST does. The server's figures (``bench/ingest.py``) add HTTP, the thread hop and the client.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import best_cpu_seconds  # noqa: E402

from app import gc_tuning  # noqa: E402
from app.admin.repository import ReauditRepository  # noqa: E402
from app.admin.service import apply, empty_report, reverify  # noqa: E402
from app.auth.scopes import Scope  # noqa: E402
from app.auth.service import authenticate, create_key  # noqa: E402
from app.database import Database, make_engine, transaction  # noqa: E402
from app.demo import demo_hands  # noqa: E402
from app.games.audit import engine_version  # noqa: E402
from app.games.service import Prepared, Source, parse, prepare, store  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from replay import arrangements  # noqa: E402

T = TypeVar("T")


def cpu_ms(items: Sequence[T], step: Callable[[T], object], repeat: int) -> float:
    return 1000 * best_cpu_seconds(items, step, repeat)


def job_steps(db: Database, raws: Sequence[bytes], size: int) -> dict[str, float]:
    """Store the logs unverified, then verify them a job at a time in the steps of
    ``jobs.verify`` (read, ``reverify``, ``apply`` and commit),
    timing each step; CPU ms a hand."""
    for start in range(0, len(raws), size):
        with transaction(db.write) as session:
            chunk = [prepare(parse(raw, 64), False) for raw in raws[start : start + size]]
            store(session, chunk, api_key_id=None, source=Source.IMPORT)
    engine = engine_version()
    spent = dict.fromkeys(("job: read the logs", "job: parse + verify + features",
                           "job: store + commit"), 0.0)
    read, work, write = spent
    after = 0
    while True:
        t0 = time.process_time()
        with db.read() as session:
            stale = ReauditRepository(session).stale(engine, size, None, after)
        t1 = time.process_time()
        if not stale:
            break
        after = stale[-1].id
        report = empty_report(engine)
        fresh = reverify(stale, 64, report)
        t2 = time.process_time()
        with transaction(db.write) as session:
            apply(session, fresh, engine, report, deliver=True)
        t3 = time.process_time()
        spent[read] += t1 - t0
        spent[work] += t2 - t1
        spent[write] += t3 - t2
    figures = {name: 1000 * seconds / len(raws) for name, seconds in spent.items()}
    figures["job: in all"] = sum(figures.values())
    return figures


def request_steps(db: Database, raws: Sequence[bytes]) -> dict[str, float]:
    """Each hand as a single POST stores it; CPU ms a hand of each step, the collector's
    ms a hand and the wall ms a hand."""
    collector = [0.0, 0.0]  # spent, started

    def timed(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            collector[1] = time.perf_counter()
        else:
            collector[0] += time.perf_counter() - collector[1]

    spent = [0.0, 0.0, 0.0]
    arrangements.clear_caches()
    gc.callbacks.append(timed)
    wall = time.perf_counter()
    try:
        for raw in raws:
            t0 = time.process_time()
            with transaction(db.write) as session:
                one = parse(raw, 64)
                t1 = time.process_time()
                item = prepare(one, True)
                t2 = time.process_time()
                store(session, [item], api_key_id=None, source=Source.API)
            t3 = time.process_time()
            spent[0] += t1 - t0
            spent[1] += t2 - t1
            spent[2] += t3 - t2
    finally:
        gc.callbacks.remove(timed)
    wall = time.perf_counter() - wall
    n = len(raws)
    return {
        "request: begin + parse (CPU)": 1000 * spent[0] / n,
        "request: verify + features (CPU)": 1000 * spent[1] / n,
        "request: store + commit (CPU)": 1000 * spent[2] / n,
        "request: in all (CPU)": 1000 * sum(spent) / n,
        "request: cycle collector (wall)": 1000 * collector[0] / n,
        "request: in all (wall)": 1000 * wall / n,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    p.add_argument("--mode", choices=("inline", "queue", "worker", "request"),
                   default="inline")
    p.add_argument("--job-size", type=int, default=200, help="hands a job (--mode worker)")
    p.add_argument("--hands", type=int, default=600)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    gc_tuning.tune()  # as in a server process
    raws = [
        json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        for doc in demo_hands(args.hands, 7)
    ]
    sys.path.insert(0, str(ROOT / "bench"))
    from ingest import database  # the bench's throw-away databases

    with tempfile.TemporaryDirectory() as tmp, database(args.backend, Path(tmp)) as url:
        upgrade(url)
        db = Database.from_engine(make_engine(url))
        with transaction(db.write) as session:
            _, secret = create_key(session, "steps", ["ingest"])

        def lookup(_: bytes) -> None:
            with transaction(db.write) as session:
                authenticate(session, secret, Scope.INGEST)

        if args.mode in ("worker", "request"):
            figures = (job_steps(db, raws, args.job_size) if args.mode == "worker"
                       else request_steps(db, raws))
            db.dispose()
            unit = "ms CPU/hand" if args.mode == "worker" else "ms/hand"
            for name, ms in figures.items():
                print(f"{args.backend:10} {name:36} {ms:6.3f} {unit}")
            return 0

        parsed = [parse(raw, 64) for raw in raws]
        verify = args.mode == "inline"
        items = [prepare(one, verify) for one in parsed]

        def stored(item: Prepared) -> None:
            with transaction(db.write) as session:
                store(session, [item], api_key_id=None, source=Source.API, enqueue=not verify)

        figures = {
            "key lookup (own transaction)": cpu_ms(raws, lookup, args.repeat),
            "strict parse": cpu_ms(raws, lambda raw: parse(raw, 64), args.repeat),
            "verify (warm caches)": cpu_ms(parsed, lambda one: prepare(one, True), args.repeat)
            if verify
            else 0.0,
            f"store + commit ({args.mode})": cpu_ms(items, stored, 1),
        }
        db.dispose()
    gc.collect()
    for name, ms in figures.items():
        if ms:
            print(f"{args.backend:10} {name:30} {ms:6.3f} ms CPU/hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
