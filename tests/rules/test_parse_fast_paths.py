"""The bytes-level structure scan of the strict parser (``strictjson.scan_structure``) and
the fast path of ``parse_log`` that trusts it (``loads_unchecked_keys``)."""

from __future__ import annotations

import json
from itertools import repeat
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.logformat import LogFormatError, parse_log
from replay.strictjson import count_members, loads_strict, loads_unchecked_keys, scan_structure

from .test_logformat import valid_log

_TRICKY = st.text(alphabet='"\\:[]{},/ \n\tux0é\U0001f600', max_size=12)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans(), st.booleans(), st.integers(0, 8))
def test_the_scan_counts_members_and_measures_nesting(
    value: Any, ascii_only: bool, indent: bool, max_depth: int
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=1 if indent else None)
    assert scan_structure(text.encode(), max_depth) == (
        count_members(value),
        _depth(value) > max_depth,
    )


def test_the_scan_sees_through_escapes_and_strings() -> None:
    text = r'{"a\\":"\"[{:","b":["\\\"",":]]"],"":{"\\\\":[[]]}}'
    assert scan_structure(text.encode(), 64) == (4, False)
    assert scan_structure(text.encode(), 3) == (4, True)
    assert scan_structure(text.encode(), 4) == (4, False)


def test_repeated_keys_make_the_member_count_differ() -> None:
    text = '{"a": 1, "b": {"c": 2, "c": 3}, "a": [{"d": 4}]}'
    loaded = loads_unchecked_keys(text)
    assert loaded is not None
    value, members = loaded
    assert members == 6 and count_members(value) == 4


def test_anything_strict_refuses_is_left_to_the_strict_path() -> None:
    for text in ('{"a": NaN}', '{"a": 1e999}', '{"a": "\\ud800"}', "[[[]]]", "{", b"\xff"):
        assert loads_unchecked_keys(text, 2) is None
    assert loads_unchecked_keys("[[]]", 2) == ([[]], 0)
    assert loads_strict("[[]]", 2) == [[]]


def _dumped(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc).encode()


def test_a_repeated_key_anywhere_in_a_valid_log_is_refused() -> None:
    log = valid_log()
    log["meta"] = {"a": {"b": 1}}
    raw = _dumped(log)
    assert parse_log(raw).sha256
    places = [
        (b'"b": 1}', b'"b": 1, "b": 1}', "/meta/a/b"),
        (b'"latency_ms": 12', b'"latency_ms": 12, "latency_ms": 12', "/events/9/meta/latency_ms"),
        (b'"hand": 3', b'"hand": 3, "hand": 3', "/match/hand"),
        (b'"sha256": "abab', b'"salt": "9f2c", "sha256": "abab', "/deal/commitment/salt"),
        (b'"seat": 0, "card": "x3"', b'"seat": 0, "seat": 0, "card": "x3"', "/events/0/seat"),
        (b'"dealer": 0', b'"dealer": 0, "dealer": 0', "/dealer"),
    ]
    for old, new, pointer in places:
        assert raw.count(old) == 1, old
        try:
            parse_log(raw.replace(old, new))
        except LogFormatError as exc:
            assert [p.pointer for p in exc.problems] == [pointer]
            assert exc.problems[0].expected.startswith("each key once in an object")
        else:
            raise AssertionError(f"{pointer} repeated was accepted")


def test_new_event_makes_the_same_events_as_the_class() -> None:
    from replay.cards import parse_card
    from replay.eventmaker import new_event, new_events
    from replay.model import EndReason, Event, EventType

    # the field-writing maker is in use in both builds (slots on the sources, the
    # compiled class's attribute descriptors in the compiled build)
    assert new_event is not Event
    x3, d4 = parse_card("x3"), parse_card("d4")
    for args in (
        (EventType.DRAW, 1, x3, (), None, 5),
        (EventType.HU, 0, None, (), None, None),
        (EventType.CHI, 2, x3, ((x3, x3, d4),), None, 0),
        (EventType.END, None, None, (), next(iter(EndReason)), 7),
    ):
        made, built = new_event(*args), Event(*args)
        assert made == built and repr(made) == repr(built) and hash(made) == hash(built)
        assert new_events(*([value] for value in args)) == [built]
    columns = ([EventType.DRAW, EventType.PASS], [0, 2], [x3, d4], repeat(()), repeat(None), [1, 2])
    expected = [Event(EventType.DRAW, 0, x3, t=1), Event(EventType.PASS, 2, d4, t=2)]
    assert new_events(*columns) == expected


def test_usual_events_with_a_wrong_value_get_the_full_checks() -> None:
    log = valid_log()
    log["events"][2:2] = [
        {"type": "draw", "seat": True, "card": "x1", "t": 1},
        {"type": "draw", "seat": 1, "card": "x1", "meta": 5},
        {"type": "draw", "seat": 1, "card": "x11", "t": -1},
    ]
    try:
        parse_log(_dumped(log))
    except LogFormatError as exc:
        assert [p.pointer for p in exc.problems] == [
            "/events/2/seat", "/events/3/meta", "/events/4/card", "/events/4/t"
        ]
    else:
        raise AssertionError("accepted")


def test_the_hash_of_a_parsed_log_is_its_canonical_hash() -> None:
    from replay.logformat import log_sha256

    log = valid_log()
    log["events"] += [
        {"type": "chi", "seat": 1, "card": "x3", "groups": [["x3", "x4", "x5"]], "t": 9},
        {"type": "hu", "seat": 1, "card": None, "t": 10},
        {"type": "draw", "seat": 1, "card": "x2", "meta": {"é": ["\U0001f600", 1.5, None]}},
        {"type": "end", "reason": "exhausted", "t": 11},
    ]
    log["meta"] = {"b": {"a": "\"quoted\" \\ é"}, "a": [True, -0.0, 10**30]}
    log["started_at"] = "2026-11-29T12:00:00+08:00"
    for raw in (json.dumps(log).encode(), json.dumps(log, ensure_ascii=False, indent=2)):
        parsed = parse_log(raw)
        assert parsed.sha256 == log_sha256(json.loads(raw))


def test_a_repeated_key_is_reported_before_the_shape() -> None:
    log = valid_log()
    log["dealer"] = 7
    raw = _dumped(log)
    with pytest.raises(LogFormatError) as shape_only:
        parse_log(raw)
    assert [p.pointer for p in shape_only.value.problems] == ["/dealer"]
    with pytest.raises(LogFormatError) as both:
        parse_log(raw.replace(b'"hand": 3', b'"hand": 3, "hand": 4'))
    assert [p.pointer for p in both.value.problems] == ["/match/hand"]
