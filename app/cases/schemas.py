from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from ..bounds import MAX_INT32, MAX_JSON_INT, Note, Text
from ..models.case import CaseState, ReportReason
from .service import FileOutcome

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
    report_count: int = Field(
        description="Distinct reporters: one reporter counts once per hand (the `reports` sort)"
    )
    reports_filed: int = Field(description="Every report filed, repeats included")
    reopen_count: int = Field(description="Times the case went from closed back to open")
    player_case: int | None = Field(description="The player case it is grouped into")
    accused: list[str] = Field(description="The players its reports accuse")
    reasons: list[str] = Field(description="The reasons its reports give")
    severity: str | None = Field(description="The worst severity of the hand's findings")
    finding_codes: list[str]
    created_at: datetime
    updated_at: datetime
    links: dict[str, str]


class CaseOut(CaseSummary):
    reporters: list[str]
    next_states: list[CaseState]
    reports: list[ReportOut]
    evidence: list[EvidenceOut]
    trail: list[TrailOut]
    findings: list[dict[str, Any]]


class FiledOut(BaseModel):
    report: ReportOut
    outcome: FileOutcome = Field(
        description="`opened`: the hand's first report opened its case; `merged`: it joined "
        "the open case; `reopened`: the case was closed and this report reopened it"
    )
    merged: bool = Field(description="True when the hand already had a case")
    counted: bool = Field(
        description="False when this reporter had already reported this hand: the report "
        "is kept but `report_count` does not grow"
    )
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


class NoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: Note = Field(min_length=1, max_length=4000)


HandCaseId = Annotated[int, Field(ge=1, le=MAX_JSON_INT)]


class PlayerCaseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player_id: Text = Field(min_length=1, max_length=128, description="The player it is about")
    cases: list[HandCaseId] = Field(
        default_factory=list, max_length=500, description="Hand cases to group into it"
    )
    note: Note = Field(min_length=1, max_length=4000, description="Why it is opened")


class GroupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    case_id: HandCaseId = Field(description="A hand case of a hand the player played")
    note: Note = Field(min_length=1, max_length=4000)


class PlayerCaseSummary(BaseModel):
    id: int
    player_id: str
    state: CaseState
    resolution: str | None
    assignee: str | None
    hand_case_count: int
    created_at: datetime
    updated_at: datetime
    links: dict[str, str]


class PlayerCaseOut(PlayerCaseSummary):
    next_states: list[CaseState]
    hand_cases: list[CaseSummary]
    trail: list[TrailOut]


class HistoryOut(BaseModel):
    player_id: str
    player_cases: list[PlayerCaseSummary]
    hand_cases: list[CaseSummary] = Field(
        description="Hand cases whose reports accuse the player or grouped into their cases"
    )


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=-1, le=MAX_INT32, description="Event index (-1: the deal)")
    comment: Note = Field(min_length=1, max_length=4000)
