"""``paohuzi-audit worker``: processes that take jobs from the queue.

Each process runs one job at a time by default (the rules core is CPU-bound: one
process per core, on any number of machines sharing the database). A worker killed mid-job
leaves its job ``doing``; every worker's heartbeat is in the database, and each
worker, every ``recover_every`` seconds, puts back to ``todo`` the jobs of workers
silent for ``stalled_after`` seconds. The job then runs again, and stores the same
result once (the tasks are idempotent).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx
import procrastinate
from procrastinate.exceptions import ProcrastinateException

import replay.native
import replay.version

from .. import gc_tuning
from ..database import Database
from ..settings import Settings
from . import queue
from .tasks import Runtime, blueprint

if TYPE_CHECKING:  # ForkContext does not exist on Windows
    from multiprocessing.context import ForkContext, SpawnContext

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    queues: tuple[str, ...] = queue.QUEUES
    heartbeat: float = 5.0
    stalled_after: float = 30.0
    recover_every: float = 10.0
    poll: float = 1.0
    #: jobs at once in one process (threads: more than 1 overlaps database waits only).
    concurrency: int = 1
    name: str = "paohuzi-worker"


def make_app(settings: Settings) -> procrastinate.App:
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=queue.conninfo(settings.database_url), min_size=1, max_size=4
        )
    )
    app.add_tasks_from(blueprint, namespace=queue.NAMESPACE)
    return app


async def _recover(app: procrastinate.App, options: WorkerOptions) -> None:
    while True:
        await asyncio.sleep(options.recover_every)
        try:
            stalled = await app.job_manager.get_stalled_jobs(
                seconds_since_heartbeat=options.stalled_after
            )
            for job in stalled:
                with contextlib.suppress(ProcrastinateException):
                    await app.job_manager.retry_job(job)
                    logger.warning("job %s of a stalled worker put back in the queue", job.id)
        except ProcrastinateException:
            logger.exception("could not look for stalled jobs")


async def _run(settings: Settings, options: WorkerOptions) -> None:
    gc_tuning.tune()
    db = Database.from_settings(settings)
    http = httpx.Client(timeout=settings.webhook_timeout_seconds)
    app = make_app(settings)
    try:
        async with app.open_async():
            recover = asyncio.create_task(_recover(app, options))
            try:
                await app.run_worker_async(
                    queues=list(options.queues),
                    name=options.name,
                    concurrency=options.concurrency,
                    delete_jobs="successful",
                    fetch_job_polling_interval=options.poll,
                    update_heartbeat_interval=options.heartbeat,
                    stalled_worker_timeout=options.stalled_after,
                    additional_context={"runtime": Runtime(db, settings, http)},
                )
            finally:
                recover.cancel()
    finally:
        http.close()
        db.dispose()


def run(settings: Settings, options: WorkerOptions) -> None:
    """One worker process, until SIGINT/SIGTERM (the current jobs are finished first)."""
    logger.info("rules core %s, %s", replay.version.ENGINE_VERSION, replay.native.BUILD)
    asyncio.run(_run(settings, options))


def _context() -> ForkContext | SpawnContext:
    """``fork`` on Linux: the children start with the parent's imports (the framework,
    SQLAlchemy, the compiled rules core; about half a second a process with ``spawn``),
    and the parent holds no thread, connection or event loop yet. ``spawn`` elsewhere."""
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_many(settings: Settings, options: WorkerOptions, processes: int) -> int:
    """``processes`` worker processes; returns when all have stopped."""
    if processes == 1:
        run(settings, options)
        return 0
    context = _context()
    if context.get_start_method() == "fork":
        gc.freeze()  # what the parent imported stays shared, not copied by the collector
    children = [
        context.Process(target=run, args=(settings, options), name=f"{options.name}-{n}")
        for n in range(processes)
    ]
    for child in children:
        child.start()

    def forward(signum: int, _frame: object) -> None:
        for child in children:
            if child.pid is not None and child.is_alive():
                os.kill(child.pid, signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for child in children:
        child.join()
    return max((child.exitcode or 0) for child in children)
