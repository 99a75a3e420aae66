"""Point flow: the points that pass between A and B, against a permutation null.

Per hand with a winner (one seat scores above zero), each loser's payment goes to the
winner: the flow between the winner and a loser is what that loser paid, and between
the two losers nothing. (Under hengshan a win on a discard, 放炮, makes the discarder
pay twice and the third nothing: a pair that 放炮s to itself moves its points inside
the pair.) Under the null the pair's two seats are any two of the three (who sits where
is independent of the play), so the hand's three possible flows are equally likely:
their mean ``m`` and variance ``v`` are the *exact* moments of the permutation
distribution, and over the shared hands ``z = Σ (flow_AB − m) / sqrt(Σ v)`` (hands are
independent permutations; normal approximation after a few dozen won hands).

Sees points moving inside a pair (chip dumping, 放炮 to a partner, wins fed by the
partner); a player who wins often raises the flow of all its pairs a little, so it is
read with the other detectors; cannot see a collusion that gains nothing yet.
"""

from __future__ import annotations

from .common import Evidence, Pair, pair_key, third
from .features import HandFeatures
from .stats import Stat, z_of

_PAIRS = ((0, 1), (0, 2), (1, 2))


def flows(scores: tuple[int, int, int]) -> dict[tuple[int, int], int] | None:
    """Points paid between each two seats in a hand; ``None`` without a single winner."""
    winners = [s for s in range(3) if scores[s] > 0]
    if len(winners) != 1:
        return None
    w = winners[0]
    return {(a, b): (max(0, -scores[b if a == w else a]) if w in (a, b) else 0)
            for a, b in _PAIRS}


class PointFlow:
    name = "flow"

    def __init__(self) -> None:
        self.acc: dict[Pair, list[float]] = {}

    def add(self, h: HandFeatures) -> None:
        if h.scores is None:
            return
        f = flows(h.scores)
        if f is None:
            return
        m = sum(f.values()) / 3.0
        v = sum((x - m) ** 2 for x in f.values()) / 3.0
        for (a, b), x in f.items():
            key = pair_key(h.players[a], h.players[b])
            acc = self.acc.get(key)
            if acc is None:
                self.acc[key] = [1.0, x - m, v]
            else:
                acc[0] += 1.0
                acc[1] += x - m
                acc[2] += v

    def results(self) -> dict[Pair, Stat]:
        return {k: Stat(z_of(s, 0.0, v), int(n), s, 0.0) for k, (n, s, v) in self.acc.items()}

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        if h.scores is None:
            return []
        f = flows(h.scores)
        if not f or not f[a, b]:
            return []
        payer, winner = (a, b) if h.scores[b] > 0 else (b, a)
        c = third(a, b)
        other = f[(winner, c) if winner < c else (c, winner)]
        return [Evidence(self.name, h.game_id, (), f"{h.players[payer]} paid "
                         f"{h.players[winner]} {f[a, b]} points, {h.players[c]} paid {other}",
                         float(f[a, b]))]
