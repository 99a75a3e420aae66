"""The table at every step of a hand, for replay pages and the API.

``table_steps(log)`` runs the engine once and returns the verdict and a list
of snapshots: element 0 is the deal (before any event), element ``i + 1`` the
table after event ``i``. Each snapshot is plain JSON data. ``for_seat`` hides
what one seat could not know at that step.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .audit import Audit
from .cards import card_name, cards_of, names
from .model import Log
from .results import Score
from .state import State
from .verdict import Verdict


@dataclass(frozen=True, slots=True)
class Steps:
    verdict: Verdict
    steps: list[dict[str, Any]]
    #: the expected score as a typed value (the verdict holds its JSON)
    expected: Score | None = None


def _snapshot(r: State, seq: int, n_findings: int, n_decisions: int) -> dict[str, Any]:
    seats = []
    for s, st in enumerate(r.table.seats):
        led = r.ledger.seats[s]
        seats.append({
            "seat": s,
            "player": r.log.players[s],
            "dealer": s == r.log.dealer,
            "hand": names(cards_of(st.hand)),
            "melds": [
                {"kind": str(m.kind), "cards": names(m.cards), "face_up": m.face_up_count(),
                 "huxi": m.huxi, "seq": m.seq, "origin": m.origin}
                for m in st.melds
            ],
            "row": names(st.row),
            "table_huxi": st.table_huxi,
            "chou_pai": sorted(names(led.chou_pai)),
            "guo_zhang": sorted(names(led.guo_zhang)),
        })
    w = r.window
    revealed = None
    if w is not None:
        revealed = {"card": card_name(w.card), "from": w.src,
                    "source": "draw" if w.drawn else "discard", "seq": w.seq}
    elif r.drawn is not None:
        revealed = {"card": card_name(r.drawn.card), "from": r.drawn.seat, "source": "draw",
                    "seq": r.drawn.seq}
    return {
        "seq": seq,
        "event": r.log.raw["events"][seq] if seq >= 0 else None,
        "phase": str(r.phase),
        "turn": r.turn,
        "seats": seats,
        "shown": card_name(r.log.deal.shown),
        "stock_left": r.table.stock_left,
        "revealed": revealed,
        "findings": [f.to_json() for f in r.findings[n_findings:]],
        "decisions": [d.to_json() for d in r.ledger.decisions[n_decisions:]],
    }


def table_steps(log: Log) -> Steps:
    steps: list[dict[str, Any]] = []
    counts = [0, 0]

    def hook(seq: int, r: State) -> None:
        if steps and steps[-1]["seq"] == seq:
            return  # the replay stopped on this event: already recorded
        steps.append(_snapshot(r, seq, counts[0], counts[1]))
        counts[0], counts[1] = len(r.findings), len(r.ledger.decisions)

    audit = Audit(log, on_step=hook)
    verdict = audit.run()
    # what the end of the log adds (log_truncated, the score check) belongs to the last step
    last = steps[-1]
    done = {(f["seq"], f["code"], f["message"]) for st in steps for f in st["findings"]}
    last["findings"] += [f.to_json() for f in verdict.findings
                         if (f.seq, str(f.code), f.message) not in done]
    last["decisions"] += [d.to_json() for d in audit.state.ledger.decisions[counts[1]:]]
    return Steps(verdict, steps, audit.state.expected)


def for_seat(step: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` could know at this step: its own hand, public melds, discards."""
    out = copy.deepcopy(step)
    for s in out["seats"]:
        if s["seat"] == seat:
            continue
        s["hand"] = ["?"] * len(s["hand"])
        for m in s["melds"]:
            shown = m["face_up"]
            m["cards"] = m["cards"][:shown] + ["?"] * (len(m["cards"]) - shown)
    return out
