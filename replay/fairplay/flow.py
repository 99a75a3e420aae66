"""Point flow: what a pair wins together, against a permutation null.

Per hand with a score, the pair's joint result is ``s_A + s_B``. Under the null the
pair's two seats are any two of the three (the permutation of the players over the
seats is independent of the play), so the hand's three possible joint results are
equally likely: their mean ``m`` and variance ``v`` are the *exact* moments of the
permutation distribution, and over the shared hands
``z = Σ (s_A + s_B − m) / sqrt(Σ v)`` (the hands are independent permutations; the
normal approximation holds after a few dozen hands with a score).

Sees colluders winning at the third's expense whatever the means (放炮 to the
partner, feeding, passing); cannot tell a strong pair of honest players from a
colluding one (skill raises it too), so it is read with the other detectors.
"""

from __future__ import annotations

from .common import Evidence, Pair, pair_key, third
from .features import HandFeatures
from .stats import Stat, z_of


class PointFlow:
    name = "flow"

    def __init__(self) -> None:
        self.acc: dict[Pair, list[float]] = {}

    def add(self, h: HandFeatures) -> None:
        sc = h.scores
        if sc is None or not any(sc):
            return
        sums = {(0, 1): sc[0] + sc[1], (0, 2): sc[0] + sc[2], (1, 2): sc[1] + sc[2]}
        m = sum(sums.values()) / 3.0
        v = sum((s - m) ** 2 for s in sums.values()) / 3.0
        for (a, b), s in sums.items():
            key = pair_key(h.players[a], h.players[b])
            acc = self.acc.get(key)
            if acc is None:
                self.acc[key] = [1.0, s - m, v]
            else:
                acc[0] += 1.0
                acc[1] += s - m
                acc[2] += v

    def results(self) -> dict[Pair, Stat]:
        return {k: Stat(z_of(s, 0.0, v), int(n), s, 0.0) for k, (n, s, v) in self.acc.items()}

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        sc = h.scores
        if sc is None:
            return []
        c = third(a, b)
        gain = sc[a] + sc[b]
        if gain <= 0:
            return []
        return [Evidence(self.name, h.game_id, (), f"{h.players[a]} and {h.players[b]} "
                         f"won {gain} together, {h.players[c]} scored {sc[c]}", float(gain))]
