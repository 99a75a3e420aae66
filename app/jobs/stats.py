"""What the queue holds, read from procrastinate's tables (``/metrics``, ``reaudit``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from ..models import VerdictRow
from ..models.types import utcnow

#: the window of the throughput gauge.
WINDOW_SECONDS = 60

_DEPTH = text(
    "SELECT queue_name, status::text, count(*) FROM procrastinate_jobs GROUP BY queue_name, status"
)
# The oldest job that could run now and waits: how far behind the workers are.
_LAG = text(
    "SELECT j.queue_name, EXTRACT(EPOCH FROM now() - min(e.at)) FROM procrastinate_jobs j "
    "JOIN procrastinate_events e ON e.job_id = j.id AND e.type = 'deferred' "
    "WHERE j.status = 'todo' AND (j.scheduled_at IS NULL OR j.scheduled_at <= now()) "
    "GROUP BY j.queue_name"
)
_OPEN_IN_QUEUE = text(
    "SELECT count(*) FROM procrastinate_jobs "
    "WHERE queue_name = :queue AND status IN ('todo', 'doing')"
)


def open_jobs(session: Session, queue: str) -> int:
    return int(session.execute(_OPEN_IN_QUEUE, {"queue": queue}).scalar() or 0)


def verified_last(session: Session, seconds: int) -> int:
    since = utcnow() - timedelta(seconds=seconds)
    stmt = select(func.count()).select_from(VerdictRow).where(VerdictRow.created_at >= since)
    return int(session.scalar(stmt) or 0)


class QueueCollector(Collector):
    """Queue depth by queue and status, lag by queue (PostgreSQL), verification throughput."""

    def __init__(self, factory: sessionmaker[Session]) -> None:
        self.factory = factory

    def collect(self) -> Iterator[GaugeMetricFamily]:
        throughput = GaugeMetricFamily(
            "paohuzi_verified_per_second",
            f"Verdicts stored per second over the last {WINDOW_SECONDS} s (all processes).",
        )
        depth = GaugeMetricFamily(
            "paohuzi_queue_jobs",
            "Jobs in the queue, by queue and status.",
            labels=["queue", "status"],
        )
        lag = GaugeMetricFamily(
            "paohuzi_queue_lag_seconds",
            "Age of the oldest job that is due and waits, by queue (0: none waits).",
            labels=["queue"],
        )
        with self.factory() as session:
            throughput.add_metric([], verified_last(session, WINDOW_SECONDS) / WINDOW_SECONDS)
            yield throughput
            if session.get_bind().dialect.name != "postgresql":
                return
            rows = sorted(session.execute(_DEPTH).all())
            ages: dict[str, float] = {q: float(a) for q, a in session.execute(_LAG).all()}
        for queue, status, count in rows:
            depth.add_metric([queue, status], count)
        for queue in sorted({r[0] for r in rows}):
            lag.add_metric([queue], float(ages.get(queue) or 0.0))
        yield depth
        yield lag
