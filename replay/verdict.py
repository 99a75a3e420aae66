"""Findings, decisions and the verdict, with their canonical JSON.

Finding codes are stable: the ones LOG_FORMAT.md names are never renamed; the
ones added here are documented in docs/rules.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple


class Code(StrEnum):
    GUO_ZHANG = "guo_zhang"
    CHOU_PAI = "chou_pai"
    CHOU_HU = "chou_hu"
    BI_MISSING = "bi_missing"
    CHI_NOT_ALLOWED = "chi_not_allowed"
    PAO_MISSED = "pao_missed"
    TI_MISSED = "ti_missed"
    DISCARD_NOT_OWED = "discard_not_owed"
    DISCARD_MISSING = "discard_missing"
    OUT_OF_TURN = "out_of_turn"
    CARD_NOT_HELD = "card_not_held"
    DRAW_MISMATCH = "draw_mismatch"
    DEAL_INVALID = "deal_invalid"
    COMMITMENT_MISMATCH = "commitment_mismatch"
    HU_INVALID = "hu_invalid"
    PRIORITY_VIOLATED = "priority_violated"
    SCORE_MISMATCH = "score_mismatch"
    LOG_TRUNCATED = "log_truncated"
    # Added by this project (docs/rules.md, "Finding codes").
    WEI_MISSED = "wei_missed"
    PENG_NOT_ALLOWED = "peng_not_allowed"
    CLAIM_INVALID = "claim_invalid"
    TIAN_HU_MISSED = "tian_hu_missed"
    EVENT_AFTER_END = "event_after_end"
    END_INVALID = "end_invalid"
    MATCH_INVALID = "match_invalid"
    KAN_SPLIT = "kan_split"
    DRAWN_BEFORE_MISMATCH = "drawn_before_mismatch"


class Severity(StrEnum):
    VIOLATION = "violation"
    INVALID = "invalid"


class Status(StrEnum):
    CLEAN = "clean"
    VIOLATIONS = "violations"
    INVALID = "invalid"


class DecisionKind(StrEnum):
    GUO_ZHANG = "guo_zhang"
    CHOU_PAI = "chou_pai"
    CHOU_WEI = "chou_wei"
    CHOU_HU = "chou_hu"
    MIAN_ZHANG = "mian_zhang"
    CHECK = "check"


class Finding(NamedTuple):
    seq: int | None
    seat: int | None
    code: Code
    severity: Severity
    message: str
    refs: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "code": str(self.code),
            "severity": str(self.severity),
            "message": self.message,
            "refs": list(self.refs),
        }


class Decision(NamedTuple):
    seq: int | None
    seat: int
    kind: DecisionKind
    card: str | None
    detail: str
    refs: tuple[int, ...] = ()
    #: for ``check`` entries: "ok" or "violation"
    outcome: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.seq,
            "seat": self.seat,
            "kind": str(self.kind),
            "card": self.card,
            "detail": self.detail,
            "refs": list(self.refs),
        }
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out


@dataclass(slots=True)
class Verdict:
    game_id: str
    ruleset: str
    engine: str
    log_sha256: str
    status: Status
    findings: list[Finding] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    score: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "engine": self.engine,
            "log_sha256": self.log_sha256,
            "status": str(self.status),
            "findings": [f.to_json() for f in self.findings],
            "decisions": [d.to_json() for d in self.decisions],
            "score": self.score,
        }

    def to_bytes(self, pretty: bool = False) -> bytes:
        return canonical_json(self.to_json(), pretty=pretty)


def canonical_json(value: Any, pretty: bool = False) -> bytes:
    """Sorted keys, no spaces (or a 2-space indent), UTF-8, no NaN."""
    if pretty:
        text = json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)
    else:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    return text.encode("utf-8")

