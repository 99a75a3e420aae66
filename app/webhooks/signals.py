"""The dispatcher's wake-up: set after a commit that made deliveries (SQLite)."""

from __future__ import annotations

import threading

WAKE = threading.Event()
