from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from replay.verdict import Code

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..bounds import IsoDateTime, as_utc, storable_text
from ..dependencies import ReadSession
from ..errors import InvalidRequest, error_responses
from . import cursor as cursors
from .repository import FindingFilter, FindingRepository
from .schemas import FindingOut, FindingPage

router = APIRouter(tags=["findings"])

Reader = Annotated[Principal, Depends(require(Scope.READ))]


def _aware(name: str, value: datetime | None) -> datetime | None:
    """The bound in UTC; 422 without a time zone or outside years 1-9999 in UTC."""
    if value is None:
        return None
    utc = as_utc(value) if value.tzinfo is not None else None
    if utc is None:
        raise InvalidRequest(
            f"{name} needs a time zone and must fall within years 1-9999 in UTC",
            problems=[{"pointer": f"/query/{name}", "expected": "ISO 8601 with a time zone"}],
        )
    return utc


@router.get(
    "/findings",
    response_model=FindingPage,
    summary="Findings of the current verdicts, newest hand first",
    description=(
        "Filters combine with AND; `code` may repeat (any of them). `since`/`until` bound "
        "the hand's start time (or its ingest time when the log has none), `until` "
        "exclusive. Pages are keyset cursors: pass `next_cursor` back as `cursor`."
    ),
    responses=error_responses(401, 403, 422),
)
def list_findings(
    _: Reader,
    session: ReadSession,
    code: Annotated[
        list[Code] | None,
        Query(description="A finding code, e.g. chou_hu (an unknown code is 422)"),
    ] = None,
    severity: Annotated[str | None, Query(pattern="^(violation|invalid)$")] = None,
    player: Annotated[
        str | None,
        Query(
            max_length=128,
            description="A player id: the findings about their seat and those about a whole "
            "hand they played (no seat: score_mismatch, commitment_mismatch, ...)",
        ),
    ] = None,
    ruleset: Annotated[str | None, Query(max_length=32)] = None,
    game_id: Annotated[str | None, Query(max_length=128)] = None,
    since: Annotated[IsoDateTime | None, Query(description="ISO 8601 with a time zone")] = None,
    until: Annotated[IsoDateTime | None, Query(description="ISO 8601 with a time zone")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> FindingPage:
    if not all(storable_text(v) for v in (player, ruleset, game_id) if v):
        return FindingPage(items=[], next_cursor=None)  # no stored value holds a NUL
    filters = FindingFilter(
        codes=tuple(c.value for c in code or ()),
        severity=severity,
        player_id=player,
        ruleset=ruleset,
        game_id=game_id,
        since=_aware("since", since),
        until=_aware("until", until),
    )
    after = cursors.decode(cursor) if cursor else None
    rows = FindingRepository(session).page(filters, limit + 1, after)
    more = len(rows) > limit
    rows = rows[:limit]
    items = [
        FindingOut(
            id=r.id,
            game_id=r.game_id,
            ruleset=r.ruleset,
            played_at=r.played_at,
            seq=r.seq,
            seat=r.seat,
            player_id=r.player_id,
            code=r.code,
            severity=r.severity,
            message=r.message,
            refs=r.refs,
        )
        for r in rows
    ]
    last = rows[-1] if rows and more else None
    return FindingPage(
        items=items, next_cursor=cursors.encode(last.played_at, last.id) if last else None
    )
