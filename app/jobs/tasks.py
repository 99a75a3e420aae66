"""The tasks a worker runs. Each finds what it needs in the job's context (``Runtime``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import httpx
import procrastinate
from procrastinate import JobContext

from ..database import Database
from ..settings import Settings
from ..webhooks.delivery import deliver
from . import queue
from .verify import verify_logs

logger = logging.getLogger(__name__)

blueprint = procrastinate.Blueprint()


@dataclass(frozen=True, slots=True)
class Runtime:
    """One per worker process: its database, settings and HTTP client."""

    db: Database
    settings: Settings
    http: httpx.Client


def _runtime(context: JobContext) -> Runtime:
    runtime = context.additional_context["runtime"]
    assert isinstance(runtime, Runtime)
    return runtime


@blueprint.task(name="verify_logs", queue=queue.VERIFY_QUEUE, pass_context=True)
def verify_logs_task(
    context: JobContext, log_ids: list[int] | None = None, first: int = 0, last: int = 0
) -> None:
    """Verify these logs (an ingest) or the logs with ids ``first..last`` (a re-audit)."""
    runtime = _runtime(context)
    report = verify_logs(
        runtime.db, runtime.settings.max_json_depth, log_ids=log_ids or (), first=first, last=last
    )
    for failure in report.failed:
        logger.warning("not verified: %s: %s", failure.game_id, failure.reason)


@blueprint.task(name="deliver_webhook", queue=queue.WEBHOOK_QUEUE, pass_context=True)
def deliver_webhook_task(context: JobContext, delivery_id: int) -> None:
    """One attempt; a failed one enqueues the next attempt itself (with its backoff)."""
    runtime = _runtime(context)
    deliver(runtime.db, runtime.settings, runtime.http, delivery_id)
