"""Fair-play detectors (replay.fairplay) on a small fixed-seed population with planted cheats,
and the statistics they rest on."""

from __future__ import annotations

import math
from functools import cache

import pytest

from replay.fairplay import HandFeatures, extract, scan
from replay.fairplay.coplay import CoPlay
from replay.fairplay.features import Choice, Pass
from replay.fairplay.flow import PointFlow
from replay.fairplay.rank import Report
from replay.fairplay.stats import EmpiricalNull
from replay.logformat import parse_log
from replay.tools.population import Plant, population
from replay.tools.simulate import dumps


@cache
def corpus(ruleset: str) -> tuple[dict[str, list[list[str]] | list[str]], tuple[HandFeatures, ...],
                                  dict[str, dict[str, object]]]:
    pop, hands = population(12, 300, 7, ruleset, Plant(1, 1))
    docs = {}
    feats = []
    for d in hands:
        raw = dumps(d).encode()
        docs[d["game_id"]] = d
        feats.append(extract(parse_log(raw)))
    return pop.labels, tuple(feats), docs


@cache
def report(ruleset: str) -> Report:
    _, feats, _ = corpus(ruleset)
    return scan(lambda: feats)


@pytest.mark.parametrize("ruleset", ["standard", "hengshan"])
def test_planted_pair_ranks_first_and_is_flagged(ruleset: str) -> None:
    labels, _, _ = corpus(ruleset)
    r = report(ruleset)
    planted = tuple(labels["pairs"][0])
    top = r.pairs[0]
    assert top.players == planted and top.flagged
    assert [p.players for p in r.pairs if p.flagged] == [planted]
    # on feeding the wait, the planted pair is above every honest pair
    wait = sorted(r.pairs, key=lambda p: -p.detectors["wait"].z)
    assert wait[0].players == planted
    assert sorted(top.to_json()) == ["detectors", "evidence", "flagged", "hands", "players",
                                     "score"]


@pytest.mark.parametrize("ruleset", ["standard", "hengshan"])
def test_seer_ranks_first_on_hidden_information(ruleset: str) -> None:
    labels, _, _ = corpus(ruleset)
    r = report(ruleset)
    assert r.players[0].player == labels["seers"][0]
    assert r.players[0].flagged
    assert [p.player for p in r.players if p.flagged] == labels["seers"]


def test_evidence_points_at_the_pairs_own_steps() -> None:
    labels, _, docs = corpus("hengshan")
    top = report("hengshan").pairs[0]
    pair = set(labels["pairs"][0])
    assert top.evidence
    for ev in top.evidence:
        doc = docs[ev.game_id]
        players = [p["id"] for p in doc["players"]]
        assert pair <= set(players)
        for seq in ev.seq:
            event = doc["events"][seq]
            if ev.detector == "wait":
                assert event["type"] == "discard" and players[event["seat"]] in pair
            if ev.detector == "feed":
                assert event["type"] in ("chi", "peng", "hu") and players[event["seat"]] in pair


def test_scan_is_deterministic() -> None:
    _, feats, _ = corpus("hengshan")
    again = scan(lambda: [HandFeatures.from_json(f.to_json()) for f in feats])
    assert again.to_json() == report("hengshan").to_json()


def test_features_round_trip() -> None:
    _, feats, _ = corpus("standard")
    for f in feats[:50]:
        assert HandFeatures.from_json(f.to_json()) == f


def _hand(players: tuple[str, str, str], scores: tuple[int, int, int] | None = None,
          choices: tuple[Choice, ...] = (), passes: tuple[Pass, ...] = ()) -> HandFeatures:
    return HandFeatures("g", "standard", players, scores, (0, 0, 0), (), choices, passes)


def test_point_flow_uses_the_exact_permutation_moments() -> None:
    flow = PointFlow()
    flow.add(_hand(("a", "b", "c"), (-10, -10, 20)))
    res = flow.results()
    # flows: a-b 0, a-c 10, b-c 10; mean 20/3, variance (400/9 + 2 * 100/9) / 3 = 600/27
    assert res["a", "c"].observed == pytest.approx(10 / 3)
    assert math.isclose(res["a", "c"].z, (10 / 3) / math.sqrt(600 / 27))
    assert math.isclose(res["a", "b"].z, (-20 / 3) / math.sqrt(600 / 27))
    flow.add(_hand(("a", "b", "c"), (0, 0, 0)))  # a drawn hand says nothing
    assert flow.results()["a", "b"].n == 1
    flow.add(_hand(("a", "b", "c"), (-24, 0, 24)))  # 放炮: a paid c twice, b nothing
    assert flow.results()["a", "c"].z > flow.results()["b", "c"].z


def test_coplay_expectations_add_up_to_the_seated_pairs() -> None:
    co = CoPlay()
    tables = [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d"), ("a", "b", "c")]
    for t in tables:
        co.add(_hand(t))
    res = co.results()
    assert math.isclose(sum(s.expected for s in res.values()), 3 * len(tables))
    assert res["a", "b"].observed == 3 and res["a", "b"].z > res["c", "d"].z


def test_empirical_null_z() -> None:
    null: EmpiricalNull[str] = EmpiricalNull()
    for i in range(100):
        null.add(f"k{i % 10}", ("standard", "next"), float((i // 10) % 2))
    for _ in range(10):
        null.add("odd", ("standard", "next"), 1.0)
    assert null.stat("odd").z > 2.5
    assert abs(null.stat("k0").z) < 2.5
    assert null.stat("missing").n == 0


def test_point_flow_reads_who_won_off_whose_discards_when_both_losers_pay_alike() -> None:
    flow = PointFlow()
    for i in range(60):  # honest tables: the winner claimed the discards of either loser
        w, p = i % 3, (i + 1 + i // 3 % 2) % 3
        players = (f"x{i % 7}", f"y{i % 5}", f"z{i % 4}")
        scores = [-10, -10, -10]
        scores[w] = 20
        claims = ((1, p, w, 8),)
        flow.add(HandFeatures("g", "standard", players, (scores[0], scores[1], scores[2]),
                              (0, 0, 0), claims, (), ()))
    for i in range(30):  # a and b: the winner claimed only its partner's discards
        w = i % 2
        scores = [-10, -10, -10]
        scores[w] = 20
        flow.add(HandFeatures("g", "standard", ("a", "b", f"z{i % 4}"),
                              (scores[0], scores[1], scores[2]), (0, 0, 0), ((1, 1 - w, w, 8),),
                              (), ()))
    res = flow.results()
    assert res["a", "b"].z > 3
    assert max(s.z for k, s in res.items() if k != ("a", "b")) < res["a", "b"].z
