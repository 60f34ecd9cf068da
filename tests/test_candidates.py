"""Candidates per verb and per object: the whole list is their union, and random play draws
lazily from them (a verb, an object, that object's candidates for the verb)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from obverse import vocab as v
from obverse.engine import apply, legal_actions
from obverse.fuzz import random_deal
from obverse.play import _offered, random_action, random_step
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets import Ruleset
from obverse.rulings import DONE
from obverse.serialize import dumps, loads
from obverse.state import GameObject, GameState
from toy_game import Tap

ALIASES = [cls.aliases[0] for cls in rulesets()]


def _states(alias: str, count: int = 4, cards: int = 14) -> list[GameState]:
    """Seeded random deals of ``alias``, each played on for a few random steps."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        state = random_deal(alias, rng, cards)
        for _ in range(seed * 6):
            _action, done = random_step(state, rng)
            state = done.state if done is not None else state
        out.append(state)
    return out


def _verbs(rs: Ruleset) -> list[tuple[str, bool]]:
    return [(v.verb_of(cls), bool(cls.refs)) for cls in rs.vocabulary()]


def _union(rs: Ruleset, state: GameState, player: str | None) -> list[v.Action]:
    """Every per-verb generator of actions naming no object, and every per-object one."""
    out: list[v.Action] = []
    for verb, names_object in _verbs(rs):
        if not names_object:
            out += rs.candidates(state, player, verb)
            continue
        for o in state.iter_objects():
            found = rs.candidates_on(state, player, o, verb)
            assert all(a.verb == verb and a.object_ids()[0] == o.id for a in found), (verb, o.id)
            out += found
    return out


def _key(actions: list[v.Action]) -> Counter[str]:
    return Counter(repr(a) for a in actions)


@pytest.mark.parametrize("alias", ALIASES)
def test_the_whole_list_is_the_union_of_the_per_verb_per_object_generators(alias: str) -> None:
    rs = get_ruleset(alias)
    for state in _states(alias):
        for player in (*state.players, None):
            whole = rs.candidates(state, player)
            assert whole and whole[0] == v.EndTurn()
            assert _key(_union(rs, state, player)) == _key(whole)


@pytest.mark.parametrize("alias", ALIASES)
def test_a_verb_filter_keeps_that_verbs_candidates_in_the_same_order(alias: str) -> None:
    rs = get_ruleset(alias)
    for state in _states(alias, count=3):
        for player in (*state.players, None):
            whole = rs.candidates(state, player)
            for verb, _ in _verbs(rs):
                assert rs.candidates(state, player, verb) == [a for a in whole if a.verb == verb]
            for o in state.iter_objects():
                every = rs.object_candidates(state, player or o.owner, o)
                for verb in {a.verb for a in every}:
                    mine = [a for a in every if a.verb == verb]
                    assert rs.object_candidates(state, player or o.owner, o, verb) == mine


@pytest.mark.parametrize("alias", ALIASES)
def test_an_acting_filter_keeps_the_candidates_on_the_objects_it_passes_in_order(
    alias: str,
) -> None:
    rs = get_ruleset(alias)
    for state in _states(alias, count=3):
        for player in (*state.players, None):
            whole = rs.candidates(state, player)
            for parity in (0, 1):

                def acting(o: GameObject, parity: int = parity) -> bool:
                    return o.id % 2 == parity

                kept = [a for a in whole if not a.object_ids() or a.object_ids()[0] % 2 == parity]
                assert rs.candidates(state, player, acting=acting) == kept
                assert any(a.object_ids() for a in kept) or not state.objects


def test_no_candidates_on_an_object_the_player_cant_identify() -> None:
    rs = get_ruleset("mtg")
    state = next(s for s in _states("mtg", 8, 20) if s.zone_contents("bob:library"))
    hidden = state.objects[state.zone_contents("bob:library")[0]]
    assert not rs.may_refer(state, "alice", hidden)
    for verb, _ in _verbs(rs):
        assert rs.candidates_on(state, "alice", hidden, verb) == []
    assert rs.candidates_on(state, None, hidden, "move")  # the rules themselves may


@pytest.mark.parametrize("alias", ALIASES)
def test_random_draws_reach_every_candidate_and_every_verb(alias: str) -> None:
    rs = get_ruleset(alias)
    state = random_deal(alias, random.Random(3), 3)
    every = {repr(a) for p in (*state.players, None) for a in rs.candidates(state, p)}
    rng = random.Random(11)
    drawn = {repr(random_action(state, rng, rs, legal=False)) for _ in range(40_000)}
    assert drawn == every  # legal=False: any candidate, each with a chance


