"""``paohuzi-audit operators create|list|disable|enable|reset-password``: console accounts."""

from __future__ import annotations

import argparse
import getpass
import sys

from ..database import Database, transaction
from .service import create_operator, list_operators, reset_password, set_disabled


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise SystemExit("paohuzi-audit: the passwords differ")
    return first


def create(db: Database, args: argparse.Namespace) -> int:
    password = _password(args)
    with transaction(db.write) as session:
        row = create_operator(session, args.username, password, args.name)
        print(f"operator {row.id} '{row.username}' created; sign in at /ops/sign-in")
    return 0


def list_(db: Database, _: argparse.Namespace) -> int:
    with transaction(db.read) as session:
        rows = list_operators(session)
        print(f"{'id':>4}  {'username':<20}  {'name':<24}  created           last sign-in")
        for r in rows:
            last = f"{r.last_sign_in_at:%Y-%m-%d %H:%M}" if r.last_sign_in_at else "never"
            state = "" if r.active else "  (disabled)"
            print(
                f"{r.id:>4}  {r.username:<20}  {r.display_name:<24}  "
                f"{r.created_at:%Y-%m-%d %H:%M}  {last}{state}"
            )
    return 0


def disable(db: Database, args: argparse.Namespace) -> int:
    with transaction(db.write) as session:
        row = set_disabled(session, args.username, True)
        print(f"operator '{row.username}' disabled; every session of it has ended")
    return 0


def enable(db: Database, args: argparse.Namespace) -> int:
    with transaction(db.write) as session:
        row = set_disabled(session, args.username, False)
        print(f"operator '{row.username}' enabled")
    return 0


def reset(db: Database, args: argparse.Namespace) -> int:
    password = _password(args)
    with transaction(db.write) as session:
        row = reset_password(session, args.username, password)
        print(f"operator '{row.username}': new password set; every session of it has ended")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ops = sub.add_parser("operators", help="manage console (/ops) operator accounts")
    os_ = ops.add_subparsers(dest="operators_command", required=True)
    c = os_.add_parser("create", help="create an operator (asks for the password)")
    c.add_argument("username")
    c.add_argument("--name", help="a display name (default: the username)")
    c.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    c.set_defaults(handler=create)
    ls = os_.add_parser("list", help="list operators (never the password hashes)")
    ls.set_defaults(handler=list_)
    for name, handler, text in (
        ("disable", disable, "disable an operator and end its sessions"),
        ("enable", enable, "enable a disabled operator"),
        ("reset-password", reset, "set a new password (asks for it) and end its sessions"),
    ):
        p = os_.add_parser(name, help=text)
        p.add_argument("username")
        if handler is reset:
            p.add_argument(
                "--password-stdin", action="store_true", help="read the password from stdin"
            )
        p.set_defaults(handler=handler)
