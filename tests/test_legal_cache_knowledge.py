"""The legal-action cache reads knowledge and designations per object: a reveal or an
examine makes only the candidates that asked about that object (or its card) stale, and the
cached lists stay exactly the tried ones along random histories of every game."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

import pytest

from obverse import Game
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.engine import LegalCache, apply, decode, legal_actions
from obverse.fuzz import random_deal
from obverse.play import random_step
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets import Ruleset
from obverse.rulings import NOTHING, Outcome
from obverse.state import (
    KNOWN_LASTING,
    KNOWN_OBJ,
    GameState,
    Knowledge,
    adding,
    dropping,
    mentions,
    new_state,
)
from toy_game import Tap, Toy

ALIASES = [cls.aliases[0] for cls in rulesets()]
LANTERN = CardDef(name="Lantern", faces=(Face(name="Lantern", types=("Gadget",)),))
#: The verbs that add, drop or reorder knowledge and designations, drawn often.
KNOWLEDGE_VERBS = (
    *("examine", "reveal", "look", "shuffle", "turn_face_down", "turn_face_up", "move"),
    *("allow_play", "end_turn"),
)


def _only(action: v.Action) -> Callable[[v.Action], bool]:
    return lambda a: a == action


def _game() -> tuple[Game, list[int]]:
    game = Game("mtg")
    cards = [game.add(n, zone="hand") for n in ("Delver of Secrets", "Serra Angel", "Clone")]
    cards.append(game.add("Elite Vanguard", zone="battlefield"))
    cards.append(game.add("Air Elemental", zone="library", owner="bob"))
    return game, cards


@pytest.mark.parametrize("verb", ["examine", "reveal"])
def test_new_knowledge_of_one_object_leaves_the_others_candidates_cached(verb: str) -> None:
    game, cards = _game()
    cache = LegalCache()
    legal_actions(game.state, None, cache=cache)
    if verb == "examine":
        assert game.examine("alice", cards[0]).result == "done"
    else:
        assert game.reveal(cards[0]).result == "done"
    assert game.state.knowledge  # it added knowledge of cards[0]
    unrelated = v.Move(object=game.obj(cards[1]).id, to="graveyard")
    known = v.Move(object=game.obj(cards[0]).id, to="graveyard")
    tried = cache.tried
    found = legal_actions(game.state, None, where=_only(unrelated), cache=cache)
    assert [legal.action for legal in found] == [unrelated]
    assert cache.tried == tried  # reused: its trial asked only about its own object
    found = legal_actions(game.state, None, where=_only(known), cache=cache)
    assert [legal.action for legal in found] == [known]
    assert cache.tried == tried + 1  # tried again: its trial asked about the known object
    for actor in (None, "alice", "bob"):
        assert legal_actions(game.state, actor, cache=cache) == legal_actions(game.state, actor)


def test_a_reveal_changes_what_a_cached_player_may_name() -> None:
    """Bob may name alice's hand card once it is revealed to him, and may not once it moved
    on: the cached actor checks that refused it (or allowed it) are asked again."""
    game, cards = _game()
    cache = LegalCache()
    hidden = v.Move(object=game.obj(cards[0]).id, to="graveyard")
    before = legal_actions(game.state, "bob", cache=cache)
    assert hidden not in [legal.action for legal in before]
    game.reveal(cards[0], to=("bob",))
    after = legal_actions(game.state, "bob", cache=cache)
    assert hidden in [legal.action for legal in after]
    assert after == legal_actions(game.state, "bob")
    game.move(cards[0], "library")  # hidden again, and a new object: the knowledge ends
    moved = v.Move(object=game.obj(cards[0]).id, to="graveyard")
    later = legal_actions(game.state, "bob", cache=cache)
    assert moved not in [legal.action for legal in later]
    assert later == legal_actions(game.state, "bob")


def test_a_reveal_a_candidate_already_did_is_no_longer_offered() -> None:
    game, cards = _game()
    cache = LegalCache()
    reveal = v.Reveal(object=game.obj(cards[1]).id)
    assert reveal in [legal.action for legal in legal_actions(game.state, None, cache=cache)]
    game.reveal(cards[1])
    listed = legal_actions(game.state, None, cache=cache)
    assert reveal not in [legal.action for legal in listed]  # a stale entry would offer it
    assert listed == legal_actions(game.state, None)


def test_an_effect_letting_one_card_be_played_leaves_the_others_cached() -> None:
    """FaB: "you may play it" is a designation; alice's candidates on her other hidden card
    are reused, those on the designated one are asked again (she may now name it)."""
    game = Game("fab")
    game.add("Kano, Dracai of Aether", zone="hero")
    deck = [game.obj(game.add("Snatch", zone="deck")).id for _ in range(2)]
    cache = LegalCache()
    legal_actions(game.state, None, cache=cache)
    before = [legal.action for legal in legal_actions(game.state, "alice", cache=cache)]
    assert not any(deck[0] in a.object_ids() for a in before)
    assert game.do("allow_play", player="alice", object=deck[0]).result == "done"
    tried = cache.tried
    after = legal_actions(game.state, "alice", cache=cache)
    assert any(deck[0] in legal.action.object_ids() for legal in after)
    assert after == legal_actions(game.state, "alice")
    other = v.Move(object=deck[1], to="graveyard")
    again = cache.tried
    legal_actions(game.state, None, where=_only(other), cache=cache)
    assert again > tried and cache.tried == again  # the other card's trial was kept


class Hushed(Toy):
    """The toy game, but nothing taps while anyone knows a hidden card (a rule that asks
    whether there is any knowledge at all)."""

    aliases: ClassVar[tuple[str, ...]] = ("toy-hushed",)

    def tap(self, state: GameState, a: Tap) -> Outcome:
        """Nothing happens while any knowledge is kept; else the toy's tap."""
        if state.knowledge:
            return Outcome(state, NOTHING, (self.ruling("T2", "someone knows a card"),))
        return super().tap(state, a)


