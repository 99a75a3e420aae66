"""The JSON Schema (draft 2020-12) of ``paohuzi-log/1``, built from the parser's tables.

``replay/schema/paohuzi-log-1.schema.json`` is this schema, published with the
package (``log_schema()`` reads it) and served by the service. It states the shape
the parser (``logformat``) checks: the fields of every object, their types and
ranges, the card names, the event types with their fields, the fan names. What a
schema cannot say (each seat once in ``players``, the values a profile override
may take, strings without lone surrogates, at most 64 levels of nesting) the parser
still refuses with a JSON pointer. When a parser table changes, regenerate on
purpose: ``python -m replay.logschema --write`` (``tests/rules/test_schema.py``
fails while the file is stale).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any, Final

from .cards import NAMES
from .logformat import (
    COMMITMENT_FIELDS,
    DEAL_FIELDS,
    EVENT_OPTIONAL,
    EVENT_REQUIRED,
    FANS,
    MATCH_FIELDS,
    MAX_CARD_LIST,
    MAX_ID_LENGTH,
    PLAYER_FIELDS,
    RESULT_FIELDS,
    RESULT_INTS,
    TOP_FIELDS,
)
from .model import FORMAT, EndReason, EventType, Outcome
from .profiles import OVERRIDABLE, PROFILES

SCHEMA_FILE: Final = "paohuzi-log-1.schema.json"
SCHEMA_ID: Final = "https://paohuzi-audit.invalid/schema/paohuzi-log-1.json"
#: the rulesets LOG_FORMAT.md names (a ruleset the profiles do not know yet is still
#: refused by the parser: ``changde`` until its profile lands)
RULESETS: Final = ("standard", "hengshan", "changde")

_INT: Final = {"type": "integer"}
_SEAT: Final = {"type": "integer", "minimum": 0, "maximum": 2}
_CARD: Final = {"$ref": "#/$defs/card"}


def _object(props: dict[str, Any], fields: tuple[str, ...], required: tuple[str, ...],
            ) -> dict[str, Any]:
    assert set(props) == set(fields), (sorted(props), fields)  # the parser's own list
    return {"type": "object", "properties": {k: props[k] for k in fields},
            "required": list(required), "additionalProperties": False}


def _cards(most: int) -> dict[str, Any]:
    return {"type": "array", "items": _CARD, "maxItems": most}


def _rules() -> dict[str, Any]:
    props: dict[str, Any] = {}
    base = PROFILES[next(iter(PROFILES))]
    for key in OVERRIDABLE:
        value = getattr(base, key)
        props[key] = {"type": "boolean" if isinstance(value, bool) else
                      "integer" if isinstance(value, int) else "string"}
    return {"type": "object", "properties": props, "additionalProperties": False}


def _event(kind: EventType) -> dict[str, Any]:
    field_schemas: dict[str, Any] = {
        "type": {"const": kind.value},
        "seat": _SEAT,
        "card": {"oneOf": [_CARD, {"type": "null"}]} if kind is EventType.HU else _CARD,
        "groups": {"type": "array", "minItems": 1,
                   "items": {"type": "array", "items": _CARD, "minItems": 3, "maxItems": 3}},
        "reason": {"enum": [r.value for r in EndReason]},
        "t": {"type": "integer", "minimum": 0},
        "meta": {"type": "object"},
    }
    required = ("type", *EVENT_REQUIRED[kind])
    fields = (*required, *EVENT_OPTIONAL)
    return _object({k: field_schemas[k] for k in fields}, fields, required)


def build_schema() -> dict[str, Any]:
    text_id = {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH}
    player = _object({"seat": _SEAT, "id": text_id}, PLAYER_FIELDS, PLAYER_FIELDS)
    commitment = _object({"salt": {"type": "string"},
                          "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
                         COMMITMENT_FIELDS, COMMITMENT_FIELDS)
    deal = _object({"hands": {"type": "array", "items": _cards(MAX_CARD_LIST),
                              "minItems": 3, "maxItems": 3},
                    "shown": _CARD, "stock": _cards(MAX_CARD_LIST), "commitment": commitment},
                   DEAL_FIELDS, ("hands", "shown", "stock"))
    match = _object({"id": {"type": "string", "minLength": 1},
                     "hand": {"type": "integer", "minimum": 1},
                     "drawn_before": {"type": "integer", "minimum": 0}},
                    MATCH_FIELDS, ("id", "hand"))
    result_props: dict[str, Any] = {
        "outcome": {"enum": [o.value for o in Outcome]},
        "winner": {"oneOf": [_SEAT, {"type": "null"}]},
        "scores": {"type": "array", "items": _INT, "minItems": 3, "maxItems": 3},
        "fans": {"type": "array", "items": {"enum": list(FANS)}, "uniqueItems": True},
        **{k: _INT for k in RESULT_INTS},
    }
    result = _object(result_props, RESULT_FIELDS, ("outcome", "winner", "scores"))
    top = {
        "format": {"const": FORMAT},
        "game_id": {**text_id, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]+$"},
        "ruleset": {"enum": list(RULESETS)},
        "rules": _rules(),
        "match": match,
        "started_at": {"type": "string", "format": "date-time"},
        "players": {"type": "array", "items": player, "minItems": 3, "maxItems": 3},
        "dealer": _SEAT,
        "deal": deal,
        "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
        "result": result,
        "meta": {"type": "object"},
    }
    schema = _object(top, TOP_FIELDS, ("format", "game_id", "ruleset", "players", "dealer",
                                        "deal", "events"))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "paohuzi-log/1: one Paohuzi (跑胡子) hand",
        "description": "The game log of LOG_FORMAT.md. Unknown fields are refused except "
                       "inside any object named meta.",
        **schema,
        "$defs": {
            "card": {"enum": list(NAMES)},
            "event": {"oneOf": [_event(k) for k in EventType]},
        },
    }


def schema_bytes() -> bytes:
    return (json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def openapi_schemas(name: str = "PaohuziLog1") -> dict[str, dict[str, Any]]:
    """The schema as OpenAPI 3.1 components: ``name`` and one per ``$defs`` entry
    (``name`` + ``Card``/``Event``), the references rewritten to point at them."""
    schema = build_schema()
    defs = schema.pop("$defs")
    for key in ("$schema", "$id"):
        schema.pop(key)
    text = json.dumps({name: schema, **{name + k.title(): v for k, v in defs.items()}})
    for key in defs:
        text = text.replace(f'"#/$defs/{key}"', f'"#/components/schemas/{name}{key.title()}"')
    out: dict[str, dict[str, Any]] = json.loads(text)
    return out


def log_schema() -> dict[str, Any]:
    """The published schema file, as stored in the package."""
    data: dict[str, Any] = json.loads(
        resources.files("replay.schema").joinpath(SCHEMA_FILE).read_bytes())
    return data


if __name__ == "__main__":
    if "--write" in sys.argv:
        target = resources.files("replay.schema").joinpath(SCHEMA_FILE)
        with resources.as_file(target) as path:
            path.write_bytes(schema_bytes())
    else:
        sys.stdout.buffer.write(schema_bytes())
