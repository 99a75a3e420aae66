"""Player cases: one player's conduct over several hands. Hand cases are grouped into
one (each hand case into at most one); it moves through the same states as a hand case,
with its own append-only trail. Never commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from ..errors import Conflict, NotFound
from ..models import LogPlayer
from ..models.case import TRANSITIONS, Case, CaseAction, CaseEvent, CaseReport, CaseState
from ..models.player_case import PlayerCase, PlayerCaseEvent
from ..models.types import utcnow
from ..operators.repository import OperatorRepository
from .moves import Actor, clean_note, move, target_state, trail_fields


@dataclass(frozen=True, slots=True)
class PlayerCaseDetail:
    case: PlayerCase
    assignee: str | None
    hand_cases: Sequence[Case]
    trail: Sequence[PlayerCaseEvent]

    @property
    def next_states(self) -> tuple[CaseState, ...]:
        return TRANSITIONS[CaseState(self.case.state)]


@dataclass(frozen=True, slots=True)
class History:
    """A player's cases: the player cases about them and the hand cases accusing them."""

    player_id: str
    player_cases: Sequence[PlayerCase]
    hand_cases: Sequence[Case]


def _trail(session: Session, pc: PlayerCase, fields: dict[str, Any]) -> PlayerCaseEvent:
    event = PlayerCaseEvent(player_case_id=pc.id, **fields)
    session.add(event)
    session.flush()
    return event


Row = TypeVar("Row", Case, PlayerCase)


