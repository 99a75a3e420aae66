from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from replay.logformat import parse_log
from replay.match import check_match
from replay.model import Log

from ..errors import NotFound
from .repository import MatchRepository
from .schemas import MatchHand, MatchOut, MatchProblemOut

MOST_HANDS = 1000


def _add(totals: dict[str, int], players: tuple[str, ...], scores: Any) -> None:
    if isinstance(scores, list) and len(scores) == len(players):
        for player, score in zip(players, scores, strict=True):
            if isinstance(score, int):
                totals[player] = totals.get(player, 0) + score


def match_report(session: Session, match_id: str) -> MatchOut:
    rows = MatchRepository(session).hands(match_id, MOST_HANDS)
    if not rows:
        raise NotFound(f"no hand of match {match_id!r} is stored")
    hands: list[MatchHand] = []
    checked: list[tuple[Log, dict[str, Any] | None]] = []
    expected_totals: dict[str, int] = {}
    claimed_totals: dict[str, int] = {}
    for row, verdict_json in rows:
        log = parse_log(row.raw)  # stored logs were parsed once already: they parse again
        verdict = json.loads(verdict_json) if verdict_json else None
        expected = (verdict or {}).get("score", {}).get("expected") if verdict else None
        claimed = log.result or {}
        checked.append((log, expected))
        _add(expected_totals, log.players, (expected or {}).get("scores"))
        _add(claimed_totals, log.players, claimed.get("scores"))
        hands.append(MatchHand(
            hand=log.match.hand if log.match else None,
            game_id=log.game_id,
            dealer=log.dealer,
            players=list(log.players),
            outcome=(expected or {}).get("outcome"),
            winner=(expected or {}).get("winner"),
            expected_scores=(expected or {}).get("scores"),
            claimed_scores=claimed.get("scores"),
            verdict_status=verdict.get("status") if verdict else None,
        ))
    problems = [
        MatchProblemOut(hand=p.hand, game_id=p.game_id, code=str(p.code), message=p.message)
        for p in check_match(checked)
    ]
    return MatchOut(
        match_id=match_id,
        hands=hands,
        expected_totals=dict(sorted(expected_totals.items())),
        claimed_totals=dict(sorted(claimed_totals.items())),
        problems=problems,
    )
