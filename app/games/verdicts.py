"""The one place a verified verdict is stored.

``store_verdicts`` writes a verdict row (current), its finding and decision-count rows and,
when asked, the webhook deliveries it triggers, in the caller's transaction (it never
commits). Inline ingest (``games.service.store``), the queue's verification jobs and
re-audit (``admin.service.apply``) all store through it, so whatever else must be
written beside every new verdict (the fair-play features) goes here, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..fairplay.service import store_features
from ..webhooks.service import NewVerdict, record_deliveries
from .audit import Parsed, VerdictData
from .repository import GameRepository
from .rows import decision_count_rows, finding_rows, verdict_row


@dataclass(frozen=True, slots=True)
class Verified:
    """A stored log and its new verdict."""

    log_id: int
    parsed: Parsed
    verdict: VerdictData
    #: the log's time, copied onto its finding and decision rows.
    played_at: datetime


def store_verdicts(
    session: Session, verified: Sequence[Verified], *, now: datetime, deliver: bool,
    replace_features: bool = False,
) -> dict[int, int]:
    """Store each verdict as its log's current one; ``{log_id: verdict_id}``. With
    ``deliver``, the webhook deliveries of the verdicts join the transaction. The
    fair-play features read in the same walk are stored beside them (``replace_features``:
    the log's older ones are dropped first, as re-audit and a repeated job need)."""
    if not verified:
        return {}
    repo = GameRepository(session)
    ids = repo.insert_verdicts([verdict_row(v.log_id, v.verdict, now) for v in verified])
    findings: list[dict[str, object]] = []
    counts: list[dict[str, object]] = []
    for v in verified:
        findings += finding_rows(v.log_id, ids[v.log_id], v.parsed, v.verdict, v.played_at)
        counts += decision_count_rows(ids[v.log_id], v.parsed, v.verdict, v.played_at)
    repo.insert_findings(findings)
    repo.insert_decision_counts(counts)
    store_features(session, [(v.log_id, v.verdict.features) for v in verified],
                   replace=replace_features)
    if deliver:
        record_deliveries(
            session,
            [NewVerdict(ids[v.log_id], v.parsed.log.ruleset, v.verdict) for v in verified],
        )
    return ids
