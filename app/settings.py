"""All configuration, from the environment (prefix ``PAOHUZI_``) or a ``.env`` file."""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAOHUZI_", env_file=".env", extra="ignore")

    #: SQLAlchemy URL; the default is an SQLite file in the working directory.
    database_url: str = "sqlite:///./paohuzi-audit.db"
    #: where ``serve`` binds.
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1

    #: largest body of ``POST /games`` (one log), in bytes.
    max_log_bytes: int = Field(default=1_048_576, ge=1024)
    #: largest body of ``POST /games:bulk``, in bytes, and the most lines it may hold.
    max_bulk_bytes: int = Field(default=64 * 1_048_576, ge=1024)
    max_bulk_lines: int = Field(default=20_000, ge=1)
    #: bulk lines stored per transaction (each batch is committed before it is acknowledged).
    bulk_batch_size: int = Field(default=200, ge=1, le=5000)
    #: deepest JSON nesting accepted in a log.
    max_json_depth: int = Field(default=64, ge=8, le=512)

    #: re-execute each log at ingest; when off, logs are stored unverified and
    #: ``reaudit`` fills in their verdicts later.
    verify_on_ingest: bool = True
    #: where the verification runs: ``inline`` in the request, ``queue`` as a job that
    #: ``paohuzi-audit worker`` takes (PostgreSQL only), ``auto`` = queue on PostgreSQL,
    #: inline on SQLite.
    verify_mode: Literal["auto", "inline", "queue"] = "auto"
    #: logs per verification job of ``reaudit`` on PostgreSQL.
    reaudit_chunk_size: int = Field(default=500, ge=1, le=10_000)
    #: webhook deliveries: attempts before a delivery is ``failed``, the first wait
    #: (doubled after each failure, at most ``webhook_max_backoff_seconds``), the timeout.
    webhook_max_attempts: int = Field(default=8, ge=1, le=100)
    webhook_backoff_seconds: float = Field(default=5.0, gt=0)
    webhook_max_backoff_seconds: float = Field(default=3600.0, gt=0)
    webhook_timeout_seconds: float = Field(default=10.0, gt=0)

    #: signs links (shared replay pages); set it in production.
    secret_key: SecretStr = SecretStr("dev-only-secret-change-me")

    #: SQL echo, for debugging.
    echo_sql: bool = False


class Verification(StrEnum):
    INLINE = "inline"
    QUEUE = "queue"
    OFF = "off"


def verification(settings: Settings) -> Verification:
    """How a new log is verified at ingest, from ``verify_on_ingest`` and ``verify_mode``."""
    if not settings.verify_on_ingest:
        return Verification.OFF
    postgres = settings.database_url.startswith("postgresql")
    if postgres and settings.verify_mode != "inline":
        return Verification.QUEUE  # the queue lives in PostgreSQL: SQLite stays inline
    return Verification.INLINE


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
