"""The ``paohuzi-audit`` command."""

from .main import main

__all__ = ["main"]
