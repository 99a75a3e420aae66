"""API keys: creation, lookup by hash, scopes."""
