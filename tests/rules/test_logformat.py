"""Strict parsing of paohuzi-log/1 documents: replay.logformat."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from replay.cards import NAMES, parse_card
from replay.logformat import (
    MAX_PROBLEMS,
    LogFormatError,
    Problem,
    canonical_log_bytes,
    loads_strict,
    log_sha256,
    parse_log,
)
from replay.model import EndReason, EventType, Log
from replay.profiles import HENGSHAN, STANDARD

# Every kind 4 times, in order: dealer (seat 0) 21 cards, the others 20, stock 19.
_ALL = [name for name in NAMES for _ in range(4)]
HANDS = [_ALL[:21], _ALL[21:41], _ALL[41:61]]
STOCK = _ALL[61:]


def valid_log() -> dict[str, Any]:
    return {
        "format": "paohuzi-log/1",
        "game_id": "srv7-20261129-000123",
        "ruleset": "standard",
        "rules": {"stake": 10},
        "match": {"id": "room-8812", "hand": 3},
        "started_at": "2026-11-29T12:00:00Z",
        "players": [
            {"seat": 0, "id": "p-1001"},
            {"seat": 1, "id": "p-2002"},
            {"seat": 2, "id": "p-3003"},
        ],
        "dealer": 0,
        "deal": {
            "hands": copy.deepcopy(HANDS),
            "shown": HANDS[0][-1],
            "stock": list(STOCK),
            "commitment": {"salt": "9f2c", "sha256": "ab" * 32},
        },
        "events": [
            {"type": "discard", "seat": 0, "card": "x3", "t": 4210},
            {
                "type": "chi",
                "seat": 1,
                "card": "x3",
                "groups": [["x3", "x4", "x5"], ["x3", "d3", "d3"]],
            },
            {"type": "discard", "seat": 1, "card": "d9"},
            {"type": "draw", "seat": 2, "card": "d6"},
            {"type": "pass", "seat": 0, "card": "d6"},
            {"type": "ti", "seat": 2, "card": "d5"},
            {"type": "wei", "seat": 2, "card": "d5"},
            {"type": "pao", "seat": 2, "card": "d5"},
            {"type": "peng", "seat": 0, "card": "x1"},
            {"type": "hu", "seat": 2, "card": "d6", "meta": {"latency_ms": 12}},
        ],
        "result": {
            "outcome": "hu",
            "winner": 2,
            "huxi": 21,
            "grade": 3,
            "fans": ["hong_hu"],
            "multiplier": 2,
            "points": 6,
            "scores": [-60, -60, 120],
        },
    }


def problems_of(raw: Any) -> list[Problem]:
    with pytest.raises(LogFormatError) as info:
        parse_log(raw)
    assert info.value.problems
    return info.value.problems


def only_problem(raw: Any) -> Problem:
    found = problems_of(raw)
    assert len(found) == 1, found
    return found[0]


def strict_problem(raw: bytes | str, **kwargs: Any) -> Problem:
    with pytest.raises(LogFormatError) as info:
        loads_strict(raw, **kwargs)
    assert len(info.value.problems) == 1, info.value.problems
    return info.value.problems[0]


def pointers(found: list[Problem]) -> list[str]:
    return [p.pointer for p in found]


# --- a valid log ------------------------------------------------------------------------


def test_valid_log_parses_into_typed_values() -> None:
    doc = valid_log()
    log = parse_log(doc)
    assert isinstance(log, Log)
    assert log.game_id == "srv7-20261129-000123"
    assert log.ruleset == "standard"
    assert log.profile.name == "standard"
    assert log.profile.stake == 10
    assert log.profile.min_huxi == STANDARD.min_huxi
    assert log.players == ("p-1001", "p-2002", "p-3003")
    assert log.dealer == 0
    assert log.match is not None and (log.match.id, log.match.hand) == ("room-8812", 3)
    assert log.started_at == "2026-11-29T12:00:00Z"
    deal = log.deal
    assert deal.hands[0] == tuple(parse_card(n) for n in HANDS[0])
    assert [len(h) for h in deal.hands] == [21, 20, 20]
    assert deal.shown == parse_card(HANDS[0][-1])
    assert deal.stock == tuple(parse_card(n) for n in STOCK)
    assert deal.hand_names == tuple(tuple(h) for h in HANDS)
    assert deal.stock_names == tuple(STOCK)
    assert deal.commitment is not None
    assert (deal.commitment.salt, deal.commitment.sha256) == ("9f2c", "ab" * 32)
    assert len(log.events) == 10
    first, chi, hu = log.events[0], log.events[1], log.events[-1]
    assert first.type is EventType.DISCARD
    assert (first.seat, first.card, first.t) == (0, parse_card("x3"), 4210)
    assert chi.type is EventType.CHI
    assert chi.groups == (
        (parse_card("x3"), parse_card("x4"), parse_card("x5")),
        (parse_card("x3"), parse_card("d3"), parse_card("d3")),
    )
    assert hu.type is EventType.HU and hu.card == parse_card("d6") and hu.t is None
    assert log.result == doc["result"]
    assert log.raw == doc


def test_same_log_from_bytes_text_and_dict() -> None:
    doc = valid_log()
    text = json.dumps(doc, ensure_ascii=False)
    from_bytes = parse_log(text.encode("utf-8"))
    assert from_bytes == parse_log(text) == parse_log(doc)
    assert from_bytes.raw == doc


def test_minimal_log_without_optional_fields() -> None:
    doc = valid_log()
    for key in ("rules", "match", "started_at", "result"):
        del doc[key]
    del doc["deal"]["commitment"]
    doc["events"] = []
    doc["ruleset"] = "hengshan"
    log = parse_log(doc)
    assert log.profile == HENGSHAN
    assert log.events == ()
    assert log.result is None and log.match is None and log.started_at is None
    assert log.deal.commitment is None


def test_players_are_ordered_by_seat() -> None:
    doc = valid_log()
    doc["players"] = [
        {"seat": 2, "id": "c"},
        {"seat": 0, "id": "a"},
        {"seat": 1, "id": "b"},
    ]
    assert parse_log(doc).players == ("a", "b", "c")


def test_end_event_and_mandatory_tian_hu() -> None:
    doc = valid_log()
    doc["events"] = [{"type": "hu", "seat": 0, "card": None}]
    assert parse_log(doc).events[0].card is None
    doc["events"] = [{"type": "end", "reason": "abandoned", "t": 0}]
    event = parse_log(doc).events[0]
    assert event.type is EventType.END
    assert event.reason is EndReason.ABANDONED
    assert event.seat is None and event.card is None


def test_card_counts_are_not_checked() -> None:
    # Wrong counts are the engine's deal_invalid finding, not a parse error.
    doc = valid_log()
    doc["deal"]["hands"][0] = ["x1"] * 30
    doc["deal"]["stock"] = []
    doc["deal"]["shown"] = "d10"
    log = parse_log(doc)
    assert len(log.deal.hands[0]) == 30 and log.deal.stock == ()


def test_scores_need_not_sum_to_zero_and_result_keeps_given_fields() -> None:
    doc = valid_log()
    doc["result"] = {"outcome": "exhausted", "winner": None, "scores": [1, 2, 3]}
    log = parse_log(doc)
    assert log.result == {"outcome": "exhausted", "winner": None, "scores": [1, 2, 3]}


def test_started_at_offsets() -> None:
    doc = valid_log()
    doc["started_at"] = "2026-11-29T20:00:00.250+08:00"
    assert parse_log(doc).started_at == "2026-11-29T20:00:00.250+08:00"
    doc["started_at"] = "2026-11-29T12:00:00"
    problem = only_problem(doc)
    assert problem.pointer == "/started_at" and "time zone" in problem.expected
    doc["started_at"] = "yesterday"
    assert only_problem(doc).pointer == "/started_at"


# --- strict JSON ------------------------------------------------------------------------


def test_bad_json_reports_line_and_column() -> None:
    problem = strict_problem(b'{\n  "format": "paohuzi-log/1",\n  "dealer": 0,,\n}')
    assert problem.pointer == ""
    assert "line 3 column 15" in problem.expected  # the second comma
    assert problem.expected.startswith("valid JSON")
    # Through parse_log too.
    assert "line 1 column" in only_problem(b'{"format": }').expected


def test_nan_and_infinity_refused() -> None:
    for literal in ("NaN", "Infinity", "-Infinity"):
        problem = strict_problem('{"a": [1, ' + literal + "]}")
        assert problem.pointer == "/a/1"
        assert literal in problem.expected and "finite" in problem.expected
    assert strict_problem('{"a": 1e400}').pointer == "/a"


def test_duplicate_key_refused() -> None:
    problem = strict_problem('{"deal": {"shown": "x1", "shown": "x2"}}')
    assert problem.pointer == "/deal/shown"
    assert "once" in problem.expected
    doc = json.dumps(valid_log())
    dup = doc.replace('"dealer": 0', '"dealer": 0, "dealer": 1')
    assert only_problem(dup.encode()).pointer == "/dealer"


def test_lone_surrogates_refused_escaped_and_raw() -> None:
    problem = strict_problem(b'{"game_id": "abc\\ud800"}')
    assert problem.pointer == "/game_id"
    assert "surrogate" in problem.expected
    assert strict_problem(b'{"x": ["\\udfff"]}').pointer == "/x/0"
    key = strict_problem(b'{"k\\udc00": 1}')
    assert "surrogate" in key.expected and key.pointer.startswith("/k")
    json.dumps(key.to_json()).encode("utf-8")  # the pointer is printable
    assert strict_problem('{"a": "\ud800"}').pointer == "/a"
    # A proper pair is fine.
    assert loads_strict(b'{"a": "\\ud83d\\ude00"}') == {"a": "\U0001f600"}


def test_invalid_utf8_and_other_encodings_refused() -> None:
    problem = strict_problem(b'{"a": "\xff"}')
    assert problem.pointer == "" and "UTF-8" in problem.expected and "byte 7" in problem.expected
    # An encoded surrogate is not UTF-8 either.
    assert "UTF-8" in strict_problem(b'{"a": "\xed\xa0\x80"}').expected
    assert "UTF-8" in strict_problem('{"a": 1}'.encode("utf-16")).expected
    assert "UTF-8" in strict_problem('{"a": 1}'.encode("utf-16-le")).expected
    assert "UTF-8" in strict_problem('{"a": 1}'.encode("utf-32")).expected
    assert loads_strict(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    assert loads_strict('{"a": "跑胡子"}'.encode()) == {"a": "跑胡子"}


def test_nesting_depth_is_bounded() -> None:
    assert loads_strict("[" * 64 + "]" * 64) is not None
    problem = strict_problem("[" * 65 + "]" * 65)
    assert problem.pointer == "" and "64" in problem.expected
    assert "line 1 column 65" in problem.expected
    assert "at most 3" in strict_problem('{"a": {"b": {"c": {}}}}', max_depth=3).expected
    # Brackets inside strings do not count.
    assert loads_strict('{"a": "[[[[[[[["}', max_depth=1) == {"a": "[[[[[[[["}
    # Far too deep fails cleanly, not with RecursionError.
    assert strict_problem("[" * 100_000).pointer == ""
    doc = valid_log()
    deep: Any = {}
    doc["meta"] = deep
    for _ in range(70):
        deep["x"] = {}
        deep = deep["x"]
    problem = only_problem(doc)
    assert problem.pointer.startswith("/meta/x/x") and "deep" in problem.expected


def test_top_level_must_be_an_object() -> None:
    problem = only_problem(b"[1, 2]")
    assert problem.pointer == "" and "object" in problem.expected


# --- the log format ---------------------------------------------------------------------


def test_wrong_format_string() -> None:
    doc = valid_log()
    doc["format"] = "paohuzi-log/2"
    problem = only_problem(doc)
    assert problem.pointer == "/format"
    assert "paohuzi-log/1" in problem.expected and "paohuzi-log/2" in problem.expected


def test_unknown_field_at_top_level() -> None:
    doc = valid_log()
    doc["extra"] = 1
    problem = only_problem(doc)
    assert problem.pointer == "/extra"
    assert problem.expected.startswith("no such field")
    assert "game_id" in problem.expected


def test_unknown_field_in_nested_objects() -> None:
    doc = valid_log()
    doc["deal"]["seed"] = 7
    doc["players"][1]["name"] = "Bob"
    doc["result"]["bonus"] = 1
    doc["match"]["room"] = "x"
    doc["deal"]["commitment"]["alg"] = "sha256"
    assert set(pointers(problems_of(doc))) == {
        "/deal/seed",
        "/players/1/name",
        "/result/bonus",
        "/match/room",
        "/deal/commitment/alg",
    }


def test_unknown_field_in_an_event() -> None:
    doc = valid_log()
    doc["events"][3]["from"] = "stock"
    problem = only_problem(doc)
    assert problem.pointer == "/events/3/from"
    assert problem.expected.startswith("no such field")
    # A field of another event type does not belong either.
    doc = valid_log()
    doc["events"][0]["groups"] = [["x1", "x2", "x3"]]
    doc["events"].append({"type": "end", "reason": "exhausted", "seat": 1})
    assert pointers(problems_of(doc)) == ["/events/0/groups", "/events/10/seat"]


def test_meta_is_kept_and_never_interpreted() -> None:
    doc = valid_log()
    doc["meta"] = {"anything": [1, {"x11": None}], "format": "whatever"}
    doc["events"][2]["meta"] = {"client": {"v": "1.2", "nested": {"deep": True}}}
    log = parse_log(json.dumps(doc).encode())
    assert log.raw["meta"] == doc["meta"]
    assert log.raw["events"][2]["meta"] == doc["events"][2]["meta"]
    doc["events"][2]["meta"] = "not an object"
    assert only_problem(doc).pointer == "/events/2/meta"


def test_wrong_card_name() -> None:
    doc = valid_log()
    doc["deal"]["hands"][0][5] = "x11"
    doc["deal"]["stock"][0] = "X1"
    doc["deal"]["shown"] = 3
    doc["events"][3]["card"] = "d0"
    doc["events"][1]["groups"][1][2] = "dd3"
    found = problems_of(doc)
    assert pointers(found) == [
        "/deal/hands/0/5",
        "/deal/shown",
        "/deal/stock/0",
        "/events/1/groups/1/2",
        "/events/3/card",
    ]
    assert found[0].expected == "a card name (x1..x10, d1..d10), got 'x11'"


def test_bool_is_not_an_int() -> None:
    doc = valid_log()
    doc["dealer"] = True
    doc["players"][0]["seat"] = False
    doc["events"][0]["t"] = True
    doc["result"]["scores"][1] = False
    doc["match"]["hand"] = True
    found = problems_of(doc)
    assert pointers(found) == [
        "/match/hand",
        "/players/0/seat",
        "/dealer",
        "/events/0/t",
        "/result/scores/1",
    ]
    assert "got true" in found[2].expected


def test_floats_are_not_ints() -> None:
    doc = valid_log()
    doc["dealer"] = 0.0
    assert only_problem(doc).pointer == "/dealer"


def test_missing_required_fields() -> None:
    doc = valid_log()
    del doc["game_id"]
    del doc["deal"]["stock"]
    del doc["events"][1]["groups"]
    del doc["result"]["outcome"]
    found = problems_of(doc)
    assert pointers(found) == ["/game_id", "/deal/stock", "/events/1/groups", "/result/outcome"]
    assert all("missing" in p.expected for p in found)
    doc = valid_log()
    del doc["events"][0]["type"]
    assert only_problem(doc).pointer == "/events/0/type"


def test_bad_seats() -> None:
    doc = valid_log()
    doc["players"][2]["seat"] = 0
    problem = only_problem(doc)
    assert problem.pointer == "/players/2/seat" and "once" in problem.expected
    doc = valid_log()
    doc["players"][1]["seat"] = 3
    doc["events"][0]["seat"] = -1
    doc["dealer"] = 5
    doc["result"]["winner"] = 3
    found = problems_of(doc)
    assert pointers(found) == ["/players/1/seat", "/dealer", "/events/0/seat", "/result/winner"]
    assert all("0 to 2" in p.expected for p in found)
    doc = valid_log()
    doc["players"].pop()
    problem = only_problem(doc)
    assert problem.pointer == "/players" and "3" in problem.expected


def test_ids_and_strings() -> None:
    doc = valid_log()
    doc["game_id"] = "bad\nid"
    doc["players"][0]["id"] = ""
    doc["players"][1]["id"] = "p" * 129
    doc["match"]["id"] = ""
    found = problems_of(doc)
    assert pointers(found) == ["/game_id", "/match/id", "/players/0/id", "/players/1/id"]
    doc = valid_log()
    doc["game_id"] = "g" * 128
    parse_log(doc)
    doc["game_id"] = "g" * 129
    assert only_problem(doc).pointer == "/game_id"


def test_unknown_ruleset() -> None:
    doc = valid_log()
    doc["ruleset"] = "changsha"
    problem = only_problem(doc)
    assert problem.pointer == "/ruleset"
    assert "standard" in problem.expected and "changsha" in problem.expected


def test_bad_rules_override() -> None:
    doc = valid_log()
    doc["rules"] = {"stake": 0, "min_huxi": "15", "flowers": "lots", "colour": 1, "duo": 1}
    found = problems_of(doc)
    assert set(pointers(found)) == {
        "/rules/stake",
        "/rules/min_huxi",
        "/rules/flowers",
        "/rules/colour",
        "/rules/duo",
    }
    by_pointer = {p.pointer: p.expected for p in found}
    assert "1 to" in by_pointer["/rules/stake"]
    assert by_pointer["/rules/colour"].startswith("no such field")
    assert "true or false" in by_pointer["/rules/duo"]
    doc["rules"] = [1]
    assert only_problem(doc).pointer == "/rules"
    doc["rules"] = {"min_huxi": 10, "hu_on_discard": True}
    log = parse_log(doc)
    assert log.profile.min_huxi == 10 and log.profile.hu_on_discard is True


def test_bad_fans() -> None:
    doc = valid_log()
    doc["result"]["fans"] = ["hong_hu", "zi_mo", "hong_hu"]
    found = problems_of(doc)
    assert pointers(found) == ["/result/fans/1", "/result/fans/2"]
    assert "hai_di" in found[0].expected and "zi_mo" in found[0].expected
    assert "once" in found[1].expected


def test_result_shapes() -> None:
    doc = valid_log()
    doc["result"] = {"outcome": "win", "winner": None, "scores": [0, 0], "huxi": "21"}
    assert pointers(problems_of(doc)) == ["/result/outcome", "/result/scores", "/result/huxi"]


def test_event_shapes() -> None:
    doc = valid_log()
    doc["events"] = [
        {"type": "steal", "seat": 1, "card": "x1"},
        {"type": "chi", "seat": 1, "card": "x1", "groups": []},
        {"type": "chi", "seat": 1, "card": "x1", "groups": [["x1", "x2"]]},
        {"type": "end", "reason": "timeout"},
        {"type": "draw", "seat": 0, "card": None},
        {"type": "hu", "seat": 0, "card": "x0"},
        "draw",
    ]
    found = problems_of(doc)
    assert pointers(found) == [
        "/events/0/type",
        "/events/1/groups",
        "/events/2/groups/0",
        "/events/3/reason",
        "/events/4/card",
        "/events/5/card",
        "/events/6",
    ]
    assert "exhausted" in found[3].expected
    assert "null" in found[5].expected


def test_deal_shapes() -> None:
    doc = valid_log()
    doc["deal"]["hands"] = doc["deal"]["hands"][:2]
    doc["deal"]["stock"] = ["x1"] * 81
    doc["deal"]["commitment"]["sha256"] = "AB" * 32
    found = problems_of(doc)
    assert pointers(found) == ["/deal/hands", "/deal/stock", "/deal/commitment/sha256"]


def test_multiple_problems_reported_together() -> None:
    doc = valid_log()
    doc["format"] = "paohuzi-log/0"
    doc["ruleset"] = "nope"
    doc["dealer"] = "0"
    doc["events"][7]["card"] = "x99"
    doc["unknown"] = {}
    with pytest.raises(LogFormatError) as info:
        parse_log(doc)
    err = info.value
    assert set(pointers(err.problems)) == {
        "/unknown",
        "/format",
        "/ruleset",
        "/dealer",
        "/events/7/card",
    }
    lines = str(err).splitlines()
    assert len(lines) == 5
    assert "/events/7/card: a card name (x1..x10, d1..d10), got 'x99'" in lines
    assert isinstance(err, ValueError)
    assert err.problems[0].to_json() == {
        "pointer": err.problems[0].pointer,
        "expected": err.problems[0].expected,
    }


def test_problems_are_capped() -> None:
    doc = valid_log()
    doc["deal"]["stock"] = ["bad"] * 80
    doc["deal"]["hands"][1] = ["bad"] * 20
    found = problems_of(doc)
    assert len(found) == MAX_PROBLEMS
    assert found[0].pointer == "/deal/hands/1/0"


def test_dict_input_gets_the_json_checks_too() -> None:
    doc = valid_log()
    doc["meta"] = {"ratio": float("nan")}
    assert only_problem(doc).pointer == "/meta/ratio"
    doc["meta"] = {"when": ("a", "tuple")}
    assert only_problem(doc).pointer == "/meta/when"


def test_parse_log_copies_a_dict() -> None:
    doc = valid_log()
    log = parse_log(doc)
    before = log_sha256(log.raw)
    doc["game_id"] = "changed"
    doc["meta"] = {"x": 1}
    assert log_sha256(log.raw) == before


# --- canonical form ---------------------------------------------------------------------


def test_canonical_bytes_and_sha256_ignore_key_order() -> None:
    doc = valid_log()
    reordered = json.loads(json.dumps(doc, sort_keys=True))
    reversed_doc = dict(reversed(list(doc.items())))
    reversed_doc["deal"] = dict(reversed(list(doc["deal"].items())))
    canonical = canonical_log_bytes(doc)
    assert canonical == canonical_log_bytes(reordered) == canonical_log_bytes(reversed_doc)
    assert canonical == json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    assert log_sha256(doc) == hashlib.sha256(canonical).hexdigest() == log_sha256(reversed_doc)
    # Whitespace and key order of the input text do not matter either.
    pretty = json.dumps(reversed_doc, indent=4).encode()
    compact = json.dumps(doc, separators=(",", ":")).encode()
    assert log_sha256(parse_log(pretty).raw) == log_sha256(parse_log(compact).raw)
    # Non-ASCII stays UTF-8, not \u escapes.
    doc["meta"] = {"note": "跑胡子"}
    assert "跑胡子".encode() in canonical_log_bytes(doc)
    # Content changes change the hash.
    doc2 = valid_log()
    doc2["dealer"] = 1
    assert log_sha256(doc2) != log_sha256(valid_log())


def test_huge_integer_refused() -> None:
    problem = strict_problem(b'{"a": ' + b"1" * 5000 + b"}")
    assert problem.pointer == "" and "digits" in problem.expected
