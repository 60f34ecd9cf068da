"""Flesh and Blood's move decided cheaply (issue 22, apply + undo): :meth:`FabArena.move_object`
returns the kernel's move as it is when no sub-card is anywhere and nothing entered the arena,
and calls :meth:`Ruleset.move_object` by name; each decides as the whole procedure does."""

from __future__ import annotations

import random

import pytest

from obverse import vocab as v
from obverse.errors import ObverseError
from obverse.fuzz import card_pool
from obverse.game import Game
from obverse.rulesets.base import Ruleset
from obverse.rulesets.fab import FleshAndBlood, PutUnder
from obverse.rulesets.fab import arena as fab_arena
from obverse.rulesets.fab.arena import SUB_CARDS, FabArena
from obverse.state import GameState

#: Where the random tables' cards start, and how many each.
_START = (("arena", 10), ("hand", 4), ("graveyard", 2), ("deck", 2), ("stack", 2), ("hero", 1))


def _table(seed: int) -> GameState:
    """Random bundled cards in the arena and elsewhere; with an odd seed, two of them put
    under permanents (sub-cards, 3.0.14)."""
    rng = random.Random(seed)
    g = Game("fab", secret=b"fab moves")
    pool = card_pool("fab")
    for zone, n in _START:
        for _ in range(n):
            g.add(rng.choice(pool), zone, owner=rng.choice(g.state.players))
    if seed % 2:
        arena = [o.id for o in g.state.iter_objects() if o.zone == "arena"]
        for oid, top in ((arena[0], arena[1]), (arena[2], arena[1])):
            g.apply(PutUnder(object=oid, top=top))
        assert any(o.zone == SUB_CARDS for o in g.state.iter_objects())
    return g.state


def _outcome(rs: Ruleset, state: GameState, a: v.Move) -> object:
    try:
        out = rs.move(state, a)
    except ObverseError as e:
        return type(e), str(e)
    s = out.state
    return out.result, out.rulings, out.events, s, sorted(s.objects.items()), s.designations


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_move_returned_early_decides_as_the_whole_procedure(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every object of a random table moved to every zone: with the early return, and with
    no sub-card check ever answering "none" (the whole procedure: 3.0.14c, 3.0.14e), the
    same result, rulings, events and state."""
    state = _table(seed)
    rs = FleshAndBlood()
    hows: list[dict[str, object]] = [{}, {"face_down": True}, {"face": "back"}]
    moves = [
        v.Move(object=oid, to=to, **how)  # type: ignore[arg-type]
        for oid in sorted(state.objects.keys())
        for to in sorted(rs.zones)
        for how in hows
    ]
    fast = [_outcome(rs, state, a) for a in moves]
    monkeypatch.setattr(fab_arena, "_no_sub_cards", lambda state: False)
    plain = [_outcome(rs, state, a) for a in moves]
    for a, f, p in zip(moves, fast, plain, strict=True):
        assert f == p, a


def test_the_named_call_skips_no_override() -> None:
    """``FabArena.move_object`` calls :meth:`Ruleset.move_object` by name: no class between
    them in FleshAndBlood's order has its own (a new one must be called there instead)."""
    mro = FleshAndBlood.__mro__
    between = mro[mro.index(FabArena) + 1 : mro.index(Ruleset)]
    assert [c.__name__ for c in between if "move_object" in vars(c)] == []
