"""Compile the rules core's hot modules with mypyc, in place (``make native``).

The sources stay what they are: pure, standard-library Python that runs and gives the
same verdicts without this step (``replay/native.py`` says which build is in use and
falls back to the sources when the compiled modules are missing or older than them).
Compiled, the modules named in ``replay.native.COMPILED`` run about twice as fast
(``docs/performance.md``). The build needs mypy (a dev dependency: mypyc ships with it),
setuptools and a C compiler with the Python headers; the compiled modules need nothing
but the standard library at run time.

    .venv/bin/python scripts/build_native.py          # build (about a minute)
    .venv/bin/python scripts/build_native.py --clean  # remove the compiled modules
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PAOHUZI_REPLAY_PURE"] = "1"  # this process reads the sources, never a build

from replay import native  # noqa: E402


def clean() -> None:
    for path in native.built_files():
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    shutil.rmtree(ROOT / "build" / "native", ignore_errors=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    paths = [str(native.module_path(name).relative_to(ROOT)) for name in native.COMPILED]
    os.chdir(ROOT)  # mypyc reads the project's mypy settings from pyproject.toml
    print(f"compiling {len(paths)} modules of replay/ with mypyc…", flush=True)
    try:
        setup(
            name="paohuzi-replay-native",
            # one group, its shared library inside the package (replay/_native__mypyc…)
            ext_modules=mypycify(paths, opt_level="3", group_name="replay._native"),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", "build/native/temp",
                         "--build-lib", "build/native/lib"],
        )
    except SystemExit as exc:  # setuptools' way to fail: say what to do instead
        if exc.code not in (None, 0):
            print("the compiled build failed (it needs a C compiler and the Python headers); "
                  "NATIVE=0 make … runs the sources, with the same results", file=sys.stderr)
        raise


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = p.parse_args()
    if args.clean:
        clean()
        return 0
    clean()
    build()
    left = native.stale()
    if left:
        print(f"built, but older than their sources: {', '.join(left)}", file=sys.stderr)
        return 1
    print("built: replay uses the compiled modules (python -m replay bench says so)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
