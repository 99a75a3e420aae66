"""Reports, cases and their life: file, merge, move, pin evidence. Never commits.

Every change to a case writes one line of its trail (``case_events``) in the same
transaction: who (an operator or an API key), when, what, and the note given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
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
from ..models.operator import Operator
from ..models.types import utcnow
from ..operators.repository import OperatorRepository
from .repository import CaseFilter, CaseRepository, QueueRow

MAX_NOTE = 4000


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts on a case: an operator (console) or an API key (pipelines)."""

    label: str
    operator_id: int | None = None
    api_key_id: int | None = None

    @classmethod
    def operator(cls, op: Operator) -> Actor:
        return cls(f"operator:{op.username}", operator_id=op.id)

    @classmethod
    def api_key(cls, key_id: int, name: str) -> Actor:
        return cls(f"api-key:{name}", api_key_id=key_id)


@dataclass(frozen=True, slots=True)
class NewReport:
    game_id: str
    reporter: str
    reason: ReportReason
    text: str = ""
    accused_seat: int | None = None
    accused_player: str | None = None


@dataclass(frozen=True, slots=True)
class Filed:
    report: CaseReport
    case: Case
    #: true when the hand already had a case and this report joined it.
    merged: bool


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

    @property
    def reporters(self) -> list[str]:
        return sorted({r.reporter_player_id for r in self.reports})

    @property
    def accused(self) -> list[str]:
        return sorted({r.accused_player_id for r in self.reports})

    @property
    def next_states(self) -> tuple[CaseState, ...]:
        return TRANSITIONS[CaseState(self.case.state)]


def _trail(
    repo: CaseRepository,
    case: Case,
    actor: Actor,
    action: CaseAction,
    *,
    note: str = "",
    from_state: str | None = None,
    to_state: str | None = None,
    data: dict[str, Any] | None = None,
) -> CaseEvent:
    event = CaseEvent(
        case_id=case.id,
        at=utcnow(),
        actor=actor.label[:200],
        operator_id=actor.operator_id,
        api_key_id=actor.api_key_id,
        action=str(action),
        from_state=from_state,
        to_state=to_state,
        note=note,
        data=data or {},
    )
    repo.add(event)
    return event


def _clean_note(note: str, *, required: bool) -> str:
    note = (note or "").strip()
    if required and not note:
        raise InvalidRequest(
            "every change of a case takes a note",
            problems=[{"pointer": "/note", "expected": "a non-empty note"}],
        )
    if len(note) > MAX_NOTE:
        raise InvalidRequest(
            f"a note has at most {MAX_NOTE} characters",
            problems=[{"pointer": "/note", "expected": f"at most {MAX_NOTE} characters"}],
        )
    return note


def file_report(session: Session, new: NewReport, actor: Actor) -> Filed:
    """Store a report; the hand's case is opened by the first one and joined by the rest."""
    log = GameRepository(session).by_game_id(new.game_id)
    if log is None:
        raise NotFound(f"no game with game_id {new.game_id!r}")
    players = {p.seat: p.player_id for p in log.players}
    if new.reporter not in players.values():
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
    text = _clean_note(new.text, required=False)
    repo = CaseRepository(session)
    now = utcnow()
    case, created = repo.open_for_log(log, now)
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
    case.report_count += 1
    case.updated_at = now
    if created:
        _trail(
            repo,
            case,
            actor,
            CaseAction.OPENED,
            to_state=str(CaseState.OPEN),
            note=f"opened by a report of {new.reporter}",
        )
    _trail(
        repo,
        case,
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
        },
    )
    session.flush()
    return Filed(report, case, merged=not created)


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
    """Move a case one step along open -> under review -> upheld|dismissed -> closed."""
    try:
        target = CaseState(to)
    except ValueError:
        raise InvalidRequest(
            f"unknown state {to!r}",
            problems=[{"pointer": "/to", "expected": ", ".join(s.value for s in CaseState)}],
        ) from None
    note = _clean_note(note, required=True)
    repo = CaseRepository(session)
    case = repo.by_id(case_id, lock=True)
    if case is None:
        raise NotFound(f"no case {case_id}")
    current = CaseState(case.state)
    if expected_state is not None and expected_state != current:
        raise Conflict(
            f"case {case_id} is {current.value} now, not {expected_state}: reload it",
            extra={"state": current.value},
        )
    if target not in TRANSITIONS[current]:
        allowed = ", ".join(s.value for s in TRANSITIONS[current]) or "none (it is closed)"
        raise Conflict(
            f"a case that is {current.value} cannot become {target.value}; next: {allowed}",
            extra={"state": current.value},
        )
    data: dict[str, Any] = {}
    if target is CaseState.UNDER_REVIEW:
        who = assignee
        operator = None
        ops = OperatorRepository(session)
        if who:
            operator = ops.by_username(who.strip().lower())
        elif actor.operator_id is not None:
            operator = ops.by_id(actor.operator_id)
        if operator is None or not operator.active:
            raise InvalidRequest(
                "a case under review is assigned to an active operator",
                problems=[{"pointer": "/assignee", "expected": "an operator's username"}],
            )
        case.assignee_id = operator.id
        data["assignee"] = operator.username
    if target in (CaseState.UPHELD, CaseState.DISMISSED):
        case.resolution = target.value
    case.state = target.value
    case.updated_at = utcnow()
    _trail(
        repo,
        case,
        actor,
        CaseAction.STATE_CHANGED,
        note=note,
        from_state=current.value,
        to_state=target.value,
        data=data,
    )
    session.flush()
    return case


def pin_evidence(
    session: Session, case_id: int, step: int, comment: str, actor: Actor
) -> CaseEvidence:
    comment = _clean_note(comment, required=True)
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
    _trail(
        repo,
        case,
        actor,
        CaseAction.EVIDENCE_PINNED,
        note=comment,
        data={"evidence_id": pin.id, "step": step},
    )
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
