"""Grand Archive's move decided once (issue 22, apply + undo): :class:`GrandArchive`'s ``move``
and ``move_object`` skip the seams' overrides that have nothing to say about a move, and decide
as going through every one of them does."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.errors import ObverseError
from obverse.fuzz import card_pool
from obverse.game import Game
from obverse.rulesets.base import Ruleset
from obverse.rulesets.ga import GrandArchive
from obverse.rulesets.ga.keywords import Keywords
from obverse.rulesets.ga.lineage import Lineages
from obverse.rulesets.ga.objects import EPHEMERAL, FieldObjects
from obverse.rulesets.ga.pantheon import LOADED, LOADED_MARK, Load, Pantheon
from obverse.rulesets.ga.status import LINK, Statuses
from obverse.rulings import Outcome
from obverse.state import GameState, Knowledge


class _Chained(GrandArchive):
    """GA whose moves go through every seam's override (the plain code)."""

    def move(self, state: GameState, a: v.Move) -> Outcome:
        return super(GrandArchive, self).move(state, a)

    def move_object(self, state: GameState, a: v.Move, **how: Any) -> Outcome:
        return super(GrandArchive, self).move_object(state, a, **how)


def _ally(name: str, ability: str) -> CardDef:
    return CardDef(name=name, faces=(Face(name=name, types=("ALLY",), abilities=(ability,)),))


def _table(seed: int, links: bool) -> GameState:
    """A random table: the sample cards (regalia, champions, double-faced) and a Preserve and
    an immortal ally, on the field and elsewhere, a loaded card, ephemeral objects, and
    (``links``) a link designation."""
    rng = random.Random(seed)
    g = Game("ga", secret=b"ga moves")
    pool = [*card_pool("ga"), _ally("Keeper", "Preserve"), _ally("Undying", "Immortality")]
    ids = [g.add(rng.choice(pool), "field", owner=rng.choice(g.state.players)) for _ in range(24)]
    for zone in ("hand", "graveyard", "memory", "banishment", "material_deck"):
        for _ in range(3):
            g.add(rng.choice(pool), zone, owner=rng.choice(g.state.players))
    loaded = g.add(rng.choice(pool), "hand", owner="alice")
    g.apply(Load(object=g.obj(loaded).id, into=g.obj(ids[0]).id))
    assert g.obj(loaded).zone == LOADED
    state = g.state
    marks = [(EPHEMERAL, state.card_object[c]) for c in ids[1:4]]
    if links:
        marks.append((f"{LINK}{state.card_object[ids[5]]}", state.card_object[ids[6]]))
    return msgspec.structs.replace(state, designations=(*state.designations, *marks))


def _outcome(rs: Ruleset, state: GameState, a: v.Move) -> object:
    try:
        out = rs.move(state, a)
    except ObverseError as e:
        return type(e), str(e)
    return out.result, out.rulings, out.events, out.state, out.state.knowledge


#: The ways a move is asked: plainly, face down, transformed, on a face.
_HOW: list[dict[str, Any]] = [{}, {"face_down": True}, {"transformed": True}, {"face": "back"}]


@pytest.mark.parametrize(("seed", "links"), [(1, False), (2, True), (3, False)])
def test_a_move_skipping_the_seams_decides_as_going_through_them(seed: int, links: bool) -> None:
    """Every object of a random table moved to every zone, by GA and by GA going through
    every seam's ``move`` and ``move_object``: the same result, rulings, events and state."""
    state = _table(seed, links)
    fast, plain = GrandArchive(), _Chained()
    assert (LOADED_MARK, state.card_object[1]) in state.designations
    for oid in list(state.objects.keys()):
        for to in sorted(fast.zones):
            for how in _HOW:
                a = v.Move(object=oid, to=to, **how)
                assert _outcome(fast, state, a) == _outcome(plain, state, a), (oid, to, how)


def test_the_fast_paths_know_every_override() -> None:
    """The seams overriding ``move`` and ``move_object`` are the ones the fast paths skip
    past: a new override must be added to their decision (then to this list)."""
    mro = GrandArchive.__mro__
    assert [c for c in mro if "move" in vars(c)] == [GrandArchive, Statuses, Keywords, Ruleset]
    assert [c for c in mro if "move_object" in vars(c)] == [
        GrandArchive,
        Pantheon,
        Lineages,
        FieldObjects,
        Ruleset,
    ]


def _remembered(rs: GrandArchive, state: GameState, old: Any) -> GameState:
    """6.1.1 read plainly: each player who could look at ``old`` and keeps no lasting
    knowledge of its card yet knows it, as the object the card became."""
    card = old.card
    have = {k.player for k in state.knowledge if k.lasting and k.card == card}
    new_obj = state.card_object.get(card, old.id)
    extra = [
        Knowledge(player=p, card=card, obj=new_obj, lasting=True)
        for p in state.players
        if p not in have and rs.may_look(state, p, old)
    ]
    return msgspec.structs.replace(state, knowledge=(*state.knowledge, *extra)) if extra else state


@pytest.mark.parametrize("seed", [4, 5])
def test_the_common_moves_knowledge_is_remembered_as_the_general_path_does(seed: int) -> None:
    """``after_move`` remembers what 6.1.1 says (each player who could look at the card,
    unless they know it already), of the object the card became (the one the move names,
    :func:`_remembered` looks it up), for moves face up and face down, known cards or not."""
    rs = GrandArchive()
    state = _table(seed, False)
    rng = random.Random(seed)
    for _ in range(120):
        obj = state.objects[rng.choice(list(state.objects.keys()))]
        a = v.Move(object=obj.id, to=rng.choice(sorted(rs.zones)), **rng.choice(_HOW))
        try:
            out = rs.move(state, a)
        except ObverseError:
            continue
        after = out.state
        new = after.object_of_card(obj.card)
        if new is None or new.id not in after.objects or out.result != "done":
            continue
        assert after.card_object[new.cards[0]] == new.id
        # The state before after_move: the move's knowledge taken out again.
        before = msgspec.structs.replace(after, knowledge=state.knowledge)
        assert rs.after_move(before, obj, new) == _remembered(rs, before, obj)
        state = after
