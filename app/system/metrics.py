"""Prometheus metrics.

Counters and the histogram live in each process; with ``serve --workers N`` the CLI
points ``PROMETHEUS_MULTIPROC_DIR`` at a shared folder and ``/metrics`` sums the
workers. The stored-findings gauges are read from the database at scrape time, so
they are the same whichever worker answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from ..jobs.stats import QueueCollector
from ..models import FindingRow, HandLog

INGEST = Counter(
    "paohuzi_ingest_logs",
    "Logs received, by outcome (created, duplicate, conflict, rejected, failed).",
    ["outcome"],
)
VERIFY_SECONDS = Histogram(
    "paohuzi_verify_seconds",
    "Time to re-execute one log (parse excluded).",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
FINDINGS = Counter(
    "paohuzi_findings",
    "Findings in the verdicts this process produced, by code.",
    ["code"],
)
GROUP_SIZE = Histogram(
    "paohuzi_ingest_group_size",
    "Single-log ingests committed together in one transaction (group commit).",
    buckets=(1, 2, 3, 4, 6, 8, 12, 16),
)
ENGINE_ERRORS = Counter(
    "paohuzi_engine_errors",
    "Logs the engine failed on (stored without a verdict; re-audit retries them).",
)


class StoredCollector(Collector):
    """Gauges computed from the database: stored logs and current findings by code."""

    def __init__(self, factory: sessionmaker[Session]) -> None:
        self.factory = factory

    def collect(self) -> Iterator[GaugeMetricFamily]:
        logs = GaugeMetricFamily("paohuzi_stored_logs", "Hand logs stored.")
        findings = GaugeMetricFamily(
            "paohuzi_stored_findings", "Findings of the current verdicts, by code.", labels=["code"]
        )
        with self.factory() as session:
            logs.add_metric([], session.scalar(select(func.count(HandLog.id))) or 0)
            rows = session.execute(
                select(FindingRow.code, func.count()).group_by(FindingRow.code)
            ).all()
        for code, count in sorted(rows):
            findings.add_metric([code], count)
        yield logs
        yield findings


def render(factory: sessionmaker[Session]) -> tuple[bytes, str]:
    """The text exposition of every metric."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        collectors = [registry]
    else:
        collectors = [REGISTRY, registry]
    registry.register(StoredCollector(factory))
    registry.register(QueueCollector(factory))
    body = b"".join(generate_latest(r) for r in collectors)
    return body, CONTENT_TYPE_LATEST
