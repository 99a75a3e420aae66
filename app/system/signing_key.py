"""The console's signing key: ``PAOHUZI_SECRET_KEY``, or one the service makes.

Without a configured key, the first process that needs one makes 256 random bits and
stores them in ``app_secrets`` (insert-if-absent, so concurrent workers agree on the
first one written); every worker reads the same row. There is never a constant key.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..database import Database, insert_if_absent, transaction
from ..models import AppSecret
from ..settings import Settings

NAME = "console-signing-key"


def _stored(session: Session) -> str:
    values = {"name": NAME, "value": secrets.token_urlsafe(32)}
    insert_if_absent(session, AppSecret, values)
    return str(session.scalar(select(AppSecret.value).where(AppSecret.name == NAME)))


def signing_key(settings: Settings, db: Database) -> str:
    if settings.secret_key is not None and settings.secret_key.get_secret_value():
        return settings.secret_key.get_secret_value()
    with transaction(db.write) as session:
        return _stored(session)