@pytest.fixture
def hushed(register: Callable[[type[Ruleset]], Ruleset]) -> Ruleset:
    """The Hushed ruleset registered in-process (see conftest's ``register``)."""
    return register(Hushed)


def test_a_rule_asking_whether_anything_is_known_is_asked_again(hushed: Ruleset) -> None:
    """The first knowledge, and the last one going, change a candidate that asked whether
    there was any: the cached list follows (a stale one would keep offering the tap)."""
    state = new_state(hushed.name, ("alice", "bob"))
    state, on_table = hushed.add_card(state, LANTERN, "table", owner="alice")
    state, in_hand = hushed.add_card(state, LANTERN, "hand", owner="alice")
    tap = Tap(object=state.card_object[on_table])
    cache = LegalCache()
    assert tap in [legal.action for legal in legal_actions(state, None, cache=cache)]
    state = apply(state, v.Reveal(object=state.card_object[in_hand])).state
    listed = legal_actions(state, None, cache=cache)
    assert tap not in [legal.action for legal in listed]
    assert listed == legal_actions(state, None)
    state = apply(state, v.Move(object=state.card_object[in_hand], to="pile")).state
    assert not state.knowledge  # it moved on: what was revealed of it ends
    listed = legal_actions(state, None, cache=cache)
    assert tap in [legal.action for legal in listed]
    assert listed == legal_actions(state, None)


def _knowledge_step(state: GameState, rng: random.Random) -> GameState:
    """One random step, half the time of a verb that touches knowledge or designations (an
    effect's "you may play it", never offered, is applied by hand)."""
    own = {v.verb_of(c) for c in get_ruleset(state.ruleset).vocabulary()}
    if "allow_play" in own and state.objects and rng.random() < 0.2:
        data = {"verb": "allow_play", "player": rng.choice(state.players)}
        action = decode({**data, "object": rng.choice(sorted(state.objects))}, state)
        return apply(state, action).state
    verbs = None
    if rng.random() < 0.5:
        verbs = [rng.choice([verb for verb in KNOWLEDGE_VERBS if verb in own])]
    _action, done = random_step(state, rng, verbs=verbs)
    return done.state if done is not None else state


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize("seed", [3, 11])
def test_cached_lists_equal_tried_lists_along_knowledge_histories(alias: str, seed: int) -> None:
    rng = random.Random(seed)
    state = random_deal(alias, rng, n=8)
    cache = LegalCache()
    actors: list[str | None] = [*state.players, None]
    touched = 0
    for _ in range(14):
        for actor in actors:
            assert legal_actions(state, actor, cache=cache) == legal_actions(state, actor)
        before = (state.knowledge, state.designations)
        state = _knowledge_step(state, rng)
        touched += before != (state.knowledge, state.designations)
    assert cache.reused > 0
    assert touched > 0  # the history did change knowledge or designations


def test_the_helpers_answer_as_the_plain_expressions() -> None:
    seen = (
        Knowledge(player="alice", card=1, obj=1),
        Knowledge(player="bob", card=2, obj=2, lasting=True),
        Knowledge(player="alice", card=2, obj=2),
    )
    assert mentions(seen, KNOWN_OBJ, 2) and not mentions(seen, KNOWN_OBJ, 3)
    assert dropping(seen, KNOWN_OBJ, 3) is seen  # nothing goes: the same tuple
    assert dropping(seen, KNOWN_OBJ, 2) == seen[:1]
    assert dropping(seen, KNOWN_OBJ, 2, KNOWN_LASTING) == seen[:2]
    kept = seen[:2]
    assert dropping(kept, KNOWN_OBJ, 2, KNOWN_LASTING) is kept  # its entry of 2 is lasting
    assert adding(seen[:1], *seen[1:]) == seen
