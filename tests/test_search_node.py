"""A search node: states travel (pickle, deep copy) whatever their history's length, a Game
copies into an independent one, and the verb table ``Game.do`` reads is built once."""

from __future__ import annotations

import copy
import pickle

import msgspec
import pytest

from obverse import Game, view
from obverse import state as core
from obverse.rulesets.base import Ruleset


def _long_game(actions: int) -> Game:
    """A game whose state has ``actions`` core edits behind it (each a trail link, as an
    action's are), built with the edit itself: cheap at 100,000."""
    game = Game("mtg", secret=b"search node key!")
    delver = game.add("Delver of Secrets", zone="battlefield")
    game.transform(delver)
    obj = game.obj(delver)
    state = game.state
    for i in range(actions):
        state = core.update(state, msgspec.structs.replace(obj, timestamp=i))
    game.state = state
    return game


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_state_with_100000_actions_behind_it_travels(how: str) -> None:
    game = _long_game(100_000)
    state = game.state
    assert state.trail.depth > 100_000
    if how == "pickle":
        loaded = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    else:
        loaded = copy.deepcopy(state)
    assert loaded == state
    assert loaded.objects is not state.objects
    assert view(loaded, "bob") == view(state, "bob")
    # Play goes on from the copy, and the view after one more action is the true one.
    twin = Game("mtg", secret=state.secret)
    twin.state = loaded
    card = next(iter(loaded.card_object))
    twin.transform(card)
    game.transform(card)
    assert twin.state == game.state
    assert view(twin.state, "alice") == view(game.state, "alice")


def test_a_loaded_state_views_incrementally_only_along_its_own_line() -> None:
    """A loaded state's trail is its own fresh start: from it a view sees what changed;
    between two states loaded apart it sees no common history (a full rebuild)."""
    from obverse.views import changed_objects

    game = _long_game(10)
    a = pickle.loads(pickle.dumps(game.state))
    b = pickle.loads(pickle.dumps(game.state))
    oid = next(iter(a.objects))
    after = core.update(a, a.objects[oid])
    assert changed_objects(a, after) == {oid}
    assert changed_objects(b, after) is None


def test_game_copy_is_independent_with_the_same_state_and_history() -> None:
    game = Game("mtg", secret=b"copy key........")
    delver = game.add("Delver of Secrets", zone="battlefield")
    game.transform(delver)
    twin = game.copy()
    assert twin.state is game.state
    assert [o.state for o in twin.history] == [o.state for o in game.history]
    twin.move(delver, "graveyard")
    assert game.obj(delver).zone == "battlefield"
    assert twin.obj(delver).zone == "graveyard"
    game.undo()
    assert game.characteristics(delver).props.name == "Delver of Secrets"
    assert len(twin.history) == 2
    twin.undo()
    assert twin.characteristics(delver).props.name == "Insectile Aberration"
    assert copy.copy(game).state is game.state


def test_game_do_builds_its_verb_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("fab", secret=b"verb table key..")
    card = game.add("Enlightened Strike", zone="hand", owner="alice")
    game.move(card, "graveyard")  # the first move of a kind finds its route once
    calls: list[int] = []
    real = Ruleset.vocabulary.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Ruleset]) -> object:
        calls.append(1)
        return real(cls)

    monkeypatch.setattr(Ruleset, "vocabulary", classmethod(counted))
    game.move(card, "hand")
    game.move(card, "graveyard")
    assert game.obj(card).zone == "graveyard"
    assert game.ruleset.action_class("no such verb") is None
    assert calls == []


def test_game_copy_at_a_state_starts_a_history_of_its_own() -> None:
    game = Game("mtg", secret=b"copy root key...")
    delver = game.add("Delver of Secrets", zone="battlefield")
    game.transform(delver)
    root = game.copy(state=game.history[0].state)
    assert root.history == [] and root.state is game.state
    root.move(delver, "graveyard")
    root.undo()
    with pytest.raises(IndexError):
        root.undo()  # never back past its root to a state of the game it came from
    assert root.state is game.state and len(game.history) == 1


def test_fab_move_and_put_under_read_the_sub_cards_not_the_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3.0.14c/e through the sub-card zones alone: with every object's walk forbidden, a
    put-under brings the top-card's sub-cards along (alice's under bob's permanent too),
    and when the top-card leaves the arena its sub-cards are cleared."""
    game = Game("fab", secret=b"sub-cards key...")
    top = game.add("Dawnblade", zone="arena", owner="bob")
    inner = game.add("Dawnblade", zone="arena", owner="alice")
    part = game.add("Snatch", zone="hand", owner="alice")
    board = [game.add("Snatch", zone="arena", owner="bob") for _ in range(3)]

    def no_walk(self: object) -> None:
        raise AssertionError("a move walked every object")

    monkeypatch.setattr(core.GameState, "iter_objects", no_walk)
    assert game.do("put_under", object=part, top=inner).result == "done"
    assert game.do("put_under", object=inner, top=top).result == "done"
    assert game.obj(part).under == game.obj(top).id == game.obj(inner).under
    out = game.move(top, "graveyard")
    assert "3.0.14e" in out.cites
    assert game.obj(part).zone == game.obj(inner).zone == "graveyard"
    assert game.obj(part).under is None and game.obj(inner).under is None
    assert all(game.obj(c).zone == "arena" for c in board)
