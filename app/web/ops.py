"""The operator console: sign-in, the case queue, a case beside its replay."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..cases.player_cases import list_player_cases, open_player_cases
from ..cases.repository import CaseFilter, CaseRepository
from ..cases.schemas import SEVERITY_NAMES
from ..cases.service import Actor, get_case, pin_evidence, queue, transition
from ..database import transaction
from ..dependencies import ReadSession, WriteSession, hash_limiter, tarpit_limiter
from ..errors import AppError, InvalidRequest
from ..models.case import STATE_LABELS, CaseState, ReportReason
from ..models.operator import Operator
from ..operators.repository import OperatorRepository
from ..operators.sign_in import Refusal, Refused, sign_in
from .errors import PageError
from .pages import landing, load_hand, parse_step, replay_context
from .replay import PROFILES
from .security import check_csrf, require_operator, safe_next
from .session import (
    client_address,
    end_session,
    load_session,
    save_session,
    settings_of,
    start_session,
)
from .templating import game_url, render

router = APIRouter(prefix="/ops", include_in_schema=False)

SignedIn = Annotated[Operator, Depends(require_operator)]
SORTS = {
    "updated": "latest activity",
    "reports": "most reports",
    "severity": "worst findings",
    "oldest": "oldest activity",
}


def _redirect(request: Request, url: str) -> Response:
    response = RedirectResponse(url, status_code=303)
    save_session(request, response)
    return response


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, next: str | None = None) -> Response:
    if load_session(request).operator is not None:
        return _redirect(request, safe_next(next))
    return render(
        request, "ops/sign_in.html", {"next": safe_next(next), "error": None, "username": ""}
    )


@router.post("/sign-in", response_class=HTMLResponse)
async def sign_in_post(
    request: Request,
    username: Annotated[str, Form(max_length=64)] = "",
    password: Annotated[str, Form(max_length=1024)] = "",
    csrf_token: Annotated[str, Form(max_length=200)] = "",
    next: Annotated[str, Form(max_length=2000)] = "/ops",
) -> Response:
    """No transaction is open while the password is hashed (see ``operators.sign_in``)."""
    await run_in_threadpool(check_csrf, request, csrf_token)
    outcome = (
        await sign_in(
            request.app.state.db,
            settings_of(request),
            *hash_limiter(request.app),
            username,
            password,
            client_address(request),
        )
        if username and password and "\x00" not in username
        else Refused(Refusal.WRONG)
    )
    if isinstance(outcome, Refused):
        locked = outcome.retry_after is not None
        if outcome.reason is Refusal.LOCKED:
            await _tarpit(request)
        message = (
            f"Too many failed sign-ins. Try again in {outcome.retry_after} seconds."
            if locked
            else "Wrong username or password."
        )
        response = await run_in_threadpool(
            render,
            request,
            "ops/sign_in.html",
            {"next": safe_next(next), "error": message, "username": username},
            429 if locked else 401,
        )
        if locked:
            response.headers["Retry-After"] = str(outcome.retry_after)
        return response
    operator = await run_in_threadpool(_operator, request, outcome.operator_id)
    start_session(request, operator, outcome.session)
    return _redirect(request, safe_next(next))


async def _tarpit(request: Request) -> None:
    """Slow a locked-out attacker's loop down at no cost to the server (see Settings)."""
    seconds = settings_of(request).sign_in_tarpit_seconds
    limiter = tarpit_limiter(request.app)
    if seconds <= 0 or settings_of(request).sign_in_tarpit_slots == 0:
        return
    try:
        limiter.acquire_nowait()
    except anyio.WouldBlock:
        return  # too many waiting already: answer at once
    try:
        await anyio.sleep(seconds)
    finally:
        limiter.release()


def _operator(request: Request, operator_id: int) -> Operator:
    with transaction(request.app.state.db.read) as session:
        operator = OperatorRepository(session).by_id(operator_id)
        assert operator is not None
        session.expunge(operator)
        return operator


@router.post("/sign-out")
def sign_out(request: Request, csrf_token: Annotated[str, Form(max_length=200)] = "") -> Response:
    check_csrf(request, csrf_token)
    end_session(request)
    return _redirect(request, "/")


