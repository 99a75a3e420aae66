"""Feed matrix: how often B claims A's discards, against how often B claims the third's.

For each hand and each ordered pair of seats (A gives, B receives, C is the third):
``x = claims(A→B) − claims(C→B)``, the 吃/碰/胡 B made on A's discards minus those it
made on C's discards in the same hand. Taking the difference cancels B's own skill
and taste for claiming; the stratum is the seat relation of B to A (``next`` may 吃
A's discards but not C's, so the two relations have very different means). The pair
statistic adds both directions (A→B and B→A) against the empirical null
(``stats.EmpiricalNull``): a pair that feeds each other claims more from each other
than from the third seat.

Assumes claims are the players' choices (a 跑 is forced and not counted); cannot see
a feed the partner declined, nor feeding through draws (a drawn card is not chosen).
"""

from __future__ import annotations

from typing import Final

from .common import Evidence, Pair, pair_key, relation, third
from .features import HandFeatures
from .reach import CHI, HU, PENG
from .stats import EmpiricalNull, Stat

CLAIM_NAMES: Final = {HU: "胡", PENG: "碰", CHI: "吃"}


class FeedMatrix:
    name = "feed"

    def __init__(self) -> None:
        self.null: EmpiricalNull[Pair] = EmpiricalNull()

    def add(self, h: HandFeatures) -> None:
        got = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
        for _, src, taker, _ in h.claims:
            got[src][taker] += 1
        for a in range(3):
            for b in range(3):
                if a != b:
                    x = got[a][b] - got[third(a, b)][b]
                    self.null.add(pair_key(h.players[a], h.players[b]),
                                  (h.ruleset, relation(a, b)), x)

    def results(self) -> dict[Pair, Stat]:
        return self.null.stats()

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        return [Evidence(self.name, h.game_id, (seq,),
                         f"{h.players[taker]} {CLAIM_NAMES.get(mask, '?')} "
                         f"{h.players[src]}'s discard", 1.0)
                for seq, src, taker, mask in h.claims if {src, taker} == {a, b}]
