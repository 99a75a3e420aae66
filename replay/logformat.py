"""The shape of ``paohuzi-log/1`` documents (docs: LOG_FORMAT.md).

``replay.strictjson.loads_strict`` turns bytes or text into JSON values, refusing
everything RFC 8259 leaves loose; ``parse_log`` then checks the whole document
against the log format and builds ``replay.model.Log``. The same shape is published
as a JSON Schema, ``replay/schema/paohuzi-log-1.schema.json``.

Every refusal is a ``LogFormatError`` listing each ``Problem`` found (up to
``MAX_PROBLEMS``): an RFC 6901 JSON pointer to the offending value (``""`` for the
whole document) and what was expected there. Shapes only: table facts (card counts,
turns, scores adding up) are the engine's findings, not parse errors.
"""

from __future__ import annotations

import copy
import hashlib
import json
import operator
import re
from collections.abc import Mapping
from datetime import datetime
from itertools import compress, repeat
from typing import Any, Final, TypeVar

from .cards import NAMES, Card, is_card_name, parse_card
from .eventmaker import new_event as _new_event
from .eventmaker import new_events as _new_events
from .model import (
    EV_CHI,
    EV_END,
    EV_HU,
    FORMAT,
    Commitment,
    Deal,
    EndReason,
    Event,
    EventType,
    Log,
    Match,
    Outcome,
)
from .profiles import OVERRIDABLE, PROFILES, Profile, ProfileError, resolve
from .results import FAN_NAMES, RESULT_FIELDS, RESULT_INTS
from .strictjson import (
    DEFAULT_MAX_DEPTH,
    MAX_PROBLEMS,
    LogFormatError,
    Problem,
    loads_strict,
    loads_unchecked_keys,
)
from .strictjson import Problems as _Problems
from .strictjson import check_json as _check_json
from .strictjson import count_members as _count_members
from .strictjson import describe as _got
from .strictjson import pointer_join as _ptr

__all__ = [
    "FANS",
    "MAX_PROBLEMS",
    "LogFormatError",
    "Problem",
    "canonical_log_bytes",
    "loads_strict",
    "log_sha256",
    "parse_log",
]

#: longest card list accepted in ``deal`` (counts are the engine's ``deal_invalid``).
MAX_CARD_LIST: Final = 80
MAX_ID_LENGTH: Final = 128
#: the only names allowed in ``result.fans`` (``results.FAN_NAMES``).
FANS: Final[tuple[str, ...]] = FAN_NAMES

_CARD: Final = "a card name (x1..x10, d1..d10)"
_SEAT: Final = "a seat (an integer from 0 to 2)"
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
TOP_FIELDS: Final = (
    "format",
    "game_id",
    "ruleset",
    "rules",
    "match",
    "started_at",
    "players",
    "dealer",
    "deal",
    "events",
    "result",
    "meta",
)
MATCH_FIELDS: Final = ("id", "hand", "drawn_before")
PLAYER_FIELDS: Final = ("seat", "id")
DEAL_FIELDS: Final = ("hands", "shown", "stock", "commitment")
COMMITMENT_FIELDS: Final = ("salt", "sha256")
# Fields each event type requires, besides ``type``; ``t`` and ``meta`` are always allowed.
EVENT_REQUIRED: Final[dict[EventType, tuple[str, ...]]] = {
    EventType.DRAW: ("seat", "card"),
    EventType.DISCARD: ("seat", "card"),
    EventType.TI: ("seat", "card"),
    EventType.WEI: ("seat", "card"),
    EventType.PAO: ("seat", "card"),
    EventType.PENG: ("seat", "card"),
    EventType.CHI: ("seat", "card", "groups"),
    EventType.PASS: ("seat", "card"),
    EventType.HU: ("seat", "card"),
    EventType.END: ("reason",),
}
EVENT_OPTIONAL: Final = ("t", "meta")
_EVENT_TYPES: Final[dict[str, EventType]] = {t.value: t for t in EventType}
_EVENT_TYPE_LIST: Final = ", ".join(_EVENT_TYPES)
_EVENT_ALLOWED: Final[dict[EventType, tuple[str, ...]]] = {
    t: ("type", *required, *EVENT_OPTIONAL) for t, required in EVENT_REQUIRED.items()
}
_END_REASONS: Final[dict[str, EndReason]] = {r.value: r for r in EndReason}
_OUTCOMES: Final = frozenset(o.value for o in Outcome)
_EVENT_ANY: Final = ("type", "seat", "card", "groups", "reason", "t", "meta")
_CARD_OF: Final[dict[str, Card]] = {name: parse_card(name) for name in NAMES}
# The usual event: a card event with its time, no meta (its text is written out: card and
# type names need no escapes; seat and t are checked to be ints, not bools).
_USUAL_KEYS: Final = frozenset(("type", "seat", "card", "t"))
_USUAL_KINDS: Final[dict[str, EventType]] = {
    name: kind for name, kind in _EVENT_TYPES.items() if EVENT_REQUIRED[kind] == ("seat", "card")
}
_USUAL_TEXT: Final = '{"card":"%s","seat":%d,"t":%d,"type":"%s"}'
_USUAL_COLUMNS: Final = operator.itemgetter("card", "seat", "t", "type")
_INT: Final = {int}
_DEAL_KEYS: Final = frozenset(DEAL_FIELDS)
_RESULT_KEYS: Final = frozenset(RESULT_FIELDS)
_EVENT_KEYS: Final[dict[EventType, frozenset[str]]] = {
    t: frozenset(allowed) for t, allowed in _EVENT_ALLOWED.items()
}

