"""The discard rule (RULES §3): one invariant for 八块/重跑, 免张 and the two-提 cases.

After any intake (吃 碰 偎 提 跑) a player with ``F`` four-card melds holding ``H``
cards (hand + table) owes exactly one discard iff ``H > 20 + max(0, F - 1)``;
otherwise the turn passes and ``next`` draws.

Hengshan (``mian_zhang == "when_ready"``): the one discard a non-dealer with two
dealt 提 may skip is owed as usual, except at a 吃 or 碰 after which the hand is
ready (听牌); there it may be skipped once (免张), and after that the player may
not 吃 or 碰 again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .profiles import Profile


class Owed(StrEnum):
    YES = "yes"
    NO = "no"
    OPTIONAL = "optional"  # hengshan 免张: skipping is allowed


# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
OWED_NO: Final = Owed.NO
OWED_OPTIONAL: Final = Owed.OPTIONAL
OWED_YES: Final = Owed.YES


def threshold(fours: int) -> int:
    return 20 + max(0, fours - 1)


def discard_owed(
    profile: Profile,
    held: int,
    fours: int,
    *,
    mian_pending: bool,
    chi_or_peng: bool,
    ready: bool,
) -> Owed:
    limit = threshold(fours)
    if held > limit:
        return OWED_YES
    if held == limit and mian_pending and profile.mian_zhang == "when_ready":
        return OWED_OPTIONAL if (chi_or_peng and ready) else OWED_YES
    return OWED_NO


def dealer_owes_opening_discard(dealt_fours: int) -> bool:
    """The dealer's 21 cards with its dealt 提: a discard unless two or more 提."""
    return 21 > threshold(dealt_fours)
