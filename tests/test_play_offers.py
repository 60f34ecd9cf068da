"""What random play keeps between draws and how it asks for candidates: the per-verb
generator tables (:attr:`Offers.object_offers`), the objects in table order, and the
knowledge scan of :func:`obverse.state.dropping` its procedures lean on."""

from __future__ import annotations

import operator
import random

from obverse import vocab as v
from obverse.engine import apply
from obverse.fuzz import random_deal
from obverse.play import random_step
from obverse.registry import get_ruleset
from obverse.rulesets.offers import objects_in_order
from obverse.state import GameObject, GameState, dropping
from toy_game import Tap, Toy


def _played(alias: str, steps: int, seed: int = 2, cards: int = 16) -> GameState:
    rng = random.Random(seed)
    state = random_deal(alias, rng, cards)
    for _ in range(steps):
        out = random_step(state, rng)[1]
        state = out.state if out is not None else state
    return state


def test_the_objects_in_order_follow_each_objects_map() -> None:
    """Kept for the last map only: a new map (an object moved, a new one made) is read
    afresh, and going back to an earlier state gives that state's objects again."""
    state = _played("mtg", 10)
    before = objects_in_order(state)
    assert before == tuple(state.objects.values())
    assert objects_in_order(state) is before  # the same map: kept
    moved = apply(state, v.Move(object=before[0].id, to="exile")).state
    after = objects_in_order(moved)
    assert after == tuple(moved.objects.values())
    assert before[0] not in after and len(after) == len(before)
    assert objects_in_order(state) == before  # an earlier map again: its own objects


def test_a_subclass_overriding_a_generator_gets_its_own_table() -> None:
    base = get_ruleset("mtg")
    state = _played("mtg", 6)
    o = next(iter(state.objects.values()))

    class NoFlips(type(base)):  # type: ignore[misc]
        def _offer_flip(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
            return []

    assert base.candidates_on(state, None, o, "flip")
    assert NoFlips().candidates_on(state, None, o, "flip") == []
    assert not any(a.verb == "flip" for a in NoFlips().candidates(state, None))
    assert base.candidates_on(state, None, o, "flip")  # the parent keeps its own


def test_an_object_candidates_override_is_asked_for_each_verb() -> None:
    """A game extending ``object_candidates`` itself (the toy game's tap), not the table,
    still has its candidates drawn: random play asks the override for the drawn verb."""
    rs = Toy()
    state = _played("mtg", 0, cards=4)  # any objects: the toy game offers a tap on each
    for o in state.objects.values():
        assert rs.candidates_on(state, None, o, "tap") == [Tap(object=o.id)]
        drawn = rs.draw_on(state, None, o, "tap", random.Random(1))
        assert drawn == Tap(object=o.id)
    assert rs.candidates_on(state, None, o, "no_such_verb") == []


def test_a_verb_outside_the_vocabulary_is_never_offered() -> None:
    """FaB has no transform verb: the shared transform generator is left out of its table."""
    for alias in ("fab", "ga", "scp"):
        rs = get_ruleset(alias)
        state = _played(alias, 4)
        verbs = {v.verb_of(c) for c in rs.vocabulary()}
        offered = {a.verb for p in (*state.players, None) for a in rs.candidates(state, p)}
        assert offered <= verbs, alias


def test_dropping_keeps_exactly_the_entries_not_naming_x_save_those_kept() -> None:
    field, flag = operator.itemgetter(0), operator.itemgetter(1)
    rng = random.Random(1)
    for _ in range(3000):
        entries = tuple((rng.randrange(4), rng.random() < 0.5) for _ in range(rng.randrange(12)))
        x = rng.randrange(5)
        for keep in (None, flag):
            expected = tuple(e for e in entries if e[0] != x or (keep is not None and keep(e)))
            got = dropping(entries, field, x, keep)
            assert got == expected
            if expected == entries:
                assert got is entries  # nothing goes: the very tuple
