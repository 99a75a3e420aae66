"""Pinned answers of the strict parser for many documents, valid and not.

``tests/data/parse-cases.ndjson.xz`` holds, one a line, an input (bytes as latin-1
text, or text) with the call made on it (``parse_log`` or ``loads_strict``, a
``max_depth``, whether the input goes in as bytes, text or an already-decoded dict)
and the answer of the parser when the file was made: the problem list of the
``LogFormatError`` (pointers, expected texts, in order), or for an accepted log its
``sha256`` and a digest of the ``Log`` (its repr and the repr of ``raw``).

The inputs are mutations of a few valid logs (fixed seed): fields deleted, wrong types
and values, unknown and duplicate keys, ``NaN``/``Infinity``, numbers out of range,
lone surrogates raw and escaped, BOMs, NUL and invalid UTF-8 bytes, deep nesting, syntax
errors, many faults at once (the ``MAX_PROBLEMS`` cap). They were made before the third
pass on the parser's speed, so a faster parser must give the same answers:
``tests/rules/test_parse_cases.py``. Rewriting the answers (only when a refusal is
changed on purpose): ``python -m tests.rules.parse_cases --write``; ``--make`` also draws
the inputs again (the simulator's logs may have moved since).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import lzma
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.logformat import LogFormatError, loads_strict, parse_log

DATA = Path(__file__).resolve().parent.parent / "data"
CASES = DATA / "parse-cases.ndjson.xz"
SEED = 11


# --- answers ---------------------------------------------------------------------------------


def answer(case: dict[str, Any]) -> dict[str, Any]:
    """What the parser says about one case, as JSON."""
    raw: Any = case["input"]
    if case["as"] == "bytes":
        raw = raw.encode("latin-1")
    elif case["as"] == "dict":
        raw = json.loads(raw)
    try:
        if case["call"] == "loads_strict":
            value = loads_strict(raw, case["max_depth"])
            return {"value": _digest(repr(value))}
        log = parse_log(raw, case["max_depth"])
    except LogFormatError as exc:
        return {"problems": [[p.pointer, p.expected] for p in exc.problems]}
    except Exception as exc:  # noqa: BLE001 - pinned as it is, whatever it is
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"sha256": log.sha256, "log": _digest(repr(log) + repr(log.raw))}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_cases() -> list[dict[str, Any]]:
    with lzma.open(CASES, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def write_cases(cases: list[dict[str, Any]]) -> None:
    with lzma.open(CASES, "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME) as fh:
        for case in cases:
            fh.write(json.dumps(case, ensure_ascii=True, separators=(",", ":")) + "\n")


# --- inputs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text written as is (``NaN``, ``1e400``, a syntax error...)."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """An object written with these members, repeated keys and all."""

    items: tuple[tuple[str, Any], ...]


def dump(value: Any, ascii_only: bool, indent: str | None = None, level: int = 0) -> str:
    """JSON text of ``value`` (which may hold ``Raw`` and ``Pairs``)."""
    nl = "" if indent is None else "\n" + indent * (level + 1)
    end = "" if indent is None else "\n" + indent * level
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else tuple(value.items())
        parts = [
            json.dumps(k, ensure_ascii=ascii_only) + ":" + dump(v, ascii_only, indent, level + 1)
            for k, v in items
        ]
        return "{" + ",".join(nl + part for part in parts) + end + "}" if parts else "{}"
    if isinstance(value, list):
        parts = [dump(v, ascii_only, indent, level + 1) for v in value]
        return "[" + ",".join(nl + part for part in parts) + end + "]" if parts else "[]"
    return json.dumps(value, ensure_ascii=ascii_only)


WRONG: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 3, 7, 2**70, 1.5, 1.0, -0.0, "", "x", "x11", "d0", "X1",
    "x1 ", "\u0000", "\ud800", "\udfff", "a\ud83d", [], {}, ["x1"], {"a": 1}, "a" * 200,
    "2026-11-29T12:00:00", "2026-13-40T00:00:00Z", "\u00e9t\u00e9", "\U0001f600",
    Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e400"), Raw("-1E+999"),
    Raw("1" * 5000), Raw("-0"), Raw("1.0e2"), Raw("2e0"), Raw('"\\ud800"'), Raw('"\\uDC00x"'),
    Raw('"\\ud83d\\ude00"'), Raw('"\\u0078\\u0031"'), Raw('"x\\/1"'), Raw("[" * 70 + "]" * 70),
    Raw("[" * 63 + "]" * 63), Raw("[" * 64 + "]" * 64), Raw("{" + '"a":{' * 65 + "}" * 66),
    Raw('["[[[[", "]]]]", "\\"["]'),
)
KEYS: tuple[str, ...] = (
    "extra", "a/b", "t~1", "~", "\ud800", "", "seat", "type", "meta", "card", "groups",
    "reason", "t", "winner", "\U0001f600", "x" * 60,
)
BAD_BYTES: tuple[bytes, ...] = (
    b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x00", b"\x80",
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(doc: Any, rng: random.Random) -> Any:
    """One change at a random place of ``doc`` (changed in place; returns the new root)."""
    paths = list(_paths(doc))
    path = rng.choice(paths)
    if not path:
        return rng.choice((rng.choice(WRONG), doc))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    op = rng.randrange(8)
    if op == 0:  # delete
        del parent[key]
    elif op <= 3:  # a wrong value
        parent[key] = rng.choice(WRONG)
    elif op == 4 and isinstance(parent, dict):  # an extra or repeated key
        if rng.random() < 0.5:
            parent[rng.choice(KEYS)] = rng.choice((*WRONG, 0, "x1"))
        else:
            items = list(parent.items())
            items.insert(rng.randrange(len(items) + 1), (key, rng.choice((parent[key], 1))))
            holder = doc
            for k in path[:-2]:
                holder = holder[k]
            if len(path) == 1:
                return Pairs(tuple(items))
            holder[path[-2]] = Pairs(tuple(items))
    elif op == 5 and isinstance(parent, list):  # a list grown or shrunk
        if rng.random() < 0.5:
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            del parent[key:]
    elif op == 6 and isinstance(parent[key], list):  # every item of a list wrong
        parent[key] = [rng.choice(WRONG[:20]) for _ in range(rng.choice((1, 3, 60)))]
    else:  # a wrong value inside a value
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"v": parent[key]}
    return doc


def _text_mutate(data: bytes, rng: random.Random) -> bytes:
    op = rng.randrange(9)
    pos = rng.randrange(len(data) + 1)
    if op == 0:
        return data[:pos]
    if op == 1:
        return data[:pos] + rng.choice(BAD_BYTES) + data[pos:]
    if op == 2:
        return data[:pos] + rng.choice(b'{}[],:"\\ \n0-.eE').to_bytes(1, "big") + data[pos:]
    if op == 3:
        return data[:pos] + data[pos + 1 :]
    if op == 4:
        boms = (b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b" \n\t", b"\xef\xbb")
        return rng.choice(boms) + data
    if op == 5:
        text = data.decode("utf-8", "replace")
        return text.encode(rng.choice(("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le")),
                           "surrogatepass")
    if op == 6:
        return data + rng.choice((b" x", b"{}", b"\n\n", b" ", b"\x00", b","))
    if op == 7:
        return rng.choice((b"", b" ", b"[]", b"null", b"1", b'"x"', b"{", b"}", b"[{}]")) + data[:0]
    return data.replace(b'"x', b'"\\u0078', rng.randrange(1, 4))


def base_logs() -> list[dict[str, Any]]:
    from replay.tools.simulate import simulate

    from .test_logformat import valid_log

    logs = [valid_log()]
    for ruleset in ("standard", "hengshan", "changde"):
        logs += list(simulate(2, 1, ruleset))
        logs += list(simulate(1, 2, ruleset, match=3))
    return logs


def make_inputs(count: int) -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    bases = base_logs()
    cases: list[dict[str, Any]] = []

    def add(data: bytes | str, call: str = "parse_log", max_depth: int = 64, as_: str = "") -> None:
        if isinstance(data, str):
            text, as_ = data, as_ or "str"
        else:
            text, as_ = data.decode("latin-1"), "bytes"
        cases.append({"call": call, "max_depth": max_depth, "as": as_, "input": text})

    for base in bases:  # the valid logs themselves, every way they can come in
        for ascii_only in (False, True):
            add(dump(base, ascii_only).encode())
        add(dump(base, False, "  "))
        add(json.dumps(base, sort_keys=True, separators=(",", ":")), as_="dict")
    while len(cases) < count:
        doc: Any = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.choice((0, 1, 1, 1, 1, 2, 2, 3, 5, 8))):
            if isinstance(doc, dict | list):
                doc = _mutate(doc, rng)
        ascii_only = rng.random() < 0.3
        text = dump(doc, ascii_only, rng.choice((None, None, None, "  ", "\t")))
        data = text.encode("utf-8", "surrogatepass")
        for _ in range(rng.choice((0, 0, 0, 0, 0, 0, 1, 1, 2))):
            data = _text_mutate(data, rng)
        max_depth = 64 if rng.random() < 0.8 else rng.choice((1, 2, 3, 4, 5, 8))
        call = "loads_strict" if rng.random() < 0.15 else "parse_log"
        kind = rng.random()
        if kind < 0.1:
            try:
                add(data.decode("utf-8", "surrogatepass"), call, max_depth)
            except UnicodeDecodeError:
                add(data, call, max_depth)
        elif kind < 0.15 and call == "parse_log":
            try:  # the lax decoder of a caller that passes a dict
                text = data.decode("utf-8", "surrogatepass")
                json.loads(text)
            except (ValueError, RecursionError):
                add(data, call, max_depth)
            else:
                add(text, call, max_depth, "dict")
        else:
            add(data, call, max_depth)
    return cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite the answers")
    ap.add_argument("--make", type=int, metavar="N", help="draw N inputs again, then answer them")
    a = ap.parse_args()
    cases = make_inputs(a.make) if a.make else read_cases()
    kinds: dict[str, int] = {}
    for case in cases:
        case["answer"] = answer(case)
        kind = next(iter(case["answer"]))
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"{len(cases)} cases: {kinds}")
    if a.write or a.make:
        write_cases(cases)


if __name__ == "__main__":
    main()
