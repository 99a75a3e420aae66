"""paohuzi-audit service: ingest hand logs over HTTP, store logs and verdicts in SQL, serve them."""
