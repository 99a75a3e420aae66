"""Reports, cases and their life: file, merge, move, pin evidence. Never commits.

Every change to a case writes one line of its trail (``case_events``) in the same
transaction: who (an operator or an API key), when, what, and the note given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from ..errors import Conflict, InvalidRequest, NotFound
from ..games.repository import GameRepository
from ..models import FindingRow, HandLog
from ..models.case import (
    TRANSITIONS,
    Case,
    CaseAction,
    CaseEvent,
    CaseEvidence,
    CaseReport,
    CaseState,
    ReportReason,
)
from ..models.player_case import PlayerCase
from ..models.types import utcnow
from ..operators.repository import OperatorRepository
from .moves import Actor, clean_note, move, target_state, trail_fields
from .repository import CaseFilter, CaseRepository, QueueRow

__all__ = ["Actor", "FileOutcome", "Filed", "NewReport", "CaseDetail"]


class FileOutcome(StrEnum):
    """What a report did: opened the hand's case, joined its open case, or reopened its
    closed case (a report on a closed case reopens it: the decision stays in the trail)."""

    OPENED = "opened"
    MERGED = "merged"
    REOPENED = "reopened"


@dataclass(frozen=True, slots=True)
class NewReport:
    game_id: str
    reporter: str
    reason: ReportReason
    text: str = ""
    accused_seat: int | None = None
    accused_player: str | None = None
    #: false for a report the service files itself (``reporter`` then names the source,
    #: e.g. the fair-play scan): it need not have played the hand.
    by_player: bool = True


@dataclass(frozen=True, slots=True)
class Filed:
    report: CaseReport
    case: Case
    outcome: FileOutcome
    #: false when this reporter had already reported this hand: it is kept but not counted.
    counted: bool

    @property
    def merged(self) -> bool:
        """True when the hand already had a case and this report joined it."""
        return self.outcome is not FileOutcome.OPENED


@dataclass(frozen=True, slots=True)
class CaseDetail:
    case: Case
    assignee: str | None
    reports: Sequence[CaseReport]
    evidence: Sequence[CaseEvidence]
    trail: Sequence[CaseEvent]
    findings: Sequence[FindingRow]
    severity_rank: int
    log: HandLog
    player_case: PlayerCase | None = None

    @property
    def reporters(self) -> list[str]:
        return sorted({r.reporter_player_id for r in self.reports})

    @property
    def accused(self) -> list[str]:
        return sorted({r.accused_player_id for r in self.reports})

    @property
    def reasons(self) -> list[str]:
        return sorted({r.reason for r in self.reports})

    @property
    def next_states(self) -> tuple[CaseState, ...]:
        return TRANSITIONS[CaseState(self.case.state)]


def _trail(repo: CaseRepository, case: Case, fields: dict[str, Any]) -> CaseEvent:
    event = CaseEvent(case_id=case.id, **fields)
    repo.add(event)
    return event


def file_report(session: Session, new: NewReport, actor: Actor) -> Filed:
    """Store a report; the hand's case is opened by the first one and joined by the rest."""
    log = GameRepository(session).by_game_id(new.game_id)
    if log is None:
        raise NotFound(f"no game with game_id {new.game_id!r}")
    players = {p.seat: p.player_id for p in log.players}
    if new.by_player and new.reporter not in players.values():
        raise InvalidRequest(
            f"reporter {new.reporter!r} did not play in game {new.game_id!r}",
            problems=[{"pointer": "/reporter", "expected": "the player id of one of its seats"}],
        )
    seat = _accused_seat(players, new)
    if players[seat] == new.reporter:
        raise InvalidRequest(
            "a player cannot report themselves",
            problems=[{"pointer": "/accused_seat", "expected": "another seat than the reporter's"}],
        )
    text = clean_note(new.text, required=False)
    repo = CaseRepository(session)
    now = utcnow()
    case, created = repo.open_for_log(log, now)
    counted = not repo.has_reported(case.id, new.reporter)
    outcome = FileOutcome.OPENED if created else FileOutcome.MERGED
    if case.state == CaseState.CLOSED:
        done = move(session, case, CaseState.OPEN, actor)
        outcome = FileOutcome.REOPENED
        _trail(repo, case, done.trail(actor, f"reopened by a new report of {new.reporter}"))
    report = CaseReport(
        case_id=case.id,
        reporter_player_id=new.reporter,
        accused_seat=seat,
        accused_player_id=players[seat],
        reason=str(new.reason),
        text=text,
        api_key_id=actor.api_key_id,
        created_at=now,
    )
    repo.add(report)
    case.reports_filed += 1
    if counted:
        case.report_count += 1
    case.updated_at = now
    if created:
        opened = trail_fields(
            actor,
            CaseAction.OPENED,
            to_state=str(CaseState.OPEN),
            note=f"opened by a report of {new.reporter}",
        )
        _trail(repo, case, opened)
    merged = trail_fields(
        actor,
        CaseAction.REPORT_MERGED,
        note=text,
        data={
            "report_id": report.id,
            "reporter": new.reporter,
            "accused_seat": seat,
            "accused": players[seat],
            "reason": str(new.reason),
            "report_count": case.report_count,
            "counted": counted,
        },
    )
    _trail(repo, case, merged)
    session.flush()
    return Filed(report, case, outcome, counted)


