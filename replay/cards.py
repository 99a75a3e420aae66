"""The 80 cards: 20 kinds as small ints, their names, faces and colours.

A kind is an ``int`` 0..19: 0..9 are the small ``x1``..``x10`` (一..十),
10..19 the big ``d1``..``d10`` (壹..拾). A hand is a list of 20 counts indexed
by kind. Seats are 0, 1, 2; play passes to ``next_seat``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

Card = int
Counts = list[int]

NUM_KINDS: Final = 20
COPIES: Final = 4
NUM_SEATS: Final = 3

NAMES: Final[tuple[str, ...]] = tuple(f"x{r}" for r in range(1, 11)) + tuple(
    f"d{r}" for r in range(1, 11)
)
FACES: Final[tuple[str, ...]] = tuple("一二三四五六七八九十") + tuple("壹贰叁肆伍陆柒捌玖拾")
_BY_NAME: Final[dict[str, Card]] = {n: i for i, n in enumerate(NAMES)}

RED: Final[frozenset[Card]] = frozenset({1, 6, 9, 11, 16, 19})
_RED_TABLE: Final[tuple[bool, ...]] = tuple(k in RED for k in range(NUM_KINDS))


def parse_card(name: str) -> Card:
    """``"x3"`` -> 2. Raises ``KeyError`` for anything that is not a card name."""
    return _BY_NAME[name]


def is_card_name(name: object) -> bool:
    return isinstance(name, str) and name in _BY_NAME


def card_name(card: Card) -> str:
    return NAMES[card]


def face(card: Card) -> str:
    return FACES[card]


def rank(card: Card) -> int:
    """1..10, the same for 五 and 伍."""
    return card % 10 + 1


def is_big(card: Card) -> bool:
    return card >= 10


def is_red(card: Card) -> bool:
    return _RED_TABLE[card]


def other_case(card: Card) -> Card:
    """The same rank in the other case: x3 <-> d3."""
    return card + 10 if card < 10 else card - 10


def next_seat(seat: int) -> int:
    return (seat + 1) % 3


def prev_seat(seat: int) -> int:
    return (seat + 2) % 3


def counts_of(cards: Iterable[Card]) -> Counts:
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[Card]:
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def red_count(counts: Sequence[int]) -> int:
    return sum(n for k, n in enumerate(counts) if _RED_TABLE[k])


def names(cards: Iterable[Card]) -> list[str]:
    return [NAMES[c] for c in cards]
