"""A player's record across hands."""
