"""Strict JSON (RFC 8259 with nothing left loose) and the problem reports of the parser.

``loads_strict`` turns bytes or text into JSON values, refusing everything RFC 8259
leaves loose: invalid or non-UTF-8 bytes, ``NaN``/``Infinity``, lone surrogates,
duplicate object keys and deep nesting. Every refusal is a ``LogFormatError`` listing
each ``Problem`` found (up to ``MAX_PROBLEMS``): an RFC 6901 JSON pointer to the
offending value (``""`` for the whole document) and what was expected there. The
shape of a ``paohuzi-log/1`` document is checked on top of this by ``logformat``.
Standard library only.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "MAX_PROBLEMS",
    "LogFormatError",
    "Problem",
    "Problems",
    "check_json",
    "count_members",
    "describe",
    "escape_token",
    "loads_strict",
    "loads_unchecked_keys",
    "pointer_join",
    "scan_structure",
]

#: at most this many problems are reported for one document.
MAX_PROBLEMS: Final = 50
#: the default bound on nested arrays and objects (the top-level object is depth 1).
DEFAULT_MAX_DEPTH: Final = 64
_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
# A surrogate written raw, or escaped as \\uD800..\\uDFFF.
_MAYBE_SURROGATE: Final = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
# A JSON string (its closing quote optional, so a match never backtracks), or one
# bracket; used to measure nesting before parsing.
_DEPTH_TOKEN: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
# The structure scan of a valid JSON text keeps quotes, colons and brackets (objects'
# as arrays') and drops every other byte: no byte of a multi-byte UTF-8 character is ASCII.
_NOT_STRUCTURE: Final = bytes(range(256)).translate(None, b'":[]{}')
_AS_ARRAYS: Final = bytes.maketrans(b"{}", b"[]")
_STRING_MARKS: Final = re.compile(rb'"[^"]*"')
_UTF8_BOM: Final = b"\xef\xbb\xbf"
_WIDE_BOMS: Final = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a document: where (a JSON pointer) and what was expected."""

    pointer: str
    expected: str

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "expected": self.expected}


class LogFormatError(ValueError):
    """A document that is not a valid ``paohuzi-log/1`` log; ``problems`` says why."""

    problems: list[Problem]

    def __init__(self, problems: Iterable[Problem]) -> None:
        items = list(problems)[:MAX_PROBLEMS]
        if not items:
            items = [Problem("", "a valid paohuzi-log/1 document")]
        super().__init__(items)
        self.problems = items

    def __str__(self) -> str:
        return "\n".join(f"{p.pointer}: {p.expected}" for p in self.problems)

    def to_json(self) -> list[dict[str, str]]:
        return [p.to_json() for p in self.problems]


class Problems:
    """Collects problems, keeping the first ``MAX_PROBLEMS``."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, pointer: str, expected: str) -> None:
        if len(self.items) < MAX_PROBLEMS:
            self.items.append(Problem(pointer, expected))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise LogFormatError(self.items)


# --- JSON pointers and descriptions ------------------------------------------------------


def escape_token(token: str) -> str:
    """One RFC 6901 reference token; a lone surrogate is written as text (``\\ud800``)."""
    if "~" in token or "/" in token:
        token = token.replace("~", "~0").replace("/", "~1")
    if not _SURROGATE.search(token):
        return token
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", token)


def pointer_join(base: str, key: str | int) -> str:
    return f"{base}/{escape_token(str(key))}"


def describe(value: object) -> str:
    """A short description of a JSON value, for ``expected`` messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:40] + "..."
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - text.rfind("\n", 0, pos)


# --- strict JSON ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Refused:
    """Stands in for a value the decoder met but JSON here does not allow."""

    expected: str


class _DupDict(dict[str, Any]):
    """An object that had repeated keys; ``dups`` lists them (the walk reports them)."""

    __slots__ = ("dups",)

    def __init__(self, pairs: list[tuple[str, Any]], dups: list[str]) -> None:
        super().__init__(pairs)
        self.dups = dups


class _Scan:
    """Decoder hooks for one ``loads_strict`` call; ``flagged`` when one stood in."""

    __slots__ = ("flagged",)

    def __init__(self) -> None:
        self.flagged = False

    def object_pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) == len(pairs):
            return result
        self.flagged = True
        seen: set[str] = set()
        dups: list[str] = []
        for key, _ in pairs:
            if key in seen and key not in dups:
                dups.append(key)
            seen.add(key)
        return _DupDict(pairs, dups)

    def constant(self, name: str) -> _Refused:
        self.flagged = True
        return _Refused(f"a finite number (JSON has no {name}), got {name}")

    def number(self, text: str) -> float | _Refused:
        value = float(text)
        if math.isfinite(value):
            return value
        self.flagged = True
        return _Refused(f"a finite number, got {text[:40]} (out of range)")


