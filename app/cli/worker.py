"""``worker``: take verification, re-audit and webhook jobs from the queue (PostgreSQL)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from ..jobs import queue
from ..jobs.worker import WorkerOptions, run_many
from ..settings import Settings


def run(settings: Settings, args: argparse.Namespace) -> int:
    if not settings.database_url.startswith("postgresql"):
        print(
            "paohuzi-audit: the queue needs PostgreSQL (PAOHUZI_DATABASE_URL); "
            "on SQLite logs are verified inline",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    processes = args.processes or os.cpu_count() or 1
    options = WorkerOptions(
        queues=tuple(args.queue or queue.QUEUES),
        heartbeat=args.heartbeat,
        stalled_after=args.stalled_after,
        recover_every=args.recover_every,
        poll=args.poll,
        concurrency=args.concurrency,
    )
    print(f"paohuzi-audit worker: {processes} process(es), queues {', '.join(options.queues)}")
    return run_many(settings, options, processes)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("worker", help="run queued jobs (PostgreSQL): verify, reaudit, webhooks")
    p.add_argument(
        "--processes", type=int, help="worker processes, one job each (default: one per core)"
    )
    p.add_argument(
        "--concurrency", type=int, default=1, help="jobs at once per process (default 1)"
    )
    p.add_argument("--queue", action="append", choices=queue.QUEUES, help="only these queues")
    p.add_argument("--heartbeat", type=float, default=5.0, help="seconds between heartbeats")
    p.add_argument(
        "--stalled-after",
        type=float,
        default=30.0,
        help="a worker silent this long is gone: its job goes back to the queue",
    )
    p.add_argument("--recover-every", type=float, default=10.0, help="seconds between looks")
    p.add_argument("--poll", type=float, default=1.0, help="seconds between polls (besides LISTEN)")
    p.add_argument("--log-level", default="warning")
    p.set_defaults(serve=run)
