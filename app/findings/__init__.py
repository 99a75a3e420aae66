"""Findings of the current verdicts: filtered, cursor-paginated."""
