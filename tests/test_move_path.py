"""The move's cheaper paths (issue 22, apply + undo) decide as the plain code does: an MTG
object leaving with nothing for the hooks skips them, and a long designations tuple is asked
through an index of its entries."""

from __future__ import annotations

import random

import pytest

from obverse import state as core
from obverse.bench_node import table
from obverse.rulesets.mtg import Magic
from obverse.rulesets.mtg_craft import CRAFTED
from obverse.rulesets.mtg_permanents import PROTECTOR
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
        a = fast.move_object(state, oid, to)
        b = plain.move_object(state, oid, to)
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
