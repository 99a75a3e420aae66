"""The published JSON Schema of paohuzi-log/1 and the parser agree (replay.logschema)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from replay.logformat import FANS, LogFormatError, parse_log
from replay.logschema import RULESETS, build_schema, log_schema, schema_bytes
from replay.model import EventType
from replay.profiles import OVERRIDABLE, PROFILES

from .builder import HandBuilder
from .corpus import corpus_lines

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.json"))
SCHEMA = log_schema()


def errors(value: Any, schema: dict[str, Any], path: str = "") -> list[str]:
    """A small structural JSON Schema checker: the keywords the published schema uses."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return errors(value, SCHEMA["$defs"][name], path)
    out: list[str] = []
    if "oneOf" in schema:
        ok = sum(1 for s in schema["oneOf"] if not errors(value, s, path))
        return [] if ok == 1 else [f"{path}: {ok} of oneOf match"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} not in enum")
    kind = schema.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{path}: not an integer"]
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            out.append(f"{path}: out of range")
    elif kind is not None and not isinstance(value, types[kind]):
        return [f"{path}: not {kind}"]
    if isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            out.append(f"{path}: length")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{path}: pattern")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            out.append(f"{path}: item count")
        if schema.get("uniqueItems") and len(set(map(json.dumps, value))) != len(value):
            out.append(f"{path}: repeated items")
        for i, item in enumerate(value):
            out += errors(item, schema.get("items", {}), f"{path}/{i}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{path}/{k}: required" for k in schema.get("required", []) if k not in value]
        for k, item in value.items():
            if k in props:
                out += errors(item, props[k], f"{path}/{k}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}/{k}: not allowed")
    return out


def test_the_published_file_is_the_schema_the_parser_tables_give() -> None:
    path = Path(__file__).parents[2] / "replay" / "schema" / "paohuzi-log-1.schema.json"
    assert path.read_bytes() == schema_bytes(), "run: python -m replay.logschema --write"
    assert SCHEMA == build_schema()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_log_validates(path: Path) -> None:
    doc = json.loads(path.read_bytes())
    assert errors(doc, SCHEMA) == []
    parse_log(path.read_bytes())


def test_pinned_corpus_logs_validate() -> None:
    for ruleset in ("standard", "hengshan"):
        for n, raw in enumerate(corpus_lines(ruleset)):
            if n % 20 == 0:  # 100 hands a profile, clean and doctored
                assert errors(json.loads(raw), SCHEMA) == []


def _base() -> dict[str, Any]:
    return HandBuilder(["x2 x5", "", ""], stock="d9").discard(0, "x5").draw(1).chi(
        1, "x5", "x5 x6 x7").result(outcome="abandoned", winner=None, scores=[0, 0, 0],
                                     fans=["hong_hu"]).build()


BAD: list[tuple[str, Any]] = [
    ("/extra", 1),
    ("/format", "paohuzi-log/2"),
    ("/ruleset", "zigong"),
    ("/dealer", 3),
    ("/players/0/seat", -1),
    ("/players/0/nick", "x"),
    ("/deal/shown", "x11"),
    ("/deal/commitment", {"salt": "s", "sha256": "ABC"}),
    ("/events/0/type", "steal"),
    ("/events/0/groups", [["x1", "x2", "x3"]]),
    ("/events/1/t", -5),
    ("/events/2/groups", []),
    ("/match", {"id": "m", "hand": 0}),
    ("/match", {"id": "m", "hand": 2, "drawn_before": -1}),
    ("/match", {"id": "m", "hand": 2, "extra": 1}),
    ("/result/fans", ["golden"]),
    ("/result/fans", ["hong_hu", "hong_hu"]),
    ("/result/scores", [0, 0]),
    ("/result/outcome", "won"),
    ("/rules", {"no_such_field": 1}),
    ("/game_id", ""),
    ("/game_id", "a\u0001b"),
]


def _set(doc: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = pointer.strip("/").split("/")
    target: Any = doc
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return doc


@pytest.mark.parametrize(("pointer", "value"), BAD, ids=[f"{p}={v!r}" for p, v in BAD])
def test_schema_and_parser_refuse_the_same_shapes(pointer: str, value: Any) -> None:
    doc = _set(_base(), pointer, value)
    assert errors(doc, SCHEMA) != []
    with pytest.raises(LogFormatError):
        parse_log(doc)


def test_a_valid_base_document_passes_both() -> None:
    assert errors(_base(), SCHEMA) == []
    parse_log(_base())


def test_names_and_enums_agree() -> None:
    assert SCHEMA["properties"]["result"]["properties"]["fans"]["items"]["enum"] == list(FANS)
    events = SCHEMA["$defs"]["event"]["oneOf"]
    assert [e["properties"]["type"]["const"] for e in events] == [t.value for t in EventType]
    assert set(PROFILES) <= set(RULESETS) == {"standard", "hengshan", "changde"}
    assert list(SCHEMA["properties"]["rules"]["properties"]) == list(OVERRIDABLE)


def test_changde_and_drawn_before_are_in_the_format() -> None:
    doc = _base()
    doc["match"] = {"id": "room-1", "hand": 4, "drawn_before": 2}
    assert errors(doc, SCHEMA) == []
    assert parse_log(doc).match is not None and parse_log(doc).match.drawn_before == 2
    doc["ruleset"] = "changde"
    doc["result"]["fans"] = ["da_tuan_yuan", "hai_di"]
    assert errors(doc, SCHEMA) == []
    no_match = _base()
    no_match["match"] = {"id": "room-1", "hand": 1}
    assert parse_log(no_match).match.drawn_before == 0  # type: ignore[union-attr]