def _pointer(path: list[str | int]) -> str:
    return "".join("/" + escape_token(str(token)) for token in path)


def check_json(value: Any, path: list[str | int], max_depth: int, p: Problems) -> None:
    """Report values a JSON document may not hold (see ``loads_strict``).

    ``path`` leads to ``value``; pointers are only built for problems.
    """
    if isinstance(value, dict):
        if len(path) >= max_depth:
            p.add(_pointer(path), f"nesting at most {max_depth} arrays and objects deep")
            return
        if isinstance(value, _DupDict):
            for key in value.dups:
                p.add(_pointer([*path, key]),
                      f"each key once in an object, got {describe(key)} twice")
        for key, item in value.items():
            if not isinstance(key, str):
                p.add(_pointer(path), f"object keys that are strings, got {describe(key)}")
                continue
            path.append(key)
            if _SURROGATE.search(key):
                p.add(_pointer(path), "a key without lone surrogates (\\ud800-\\udfff)")
            if not isinstance(item, str | int) or isinstance(item, str) and _SURROGATE.search(item):
                check_json(item, path, max_depth, p)
            path.pop()
    elif isinstance(value, list):
        if len(path) >= max_depth:
            p.add(_pointer(path), f"nesting at most {max_depth} arrays and objects deep")
            return
        path.append(0)
        for index, item in enumerate(value):
            if not isinstance(item, str | int) or isinstance(item, str) and _SURROGATE.search(item):
                path[-1] = index
                check_json(item, path, max_depth, p)
        path.pop()
    elif isinstance(value, str):
        if _SURROGATE.search(value):
            p.add(_pointer(path), "a string without lone surrogates (\\ud800-\\udfff)")
    elif isinstance(value, _Refused):
        p.add(_pointer(path), value.expected)
    elif isinstance(value, float):
        if not math.isfinite(value):
            p.add(_pointer(path), f"a finite number, got {value!r}")
    elif value is not None and not isinstance(value, int):
        p.add(_pointer(path), f"a JSON value, got {describe(value)}")


def _decode(raw: bytes) -> tuple[str, bytes]:
    """The text of UTF-8 bytes, and the bytes without a leading BOM."""
    for bom, name in _WIDE_BOMS:
        if raw.startswith(bom):
            raise LogFormatError([Problem("", f"UTF-8 JSON text, got {name} (byte order mark)")])
    if raw.startswith(_UTF8_BOM):  # RFC 8259 8.1: a parser may ignore it
        raw = raw[len(_UTF8_BOM) :]
    if b"\x00" in raw:
        raise LogFormatError(
            [Problem("", "UTF-8 JSON text, got NUL bytes (UTF-16 or UTF-32 without a BOM?)")]
        )
    try:
        return raw.decode("utf-8"), raw
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise LogFormatError(
            [
                Problem(
                    "",
                    f"valid UTF-8, got an invalid byte sequence at byte {exc.start} "
                    f"(line {line} column {column})",
                )
            ]
        ) from None


def _too_deep(text: str, max_depth: int) -> Problem | None:
    depth = 0
    for match in _DEPTH_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                line, column = _line_col(text, match.start())
                return Problem(
                    "",
                    f"nesting at most {max_depth} arrays and objects deep, "
                    f"got deeper at line {line} column {column}",
                )
        elif token in "]}":
            depth -= 1
    return None


