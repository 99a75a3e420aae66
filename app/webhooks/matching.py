"""Which verdicts a subscription wants, and the body it is sent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..games.audit import VerdictData


@dataclass(frozen=True, slots=True)
class Filters:
    """Empty means any. ``codes``: at least one finding with one of these codes."""

    codes: frozenset[str]
    rulesets: frozenset[str]
    statuses: frozenset[str]


def matching_findings(filters: Filters, ruleset: str, data: VerdictData) -> list[Any] | None:
    """The findings to send, or ``None`` when the verdict does not match."""
    if filters.rulesets and ruleset not in filters.rulesets:
        return None
    if filters.statuses and data.status not in filters.statuses:
        return None
    findings = data.verdict.findings
    if filters.codes:
        findings = [f for f in findings if str(f.code) in filters.codes]
        if not findings:
            return None
    return list(findings)


def body(ruleset: str, data: VerdictData, findings: list[Any]) -> bytes:
    """The JSON body: canonical (sorted keys, compact), so it is the same on every attempt."""
    doc = {
        "event": "verdict",
        "game_id": data.verdict.game_id,
        "ruleset": ruleset,
        "engine": data.engine,
        "status": data.status,
        "verdict_sha256": data.sha256,
        "finding_count": len(data.verdict.findings),
        "findings": [f.to_json() for f in findings],
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
