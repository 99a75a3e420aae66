"""Scoring a win (RULES §9, §11): 等/级/囤, fans (番 / 名堂), 垛, 黄番 and the payouts.

Everything that differs between the rule sets is read from the profile: ``grading``
(等, 级 or 囤), ``zi_mo_grade_bonus``, ``flowers`` (the fan scheme, data in
``FAN_SCHEMES``; ``changde_full`` adds the 名堂 of ``mingtang``), ``duo``, ``huang_fan``,
``cap`` and ``payout``. The result is a typed ``results.Score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from . import arrangements as arrangements_mod
from . import mingtang
from .arrangements import Arrangement, Group, Meld
from .cards import NUM_KINDS, NUM_SEATS, card_name, red_count
from .groups import GroupKind, group_huxi
from .model import Outcome
from .profiles import Flowers, Grading, Payout, Profile
from .results import FAN_NAMES, FAN_RANK, Score, drawn_score

#: the fans of the standard and hengshan schemes, in canonical order.
FAN_ORDER: Final = FAN_NAMES[:6]
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
    ``hai_di_alone`` is the multiplier when 海底 is the only fan. ``mingtang``: the
    fans are the changde 名堂 (``mingtang.MINGTANG``), added, ``max(1, sum)``.
    """

    red: tuple[RedFan, ...]
    dui_dui: int = 0
    hai_di: int = 0
    hai_di_alone: int = 0
    wu_dui_dui: int = 0
    mingtang: bool = False


_BASIC_RED: Final = (
    RedFan("hong_hu", 10, 12, 2),  # 红胡: 10 <= R < 13, 2 番
    RedFan("dian_hu", 1, 1, 3),  # 点胡: exactly one red, 3 番
    RedFan("hong_wu", 13, _NO_LIMIT, 4),  # 红乌: R >= 13, 4 番
    RedFan("wu_hu", 0, 0, 5),  # 乌胡: no red, 5 番
)

