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
from ..chi import can_chi
from ..claims import may_take, open_window
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


#: per seat position (hand counts, melds): card -> ``arrangements.wins_with`` and card ->
#: ``chi.can_chi``; a seat keeps its hand across the discards of the two others, and the
#: options repeat
WinMemo = dict[tuple[tuple[int, ...], object], tuple[dict[Card, bool], dict[Card, bool]]]


def reach_all(state: State, src: int, kinds: Sequence[Card],
              memo: WinMemo | None = None) -> dict[Card, tuple[int, int, int]]:
    """``reach(state, src, k)`` for every ``k`` of ``kinds`` at once.

    The conditions are those of ``claims.open_window`` for a discard (``drawn=False``):
    胡 for ``next`` then ``prev`` when the profile allows a win on a discard (not
    barred by the ledger, ``arrangements.wins_with``), a forced 跑 (three in hand or a
    偎), then, when nobody must 跑, a 碰 (a pair in hand, ``claims.may_take``) and
    ``next``'s 吃 (``chi.can_chi``). Each seat's facts (its melds, hand, table huxi,
    偎 kinds) are read once, not once per kind; ``memo`` (kept by the caller for one
    hand) remembers ``wins_with`` per seat position, a pure function of it; the seat's
    ``win_check()`` summary is the one the claim windows use.
    """
    table, ledger, profile, mian_used = state.table, state.ledger, state.profile, \
        state.mian_used
    nxt, prv = next_seat(src), prev_seat(src)
    others = (nxt, prv)
    facts = []
    for s in others:
        st = table.seats[s]
        wei = st.wei_kinds  # the kinds of its 偎/臭偎
        hand = tuple(st.hand)
        melds = st.meld_pairs()
        known: tuple[dict[Card, bool], dict[Card, bool]] = ({}, {})
        if memo is not None:
            known = memo.setdefault((hand, melds), known)
        facts.append((s, hand, st.win_check(), st.table_huxi, wei, known))
    chi_known = facts[0][5][1]
    by_seat = sorted(facts, key=lambda f: f[0])  # open_window's 碰 order: seat 0, 1, 2
    hu_on_discard, min_huxi = profile.hu_on_discard, profile.min_huxi
    out: dict[Card, tuple[int, int, int]] = {}
    for card in kinds:
        masks = [0, 0, 0]
        pao = False
        for s, hand, check, huxi, wei, known in facts:
            if hu_on_discard and ledger.hu_bar(s, card, huxi) is None:
                win = known[0].get(card)
                if win is None:
                    win = known[0][card] = check.wins(card, min_huxi)
                if win:
                    masks[s] |= HU
            if hand[card] == 3 or card in wei:
                masks[s] |= PAO
                pao = True
        if not pao:
            peng = -1
            for s, hand, _, _, _, _ in by_seat:
                if hand[card] == 2 and may_take(ledger, s, card, mian_used[s]):
                    peng = s  # as open_window: the last seat found (only one can be)
            if peng >= 0:
                masks[peng] |= PENG
            if may_take(ledger, nxt, card, mian_used[nxt]):
                chi = chi_known.get(card)
                if chi is None:
                    chi = chi_known[card] = can_chi(facts[0][1], card)
                if chi:
                    masks[nxt] |= CHI
        out[card] = (masks[0], masks[1], masks[2])
    return out
