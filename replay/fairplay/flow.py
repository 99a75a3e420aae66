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

Where every loser pays the winner alike (``payout`` ``each_loser``: ``standard``,
``changde``) the permutation flow only says whether the pair holds the winner: a pair
that pays for its help with hand value does not raise it (the planted pairs hold the
winner *less* often than two seats in three). Their won hands also read *who won off
whose discards*: for the winner W and each loser P (the other loser is C),
``x = [W claimed a discard of P] − [W claimed a discard of C]`` goes to the pair
(W, P), against the empirical null (``stats.EmpiricalNull``, stratified by the ruleset
and the seat relation of W to P: only ``next`` may 吃). Indicators, not points: a
win's points are heavy-tailed and a single big win of a pair that met a few times
would outweigh everything. The pair's z is Stouffer's ``(z_flow + z_won_off) / √2``
(``z_flow`` alone when no such hand varies, and under ``hengshan``, where 放炮 makes the
points themselves tell: adding its self-drawn wins raised an honest pair's combined
score above the threshold in the seed-1 population).

Sees points moving inside a pair (chip dumping, 放炮 to a partner, wins fed by the
partner); a player who wins often raises the flow of all its pairs a little, so it is
read with the other detectors; cannot see a collusion that gains nothing yet.
"""

from __future__ import annotations

import math

from ..profiles import PROFILES, Payout
from .common import Evidence, Pair, pair_key, relation, third
from .features import HandFeatures
from .stats import EmpiricalNull, Stat, z_of

_PAIRS = ((0, 1), (0, 2), (1, 2))


def flows(scores: tuple[int, int, int]) -> dict[tuple[int, int], int] | None:
    """Points paid between each two seats in a hand; ``None`` without a single winner."""
    winners = [s for s in range(3) if scores[s] > 0]
    if len(winners) != 1:
        return None
    w = winners[0]
    return {(a, b): (max(0, -scores[b if a == w else a]) if w in (a, b) else 0)
            for a, b in _PAIRS}


def fed_wins(h: HandFeatures) -> tuple[int, list[bool]] | None:
    """A won hand of a profile where every loser pays the winner alike: the winner and,
    per seat, whether the winner claimed one of its discards; ``None`` otherwise."""
    profile = PROFILES.get(h.ruleset)
    if h.scores is None or profile is None or profile.payout is not Payout.EACH_LOSER:
        return None
    winners = [s for s in range(3) if h.scores[s] > 0]
    if len(winners) != 1:
        return None
    w = winners[0]
    a, b = (s for s in range(3) if s != w)
    if h.scores[a] != h.scores[b]:
        return None
    fed = [False, False, False]
    for _, src, taker, _ in h.claims:
        if taker == w:
            fed[src] = True
    return w, fed


class PointFlow:
    name = "flow"

    def __init__(self) -> None:
        self.acc: dict[Pair, list[float]] = {}
        self.fed: EmpiricalNull[Pair] = EmpiricalNull()

    def add(self, h: HandFeatures) -> None:
        if h.scores is None:
            return
        f = flows(h.scores)
        if f is None:
            return
        fw = fed_wins(h)
        if fw is not None:
            w, fed = fw
            for p in range(3):
                if p != w:
                    x = int(fed[p]) - int(fed[third(w, p)])
                    self.fed.add(pair_key(h.players[w], h.players[p]),
                                 (h.ruleset, relation(p, w)), float(x))
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
        out = {}
        for k, (n, s, v) in self.acc.items():
            z = z_of(s, 0.0, v)
            _, obs, exp, var = self.fed.parts(k)
            if var > 1e-12:  # Stouffer's sum of the two
                z = (z + z_of(obs, exp, var)) / math.sqrt(2.0)
            out[k] = Stat(z, int(n), s, 0.0)
        return out

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]:
        if h.scores is None:
            return []
        fw = fed_wins(h)
        if fw is not None and fw[0] in (a, b):
            w = fw[0]
            p = b if w == a else a
            if fw[1][p] and not fw[1][third(a, b)]:
                seqs = tuple(seq for seq, src, taker, _ in h.claims if src == p and taker == w)
                return [Evidence(self.name, h.game_id, seqs,
                                 f"{h.players[w]} won {h.scores[w]} points after claiming "
                                 f"{h.players[p]}'s discards, none of "
                                 f"{h.players[third(a, b)]}'s", float(h.scores[w]))]
        f = flows(h.scores)
        if not f or not f[a, b]:
            return []
        payer, winner = (a, b) if h.scores[b] > 0 else (b, a)
        c = third(a, b)
        other = f[(winner, c) if winner < c else (c, winner)]
        return [Evidence(self.name, h.game_id, (), f"{h.players[payer]} paid "
                         f"{h.players[winner]} {f[a, b]} points, {h.players[c]} paid {other}",
                         float(f[a, b]))]
