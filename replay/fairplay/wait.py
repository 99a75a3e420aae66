"""Feeding the wait: A throws a card B could claim, rather than one the third could.

For each discard made with a choice (``features.Choice``), on the replayed true hands:
``r_B = [B could 吃/碰/胡 the card thrown] − (share of A's options B could claim)``, the
surprise of the choice for B (0 on average when A's choice ignores B), and ``r_C`` the
same for the third seat. The value for the ordered pair (A, B) is ``r_B − r_C``:
positive when A feeds B *and* spares C, among comparable choices (the kinds A could
throw at that moment). Stratified by the relation of B to A; the pair statistic adds
A's choices towards B and B's towards A (``stats.EmpiricalNull``).

Assumes the options are comparable (a throw that breaks a sentence is counted like
one that does not: the empirical null absorbs what the honest bots' taste does on
average); cannot see a wait created after the discard, nor a feed by not claiming.
"""

from __future__ import annotations

from ..cards import next_seat, prev_seat
from .common import Evidence, Pair, pair_key, third
from .features import Choice, HandFeatures
from .reach import ANY, CHOSEN
from .stats import EmpiricalNull, Stat


def _r(got: int, use: int, options: int) -> float:
    return (1.0 if got & CHOSEN else 0.0) - use / options


class FeedingTheWait:
    name = "wait"

    def __init__(self) -> None:
        self.null: EmpiricalNull[Pair] = EmpiricalNull()

    def add(self, h: HandFeatures) -> None:
        for c in h.choices:
            a = c.seat
            d = _r(c.got_next, c.use_next, c.options) - _r(c.got_prev, c.use_prev, c.options)
            self.null.add(pair_key(h.players[a], h.players[next_seat(a)]),
                          (h.ruleset, "next"), d)
            self.null.add(pair_key(h.players[a], h.players[prev_seat(a)]),
                          (h.ruleset, "prev"), -d)

    def results(self) -> dict[Pair, Stat]:
        return self.null.stats()

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        out: list[Evidence] = []
        for c in h.choices:
            if c.seat not in (a, b):
                continue
            mate = b if c.seat == a else a
            got_m, use_m, got_t = _sides(c, mate)
            if got_m & CHOSEN and not got_t & ANY:
                out.append(Evidence(
                    self.name, h.game_id, (c.seq,),
                    f"{h.players[c.seat]} threw a card {h.players[mate]} could claim and "
                    f"{h.players[third(a, b)]} could not ({use_m} of {c.options} options "
                    f"were usable by {h.players[mate]})", 1.0 - use_m / c.options))
        return out


def _sides(c: Choice, mate: int) -> tuple[int, int, int]:
    """(mate's mask, mate's usable options, third's mask) of a choice."""
    if mate == next_seat(c.seat):
        return c.got_next, c.use_next, c.got_prev
    return c.got_prev, c.use_prev, c.got_next