def scan_structure(data: bytes, max_depth: int) -> tuple[int, bool]:
    """How many object members a valid JSON text (as UTF-8) writes, and whether its
    arrays and objects nest more than ``max_depth`` deep (the top level is depth 1).

    C-speed passes over bytes, no Python per value: escaped backslashes and quotes
    dropped, everything but quotes, colons and brackets dropped, strings dropped (two
    adjacent quotes may close one string and open the next: then only dropped bytes stood
    between them, and the two strings are dropped as one), colons counted, then the
    innermost brackets removed once per level.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = data.translate(_AS_ARRAYS, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in marks:
        marks = _STRING_MARKS.sub(b"", marks)
    members = marks.count(b":")
    if members:
        marks = marks.translate(None, b":")
    for _ in range(max_depth):
        if not marks:
            return members, False
        marks = marks.replace(b"[]", b"")
    return members, bool(marks)


def _text_of(raw: object) -> tuple[str, bytes, bool]:
    """The JSON text, its UTF-8 bytes, and whether it came as bytes (anything but bytes
    or text is refused: the entry points take ``object``, so that a compiled build
    refuses it as the sources do, with a ``LogFormatError``)."""
    if isinstance(raw, str):
        return raw, raw.encode("utf-8", "surrogatepass"), False
    if isinstance(raw, bytes | bytearray | memoryview):
        text, data = _decode(bytes(raw))
        return text, data, True
    raise LogFormatError([Problem("", f"JSON text as bytes or str, got {describe(raw)}")])


def _may_hold_surrogates(text: str, from_utf8: bool) -> bool:
    """Whether a lone surrogate may be in the text (valid UTF-8 holds no raw surrogate,
    so decoded bytes need the search only when they hold an escape)."""
    if from_utf8 and ("\\" not in text or "\\u" not in text):  # a one-character search is fast
        return False
    return bool(_MAYBE_SURROGATE.search(text))


def count_members(value: Any) -> int:
    """How many keys the objects in ``value`` hold in all."""
    if isinstance(value, dict):
        return len(value) + sum(count_members(item) for item in value.values())
    if isinstance(value, list):
        return sum(count_members(item) for item in value)
    return 0


def loads_unchecked_keys(
    raw: object, max_depth: int = DEFAULT_MAX_DEPTH
) -> tuple[Any, int] | None:
    """The fast half of ``loads_strict``, for a caller that counts keys: the value
    ``loads_strict`` gives, and the number of object members the text writes; or None
    when ``loads_strict`` refuses the text, or might (then call it for the answer).

    Repeated keys are not looked for: the decoded objects keep the last value of a key.
    The objects of the value hold as many keys in all as the text writes members exactly
    when no key is repeated; only then is the value ``loads_strict``'s.
    """
    scan = _Scan()
    try:
        text, data, from_utf8 = _text_of(raw)
        value = json.loads(text, parse_constant=scan.constant, parse_float=scan.number)
    except (LogFormatError, ValueError, RecursionError):
        return None
    members, deep = scan_structure(data, max_depth)
    if deep or scan.flagged or _may_hold_surrogates(text, from_utf8):
        return None
    return value, members


def loads_strict(raw: object, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """Parse one JSON text strictly; raises ``LogFormatError``.

    Bytes must be UTF-8 (a leading UTF-8 BOM is ignored; UTF-16/32 and invalid bytes
    are refused). Refused too: ``NaN``, ``Infinity``, ``-Infinity`` and numbers out of
    float range, lone surrogates (raw or escaped) in strings and keys, duplicate keys,
    and arrays/objects nested more than ``max_depth`` deep. A syntax error reports its
    line and column.

    The text is decoded first and its nesting measured after, by bytes-level passes
    (``scan_structure``); a document that is too deep (or does not decode) is then measured
    token by token, so that the report (with its line and column) is the one a check
    before decoding gives.
    """
    text, data, from_utf8 = _text_of(raw)
    scan = _Scan()
    try:
        value = json.loads(
            text,
            object_pairs_hook=scan.object_pairs,
            parse_constant=scan.constant,
            parse_float=scan.number,
        )
    except json.JSONDecodeError as exc:
        _raise_if_too_deep(text, max_depth)
        raise LogFormatError(
            [Problem("", f"valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")]
        ) from None
    except RecursionError:
        _raise_if_too_deep(text, max_depth)
        raise LogFormatError(
            [Problem("", f"nesting at most {max_depth} arrays and objects deep")]
        ) from None
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        _raise_if_too_deep(text, max_depth)
        raise LogFormatError(
            [Problem("", f"integers of at most {sys.get_int_max_str_digits()} digits")]
        ) from None
    if scan_structure(data, max_depth)[1]:
        _raise_if_too_deep(text, max_depth)
    # Only a stand-in value or an escaped surrogate needs the walk.
    if scan.flagged or _may_hold_surrogates(text, from_utf8):
        p = Problems()
        check_json(value, [], max_depth, p)
        p.raise_if_any()
    return value


def _raise_if_too_deep(text: str, max_depth: int) -> None:
    deep = _too_deep(text, max_depth)
    if deep is not None:
        raise LogFormatError([deep])
