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
from obverse.engine import apply, decode, legal_actions, refused_reference, schema
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
            for action in legal.expand():
                assert apply(state, action, player).result == DONE, action


def test_a_split_card_is_cast_by_its_halves_only() -> None:
    """709.3: a half is chosen (left, right); a face the card doesn't have is an error
    naming the key, never silently its left half."""
    game = Game("mtg")
    card = game.add("Fire // Ice", zone="hand")
    fire = game.obj(card).id
    out = apply(game.state, v.Cast(object=fire, face="right"))
    spell = out.state.object_of_card(card)
    assert out.result == DONE and spell is not None and spell.face == "right"
    for face in ("front", "back", "both"):
        with pytest.raises(InputError, match=r"face.*not a half of Fire // Ice"):
            apply(game.state, v.Cast(object=fire, face=face))


def test_legal_actions_respect_the_rules() -> None:
    game = Game("mtg")
    fire = game.add("Fire // Ice", zone="hand")
    game.add("Serra Angel", zone="hand", owner="bob")
    offered = [legal.action for legal in game.legal_actions("alice")]
    assert not any(a.verb == "transform" for a in offered)  # a split card doesn't transform
    faces = {a.face for a in offered if isinstance(a, v.Cast) and a.object == game.obj(fire).id}
    assert {"left", "right"} <= faces <= {None, "left", "right"}  # the halves, not a back
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
