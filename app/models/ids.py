"""Primary keys: 64-bit on PostgreSQL, SQLite's rowid alias on SQLite."""

from __future__ import annotations

from sqlalchemy import BigInteger, Integer

BigId = BigInteger().with_variant(Integer(), "sqlite")
