"""Running the Alembic migrations from code (the CLI and the tests use this)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
ALEMBIC_INI = ROOT / "alembic.ini"


def owned_by_app(name: str | None, type_: str, parent_names: object) -> bool:
    """Alembic's ``include_name``: the job queue's tables (``procrastinate_*``, made by
    revision 0005 from procrastinate's own schema) are not in the models."""
    return not (type_ == "table" and name is not None and name.startswith("procrastinate_"))


def alembic_config(database_url: str) -> Config:
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logging"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)


def current_revision(engine: Engine) -> str | None:
    if not inspect(engine).has_table("alembic_version"):
        return None
    with engine.connect() as conn:
        return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()


def redact(database_url: str) -> str:
    """The URL as it can be printed: without its password."""
    from sqlalchemy.engine import make_url

    return make_url(database_url).render_as_string(hide_password=True)
