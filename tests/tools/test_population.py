"""The population simulator (replay.tools.population): valid, deterministic, labelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.engine import verify
from replay.fairplay.reach import CHOSEN, reach
from replay.logformat import parse_log
from replay.state import State
from replay.tools.population import JOIN, Plant, make_population, population, seat_table
from replay.tools.simulate import dumps
from replay.verdict import Status


def test_plant_parse() -> None:
    assert Plant.parse("pairs=2,seers=1") == Plant(2, 1)
    assert Plant.parse("seers=3") == Plant(0, 3)
    assert Plant.parse("") == Plant(0, 0)
    for bad in ("pairs=x", "friends=1", "pairs"):
        with pytest.raises(ValueError):
            Plant.parse(bad)


def test_labels_and_roles() -> None:
    pop = make_population(20, 5, Plant(2, 1))
    cheats = [p for pair in pop.pairs for p in pair] + pop.seers
    assert len(set(cheats)) == 5
    roles = {p.id: p.role for p in pop.players}
    assert all(roles[p] == "pair" for pair in pop.pairs for p in pair)
    assert all(roles[s] == "seer" for s in pop.seers)
    assert {p.tier for p in pop.players if p.role == "honest"} == {
        "expert", "good", "average", "weak"}
    assert pop.labels == {"pairs": [list(p) for p in pop.pairs], "seers": pop.seers}
    with pytest.raises(ValueError):
        make_population(5, 1, Plant(1, 1))


def test_colluders_sit_together_more_than_chance() -> None:
    import random

    pop = make_population(30, 2, Plant(1, 0))
    a, b = pop.pairs[0]
    rng = random.Random(0)
    tables = [seat_table(pop, rng) for _ in range(3000)]
    with_a = [t for t in tables if a in t]
    together = sum(1 for t in with_a if b in t)
    assert all(len(set(t)) == 3 for t in tables)
    # random seating would give about 2/29 of a's tables; JOIN makes it far more
    assert together / len(with_a) > JOIN * 0.8


@pytest.mark.parametrize("ruleset", ["standard", "hengshan"])
def test_hands_verify_clean_and_are_deterministic(ruleset: str) -> None:
    _, hands = population(9, 40, 11, ruleset, Plant(1, 1))
    docs = [dumps(d) for d in hands]
    for raw in docs:
        assert verify(parse_log(raw.encode())).status is Status.CLEAN
    _, again = population(9, 40, 11, ruleset, Plant(1, 1))
    assert [dumps(d) for d in again] == docs
    assert len({json.loads(d)["game_id"] for d in docs}) == 40


def test_colluders_feed_each_other_on_the_true_hands() -> None:
    """Replaying the pair's discards: they throw cards the partner can claim far more often
    than cards the third seat can claim (what the planted strategy does)."""
    pop, hands = population(6, 60, 3, "hengshan", Plant(1, 0))
    pair = set(pop.pairs[0])
    fed = spared = 0
    for doc in hands:
        players = [p["id"] for p in doc["players"]]
        if not pair <= set(players):
            continue
        log = parse_log(dumps(doc).encode())
        state = State(log)
        for e in log.events:
            if e.type.value == "discard" and state.window is None and e.seat is not None \
                    and players[e.seat] in pair and e.card is not None:
                mate = next(s for s in range(3) if s != e.seat and players[s] in pair)
                third = 3 - e.seat - mate
                masks = reach(state, e.seat, e.card)
                fed += bool(masks[mate] & CHOSEN)
                spared += bool(masks[third] & CHOSEN)
            state.apply(e)
    assert fed > 2 * spared > 0


def test_cli_writes_hands_and_labels(tmp_path: Path) -> None:
    from app.cli import main

    out = tmp_path / "pop"
    assert main(["fairplay", "simulate", "--players", "8", "--hands", "12", "--seed", "4",
                 "--ruleset", "standard", "--plant", "pairs=1,seers=1", "--out", str(out)]) == 0
    labels = json.loads((out / "labels.json").read_text())
    assert set(labels) == {"pairs", "seers"}
    assert len(labels["pairs"]) == 1 and len(labels["pairs"][0]) == 2
    assert len(labels["seers"]) == 1
    lines = (out / "hands.ndjson").read_text().splitlines()
    assert len(lines) == 12
    for line in lines:
        assert verify(parse_log(line.encode())).status is Status.CLEAN
    assert main(["fairplay", "simulate", "--players", "4", "--hands", "1", "--plant",
                 "pairs=1,seers=1", "--out", str(out)]) == 2
