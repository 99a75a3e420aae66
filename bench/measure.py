"""The two measures the bench scripts share: CPU time per item (best of several passes)
and instructions counted by valgrind (steady on a shared machine)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def best_cpu_seconds(items: Sequence[T], step: Callable[[T], object], repeat: int) -> float:
    """Best CPU time (``time.process_time``) per item over ``repeat`` passes, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            step(item)
        best = min(best, time.process_time() - start)
    return best / len(items)


def instructions(script: str, *args: str) -> int:
    """Instructions of ``python script args...`` under ``valgrind --tool=cachegrind``
    (``PYTHONHASHSEED=0``). Needs ``valgrind`` (``apt-get install valgrind``)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, script, *args]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    match = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if match is None:
        raise SystemExit("valgrind printed no instruction count:\n" + out[-2000:])
    return int(match.group(1).replace(",", ""))
