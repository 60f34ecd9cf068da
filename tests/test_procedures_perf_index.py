"""The index of long knowledge tuples (state._named) answers as the plain scan does, and a
tuple's answers are never another tuple's (a stale index would name a gone entry)."""

from __future__ import annotations

import random

from obverse.state import KNOWN_CARD, KNOWN_OBJ, Knowledge, adding, dropping, mentions


def _entries(rng: random.Random, n: int) -> tuple[Knowledge, ...]:
    return tuple(
        Knowledge(player="P1", card=rng.randrange(200), obj=rng.randrange(200), lasting=i % 3 == 0)
        for i in range(n)
    )


def test_mentions_and_dropping_match_the_scan_across_changing_tuples() -> None:
    rng = random.Random(3)
    tuples = [_entries(rng, n) for n in (0, 5, 23, 24, 40, 90, 90)]
    for _ in range(400):  # asked in mixed order: each answer must be its own tuple's
        entries = rng.choice(tuples)
        x = rng.randrange(200)
        for field in (KNOWN_OBJ, KNOWN_CARD):
            assert mentions(entries, field, x) == (x in [field(k) for k in entries])
        kept = dropping(entries, KNOWN_OBJ, x, lambda k: k.lasting)
        assert kept == tuple(k for k in entries if k.obj != x or k.lasting)
        assert (kept is entries) == all(k.obj != x or k.lasting for k in entries)


def test_an_entry_added_or_dropped_is_seen_at_once() -> None:
    rng = random.Random(4)
    entries = _entries(rng, 60)
    gone = entries[0].obj
    assert mentions(entries, KNOWN_OBJ, gone)
    fewer = dropping(entries, KNOWN_OBJ, gone)
    assert not mentions(fewer, KNOWN_OBJ, gone)
    more = (*fewer, Knowledge(player="P2", card=999, obj=999))
    assert mentions(more, KNOWN_OBJ, 999) and mentions(more, KNOWN_CARD, 999)
    assert not mentions(fewer, KNOWN_OBJ, 999)
    assert mentions(entries, KNOWN_OBJ, gone)  # the older tuple again: its own answer


def test_adding_to_an_indexed_tuple_carries_the_new_entries() -> None:
    rng = random.Random(5)
    entries = _entries(rng, 50)
    assert not mentions(entries, KNOWN_OBJ, 500)  # indexes entries
    assert not mentions(entries, KNOWN_CARD, 501)
    more = adding(entries, Knowledge(player="P2", card=501, obj=500))
    assert mentions(more, KNOWN_OBJ, 500) and mentions(more, KNOWN_CARD, 501)
    assert all(mentions(more, KNOWN_OBJ, k.obj) for k in entries)
    assert not mentions(entries, KNOWN_OBJ, 500)  # the older tuple keeps its own answer
    short = adding((), Knowledge(player="P1", card=7, obj=8))
    assert mentions(short, KNOWN_OBJ, 8) and not mentions(short, KNOWN_OBJ, 7)
