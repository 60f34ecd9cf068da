"""The move's cheaper paths (issue 22, apply + undo) decide as the plain code does: an MTG
object leaving with nothing for the hooks skips them, and a long designations tuple is asked
through an index of its entries."""

from __future__ import annotations

import random

import pytest

from obverse import state as core
from obverse import vocab as v
from obverse.bench_node import table
from obverse.rulesets.mtg import Magic
from obverse.rulesets.mtg.craft import CRAFTED
from obverse.rulesets.mtg.permanents import PROTECTOR
from obverse.state import GameObject, GameState


class _AlwaysAsked(Magic):
    """MTG whose move asks the leaving and moved hooks of every object (the plain code)."""

    def replaces_leaving(self, state: GameState, obj: GameObject, to: str) -> bool:
        return True


@pytest.mark.parametrize("to", ["graveyard", "exile", "hand", "library", "battlefield"])
def test_a_move_skipping_the_hooks_decides_as_asking_them(to: str) -> None:
    """Every permanent of a random table (battles with protectors among them), moved to
    ``to`` with the gate and with the hooks always asked: the same result, rulings, events
    and state."""
    game, ids = table("mtg", 120, seed=3)
    state = game.state
    fast, plain = Magic(), _AlwaysAsked()
    marked = 0
    for card in ids:
        oid = state.card_object[card]
        marked += core.mentions(state.designations, core.DESIGNATED, oid)
        a = fast.move_object(state, v.Move(object=oid, to=to))
        b = plain.move_object(state, v.Move(object=oid, to=to))
        assert (a.result, a.rulings, a.events) == (b.result, b.rulings, b.events)
        assert a.state == b.state
        assert a.state.designations == b.state.designations
        assert a.state.knowledge == b.state.knowledge
    assert marked  # the table has marked permanents (protectors), which take the hooks


def test_designated_answers_as_membership() -> None:
    """:func:`core.designated` (an index for a long tuple) is ``mark in designations``,
    whichever tuple was asked before."""
    rng = random.Random(5)
    names = (PROTECTOR + "alice", PROTECTOR + "bob", CRAFTED + "7", "spell_copy")
    for size in (0, 3, 23, 24, 25, 60):
        marks = tuple((rng.choice(names), rng.randrange(40)) for _ in range(size))
        other = (*marks, ("spell_copy", 99))
        for mark in [(n, i) for n in names for i in range(40)] + [("spell_copy", 99)]:
            assert core.designated(marks, mark) == (mark in marks)
            assert core.designated(other, mark) == (mark in other)


def test_dropping_answers_as_the_plain_filter() -> None:
    """:func:`core.dropping` (the values of a long tuple kept in order with its index, that
    :func:`core.adding` extends) drops what the plain filter drops, and gives the tuple
    itself when nothing goes."""
    rng = random.Random(9)
    names = (PROTECTOR + "alice", CRAFTED + "3", "spell_copy")

    def not_crafted(d: tuple[str, int]) -> bool:
        return not d[0].startswith(CRAFTED)

    for size in (0, 1, 5, 23, 24, 25, 40, 80):
        marks = tuple((rng.choice(names), rng.randrange(8)) for _ in range(size))
        grown = core.adding(marks, ("spell_copy", 3), (PROTECTOR + "bob", 9))
        for entries in (marks, grown, marks):
            for x in range(10):
                for keep in (None, not_crafted):
                    got = core.dropping(entries, core.DESIGNATED, x, keep)
                    want = tuple(d for d in entries if d[1] != x or (keep and keep(d)))
                    assert got == want
                    assert (got is entries) == (want == entries)
