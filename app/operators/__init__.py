"""Operator accounts: people who decide cheating reports in the console (``/ops``)."""