FAN_SCHEMES: Final[dict[str, FanScheme]] = {
    # 基本花样: the four red fans only.
    Flowers.BASIC: FanScheme(red=_BASIC_RED),
    # 半花样: plus 对对胡 4 and 海底 2; 乌胡 with 对对胡 is 10; 平胡海底 is 1.
    Flowers.HALF: FanScheme(red=_BASIC_RED, dui_dui=4, hai_di=2, hai_di_alone=1, wu_dui_dui=10),
    # hengshan: 红胡 R >= 10 multiplies by 3 and is the only fan.
    Flowers.RED_X3: FanScheme(red=(RedFan("hong_hu", 10, _NO_LIMIT, 3),)),
    # changde 全名堂 (RULES §11): the fifteen 名堂, added.
    Flowers.CHANGDE_FULL: FanScheme(red=(), mingtang=True),
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
    """等, 级 or 囤 of a win with ``huxi``; callers pass huxi >= min_huxi."""
    if profile.grading in (Grading.DENG, Grading.TUN):
        # 等: "從15胡息開始計算，15胡息為1等，每增加3胡息增加1等"; 囤 (§11): 1 + (h - 15) // 3
        base = 1 + (huxi - 15) // 3
    elif profile.grading == Grading.JI:
        # "剛好是10胡，則算15胡，等於3級；11胡，算1級；12-14胡，算2級；…12胡以上每3胡+1級"
        if huxi == 10:
            base = 3
        elif huxi == 11:
            base = 1
        else:
            base = 2 + (huxi - 12) // 3
    else:  # pragma: no cover - Profile validates grading
        raise ValueError(f"unknown grading {profile.grading!r}")
    return base + (profile.zi_mo_grade_bonus if zi_mo else 0)


def fans(
    profile: Profile, red: int, dui_dui: bool, hai_di: bool, red_only: bool = False
) -> tuple[list[str], int]:
    """The fans of a standard or hengshan scheme (in ``FAN_ORDER``) and the multiplier;
    no fan (平胡) multiplies by 1. ``red_only`` (mandatory 天胡) ignores 对对胡 and 海底.
    A ``mingtang`` scheme reads more than these facts: see ``mingtang_fans``."""
    scheme = FAN_SCHEMES[profile.flowers]
    values = _VALUES[profile.flowers]
    names = [f.name for f in scheme.red if f.least <= red <= f.most]
    if not red_only:
        if dui_dui and scheme.dui_dui:
            names.append("dui_dui_hu")
        if hai_di and scheme.hai_di:
            names.append("hai_di")
    names.sort(key=FAN_RANK.__getitem__)
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
    if profile.payout == Payout.DISCARDER_DOUBLE and discarder is not None and \
            discarder != winner:
        # "有人放炮由放炮玩家獨付（付兩倍）"
        scores[discarder] = -2 * each
    else:
        for seat in range(NUM_SEATS):
            if seat != winner:
                scores[seat] = -each
    scores[winner] = -sum(scores)
    return scores


@dataclass(frozen=True, slots=True)
class WinFacts:
    """What the replayed hand knows about a win, besides the holdings."""

    winner: int
    zi_mo: bool
    tian_hu: bool  # won at the opening (§4): mandatory or on the shown card
    hai_di: bool
    discarder: int | None  # seat whose discard was won on (放炮), else None
    turned: int | None  # the 垛 card (only used when profile.duo)
    #: the dealer (天胡 vs 地胡 at the opening); None: not known
    dealer: int | None = None
    #: the winner made no 吃, 碰 or 跑 before the win (听胡)
    ting: bool = False
    #: the winner's hand held one card before the winning card (耍猴)
    shua_hou: bool = False
    #: 黄番: hands drawn in a row just before this one (``match.drawn_before``)
    drawn_before: int = 0


def _facts(facts: WinFacts) -> tuple[str, ...]:
    out = []
    if facts.discarder is not None:
        out.append("fang_pao")
    if facts.hai_di:
        out.append("hai_di")
    if facts.tian_hu:
        out.append("tian_hu")
    if facts.zi_mo or facts.tian_hu:
        out.append("zi_mo")
    return tuple(sorted(out))


def mingtang_fans(
    holdings: Sequence[int], arr: Arrangement | None, facts: WinFacts
) -> tuple[tuple[str, int], ...]:
    """The changde 名堂 of a win; ``arr`` None: a mandatory 天胡 (no arrangement, so no
    对子胡, 行行息, 假行行; no 海胡 or 耍猴 at the opening either)."""
    red, big, small, tuan = mingtang.card_counts(holdings)
    dui = pair = all_xi = False
    if arr is not None:
        dui, pair, all_xi = mingtang.arrangement_shape(arr)
    opening = facts.tian_hu
    shape = mingtang.WinShape(
        red=red, big=big, small=small, da_tuan_yuan=tuan,
        dui_dui=dui, has_pair=pair, all_groups_xi=all_xi,
        opening_dealer=opening and facts.winner == facts.dealer,
        opening_other=opening and facts.dealer is not None and facts.winner != facts.dealer,
        hai_di=facts.hai_di and arr is not None,
        ting=facts.ting,
        shua_hou=facts.shua_hou and arr is not None,
    )
    return mingtang.mingtang(shape)


def _score(
    profile: Profile,
    facts: WinFacts,
    huxi: int,
    earned: tuple[tuple[str, int], ...] | None,
    fan_names: list[str],
    multiplier: int,
    duo: int,
    arr: Arrangement | None,
    labels: tuple[str, ...] = (),
    fact_names: tuple[str, ...] | None = None,
    rest: tuple[int, ...] = (),
) -> Score:
    zi_mo = facts.zi_mo or facts.tian_hu
    g = grade(profile, huxi, zi_mo)
    points = (g + duo) * multiplier if profile.duo else g * multiplier
    drawn_before: int | None = None
    if profile.huang_fan:
        drawn_before = facts.drawn_before
        points *= 1 + drawn_before
    uncapped = points
    if profile.cap is not None:
        points = min(points, profile.cap)
    s = payouts(profile, points, facts.winner, facts.discarder)
    return Score(
        outcome=Outcome.HU,
        winner=facts.winner,
        scores=(s[0], s[1], s[2]),
        huxi=huxi,
        grade=g,
        fans=tuple(fan_names),
        multiplier=multiplier,
        points=points,
        arrangement=arr,
        labels=labels,
        rest=rest,
        facts=_facts(facts) if fact_names is None else fact_names,
        duo=duo if profile.duo else None,
        drawn_before=drawn_before,
        fan_values=earned,
        uncapped=uncapped,
    )


def _fans_of(
    profile: Profile, holdings: Sequence[int], red: int, arr: Arrangement | None,
    facts: WinFacts,
) -> tuple[tuple[tuple[str, int], ...] | None, list[str], int]:
    if FAN_SCHEMES[profile.flowers].mingtang:
        earned = mingtang_fans(holdings, arr, facts)
        names = [n for n, _ in earned]  # in the order of the §11 table
        return earned, names, mingtang.multiplier(earned)
    if arr is None:
        names, mult = fans(profile, red, False, False, red_only=True)
    else:
        names, mult = fans(profile, red, arr.dui_dui, facts.hai_di)
    return None, names, mult


def score_win(
    profile: Profile,
    arrangements: Sequence[Arrangement],
    holdings: Sequence[int],
    facts: WinFacts,
) -> Score | None:
    """The expected score of a win; ``None`` when no arrangement reaches ``min_huxi``.

    ``holdings``: counts of all the winner's cards, the winning card included. Of the
    qualifying arrangements the one with the most points is scored; ties: more huxi,
    then the first given.
    """
    red = red_count(holdings)
    duo = duo_count(holdings, facts.turned) if profile.duo else 0
    fact_names = _facts(facts)
    best: Score | None = None
    for arr in arrangements:
        if arr.huxi < profile.min_huxi:
            continue
        earned, names, mult = _fans_of(profile, holdings, red, arr, facts)
        scored = _score(profile, facts, arr.huxi, earned, names, mult, duo, arr,
                        fact_names=fact_names)
        if best is None or (scored.points, scored.huxi) > (best.points, best.huxi):
            best = scored
    return best


def candidates(
    profile: Profile, melds: Sequence[Meld], hand: Sequence[int], card: int | None
) -> list[Arrangement]:
    """The arrangements ``score_win`` must choose from: one per huxi total (对对 preferred),
    or, where the fans read the arrangement's shape (名堂), one per distinct shape."""
    if FAN_SCHEMES[profile.flowers].mingtang:
        return arrangements_mod.search_shapes(melds, hand, card)
    return arrangements_mod.search(melds, hand, card, every_huxi=True)


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
    profile: Profile, winner: int, holdings: Sequence[int], turned: int | None = None,
    facts: WinFacts | None = None,
) -> Score:
    """The score of a mandatory 天胡 (three fours, or five threes-or-fours), RULES §4.1.

    Counts as 自摸; fans from the cards only (no arrangement fan, no 海底); ``min_huxi``
    is not applied. ``turned`` is the 垛 card when the profile has 垛 (none turned: 0 垛).
    ``facts`` (the dealer, 听胡, 黄番) default to a bare opening win by ``winner``.
    """
    groups: list[Group] = []
    rest: list[int] = []
    for k in range(NUM_KINDS):
        n = holdings[k]
        if n in (3, 4):
            kind = GroupKind.TI if n == 4 else GroupKind.KAN
            groups.append(Group(kind, (k,) * n, group_huxi(kind, (k,)), False))
        else:
            rest.extend([k] * n)
    groups.sort(key=lambda g: 0 if g.kind is GroupKind.TI else 1)
    labels = [g.label() for g in groups]
    if rest:
        labels.append(f"rest {' '.join(card_name(c) for c in rest)} (0)")
    huxi = tian_hu_huxi(holdings)
    shown = Arrangement(tuple(groups), huxi, False)
    if facts is None:
        facts = WinFacts(winner, True, True, False, None, turned)
    earned, names, mult = _fans_of(profile, holdings, red_count(holdings), None, facts)
    duo = duo_count(holdings, turned) if profile.duo else 0
    return _score(profile, facts, huxi, earned, names, mult, duo, shown,
                  tuple(labels), ("tian_hu", "zi_mo"), tuple(rest))


__all__ = [
    "FAN_ORDER",
    "FAN_SCHEMES",
    "FanScheme",
    "RedFan",
    "WinFacts",
    "candidates",
    "drawn_score",
    "duo_count",
    "fans",
    "grade",
    "mingtang_fans",
    "payouts",
    "score_mandatory_tian_hu",
    "score_win",
    "tian_hu_huxi",
]
