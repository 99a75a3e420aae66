"""Matches: the hands of one table (``match.id``), dealer rotation and running totals."""
