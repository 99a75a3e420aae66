"""The replay of one hand as view data: cards with faces, what each seat may see, the
audit beside it. Built from ``replay.table_steps`` on the stored log bytes.

A step number is an absolute event index: step ``N`` is the table right after event
``N`` (its ``seq``); step ``-1`` is the deal, before any event.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import replay
from replay.cards import FACES, NAMES, is_red, parse_card

DEAL = -1

_FACE = dict(zip(NAMES, FACES, strict=True))

#: the glossary's English names, with the Chinese beside them.
KIND_LABELS = {
    "ti": "ti 提",
    "pao": "pao 跑",
    "wei": "wei 偎",
    "chou_wei": "chou_wei 臭偎",
    "peng": "peng 碰",
    "chi": "chi 吃",
    "bi": "bi 比",
    "kan": "kan 坎",
    "sentence": "sentence 一句话",
    "jiao": "jiao 绞",
    "pair": "pair 将",
}
EVENT_VERBS = {
    "draw": "draws",
    "discard": "discards",
    "ti": "ti 提",
    "wei": "wei 偎",
    "pao": "pao 跑",
    "peng": "peng 碰",
    "chi": "chi 吃",
    "pass": "passes on",
    "hu": "hu 胡 on",
}
FAN_LABELS = {
    "hong_hu": "hong_hu 红胡",
    "dian_hu": "dian_hu 点胡",
    "hong_wu": "hong_wu 红乌",
    "wu_hu": "wu_hu 乌胡",
    "dui_dui_hu": "dui_dui_hu 对对胡",
    "hai_di": "hai_di 海底",
}
SCORE_FIELDS = (
    "outcome",
    "winner",
    "huxi",
    "grade",
    "duo",
    "fans",
    "multiplier",
    "points",
    "scores",
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card as drawn on the page. ``name`` is ``"?"`` for a card the viewer cannot see."""

    name: str
    down: bool = False  # face down on the table (shown, but marked, in the full view)
    chou: bool = False  # a 臭 kind for the seat it sits with

    @property
    def hidden(self) -> bool:
        return self.name == "?"

    @property
    def face(self) -> str:
        return _FACE.get(self.name, "")

    @property
    def red(self) -> bool:
        return not self.hidden and is_red(parse_card(self.name))

    @property
    def big(self) -> bool:
        return self.name.startswith("d")

    @property
    def speech(self) -> str:
        """What a screen reader says: the canonical name."""
        if self.hidden:
            return "hidden card"
        extra = ", face down" if self.down else ""
        extra += ", 臭 for this seat" if self.chou else ""
        return f"{self.name}{extra}"


def card(name: str | None, **kw: bool) -> Card:
    return Card(name or "?", **kw)


@dataclass(slots=True)
class Hand:
    """A stored hand and its replay."""

    game_id: str
    ruleset: str
    dealer: int
    players: list[str]
    raw_sha256: str
    events: list[dict[str, Any]]
    steps: list[dict[str, Any]]
    verdict: dict[str, Any]
    played_at: Any = None
    stored_engine: str | None = None
    numbers: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.numbers = [s["seq"] for s in self.steps]

    @property
    def first(self) -> int:
        return self.numbers[0]

    @property
    def last(self) -> int:
        return self.numbers[-1]

    def clamp(self, n: int | None) -> int:
        if n is None:
            return self.first
        if n <= self.first:
            return self.first
        if n >= self.last:
            return self.last
        best = self.first
        for k in self.numbers:
            if k <= n:
                best = k
        return best

    def step(self, n: int) -> dict[str, Any]:
        return self.steps[self.numbers.index(self.clamp(n))]

    def step_of_seq(self, seq: int | None, code: str | None = None) -> int:
        """Where a finding or decision is shown: its event; the deal for deal findings,
        the end for the result and for a log that stops early."""
        if seq is None:
            return self.first if code in ("deal_invalid", "commitment_mismatch") else self.last
        return self.clamp(seq)


# --- loading, with a small cache (a log's bytes never change) ----------------------------

_CACHE: OrderedDict[tuple[str, str], Hand] = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 64


def build_hand(
    raw: bytes, raw_sha256: str, *, stored_engine: str | None = None, played_at: Any = None
) -> Hand:
    key = (raw_sha256, replay.ENGINE_VERSION)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
    if hit is None:
        log = replay.parse_log(raw)
        result = replay.table_steps(log)
        hit = Hand(
            game_id=log.game_id,
            ruleset=log.ruleset,
            dealer=log.dealer,
            players=list(log.players),
            raw_sha256=raw_sha256,
            events=list(log.raw.get("events") or []),
            steps=result.steps,
            verdict=result.verdict.to_json(),
        )
        with _LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    # the cached hand is shared by every request: each gets its own copy of the header
    return dataclasses.replace(hit, stored_engine=stored_engine, played_at=played_at)


