"""The state machine shared by hand cases and player cases: who acts, notes, one move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..errors import Conflict, InvalidRequest
from ..models.case import TRANSITIONS, Case, CaseAction, CaseState
from ..models.operator import Operator
from ..models.player_case import PlayerCase
from ..models.types import utcnow
from ..operators.repository import OperatorRepository

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
class Move:
    """What one move did, for the trail."""

    action: CaseAction
    from_state: CaseState
    to_state: CaseState
    data: dict[str, Any]

    def trail(self, actor: Actor, note: str) -> dict[str, Any]:
        return trail_fields(
            actor,
            self.action,
            note=note,
            from_state=self.from_state.value,
            to_state=self.to_state.value,
            data=self.data,
        )


def trail_fields(
    actor: Actor,
    action: CaseAction,
    *,
    note: str = "",
    from_state: str | None = None,
    to_state: str | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The columns of one trail line (``TrailLine``), for either trail."""
    return {
        "at": utcnow(),
        "actor": actor.label[:200],
        "operator_id": actor.operator_id,
        "api_key_id": actor.api_key_id,
        "action": str(action),
        "from_state": from_state,
        "to_state": to_state,
        "note": note,
        "data": data or {},
    }


def clean_note(note: str, *, required: bool, pointer: str = "/note") -> str:
    note = (note or "").strip()
    if required and not note:
        raise InvalidRequest(
            "every change of a case takes a note",
            problems=[{"pointer": pointer, "expected": "a non-empty note"}],
        )
    if len(note) > MAX_NOTE:
        raise InvalidRequest(
            f"a note has at most {MAX_NOTE} characters",
            problems=[{"pointer": pointer, "expected": f"at most {MAX_NOTE} characters"}],
        )
    return note


def target_state(to: str) -> CaseState:
    try:
        return CaseState(to)
    except ValueError:
        raise InvalidRequest(
            f"unknown state {to!r}",
            problems=[{"pointer": "/to", "expected": ", ".join(s.value for s in CaseState)}],
        ) from None


def move(
    session: Session,
    subject: Case | PlayerCase,
    target: CaseState,
    actor: Actor,
    *,
    assignee: str | None = None,
    expected_state: str | None = None,
) -> Move:
    """Move ``subject`` one step (or reopen it); raise 409 for any other move."""
    kind = "case" if isinstance(subject, Case) else "player case"
    current = CaseState(subject.state)
    if expected_state is not None and expected_state != current:
        raise Conflict(
            f"{kind} {subject.id} is {current.value} now, not {expected_state}: reload it",
            extra={"state": current.value},
        )
    if target not in TRANSITIONS[current]:
        allowed = ", ".join(s.value for s in TRANSITIONS[current])
        raise Conflict(
            f"a {kind} that is {current.value} cannot become {target.value}; next: {allowed}",
            extra={"state": current.value},
        )
    data: dict[str, Any] = {}
    action = CaseAction.STATE_CHANGED
    if target is CaseState.UNDER_REVIEW:
        ops = OperatorRepository(session)
        operator = None
        if assignee:
            operator = ops.by_username(assignee.strip().lower())
        elif actor.operator_id is not None:
            operator = ops.by_id(actor.operator_id)
        if operator is None or not operator.active:
            raise InvalidRequest(
                f"a {kind} under review is assigned to an active operator",
                problems=[{"pointer": "/assignee", "expected": "an operator's username"}],
            )
        subject.assignee_id = operator.id
        data["assignee"] = operator.username
    if target in (CaseState.UPHELD, CaseState.DISMISSED):
        subject.resolution = target.value
    if current is CaseState.CLOSED and target is CaseState.OPEN:
        action = CaseAction.REOPENED
        data["previous_resolution"] = subject.resolution
        subject.resolution = None
        if isinstance(subject, Case):
            subject.reopen_count += 1
    subject.state = target.value
    subject.updated_at = utcnow()
    return Move(action, current, target, data)
