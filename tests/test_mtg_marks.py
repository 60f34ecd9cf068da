"""MTG's look at the designations naming a moving object (rulesets/mtg/moves.py): the index
of a long tuple answers as the plain scan does."""

from __future__ import annotations

import random

from obverse import memo
from obverse.rulesets.mtg.moves import marks_naming


def _plain(marks: tuple[tuple[str, int], ...], oid: int) -> tuple[str, ...]:
    return tuple(name for name, on in marks if on == oid)


def test_marks_naming_is_the_plain_scan_short_and_long() -> None:
    rng = random.Random(7)
    names = ("protector:alice", "protector:bob", "spell_copy", "crafted_with:9", "day")
    for n in (0, 1, 5, 15, 16, 24, 60):
        marks = tuple((rng.choice(names), rng.randrange(8)) for _ in range(n))
        for oid in range(9):
            assert marks_naming(marks, oid) == _plain(marks, oid)
            with memo.plain():
                assert marks_naming(marks, oid) == _plain(marks, oid)


def test_marks_naming_keeps_the_order_of_several_marks_on_one_object() -> None:
    marks = tuple((f"m{i}", i % 3) for i in range(30))
    assert marks_naming(marks, 1) == tuple(f"m{i}" for i in range(1, 30, 3))
    assert marks_naming(marks, 5) == ()
