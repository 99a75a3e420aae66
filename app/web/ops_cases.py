"""The console's case workflow beyond one move: notes, reopening (a move), grouping hand
cases into player cases, and the player case page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from ..cases.player_cases import (
    get_player_case,
    group_case,
    history,
    open_player_case,
    player_note,
    player_transition,
)
from ..cases.repository import CaseFilter, CaseRepository
from ..cases.schemas import SEVERITY_NAMES
from ..cases.service import Actor, add_note
from ..dependencies import ReadSession, WriteSession
from ..errors import AppError, InvalidRequest
from ..models.case import STATE_LABELS
from ..models.operator import Operator
from ..operators.repository import OperatorRepository
from .errors import PageError
from .ops import _case_page, _redirect
from .pages import parse_step
from .security import check_csrf, require_operator
from .templating import render

router = APIRouter(prefix="/ops", include_in_schema=False)

SignedIn = Annotated[Operator, Depends(require_operator)]
Csrf = Annotated[str, Form(max_length=200)]
Note = Annotated[str, Form(max_length=4000)]


def _attempt(
    request: Request, session: Session, act: Callable[[], str], fail: Callable[[AppError], Response]
) -> Response:
    """Run ``act`` (it returns where to go next); on a refusal roll back and show ``fail``."""
    try:
        url = act()
    except AppError as exc:
        session.rollback()
        return fail(exc)
    return _redirect(request, url)


def _case_error(
    request: Request, session: Session, case_id: int, step: str, field: str, text: str
) -> Callable[[AppError], Response]:
    def fail(exc: AppError) -> Response:
        return _case_page(
            request,
            session,
            case_id,
            parse_step(step),
            error=exc.message,
            status_code=exc.status_code,
            form={field: text},
        )

    return fail


def _player_case_error(
    request: Request, session: Session, player_case_id: int, field: str, text: str
) -> Callable[[AppError], Response]:
    def fail(exc: AppError) -> Response:
        return _player_case_page(
            request,
            session,
            player_case_id,
            error=exc.message,
            status_code=exc.status_code,
            form={field: text},
        )

    return fail


def _back(case_id: int, step: str) -> str:
    n = parse_step(step)
    return f"/ops/cases/{case_id}" + (f"?step={n}" if n is not None else "")


@router.post("/cases/{case_id}/note", response_class=HTMLResponse)
def case_note(
    request: Request,
    case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Csrf = "",
    note: Note = "",
    step: Annotated[str, Form(max_length=12)] = "",
) -> Response:
    check_csrf(request, csrf_token)

    def act() -> str:
        add_note(session, case_id, note, Actor.operator(operator))
        return _back(case_id, step)

    return _attempt(
        request, session, act, _case_error(request, session, case_id, step, "case_note", note)
    )


@router.post("/cases/{case_id}/group", response_class=HTMLResponse)
def case_group(
    request: Request,
    case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Csrf = "",
    target: Annotated[str, Form(max_length=140)] = "",
    note: Note = "",
    step: Annotated[str, Form(max_length=12)] = "",
) -> Response:
    """``target`` is ``new:<player id>`` (open a player case) or a player case id."""
    check_csrf(request, csrf_token)
    actor = Actor.operator(operator)

    def act() -> str:
        if target.startswith("new:"):
            pc = open_player_case(session, target[4:], [case_id], note, actor)
        elif target.isdigit():
            pc = group_case(session, int(target), case_id, note, actor)
        else:
            raise InvalidRequest("choose a player case, or a player to open one about")
        return f"/ops/player-cases/{pc.id}"

    return _attempt(
        request, session, act, _case_error(request, session, case_id, step, "group_note", note)
    )


def _player_case_page(
    request: Request,
    session: Session,
    player_case_id: int,
    *,
    error: str | None = None,
    status_code: int = 200,
    form: dict[str, str] | None = None,
) -> Response:
    try:
        detail = get_player_case(session, player_case_id)
    except AppError as exc:
        if exc.status_code == 404:
            raise PageError(404, "No such player case", exc.message) from None
        raise
    repo = CaseRepository(session)
    ids = [c.id for c in detail.hand_cases]
    rows = repo.queue(CaseFilter(ids=ids), "updated", max(len(ids), 1), 0) if ids else []
    past = history(session, detail.case.player_id)
    grouped = set(ids)
    candidates = [c for c in past.hand_cases if c.player_case_id is None]
    ctx: dict[str, Any] = {
        "pc": detail.case,
        "detail": detail,
        "rows": rows,
        "names": OperatorRepository(session).names_by_id(
            {r.case.assignee_id for r in rows if r.case.assignee_id is not None}
        ),
        "others": [p for p in past.player_cases if p.id != detail.case.id],
        "other_hand_cases": [c for c in past.hand_cases if c.id not in grouped],
        "candidates": candidates,
        "state_labels": STATE_LABELS,
        "severity_names": SEVERITY_NAMES,
        "operators": OperatorRepository(session).active(),
        "error": error,
        "form": form or {},
    }
    return render(request, "ops/player_case.html", ctx, status_code=status_code)


@router.get("/player-cases/{player_case_id}", response_class=HTMLResponse)
def player_case_page(
    request: Request, player_case_id: int, operator: SignedIn, session: ReadSession
) -> Response:
    return _player_case_page(request, session, player_case_id)


@router.post("/player-cases/{player_case_id}/transition", response_class=HTMLResponse)
def player_case_transition(
    request: Request,
    player_case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Csrf = "",
    to: Annotated[str, Form(max_length=20)] = "",
    note: Note = "",
    assignee: Annotated[str, Form(max_length=64)] = "",
    from_state: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    check_csrf(request, csrf_token)

    def act() -> str:
        player_transition(
            session,
            player_case_id,
            to,
            note,
            Actor.operator(operator),
            assignee=assignee or None,
            expected_state=from_state or None,
        )
        return f"/ops/player-cases/{player_case_id}"

    fail = _player_case_error(request, session, player_case_id, "note", note)
    return _attempt(request, session, act, fail)


@router.post("/player-cases/{player_case_id}/note", response_class=HTMLResponse)
def player_case_note(
    request: Request,
    player_case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Csrf = "",
    note: Note = "",
) -> Response:
    check_csrf(request, csrf_token)

    def act() -> str:
        player_note(session, player_case_id, note, Actor.operator(operator))
        return f"/ops/player-cases/{player_case_id}"

    fail = _player_case_error(request, session, player_case_id, "case_note", note)
    return _attempt(request, session, act, fail)


@router.post("/player-cases/{player_case_id}/group", response_class=HTMLResponse)
def player_case_group(
    request: Request,
    player_case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Csrf = "",
    case_id: Annotated[str, Form(max_length=20)] = "",
    note: Note = "",
) -> Response:
    check_csrf(request, csrf_token)

    def act() -> str:
        if not case_id.isdigit():
            raise InvalidRequest("choose a hand case to merge")
        group_case(session, player_case_id, int(case_id), note, Actor.operator(operator))
        return f"/ops/player-cases/{player_case_id}"

    fail = _player_case_error(request, session, player_case_id, "group_note", note)
    return _attempt(request, session, act, fail)