_T = TypeVar("_T")


# --- canonical form -------------------------------------------------------------------------


#: the canonical JSON text of a value: sorted keys, compact, UTF-8 characters as they are.
_json: Final = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode


def canonical_log_bytes(doc: Mapping[str, Any]) -> bytes:
    """The log as sorted-key, compact UTF-8 JSON: what ``log_sha256`` hashes."""
    return json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def _canonical_valid(doc: dict[str, Any], event_texts: list[str]) -> bytes:
    """``canonical_log_bytes`` of a document ``_build`` accepted, given the canonical
    text of each event (most written out by ``_events``, faster than the encoder): its
    keys are ``TOP_FIELDS`` names and its deal holds card names, which need no escapes."""
    parts = []
    for key in sorted(doc):
        if key == "events":
            parts.append(f'"events":[{",".join(event_texts)}]')
        elif key == "deal":
            parts.append(f'"deal":{_deal_text(doc["deal"])}')
        else:
            parts.append(f'"{key}":{_json(doc[key])}')
    return ("{" + ",".join(parts) + "}").encode("utf-8")


def _deal_text(deal: dict[str, Any]) -> str:
    hands = ",".join(map(_names_text, deal["hands"]))
    text = f'"hands":[{hands}],"shown":"{deal["shown"]}","stock":{_names_text(deal["stock"])}}}'
    if "commitment" in deal:
        return f'{{"commitment":{_json(deal["commitment"])},{text}'
    return "{" + text


def _names_text(names: list[str]) -> str:
    return '["' + '","'.join(names) + '"]' if names else "[]"


