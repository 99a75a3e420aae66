"""Cheating reports and the cases they open: one case per hand, an append-only trail."""
