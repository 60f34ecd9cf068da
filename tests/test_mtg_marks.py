"""MTG's gated move (rulesets/mtg/moves.py) decides as asking every hook does, and its look
at the designations naming a moving object (the index of a long tuple) as the plain scan."""

from __future__ import annotations

import random

import msgspec
import pytest

from obverse import memo
from obverse import vocab as v
from obverse.bench_node import table
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.mtg import Magic
from obverse.rulings import DONE, Outcome
from obverse.state import GameState, marks_naming

replace = msgspec.structs.replace


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


class _PlainMoves(Magic):
    """MTG whose move asks the leaving hook of every object leaving the stack or battlefield
    and the moved hook of every object moved from or onto it (the code before the gates)."""

    def move_object(
        self,
        state: GameState,
        a: v.Move,
        *,
        controller: str | None = None,
        face_fixed: str | None = None,
    ) -> Outcome:
        obj = state.objects[a.object]
        here, to = obj.zone, a.to
        leaves = here in ("battlefield", "stack") and to != here
        enters = to == "battlefield" and here != to
        if not (leaves or enters):
            return Ruleset.move_object(self, state, a, controller=controller, face_fixed=face_fixed)
        first: Rulings = ()
        if leaves:
            state, to, first, done = self.leaving(state, obj, to)
            if done is not None:
                return replace(done, rulings=first + done.rulings)
            a = replace(a, to=to)
        out = Ruleset.move_object(self, state, a, controller=controller, face_fixed=face_fixed)
        if out.result != DONE:
            return replace(out, rulings=first + out.rulings)
        after, more = self.moved(out.state, obj, to)
        return replace(out, state=after, rulings=first + out.rulings + more)


@pytest.mark.parametrize("to", ["graveyard", "exile", "hand", "battlefield"])
def test_the_gated_move_decides_as_asking_every_hook(to: str) -> None:
    """Every permanent of a random table (protectors, and marks each leaving hook has a say
    about put on some), moved to ``to`` with the gates and with every hook asked: the same
    result, rulings, events and state."""
    game, ids = table("mtg", 60, seed=11)
    state = game.state
    rng = random.Random(3)
    extra = ("spell_copy", "cast_disturbed", "crafted_with:5", "cast_from_graveyard", "x")
    added = tuple((rng.choice(extra), state.card_object[c]) for c in ids if rng.random() < 0.3)
    state = replace(state, designations=(*state.designations, *added))
    fast, plain = Magic(), _PlainMoves()
    for card in ids:
        oid = state.card_object[card]
        a = fast.move_object(state, v.Move(object=oid, to=to))
        b = plain.move_object(state, v.Move(object=oid, to=to))
        assert (a.result, a.rulings, a.events) == (b.result, b.rulings, b.events)
        assert a.state == b.state
        assert a.state.designations == b.state.designations
