"""Dealers across the hands of one match (RULES §10).

A verdict depends on its own log only, so checks that need several hands live
here, as a separate match report: the winner deals next; after a drawn hand,
``standard`` keeps the dealer until the third drawn hand in a row and then
passes the deal to ``next(dealer)``, ``hengshan`` passes it at once (臭庄).
An abandoned hand ("任意一個玩家離開遊戲，算作新的一局開始") constrains nothing:
the next hand's dealer is not checked.

In profiles with 黄番 (``huang_fan``, changde) each hand's ``match.drawn_before`` must
equal the number of drawn hands in a row just before it, as far as the hands given show
it: hand 1 has 0; a hand after a drawn hand has that hand's value + 1; a hand after a
won hand has 0. A previous hand that is missing, abandoned or has no expected score
constrains nothing. A disagreement is ``drawn_before_mismatch``; the single-hand verdict
always scores with the value given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import next_seat
from .model import Log, Outcome
from .profiles import Profile
from .verdict import Code


@dataclass(frozen=True, slots=True)
class MatchProblem:
    match_id: str
    hand: int
    game_id: str
    code: Code
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match_id, "hand": self.hand, "game_id": self.game_id,
                "code": str(self.code), "message": self.message}


def next_dealer(profile: Profile, dealer: int, outcome: str | None, winner: int | None,
                draws_in_row: int) -> tuple[int | None, int]:
    """The dealer of the next hand (None: unconstrained) and the drawn-hand streak."""
    if outcome == Outcome.HU and winner is not None:
        return winner, 0
    if outcome == Outcome.EXHAUSTED:
        streak = draws_in_row + 1
        if profile.dealer_rotation == "pass_on_draw":
            return next_seat(dealer), 0
        if streak >= 3:
            return next_seat(dealer), 0
        return dealer, streak
    return None, 0


def _drawn_before(number: int, contiguous: bool,
                  before: tuple[Any, int] | None) -> int | None:
    """The 黄番 count hand ``number`` must give, or None when the hands do not show it."""
    if number == 1:
        return 0
    if not contiguous or before is None:
        return None
    outcome, drawn = before
    if outcome == Outcome.EXHAUSTED:
        return drawn + 1
    if outcome == Outcome.HU:
        return 0
    return None


def check_match(hands: Sequence[tuple[Log, dict[str, Any] | None]]) -> list[MatchProblem]:
    """Check the dealer rotation (and 黄番 counts) over hands that share a ``match.id``.

    Each hand comes with its expected score (``verdict.score["expected"]``, or None).
    """
    problems: list[MatchProblem] = []
    by_match: dict[str, list[tuple[Log, dict[str, Any] | None]]] = {}
    for log, score in hands:
        if log.match is not None:
            by_match.setdefault(log.match.id, []).append((log, score))
    for match_id in sorted(by_match):
        rows = sorted(by_match[match_id], key=lambda lv: lv[0].match.hand)  # type: ignore[union-attr]
        expected: int | None = None
        streak = 0
        previous: int | None = None
        before: tuple[Any, int] | None = None  # (outcome, drawn_before) of the hand before
        for log, score in rows:
            assert log.match is not None
            number = log.match.hand
            if previous is not None and number == previous:
                problems.append(MatchProblem(match_id, number, log.game_id, Code.MATCH_INVALID,
                                             f"hand {number} appears twice"))
            contiguous = previous is not None and number == previous + 1
            if contiguous and expected is not None and log.dealer != expected:
                problems.append(MatchProblem(
                    match_id, number, log.game_id, Code.MATCH_INVALID,
                    f"seat {expected} should deal hand {number}, not seat {log.dealer}"))
            exp = score or {}
            want = _drawn_before(number, contiguous, before)
            given = log.match.drawn_before
            if log.profile.huang_fan and want is not None and given != want:
                problems.append(MatchProblem(
                    match_id, number, log.game_id, Code.DRAWN_BEFORE_MISMATCH,
                    f"hand {number} gives drawn_before {given}; the hands before it show "
                    f"{want}"))
            before = (exp.get("outcome"), given if want is None else want)
            expected, streak = next_dealer(log.profile, log.dealer, exp.get("outcome"),
                                           exp.get("winner"), streak)
            previous = number
    return problems
