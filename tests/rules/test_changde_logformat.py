"""The log format's changde parts: ``ruleset: changde``, ``match.drawn_before``, the changde
fan names in ``result.fans`` and the profile fields in ``rules``."""

from __future__ import annotations

from typing import Any

import pytest

from replay.logformat import FANS, LogFormatError, parse_log
from replay.profiles import CHANGDE
from replay.results import FAN_NAMES
from tests.rules.builder import HandBuilder


def doc(**extra: Any) -> dict[str, Any]:
    d = HandBuilder(["", "", ""], ruleset="changde").end("abandoned").build()
    d.update(extra)
    return d


def pointers(d: dict[str, Any]) -> list[str]:
    with pytest.raises(LogFormatError) as exc:
        parse_log(d)
    return [p.pointer for p in exc.value.problems]


def test_changde_ruleset_and_drawn_before() -> None:
    log = parse_log(doc(match={"id": "t", "hand": 4, "drawn_before": 3}))
    assert log.profile == CHANGDE
    assert log.match is not None and log.match.drawn_before == 3
    assert parse_log(doc(match={"id": "t", "hand": 1})).match.drawn_before == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [-1, "2", 1.5, True, None])
def test_drawn_before_is_an_integer_from_zero(bad: Any) -> None:
    assert pointers(doc(match={"id": "t", "hand": 2, "drawn_before": bad})) == [
        "/match/drawn_before"]


def test_changde_fan_names_are_accepted_and_others_refused() -> None:
    assert FANS == FAN_NAMES and len(FAN_NAMES) == 16
    ok = doc(result={"outcome": "abandoned", "winner": None, "scores": [0, 0, 0],
                     "fans": ["shua_hou", "da_tuan_yuan", "jia_hang_hang"]})
    parse_log(ok)
    bad = doc(result={"outcome": "abandoned", "winner": None, "scores": [0, 0, 0],
                      "fans": ["hei_hu"]})
    assert pointers(bad) == ["/result/fans/0"]


def test_cap_through_rules() -> None:
    assert parse_log(doc(rules={"cap": 40})).profile.cap == 40
    assert parse_log(doc(rules={"cap": None})).profile.cap is None
    assert pointers(doc(rules={"cap": 0})) == ["/rules/cap"]
    assert pointers(doc(rules={"flowers": "quanmingtang"})) == ["/rules/flowers"]