def _locked(session: Session, model: type[Row], row_id: int, what: str) -> Row:
    """The row, locked for this transaction (PostgreSQL; SQLite holds its write lock)."""
    stmt = (
        select(model)
        .where(model.id == row_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    found = session.scalars(stmt).first()
    if found is None:
        raise NotFound(f"no {what} {row_id}")
    return found


def _lock(session: Session, player_case_id: int) -> PlayerCase:
    return _locked(session, PlayerCase, player_case_id, "player case")


def _played(session: Session, case: Case, player_id: str) -> bool:
    return bool(
        session.scalar(
            select(
                exists().where(LogPlayer.log_id == case.log_id, LogPlayer.player_id == player_id)
            )
        )
    )


def _group(session: Session, pc: PlayerCase, case_id: int, note: str, actor: Actor) -> None:
    case = _locked(session, Case, case_id, "case")
    if case.player_case_id == pc.id:
        raise Conflict(f"case {case_id} is already in player case {pc.id}")
    if case.player_case_id is not None:
        raise Conflict(
            f"case {case_id} is already in player case {case.player_case_id}",
            extra={"player_case": case.player_case_id},
        )
    if not _played(session, case, pc.player_id):
        raise Conflict(f"player {pc.player_id!r} did not play the hand of case {case_id}")
    now = utcnow()
    case.player_case_id = pc.id
    case.updated_at = now
    pc.updated_at = now
    on_case = {"player_case": pc.id, "player": pc.player_id}
    session.add(
        CaseEvent(
            case_id=case.id, **trail_fields(actor, CaseAction.GROUPED, note=note, data=on_case)
        )
    )
    on_pc = {"case": case.id, "game_id": case.game_id}
    _trail(session, pc, trail_fields(actor, CaseAction.GROUPED, note=note, data=on_pc))


def open_player_case(
    session: Session, player_id: str, case_ids: Sequence[int], note: str, actor: Actor
) -> PlayerCase:
    """A new player case about ``player_id``, grouping the given hand cases."""
    note = clean_note(note, required=True)
    player_id = player_id.strip()
    if (
        not player_id
        or session.scalar(select(LogPlayer.log_id).where(LogPlayer.player_id == player_id).limit(1))
        is None
    ):
        raise NotFound(f"no hand of player {player_id!r} is stored")
    now = utcnow()
    pc = PlayerCase(player_id=player_id, state=CaseState.OPEN.value, created_at=now, updated_at=now)
    session.add(pc)
    session.flush()
    opened = trail_fields(actor, CaseAction.OPENED, note=note, to_state=CaseState.OPEN.value)
    _trail(session, pc, opened)
    for case_id in dict.fromkeys(case_ids):
        _group(session, pc, case_id, note, actor)
    session.flush()
    return pc


def group_case(
    session: Session, player_case_id: int, case_id: int, note: str, actor: Actor
) -> PlayerCase:
    """Merge a hand case into a player case."""
    note = clean_note(note, required=True)
    pc = _lock(session, player_case_id)
    if pc.state == CaseState.CLOSED:
        raise Conflict(f"player case {pc.id} is closed: reopen it first", extra={"state": pc.state})
    _group(session, pc, case_id, note, actor)
    session.flush()
    return pc


def player_transition(
    session: Session,
    player_case_id: int,
    to: str,
    note: str,
    actor: Actor,
    *,
    assignee: str | None = None,
    expected_state: str | None = None,
) -> PlayerCase:
    target = target_state(to)
    note = clean_note(note, required=True)
    pc = _lock(session, player_case_id)
    done = move(session, pc, target, actor, assignee=assignee, expected_state=expected_state)
    _trail(session, pc, done.trail(actor, note))
    return pc


def player_note(session: Session, player_case_id: int, note: str, actor: Actor) -> PlayerCaseEvent:
    note = clean_note(note, required=True)
    pc = _lock(session, player_case_id)
    pc.updated_at = utcnow()
    return _trail(session, pc, trail_fields(actor, CaseAction.NOTE_ADDED, note=note))


def get_player_case(session: Session, player_case_id: int) -> PlayerCaseDetail:
    pc = session.get(PlayerCase, player_case_id, populate_existing=True)
    if pc is None:
        raise NotFound(f"no player case {player_case_id}")
    assignee = None
    if pc.assignee_id is not None:
        assignee = OperatorRepository(session).names_by_id({pc.assignee_id}).get(pc.assignee_id)
    hand_cases = session.scalars(
        select(Case).where(Case.player_case_id == pc.id).order_by(Case.id)
    ).all()
    trail = session.scalars(
        select(PlayerCaseEvent)
        .where(PlayerCaseEvent.player_case_id == pc.id)
        .order_by(PlayerCaseEvent.id)
    ).all()
    return PlayerCaseDetail(pc, assignee, hand_cases, trail)


def history(session: Session, player_id: str) -> History:
    """Newest first: the player cases about ``player_id`` and the hand cases whose reports
    accuse them or that are grouped into one of those player cases."""
    player_cases = session.scalars(
        select(PlayerCase)
        .where(PlayerCase.player_id == player_id)
        .order_by(PlayerCase.updated_at.desc(), PlayerCase.id.desc())
    ).all()
    accused = select(CaseReport.case_id).where(CaseReport.accused_player_id == player_id)
    grouped = select(PlayerCase.id).where(PlayerCase.player_id == player_id)
    hand_cases = session.scalars(
        select(Case)
        .where(Case.id.in_(accused) | Case.player_case_id.in_(grouped))
        .order_by(Case.updated_at.desc(), Case.id.desc())
    ).all()
    return History(player_id, player_cases, hand_cases)


def open_player_cases(session: Session, player_ids: Sequence[str]) -> Sequence[PlayerCase]:
    """The player cases about these players that still take hand cases (not closed)."""
    if not player_ids:
        return []
    return session.scalars(
        select(PlayerCase)
        .where(PlayerCase.player_id.in_(list(player_ids)), PlayerCase.state != CaseState.CLOSED)
        .order_by(PlayerCase.player_id, PlayerCase.id)
    ).all()


def list_player_cases(
    session: Session, states: Sequence[str], limit: int = 200
) -> Sequence[PlayerCase]:
    """Player cases in these states, newest activity first."""
    return session.scalars(
        select(PlayerCase)
        .where(PlayerCase.state.in_(list(states)))
        .order_by(PlayerCase.updated_at.desc(), PlayerCase.id.desc())
        .limit(limit)
    ).all()
