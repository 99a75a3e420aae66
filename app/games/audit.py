"""The bridge to the rules core: strict parsing, then re-execution.

``replay.engine.verify`` and ``replay.version.ENGINE_VERSION`` are looked up at call
time, so that a new engine (or a test that swaps one in) is used without a restart
of anything here.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import replay.engine
import replay.version
from replay.fairplay.fused import verify_and_read
from replay.logformat import log_sha256, parse_log
from replay.model import Log
from replay.verdict import Verdict

from ..bounds import started_utc
from ..system.metrics import ENGINE_ERRORS, FINDINGS, VERIFY_SECONDS

logger = logging.getLogger(__name__)


def engine_version() -> str:
    return replay.version.ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class Parsed:
    raw: bytes
    log: Log
    log_sha256: str
    raw_sha256: str

    @property
    def game_id(self) -> str:
        return self.log.game_id


@dataclass(frozen=True, slots=True)
class VerdictData:
    """A verdict as stored: the canonical JSON and its hashes."""

    verdict: Verdict
    engine: str
    status: str
    json_text: str
    sha256: str
    content_sha256: str
    #: the hand's fair-play features read in the same walk (``None``: the scan reads them)
    features: dict[str, Any] | None = None


def parse(raw: bytes, max_depth: int) -> Parsed:
    """Raises ``LogFormatError`` for anything that is not a ``paohuzi-log/1`` log."""
    log = parse_log(raw, max_depth=max_depth)
    return Parsed(
        raw=raw,
        log=log,
        log_sha256=log.sha256 or log_sha256(log.raw),
        raw_sha256=hashlib.sha256(raw).hexdigest(),
    )


def content_sha256(verdict_json: dict[str, Any]) -> str:
    body = {k: v for k, v in verdict_json.items() if k != "engine"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_sha256_of(canonical: bytes, engine: str) -> str | None:
    """``content_sha256`` from the canonical verdict bytes, without building the verdict's
    JSON a second time: the bytes less the top-level ``engine`` member. Keys are sorted, so
    it follows ``decisions``, whose objects have no such key, and a quote inside a string
    is escaped: the first ``,"engine":…`` is the one. ``None`` if it is not there."""
    member = b',"engine":' + json.dumps(engine, ensure_ascii=False).encode("utf-8")
    at = canonical.find(member)
    if at < 0:
        return None
    return hashlib.sha256(canonical[:at] + canonical[at + len(member) :]).hexdigest()


def verify(log: Log) -> VerdictData | None:
    """The verdict, or ``None`` if the engine itself failed (logged and counted)."""
    started = time.perf_counter()
    try:
        verdict, features = verify_and_read(log, replay.engine.verify)
        data = verdict.to_bytes()
    except Exception:  # an engine bug must not lose the producer's log
        ENGINE_ERRORS.inc()
        logger.exception("the engine failed on game %s", log.game_id)
        return None
    VERIFY_SECONDS.observe(time.perf_counter() - started)
    for finding in verdict.findings:
        FINDINGS.labels(code=str(finding.code)).inc()
    return VerdictData(
        verdict=verdict,
        engine=verdict.engine,
        status=str(verdict.status),
        json_text=data.decode("utf-8"),
        sha256=hashlib.sha256(data).hexdigest(),
        content_sha256=content_sha256_of(data, verdict.engine)
        or content_sha256(verdict.to_json()),
        features=None if features is None else features.to_json(),
    )


def played_at(log: Log, fallback: datetime) -> tuple[datetime | None, datetime]:
    """``(started_at, played_at)``: the log's start time if it has one, else the fallback."""
    started = started_utc(log.started_at) if log.started_at else None
    return (started, started) if started is not None else (None, fallback)