def test_legal_draws_are_done_and_are_the_judges_offers() -> None:
    rs = get_ruleset("mtg")
    state = random_deal("mtg", random.Random(4), 2)
    legal = {repr(a) for x in legal_actions(state, None) for a in x.expand()}
    rng = random.Random(2)
    drawn = set()
    for _ in range(6_000):
        action, out = random_step(state, rng, rs)
        assert out is not None and out.result == DONE
        assert out == apply(state, action)  # the outcome found is the rules' own
        drawn.add(repr(action))
    assert drawn <= legal and len(drawn) > len(legal) / 3


def test_seeded_draws_repeat_and_dont_depend_on_how_the_state_was_built() -> None:
    state = _states("mtg", 3, 20)[2]
    copy = loads(dumps(state))
    assert copy == state and copy.objects is not state.objects
    first = [random_action(state, random.Random(s)) for s in range(200)]
    assert [random_action(copy, random.Random(s)) for s in range(200)] == first
    assert len({repr(a) for a in first}) > 20


def test_verbs_restrict_the_draw_and_no_draw_left_ends_the_turn() -> None:
    state = _states("mtg", 2, 20)[1]
    rng = random.Random(5)
    moves = [random_action(state, rng, verbs=("move",)) for _ in range(50)]
    assert {a.verb for a in moves} == {"move"}
    assert random_action(state, rng, tries=0) == v.EndTurn()
    assert random_action(state, rng, verbs=("no_such_verb",)) == v.EndTurn()
    assert random_step(state, rng, tries=0)[1] == apply(state, v.EndTurn())


def test_the_union_holds_where_a_player_cant_refer_to_some_objects_in_play() -> None:
    """No built-in game hides a permanent from a player's references; a game that does
    still offers each pair (become a copy) only between objects the player may name."""

    class Shy(type(get_ruleset("mtg"))):  # type: ignore[misc]
        def may_refer(self, state: GameState, actor: str, obj: object) -> bool:
            return actor != "alice" or getattr(obj, "id", 0) % 3 != 0

    rs = Shy()
    offered = 0  # some state offers alice pairs (a random deal may leave one without any)
    for state in _states("mtg", 4, 24):
        for player in (*state.players, None):
            whole = rs.candidates(state, player)
            assert _key(_union(rs, state, player)) == _key(whole)
        if not any(a.verb == "become_copy" for a in rs.candidates(state, None)):
            continue
        offered += 1
        copies = rs.candidates(state, "alice", "become_copy")
        offered += len(copies)
        assert not any(i % 3 == 0 for a in copies for i in a.object_ids())
    assert offered


@pytest.mark.parametrize("alias", ["mtg", "fab", "ga", "scp"])
def test_a_draw_on_an_object_is_one_of_its_candidates_and_reaches_each(alias: str) -> None:
    rs = get_ruleset(alias)
    state = _states(alias, 3, 10)[2]
    rng = random.Random(1)
    for player in (*state.players, None):
        for o in state.iter_objects():
            for verb in ("become_copy", "move", "examine"):
                pool = {repr(a) for a in rs.candidates_on(state, player, o, verb)}
                drawn = {repr(rs.draw_on(state, player, o, verb, rng)) for _ in range(300)}
                assert drawn - {"None"} == pool  # each candidate, and nothing else


def test_tables_kept_per_ruleset_class_follow_each_subclass() -> None:
    """The sorted zones, the verbs naming objects and random play's verbs are kept per class:
    a subclass with another zone and another verb gets its own, the parent keeps its."""
    base = get_ruleset("mtg")
    state = _states("mtg", 1, 12)[0]
    before = {repr(a) for a in base.candidates(state, None)}
    assert ("tap", True) not in _offered(base, None)

    class Wider(type(base)):  # type: ignore[misc]
        zones = base.zones | {"attic"}
        actions = (*base.actions, Tap)

    wide = Wider()
    moves = wide.candidates(state, None, "move")
    assert {a.to for a in moves if isinstance(a, v.Move)} >= {"attic"}
    assert ("tap", True) in _offered(wide, None)
    assert ("tap", True) not in _offered(base, None)
    assert {repr(a) for a in base.candidates(state, None)} == before


@pytest.mark.parametrize("alias", ALIASES)
def test_first_object_id_is_the_first_of_object_ids(alias: str) -> None:
    """The legal-action cache files an offer under ``first_object_id``: it must be the first
    id ``object_ids`` lists, for every candidate of every game (one field, several, none)."""
    rs, names = get_ruleset(alias), Counter[int]()
    # Eight deals: SCP's players act only with their own objects (600.1), so its random
    # play reaches two objects on the site later than the other games do.
    for state in _states(alias, count=8):
        for a in rs.candidates(state, None):
            ids = a.object_ids()
            assert a.first_object_id() == (ids[0] if ids else None), a
            names[len(ids)] += 1
    assert names[0] and names[1] and names[2], names  # none, one and several objects named
