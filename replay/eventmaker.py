"""``Event`` values made at parse speed.

``model.Event`` is a frozen dataclass with slots: its ``__init__`` sets each of its six
fields through ``object.__setattr__`` (~1 µs an event, a third of the strict parse of a
usual log). ``new_event`` makes the same value by writing the slots directly (~0.5 µs).
It is only used while ``Event`` is what it was written for (the same fields in the same
order, the dataclass's own ``__init__``, no ``__post_init__``); otherwise it is the class.

In the compiled build (``replay/native.py``) ``Event`` is a compiled class with an
attribute descriptor for each field instead of slots, and the same generated
``__init__``, which stays interpreted: ~2.1 µs an event, a quarter of the parse's
instructions. Its descriptors write the fields as the slots do (~1.1 µs an event).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import fields
from itertools import repeat
from typing import Final

from .cards import Card
from .model import EndReason, Event, EventType

__all__ = ["new_event", "new_events"]

_FIELDS: Final = ("type", "seat", "card", "groups", "reason", "t")


def _slot_writers() -> tuple[Callable[..., Event], Callable[..., list[Event]]] | None:
    if (
        tuple(f.name for f in fields(Event)) != _FIELDS
        # the slots of the sources' class, the attributes of the compiled one
        or getattr(Event, "__slots__", getattr(Event, "__mypyc_attrs__", None)) != _FIELDS
        or hasattr(Event, "__post_init__")
        # the frozen dataclass's generated __init__, which only sets the fields (a
        # hand-written one may do more)
        or Event.__init__.__code__.co_names != ("__setattr__",)
    ):
        return None
    new = Event.__new__  # object.__new__ for the sources' class
    setters = [vars(Event)[name].__set__ for name in _FIELDS]
    set_type, set_seat, set_card, set_groups, set_reason, set_t = setters

    def make(
        type: EventType,  # noqa: A002 - the field's name
        seat: int | None,
        card: Card | None,
        groups: tuple[tuple[Card, ...], ...],
        reason: EndReason | None,
        t: int | None,
    ) -> Event:
        event: Event = new(Event)
        set_type(event, type)
        set_seat(event, seat)
        set_card(event, card)
        set_groups(event, groups)
        set_reason(event, reason)
        set_t(event, t)
        return event

    def make_many(*columns: Iterable[object]) -> list[Event]:
        events: list[Event] = list(map(new, repeat(Event, len(columns[0]))))  # type: ignore[arg-type]
        for setter, column in zip(setters, columns, strict=True):
            deque(map(setter, events, column), maxlen=0)
        return events

    return make, make_many


def _by_class(*columns: Iterable[object]) -> list[Event]:
    return list(map(Event, *columns))


_WRITERS: Final = _slot_writers()
#: ``new_event(type, seat, card, groups, reason, t)``: ``Event(type, seat, ...)``
new_event: Final[Callable[..., Event]] = _WRITERS[0] if _WRITERS else Event
#: ``new_events(types, seats, cards, groups, reasons, times)``: the events of those
#: columns (sized sequences, or ``itertools.repeat`` after the first), in order.
new_events: Final[Callable[..., list[Event]]] = _WRITERS[1] if _WRITERS else _by_class
