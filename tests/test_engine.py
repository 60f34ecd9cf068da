"""The kernel's entry point: through ``Game`` and ``apply`` the checks behave exactly as in
scenarios (forbid, search, names, references an actor may make), legal actions apply, and
the action vocabulary has one declaration and a JSON Schema."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obverse import Game
from obverse import vocab as v
from obverse.engine import LegalCache, apply, decode, legal_actions, refused_reference, schema
from obverse.errors import InputError
from obverse.fuzz import random_deal
from obverse.registry import rulesets
from obverse.rulings import DONE, ILLEGAL, NOTHING

ALIASES = [cls.aliases[0] for cls in rulesets()]


def test_forbid_through_game_and_apply() -> None:
    game = Game("mtg")
    clone = game.add("Clone", zone="battlefield")
    game.apply_effect("no", to=clone, modify={"forbid": ["turn_face_down", "move"]})
    out = game.turn_face_down(clone)
    assert out.result == NOTHING and "101.2" in out.cites
    assert not game.obj(clone).face_down
    assert game.move(clone, "graveyard").result == NOTHING
    assert game.obj(clone).zone == "battlefield"
    # The same through the functional API and a plain typed action.
    direct = apply(game.state, v.TurnFaceDown(object=game.obj(clone).id))
    assert direct.result == NOTHING and direct.state is game.state


def test_forbid_cast_is_illegal_and_filters_apply() -> None:
    game = Game("mtg")
    bolt = game.add("Delver of Secrets", zone="hand")
    game.apply_effect("no", to={"zone": "hand", "types": ["Creature"]}, modify={"forbid": ["cast"]})
    out = game.cast(bolt)
    assert out.result == ILLEGAL and game.obj(bolt).zone == "hand"


def test_search_and_select_through_game() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="library")
    game.add("Clone", zone="library", owner="bob")
    assert game.search("alice", "library", {"name": "Delver of Secrets"}) == [delver]
    assert game.search("alice", "library", {"name": "Insectile Aberration"}) == []
    assert game.select("bob", "library") != game.select("alice", "library")


def test_zone_player_and_verb_names_are_checked() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    with pytest.raises(InputError, match="did you mean 'graveyard'"):
        game.move(delver, "gravyard")
    assert "gravyard" not in {k.split(":")[-1] for k in game.state.zones}
    with pytest.raises(InputError, match="unknown player 'carol'"):
        game.change_control(delver, "carol")
    with pytest.raises(InputError, match="not an action of mtg"):
        game.awaken(delver)
    with pytest.raises(InputError, match="no object 99"):
        apply(game.state, v.Transform(object=99))


def test_a_gone_object_means_nothing_happens() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    old = game.obj(delver).id
    game.move(delver, "hand")
    out = apply(game.state, v.Transform(object=old))
    assert out.result == NOTHING and out.cites == ("400.7",)


def test_an_actor_cannot_name_a_card_it_cannot_identify() -> None:
    game = Game("mtg")
    mine = game.add("Clone", zone="battlefield")
    secret = game.add("Serra Angel", zone="library", owner="bob")
    other = game.add("Air Elemental", zone="library", owner="bob")
    down = game.add("Grinning Demon", zone="battlefield", owner="bob", face_down=True)
    st = game.state
    ids = {c: game.obj(c).id for c in (mine, secret, other, down)}
    refusals = [
        apply(st, v.BecomeCopy(object=ids[mine], of=ids[c]), "alice") for c in (secret, other)
    ]
    assert all(r.result == ILLEGAL and r.state is st for r in refusals)
    # The refusal is one text whatever the card.
    assert refusals[0].rulings == refusals[1].rulings == refused_reference(st).rulings
    # A face-down permanent can be named, and copying it copies its face-down values.
    out = apply(st, v.BecomeCopy(object=ids[mine], of=ids[down]), "alice")
    assert out.result == DONE
    copied = out.state.objects[ids[mine]]
    assert copied.copies[-1].name == "" and copied.copies[-1].source_face == "none"
    # Without an actor (the rules, a judge) the reference is fine.
    assert apply(st, v.BecomeCopy(object=ids[mine], of=ids[secret])).result == DONE
    # Bob may not look at his own library either (400.2); nobody learns another's answer.
    assert apply(st, v.Examine(player="bob", object=ids[secret]), "bob").result == ILLEGAL
    peek = apply(st, v.Search(player="bob", zone="library"), "alice")
    assert peek.result == ILLEGAL and peek.answer is None


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_legal_action_applies(alias: str, seed: int) -> None:
    state = random_deal(alias, random.Random(seed), n=6)
    for player in state.players:
        listed = legal_actions(state, player)
        assert any(legal.action.verb == "end_turn" for legal in listed)
        for legal in listed:
            out = apply(state, legal.action, player)
            assert out.result == DONE, (legal.action, out.rulings)
            assert out.rulings == legal.rulings


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_cached_legal_actions_are_the_tried_ones(alias: str, seed: int) -> None:
    """Along a random history (actions by players and the judge, effects that forbid), the
    legal actions found with a cache kept across the states are exactly those found by
    trying every candidate, for every player and the judge, with and without a filter."""
    rng = random.Random(seed)
    state = random_deal(alias, rng, n=7)
    cache = LegalCache()
    actors: list[str | None] = [*state.players, None]
    for step in range(8):
        for actor in actors:
            assert legal_actions(state, actor, cache=cache) == legal_actions(state, actor)
            odd = lambda a: sum(a.object_ids()) % 2 == 1  # noqa: E731
            assert legal_actions(state, actor, where=odd, cache=cache) == legal_actions(
                state, actor, where=odd
            )
        actor = rng.choice(actors)
        if step % 3 == 2 and state.objects:  # a new effect: every verb is tried again
            target = rng.choice(sorted(state.objects))
            verb = rng.choice(["move", "become_copy", "turn_face_down", "reveal", "examine"])
            effect = v.ApplyEffect(label=f"e{step}", to=target, modify={"forbid": [verb]})
            state = apply(state, effect).state
            continue
        offered = legal_actions(state, actor)
        state = apply(state, rng.choice(offered).action, actor).state
    assert cache.reused > 0 and cache.tried > 0


def test_the_cache_reuses_what_a_change_did_not_touch() -> None:
    game = Game("mtg")
    cards = [game.add(n, zone="battlefield") for n in ("Clone", "Serra Angel", "Air Elemental")]
    game.add("Delver of Secrets", zone="hand")
    cache = LegalCache()
    first = legal_actions(game.state, "alice", cache=cache)
    assert cache.reused == 0 and cache.tried >= len(first)
    tried = cache.tried
    assert legal_actions(game.state, "alice", cache=cache) == first
    assert cache.tried == tried  # the same state: nothing tried again
    game.add_counters(cards[0], "+1/+1")
    after = legal_actions(game.state, "alice", cache=cache)
    assert after == legal_actions(game.state, "alice")
    again = cache.tried - tried
    # Only what read the changed object is tried again: far fewer than all candidates.
    assert 0 < again < len(after) / 2


def test_a_new_object_is_no_dependency_of_other_candidates() -> None:
    """A move makes a new object (a new id): candidates on the other objects read their
    own objects, not the id the trial's move would have used, so they are reused; every
    seat's list equals the uncached one, and a trial made for the judge serves a player."""
    game = Game("mtg")
    cards = [game.add(n, zone="battlefield") for n in ("Clone", "Serra Angel", "Elite Vanguard")]
    cards += [game.add(n, zone="hand", owner="bob") for n in ("Air Elemental", "Clone")]
    cache = LegalCache()
    judge = legal_actions(game.state, None, cache=cache)
    tried = cache.tried
    assert legal_actions(game.state, "alice", cache=cache) == legal_actions(game.state, "alice")
    assert cache.tried == tried  # the judge's trials served alice's list
    game.move(cards[2], "graveyard")
    for actor in (None, "alice", "bob"):
        assert legal_actions(game.state, actor, cache=cache) == legal_actions(game.state, actor)
    assert 0 < cache.tried - tried < len(judge) / 3