# --- one step as the page draws it ----------------------------------------------------------


def _hidden_draw(hand: Hand, step: dict[str, Any], viewer: int | None) -> bool:
    """A card another seat drew and then 偎'd or 提'd at once: never shown to ``viewer``."""
    ev = step.get("event")
    if viewer is None or not ev or ev.get("type") != "draw" or ev.get("seat") == viewer:
        return False
    seq = step["seq"]
    nxt = hand.events[seq + 1] if seq + 1 < len(hand.events) else None
    return bool(
        nxt
        and nxt.get("type") in ("wei", "ti")
        and nxt.get("seat") == ev.get("seat")
        and nxt.get("card") == ev.get("card")
    )


def seat_label(hand: Hand, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(hand.players):
        return "—"
    return f"seat {seat} ({hand.players[seat]})"


def event_parts(hand: Hand, ev: dict[str, Any] | None, *, hide_card: bool = False) -> list[Any]:
    """An event as text and cards, for the template: ``[str | Card | list[Card]]``."""
    if ev is None:
        return ["The deal: the dealer holds 21 cards, the others 20; 19 stay in the stock."]
    kind = ev.get("type")
    if kind == "end":
        return [f"The hand ends: {ev.get('reason', '')}."]
    who = seat_label(hand, ev.get("seat"))
    c = card("?" if hide_card else ev.get("card"))
    if kind == "hu" and ev.get("card") is None:
        return [f"{who} declares a mandatory tian_hu 天胡."]
    parts: list[Any] = [f"{who} {EVENT_VERBS.get(str(kind), str(kind))}", c]
    if kind == "chi":
        groups = ev.get("groups") or []
        if groups:
            parts += ["into", [card(n) for n in groups[0]]]
        for g in groups[1:]:
            parts += ["with bi 比", [card(n) for n in g]]
    return parts


def _fate(hand: Hand, step: dict[str, Any]) -> str | None:
    """What became of the revealed card: who took it, or where it went."""
    rev = step.get("revealed")
    if not rev:
        return None
    name = rev["card"]
    passed: list[str] = []
    for ev in hand.events[step["seq"] + 1 :]:
        t = ev.get("type")
        if t == "pass":
            passed.append(str(ev.get("seat")))
            continue
        lead = f"passed by seat {', '.join(passed)}; " if passed else ""
        if t in ("chi", "peng", "pao", "hu", "wei", "ti") and ev.get("card") == name:
            return f"{lead}taken: {EVENT_VERBS[t]} by {seat_label(hand, ev.get('seat'))}"
        if t == "end":
            return f"{lead}the hand ended ({ev.get('reason', '')})"
        return f"{lead}not claimed: it went to {seat_label(hand, rev['from'])}'s discards"
    if passed:
        return f"passed by seat {', '.join(passed)}; the log ends here"
    return "the log ends here"


def table_view(hand: Hand, n: int, viewer: int | None) -> dict[str, Any]:
    """Everything the table fragment draws at step ``n`` for ``viewer`` (None: all cards)."""
    raw = hand.step(n)
    step = raw if viewer is None else replay.for_seat(raw, viewer)
    hide_draw = _hidden_draw(hand, raw, viewer)
    seats = []
    chou_of: dict[int, set[str]] = {}
    for s in step["seats"]:
        own = viewer is None or s["seat"] == viewer
        # 臭牌 (own discards) are public; 过张 depends on a hand, known to its owner only.
        chou_pai = list(s["chou_pai"])
        guo_zhang = list(s["guo_zhang"]) if own else []
        kinds = set(chou_pai) | set(guo_zhang)
        chou_of[s["seat"]] = kinds
        melds = []
        for m in s["melds"]:
            up = m["face_up"]
            melds.append(
                {
                    "kind": m["kind"],
                    "label": KIND_LABELS.get(m["kind"], m["kind"]),
                    "huxi": m["huxi"],
                    "seq": m["seq"],
                    "cards": [card(c, down=i >= up and c != "?") for i, c in enumerate(m["cards"])],
                    "down": len(m["cards"]) - up,
                }
            )
        seats.append(
            {
                "seat": s["seat"],
                "player": s["player"],
                "dealer": s["dealer"],
                "viewer": viewer == s["seat"],
                "hidden_hand": not own,
                "hand": [card(c, chou=c in kinds) for c in s["hand"]],
                "melds": melds,
                "row": [card(c) for c in s["row"]],
                "table_huxi": s["table_huxi"],
                "chou_pai": [card(c) for c in chou_pai],
                "guo_zhang": [card(c) for c in guo_zhang],
                "acting": step["event"] is not None and step["event"].get("seat") == s["seat"],
            }
        )
    rev = step.get("revealed")
    revealed = None
    if rev and not hide_draw:
        barred = [s for s, kinds in chou_of.items() if rev["card"] in kinds and s != rev["from"]]
        revealed = {
            "card": card(rev["card"]),
            "from": rev["from"],
            "from_label": seat_label(hand, rev["from"]),
            "source": rev["source"],
            "seq": rev["seq"],
            "fate": _fate(hand, raw),
            "barred": [seat_label(hand, s) for s in barred],
        }
    findings = step["findings"]
    decisions = step["decisions"]
    if viewer is not None:
        decisions = [d for d in decisions if d.get("seat") == viewer]
    decisions = [{**d, "outcome": d.get("outcome")} for d in decisions]
    return {
        "n": raw["seq"],
        "is_deal": raw["seq"] == DEAL,
        "is_last": raw["seq"] == hand.last,
        "phase": step["phase"],
        "turn": step["turn"],
        "event": event_parts(hand, step["event"], hide_card=hide_draw),
        "event_type": (step["event"] or {}).get("type", "deal"),
        "seats": seats,
        "shown": card(step["shown"]),
        "stock_left": step["stock_left"],
        "revealed": revealed,
        "findings": findings,
        "decisions": decisions,
        "viewer": viewer,
    }


_LABEL = re.compile(r"^(?P<kind>[a-z_]+) (?P<cards>[xd0-9 ]+?) \((?P<huxi>-?\d+)\)$")


def arrangement_groups(labels: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for label in labels:
        m = _LABEL.match(label)
        if m is None:
            out.append({"label": label, "kind": "", "cards": [], "huxi": None})
            continue
        out.append(
            {
                "label": KIND_LABELS.get(m["kind"], m["kind"]),
                "kind": m["kind"],
                "cards": [card(c) for c in m["cards"].split()],
                "huxi": int(m["huxi"]),
            }
        )
    return out


def score_view(hand: Hand) -> dict[str, Any] | None:
    score = hand.verdict.get("score")
    if not score:
        return None
    expected = score.get("expected") or {}
    claimed = score.get("claimed")
    mismatches = set(score.get("mismatches") or [])
    rows = []
    for f in SCORE_FIELDS:
        if f not in expected and (claimed is None or f not in claimed):
            continue
        rows.append(
            {
                "field": f,
                "expected": expected.get(f),
                "claimed": None if claimed is None else claimed.get(f, None),
                "claimed_given": claimed is not None and f in claimed,
                "mismatch": f in mismatches,
            }
        )
    return {
        "rows": rows,
        "arrangement": arrangement_groups(list(expected.get("arrangement") or [])),
        "facts": list(expected.get("facts") or []),
        "claimed": claimed is not None,
        "mismatches": sorted(mismatches),
        "expected": expected,
    }


def audit_view(hand: Hand, viewer: int | None) -> dict[str, Any]:
    v = hand.verdict
    findings = []
    for f in v.get("findings", []):
        findings.append(
            {
                **f,
                "step": hand.step_of_seq(f.get("seq"), f.get("code")),
                "ref_steps": [hand.step_of_seq(r) for r in f.get("refs") or []],
                "who": seat_label(hand, f.get("seat")),
            }
        )
    decisions = []
    for d in v.get("decisions", []):
        if viewer is not None and d.get("seat") != viewer:
            continue
        decisions.append(
            {
                **d,
                "outcome": d.get("outcome"),
                "step": hand.step_of_seq(d.get("seq")),
                "who": seat_label(hand, d.get("seat")),
                "card_view": card(d.get("card")) if d.get("card") else None,
            }
        )
    return {
        "status": v.get("status"),
        "engine": v.get("engine"),
        "findings": findings,
        "finding_steps": sorted({f["step"] for f in findings}),
        "decisions": decisions,
        "score": score_view(hand),
    }


def index_json(hand: Hand) -> list[dict[str, Any]]:
    """The small per-step index the page script needs (numbers and a short label)."""
    out = []
    for s in hand.steps:
        ev = s["event"]
        label = "deal" if ev is None else f"{ev.get('type')} seat {ev.get('seat', '')}".strip()
        out.append({"n": s["seq"], "label": label, "f": len(s["findings"])})
    return out
