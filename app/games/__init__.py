"""Hand logs: ingest (one and bulk), reading logs and verdicts."""