def test_legal_actions_respect_the_rules() -> None:
    game = Game("mtg")
    fire = game.add("Fire // Ice", zone="hand")
    game.add("Serra Angel", zone="hand", owner="bob")
    offered = [legal.action for legal in game.legal_actions("alice")]
    assert not any(a.verb == "transform" for a in offered)  # a split card doesn't transform
    faces = {a.face for a in offered if isinstance(a, v.Cast) and a.object == game.obj(fire).id}
    assert faces == {"left", "right"}
    bob_cards = {game.obj(c).id for c in game.state.cards if game.obj(c).owner == "bob"}
    assert not any(set(a.object_ids()) & bob_cards for a in offered)


def test_undo_and_history() -> None:
    game = Game("fab")
    hero = game.add("Kano, Dracai of Aether", zone="hero")
    before = game.state
    assert game.mark(hero).result == DONE and game.obj(hero).marked
    assert len(game.history) == 1
    assert game.undo().result == DONE
    assert game.state is before and not game.history


def test_decode_and_schema() -> None:
    game = Game("fab")
    action = decode({"verb": "awaken", "object": 1}, game.state)
    assert action == game.ruleset.action_class("awaken")(object=1)  # type: ignore[misc]
    with pytest.raises(InputError, match="did you mean 'awaken'"):
        decode({"verb": "awaken2", "object": 1}, game.state)
    with pytest.raises(InputError, match="awaken"):
        decode({"verb": "awaken", "object": "x"}, game.state)
    doc = schema("fab")
    text = msgspec.json.encode(doc).decode()
    assert '"awaken"' in text and '"flip"' not in text
    assert '"flip"' in msgspec.json.encode(schema()).decode()
