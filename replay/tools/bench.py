"""``python -m replay bench``: how fast the rules core verifies simulated hands.

The corpus is simulated once (``replay.simulate``); then verification alone
(``replay.engine.verify`` on already parsed logs) is timed hand by hand in this
one process, with the engine's caches cleared first so the simulation does not
warm them. That timed run is repeated (``repeat``, each run after clearing the
caches again) and the median run is the figure: on a shared machine one run can be
slowed by a neighbour by a fifth or more, and every run is printed. The process is
pinned to one CPU where the OS allows it. The win check (``arrangements.best_huxi``)
is timed alone over random winning and non-winning holdings
(``holdings.bench_win_checks``).
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import time
from dataclasses import dataclass
from typing import Any

from .. import arrangements, native
from ..engine import verify
from ..logformat import parse_log
from ..verdict import Status
from . import holdings
from .simulate import dumps, simulate


@dataclass(frozen=True, slots=True)
class BenchResult:
    games: int
    ruleset: str
    seed: int
    events: int
    seconds: float
    #: the median run's
    hands_per_s: float
    #: hands/s of every timed run, in the order run
    runs: tuple[float, ...]
    events_per_s: float
    p50_ms: float
    p99_ms: float
    parse_verify_hands_per_s: float
    win_checks_per_s: float
    not_clean: int
    cpu: str
    #: the rules core that ran: compiled or the pure-Python sources (``replay.native``)
    build: str

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "events": self.events,
            "seconds": round(self.seconds, 4),
            "hands_per_s": round(self.hands_per_s, 1),
            "runs": [round(r, 1) for r in self.runs],
            "events_per_s": round(self.events_per_s, 1),
            "p50_ms": round(self.p50_ms, 3),
            "p99_ms": round(self.p99_ms, 3),
            "parse_verify_hands_per_s": round(self.parse_verify_hands_per_s, 1),
            "win_checks_per_s": round(self.win_checks_per_s, 1),
            "not_clean": self.not_clean,
            "cpu": self.cpu,
            "build": self.build,
        }


def pin_one_cpu() -> str:
    """Run on one CPU (the lowest allowed) where supported; describe the machine."""
    where = "unpinned"
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        if cpus:
            os.sched_setaffinity(0, {cpus[0]})
            where = f"pinned to cpu {cpus[0]} of {len(cpus)}"
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}; {where}; Python {platform.python_version()}"


def _pct(xs: list[float], p: float) -> float:
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))] if xs else 0.0


def run(games: int = 1000, ruleset: str = "standard", seed: int = 1,
        win_checks: int = 20000, repeat: int = 3) -> BenchResult:
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    cpu = pin_one_cpu()
    raws = [dumps(doc).encode("utf-8") for doc in simulate(games, seed, ruleset)]
    logs = [parse_log(raw) for raw in raws]
    events = sum(len(log.events) for log in logs)
    # The corpus is the harness's, not the verifier's: a worker holds one log at a time.
    # Frozen, its objects are not walked again by every full collection while we time.
    gc.collect()
    gc.freeze()
    clock = time.perf_counter
    timed: list[list[float]] = []
    for _ in range(repeat):
        arrangements.clear_caches()
        times: list[float] = []
        not_clean = 0
        for log in logs:
            t0 = clock()
            verdict = verify(log)
            times.append(clock() - t0)
            if verdict.status is not Status.CLEAN:
                not_clean += 1
        timed.append(times)
    arrangements.clear_caches()
    t0 = clock()
    for raw in raws:
        verify(parse_log(raw))
    pv_seconds = clock() - t0
    gc.unfreeze()
    totals = [sum(times) for times in timed]
    runs = tuple(len(logs) / s if s else 0.0 for s in totals)
    # a run's own: of an even number, the slower of the middle two
    seconds = statistics.median_high(totals)
    times = sorted(timed[totals.index(seconds)])
    wc = holdings.bench_win_checks(win_checks, seed)
    return BenchResult(
        games=len(logs),
        ruleset=ruleset,
        seed=seed,
        events=events,
        seconds=seconds,
        hands_per_s=len(logs) / seconds if seconds else 0.0,
        runs=runs,
        events_per_s=events / seconds if seconds else 0.0,
        p50_ms=_pct(times, 0.50) * 1000,
        p99_ms=_pct(times, 0.99) * 1000,
        parse_verify_hands_per_s=len(raws) / pv_seconds if pv_seconds else 0.0,
        win_checks_per_s=float(wc["checks_per_s"]),
        not_clean=not_clean,
        cpu=cpu,
        build=native.BUILD,
    )


def render(r: BenchResult) -> str:
    return (
        f"verify {r.games} simulated {r.ruleset} hands (seed {r.seed}, {r.events} events) "
        f"on one core\n"
        f"  hands/s        {r.hands_per_s:10.1f}   (median of {len(r.runs)} runs: "
        f"{' / '.join(f'{x:.0f}' for x in r.runs)})\n"
        f"  events/s       {r.events_per_s:10.1f}\n"
        f"  per hand p50   {r.p50_ms:10.3f} ms\n"
        f"  per hand p99   {r.p99_ms:10.3f} ms\n"
        f"  parse+verify   {r.parse_verify_hands_per_s:10.1f} hands/s\n"
        f"  win checks/s   {r.win_checks_per_s:10.1f}\n"
        f"  not clean      {r.not_clean:10d}\n"
        f"  machine        {r.cpu}\n"
        f"  build          {r.build}\n"
    )


__all__ = ["BenchResult", "render", "run"]
