"""The self-play simulator (replay.tools.simulate and .bots): valid, deterministic, like people."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from replay.cards import NAMES, parse_card
from replay.chi import chi_options
from replay.engine import verify
from replay.logformat import parse_log
from replay.match import check_match
from replay.tools.bots import Bot, Persona, Style
from replay.tools.simulate import dumps, simulate
from replay.tools.toolkit_cli import main
from replay.verdict import Status

RULESETS = ("standard", "hengshan", "changde")


def counts(spec: str) -> list[int]:
    hand = [0] * 20
    for token in spec.split():
        name, _, times = token.partition("*")
        hand[parse_card(name)] += int(times or 1)
    return hand


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_bytes(ruleset: str) -> None:
    first = [dumps(d) for d in simulate(25, 11, ruleset)]
    again = [dumps(d) for d in simulate(25, 11, ruleset)]
    other = [dumps(d) for d in simulate(25, 12, ruleset)]
    assert first == again
    assert first != other
    # hand i depends on (seed, ruleset, i) only: a slice is the same hands
    assert [dumps(d) for d in simulate(10, 11, ruleset, start=15)] == first[15:]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_verify_twice_same_verdict_bytes(ruleset: str) -> None:
    for doc in simulate(15, 5, ruleset):
        raw = dumps(doc).encode()
        assert verify(parse_log(raw)).to_bytes() == verify(parse_log(raw)).to_bytes()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hands_verify_clean_with_their_results(ruleset: str) -> None:
    outcomes: Counter[str] = Counter()
    for doc in simulate(120, 3, ruleset):
        verdict = verify(parse_log(dumps(doc)))
        assert verdict.status is Status.CLEAN, (doc["game_id"], verdict.findings)
        expected = (verdict.score or {})["expected"]
        claimed = doc["result"]
        assert claimed["outcome"] == expected["outcome"]
        for key, value in claimed.items():
            assert expected.get(key) == value, (doc["game_id"], key)
        assert sum(claimed["scores"]) == 0
        if claimed["outcome"] == "hu":
            assert claimed["scores"][claimed["winner"]] > 0
        outcomes[claimed["outcome"]] += 1
    assert outcomes["hu"] > 40 and outcomes["exhausted"] > 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_deals_are_shuffles_with_correct_commitments(ruleset: str) -> None:
    for doc in simulate(40, 8, ruleset):
        deal, dealer = doc["deal"], doc["dealer"]
        every = [c for h in deal["hands"] for c in h] + deal["stock"]
        assert Counter(every) == {name: 4 for name in NAMES}
        assert [len(h) for h in deal["hands"]] == [21 if s == dealer else 20 for s in range(3)]
        assert len(deal["stock"]) == 19
        assert deal["hands"][dealer][-1] == deal["shown"]
        text = deal["commitment"]["salt"] + ":" + "|".join(
            [",".join(h) for h in deal["hands"]] + [",".join(deal["stock"])])
        assert hashlib.sha256(text.encode()).hexdigest() == deal["commitment"]["sha256"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_match_headers_and_dealer_rotation(ruleset: str) -> None:
    docs = list(simulate(30, 4, ruleset, match=10))
    by_match: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        by_match.setdefault(doc["match"]["id"], []).append(doc)
    assert len(by_match) == 3
    for hands in by_match.values():
        assert [d["match"]["hand"] for d in hands] == list(range(1, 11))
        assert len({json.dumps(d["players"]) for d in hands}) == 1
        streak = 0
        for prev, cur in zip(hands, hands[1:], strict=False):
            result, dealer = prev["result"], prev["dealer"]
            assert result["outcome"] != "abandoned"
            if result["outcome"] == "hu":
                want, streak = result["winner"], 0
            elif ruleset == "hengshan":
                want, streak = (dealer + 1) % 3, 0
            else:
                streak += 1
                want = (dealer + 1) % 3 if streak >= 3 else dealer
                streak = 0 if streak >= 3 else streak
            assert cur["dealer"] == want, (cur["game_id"], result)
    logs = [parse_log(d) for d in docs]
    assert check_match([(log, (verify(log).score or {}).get("expected")) for log in logs]) == []


def test_cli_simulate_writes_files_and_ndjson(tmp_path: Path,
                                             capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["simulate", "--games", "3", "--seed", "9", "--out", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    capsysbinary.readouterr()
    assert main(["simulate", "--games", "3", "--seed", "9"]) == 0
    lines = capsysbinary.readouterr().out.splitlines()
    assert [line + b"\n" for line in lines] == [f.read_bytes() for f in files]
    assert main(["simulate", "--games", "4", "--seed", "9", "--ruleset", "hengshan",
                 "--match", "2"]) == 0
    docs = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert [d["match"]["hand"] for d in docs] == [1, 2, 1, 2]


def test_bot_never_throws_a_kan_card() -> None:
    import random

    bot = Bot(0, random.Random(1), Persona.NORMAL, Style(p_sloppy=0.0))
    hand = counts("x1*3 d5*3 x9 d2 d3")
    for _ in range(20):
        assert bot.choose_discard(hand, set()) in (parse_card("x9"), parse_card("d2"),
                                                   parse_card("d3"))
    assert bot.choose_discard(counts("x1*3 d5*3"), set()) is None


def test_bot_throws_the_isolated_card_first() -> None:
    import random

    bot = Bot(0, random.Random(1), Persona.NORMAL, Style(p_sloppy=0.0))
    hand = counts("x1 x2 x3 x4 x5 x6 d6 d7 d8 x9 x9 d1")
    assert bot.choose_discard(hand, set()) == parse_card("d1")


def test_black_persona_throws_red_first() -> None:
    import random

    bot = Bot(0, random.Random(1), Persona.BLACK, Style(p_sloppy=0.0))
    hand = counts("x3 x4 x5 d3 d4 d5 x1 d10")
    assert bot.choose_discard(hand, set()) == parse_card("d10")


def test_bot_chi_is_one_of_the_legal_options() -> None:
    import random

    bot = Bot(1, random.Random(3), Persona.NORMAL, Style(p_take=1.0, p_take_bad=1.0))
    hand = counts("x1 x2 x2 x3 d2 x9 d9 d5 x7 d7")
    choice = bot.choose_chi(hand, parse_card("x2"), drawn_by_me=False)
    assert choice is not None
    assert choice in chi_options(hand, parse_card("x2"))
