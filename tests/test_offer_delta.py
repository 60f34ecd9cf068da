"""A seat's offers found from its latest call (:meth:`obverse.fastoffers.OfferMemo._since`,
issue 22's "cost that follows the change"): the objects the trail names, those whose inputs
changed, the objects whose free-target offers chose one of these and the readers of a
shared set that changed are decided again, the rest kept. Held to the plain definition
along random histories and a search's branches, in every game, on boards of every size
(``DELTA_MIN`` set to 0: small boards take that path too); the work after one change
doesn't grow with the board; :attr:`Ruleset.empty_inputs_stay` holds where it is declared.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obverse import Game
from obverse import fastoffers as fo
from obverse import vocab as v
from obverse.engine import apply, legal_actions, ruleset_of
from obverse.fuzz import card_pool
from obverse.registry import rulesets
from obverse.state import GameObject
from test_offers import ALIASES, _history, search_agrees

#: One alias of every game (a plug-in's too, when installed).
GAMES = sorted({cls.aliases[0] for cls in rulesets()})
#: The aliases whose ruleset declares :attr:`~obverse.rulesets.Ruleset.empty_inputs_stay`.
EMPTY_STAYS = sorted({cls.aliases[0] for cls in rulesets() if cls.empty_inputs_stay})


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_calls_starting_from_the_latest_one_are_the_plain_definition(alias: str, seed: int) -> None:
    """Along a random history (effects that forbid now and then: other globals), one memo
    started from each seat's latest call gives, part for part, the plain definition."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fo, "DELTA_MIN", 0)
        rng = random.Random(seed)
        memo = fo.OfferMemo()
        for i, state in enumerate(_history(alias, seed, 10, n=9)):
            if i % 4 == 3 and state.objects:
                target = rng.choice(sorted(state.objects))
                effect = v.ApplyEffect(label=f"e{i}", to=target, modify={"forbid": ["move"]})
                state = apply(state, effect).state
            for seat in (*state.players, None):
                parts = memo.parts(state, seat)
                assert [x for p in parts for x in p] == legal_actions(state, seat)


def _table(game: str, n: int, seed: int) -> Game:
    """``n`` random bundled cards of ``game``, in play, each player's at random."""
    rng = random.Random(seed)
    g = Game(game, secret=b"d" * 16)
    pool = card_pool(game)
    for _ in range(n):
        g.add(rng.choice(pool), g.ruleset.play_zone, owner=rng.choice(g.state.players))
    return g


@pytest.mark.parametrize("delta_min", [0, fo.DELTA_MIN], ids=["every-board", "large-boards"])
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_search_on_a_large_board_gets_the_plain_definition(
    game: str, seed: int, delta_min: int
) -> None:
    """A search on a board of 150 (:func:`test_offers.search_agrees`, moving on after each
    round), every call starting from the seat's latest (``delta_min`` 0) and as shipped:
    each listing, for the acting seat and the judge, is the plain definition's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fo, "DELTA_MIN", delta_min)
        search_agrees(_table(game, 150, seed), random.Random(seed), move_on=True)


def _hook_calls_after_one_change(n: int) -> int:
    """How many times the ruleset is asked whom a seat may act with, refer to and identify,
    listing alice's offers after one card of ``n`` (hers) moves."""
    g = Game("mtg", secret=b"n" * 16)
    rng = random.Random(5)
    pool = card_pool("mtg")
    cards = [g.add(rng.choice(pool), "battlefield", owner="alice") for _ in range(n)]
    g.legal_actions("alice")
    g.move(cards[n // 2], "graveyard")
    count = 0
    rs = type(g.ruleset)

    def counted(name: str) -> object:
        real = getattr(rs, name)

        def hook(self: object, *args: object) -> object:
            nonlocal count
            count += 1
            return real(self, *args)

        return hook

    with pytest.MonkeyPatch.context() as mp:
        for name in ("may_act", "may_refer", "may_identify"):
            mp.setattr(rs, name, counted(name))
        offers = g.legal_actions("alice")
    assert offers == legal_actions(g.state, "alice", catalog=g.cards)
    return count


def test_after_one_change_the_seat_policy_is_asked_of_what_changed() -> None:
    """Beyond :data:`~obverse.fastoffers.DELTA_MIN` objects, whom the seat may act with,
    refer to and identify is asked again only of the objects the change touched (the
    board isn't walked), on a board of 100 as of 400."""
    small, large = _hook_calls_after_one_change(100), _hook_calls_after_one_change(400)
    assert 0 < large == small


@pytest.mark.parametrize("alias", EMPTY_STAYS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_empty_inputs_stay_empty_while_the_object_is_the_same(alias: str, seed: int) -> None:
    """Where a ruleset declares ``empty_inputs_stay``: an object value whose offers read
    nothing beyond it (``offer_inputs`` is ``()``) reads nothing beyond it in every later
    state of a random history where it is the same object."""
    empty: dict[int, GameObject] = {}
    for state in _history(alias, seed, 10, n=12):
        rs = ruleset_of(state)
        for o in state.objects.values():
            inputs = rs.offer_inputs(state, o)
            was = empty.get(o.id)
            if was is not None and (was is o or was == o):
                assert inputs == (), (o, inputs)
            if inputs == ():
                empty[o.id] = o
