"""Corpus statistics: how often each thing happens over many logs.

``python -m replay stats DIR|-`` re-executes every log (files ``*.json`` and
``*.ndjson`` under DIR, or NDJSON on standard input) and counts event types,
decision kinds, fans, finding codes, endings, the rarer situations the rules
single out (each 提/跑 origin, 重跑, 比 with one and two groups, 海底, 天胡, a
win after a 臭胡, 免张, …) and the distribution of hand length in events, so
anyone can see that a corpus reaches everything.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TextIO

from ..audit import Audit
from ..groups import FOURS
from ..logformat import LogFormatError, parse_log
from ..mingtang import MINGTANG
from ..model import EventType, Log
from ..results import FAN_CHINESE
from ..state import State
from ..verdict import DecisionKind, Verdict

EVENT_TYPES: Final = tuple(str(t) for t in EventType)
DECISION_KINDS: Final = tuple(str(k) for k in DecisionKind)
#: the fans each profile can give (hengshan has 红胡 only)
FANS_BY_RULESET: Final[dict[str, tuple[str, ...]]] = {
    "standard": ("hong_hu", "dian_hu", "hong_wu", "wu_hu", "dui_dui_hu", "hai_di"),
    "hengshan": ("hong_hu",),
    "changde": tuple(m.name for m in MINGTANG),
}
#: decision kinds each profile can record (免张 is hengshan's)
DECISIONS_BY_RULESET: Final[dict[str, tuple[str, ...]]] = {
    "standard": ("guo_zhang", "chou_pai", "chou_wei", "chou_hu", "check"),
    "hengshan": ("guo_zhang", "chou_pai", "chou_wei", "chou_hu", "mian_zhang", "check"),
    "changde": ("guo_zhang", "chou_pai", "chou_wei", "chou_hu", "check"),
}
#: situations the issue asks the simulator to reach (see ``features``)
REQUIRED_FEATURES: Final = (
    "ti:dealt", "ti:kan", "ti:wei", "pao:kan", "pao:wei", "pao:peng", "chong_pao",
    "bi_groups:1", "bi_groups:2", "hai_di", "exhausted", "tian_hu:mandatory",
    "tian_hu:shown", "win_after_chou_hu", "chou_wei", "guo_zhang", "chou_hu",
)


@dataclass(slots=True)
class Stats:
    hands: int = 0
    unreadable: int = 0
    rulesets: Counter[str] = field(default_factory=Counter)
    status: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    fans: Counter[str] = field(default_factory=Counter)
    findings: Counter[str] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)

    def add(self, log: Log) -> Verdict:
        feats: Counter[str] = Counter()

        def hook(i: int, rep: State) -> None:
            e = log.events[i]
            if e.seat is None:
                return
            st = rep.table.seats[e.seat]
            for m in st.melds:
                if m.seq != i:
                    continue
                if m.kind in FOURS:
                    feats[f"{m.kind}:{m.origin}"] += 1
                    if st.fours >= 2:
                        feats["chong_pao"] += 1
            if e.type is EventType.CHI:
                feats[f"bi_groups:{len(e.groups) - 1}"] += 1
                if any(g.count(e.card) >= 2 for g in e.groups[1:] if e.card is not None):
                    feats["bi_two_copies_one_group"] += 1
            if e.type is EventType.PASS:
                feats["pass_logged"] += 1

        audit = Audit(log, on_step=hook)
        verdict = audit.run()
        rep = audit.state
        self.hands += 1
        self.rulesets[log.ruleset] += 1
        self.status[str(verdict.status)] += 1
        self.lengths.append(len(log.events))
        for t in (e.type for e in log.events):
            self.events[str(t)] += 1
        for d in verdict.decisions:
            self.decisions[str(d.kind)] += 1
            if d.kind is DecisionKind.CHECK:
                self.decisions[f"check:{d.outcome}"] += 1
            elif d.kind is not DecisionKind.MIAN_ZHANG:
                feats[str(d.kind)] += 1
            else:
                feats["mian_zhang"] += 1
        for f in verdict.findings:
            self.findings[str(f.code)] += 1
        expected = (verdict.score or {}).get("expected") or {}
        outcome = expected.get("outcome") or ("truncated" if rep.outcome is None else
                                              str(rep.outcome))
        self.endings[str(outcome)] += 1
        if outcome == "exhausted":
            feats["exhausted"] += 1
        if outcome == "hu":
            for fan in expected.get("fans") or []:
                self.fans[fan] += 1
            if not expected.get("fans"):
                self.fans["(none: ping_hu)"] += 1
            facts = set(expected.get("facts") or [])
            for fact in sorted(facts):
                feats[f"fact:{fact}"] += 1
            if "hai_di" in facts:
                feats["hai_di"] += 1
            if "tian_hu" in facts:
                last = log.events[-1] if log.events else None
                kind = "mandatory" if last is not None and last.card is None else "shown"
                feats[f"tian_hu:{kind}"] += 1
            winner = expected.get("winner")
            if any(d.kind is DecisionKind.CHOU_HU and d.seat == winner
                   for d in verdict.decisions):
                feats["win_after_chou_hu"] += 1
        rig = ((log.raw.get("meta") or {}).get("simulator") or {}).get("rig")
        if isinstance(rig, str):
            feats[f"rigged:{rig.split('@')[0]}"] += 1
        for key, n in feats.items():
            # features count hands, not occurrences
            self.features[key] += 1 if n else 0
        return verdict

    # ------------------------------------------------------------------ output
    def length_summary(self) -> dict[str, Any]:
        xs = sorted(self.lengths)
        if not xs:
            return {}

        def pct(p: float) -> int:
            return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))]

        hist: Counter[str] = Counter()
        for x in xs:
            lo = (x // 10) * 10
            hist[f"{lo:03d}-{lo + 9:03d}"] += 1
        return {
            "min": xs[0], "p10": pct(0.10), "p50": pct(0.50), "p90": pct(0.90),
            "p99": pct(0.99), "max": xs[-1], "mean": round(sum(xs) / len(xs), 1),
            "histogram": dict(sorted(hist.items())),
        }

    def missing(self) -> dict[str, list[str]]:
        """What a corpus of these rulesets should reach and did not."""
        want_fans: set[str] = set()
        want_dec: set[str] = set()
        for r in self.rulesets:
            want_fans |= set(FANS_BY_RULESET.get(r, ()))
            want_dec |= set(DECISIONS_BY_RULESET.get(r, ()))
        return {
            "events": [t for t in EVENT_TYPES if not self.events[t]],
            "decisions": sorted(d for d in want_dec if not self.decisions[d]),
            "fans": sorted(f for f in want_fans if not self.fans[f]),
            "features": [f for f in REQUIRED_FEATURES if not self.features[f]],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "unreadable": self.unreadable,
            "rulesets": dict(sorted(self.rulesets.items())),
            "status": dict(sorted(self.status.items())),
            "endings": dict(sorted(self.endings.items())),
            "events": {t: self.events[t] for t in EVENT_TYPES},
            "decisions": dict(sorted(self.decisions.items())),
            "fans": dict(sorted(self.fans.items())),
            "findings": dict(sorted(self.findings.items())),
            "features": dict(sorted(self.features.items())),
            "length": self.length_summary(),
            "missing": self.missing(),
        }

    def render(self, out: TextIO) -> None:
        def block(title: str, counts: dict[str, int], total: int | None = None) -> None:
            out.write(f"\n{title}\n")
            if not counts:
                out.write("  (none)\n")
            width = max((len(k) for k in counts), default=0)
            for k, n in counts.items():
                share = f"  {100 * n / total:6.2f}%" if total else ""
                out.write(f"  {k:<{width}}  {n:>8}{share}\n")

        j = self.to_json()
        out.write(f"hands: {self.hands}  unreadable: {self.unreadable}  rulesets: "
                  f"{', '.join(f'{k} {v}' for k, v in j['rulesets'].items())}\n")
        block("verdict status (share of hands)", j["status"], self.hands)
        block("endings (share of hands)", j["endings"], self.hands)
        block("event types (occurrences)", j["events"])
        block("decision kinds (occurrences)", j["decisions"])
        wins = self.endings.get("hu", 0)
        block("fans (share of wins)", {
            f"{k} {FAN_CHINESE[k]}" if k in FAN_CHINESE else k: n for k, n in j["fans"].items()
        }, wins or None)
        block("finding codes (occurrences)", j["findings"])
        block("situations (hands with at least one)", j["features"], self.hands)
        length = j["length"]
        if length:
            out.write("\nhand length in events\n")
            out.write("  " + "  ".join(f"{k} {length[k]}" for k in
                                       ("min", "p10", "p50", "p90", "p99", "max", "mean")) + "\n")
            block("  histogram", length["histogram"], self.hands)
        missing = {k: v for k, v in j["missing"].items() if v}
        out.write("\nnot reached: " + (json.dumps(missing, ensure_ascii=False) if missing
                                       else "nothing: every event type, decision kind and fan "
                                       "occurs") + "\n")


def read_docs(source: str) -> Iterator[bytes]:
    """Raw logs from a directory (``*.json`` one log a file, ``*.ndjson`` one a line), a
    file, or ``-`` (NDJSON, or one JSON document, on standard input)."""
    if source == "-":
        data = sys.stdin.buffer.read()
        yield from _split(data)
        return
    path = Path(source)
    files = sorted(p for p in path.rglob("*") if p.suffix in (".json", ".ndjson")) \
        if path.is_dir() else [path]
    for p in files:
        yield from _split(p.read_bytes())


def _split(data: bytes) -> Iterator[bytes]:
    stripped = data.strip()
    if not stripped:
        return
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith(b"{") for line in lines):
        try:
            json.loads(lines[0])
            yield from lines
            return
        except ValueError:
            pass
    yield stripped


def collect(raw_logs: Iterable[bytes | str | dict[str, Any]]) -> Stats:
    stats = Stats()
    for raw in raw_logs:
        try:
            log = parse_log(raw)
        except LogFormatError:
            stats.unreadable += 1
            continue
        stats.add(log)
    return stats


__all__ = ["Stats", "collect", "read_docs", "FANS_BY_RULESET", "REQUIRED_FEATURES"]
