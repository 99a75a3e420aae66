from __future__ import annotations

from enum import StrEnum


class Scope(StrEnum):
    #: send logs (``POST /games``, ``POST /games:bulk``).
    INGEST = "ingest"
    #: read logs, verdicts, findings, players.
    READ = "read"
    #: operations: re-audit, metrics.
    OPERATE = "operate"
    #: everything, including what later admin endpoints add.
    ADMIN = "admin"


def grants(held: frozenset[str], needed: Scope) -> bool:
    """Whether a key holding ``held`` may do what needs ``needed`` (``admin`` may do anything)."""
    return needed in held or Scope.ADMIN in held