def _accused_seat(players: dict[int, str], new: NewReport) -> int:
    by_player = None
    if new.accused_player is not None:
        seats = [s for s, p in players.items() if p == new.accused_player]
        if not seats:
            raise InvalidRequest(
                f"accused player {new.accused_player!r} did not play in this game",
                problems=[{"pointer": "/accused_player", "expected": "a player of the game"}],
            )
        by_player = seats[0]
    if new.accused_seat is not None:
        if new.accused_seat not in players:
            raise InvalidRequest(
                "accused_seat is 0, 1 or 2",
                problems=[{"pointer": "/accused_seat", "expected": "0, 1 or 2"}],
            )
        if by_player is not None and by_player != new.accused_seat:
            raise InvalidRequest(
                "accused_seat and accused_player name different seats",
                problems=[{"pointer": "/accused_player", "expected": "the accused seat's player"}],
            )
        return new.accused_seat
    if by_player is None:
        raise InvalidRequest(
            "a report names the accused seat or player",
            problems=[{"pointer": "/accused_seat", "expected": "0, 1 or 2 (or accused_player)"}],
        )
    return by_player


def get_case(session: Session, case_id: int) -> CaseDetail:
    repo = CaseRepository(session)
    case = repo.by_id(case_id)
    if case is None:
        raise NotFound(f"no case {case_id}")
    return _detail(session, repo, case)


def _detail(session: Session, repo: CaseRepository, case: Case) -> CaseDetail:
    log = session.get(HandLog, case.log_id)
    assert log is not None
    assignee = None
    if case.assignee_id is not None:
        assignee = OperatorRepository(session).names_by_id({case.assignee_id}).get(case.assignee_id)
    findings = repo.findings_of(case.log_id)
    return CaseDetail(
        case=case,
        assignee=assignee,
        reports=repo.reports(case.id),
        evidence=repo.evidence(case.id),
        trail=repo.trail(case.id),
        findings=findings,
        severity_rank=repo.severity_of(case.log_id),
        log=log,
        player_case=(session.get(PlayerCase, case.player_case_id) if case.player_case_id else None),
    )


def transition(
    session: Session,
    case_id: int,
    to: str,
    note: str,
    actor: Actor,
    *,
    assignee: str | None = None,
    expected_state: str | None = None,
) -> Case:
    """Move a case one step along open -> under review -> upheld|dismissed -> closed, or
    reopen a closed one (the note is the reason)."""
    target = target_state(to)
    note = clean_note(note, required=True)
    repo = CaseRepository(session)
    case = repo.by_id(case_id, lock=True)
    if case is None:
        raise NotFound(f"no case {case_id}")
    done = move(session, case, target, actor, assignee=assignee, expected_state=expected_state)
    _trail(repo, case, done.trail(actor, note))
    session.flush()
    return case


def add_note(session: Session, case_id: int, note: str, actor: Actor) -> CaseEvent:
    """A note on the trail, no change of state (closed cases take notes too)."""
    note = clean_note(note, required=True)
    repo = CaseRepository(session)
    case = repo.by_id(case_id, lock=True)
    if case is None:
        raise NotFound(f"no case {case_id}")
    case.updated_at = utcnow()
    event = _trail(repo, case, trail_fields(actor, CaseAction.NOTE_ADDED, note=note))
    session.flush()
    return event


def pin_evidence(
    session: Session, case_id: int, step: int, comment: str, actor: Actor
) -> CaseEvidence:
    comment = clean_note(comment, required=True)
    repo = CaseRepository(session)
    case = repo.by_id(case_id, lock=True)
    if case is None:
        raise NotFound(f"no case {case_id}")
    if case.state == CaseState.CLOSED:
        raise Conflict(f"case {case_id} is closed", extra={"state": case.state})
    log = session.get(HandLog, case.log_id)
    assert log is not None
    last = event_count(log) - 1
    if not -1 <= step <= last:
        raise InvalidRequest(
            f"step is an event index of the hand: -1 (the deal) to {last}",
            problems=[{"pointer": "/step", "expected": f"an integer from -1 to {last}"}],
        )
    now = utcnow()
    pin = CaseEvidence(
        case_id=case.id, step=step, comment=comment, actor=actor.label[:200], created_at=now
    )
    repo.add(pin)
    case.updated_at = now
    data = {"evidence_id": pin.id, "step": step}
    _trail(repo, case, trail_fields(actor, CaseAction.EVIDENCE_PINNED, note=comment, data=data))
    session.flush()
    return pin


def event_count(log: HandLog) -> int:
    try:
        events = json.loads(log.raw).get("events")
    except ValueError:
        return 0
    return len(events) if isinstance(events, list) else 0


def queue(
    session: Session, f: CaseFilter, sort: str = "updated", limit: int = 50, offset: int = 0
) -> list[QueueRow]:
    return CaseRepository(session).queue(f, sort, limit, offset)
