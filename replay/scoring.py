"""Scoring a win (RULES §9): 等/级, fans (番), 垛 and the payouts.

Everything that differs between the rule sets is read from the profile: ``grading``
(等 or 级), ``zi_mo_grade_bonus``, ``flowers`` (the fan scheme, data in ``FAN_SCHEMES``),
``duo`` and ``payout``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .arrangements import Arrangement
from .cards import NUM_KINDS, NUM_SEATS, card_name, red_count
from .groups import GroupKind, group_huxi
from .profiles import Profile

FAN_ORDER: Final = ("hong_hu", "dian_hu", "hong_wu", "wu_hu", "dui_dui_hu", "hai_di")
_FAN_RANK: Final = {name: i for i, name in enumerate(FAN_ORDER)}
_NO_LIMIT: Final = 10**6


@dataclass(frozen=True, slots=True)
class RedFan:
    """A fan earned by the red count ``R`` of the winning holdings: ``least <= R <= most``."""

    name: str
    least: int
    most: int
    value: int


@dataclass(frozen=True, slots=True)
class FanScheme:
    """One ``flowers`` value: the fan table (花样) and its combination rules.

    A value of 0 means the fan does not exist in the scheme. Fans add; ``wu_dui_dui``
    replaces the sum of 乌胡 and 对对胡 when both are present (0: plain sum);
    ``hai_di_alone`` is the multiplier when 海底 is the only fan.
    """

    red: tuple[RedFan, ...]
    dui_dui: int = 0
    hai_di: int = 0
    hai_di_alone: int = 0
    wu_dui_dui: int = 0


_BASIC_RED: Final = (
    RedFan("hong_hu", 10, 12, 2),  # 红胡: 10 <= R < 13, 2 番
    RedFan("dian_hu", 1, 1, 3),  # 点胡: exactly one red, 3 番
    RedFan("hong_wu", 13, _NO_LIMIT, 4),  # 红乌: R >= 13, 4 番
    RedFan("wu_hu", 0, 0, 5),  # 乌胡: no red, 5 番
)

FAN_SCHEMES: Final[dict[str, FanScheme]] = {
    # 基本花样: the four red fans only.
    "basic": FanScheme(red=_BASIC_RED),
    # 半花样: plus 对对胡 4 and 海底 2; 乌胡 with 对对胡 is 10; 平胡海底 is 1.
    "half": FanScheme(red=_BASIC_RED, dui_dui=4, hai_di=2, hai_di_alone=1, wu_dui_dui=10),
    # hengshan: 红胡 R >= 10 multiplies by 3 and is the only fan.
    "red_x3": FanScheme(red=(RedFan("hong_hu", 10, _NO_LIMIT, 3),)),
}

_VALUES: Final[dict[str, dict[str, int]]] = {
    flowers: {
        **{f.name: f.value for f in scheme.red},
        "dui_dui_hu": scheme.dui_dui,
        "hai_di": scheme.hai_di,
    }
    for flowers, scheme in FAN_SCHEMES.items()
}


def grade(profile: Profile, huxi: int, zi_mo: bool) -> int:
    """等 (standard) or 级 (hengshan) of a win with ``huxi``; callers pass huxi >= min_huxi."""
    if profile.grading == "deng":
        # "從15胡息開始計算，15胡息為1等，每增加3胡息增加1等"
        base = 1 + (huxi - 15) // 3
    elif profile.grading == "ji":
        # "剛好是10胡，則算15胡，等於3級；11胡，算1級；12-14胡，算2級；…12胡以上每3胡+1級"
        if huxi == 10:
            base = 3
        elif huxi == 11:
            base = 1
        else:
            base = 2 + (huxi - 12) // 3
    else:
        raise ValueError(f"unknown grading {profile.grading!r}")
    return base + (profile.zi_mo_grade_bonus if zi_mo else 0)


def fans(
    profile: Profile, red: int, dui_dui: bool, hai_di: bool, red_only: bool = False
) -> tuple[list[str], int]:
    """The fans earned (in ``FAN_ORDER``) and the multiplier; no fan (平胡) multiplies by 1.

    ``red_only`` (mandatory 天胡) ignores 对对胡 and 海底.
    """
    scheme = FAN_SCHEMES[profile.flowers]
    values = _VALUES[profile.flowers]
    names = [f.name for f in scheme.red if f.least <= red <= f.most]
    if not red_only:
        if dui_dui and scheme.dui_dui:
            names.append("dui_dui_hu")
        if hai_di and scheme.hai_di:
            names.append("hai_di")
    names.sort(key=_FAN_RANK.__getitem__)
    if not names:
        return names, 1
    if names == ["hai_di"]:
        return names, scheme.hai_di_alone or scheme.hai_di
    total = sum(values[n] for n in names)
    if scheme.wu_dui_dui and "wu_hu" in names and "dui_dui_hu" in names:
        total += scheme.wu_dui_dui - values["wu_hu"] - values["dui_dui_hu"]
    return names, total


def duo_count(holdings: Sequence[int], turned: int | None) -> int:
    """垛: copies of the turned kind among the winner's holdings (0 when nothing was turned)."""
    return 0 if turned is None else holdings[turned]


