"""Typed results: the score of a hand, and the one list of result fields and fan names.

``RESULT_FIELDS`` is what a log's ``result`` may carry (LOG_FORMAT.md); ``FANS`` is every
fan name with its Chinese name, in the canonical order fans are listed in. The parser
(``logformat``), the scorer, the settlement and the pages all read these two lists.
``Score.to_json`` is exactly the verdict's ``score.expected`` object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .arrangements import Arrangement
from .model import Outcome

#: the fields of a log's ``result`` (and of the verdict's expected score), LOG_FORMAT order.
RESULT_FIELDS: Final[tuple[str, ...]] = (
    "outcome",
    "winner",
    "scores",
    "huxi",
    "grade",
    "duo",
    "fans",
    "multiplier",
    "points",
)
#: the result fields that are integers when given.
RESULT_INTS: Final[tuple[str, ...]] = ("huxi", "grade", "duo", "multiplier", "points")


@dataclass(frozen=True, slots=True)
class FanName:
    name: str
    chinese: str


#: every fan (番 / 名堂) name, in canonical order: the standard six, then the changde ones
#: (RULES §9, §11). Where changde names a fan differently the second name follows.
FANS: Final[tuple[FanName, ...]] = (
    FanName("hong_hu", "红胡"),
    FanName("dian_hu", "点胡"),
    FanName("hong_wu", "红乌"),
    FanName("wu_hu", "乌胡 (黑胡)"),
    FanName("dui_dui_hu", "对对胡 (对子胡)"),
    FanName("hai_di", "海底 (海胡)"),
    FanName("si_qi_hong", "四七红"),
    FanName("da_hu", "大胡 (十八大)"),
    FanName("xiao_hu", "小胡 (十八小)"),
    FanName("tian_hu", "天胡"),
    FanName("di_hu", "地胡"),
    FanName("ting_hu", "听胡"),
    FanName("shua_hou", "耍猴"),
    FanName("da_tuan_yuan", "大团圆"),
    FanName("hang_hang_xi", "行行息"),
    FanName("jia_hang_hang", "假行行"),
)
FAN_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in FANS)
FAN_CHINESE: Final[dict[str, str]] = {f.name: f.chinese for f in FANS}
FAN_RANK: Final[dict[str, int]] = {name: i for i, name in enumerate(FAN_NAMES)}


@dataclass(frozen=True, slots=True)
class Score:
    """The expected settlement of one hand.

    A win carries every field; a drawn or abandoned hand only ``outcome``, ``winner``
    (None) and ``scores``. ``duo`` exists in profiles with 垛, ``drawn_before`` (黄番) and
    ``fan_values`` in profiles whose fans are added 名堂 (changde); the JSON carries a key
    only where the profile has it.
    """

    outcome: Outcome
    winner: int | None
    scores: tuple[int, int, int]
    huxi: int | None = None
    grade: int | None = None
    fans: tuple[str, ...] = ()
    multiplier: int | None = None
    points: int | None = None
    arrangement: Arrangement | None = None
    #: the JSON labels when they are not the arrangement's (a mandatory 天胡: its 提/坎
    #: and a ``rest`` label for the cards that count nothing, in ``rest``)
    labels: tuple[str, ...] = ()
    rest: tuple[int, ...] = ()
    facts: tuple[str, ...] = ()
    duo: int | None = None
    drawn_before: int | None = None
    fan_values: tuple[tuple[str, int], ...] | None = None
    #: the points before the profile's ``cap`` (shown on pages; not in the JSON)
    uncapped: int | None = field(default=None, compare=False)

    def __deepcopy__(self, memo: dict[int, object]) -> Score:
        # a value (frozen, never changed in place): a copied state shares it (and a
        # compiled build could not make one without its fields: replay/native.py)
        return self

    @property
    def is_win(self) -> bool:
        return self.outcome is Outcome.HU

    def arrangement_labels(self) -> list[str]:
        if self.labels or self.arrangement is None:
            return list(self.labels)
        return self.arrangement.labels()

    def to_json(self) -> dict[str, Any]:
        if not self.is_win:
            return {"outcome": str(self.outcome), "winner": None, "scores": list(self.scores)}
        out: dict[str, Any] = {
            "outcome": str(self.outcome),
            "winner": self.winner,
            "huxi": self.huxi,
            "grade": self.grade,
            "fans": list(self.fans),
            "multiplier": self.multiplier,
            "points": self.points,
            "scores": list(self.scores),
            "arrangement": self.arrangement_labels(),
            "facts": list(self.facts),
        }
        if self.duo is not None:
            out["duo"] = self.duo
        if self.drawn_before is not None:
            out["drawn_before"] = self.drawn_before
        if self.fan_values is not None:
            out["fan_values"] = dict(self.fan_values)
        return out


def drawn_score(outcome: str) -> Score:
    """A drawn (荒庄) or abandoned hand: nobody wins, everybody scores 0."""
    score = _DRAWN.get(outcome)
    if score is None:
        score = Score(Outcome(outcome), None, (0, 0, 0))
    return score


# the drawn scores, made once (``Score`` is frozen)
_DRAWN: Final = {str(o): Score(o, None, (0, 0, 0)) for o in Outcome if o is not Outcome.HU}


__all__ = [
    "FANS",
    "FAN_CHINESE",
    "FAN_NAMES",
    "FAN_RANK",
    "RESULT_FIELDS",
    "RESULT_INTS",
    "FanName",
    "Score",
    "drawn_score",
]
