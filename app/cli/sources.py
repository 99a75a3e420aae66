"""What ``import`` reads: files, folders, NDJSON, standard input."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

NDJSON_SUFFIXES = (".ndjson", ".jsonl")
SUFFIXES = (".json", *NDJSON_SUFFIXES)


@dataclass(frozen=True, slots=True)
class Entry:
    where: str  # "file" or "file:line"
    raw: bytes


def files(paths: list[str]) -> list[Path]:
    """Each path; a folder stands for its .json/.ndjson/.jsonl files, recursively, sorted."""
    out: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
        elif path.is_file():
            out.append(path)
        else:
            raise FileNotFoundError(name)
    return out


def _lines(data: bytes, where: str) -> Iterator[Entry]:
    for number, raw in enumerate(data.split(b"\n"), start=1):
        raw = raw.rstrip(b"\r")
        if raw.strip():
            yield Entry(f"{where}:{number}", raw)


def entries(path: Path) -> Iterator[Entry]:
    """A ``.json`` file is one log; NDJSON files (and ``-``) hold one log per line."""
    if str(path) == "-":
        yield from _lines(sys.stdin.buffer.read(), "<stdin>")
    elif path.suffix in NDJSON_SUFFIXES:
        yield from _lines(path.read_bytes(), str(path))
    else:
        yield Entry(str(path), path.read_bytes())


def count(path: Path) -> int:
    if path.suffix in NDJSON_SUFFIXES:
        return sum(1 for line in path.read_bytes().split(b"\n") if line.strip())
    return 1
