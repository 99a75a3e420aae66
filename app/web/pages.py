"""Public pages: home (search), a hand's replay, a player's hands."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from ..dependencies import ReadSession
from ..fairplay.views import player_panel
from ..middleware import SECURITY_HEADERS
from .errors import PageError
from .hand_view import audit_view, index_json, table_view
from .related import cases_of_hand, cases_of_player
from .replay import Hand, build_hand
from .repository import PageRepository
from .session import load_session, settings_of
from .templating import ENV, game_url, player_url, render

router = APIRouter(include_in_schema=False)

PAGE_SIZE = 50


def load_hand(session: Session, game_id: str) -> Hand:
    found = PageRepository(session).stored(game_id)
    if found is None:
        raise PageError(404, "No such hand", f"No hand with game id “{game_id}” is stored.")
    log, verdict = found
    return build_hand(
        log.raw,
        log.raw_sha256,
        stored_engine=verdict.engine_version if verdict else None,
        played_at=log.played_at,
    )


def parse_step(value: str | None) -> int | None:
    if value is None or value.strip() == "":
        return None
    if value.strip() == "end":
        return 1 << 30  # clamped to the last step
    try:
        return int(value)
    except ValueError:
        return None


def parse_seat(value: str | None) -> int | None:
    if value is None or value == "":
        return None
    if value not in ("0", "1", "2"):
        raise PageError(400, "No such seat", "The seat given with ?as= is 0, 1 or 2.")
    return int(value)


def landing(hand: Hand, step: int | None) -> int:
    """The step a page opens at: the one asked for, else the first finding, else the deal."""
    if step is None:
        first = audit_view(hand, None)["first_finding"]
        return hand.first if first is None else int(first)
    return hand.clamp(step)


def full_view_allowed(request: Request) -> bool:
    return settings_of(request).full_view_public or load_session(request).operator is not None


def replay_context(
    request: Request, hand: Hand, n: int, viewer: int | None, base_url: str
) -> dict[str, Any]:
    return {
        "hand": hand,
        "table": table_view(hand, n, viewer),
        "audit": audit_view(hand, viewer),
        "index": index_json(hand, viewer),
        "viewer": viewer,
        "step": n,
        "base_url": base_url,
        "full_view": full_view_allowed(request),
        "related_cases": [],
    }


SEARCH_LIMIT = 20


@router.get("/", response_class=HTMLResponse)
def home(
    request: Request,
    session: ReadSession,
    q: Annotated[str | None, Query(max_length=128)] = None,
) -> Response:
    """Search (an exact id opens it; else ids starting with ``q``, any case), the hands
    received last and their findings."""
    repo = PageRepository(session)
    message = None
    games: list[str] = []
    players: list[str] = []
    if q is not None:
        q = q.strip()
        if q and repo.game_exists(q):
            return RedirectResponse(game_url(q), status_code=303)
        if q and repo.player_exists(q):
            return RedirectResponse(player_url(q), status_code=303)
        if q:
            games, players = repo.search(q, SEARCH_LIMIT)
            if len(games) + len(players) == 1:
                url = game_url(games[0]) if games else player_url(players[0])
                return RedirectResponse(url, status_code=303)
            if not games and not players:
                message = f"No game id or player id starts with “{q}”."
    return render(
        request,
        "home.html",
        {
            "q": q or "",
            "message": message,
            "games": games,
            "players": players,
            "recent": repo.recent(20),
            "findings": repo.recent_findings(20),
        },
        status_code=404 if message else 200,
    )


@router.get("/g/{game_id:path}", response_class=HTMLResponse)
def game_page(
    request: Request,
    game_id: str,
    session: ReadSession,
    step: str | None = None,
    as_: Annotated[str | None, Query(alias="as")] = None,
) -> Response:
    hand = load_hand(session, game_id)
    viewer = parse_seat(as_)
    if viewer is None and not full_view_allowed(request):
        return render(request, "choose_seat.html", {"hand": hand}, status_code=403)
    n = landing(hand, parse_step(step))
    ctx = replay_context(request, hand, n, viewer, game_url(hand.game_id))
    if load_session(request).operator is not None:
        ctx["related_cases"] = cases_of_hand(session, hand.game_id)
    return render(request, "game.html", ctx)


@router.get("/replay-table/{game_id:path}", response_class=HTMLResponse)
def table_fragment(
    request: Request,
    game_id: str,
    session: ReadSession,
    step: str | None = None,
    as_: Annotated[str | None, Query(alias="as")] = None,
) -> Response:
    """The table at one step, as an HTML fragment (the page script swaps it in)."""
    hand = load_hand(session, game_id)
    viewer = parse_seat(as_)
    if viewer is None and not full_view_allowed(request):
        raise PageError(403, "Pick a seat", "Every card is shown to operators only.")
    n = hand.clamp(parse_step(step))
    body = ENV.get_template("_table.html").render(table=table_view(hand, n, viewer), hand=hand)
    return HTMLResponse(body, headers={**SECURITY_HEADERS, "Cache-Control": "private, max-age=60"})


@router.get("/p/{player_id:path}", response_class=HTMLResponse)
def player_page(
    request: Request,
    player_id: str,
    session: ReadSession,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
) -> Response:
    repo = PageRepository(session)
    total = repo.hand_count(player_id)
    if total == 0:
        raise PageError(404, "No such player", f"No hand of player “{player_id}” is stored.")
    return render(
        request,
        "player.html",
        {
            "player_id": player_id,
            "total": total,
            "page": page,
            "pages": (total + PAGE_SIZE - 1) // PAGE_SIZE,
            "hands": repo.hands_of(player_id, PAGE_SIZE, (page - 1) * PAGE_SIZE),
            "findings": repo.findings_of(player_id, 100),
            "counts": repo.finding_counts(player_id),
            "related_cases": (
                cases_of_player(session, player_id)
                if load_session(request).operator is not None
                else None
            ),
            "fairplay": player_panel(session, player_id),
        },
    )
