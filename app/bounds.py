"""Bounds on what enters the service, so the database never sees what it cannot store.

PostgreSQL refuses NUL in text, lone UTF-16 surrogates cannot be encoded, ``Integer``
columns are 32-bit and ``BIGINT`` 64-bit, and a time stamp must stay within years
1-9999 once converted to UTC. Values are checked where they enter (query, path, body,
log) and refused with the status that entry point documents.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field

from replay.model import Log

MAX_ID = 128
MAX_INT32 = 2**31 - 1
MAX_INT64 = 2**63 - 1
#: the largest integer every JSON client carries exactly (a double's 53 bits): ids in
#: request bodies stop here, so a client that reads numbers as doubles never sends
#: a neighbour of the id it meant.
MAX_JSON_INT = 2**53 - 1


def storable_text(value: str) -> bool:
    """No NUL and encodable as UTF-8 (no lone surrogates)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(value: str) -> str:
    if not storable_text(value):
        raise ValueError("text without NUL characters or lone surrogates")
    return value


#: a string that may be stored or compared in the database (for request bodies); the
#: pattern puts "no NUL" into the OpenAPI document too.
Text = Annotated[str, Field(pattern=r"^[^\x00]*$"), AfterValidator(_text)]
#: the same, and not blank (a note or a comment that must say something).
Note = Annotated[str, Field(pattern=r"^[^\x00]*[^\s\x00\x1c-\x1f][^\x00]*$"),
                AfterValidator(_text)]


def _iso(value: object) -> object:
    if not isinstance(value, datetime) and not (isinstance(value, str) and "T" in value.upper()):
        raise ValueError("an ISO 8601 date and time (not a number of seconds)")
    return value


#: an ISO 8601 date-time as documented (pydantic alone would also take epoch seconds).
IsoDateTime = Annotated[datetime, BeforeValidator(_iso)]


def as_utc(value: datetime) -> datetime | None:
    """The moment in UTC, or ``None`` when it falls outside years 1-9999 there."""
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        return None


def log_problems(log: Log) -> list[dict[str, str]]:
    """What in a parsed log the database could not store (JSON pointer, what is expected)."""
    problems: list[dict[str, str]] = []
    if log.match is not None:
        if not (len(log.match.id) <= MAX_ID and storable_text(log.match.id)):
            problems.append({"pointer": "/match/id", "expected": (
                f"a match id of 1 to {MAX_ID} characters without NUL or lone surrogates")})
        if not 1 <= log.match.hand <= MAX_INT32:
            problems.append({"pointer": "/match/hand",
                             "expected": f"an integer from 1 to {MAX_INT32}"})
    for seat, player in enumerate(log.players):
        if not storable_text(player):
            problems.append({"pointer": f"/players/{seat}/id",
                             "expected": "a player id without NUL or lone surrogates"})
    if log.started_at and started_utc(log.started_at) is None:
        problems.append({"pointer": "/started_at", "expected": (
            "a date and time within years 1-9999 once converted to UTC")})
    return problems


def started_utc(text: str) -> datetime | None:
    """A log's ``started_at`` in UTC; ``None`` when absent, local or out of range."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return as_utc(moment) if moment.tzinfo is not None else None
