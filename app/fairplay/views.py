"""The operator console's suspicion queue, and opening a case on a pair or a player.

A case is opened with the existing case service (``app.cases.service``): the hand
carrying the most evidence steps gets a report (reason ``collusion`` for a pair,
``card_peeking`` for a player; the reporter is recorded as the third seat, the one
the suspicion says was wronged, and the text says the fair-play scan filed it),
and every evidence step of that hand is pinned with its note; the other evidence
hands are listed in the report.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from ..cases.service import Actor, NewReport, file_report, pin_evidence
from ..dependencies import ReadSession, WriteSession
from ..errors import AppError, NotFound
from ..games.repository import GameRepository
from ..models.case import ReportReason
from ..models.operator import Operator
from ..web.errors import PageError
from ..web.security import check_csrf, require_operator
from ..web.session import save_session
from ..web.templating import render
from .repository import FairplayRepository

router = APIRouter(prefix="/ops/fairplay", include_in_schema=False)
SignedIn = Annotated[Operator, Depends(require_operator)]
QUEUE = 100
#: who files the report of a case opened from the suspicion queue: the scan, not a player
SCAN_REPORTER = "fair-play scan"


@router.get("", response_class=HTMLResponse)
def suspicion_queue(request: Request, operator: SignedIn, session: ReadSession) -> Response:
    repo = FairplayRepository(session)
    return render(request, "ops/fairplay.html", {
        "scan": repo.last_scan(),
        "pairs": [p.result for p in repo.pairs(QUEUE)],
        "players": [p.result for p in repo.players(QUEUE // 2)],
    })


def player_panel(session: Session, player_id: str) -> dict[str, Any] | None:
    """What the player page shows an operator: who they sit with and the pair statistics."""
    repo = FairplayRepository(session)
    row = repo.player(player_id)
    if row is None:
        return None
    return {"player": row.result,
            "partners": [{"player": p, "hands": n} for p, n in repo.partners(player_id, 10)],
            "pairs": [p.result for p in repo.pairs_of(player_id, 10)]}


def open_case(session: Session, result: dict[str, Any], accused: str, suspects: set[str],
              reason: ReportReason, actor: Actor) -> int:
    evidence = [e for e in result.get("evidence", []) if e.get("seq")]
    if not evidence:
        evidence = list(result.get("evidence", []))
    if not evidence:
        raise NotFound("no evidence hand to open a case on")
    by_hand = Counter(e["game_id"] for e in evidence)
    game_id = max(by_hand, key=lambda g: (by_hand[g], g))
    log = GameRepository(session).by_game_id(game_id)
    if log is None:
        raise NotFound(f"the evidence hand {game_id!r} is no longer stored")
    players = {p.seat: p.player_id for p in log.players}
    seat = next(s for s, p in players.items() if p == accused)
    others = sorted({e["game_id"] for e in evidence} - {game_id})
    text = (f"Filed by the fair-play scan: {' and '.join(sorted(suspects))}, score "
            f"{result.get('score')}, over {result.get('hands')} hands. "
            + (f"Other evidence hands: {', '.join(others)}." if others else ""))
    filed = file_report(session, NewReport(game_id, SCAN_REPORTER, reason, text[:3900],
                                           accused_seat=seat, by_player=False), actor)
    for e in evidence:
        if e["game_id"] == game_id:
            for step in e["seq"]:
                pin_evidence(session, filed.case.id, int(step),
                             f"[fair play: {e['detector']}] {e['note']}", actor)
    return filed.case.id


@router.post("/case", response_class=HTMLResponse)
def open_case_post(
    request: Request,
    operator: SignedIn,
    session: WriteSession,
    csrf_token: Annotated[str, Form(max_length=200)] = "",
    player_a: Annotated[str, Form(max_length=128)] = "",
    player_b: Annotated[str, Form(max_length=128)] = "",
) -> Response:
    check_csrf(request, csrf_token)
    repo = FairplayRepository(session)
    try:
        if player_b:
            pair = repo.pair(player_a, player_b)
            if pair is None:
                raise NotFound("no such pair in the last scan")
            case_id = open_case(session, pair.result, pair.player_a,
                                {pair.player_a, pair.player_b}, ReportReason.COLLUSION,
                                Actor.operator(operator))
        else:
            player = repo.player(player_a)
            if player is None:
                raise NotFound("no such player in the last scan")
            case_id = open_case(session, player.result, player.player_id, {player.player_id},
                                ReportReason.CARD_PEEKING, Actor.operator(operator))
    except AppError as exc:
        session.rollback()
        raise PageError(exc.status_code, "Cannot open a case", exc.message) from None
    response = RedirectResponse(f"/ops/cases/{case_id}", status_code=303)
    save_session(request, response)
    return response
