"""Significance for the detectors: z-scores against an empirical (stratified) null.

Every detector reduces a hand to numbers per player or per pair of players, each in a
*stratum* (the ruleset and, for a pair, the seat relation: the receiver is ``next`` or
``prev`` of the giver: only ``next`` may 吃 a discard, so the two are never mixed).
Under the null hypothesis (the player or pair behaves like the population) a value in
stratum ``s`` has the population's mean ``μ_s`` and variance ``σ²_s`` there, so for a
key with ``n_s`` values summing to ``S_s``:

    z = Σ_s (S_s − n_s μ_s) / sqrt(Σ_s n_s σ²_s)

The population moments include the cheats (a few keys among many barely move them).
``p`` is the one-sided upper tail of the standard normal at ``z``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
Stratum = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Stat:
    """One detector's statistic for one key."""

    z: float
    #: values behind it (hands, discards, passes … as the detector says)
    n: int
    observed: float
    expected: float

    @property
    def p(self) -> float:
        return upper_p(self.z)

    def to_json(self) -> dict[str, float | int]:
        return {"z": round(self.z, 3), "p": float(f"{self.p:.3g}"), "n": self.n,
                "observed": round(self.observed, 3), "expected": round(self.expected, 3)}


NO_STAT = Stat(0.0, 0, 0.0, 0.0)


def upper_p(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def z_of(observed: float, expected: float, var: float) -> float:
    return (observed - expected) / math.sqrt(var) if var > 1e-12 else 0.0


@dataclass(slots=True)
class Moments:
    n: int = 0
    s: float = 0.0
    ss: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    @property
    def mean(self) -> float:
        return self.s / self.n if self.n else 0.0

    @property
    def var(self) -> float:
        if self.n < 2:
            return 0.0
        m = self.mean
        return max(0.0, self.ss / self.n - m * m)


class EmpiricalNull(Generic[K]):
    """Population moments per stratum; per key and stratum, the count and the sum."""

    def __init__(self) -> None:
        self.population: dict[Stratum, Moments] = {}
        self.keys: dict[K, dict[Stratum, list[float]]] = {}

    def add(self, key: K, stratum: Stratum, x: float) -> None:
        m = self.population.get(stratum)
        if m is None:
            m = self.population[stratum] = Moments()
        m.add(x)
        per = self.keys.setdefault(key, {})
        acc = per.get(stratum)
        if acc is None:
            per[stratum] = [1.0, x]
        else:
            acc[0] += 1.0
            acc[1] += x

    def parts(self, key: K) -> tuple[int, float, float, float]:
        """``(n, observed, expected, variance)`` of the key's values, over its strata."""
        n = 0.0
        obs = exp = var = 0.0
        for stratum, (cnt, s) in self.keys.get(key, {}).items():
            m = self.population[stratum]
            n += cnt
            obs += s
            exp += cnt * m.mean
            var += cnt * m.var
        return int(n), obs, exp, var

    def stat(self, key: K) -> Stat:
        if not self.keys.get(key):
            return NO_STAT
        n, obs, exp, var = self.parts(key)
        return Stat(z_of(obs, exp, var), n, obs, exp)

    def stats(self) -> dict[K, Stat]:
        return {k: self.stat(k) for k in self.keys}
