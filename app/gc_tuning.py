"""The garbage collector of a server or worker process, set for ingest.

Parsing a log makes about a thousand small containers, a bulk batch holds hundreds of
logs, and the process holds a few hundred thousand long-lived objects (the framework,
SQLAlchemy, the engine's caches): with CPython's default thresholds (700, 10, 10) the
collector rescans those over and over, a quarter of the strict parse's time. Objects
without reference cycles are freed by reference counting as before; the cycle
collector runs less often.
"""

from __future__ import annotations

import gc

#: young objects before a collection; collections of each older generation per younger.
THRESHOLDS = (50_000, 20, 100)


def tune() -> None:
    gc.set_threshold(*THRESHOLDS)
