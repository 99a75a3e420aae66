"""A progress bar on standard error (a bar on a terminal, a line every few seconds otherwise)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 0)
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self.last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.tty and now - self.last >= 0.1:
            self._draw(now, "\r")
        elif not self.tty and now - self.last >= 5:
            self._draw(now, "", "\n")

    def _draw(self, now: float, start: str, end: str = "") -> None:
        self.last = now
        rate = self.done / max(now - self.started, 1e-9)
        width = 30
        fill = int(width * self.done / self.total) if self.total else width
        bar = "#" * fill + "-" * (width - fill)
        self.stream.write(
            f"{start}{self.label} [{bar}] {self.done}/{self.total}  {rate:,.0f}/s{end}"
        )
        self.stream.flush()

    def close(self) -> float:
        """Finish the bar; the seconds since it started."""
        now = time.monotonic()
        if self.tty:
            self._draw(now, "\r", "\n")
        return now - self.started
