"""changde 黄番 across a table: ``match.drawn_before`` against the hands the match check has."""

from __future__ import annotations

import json
from typing import Any

from replay.engine import verify
from replay.logformat import parse_log
from replay.match import check_match
from replay.tools.simulate import simulate


def _table(games: int = 40) -> list[dict[str, Any]]:
    return list(simulate(games, seed=3, ruleset="changde", match=games))


def _check(docs: list[dict[str, Any]]) -> list[tuple[int, str]]:
    hands = []
    for doc in docs:
        log = parse_log(json.dumps(doc))
        hands.append((log, (verify(log).score or {}).get("expected")))
    return [(p.hand, str(p.code)) for p in check_match(hands)]


def test_simulated_table_counts_drawn_hands() -> None:
    docs = _table()
    outcomes = [d["result"]["outcome"] for d in docs]
    assert "exhausted" in outcomes  # the corpus has drawn hands to count
    run = 0
    for doc, outcome in zip(docs, outcomes, strict=True):
        assert doc["match"].get("drawn_before", 0) == run
        run = run + 1 if outcome == "exhausted" else 0
    assert _check(docs) == []


def test_a_wrong_drawn_before_is_one_finding() -> None:
    docs = _table()
    after_draw = next(i for i, d in enumerate(docs) if i and
                      docs[i - 1]["result"]["outcome"] == "exhausted")
    docs[after_draw]["match"]["drawn_before"] = 0
    docs[after_draw].pop("result")  # the hand's own verdict uses the value given
    assert _check(docs) == [(after_draw + 1, "drawn_before_mismatch")]
    first = _table()
    first[0]["match"]["drawn_before"] = 2
    first[0].pop("result")
    assert _check(first) == [(1, "drawn_before_mismatch")]


def test_a_missing_hand_constrains_nothing() -> None:
    docs = _table()
    after_draw = next(i for i, d in enumerate(docs) if i > 1 and
                      docs[i - 1]["result"]["outcome"] == "exhausted")
    docs[after_draw]["match"]["drawn_before"] = 7
    docs[after_draw].pop("result")
    del docs[after_draw - 1]
    assert (after_draw + 1, "drawn_before_mismatch") not in _check(docs)


def test_the_single_hand_verdict_uses_the_value_given() -> None:
    docs = _table()
    won = next(d for d in docs if d["result"]["outcome"] == "hu"
               and not d["match"].get("drawn_before"))
    points = won["result"]["points"]
    won["match"]["drawn_before"] = 2  # wrong for the table, but this hand's verdict uses it
    won.pop("result")
    exp = (verify(parse_log(json.dumps(won))).score or {})["expected"]
    assert (exp["drawn_before"], exp["points"]) == (2, 3 * points)