def log_sha256(doc: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of ``canonical_log_bytes(doc)``: the same for any key order."""
    return hashlib.sha256(canonical_log_bytes(doc)).hexdigest()


# --- field checks ---------------------------------------------------------------------------

_MISSING: Final = object()


def _fields(
    value: object,
    pointer: str,
    allowed: tuple[str, ...],
    p: _Problems,
    what: str,
) -> dict[str, Any] | None:
    """``value`` as an object whose keys are all in ``allowed``, or None after a problem."""
    if not isinstance(value, dict):
        p.add(pointer, f"{what}, got {_got(value)}")
        return None
    for key in value:
        if key not in allowed:
            p.add(_ptr(pointer, key), "no such field; expected one of " + ", ".join(allowed))
    return value


def _take(obj: dict[str, Any], key: str, pointer: str, p: _Problems, what: str) -> Any:
    """``obj[key]``, or ``_MISSING`` after reporting the required field as missing."""
    if key in obj:
        return obj[key]
    p.add(_ptr(pointer, key), f"{what} (required field missing)")
    return _MISSING


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, pointer: str, p: _Problems, low: int | None, high: int | None) -> int | None:
    if value is _MISSING:
        return None
    if _is_int(value) and (low is None or value >= low) and (high is None or value <= high):
        result: int = value
        return result
    if low is not None and high is not None:
        what = f"an integer from {low} to {high}"
    elif low is not None:
        what = f"an integer >= {low}"
    else:
        what = "an integer"
    p.add(pointer, f"{what}, got {_got(value)}")
    return None


def _seat(value: Any, pointer: str, p: _Problems) -> int | None:
    if value is _MISSING:
        return None
    if _is_int(value) and 0 <= value <= 2:
        result: int = value
        return result
    p.add(pointer, f"{_SEAT}, got {_got(value)}")
    return None


def _text(value: Any, pointer: str, p: _Problems, what: str, most: int | None) -> str | None:
    """A non-empty string of at most ``most`` characters."""
    if value is _MISSING:
        return None
    if isinstance(value, str) and value and (most is None or len(value) <= most):
        return value
    p.add(pointer, f"{what}, got {_got(value)}")
    return None


def _card(value: Any, pointer: str, p: _Problems) -> Card | None:
    if value is _MISSING:
        return None
    if is_card_name(value):
        return parse_card(value)
    p.add(pointer, f"{_CARD}, got {_got(value)}")
    return None


def _cards(
    value: Any, pointer: str, p: _Problems, what: str, most: int
) -> tuple[tuple[Card, ...], tuple[str, ...]] | None:
    """A list of card names: the cards and the names as written."""
    if value is _MISSING:
        return None
    if not isinstance(value, list):
        p.add(pointer, f"{what}, got {_got(value)}")
        return None
    if len(value) <= most:
        quick = _quick_cards(value)
        if quick is not None:
            return quick, tuple(value)
    ok = True
    if len(value) > most:
        p.add(pointer, f"{what} (at most {most}), got {len(value)}")
        ok = False
    cards: list[Card] = []
    for index, item in enumerate(value):
        card = _card(item, _ptr(pointer, index), p)
        if card is None:
            ok = False
        else:
            cards.append(card)
    if not ok:
        return None
    return tuple(cards), tuple(value)


def _quick_cards(names: list[Any]) -> tuple[Card, ...] | None:
    """The cards of a list of card names, or None if any item is not one (then the
    caller checks each item and reports it)."""
    try:
        return tuple(map(_CARD_OF.__getitem__, names))
    except (KeyError, TypeError):  # not a card name, or not even hashable
        return None


def _meta(value: Any, pointer: str, p: _Problems) -> None:
    if not isinstance(value, dict):
        p.add(pointer, f"an object (free-form, never interpreted), got {_got(value)}")


def _need(value: _T | None) -> _T:
    if value is None:  # only reachable if a check forgot to report its problem
        raise LogFormatError([Problem("", "a valid paohuzi-log/1 document")])
    return value


# --- sections -------------------------------------------------------------------------------


def _game_id(doc: dict[str, Any], p: _Problems) -> str | None:
    value = _take(doc, "game_id", "", p, "a game id string")
    if value is _MISSING:
        return None
    if isinstance(value, str) and 1 <= len(value) <= MAX_ID_LENGTH and value.isprintable():
        return value
    p.add(
        "/game_id",
        f"a game id of 1 to {MAX_ID_LENGTH} printable characters (no control characters), "
        f"got {_got(value)}",
    )
    return None


def _profile(doc: dict[str, Any], p: _Problems) -> tuple[str | None, Profile | None]:
    ruleset = _take(doc, "ruleset", "", p, "a ruleset name")
    known = ", ".join(repr(name) for name in PROFILES)
    if ruleset is not _MISSING and not (isinstance(ruleset, str) and ruleset in PROFILES):
        p.add("/ruleset", f"a known ruleset (one of {known}), got {_got(ruleset)}")
        ruleset = _MISSING
    rules: dict[str, Any] | None = None
    ok = True
    if "rules" in doc:
        value = doc["rules"]
        if not isinstance(value, dict):
            p.add("/rules", f"an object of profile overrides, got {_got(value)}")
            ok = False
        else:
            rules = value
            # Types are the same in every profile, so overrides are checked even when
            # the ruleset itself is wrong.
            base = ruleset if isinstance(ruleset, str) else next(iter(PROFILES))
            for key, item in value.items():
                pointer = _ptr("/rules", key)
                if key not in OVERRIDABLE:
                    p.add(pointer, "no such field; expected one of " + ", ".join(OVERRIDABLE))
                    ok = False
                    continue
                try:
                    resolve(base, {key: item})
                except ProfileError as exc:
                    p.add(pointer, f"{exc.expected}, got {_got(item)}")
                    ok = False
    if not isinstance(ruleset, str):
        return None, None
    if not ok:
        return ruleset, None
    try:
        return ruleset, resolve(ruleset, rules)
    except KeyError:
        p.add("/ruleset", f"a known ruleset (one of {known}), got {_got(ruleset)}")
    except ProfileError as exc:
        p.add(_ptr("/rules", exc.key), exc.expected)
    return ruleset, None


def _match(doc: dict[str, Any], p: _Problems) -> Match | None:
    if "match" not in doc:
        return None
    obj = _fields(doc["match"], "/match", MATCH_FIELDS, p,
                  'an object {"id", "hand", "drawn_before"}')
    if obj is None:
        return None
    ident = _text(
        _take(obj, "id", "/match", p, "a match id"),
        "/match/id",
        p,
        "a non-empty match id string",
        None,
    )
    hand = _int(_take(obj, "hand", "/match", p, "the hand number"), "/match/hand", p, 1, None)
    drawn_before: int | None = 0
    if "drawn_before" in obj:  # changde 黄番 (RULES §11)
        drawn_before = _int(obj["drawn_before"], "/match/drawn_before", p, 0, None)
    if ident is None or hand is None or drawn_before is None:
        return None
    return Match(ident, hand, drawn_before)


def _started_at(doc: dict[str, Any], p: _Problems) -> str | None:
    if "started_at" not in doc:
        return None
    value = doc["started_at"]
    what = 'an ISO 8601 date and time with a time zone (e.g. "2026-11-29T12:00:00Z")'
    if isinstance(value, str):
        text = value[:-1] + "+00:00" if value.endswith("Z") else value
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            pass
        else:
            if moment.tzinfo is not None:
                return value
            what += ", not a local time"
    p.add("/started_at", f"{what}, got {_got(value)}")
    return None


def _quick_players(value: Any) -> tuple[str, str, str] | None:
    """The player ids by seat of well-formed players, or None (then ``_players`` checks)."""
    if type(value) is not list or len(value) != 3:
        return None
    by_seat: list[str | None] = [None, None, None]
    for item in value:
        if type(item) is not dict or len(item) != 2:
            return None
        seat = item.get("seat")
        ident = item.get("id")
        if type(seat) is not int or not 0 <= seat <= 2 or by_seat[seat] is not None:
            return None
        if type(ident) is not str or not 0 < len(ident) <= MAX_ID_LENGTH:
            return None
        by_seat[seat] = ident
    first, second, third = by_seat
    assert first is not None and second is not None and third is not None
    return first, second, third


def _players(doc: dict[str, Any], p: _Problems) -> tuple[str, str, str] | None:
    value = _take(doc, "players", "", p, "a list of 3 players")
    if value is _MISSING:
        return None
    quick = _quick_players(value)
    if quick is not None:
        return quick
    if not isinstance(value, list):
        p.add("/players", f'a list of 3 players {{"seat", "id"}}, got {_got(value)}')
        return None
    ok = len(value) == 3
    if not ok:
        p.add("/players", f"exactly 3 players, got {len(value)}")
    by_seat: dict[int, str] = {}
    taken: dict[int, int] = {}
    for index, item in enumerate(value):
        pointer = _ptr("/players", index)
        obj = _fields(item, pointer, PLAYER_FIELDS, p, 'a player {"seat", "id"}')
        if obj is None:
            ok = False
            continue
        seat = _seat(_take(obj, "seat", pointer, p, _SEAT), pointer + "/seat", p)
        ident = _text(
            _take(obj, "id", pointer, p, "a player id"),
            pointer + "/id",
            p,
            f"a player id of 1 to {MAX_ID_LENGTH} characters",
            MAX_ID_LENGTH,
        )
        if seat is not None and seat in taken:
            p.add(
                pointer + "/seat",
                f"each seat 0, 1, 2 once, got {seat} again (also /players/{taken[seat]}/seat)",
            )
            ok = False
            continue
        if seat is None or ident is None:
            ok = False
            continue
        taken[seat] = index
        by_seat[seat] = ident
    if not ok or len(by_seat) != 3:
        return None
    return by_seat[0], by_seat[1], by_seat[2]


def _commitment(deal: dict[str, Any], p: _Problems) -> Commitment | None:
    obj = _fields(
        deal["commitment"],
        "/deal/commitment",
        COMMITMENT_FIELDS,
        p,
        'an object {"salt", "sha256"}',
    )
    if obj is None:
        return None
    salt = _take(obj, "salt", "/deal/commitment", p, "the salt string")
    digest = _take(obj, "sha256", "/deal/commitment", p, "64 lowercase hex digits")
    if salt is not _MISSING and not isinstance(salt, str):
        p.add("/deal/commitment/salt", f"a string, got {_got(salt)}")
    if digest is not _MISSING and not (isinstance(digest, str) and _HEX64.fullmatch(digest)):
        p.add("/deal/commitment/sha256", f"64 lowercase hex digits, got {_got(digest)}")
    if isinstance(salt, str) and isinstance(digest, str) and _HEX64.fullmatch(digest):
        return Commitment(salt, digest)
    return None


def _quick_names(value: Any, most: int) -> tuple[tuple[Card, ...], tuple[str, ...]] | None:
    if type(value) is not list or len(value) > most:
        return None
    cards = _quick_cards(value)
    return None if cards is None else (cards, tuple(value))


def _quick_deal(value: Any) -> Deal | None:
    """The deal of a well-formed ``deal`` object, or None (then ``_deal`` checks it)."""
    if type(value) is not dict or not _DEAL_KEYS.issuperset(value):
        return None
    hands = value.get("hands")
    if type(hands) is not list or len(hands) != 3:
        return None
    first, second, third = (_quick_names(hand, MAX_CARD_LIST) for hand in hands)
    stock = _quick_names(value.get("stock"), MAX_CARD_LIST)
    shown = value.get("shown")
    card = _CARD_OF.get(shown) if type(shown) is str else None
    if first is None or second is None or third is None or stock is None or card is None:
        return None
    commitment = None
    if "commitment" in value:
        found = value["commitment"]
        if type(found) is not dict or len(found) != 2:
            return None
        salt = found.get("salt")
        digest = found.get("sha256")
        if type(salt) is not str or type(digest) is not str or not _HEX64.fullmatch(digest):
            return None
        commitment = Commitment(salt, digest)
    return Deal(
        hands=(first[0], second[0], third[0]),
        shown=card,
        stock=stock[0],
        hand_names=(first[1], second[1], third[1]),
        stock_names=stock[1],
        commitment=commitment,
    )


def _deal(doc: dict[str, Any], p: _Problems) -> Deal | None:
    value = _take(doc, "deal", "", p, 'the deal {"hands", "shown", "stock"}')
    if value is _MISSING:
        return None
    quick = _quick_deal(value)
    if quick is not None:
        return quick
    deal = _fields(value, "/deal", DEAL_FIELDS, p, 'the deal {"hands", "shown", "stock"}')
    if deal is None:
        return None
    ok = True
    hands: list[tuple[tuple[Card, ...], tuple[str, ...]]] = []
    value = _take(deal, "hands", "/deal", p, "a list of 3 hands")
    if value is not _MISSING:
        if not isinstance(value, list):
            p.add("/deal/hands", f"a list of 3 hands (lists of card names), got {_got(value)}")
            ok = False
        else:
            if len(value) != 3:
                p.add("/deal/hands", f"3 hands (one list of card names per seat), got {len(value)}")
                ok = False
            for index, item in enumerate(value):
                hand = _cards(
                    item, _ptr("/deal/hands", index), p, "a list of card names", MAX_CARD_LIST
                )
                if hand is None:
                    ok = False
                else:
                    hands.append(hand)
    else:
        ok = False
    shown = _card(_take(deal, "shown", "/deal", p, _CARD), "/deal/shown", p)
    stock = _cards(
        _take(deal, "stock", "/deal", p, "a list of card names"),
        "/deal/stock",
        p,
        "a list of card names",
        MAX_CARD_LIST,
    )
    commitment = _commitment(deal, p) if "commitment" in deal else None
    if "commitment" in deal and commitment is None:
        ok = False
    if not ok or shown is None or stock is None or len(hands) != 3:
        return None
    return Deal(
        hands=(hands[0][0], hands[1][0], hands[2][0]),
        shown=shown,
        stock=stock[0],
        hand_names=tuple(names for _, names in hands),
        stock_names=stock[1],
        commitment=commitment,
    )


def _groups(value: Any, pointer: str, p: _Problems) -> tuple[tuple[Card, ...], ...] | None:
    if value is _MISSING:
        return None
    what = "a non-empty list of groups of 3 card names"
    if not isinstance(value, list) or not value:
        got = "an empty list" if isinstance(value, list) else _got(value)
        p.add(pointer, f"{what}, got {got}")
        return None
    groups: list[tuple[Card, ...]] = []
    ok = True
    for index, item in enumerate(value):
        at = _ptr(pointer, index)
        if not isinstance(item, list) or len(item) != 3:
            got = f"a list of {len(item)}" if isinstance(item, list) else _got(item)
            p.add(at, f"a group of exactly 3 card names, got {got}")
            ok = False
            continue
        cards = _cards(item, at, p, "a group of 3 card names", 3)
        if cards is None:
            ok = False
        else:
            groups.append(cards[0])
    return tuple(groups) if ok else None


def _quick_event(value: Any) -> tuple[Event, str] | None:
    """A well-formed event at full speed, with its canonical JSON text; or None: then
    ``_event`` checks it and says what is wrong (it builds the same ``Event`` from a
    well-formed one)."""
    if type(value) is not dict:
        return None
    raw_type = value.get("type")
    kind = _EVENT_TYPES.get(raw_type) if type(raw_type) is str else None
    if kind is None or not _EVENT_KEYS[kind].issuperset(value):
        return None
    t = value.get("t", _MISSING)
    if t is not _MISSING and (type(t) is not int or t < 0):
        return None
    plain = "meta" not in value
    if not plain and type(value["meta"]) is not dict:
        return None
    if kind is EV_END:
        reason = value.get("reason")
        found = _END_REASONS.get(reason) if type(reason) is str else None
        if found is None:
            return None
        return _new_event(kind, None, None, (), found, None if t is _MISSING else t), _json(value)
    seat = value.get("seat")
    if type(seat) is not int or not 0 <= seat <= 2 or "card" not in value:
        return None
    name = value["card"]
    card = _CARD_OF.get(name) if type(name) is str else None
    if card is None and not (name is None and kind is EV_HU):
        return None
    groups: tuple[tuple[Card, ...], ...] = ()
    groups_text = ""
    if kind is EV_CHI:
        found_groups = value.get("groups")
        if type(found_groups) is not list or not found_groups:
            return None
        made = []
        for group in found_groups:
            cards = _quick_cards(group) if type(group) is list and len(group) == 3 else None
            if cards is None:
                return None
            made.append(cards)
        groups = tuple(made)
        groups_text = ",".join(['["' + '","'.join(group) + '"]' for group in found_groups])
    event = _new_event(kind, seat, card, groups, None, None if t is _MISSING else t)
    if not plain or card is None:
        return event, _json(value)
    # The canonical text, written out: every value is checked above (card and type names
    # need no escapes; seat and t are ints, not bools).
    text = f'{{"card":"{name}",'
    if groups:
        text += f'"groups":[{groups_text}],'
    text += f'"seat":{seat},' if t is _MISSING else f'"seat":{seat},"t":{t},'
    return event, text + f'"type":"{raw_type}"}}'


def _event(value: Any, pointer: str, p: _Problems) -> Event | None:
    if not isinstance(value, dict):
        p.add(pointer, f'an event object {{"type", ...}}, got {_got(value)}')
        return None
    kind: EventType | None = None
    raw_type = _take(value, "type", pointer, p, "an event type")
    if raw_type is not _MISSING:
        kind = _EVENT_TYPES.get(raw_type) if isinstance(raw_type, str) else None
        if kind is None:
            p.add(
                pointer + "/type",
                f"an event type (one of {_EVENT_TYPE_LIST}), got {_got(raw_type)}",
            )
    if kind is None:
        # Unknown type: still check the fields any event may have.
        _fields(value, pointer, _EVENT_ANY, p, "an event")
        if "seat" in value:
            _seat(value["seat"], pointer + "/seat", p)
        if "card" in value and value["card"] is not None:
            _card(value["card"], pointer + "/card", p)
        if "groups" in value:
            _groups(value["groups"], pointer + "/groups", p)
        if "reason" in value:
            _reason(value["reason"], pointer + "/reason", p)
        _event_common(value, pointer, p)
        return None
    required = EVENT_REQUIRED[kind]
    allowed = _EVENT_ALLOWED[kind]
    for key in value:
        if key not in allowed:
            p.add(
                _ptr(pointer, key),
                f"no such field in a {str(kind)!r} event; expected one of " + ", ".join(allowed),
            )
    ok = True
    seat: int | None = None
    card: Card | None = None
    groups: tuple[tuple[Card, ...], ...] = ()
    reason: EndReason | None = None
    if "seat" in required:
        seat = _seat(_take(value, "seat", pointer, p, _SEAT), pointer + "/seat", p)
        ok = ok and seat is not None
    if "card" in required:
        raw_card = _take(value, "card", pointer, p, _CARD)
        if kind is EventType.HU and raw_card is None:
            pass  # a mandatory 天胡
        elif kind is EventType.HU and raw_card is not _MISSING and not is_card_name(raw_card):
            p.add(pointer + "/card", f"{_CARD} or null, got {_got(raw_card)}")
            ok = False
        else:
            card = _card(raw_card, pointer + "/card", p)
            ok = ok and card is not None
    if "groups" in required:
        found = _groups(
            _take(value, "groups", pointer, p, "a list of groups"), pointer + "/groups", p
        )
        if found is None:
            ok = False
        else:
            groups = found
    if "reason" in required:
        reason = _reason(
            _take(value, "reason", pointer, p, "an end reason"), pointer + "/reason", p
        )
        ok = ok and reason is not None
    t, common_ok = _event_common(value, pointer, p)
    if not ok or not common_ok:
        return None
    return Event(type=kind, seat=seat, card=card, groups=groups, reason=reason, t=t)


def _reason(value: Any, pointer: str, p: _Problems) -> EndReason | None:
    if value is _MISSING:
        return None
    reason = _END_REASONS.get(value) if isinstance(value, str) else None
    if reason is not None:
        return reason
    choices = ", ".join(repr(r) for r in _END_REASONS)
    p.add(pointer, f"an end reason (one of {choices}), got {_got(value)}")
    return None


def _event_common(value: dict[str, Any], pointer: str, p: _Problems) -> tuple[int | None, bool]:
    """Check ``t`` and ``meta``; returns ``t`` and whether both are fine."""
    ok = True
    t: int | None = None
    if "t" in value:
        t = _int(value["t"], pointer + "/t", p, 0, None)
        ok = t is not None
    if "meta" in value and not isinstance(value["meta"], dict):
        _meta(value["meta"], pointer + "/meta", p)
        ok = False
    return t, ok


def _events(doc: dict[str, Any], p: _Problems) -> tuple[tuple[Event, ...], list[str]] | None:
    """The events, and the canonical JSON text of each."""
    value = _take(doc, "events", "", p, "a list of events (may be empty)")
    if value is _MISSING:
        return None
    if not isinstance(value, list):
        p.add("/events", f"a list of events (may be empty), got {_got(value)}")
        return None
    batch = _usual_events(value)
    events, texts, others = batch if batch is not None else ([], [], range(len(value)))
    ok = True
    for index in others:  # in order, each where it stands in the list
        item = value[index]
        quick = _quick_event(item)
        if quick is not None:
            events.insert(index, quick[0])
            texts.insert(index, quick[1])
            continue
        event = _event(item, _ptr("/events", index), p)
        if event is None:
            ok = False
        elif ok:
            events.insert(index, event)
            texts.insert(index, _json(item))
    return (tuple(events), texts) if ok else None


def _usual_events(
    items: list[Any],
) -> tuple[list[Event], list[str], list[int] | range] | None:
    """The usual events of the list (``_USUAL_KEYS``) and their canonical texts, column
    by column at C speed, with the indexes of the other items; or None when an item is
    not an object or a usual one has a wrong value (then each item is checked alone)."""
    try:
        # four members, which then must be the usual four
        usual = list(map((4).__eq__, map(len, items)))
        rows = list(map(_USUAL_COLUMNS, compress(items, usual)))
        if not rows:
            return [], [], range(len(items))
        names, seats, times, types = zip(*rows, strict=True)
        cards = list(map(_CARD_OF.__getitem__, names))
        kinds = list(map(_USUAL_KINDS.__getitem__, types))
    except (KeyError, TypeError):  # not an object; other keys; not a card or usual type
        return None
    if (
        set(map(type, seats)) != _INT or set(map(type, times)) != _INT
        or min(seats) < 0 or max(seats) > 2 or min(times) < 0
    ):
        return None
    events = _new_events(kinds, seats, cards, repeat(()), repeat(None), times)
    texts = list(map(_USUAL_TEXT.__mod__, rows))
    others = list(compress(range(len(items)), map(operator.not_, usual)))
    return events, texts, others


def _quick_result(obj: Any) -> dict[str, Any] | None:
    """A well-formed result as given (lists copied), or None (then ``_result`` checks)."""
    if type(obj) is not dict or not _RESULT_KEYS.issuperset(obj):
        return None
    outcome = obj.get("outcome")
    winner = obj.get("winner", _MISSING)
    scores = obj.get("scores")
    if type(outcome) is not str or outcome not in _OUTCOMES or winner is _MISSING:
        return None
    if winner is not None and (type(winner) is not int or not 0 <= winner <= 2):
        return None
    if type(scores) is not list or len(scores) != 3 or not all(type(s) is int for s in scores):
        return None
    for key in RESULT_INTS:
        if key in obj and type(obj[key]) is not int:
            return None
    if "fans" in obj:
        fans = obj["fans"]
        if type(fans) is not list or not all(type(f) is str and f in FANS for f in fans):
            return None
        if len(set(fans)) != len(fans):
            return None
    return {key: list(item) if type(item) is list else item for key, item in obj.items()}


def _result(doc: dict[str, Any], p: _Problems) -> tuple[bool, dict[str, Any] | None]:
    """(ok, the result as given); ``(True, None)`` when there is none."""
    if "result" not in doc:
        return True, None
    quick = _quick_result(doc["result"])
    if quick is not None:
        return True, quick
    obj = _fields(doc["result"], "/result", RESULT_FIELDS, p, 'a result object {"outcome", ...}')
    if obj is None:
        return False, None
    start = len(p.items)
    outcome = _take(obj, "outcome", "/result", p, "the outcome")
    if outcome is not _MISSING and not (isinstance(outcome, str) and outcome in _OUTCOMES):
        choices = ", ".join(repr(o.value) for o in Outcome)
        p.add("/result/outcome", f"an outcome (one of {choices}), got {_got(outcome)}")
    winner = _take(obj, "winner", "/result", p, f"the winner, {_SEAT} or null")
    if winner is not _MISSING and winner is not None:
        if not (_is_int(winner) and 0 <= winner <= 2):
            p.add("/result/winner", f"{_SEAT} or null, got {_got(winner)}")
    scores = _take(obj, "scores", "/result", p, "a list of 3 integer scores, by seat")
    if scores is not _MISSING:
        if not isinstance(scores, list) or len(scores) != 3:
            got = f"a list of {len(scores)}" if isinstance(scores, list) else _got(scores)
            p.add("/result/scores", f"a list of 3 integer scores, by seat, got {got}")
        else:
            for index, item in enumerate(scores):
                _int(item, _ptr("/result/scores", index), p, None, None)
    for key in RESULT_INTS:
        if key in obj:
            _int(obj[key], _ptr("/result", key), p, None, None)
    if "fans" in obj:
        fans = obj["fans"]
        if not isinstance(fans, list):
            p.add("/result/fans", f"a list of fan names (may be empty), got {_got(fans)}")
        else:
            seen: set[str] = set()
            for index, item in enumerate(fans):
                at = _ptr("/result/fans", index)
                if not (isinstance(item, str) and item in FANS):
                    p.add(at, f"a fan name (one of {', '.join(FANS)}), got {_got(item)}")
                elif item in seen:
                    p.add(at, f"each fan once, got {item!r} again")
                else:
                    seen.add(item)
    if len(p.items) > start or any(key not in RESULT_FIELDS for key in obj):
        return False, None
    return True, {key: list(item) if isinstance(item, list) else item for key, item in obj.items()}


def _build(doc: dict[str, Any]) -> Log:
    p = _Problems()
    _fields(doc, "", TOP_FIELDS, p, "a log object")
    fmt = _take(doc, "format", "", p, f'the format "{FORMAT}"')
    if fmt is not _MISSING and fmt != FORMAT:
        p.add("/format", f'"{FORMAT}", got {_got(fmt)}')
    game_id = _game_id(doc, p)
    ruleset, profile = _profile(doc, p)
    match = _match(doc, p)
    started_at = _started_at(doc, p)
    players = _players(doc, p)
    dealer = _seat(_take(doc, "dealer", "", p, "the dealer's seat"), "/dealer", p)
    deal = _deal(doc, p)
    events = _events(doc, p)
    _, result = _result(doc, p)
    if "meta" in doc:
        _meta(doc["meta"], "/meta", p)
    p.raise_if_any()
    made, event_texts = _need(events)
    return Log(
        game_id=_need(game_id),
        ruleset=_need(ruleset),
        profile=_need(profile),
        players=_need(players),
        dealer=_need(dealer),
        deal=_need(deal),
        events=made,
        result=result,
        match=match,
        started_at=started_at,
        raw=doc,
        sha256=hashlib.sha256(_canonical_valid(doc, event_texts)).hexdigest(),
    )


def parse_log(raw: object, max_depth: int = DEFAULT_MAX_DEPTH) -> Log:
    """Validate a whole ``paohuzi-log/1`` document and build the ``Log``.

    Bytes and text go through ``loads_strict`` (anything else but a dict is refused);
    a dict (already-decoded JSON) is checked for the same JSON rules and then validated
    as is (``Log.raw`` holds a copy).
    Raises ``LogFormatError`` listing every problem found (up to ``MAX_PROBLEMS``).
    """
    if isinstance(raw, dict):
        p = _Problems()
        try:
            _check_json(raw, [], max_depth, p)
        except RecursionError:
            p.add("", f"nesting at most {max_depth} arrays and objects deep")
        p.raise_if_any()
        doc: Any = copy.deepcopy(raw)
    else:
        quick = _quick_log(raw, max_depth)
        if quick is not None:
            return quick
        doc = loads_strict(raw, max_depth)
    if not isinstance(doc, dict):
        raise LogFormatError([Problem("", f"a JSON object (the log), got {_got(doc)}")])
    return _build(doc)


def _quick_log(raw: object, max_depth: int) -> Log | None:
    """The log of a valid document, without looking for repeated keys object by object
    (``loads_unchecked_keys``): the objects ``_build`` accepted hold as many keys as the
    text writes members, or else None; None for any other fault too. The strict path then
    gives the answer, problems and all. A document refused for its shape alone (its
    objects, all counted, hold every member) is refused here with the same problems."""
    loaded = loads_unchecked_keys(raw, max_depth)
    if loaded is None or type(loaded[0]) is not dict:
        return None
    doc, members = loaded
    try:
        log = _build(doc)
    except LogFormatError:
        if _count_members(doc) == members:  # no key repeated: the strict path would
            raise  # decode the same document and find the same problems
        return None
    except Exception:  # noqa: BLE001 - whatever it is, the strict path says it in full
        return None
    return log if _members(doc) == members else None


def _members(doc: dict[str, Any]) -> int:
    """The keys of the objects of a document ``_build`` accepted: its shape says which
    values are objects, and only ``meta`` can nest more (``rules``, ``match`` and
    ``result`` hold no objects). Any object not counted makes the sum too small, never
    too large: a repeated key can not hide."""
    count = len(doc) + sum(map(len, doc["players"]))
    deal = doc["deal"]
    count += len(deal) + len(deal.get("commitment", ()))
    for key in ("rules", "match", "result"):
        if key in doc:
            count += len(doc[key])
    if "meta" in doc:
        count += _count_members(doc["meta"])
    events = doc["events"]
    count += sum(map(len, events))
    for event in events:
        if "meta" in event:
            count += _count_members(event["meta"])
    return count
