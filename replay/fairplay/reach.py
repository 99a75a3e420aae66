"""Who could use a card if it were revealed now: the counterfactual the detectors need.

``reach(state, src, card)`` opens, on a copy-free basis, the claim window the rules
would open if seat ``src`` discarded ``card`` at this point (``claims.open_window``
on the true table: the replayed hands, not what any seat could see) and returns,
for each seat, a bit mask of what it could do with the card. The state is not
changed. ``src``'s own hand is not decremented: none of the claims by the other two
seats depends on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card, next_seat, prev_seat
from ..chi import can_chi_packed
from ..claims import open_window
from ..state import State

HU: Final = 1
PAO: Final = 2
PENG: Final = 4
CHI: Final = 8
#: the claims a seat chooses to make (胡/碰/吃); a 跑 is forced
CHOSEN: Final = HU | PENG | CHI
#: everything that helps the seat that gets the card
ANY: Final = HU | PAO | PENG | CHI


def reach(state: State, src: int, card: Card) -> tuple[int, int, int]:
    """Per seat, the mask of claims it would have on ``card`` discarded by ``src``."""
    w = open_window(state.table, state.ledger, state.profile, state.mian_used,
                    card, src, False, state.applied)
    masks = [0, 0, 0]
    for s in w.hu:
        masks[s] |= HU
    if w.pao is not None:
        masks[w.pao] |= PAO
    if w.peng is not None:
        masks[w.peng] |= PENG
    for s in w.chi:
        masks[s] |= CHI
    return masks[0], masks[1], masks[2]


def reach_all(state: State, src: int, kinds: Sequence[Card]) \
        -> dict[Card, tuple[int, int, int]]:
    """``reach(state, src, k)`` for every ``k`` of ``kinds`` at once (``reach_others``
    placed by seat)."""
    out: dict[Card, tuple[int, int, int]] = {}
    for k, (mn, mp) in reach_others(state, src, kinds).items():
        # next and prev of seat 0 are 1 and 2; of seat 1, 2 and 0; of seat 2, 0 and 1
        out[k] = (0, mn, mp) if src == 0 else (mp, 0, mn) if src == 1 else (mn, mp, 0)
    return out


def reach_others(state: State, src: int, kinds: Sequence[Card]) \
        -> dict[Card, tuple[int, int]]:
    """``reach(state, src, k)`` for every ``k`` of ``kinds``, as the masks of ``next``
    and ``prev`` (``src``'s own is always 0).

    The conditions are those of ``claims.open_window`` for a discard (``drawn=False``):
    胡 for ``next`` then ``prev`` when the profile allows a win on a discard (not
    barred by the ledger, ``ledger.hu_bar``; ``arrangements.WinCheck.wins`` with ``many``), a
    forced 跑 (three in hand or a 偎), then, when nobody must 跑, a 碰 (a pair in hand,
    ``claims.may_take``) and ``next``'s 吃 (``chi.can_chi``). Each seat's facts (its
    melds, hand, table huxi, 偎 kinds, 臭/过张 kinds) are read once, not once per kind.
    A seat's ``win_check()`` summary is the one the claim windows use: it answers the
    wins of all the kinds at once and keeps them (``WinCheck.win_bits``: the seat keeps
    its holdings across the discards of the two others), and its packed free cards
    answer the 吃 (``chi.can_chi_packed``).
    """
    table, ledger, profile, mian_used = state.table, state.ledger, state.profile, \
        state.mian_used
    nxt, prv = next_seat(src), prev_seat(src)
    st_n, st_p = table.seats[nxt], table.seats[prv]
    hu_on_discard = profile.hu_on_discard
    check_n = st_n.win_check()  # for its wins and its 吃
    hand_n = check_n.hand
    free_cards = check_n.free  # ``next``'s, for its 吃 (``chi.can_chi_packed``)
    # ``prev``'s only for its wins (set up after a move, its summary costs a 吃's ask)
    check_p = st_p.win_check() if hu_on_discard else None
    hand_p = check_p.hand if check_p is not None else st_p.hand
    huxi_n, huxi_p = st_n.table_huxi, st_p.table_huxi
    wei_n, wei_p = st_n.wei_kinds, st_p.wei_kinds
    led_n, led_p = ledger.seats[nxt], ledger.seats[prv]
    min_huxi = profile.min_huxi
    # a win on a kind is barred by a 臭胡 (ask the ledger) or by a 过张 of the kind
    guo_bars = not profile.hu_on_passed_card
    ask_n, ask_p = bool(led_n.chou_hu), bool(led_p.chou_hu)
    guo_n, guo_p = led_n.guo_zhang, led_p.guo_zhang
    # 吃/碰 barred: 免张 taken, or the kind 臭 or passed
    free_n, free_p = not mian_used[nxt], not mian_used[prv]
    chou_n, chou_p = led_n.chou_pai, led_p.chou_pai
    nxt_last = nxt > prv  # open_window's 碰 order: seat 0, 1, 2; the last found
    won_n = won_p = 0
    if check_p is not None:
        asked = 0
        for card in kinds:
            asked |= 1 << card
        won_n = check_n.win_bits(asked, min_huxi)
        won_p = check_p.win_bits(asked, min_huxi)
    out: dict[Card, tuple[int, int]] = {}
    for card in kinds:
        mn = mp = 0
        if won_n and (won_n >> card) & 1 and (  # (written out for the two seats: the
                # loop over per-seat tuples this replaced cost ~6% more instructions)
                ledger.hu_bar(nxt, card, huxi_n) is None if ask_n
                else not (guo_bars and card in guo_n)):
            mn = HU
        if won_p and (won_p >> card) & 1 and (
                ledger.hu_bar(prv, card, huxi_p) is None if ask_p
                else not (guo_bars and card in guo_p)):
            mp = HU
        pao = False
        if hand_n[card] == 3 or card in wei_n:
            mn |= PAO
            pao = True
        if hand_p[card] == 3 or card in wei_p:
            mp |= PAO
            pao = True
        if not pao:
            take_n = free_n and card not in chou_n and card not in guo_n
            peng_n = take_n and hand_n[card] == 2
            peng_p = hand_p[card] == 2 and free_p and card not in chou_p \
                and card not in guo_p
            if peng_n and (nxt_last or not peng_p):
                mn |= PENG
            elif peng_p:
                mp |= PENG
            if take_n and can_chi_packed(hand_n, free_cards, card):
                mn |= CHI
        out[card] = (mn, mp)
    return out
