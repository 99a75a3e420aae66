"""``paohuzi-audit``: the command line. Every command reads ``PAOHUZI_DATABASE_URL``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..database import Database, make_engine
from ..errors import AppError
from ..fairplay import cli as fairplay_cli
from ..migrate import current_revision, redact, upgrade
from ..operators import cli as operators_cli
from ..settings import Settings
from . import demo, importer, keys, reaudit, serve, worker


def _migrate(settings: Settings, _: argparse.Namespace) -> int:
    """Upgrade to the newest revision and say what was done, from which to which."""
    engine = make_engine(settings.database_url)
    try:
        before = current_revision(engine)
        upgrade(settings.database_url)
        after = current_revision(engine)
    finally:
        engine.dispose()
    where = redact(settings.database_url)
    if before == after:
        print(f"{where}: already at revision {after} (the newest): nothing to do")
    elif before is None:
        print(f"{where}: new database: created the schema, revision {after}")
    else:
        print(f"{where}: upgraded from revision {before} to {after}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="paohuzi-audit",
        description="Audit service for Paohuzi hand logs. The database is "
        "PAOHUZI_DATABASE_URL (default: sqlite:///./paohuzi-audit.db).",
    )
    sub = p.add_subparsers(dest="command", required=True)
    serve.add_parser(sub)
    worker.add_parser(sub)
    m = sub.add_parser("migrate", help="create or upgrade the schema (alembic upgrade head)")
    m.set_defaults(plain=_migrate)
    importer.add_parser(sub)
    reaudit.add_parser(sub)
    keys.add_parser(sub)
    demo.add_parser(sub)
    operators_cli.add_parser(sub)
    fairplay_cli.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = Settings()
    if hasattr(args, "serve"):
        return int(args.serve(settings, args))
    if hasattr(args, "plain"):
        return int(args.plain(settings, args))
    db = Database.from_settings(settings)
    try:
        if getattr(args, "needs_settings", False):
            return int(args.handler(db, settings, args))
        return int(args.handler(db, args))
    except AppError as exc:
        print(f"paohuzi-audit: {exc.message}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"paohuzi-audit: no such file or folder: {exc}", file=sys.stderr)
        return 2
    finally:
        db.dispose()
