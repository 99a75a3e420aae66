"""``serve``: uvicorn on the app factory."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile

import uvicorn

from ..settings import Settings


def run(settings: Settings, args: argparse.Namespace) -> int:
    host = args.host or settings.host
    port = args.port or settings.port
    workers = args.workers or settings.workers
    shared: str | None = None
    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Workers share their counters through files here (see app.system.metrics).
        shared = tempfile.mkdtemp(prefix="paohuzi-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = shared
    print(f"paohuzi-audit on http://{host}:{port}  (API docs: http://{host}:{port}/api/v1/docs)")
    try:
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=args.log_level,
            proxy_headers=True,
        )
    finally:
        if shared:
            shutil.rmtree(shared, ignore_errors=True)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="serve the API (and the pages)")
    p.add_argument("--host", help="bind address (default PAOHUZI_HOST or 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default PAOHUZI_PORT or 8000)")
    p.add_argument("--workers", type=int, help="worker processes (default 1)")
    p.add_argument("--log-level", default="info")
    p.set_defaults(serve=run)
