"""Random holdings for fuzzing and timing the win search (moved out of the core).

``random_win`` builds holdings from seven groups (mostly wins), ``random_holding``
a random mid-game hand and card; ``bench_win_checks`` times
``arrangements.best_huxi`` on them with cold caches (``python -m replay bench``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from ..arrangements import GROUPS_IN_A_WIN, Meld, best_huxi, clear_caches
from ..cards import NUM_KINDS
from ..groups import FOURS, GroupKind

ALIKE_LEN: Final[dict[GroupKind, int]] = {
    GroupKind.TI: 4,
    GroupKind.PAO: 4,
    GroupKind.WEI: 3,
    GroupKind.CHOU_WEI: 3,
    GroupKind.PENG: 3,
}


def take(deck: list[int], cards: Sequence[int]) -> bool:
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    if any(deck[c] < n for c, n in need.items()):
        return False
    for c, n in need.items():
        deck[c] -= n
    return True


def random_shape(rng: random.Random) -> tuple[int, ...]:
    roll = rng.random()
    if roll < 0.6:
        case = rng.choice((0, 10))
        start = rng.randrange(8)
        return (case + start, case + start + 1, case + start + 2)
    if roll < 0.75:
        case = rng.choice((0, 10))
        return (case + 1, case + 6, case + 9)
    r = rng.randrange(10)
    return (r, r, r + 10) if rng.random() < 0.5 else (r, r + 10, r + 10)


def random_win(rng: random.Random) -> tuple[list[Meld], list[int], int | None]:
    """Holdings built from seven groups (mostly wins; a few are not, e.g. an accidental 坎)."""
    deck = [4] * NUM_KINDS
    melds: list[Meld] = []
    for _ in range(rng.randrange(4)):
        kind = rng.choice(
            (GroupKind.PENG, GroupKind.WEI, GroupKind.CHI, GroupKind.TI, GroupKind.PAO)
        )
        for _attempt in range(20):
            if kind is GroupKind.CHI:
                cards = random_shape(rng)
            else:
                cards = (rng.randrange(NUM_KINDS),) * ALIKE_LEN[kind]
            if take(deck, cards):
                melds.append((kind, cards))
                break
    fours = sum(1 for kind, _ in melds if kind in FOURS)
    hand_cards: list[int] = []

    def fits(cards: tuple[int, ...]) -> bool:
        # No accidental 坎 or four in hand: only a deliberate 坎 holds three alike.
        kan = len(set(cards)) == 1 and len(cards) == 3
        return all(
            (hand_cards.count(c) == 0 if kan else hand_cards.count(c) + cards.count(c) < 3)
            for c in cards
        ) and take(deck, cards)

    while len(melds) + len(hand_cards) // 3 < GROUPS_IN_A_WIN - (1 if fours else 0):
        cards = (rng.randrange(NUM_KINDS),) * 3 if rng.random() < 0.12 else random_shape(rng)
        if fits(cards):
            hand_cards.extend(cards)
    if fours:
        while True:
            k = rng.randrange(NUM_KINDS)
            if fits((k, k)):
                hand_cards.extend((k, k))
                break
    card = hand_cards.pop(rng.randrange(len(hand_cards)))
    hand = [0] * NUM_KINDS
    for c in hand_cards:
        hand[c] += 1
    return melds, hand, card


def random_holding(rng: random.Random) -> tuple[list[Meld], list[int], int | None]:
    """A random hand of the right size (what a player holds mid-game) and a random card."""
    deck = [4] * NUM_KINDS
    melds: list[Meld] = []
    for _ in range(rng.randrange(3)):
        kind = rng.choice((GroupKind.PENG, GroupKind.CHI, GroupKind.WEI, GroupKind.PAO))
        cards = random_shape(rng) if kind is GroupKind.CHI else (rng.randrange(NUM_KINDS),) * (
            ALIKE_LEN[kind]
        )
        if take(deck, cards):
            melds.append((kind, cards))
    fours = sum(1 for kind, _ in melds if kind in FOURS)
    size = 20 + max(0, fours - 1) - sum(len(c) for _, c in melds)
    pool = [k for k in range(NUM_KINDS) for _ in range(deck[k])]
    picked = rng.sample(pool, size + 1)
    card = picked.pop()
    hand = [0] * NUM_KINDS
    for c in picked:
        hand[c] += 1
    for k in range(NUM_KINDS):
        if hand[k] == 4:  # four alike never stay in hand
            hand[k] = 0
            melds.append((GroupKind.TI, (k,) * 4))
    return melds, hand, card


def bench_win_checks(n: int, seed: int) -> dict[str, float | int]:
    """Time ``best_huxi`` on ``n`` holdings (half built as wins, half random), caches cold."""
    rng = random.Random(seed)
    cases = [(random_win if i % 2 == 0 else random_holding)(rng) for i in range(n)]
    frozen = [(tuple(m), tuple(h), c) for m, h, c in cases]
    clear_caches()
    wins = 0
    start = time.perf_counter()
    for m, h, c in frozen:
        if best_huxi(m, h, c) >= 0:
            wins += 1
    seconds = time.perf_counter() - start
    return {
        "checks": n,
        "wins": wins,
        "seconds": round(seconds, 6),
        "checks_per_s": int(n / seconds) if seconds > 0 else 0,
        "seed": seed,
    }
