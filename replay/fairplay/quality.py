"""Decision quality with hidden information: is a player safer than what it could see?

For each discard with a choice, the kinds the player could throw are grouped by what
its view says of them: the number of copies it cannot see (``features._unseen``: not
in its hand, not in any row, not face up on the table). Among the options that look
the same as the card thrown, ``p`` is the share that were dangerous on the *true*
hands (an opponent could 胡/跑/碰/吃 it). A player who chooses on its view alone throws
a dangerous card with probability about ``p``; the value is
``x = [the card thrown was dangerous] − p``. Against the population's moments
(``stats.EmpiricalNull``, stratum = ruleset) the player's statistic is ``−z``:
positive when the player avoids danger more than its information allows (Regan's
idea for chess, applied to safety). A strong honest player picks better cards for
its own hand, which its view already explains, so it stays near zero.

Assumes the view class (unseen copies) captures what a careful player uses to judge
danger; cannot see finer reads (an opponent's 臭 kinds, its discards' pattern) that
an honest expert might use, so a threshold well above the honest experts' is kept.
"""

from __future__ import annotations

from .common import Evidence
from .features import HandFeatures
from .stats import EmpiricalNull, Stat


class HiddenInformation:
    name = "quality"

    def __init__(self) -> None:
        self.null: EmpiricalNull[str] = EmpiricalNull()

    def add(self, h: HandFeatures) -> None:
        for c in h.choices:
            if c.same_view >= 2:
                self.null.add(h.players[c.seat], (h.ruleset, "all"),
                              c.danger - c.same_view_danger / c.same_view)

    def results(self) -> dict[str, Stat]:
        out = {}
        for k, s in self.null.stats().items():
            out[k] = Stat(-s.z, s.n, s.observed, s.expected)
        return out

    def evidence(self, h: HandFeatures, seat: int) -> list[Evidence]:
        return [Evidence(self.name, h.game_id, (c.seq,),
                         f"{h.players[seat]} threw a safe card where {c.same_view_danger} of "
                         f"{c.same_view} options that looked the same were dangerous",
                         c.same_view_danger / c.same_view)
                for c in h.choices
                if c.seat == seat and c.same_view >= 2 and not c.danger
                and c.same_view_danger * 2 >= c.same_view]
