"""Rule profiles: every point on which the rule sets differ, as frozen data.

A third profile is a new ``Profile`` value, never a new branch in the engine.
The field docs name the seed sentence each value rests on; docs/rules.md has
the long form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

# Allowed values of the enumerated fields.
CHOU_HU_RULES: Final = ("same_kind_unchanged", "any_card_plus_3")
MIAN_ZHANG_RULES: Final = ("first_intake", "when_ready")
GRADINGS: Final = ("deng", "ji")
FLOWERS: Final = ("basic", "half", "red_x3")
PAYOUTS: Final = ("each_loser", "discarder_double")
DEALER_ROTATIONS: Final = ("keep_three_draws", "pass_on_draw")


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    #: least huxi for a win (standard 15: "至少有15胡息"; hengshan 10: "胡數大於等於10胡").
    min_huxi: int
    #: money value of one point (底分 / 基础银).
    stake: int
    #: a win on another player's discard (hengshan: "有人放炮").
    hu_on_discard: bool
    #: may a kind that became 臭 by 过张 be won on (hengshan: "禁止胡、碰過張").
    hu_on_passed_card: bool
    #: 臭胡 lock: same kind while table huxi unchanged, or any card until +3.
    chou_hu: str
    #: table huxi growth that lifts an ``any_card_plus_3`` lock.
    chou_hu_unlock: int
    #: when the discard a player with two dealt 提 may skip is skipped (免张).
    mian_zhang: str
    #: standard 等 or hengshan 级.
    grading: str
    #: 等 added for 自摸 (standard: "自摸在實際底數上加1等").
    zi_mo_grade_bonus: int
    #: the fan table (花样): see ``scoring.FAN_SCHEMES``.
    flowers: str
    #: hengshan 垛: copies of the turned card held by the winner add 级.
    duo: bool
    #: who pays: every loser, or (hengshan 放炮) the discarder twice.
    payout: str
    #: dealer after a drawn hand.
    dealer_rotation: str
    #: mandatory 天胡: this many fours, or this many threes-or-fours.
    tian_hu_fours: int
    tian_hu_threes: int


STANDARD: Final = Profile(
    name="standard",
    min_huxi=15,
    stake=1,
    hu_on_discard=False,
    hu_on_passed_card=True,
    chou_hu="same_kind_unchanged",
    chou_hu_unlock=0,
    mian_zhang="first_intake",
    grading="deng",
    zi_mo_grade_bonus=1,
    flowers="half",
    duo=False,
    payout="each_loser",
    dealer_rotation="keep_three_draws",
    tian_hu_fours=3,
    tian_hu_threes=5,
)

HENGSHAN: Final = Profile(
    name="hengshan",
    min_huxi=10,
    stake=1,
    hu_on_discard=True,
    hu_on_passed_card=False,
    chou_hu="any_card_plus_3",
    chou_hu_unlock=3,
    mian_zhang="when_ready",
    grading="ji",
    zi_mo_grade_bonus=0,
    flowers="red_x3",
    duo=True,
    payout="discarder_double",
    dealer_rotation="pass_on_draw",
    tian_hu_fours=3,
    tian_hu_threes=5,
)

PROFILES: Final[dict[str, Profile]] = {p.name: p for p in (STANDARD, HENGSHAN)}

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "chou_hu": CHOU_HU_RULES,
    "mian_zhang": MIAN_ZHANG_RULES,
    "grading": GRADINGS,
    "flowers": FLOWERS,
    "payout": PAYOUTS,
    "dealer_rotation": DEALER_ROTATIONS,
}
# (least, most) for the integer fields.
_RANGES: Final[dict[str, tuple[int, int]]] = {
    "min_huxi": (0, 200),
    "stake": (1, 10**9),
    "chou_hu_unlock": (0, 200),
    "zi_mo_grade_bonus": (0, 100),
    "tian_hu_fours": (1, 5),
    "tian_hu_threes": (1, 7),
}
OVERRIDABLE: Final = tuple(f.name for f in fields(Profile) if f.name != "name")


class ProfileError(ValueError):
    """An override that is not a valid value; ``key`` names the field."""

    def __init__(self, key: str, expected: str) -> None:
        super().__init__(f"{key}: expected {expected}")
        self.key = key
        self.expected = expected


def _check(key: str, value: Any, base: Profile) -> Any:
    current = getattr(base, key)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ProfileError(key, "true or false")
        return value
    if isinstance(current, int):
        low, high = _RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ProfileError(key, f"an integer from {low} to {high}")
        return value
    choices = _CHOICES[key]
    if value not in choices:
        raise ProfileError(key, "one of " + ", ".join(repr(c) for c in choices))
    return value


def resolve(ruleset: str, overrides: Mapping[str, Any] | None = None) -> Profile:
    """The profile named ``ruleset`` with the log's ``rules`` applied.

    Raises ``KeyError`` for an unknown ruleset and ``ProfileError`` for a bad override.
    """
    base = PROFILES[ruleset]
    if not overrides:
        return base
    changes: dict[str, Any] = {}
    for key in sorted(overrides):
        if key not in OVERRIDABLE:
            raise ProfileError(key, "a profile field: " + ", ".join(OVERRIDABLE))
        changes[key] = _check(key, overrides[key], base)
    return replace(base, **changes)
