"""Perft for the rules: how many legal action sequences of each length a deal allows.

python-chess's perft files are the model: fixed positions (here: fixed deals) and,
for each depth, the number of leaf nodes of the tree of legal actions
(``replay.actions.legal_actions``; a ``pass`` changes nothing and is not a move).
No bot, no simulator and no randomness beyond the fixed shuffles below take part, so
the counts move only when a rule moves (``tests/rules/test_perft.py``). When a rule
change is meant, regenerate on purpose and review the diff:

    python -m tests.rules.perft.counts --write
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from replay.actions import legal_actions
from replay.cards import NAMES
from replay.logformat import parse_log
from replay.model import EventType
from replay.state import State

FILE = Path(__file__).with_name("perft.json")
DEPTH = 5
#: deal name -> (ruleset, dealer, the seed of ``random.Random`` that shuffles the 80 cards)
DEALS: dict[str, tuple[str, int, str]] = {
    **{f"standard-{i}": ("standard", i % 3, f"perft/{i}") for i in range(3)},
    **{f"hengshan-{i}": ("hengshan", i % 3, f"perft/{i}") for i in range(3)},
}


def deal_state(name: str) -> State:
    ruleset, dealer, seed = DEALS[name]
    deck = [n for n in NAMES for _ in range(4)]
    random.Random(seed).shuffle(deck)
    # deal in deck order: the dealer's 21 (or 20), ..., the stock last, top first
    sizes = [21 if s == dealer else 20 for s in range(3)]
    hands, pos = [], 0
    for n in sizes:
        hands.append(sorted(deck[pos:pos + n], key=NAMES.index))
        pos += n
    doc = {"format": "paohuzi-log/1", "game_id": f"perft-{name}", "ruleset": ruleset,
           "players": [{"seat": s, "id": f"p{s}"} for s in range(3)], "dealer": dealer,
           "deal": {"hands": hands, "shown": hands[dealer][-1], "stock": deck[pos:]},
           "events": []}
    return State(parse_log(json.dumps(doc)))


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = [a for a in legal_actions(state) if a.type is not EventType.PASS]
    if depth == 1:
        return len(moves)
    return sum(perft(state.child(a.event()), depth - 1) for a in moves)


def counts(name: str, depth: int = DEPTH) -> list[int]:
    """Leaf counts at depth 1..``depth``."""
    st = deal_state(name)
    return [perft(st, d) for d in range(1, depth + 1)]


def all_counts() -> dict[str, dict[str, object]]:
    """The data file: each deal (its ruleset, dealer and shuffle) and depth -> leaf count."""
    out: dict[str, dict[str, object]] = {}
    for name, (ruleset, dealer, seed) in DEALS.items():
        got = counts(name)
        out[name] = {"ruleset": ruleset, "dealer": dealer, "shuffle": seed,
                     "counts": {str(d): n for d, n in enumerate(got, 1)}}
    return out


def pinned() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(FILE.read_text())
    return data


if __name__ == "__main__":
    got = all_counts()
    old = pinned() if FILE.exists() else {}
    for name, entry in got.items():
        prev = old.get(name)
        was = prev.get("counts") if isinstance(prev, dict) else prev
        mark = "" if prev == entry else f"  (was {was})"
        print(f"{name}: {entry['counts']}{mark}")
    if "--write" in sys.argv:
        FILE.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
