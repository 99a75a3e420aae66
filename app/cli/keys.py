from __future__ import annotations

import argparse

from ..auth.scopes import Scope
from ..auth.service import create_key, list_keys, revoke_key
from ..database import Database, transaction


def create(db: Database, args: argparse.Namespace) -> int:
    with transaction(db.write) as session:
        row, secret = create_key(session, args.name, args.scope)
        print(f"API key {row.id} '{row.name}' with scopes: {row.scopes}")
        print("Send it in the X-API-Key header. It is shown only now:")
    print(secret)
    return 0


def list_(db: Database, _: argparse.Namespace) -> int:
    with transaction(db.read) as session:
        rows = list_keys(session)
        print(f"{'id':>4}  {'prefix':<12}  {'name':<20}  {'scopes':<30}  created / revoked")
        for r in rows:
            state = f"revoked {r.revoked_at:%Y-%m-%d %H:%M}" if r.revoked_at else "active"
            print(
                f"{r.id:>4}  {r.prefix:<12}  {r.name:<20}  {r.scopes:<30}  "
                f"{r.created_at:%Y-%m-%d %H:%M}  {state}"
            )
    return 0


def revoke(db: Database, args: argparse.Namespace) -> int:
    with transaction(db.write) as session:
        row = revoke_key(session, args.id)
        print(f"API key {row.id} '{row.name}' is revoked")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    keys = sub.add_parser("keys", help="manage API keys")
    ks = keys.add_subparsers(dest="keys_command", required=True)
    c = ks.add_parser("create", help="create a key; prints it alone on the last line")
    c.add_argument(
        "--scope",
        action="append",
        required=True,
        choices=[str(s) for s in Scope],
        help="a scope (repeat for more)",
    )
    c.add_argument("--name", default="cli", help="a name to tell keys apart")
    c.set_defaults(handler=create)
    ls = ks.add_parser("list", help="list keys (never the secrets)")
    ls.set_defaults(handler=list_)
    r = ks.add_parser("revoke", help="revoke a key by id")
    r.add_argument("id", type=int)
    r.set_defaults(handler=revoke)
