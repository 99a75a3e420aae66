"""The opening (RULES §4): mandatory and optional 天胡, dealt fours.

Mandatory 天胡: dealt cards with ``tian_hu_fours`` fours or more, or
``tian_hu_threes`` threes-or-fours or more (a four counts as a three). Optional
天胡: the player's 20 cards plus the shown card (the dealer: its 21) form a
winning hand, the shown card counting as self-drawn in every respect.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import NUM_KINDS, Card, counts_of, next_seat, prev_seat
from .groups import GroupKind, group_huxi
from .model import Deal
from .profiles import Profile

MeldPair = tuple[GroupKind, tuple[Card, ...]]


def priority(dealer: int) -> tuple[int, int, int]:
    return (dealer, next_seat(dealer), prev_seat(dealer))


def mandatory_tian_hu(profile: Profile, hand: Sequence[int]) -> bool:
    fours = hand.count(4)
    threes = len(hand) - hand.count(0) - hand.count(1) - hand.count(2)  # (n >= 3)
    return fours >= profile.tian_hu_fours or threes >= profile.tian_hu_threes


def dealt_fours(hand: Sequence[int]) -> list[Card]:
    return [k for k in range(NUM_KINDS) if hand[k] == 4]


def dealt_ti_huxi(hand: Sequence[int]) -> int:
    """The table huxi of a seat's dealt fours as 提: what it holds on the table when it
    could win 天胡 on the shown card (RULES §4.2 "a dealt four ... counts as a 提")."""
    return sum(group_huxi(GroupKind.TI, (k,) * 4) for k in dealt_fours(hand))


def self_drawn(
    melds: list[MeldPair], hand: list[int], card: Card
) -> tuple[list[MeldPair], list[int], Card | None]:
    """Place a card the winner drew themselves: onto a 坎 or 偎 as a 提, onto a
    pair as a 偎; otherwise it stays free for the arrangement search."""
    for i, (kind, cards) in enumerate(melds):
        if kind in (GroupKind.WEI, GroupKind.CHOU_WEI) and cards[0] == card:
            melds = melds[:i] + [(GroupKind.TI, cards + (card,))] + melds[i + 1:]
            return melds, hand, None
    if hand[card] == 3:
        hand = list(hand)
        hand[card] = 0
        return melds + [(GroupKind.TI, (card,) * 4)], hand, None
    if hand[card] == 2:
        hand = list(hand)
        hand[card] = 0
        return melds + [(GroupKind.WEI, (card,) * 3)], hand, None
    return melds, hand, card


def shown_card_holdings(
    deal: Deal, dealer: int, seat: int, dealt: Sequence[int] | None = None
) -> tuple[list[MeldPair], list[int], Card | None]:
    """The holdings an optional 天胡 on the shown card is judged on. ``dealt``: the seat's
    dealt hand as counts (``counts_of``), when already counted."""
    hand = counts_of(deal.hands[seat]) if dealt is None else list(dealt)
    if seat == dealer:
        hand[deal.shown] -= 1
    melds: list[MeldPair] = []
    if 4 in hand:
        for k in dealt_fours(hand):
            hand[k] = 0
            melds.append((GroupKind.TI, (k,) * 4))
    return self_drawn(melds, hand, deal.shown)
