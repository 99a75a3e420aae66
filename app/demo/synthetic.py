"""Hands made here, for when the simulator (``replay.tools.simulate``) is not available.

A shuffled deal that is abandoned at once is a valid, clean ``paohuzi-log/1`` hand;
the doctored variants carry a wrong deal commitment (a violation about the deal) or
an out-of-turn discard (a violation by a seat).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from replay.cards import NAMES

PLAYERS = tuple(f"p-{n}" for n in range(1001, 1013))
EPOCH = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


def commitment(salt: str, hands: list[list[str]], stock: list[str]) -> str:
    text = salt + ":" + "|".join(",".join(h) for h in hands) + "|" + ",".join(stock)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand(
    rng: random.Random,
    index: int,
    *,
    ruleset: str = "standard",
    doctor: str = "",
    game_id: str | None = None,
) -> dict[str, Any]:
    """One abandoned hand; ``doctor`` is ``""``, ``"commitment"`` or ``"out_of_turn"``."""
    deck = [name for name in NAMES for _ in range(4)]
    rng.shuffle(deck)
    dealer = index % 3
    hands: list[list[str]] = [[], [], []]
    pos = 0
    for seat in range(3):
        size = 21 if seat == dealer else 20
        hands[seat] = deck[pos : pos + size]
        pos += size
    stock = deck[pos:]
    salt = f"{rng.getrandbits(64):016x}"
    sha = commitment(salt, hands, stock)
    if doctor == "commitment":
        sha = hashlib.sha256(sha.encode()).hexdigest()
    seats = rng.sample(PLAYERS, 3)
    events: list[dict[str, Any]] = []
    if doctor == "out_of_turn":
        other = (dealer + 1) % 3
        events.append({"type": "discard", "seat": other, "card": hands[other][0]})
    events.append({"type": "end", "reason": "abandoned"})
    doc: dict[str, Any] = {
        "format": "paohuzi-log/1",
        "game_id": game_id or f"demo-{ruleset}-{index:05d}",
        "ruleset": ruleset,
        "match": {"id": f"room-{index // 8:04d}", "hand": index % 8 + 1},
        "started_at": (EPOCH + timedelta(minutes=7 * index)).isoformat().replace("+00:00", "Z"),
        "players": [{"seat": s, "id": seats[s]} for s in range(3)],
        "dealer": dealer,
        "deal": {
            "hands": hands,
            "shown": hands[dealer][-1],
            "stock": stock,
            "commitment": {"salt": salt, "sha256": sha},
        },
        "events": events,
    }
    if doctor:
        doc["meta"] = {"demo_doctored": doctor}
    return doc


def hands(games: int, seed: int, ruleset: str, doctored_every: int = 5) -> Iterator[dict[str, Any]]:
    """``games`` hands; every ``doctored_every``-th one doctored (0: none)."""
    rng = random.Random(seed)
    for index in range(games):
        doctored = doctored_every and index % doctored_every == doctored_every - 1
        doctor = ("commitment", "out_of_turn")[index // doctored_every % 2] if doctored else ""
        yield hand(rng, index, ruleset=ruleset, doctor=doctor)
