"""Tools around the rules core: the self-play simulator and its bots, the cheat
injector, corpus statistics, the benchmark and their commands.

They drive the core only through its public API (``replay.state``,
``replay.actions``, ``replay.observer``, ``replay.verify``); the core never
imports this package (``tests/tools/test_layers.py``).
"""
