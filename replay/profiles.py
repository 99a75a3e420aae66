"""Rule profiles: every point on which the rule sets differ, as frozen data.

A third profile is a new ``Profile`` value, never a new branch in the engine.
The field docs name the seed sentence each value rests on; docs/rules.md has
the long form. Enumerated fields are ``StrEnum`` values (they compare equal to
their JSON strings); every field is validated when a profile is built, so a
profile that exists is a valid one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Final


class ChouHu(StrEnum):
    """臭胡 lock (RULES §7)."""

    SAME_KIND_UNCHANGED = "same_kind_unchanged"
    ANY_CARD_PLUS_3 = "any_card_plus_3"


class MianZhang(StrEnum):
    """When the discard a player with two dealt 提 may skip is skipped (免张, §3)."""

    FIRST_INTAKE = "first_intake"
    WHEN_READY = "when_ready"


class Grading(StrEnum):
    """standard 等, hengshan 级, changde 囤."""

    DENG = "deng"
    JI = "ji"
    TUN = "tun"


class Flowers(StrEnum):
    """The fan table (花样): see ``scoring.FAN_SCHEMES``."""

    BASIC = "basic"
    HALF = "half"
    RED_X3 = "red_x3"
    CHANGDE_FULL = "changde_full"


class Payout(StrEnum):
    EACH_LOSER = "each_loser"
    DISCARDER_DOUBLE = "discarder_double"


class DealerRotation(StrEnum):
    KEEP_THREE_DRAWS = "keep_three_draws"
    PASS_ON_DRAW = "pass_on_draw"


# Allowed values of the enumerated fields (the JSON strings).
CHOU_HU_RULES: Final = tuple(v.value for v in ChouHu)
MIAN_ZHANG_RULES: Final = tuple(v.value for v in MianZhang)
GRADINGS: Final = tuple(v.value for v in Grading)
FLOWERS: Final = tuple(v.value for v in Flowers)
PAYOUTS: Final = tuple(v.value for v in Payout)
DEALER_ROTATIONS: Final = tuple(v.value for v in DealerRotation)


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
    chou_hu: ChouHu
    #: table huxi growth that lifts an ``any_card_plus_3`` lock.
    chou_hu_unlock: int
    #: when the discard a player with two dealt 提 may skip is skipped (免张).
    mian_zhang: MianZhang
    #: standard 等, hengshan 级 or changde 囤.
    grading: Grading
    #: 等/囤 added for 自摸 (standard: "自摸在實際底數上加1等"; changde §11 "自摸 adds 1 囤").
    zi_mo_grade_bonus: int
    #: the fan table (花样): see ``scoring.FAN_SCHEMES``.
    flowers: Flowers
    #: hengshan 垛: copies of the turned card held by the winner add 级.
    duo: bool
    #: who pays: every loser, or (hengshan 放炮) the discarder twice.
    payout: Payout
    #: dealer after a drawn hand.
    dealer_rotation: DealerRotation
    #: mandatory 天胡: this many fours, or this many threes-or-fours.
    tian_hu_fours: int
    tian_hu_threes: int
    #: changde 黄番: points × (1 + ``match.drawn_before``), the drawn hands just before.
    huang_fan: bool = False
    #: most points of one win (None: no cap); changde §11 "A profile field ``cap``".
    cap: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name != "name":
                object.__setattr__(self, f.name, _check(f.name, getattr(self, f.name)))


# (least, most) for the integer fields; ``cap`` may also be None.
_RANGES: Final[dict[str, tuple[int, int]]] = {
    "min_huxi": (0, 200),
    "stake": (1, 10**9),
    "chou_hu_unlock": (0, 200),
    "zi_mo_grade_bonus": (0, 100),
    "tian_hu_fours": (1, 5),
    "tian_hu_threes": (1, 7),
    "cap": (1, 10**9),
}
_ENUMS: Final[dict[str, type[StrEnum]]] = {
    "chou_hu": ChouHu,
    "mian_zhang": MianZhang,
    "grading": Grading,
    "flowers": Flowers,
    "payout": Payout,
    "dealer_rotation": DealerRotation,
}
_BOOLS: Final = frozenset({"hu_on_discard", "hu_on_passed_card", "duo", "huang_fan"})
_NULLABLE: Final = frozenset({"cap"})
OVERRIDABLE: Final = tuple(f.name for f in fields(Profile) if f.name != "name")


def override_schema(key: str) -> dict[str, object]:
    """The JSON Schema of one ``rules`` override (the published log schema reads it)."""
    if key in _BOOLS:
        return {"type": "boolean"}
    if key in _ENUMS:
        return {"type": "string", "enum": [str(v) for v in _ENUMS[key]]}
    least, most = _RANGES[key]
    number = {"type": "integer", "minimum": least, "maximum": most}
    return {"oneOf": [number, {"type": "null"}]} if key in _NULLABLE else number


class ProfileError(ValueError):
    """A field value that is not valid; ``key`` names the field."""

    def __init__(self, key: str, expected: str) -> None:
        super().__init__(f"{key}: expected {expected}")
        self.key = key
        self.expected = expected


def _check(key: str, value: Any) -> Any:
    """``value`` as the type of field ``key`` (enum members for enumerated fields)."""
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise ProfileError(key, "true or false")
        return value
    if key in _RANGES:
        if value is None and key in _NULLABLE:
            return None
        low, high = _RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            extra = " or null" if key in _NULLABLE else ""
            raise ProfileError(key, f"an integer from {low} to {high}{extra}")
        return value
    enum = _ENUMS.get(key)
    if enum is None:
        raise ProfileError(key, "a profile field: " + ", ".join(OVERRIDABLE))
    if not isinstance(value, str) or value not in enum.__members__.values():
        raise ProfileError(key, "one of " + ", ".join(repr(str(c)) for c in enum))
    return enum(value)


STANDARD: Final = Profile(
    name="standard",
    min_huxi=15,
    stake=1,
    hu_on_discard=False,
    hu_on_passed_card=True,
    chou_hu=ChouHu.SAME_KIND_UNCHANGED,
    chou_hu_unlock=0,
    mian_zhang=MianZhang.FIRST_INTAKE,
    grading=Grading.DENG,
    zi_mo_grade_bonus=1,
    flowers=Flowers.HALF,
    duo=False,
    payout=Payout.EACH_LOSER,
    dealer_rotation=DealerRotation.KEEP_THREE_DRAWS,
    tian_hu_fours=3,
    tian_hu_threes=5,
)

HENGSHAN: Final = Profile(
    name="hengshan",
    min_huxi=10,
    stake=1,
    hu_on_discard=True,
    hu_on_passed_card=False,
    chou_hu=ChouHu.ANY_CARD_PLUS_3,
    chou_hu_unlock=3,
    mian_zhang=MianZhang.WHEN_READY,
    grading=Grading.JI,
    zi_mo_grade_bonus=0,
    flowers=Flowers.RED_X3,
    duo=True,
    payout=Payout.DISCARDER_DOUBLE,
    dealer_rotation=DealerRotation.PASS_ON_DRAW,
    tian_hu_fours=3,
    tian_hu_threes=5,
)

#: RULES §11: table play as standard; 囤, the 15 名堂 added, 黄番, an optional cap.
CHANGDE: Final = replace(
    STANDARD,
    name="changde",
    grading=Grading.TUN,
    flowers=Flowers.CHANGDE_FULL,
    huang_fan=True,
    cap=None,
)

PROFILES: Final[dict[str, Profile]] = {p.name: p for p in (STANDARD, HENGSHAN, CHANGDE)}


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
        changes[key] = _check(key, overrides[key])
    return replace(base, **changes)
