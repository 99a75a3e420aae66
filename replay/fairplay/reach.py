"""Who could use a card if it were revealed now: the counterfactual the detectors need.

``reach(state, src, card)`` opens, on a copy-free basis, the claim window the rules
would open if seat ``src`` discarded ``card`` at this point (``claims.open_window``
on the true table: the replayed hands, not what any seat could see) and returns,
for each seat, a bit mask of what it could do with the card. The state is not
changed. ``src``'s own hand is not decremented: none of the claims by the other two
seats depends on it.
"""

from __future__ import annotations

from typing import Final

from ..cards import Card
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
