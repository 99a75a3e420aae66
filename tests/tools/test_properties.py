"""Properties of the rules core over whole simulated hands.

The big corpus tests (5,000 hands a profile) are marked ``slow``; they still run in
``make test``. A hand the simulator had to skip because the state refused a move made
from its own legal options fails the suite: the bots need no workaround.
"""

from __future__ import annotations

from collections import Counter

import pytest

from replay.audit import Audit
from replay.logformat import parse_log
from replay.state import Phase, State
from replay.tools import simulate as sim
from replay.tools.simulate import dumps, simulate
from replay.tools.stats import Stats, collect
from replay.verdict import Status

RULESETS = ("standard", "hengshan", "changde")

def _check_quarantine(before: int, hands: int) -> list[tuple[str, str, str]]:
    new = sim.QUARANTINED[before:]
    assert new == [], f"{len(new)} of {hands} hands skipped: {Counter(q[1] for q in new)}"
    return new


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_card_is_somewhere_after_every_event(ruleset: str) -> None:
    """80 cards: hands + melds + discard rows + stock + the card in play."""
    for doc in simulate(60, 21, ruleset):
        log = parse_log(dumps(doc))
        game_id = doc["game_id"]

        def hook(i: int, rep: State, game_id: str = game_id) -> None:
            if rep.phase is Phase.ENDED:
                return
            total = rep.table.stock_left
            for st in rep.table.seats:
                total += sum(st.hand) + sum(len(m.cards) for m in st.melds) + len(st.row)
            if rep.phase in (Phase.REVEALED, Phase.DRAWN):
                total += 1
            assert total == 80, (game_id, i, rep.phase)
            for st in rep.table.seats:
                assert min(st.hand) >= 0

        # every event the bots chose is among the state's legal actions
        verdict = Audit(log, on_step=hook, check_legality=True).run()
        assert verdict.status is Status.CLEAN


@pytest.mark.parametrize("ruleset", RULESETS)
def test_quick_corpus_reaches_the_common_things(ruleset: str) -> None:
    before = len(sim.QUARANTINED)
    stats = collect(simulate(300, 77, ruleset))
    _check_quarantine(before, 300)
    assert stats.status == {"clean": 300}
    for t in ("draw", "discard", "chi", "peng", "pao", "wei", "ti", "hu", "pass"):
        assert stats.events[t] > 0, t
    for f in ("ti:dealt", "ti:kan", "pao:kan", "pao:peng", "bi_groups:1", "guo_zhang",
              "chou_pai", "exhausted"):
        assert stats.features[f] > 0, f


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_five_thousand_hands(ruleset: str) -> None:
    """5,000 hands a profile: every one verifies clean with the claimed result equal to the
    recomputed score, and together they reach every event type, decision kind, fan and
    the rare situations (each 提/跑 origin, 重跑, 比 with one and two groups, 海底, 荒庄,
    both kinds of 天胡, a win after a 臭胡)."""
    before = len(sim.QUARANTINED)
    stats = Stats()
    failures: list[str] = []
    for doc in simulate(5000, 2026, ruleset):
        verdict = stats.add(parse_log(dumps(doc)))
        if verdict.status is not Status.CLEAN:
            failures.append(f"{doc['game_id']}: {[f.to_json() for f in verdict.findings][:2]}")
            continue
        expected = (verdict.score or {})["expected"]
        for key, value in doc["result"].items():
            if expected.get(key) != value:
                failures.append(f"{doc['game_id']}: result {key} {value} != {expected.get(key)}")
        if sum(doc["result"]["scores"]) != 0:
            failures.append(f"{doc['game_id']}: scores do not sum to 0")
    assert not failures, failures[:10]
    assert stats.hands == 5000 and stats.status["clean"] == 5000
    missing = stats.missing()
    assert missing == {"events": [], "decisions": [], "fans": [], "features": []}, missing
    assert stats.endings["hu"] > 2500 and stats.endings["exhausted"] > 300
    _check_quarantine(before, 5000)
