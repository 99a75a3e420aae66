"""The score panel of the replay page: the typed expected score (``replay.results.Score``)
as view data. The one bridge from the rules core's score to the pages: the arrangement
comes from the typed groups (kind, cards, huxi), never from parsing their labels, and each
fan (名堂) is shown with its Chinese name and its value beside what the producer claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .replay import FAN_CHINESE, FAN_NAMES, FAN_RANK, Score, card_name


@dataclass(frozen=True, slots=True)
class FanRow:
    name: str
    chinese: str
    #: its fans (番) where the profile adds 名堂 (changde); None where the table gives one
    #: multiplier for the set
    value: int | None
    expected: bool
    claimed: bool

    @property
    def mismatch(self) -> bool:
        return self.expected != self.claimed


@dataclass(frozen=True, slots=True)
class ScorePanel:
    fans: tuple[FanRow, ...]
    grade: int | None
    multiplier: int | None
    points: int | None
    #: 黄番 (changde): hands drawn in a row before this one; None where the profile has none
    drawn_before: int | None
    #: the points before the profile's cap, when the cap lowered them
    uncapped: int | None
    claimed_given: bool


def arrangement_groups(score: Score | None, card_view: Callable[[str], Any],
                       kind_labels: Mapping[str, str]) -> list[dict[str, Any]]:
    """The scored arrangement group by group (a mandatory 天胡: its 提/坎, then the cards
    that count nothing)."""
    if score is None or score.arrangement is None:
        return []
    out: list[dict[str, Any]] = [
        {"label": kind_labels.get(str(g.kind), str(g.kind)), "kind": str(g.kind),
         "cards": [card_view(card_name(c)) for c in g.cards], "huxi": g.huxi}
        for g in score.arrangement.groups
    ]
    if score.rest:
        out.append({"label": "rest", "kind": "rest",
                    "cards": [card_view(card_name(c)) for c in score.rest], "huxi": 0})
    return out


def score_panel(score: Score | None, claimed: Mapping[str, Any] | None) -> ScorePanel | None:
    """The fans of a win, expected and claimed, with their values; None without a win."""
    if score is None or not score.is_win:
        return None
    claimed_fans = set()
    if claimed is not None and isinstance(claimed.get("fans"), list):
        claimed_fans = {f for f in claimed["fans"] if f in FAN_CHINESE}
    values = dict(score.fan_values or ())
    names = sorted(set(score.fans) | claimed_fans, key=FAN_RANK.__getitem__)
    rows = tuple(
        FanRow(n, FAN_CHINESE[n], values.get(n) if n in score.fans else None,
               n in score.fans, n in claimed_fans)
        for n in names if n in FAN_NAMES
    )
    uncapped = score.uncapped if score.uncapped != score.points else None
    return ScorePanel(rows, score.grade, score.multiplier, score.points, score.drawn_before,
                      uncapped, claimed is not None and "fans" in claimed)
