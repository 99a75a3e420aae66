"""Passed claims that favour a partner: A lets a 吃/碰/胡 go and B gets the card.

For every claim a seat could make and let go (``features.Pass``: the 过张 and 臭胡
chances of ``claims.passed_chances``/``refused_wins``) and each other seat B:
``x = [B took the card] − [the third took it]``. Stratified by the relation of B to
the passer (after A passes, ``next`` may still 吃 a drawn card or a discard); the
pair statistic adds A's passes towards B and B's towards A (``stats.EmpiricalNull``).

Assumes a pass is a choice (it is: the window lists only legal claims); cannot see a
claim not made that was never legal, nor a pass whose card nobody then wanted.
"""

from __future__ import annotations

from typing import Final

from .common import Evidence, Pair, pair_key, relation, third
from .features import HandFeatures
from .reach import CHI, HU, PENG
from .stats import EmpiricalNull, Stat

PASS_NAMES: Final = {HU: "胡", PENG: "碰", CHI: "吃"}


class PassedClaims:
    name = "passes"

    def __init__(self) -> None:
        self.null: EmpiricalNull[Pair] = EmpiricalNull()

    def add(self, h: HandFeatures) -> None:
        for q in h.passes:
            a = q.passer
            for b in range(3):
                if b != a:
                    x = (q.taker == b) - (q.taker == third(a, b))
                    self.null.add(pair_key(h.players[a], h.players[b]),
                                  (h.ruleset, relation(a, b)), float(x))

    def results(self) -> dict[Pair, Stat]:
        return self.null.stats()

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        return [Evidence(self.name, h.game_id, (q.seq,),
                         f"{h.players[q.passer]} let a {PASS_NAMES.get(q.could, '?')} go and "
                         f"{h.players[q.taker]} took the card", 1.0)
                for q in h.passes if {q.passer, q.taker} == {a, b}]
