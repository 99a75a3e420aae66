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

    #: signs the console's anonymous CSRF cookie. Unset: a random key is made on first
    #: use and kept in the database (table ``app_secrets``), shared by every worker;
    #: there is never a constant key.
    secret_key: SecretStr | None = None
    #: explicit development mode: cookies without ``Secure`` (plain http on localhost)
    #: and no ``Strict-Transport-Security``. Never set it in production.
    dev_mode: bool = False

    #: whether a viewer who is not a signed-in operator may open a replay with every card
    #: shown (no ``?as=SEAT``). Logs are only sent once a hand has ended, so by default
    #: players may; set false to let them see a hand only from one seat.
    full_view_public: bool = True
    #: how long an operator stays signed in, in hours (sessions are rows: sign-out,
    #: ``operators disable`` and ``operators reset-password`` end them at once).
    session_hours: int = Field(default=12, ge=1, le=24 * 30)

    #: sign-in throttling (a limiter in the database, shared by every worker): after
    #: this many failures within ``sign_in_window_seconds`` an account, or an address,
    #: is locked out for ``sign_in_lockout_seconds`` (429 with ``Retry-After``).
    sign_in_account_failures: int = Field(default=5, ge=1, le=1000)
    sign_in_address_failures: int = Field(default=20, ge=1, le=100_000)
    sign_in_window_seconds: int = Field(default=900, ge=1)
    sign_in_lockout_seconds: int = Field(default=900, ge=1)
    #: argon2 verifications run at once per process (each takes 64 MiB and ~50 ms);
    #: more waiting than ``sign_in_queue`` are answered 429 at once.
    sign_in_concurrency: int = Field(default=1, ge=1, le=16)
    sign_in_queue: int = Field(default=8, ge=0, le=1000)
    #: at least this long between two argon2 verifications started by one process: a
    #: sign-in attack from many addresses (which the lockout does not stop) then takes
    #: at most one hash a second of CPU from ingest.
    sign_in_hash_interval_seconds: float = Field(default=1.0, ge=0, le=60)
    #: a locked-out attempt waits this long (asynchronously: no thread, no CPU) before
    #: its 429, so that an attacker's loop runs at a few requests a second; at most
    #: ``sign_in_tarpit_slots`` wait at once per process, the rest are answered at once.
    sign_in_tarpit_seconds: float = Field(default=1.0, ge=0, le=30)
    sign_in_tarpit_slots: int = Field(default=256, ge=0, le=100_000)

    #: ``/healthz`` answers 503 ``"database": "full"`` when an SQLite database has less
    #: room than this (free disk, or its ``max_page_count``), in bytes.
    min_free_bytes: int = Field(default=64 * 1_048_576, ge=0)
    #: ``Retry-After`` (seconds) of a 503 when the database is unreachable or full.
    retry_after_seconds: int = Field(default=5, ge=1, le=3600)

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
