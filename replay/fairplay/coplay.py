"""Co-play lift: how often A and B share a table against random seating.

With ``N_X`` hands of each player and ``H`` hands (three seats each), random seating
that keeps each player's activity expects ``E_AB = 3H · N_A N_B / Σ_{X<Y} N_X N_Y``
shared hands (the expectations add up to the ``3H`` pairs seated); the count is
Poisson, and its Freeman–Tukey deviate ``z = sqrt(k) + sqrt(k + 1) − sqrt(4E + 1)`` is
close to a standard normal even when ``E`` is a handful of hands (the plain
``(k − E) / sqrt(E)`` would flag honest pairs that met ten times where three were
expected).

Assumes players join tables independently of each other; friends who play together
on purpose are not cheats, so this detector only adds weight to the others.
"""

from __future__ import annotations

import math

from .common import Evidence, Pair, pair_key
from .features import HandFeatures
from .stats import Stat


class CoPlay:
    name = "coplay"

    def __init__(self) -> None:
        self.hands = 0
        self.per_player: dict[str, int] = {}
        self.shared: dict[Pair, int] = {}

    def add(self, h: HandFeatures) -> None:
        self.hands += 1
        p = h.players
        for x in p:
            self.per_player[x] = self.per_player.get(x, 0) + 1
        for key in (pair_key(p[0], p[1]), pair_key(p[0], p[2]), pair_key(p[1], p[2])):
            self.shared[key] = self.shared.get(key, 0) + 1

    def results(self) -> dict[Pair, Stat]:
        total = sum(self.per_player.values())
        squares = sum(n * n for n in self.per_player.values())
        denom = (total * total - squares) / 2.0
        out: dict[Pair, Stat] = {}
        for (a, b), n in self.shared.items():
            e = 3.0 * self.hands * self.per_player[a] * self.per_player[b] / denom \
                if denom > 0 else 0.0
            z = math.sqrt(n) + math.sqrt(n + 1) - math.sqrt(4 * e + 1) if e > 0 else 0.0
            out[a, b] = Stat(z, n, float(n), e)
        return out

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        return []
