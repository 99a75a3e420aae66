from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..bounds import MAX_INT32, Note, Text
from ..models.case import CaseState, ReportReason

SEVERITY_NAMES = {0: None, 1: "violation", 2: "invalid"}


class ReportIn(BaseModel):
    """A cheating report on one hand, from a game client."""

    model_config = ConfigDict(extra="forbid")

    game_id: Text = Field(min_length=1, max_length=128, description="The hand reported")
    reporter: Text = Field(
        min_length=1, max_length=128, description="Player id of the reporter (a seat of the hand)"
    )
    accused_seat: int | None = Field(default=None, ge=0, le=2, description="The accused seat")
    accused_player: Text | None = Field(
        default=None, min_length=1, max_length=128, description="Or the accused player id"
    )
    reason: ReportReason
    text: Text = Field(default="", max_length=4000, description="Free text from the reporter")


class ReportOut(BaseModel):
    id: int
    case_id: int
    game_id: str
    reporter: str
    accused_seat: int
    accused_player: str
    reason: str
    text: str
    created_at: datetime


class EvidenceOut(BaseModel):
    id: int
    step: int
    comment: str
    actor: str
    created_at: datetime
    link: str


class TrailOut(BaseModel):
    id: int
    at: datetime
    actor: str
    action: str
    from_state: str | None
    to_state: str | None
    note: str
    data: dict[str, Any]


class CaseSummary(BaseModel):
    id: int
    game_id: str
    ruleset: str
    state: CaseState
    resolution: str | None
    assignee: str | None
    report_count: int
    severity: str | None = Field(description="The worst severity of the hand's findings")
    finding_codes: list[str]
    created_at: datetime
    updated_at: datetime
    links: dict[str, str]


class CaseOut(CaseSummary):
    reporters: list[str]
    accused: list[str]
    next_states: list[CaseState]
    reports: list[ReportOut]
    evidence: list[EvidenceOut]
    trail: list[TrailOut]
    findings: list[dict[str, Any]]


class FiledOut(BaseModel):
    report: ReportOut
    merged: bool = Field(description="True when the hand already had a case")
    case: CaseSummary


class CasePage(BaseModel):
    items: list[CaseSummary]
    limit: int
    offset: int


class TransitionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: CaseState
    note: Note = Field(min_length=1, max_length=4000)
    assignee: Text | None = Field(
        default=None, max_length=64, description="Operator username (needed for under_review)"
    )
    from_state: CaseState | None = Field(
        default=None, description="Refuse (409) unless the case is in this state now"
    )


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=-1, le=MAX_INT32, description="Event index (-1: the deal)")
    comment: Note = Field(min_length=1, max_length=4000)