@router.get("", response_class=HTMLResponse)
def queue_page(
    request: Request,
    operator: SignedIn,
    session: ReadSession,
    state: str | None = None,
    code: Annotated[str | None, Query(max_length=40)] = None,
    ruleset: Annotated[str | None, Query(max_length=32)] = None,
    player: Annotated[str | None, Query(max_length=128)] = None,
    sort: str = "updated",
    mine: str | None = None,
) -> Response:
    states = tuple(s.value for s in CaseState) if state == "all" else None
    if state and state != "all":
        states = (state,) if state in {s.value for s in CaseState} else ()
    if states is None:  # default: everything not closed
        states = tuple(s.value for s in CaseState if s is not CaseState.CLOSED)
    sort = sort if sort in SORTS else "updated"
    rows = queue(
        session,
        CaseFilter(
            states=states,
            code=code or None,
            ruleset=ruleset or None,
            player_id=player or None,
            assignee_id=operator.id if mine else None,
        ),
        sort,
        limit=200,
    )
    repo = CaseRepository(session)
    player_cases = [] if code or ruleset or mine else list_player_cases(session, states)
    if player:
        player_cases = [p for p in player_cases if p.player_id == player]
    names = OperatorRepository(session).names_by_id(
        {r.case.assignee_id for r in rows if r.case.assignee_id is not None}
        | {p.assignee_id for p in player_cases if p.assignee_id is not None}
    )
    return render(
        request,
        "ops/queue.html",
        {
            "rows": rows,
            "player_cases": player_cases,
            "grouped": repo.grouped_counts(p.id for p in player_cases),
            "names": names,
            "filters": {
                "state": state or "",
                "code": code or "",
                "ruleset": ruleset or "",
                "player": player or "",
                "sort": sort,
                "mine": bool(mine),
            },
            "states": list(CaseState),
            "state_labels": STATE_LABELS,
            "codes": repo.known_codes(),
            "rulesets": sorted(set(repo.known_rulesets()) | set(PROFILES)),
            "sorts": SORTS,
            "severity_names": SEVERITY_NAMES,
        },
    )


def _case_page(
    request: Request,
    session: Any,
    case_id: int,
    step: int | None,
    *,
    error: str | None = None,
    status_code: int = 200,
    form: dict[str, str] | None = None,
) -> Response:
    detail = get_case(session, case_id)
    hand = load_hand(session, detail.case.game_id)
    n = landing(hand, step)
    ctx = replay_context(request, hand, n, None, f"/ops/cases/{case_id}")
    ctx["full_view"] = True
    ctx.update(
        detail=detail,
        state_labels=STATE_LABELS,
        severity_names=SEVERITY_NAMES,
        reasons={r.value: r.value.replace("_", " ") for r in ReportReason},
        operators=OperatorRepository(session).active(),
        error=error,
        form=form or {},
        replay_url=game_url(hand.game_id, step=n),
        group_targets=open_player_cases(session, detail.accused),
    )
    return render(request, "ops/case.html", ctx, status_code=status_code)


@router.get("/cases/{case_id}", response_class=HTMLResponse)
def case_page(
    request: Request,
    case_id: int,
    operator: SignedIn,
    session: ReadSession,
    step: str | None = None,
) -> Response:
    try:
        return _case_page(request, session, case_id, parse_step(step))
    except AppError as exc:
        if exc.status_code == 404:
            raise PageError(404, "No such case", exc.message) from None
        raise


@router.post("/cases/{case_id}/transition", response_class=HTMLResponse)
def case_transition(
    request: Request,
    case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Annotated[str, Form(max_length=200)] = "",
    to: Annotated[str, Form(max_length=20)] = "",
    note: Annotated[str, Form(max_length=4000)] = "",
    assignee: Annotated[str, Form(max_length=64)] = "",
    from_state: Annotated[str, Form(max_length=20)] = "",
    step: Annotated[str, Form(max_length=12)] = "",
) -> Response:
    check_csrf(request, csrf_token)
    try:
        transition(
            session,
            case_id,
            to,
            note,
            Actor.operator(operator),
            assignee=assignee or None,
            expected_state=from_state or None,
        )
    except AppError as exc:
        session.rollback()
        return _case_page(
            request,
            session,
            case_id,
            parse_step(step),
            error=exc.message,
            status_code=exc.status_code,
            form={"note": note},
        )
    suffix = f"?step={parse_step(step)}" if parse_step(step) is not None else ""
    return _redirect(request, f"/ops/cases/{case_id}{suffix}")


@router.post("/cases/{case_id}/evidence", response_class=HTMLResponse)
def case_evidence(
    request: Request,
    case_id: int,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Annotated[str, Form(max_length=200)] = "",
    step: Annotated[str, Form(max_length=12)] = "",
    comment: Annotated[str, Form(max_length=4000)] = "",
) -> Response:
    check_csrf(request, csrf_token)
    n = parse_step(step)
    try:
        if n is None:
            raise InvalidRequest("the step is an event index (-1 for the deal)")
        pin_evidence(session, case_id, n, comment, Actor.operator(operator))
    except AppError as exc:
        session.rollback()
        return _case_page(
            request,
            session,
            case_id,
            n,
            error=exc.message,
            status_code=exc.status_code,
            form={"comment": comment},
        )
    return _redirect(request, f"/ops/cases/{case_id}?step={n}")