def payouts(profile: Profile, points: int, winner: int, discarder: int | None) -> list[int]:
    """What each seat wins (+) or pays (-); sums to 0."""
    each = points * profile.stake
    scores = [0] * NUM_SEATS
    if profile.payout == "discarder_double" and discarder is not None and discarder != winner:
        # "有人放炮由放炮玩家獨付（付兩倍）"
        scores[discarder] = -2 * each
    elif profile.payout in ("each_loser", "discarder_double"):
        for seat in range(NUM_SEATS):
            if seat != winner:
                scores[seat] = -each
    else:
        raise ValueError(f"unknown payout {profile.payout!r}")
    scores[winner] = -sum(scores)
    return scores


@dataclass(frozen=True, slots=True)
class WinFacts:
    winner: int
    zi_mo: bool
    tian_hu: bool
    hai_di: bool
    discarder: int | None  # seat whose discard was won on (放炮), else None
    turned: int | None  # the 垛 card (only used when profile.duo)


def _facts(facts: WinFacts) -> list[str]:
    out = []
    if facts.discarder is not None:
        out.append("fang_pao")
    if facts.hai_di:
        out.append("hai_di")
    if facts.tian_hu:
        out.append("tian_hu")
    if facts.zi_mo or facts.tian_hu:
        out.append("zi_mo")
    return sorted(out)


def _score(
    profile: Profile,
    winner: int,
    huxi: int,
    zi_mo: bool,
    fan_names: list[str],
    multiplier: int,
    duo: int,
    discarder: int | None,
    labels: list[str],
    facts: list[str],
) -> dict[str, Any]:
    g = grade(profile, huxi, zi_mo)
    points = (g + duo) * multiplier if profile.duo else g * multiplier
    out: dict[str, Any] = {
        "outcome": "hu",
        "winner": winner,
        "huxi": huxi,
        "grade": g,
        "fans": fan_names,
        "multiplier": multiplier,
        "points": points,
        "scores": payouts(profile, points, winner, discarder),
        "arrangement": labels,
        "facts": facts,
    }
    if profile.duo:
        out["duo"] = duo
    return out


def score_win(
    profile: Profile,
    arrangements: Sequence[Arrangement],
    holdings: Sequence[int],
    facts: WinFacts,
) -> dict[str, Any] | None:
    """The expected score of a win; ``None`` when no arrangement reaches ``min_huxi``.

    ``holdings``: counts of all the winner's cards, the winning card included. Of the
    qualifying arrangements the one with the most points is scored; ties: more huxi,
    then the first given.
    """
    zi_mo = facts.zi_mo or facts.tian_hu
    red = red_count(holdings)
    duo = duo_count(holdings, facts.turned) if profile.duo else 0
    fact_names = _facts(facts)
    best: dict[str, Any] | None = None
    for arr in arrangements:
        if arr.huxi < profile.min_huxi:
            continue
        names, mult = fans(profile, red, arr.dui_dui, facts.hai_di)
        scored = _score(
            profile, facts.winner, arr.huxi, zi_mo, names, mult, duo, facts.discarder,
            arr.labels(), fact_names,
        )
        if best is None or (scored["points"], scored["huxi"]) > (best["points"], best["huxi"]):
            best = scored
    return best


def tian_hu_huxi(holdings: Sequence[int]) -> int:
    """RULES §4.1: each four as a 提, each three as a 坎, other cards nothing."""
    total = 0
    for k, n in enumerate(holdings):
        if n == 4:
            total += group_huxi(GroupKind.TI, (k,) * 4)
        elif n == 3:
            total += group_huxi(GroupKind.KAN, (k,) * 3)
    return total


def score_mandatory_tian_hu(
    profile: Profile, winner: int, holdings: Sequence[int], turned: int | None = None
) -> dict[str, Any]:
    """The score of a mandatory 天胡 (three fours, or five threes-or-fours), RULES §4.1.

    Counts as 自摸; fans from the red count only; ``min_huxi`` is not applied. ``turned``
    is the 垛 card when the profile has 垛 (none turned: 0 垛).
    """
    labels: list[str] = []
    rest: list[int] = []
    for k in range(NUM_KINDS):
        n = holdings[k]
        if n == 4:
            labels.append(f"ti {' '.join([card_name(k)] * 4)} ({group_huxi(GroupKind.TI, (k,))})")
        elif n == 3:
            labels.append(
                f"kan {' '.join([card_name(k)] * 3)} ({group_huxi(GroupKind.KAN, (k,))})"
            )
        else:
            rest.extend([k] * n)
    labels.sort(key=lambda label: 0 if label.startswith("ti ") else 1)
    if rest:
        labels.append(f"rest {' '.join(card_name(c) for c in rest)} (0)")
    names, mult = fans(profile, red_count(holdings), False, False, red_only=True)
    duo = duo_count(holdings, turned) if profile.duo else 0
    return _score(
        profile, winner, tian_hu_huxi(holdings), True, names, mult, duo, None, labels,
        ["tian_hu", "zi_mo"],
    )


def drawn_score(outcome: str) -> dict[str, Any]:
    """A drawn (荒庄) or abandoned hand: nobody wins, everybody scores 0."""
    return {"outcome": outcome, "winner": None, "scores": [0] * NUM_SEATS}


__all__ = [
    "FAN_ORDER",
    "FAN_SCHEMES",
    "FanScheme",
    "RedFan",
    "WinFacts",
    "drawn_score",
    "duo_count",
    "fans",
    "grade",
    "payouts",
    "score_mandatory_tian_hu",
    "score_win",
    "tian_hu_huxi",
]
