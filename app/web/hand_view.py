"""What the replay pages print: a hand's table, audit, score and event list as view data,
with the glossary's Chinese names (codes as tooltips). The rules core is reached through
the bridge ``replay`` (this package's module) only.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from .names import ALL_NAMES, EVENT_NAMES, MELD_NAMES, MESSAGE_CODES
from .replay import DEAL, FACE, RESULT_FIELDS, Hand, card, for_seat
from .score_panel import arrangement_groups, score_panel

_WORD = re.compile(
    r"\b(?P<card>[xd](?:10|[1-9]))\b|\b(?P<code>"
    + "|".join(sorted((re.escape(k) for k in MESSAGE_CODES), key=len, reverse=True))
    + r")\b"
)


def human(text: object) -> Markup:
    """A verdict message or ledger detail with card and rule codes as Chinese names (the
    codes in tooltips: ``<abbr title="x3">三</abbr>``). Everything else is escaped."""
    source = str(text)
    out: list[str] = []
    at = 0
    for m in _WORD.finditer(source):
        out.append(str(escape(source[at : m.start()])))
        word = m.group(0)
        name = FACE[word] if m.group("card") else ALL_NAMES[word]
        out.append(str(Markup('<abbr class="cn" title="{}">{}</abbr>').format(word, name)))
        at = m.end()
    out.append(str(escape(source[at:])))
    return Markup("".join(out))

#: what the pages print for melds, events and fans: the glossary's Chinese names.
KIND_LABELS = MELD_NAMES
EVENT_VERBS = EVENT_NAMES
SCORE_FIELDS = RESULT_FIELDS


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
        reason = {"exhausted": "荒庄 (the stock ran out)", "abandoned": "abandoned (a player left)"}
        return [f"终局: {reason.get(str(ev.get('reason')), ev.get('reason', ''))}."]
    who = seat_label(hand, ev.get("seat"))
    c = card("?" if hide_card else ev.get("card"))
    if kind == "hu" and ev.get("card") is None:
        return [f"{who} 天胡 (mandatory)."]
    parts: list[Any] = [f"{who} {EVENT_VERBS.get(str(kind), str(kind))}", c]
    if kind == "chi":
        groups = ev.get("groups") or []
        if groups:
            parts += ["→", [card(n) for n in groups[0]]]
        for g in groups[1:]:
            parts += ["比", [card(n) for n in g]]
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
    step = raw if viewer is None else for_seat(raw, viewer)
    hide_draw = _hidden_draw(hand, raw, viewer)
    seats = []
    chou_of: dict[int, set[str]] = {}
    for s in step["seats"]:
        own = viewer is None or s["seat"] == viewer
        # 臭牌 (own discards) are public; 过张 depends on a hand, known to its owner only.
        chou_pai = list(s["chou_pai"])
        guo_zhang = list(s["guo_zhang"]) if own else []
        why = {k: "过张" for k in guo_zhang} | {k: "臭牌" for k in chou_pai}
        kinds = set(why)
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
                "hand": [card(c, chou=why.get(c, "")) for c in s["hand"]],
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
        "arrangement": arrangement_groups(hand.expected, card, KIND_LABELS),
        "panel": score_panel(hand.expected, claimed),
        "diff": [r for r in rows if r["mismatch"]],
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
                "who": (
                    "the whole hand" if f.get("seat") is None else seat_label(hand, f.get("seat"))
                ),
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
        "first_finding": min((f["step"] for f in findings), default=None),
        "decisions": decisions,
        "score": score_view(hand),
    }


def event_list(hand: Hand, viewer: int | None) -> list[dict[str, Any]]:
    """Every step as one line of the clickable event list (and the script's index):
    ``n``, ``label`` (plain text, with card faces), ``f`` (findings at that step)."""
    out = []
    for s in hand.steps:
        ev = s["event"]
        if ev is None:
            label = "发牌 the deal"
        else:
            kind = str(ev.get("type"))
            verb = EVENT_VERBS.get(kind, kind)
            name = ev.get("card")
            shown = "" if not name or _hidden_draw(hand, s, viewer) else FACE.get(name, "")
            who = f"seat {ev['seat']}" if "seat" in ev else ""
            label = " ".join(x for x in (who, verb, shown) if x)
        out.append({"n": s["seq"], "label": label, "f": len(s["findings"])})
    return out


def index_json(hand: Hand, viewer: int | None = None) -> list[dict[str, Any]]:
    """The small per-step index the page script needs (numbers and a short label)."""
    return event_list(hand, viewer)
