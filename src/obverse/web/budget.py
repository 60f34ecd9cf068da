"""What one table may cost the server: memory (bytes, estimated from its stored steps and
objects) and the work of a seat's first look, so that no upload or action can freeze the
event loop or fill the memory, and the cache of replayed tables is bounded in bytes.

The figures are measured (``tracemalloc`` of a replayed table after every seat's state, on
CPython 3.11): an object costs about 16 KB (its state, and each seat's view entries and
names), a step about 8 KB (the states around it and each seat's log entry), and each step's
states keep the effects in force then (8 bytes an effect: a table of N effects keeps about
4·N² bytes). A seat's first look re-checks, for every step that starts or ends effects that
apply by filter, every object: the work is those steps times the objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from obverse.web.table import TableError

#: Bytes an object is estimated to keep (its states, views and names over every seat).
PER_OBJECT = 16 * 1024
#: Bytes a step is estimated to keep (its states, rulings and log entries).
PER_STEP = 8 * 1024
#: Bytes per effect and step: every step's states hold the effects in force then.
PER_EFFECT_STEP = 8
#: The most one table may be estimated to keep (an upload or an action past it is 413).
TABLE_BYTES = 64 * 1024 * 1024
#: The most the replayed tables kept in memory may weigh together (older ones are dropped
#: and replayed from the store when asked again).
CACHE_BYTES = 512 * 1024 * 1024
#: The most objects times effect-changing steps a table may hold (a seat's first look
#: re-checks every object at each: about a third of a second at most on one
#: core of a 2-CPU machine).
MAX_WORK = 100_000
#: The most steps and setup entries a table may hold. The setup bound was set when a seat's
#: offers were made per pair of objects (300 objects took the judge's first offers 3.6 s);
#: a free target is one offer now (issue 22), and the bound is kept until it is measured
#: again.
MAX_STEPS = 10_000
MAX_SETUP = 250
#: Steps that start or end effects (what makes a first look re-check every object).
EFFECT_VERBS = frozenset({"apply_effect", "end_turn"})


@dataclass(frozen=True)
class Cost:
    """A table's estimated weight in bytes and its first look's work."""

    bytes: int
    work: int


def cost(setup: int, steps: list[tuple[dict[str, Any], str]] | list[dict[str, Any]]) -> Cost:
    """The estimated cost of a table of ``setup`` entries and ``steps`` (each a step, or a
    ``(step, seat)`` pair)."""
    effects = 0
    for item in steps:
        step = item[0] if isinstance(item, tuple) else item
        if isinstance(step, dict) and not EFFECT_VERBS.isdisjoint(step):
            effects += 1
    n = len(steps)
    weight = PER_OBJECT * setup + PER_STEP * n + PER_EFFECT_STEP * effects * n
    return Cost(weight, effects * max(setup, 1))


def check(setup: int, steps: list[tuple[dict[str, Any], str]] | list[dict[str, Any]]) -> Cost:
    """The table's cost; a :class:`TableError` 413 when it is past any bound (checked
    before the table is replayed, so refusing it costs nothing)."""
    if len(steps) > MAX_STEPS or setup > MAX_SETUP:
        raise TableError(413, f"a table holds at most {MAX_STEPS:,} steps and {MAX_SETUP:,} cards")
    found = cost(setup, steps)
    if found.bytes > TABLE_BYTES or found.work > MAX_WORK:
        raise TableError(
            413,
            "this table would be too large for the server (too many cards, steps or "
            "effects together); start a new table",
        )
    return found


__all__ = [
    "CACHE_BYTES",
    "MAX_SETUP",
    "MAX_STEPS",
    "MAX_WORK",
    "TABLE_BYTES",
    "Cost",
    "check",
    "cost",
]
