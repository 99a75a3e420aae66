"""Fair-play features read cheaply and in the verification's own walk:
``reach.reach_all`` is ``reach.reach`` for every kind at once, the features of the
pinned corpora are those of the first implementation (hash pinned), and
``fused.verify_and_read`` gives the verdict of ``verify`` and the features of
``extract``."""

from __future__ import annotations

import hashlib
import json
from functools import cache

import pytest

import replay.engine
from replay import audit, parse_log, verify
from replay.cards import NUM_KINDS
from replay.fairplay import HandFeatures, extract
from replay.fairplay.features import Reader
from replay.fairplay.fused import verify_and_read
from replay.fairplay.reach import reach, reach_all
from replay.model import EventType, Log
from replay.state import Impossible, State
from replay.tools.population import Plant, population
from replay.tools.simulate import dumps
from replay.verdict import Verdict
from tests.rules.corpus import corpus_lines

#: sha256 over the corpus's features JSON (sorted keys, one line a hand), as read by the
#: first implementation (one ``claims.open_window`` per kind), before reach_all
FEATURES_SHA256 = {
    "standard": "d5358975e0452649f75cfe8f1d5fb058d77e1dfbf97c711d82846100fffff222",
    "hengshan": "4c5991eba8913128dc0ff06f1c218b2c60923b66dd39e601d457bd2198d46fee",
}


def _line(f: HandFeatures) -> bytes:
    return json.dumps(f.to_json(), sort_keys=True, separators=(",", ":")).encode() + b"\n"


@cache
def simulated(ruleset: str) -> tuple[Log, ...]:
    """A small population of each profile, with a colluding pair and an all-seeing player
    (their discards differ from the honest bots')."""
    _, hands = population(12, 250, 5, ruleset, Plant(1, 1))
    return tuple(parse_log(dumps(d).encode()) for d in hands)


def _positions(log: Log) -> int:
    """Every discard position of the hand: ``reach_all`` against ``reach`` on every kind
    the discarder could throw and on every other kind; the number of kinds compared."""
    state = State(log)
    compared = 0
    try:
        for e in log.events:
            if e.type is EventType.DISCARD and e.seat is not None and state.window is None:
                hand = state.table.seats[e.seat].hand
                options = [k for k in range(NUM_KINDS) if 0 < hand[k] < 3]
                got = reach_all(state, e.seat, options)
                assert got == {k: reach(state, e.seat, k) for k in options}, (log.game_id, e)
                every = list(range(NUM_KINDS))
                assert reach_all(state, e.seat, every) == \
                    {k: reach(state, e.seat, k) for k in every}, (log.game_id, e)
                compared += len(options)
            state.apply(e)
    except Impossible:
        pass
    return compared


@pytest.mark.parametrize("ruleset", ["standard", "hengshan", "changde"])
def test_reach_all_is_reach_on_every_option(ruleset: str) -> None:
    logs = list(simulated(ruleset))
    if ruleset != "changde":  # and the pinned corpora, doctored hands included
        logs += [parse_log(line) for line in list(corpus_lines(ruleset))[::4]]
    compared = sum(_positions(log) for log in logs)
    assert compared > 5000


@pytest.mark.parametrize("ruleset", ["standard", "hengshan"])
def test_corpus_features_are_pinned_and_read_in_the_verification_walk(ruleset: str) -> None:
    alone, fused = hashlib.sha256(), hashlib.sha256()
    for line in corpus_lines(ruleset):
        log = parse_log(line)
        verdict, features = verify_and_read(log)
        assert verdict.to_bytes() == verify(log).to_bytes(), log.game_id
        assert features is not None
        alone.update(_line(extract(log)))
        fused.update(_line(features))
    assert alone.hexdigest() == FEATURES_SHA256[ruleset]
    assert fused.hexdigest() == FEATURES_SHA256[ruleset]


def test_simulated_changde_features_are_read_in_the_verification_walk() -> None:
    for log in simulated("changde"):
        verdict, features = verify_and_read(log, replay.engine.verify)
        assert verdict.to_bytes() == verify(log).to_bytes()
        assert features == extract(log)


def test_a_refused_deal_is_read_as_extract_reads_it() -> None:
    doc = json.loads(next(corpus_lines("standard")))
    doc["deal"]["stock"] = doc["deal"]["stock"][:-1]
    log = parse_log(json.dumps(doc, ensure_ascii=False).encode())
    verdict, features = verify_and_read(log)
    assert str(verdict.status) == "invalid"
    assert verdict.to_bytes() == verify(log).to_bytes()
    assert features == extract(log)


@pytest.mark.parametrize("error", [RuntimeError, Impossible])
def test_a_reading_error_never_changes_the_verdict(monkeypatch: pytest.MonkeyPatch,
                                                    error: type[Exception]) -> None:
    def broken(self: Reader, seq: int, *_: object) -> None:
        if seq == 5:
            raise error("a bug in the reader")

    monkeypatch.setattr(Reader, "after", broken)
    log = simulated("hengshan")[0]
    verdict, features = verify_and_read(log)
    assert features is None
    assert verdict.to_bytes() == verify(log).to_bytes()


def test_another_engine_is_called_as_it_is() -> None:
    log = simulated("standard")[0]
    calls: list[str] = []

    def engine(lg: Log) -> Verdict:
        calls.append(lg.game_id)
        return audit.verify(lg)

    verdict, features = verify_and_read(log, engine)
    assert calls == [log.game_id] and features is None
    assert verdict.to_bytes() == verify(log).to_bytes()
