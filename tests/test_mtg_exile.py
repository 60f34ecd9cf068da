"""MTG face-down exile (406.3-406.4), look permissions (702.143a, 702.75a), the reveals of
708.9 and 702.143f, and twins: every verb reading a name or a type reads the face-down
object's own characteristics, so bob learns nothing about the hidden card."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from obverse import Game
from obverse import vocab as v
from obverse.carddata import bundled
from obverse.characteristics import characteristics
from obverse.engine import apply, legal_actions
from obverse.errors import InputError, RulesError
from obverse.rulings import Outcome
from obverse.scenario import load_scenario
from obverse.serialize import dumps, loads
from obverse.state import GameState
from obverse.views import handle, is_visible, view, view_events
from test_mtg_rooms import ROOM  # 709.5: a Room (not in the bundled cards)


def _exiled(card: str, *more: str) -> tuple[Game, list[int]]:
    game = Game("mtg", secret=b"twins")  # the same handle key: only the cards differ
    ids = []
    for name in (card, *more):
        cid = game.add(name, "hand", owner="alice")
        assert game.do("move", object=cid, to="exile", face_down=True).result == "done"
        ids.append(cid)
    return game, ids


def _seen(before: GameState, out: Outcome, chosen: bool = False, viewer: str = "bob") -> str:
    """Everything ``viewer`` gets from an outcome (as :func:`obverse.fuzz._seen_by_bob`;
    ``chosen``: the answer is an object, seen as the viewer's handle)."""
    answer: Any = out.answer
    if chosen and isinstance(answer, int):
        answer = handle(out.state, viewer, out.state.objects[answer])
    elif isinstance(answer, tuple):
        answer = [handle(out.state, viewer, out.state.objects[o]) for o in answer]
    seen = {
        "view": view(out.state, viewer),
        "events": view_events(before, out.state, out.events, viewer),
        "result": out.result,
        "rulings": [str(r) for r in out.rulings],
        "answer": answer,
    }
    return json.dumps(seen, sort_keys=True, ensure_ascii=False)


# --- 406.3a: no characteristics ---------------------------------------------------------


def test_a_card_exiled_face_down_has_no_characteristics() -> None:
    game, (cid,) = _exiled("Grinning Demon")
    chars = characteristics(game.state, game.obj(cid), game.ruleset)
    assert chars.names == () and chars.props.types == () and chars.props.power is None
    assert [r.rule for r in chars.why] == ["406.3a"]
    seen = view(game.state, "bob")["zones"][0]["objects"][0]
    assert seen["visible"] is False and seen.get("power") is None and not seen.get("types")


# --- 406.3, 702.143a, 702.75a: who may look ---------------------------------------------


def test_nobody_may_look_until_allowed_then_until_it_leaves() -> None:
    game, (cid,) = _exiled("Grinning Demon")
    assert game.do("examine", player="alice", object=cid).result == "illegal"
    out = game.do("look", player="alice", object=cid, source="foretell")
    assert out.result == "done" and [r.rule for r in out.rulings] == ["702.143a", "406.3"]
    assert game.do("examine", player="alice", object=cid).result == "done"
    assert game.do("examine", player="bob", object=cid).result == "illegal"
    assert game.do("look", player="alice", object=cid, source="foretell").result == (
        "nothing_happened"
    )
    game.do("move", object=cid, to="exile", face_down=True, position="top")
    game.do("move", object=cid, to="hand")
    game.do("move", object=cid, to="exile", face_down=True)
    assert game.do("examine", player="alice", object=cid).result == "illegal"


def test_only_the_owner_may_look_at_a_foretold_card_and_hideaway_lets_anyone_named() -> None:
    game, (cid,) = _exiled("Grinning Demon")
    out = game.do("look", player="bob", object=cid, source="foretell")
    assert out.result == "illegal" and out.rulings[0].rule == "702.143a"
    out = game.do("look", player="bob", object=cid, source="hideaway")
    assert out.result == "done" and out.rulings[0].rule == "702.75a"
    assert view(game.state, "bob")["zones"][0]["objects"][0]["visible"] is True


def test_a_shuffle_of_exile_ends_the_permission() -> None:
    game, (cid,) = _exiled("Grinning Demon")
    game.do("look", player="alice", object=cid)
    game.do("shuffle", player="alice", zone="exile")
    assert game.do("examine", player="alice", object=cid).result == "illegal"


def test_bad_look_sources_are_input_errors() -> None:
    game, (cid,) = _exiled("Grinning Demon")
    with pytest.raises(InputError, match="did you mean 'foretell'"):
        game.do("look", player="alice", object=cid, source="foretel")
    old = Game("mtg@2020")
    c2 = old.add("Grinning Demon", "hand", owner="alice")
    old.do("move", object=c2, to="exile", face_down=True)
    with pytest.raises(InputError, match="unknown look source 'foretell'"):
        old.do("look", player="alice", object=c2, source="foretell")
    fab = Game("fab")
    card = fab.add(bundled("fab").cards[0], "hand", owner="alice")
    with pytest.raises(InputError, match="look takes no source"):
        fab.do("look", player="alice", object=card, source="effect")


def test_a_face_up_card_needs_no_permission() -> None:
    game = Game("mtg")
    cid = game.add("Grinning Demon", "exile", owner="alice")
    assert game.do("look", player="bob", object=cid).result == "nothing_happened"


# --- 406.4: choosing an exiled card -----------------------------------------------------


def test_a_pile_is_chosen_at_random_and_the_chooser_learns_nothing() -> None:
    game, ids = _exiled("Grinning Demon", "Air Elemental", "Dark Ritual")
    before = game.state
    out = game.do("choose_exiled", player="bob", among=ids)
    assert out.result == "done" and out.answer in {game.obj(c).id for c in ids}
    assert out.rulings[0].rule == "406.4" and out.state.shuffles == before.shuffles + 1
    assert all(not game.ruleset.knows(out.state, "bob", game.obj(c)) for c in ids)


def test_a_card_one_may_look_at_is_chosen_by_itself_not_in_a_pile() -> None:
    game, ids = _exiled("Grinning Demon", "Air Elemental")
    game.do("look", player="alice", object=ids[0])
    out = game.do("choose_exiled", player="alice", among=ids[:1])
    assert out.result == "done" and out.answer == game.obj(ids[0]).id
    out = game.do("choose_exiled", player="alice", among=ids)
    assert out.result == "illegal" and out.rulings[0].rule == "406.4"


def test_only_exiled_cards_can_be_chosen() -> None:
    game = Game("mtg")
    cid = game.add("Grinning Demon", "graveyard", owner="alice")
    assert game.do("choose_exiled", player="bob", among=[cid]).result == "illegal"


# --- 708.9, 702.143f: reveals when a player leaves and at the end ----------------------


def test_leaving_reveals_the_players_face_down_permanents_and_foretold_cards() -> None:
    game, (kept, foretold) = _exiled("Grinning Demon", "Air Elemental")
    game.do("look", player="alice", object=foretold, source="foretell")
    fd = game.add("Dark Ritual", "battlefield", owner="alice", face_down=True)
    theirs = game.add("Clone", "battlefield", owner="bob", face_down=True)
    out = game.do("leave_game", player="alice")
    assert out.result == "done" and [r.rule for r in out.rulings] == ["708.9", "702.143f"]
    rs, state = game.ruleset, out.state
    assert rs.knows(state, "bob", game.obj(fd)) and rs.knows(state, "bob", game.obj(foretold))
    assert not rs.knows(state, "bob", game.obj(kept))
    assert not rs.knows(state, "alice", game.obj(theirs))
    out = game.do("end_game")
    assert out.result == "done" and rs.knows(out.state, "alice", game.obj(theirs))


def test_nothing_to_reveal_is_nothing_happened() -> None:
    game = Game("mtg")
    game.add("Grinning Demon", "battlefield", owner="alice")
    out = game.do("end_game")
    assert out.result == "nothing_happened" and out.rulings[0].rule == "708.9"


# --- twins: a face-down card's identity reaches bob through no verb (708.2, 406.3a) ----

#: Twin pairs of hidden cards: a meld card and a plain one, a DFC and a creature, a Room
#: and a creature, an instant and a creature.
PAIRS = [
    ("Graf Rats", "Elite Vanguard"),
    ("Delver of Secrets", "Elite Vanguard"),
    ("Akki Lavarunner", "Elite Vanguard"),
    ("Bottomless Pool // Locker Room", "Elite Vanguard"),
    ("Fire // Ice", "Air Elemental"),
    ("Dark Ritual", "Air Elemental"),
]

Verb = Callable[[Game, int, dict[str, int]], v.Action]


def _verb(game: Game, verb: str, **fields: Any) -> v.Action:
    cls = game.ruleset.action_class(verb)
    assert cls is not None
    return cls(**fields)


def _twin(secret: str, zone: str) -> tuple[Game, int, dict[str, int]]:
    game = Game("mtg", secret=b"twins", cards=[ROOM])
    others = {
        "scavengers": game.add("Midnight Scavengers", "battlefield", owner="alice"),
        "bear": game.add("Elite Vanguard", "battlefield", owner="bob"),
        "exiled": game.add("Air Elemental", "hand", owner="alice"),
        "spell": game.add("Serra Angel", "hand", owner="alice"),
    }
    game.do("cast", object=others["spell"])
    game.do("move", object=others["exiled"], to="exile", face_down=True)
    cid = game.add(secret, "hand", owner="alice")
    if zone == "exile":
        game.do("move", object=cid, to="exile", face_down=True)
    elif zone == "merged":  # 729.2e: a face-up spell merged on top of the face-down card
        game.do("move", object=cid, to="battlefield", face_down=True, as_="manifest")
        top = game.add("Wandering Ones", "hand", owner="alice")
        game.do("cast", object=top)
        assert game.do("mutate", object=top, onto=cid).result == "done"
    elif zone == "merged_under":  # 729.2e: face down on top of a face-up spell
        game.do("move", object=cid, to="battlefield", face_down=True, as_="manifest")
        under = game.add("Wandering Ones", "hand", owner="alice")
        game.do("cast", object=under)
        assert game.do("mutate", object=under, onto=cid, position="bottom").result == "done"
    elif zone == "forest":  # 708.2: "it's a Forest land"
        forest = {"types": ["Land"], "subtypes": ["Forest"]}
        game.do("move", object=cid, to="battlefield", face_down=True, values=forest)
    else:
        game.do("move", object=cid, to="battlefield", face_down=True, as_="manifest")
    return game, cid, others


VERBS: dict[str, Verb] = {
    "meld": lambda g, c, o: _verb(g, "meld", objects=(g.obj(o["scavengers"]).id, g.obj(c).id)),
    "search": lambda g, c, o: v.Search(
        player="bob", zone=g.obj(c).zone, where={"name": "Graf Rats"}
    ),
    "select": lambda g, c, o: v.Select(
        player="bob", zone=g.obj(c).zone, where={"types": ["Creature"]}
    ),
    "transform": lambda g, c, o: v.Transform(object=g.obj(c).id),
    "flip": lambda g, c, o: _verb(g, "flip", object=g.obj(c).id),
    "unlock": lambda g, c, o: _verb(g, "unlock", object=g.obj(c).id, door="left"),
    "become_copy": lambda g, c, o: v.BecomeCopy(object=g.obj(o["bear"]).id, of=g.obj(c).id),
    "copy_onto": lambda g, c, o: v.BecomeCopy(object=g.obj(c).id, of=g.obj(o["bear"]).id),
    "create_token_copy": lambda g, c, o: v.CreateTokenCopy(of=g.obj(c).id, controller="bob"),
    "turn_face_down": lambda g, c, o: v.TurnFaceDown(object=g.obj(c).id),
    "turn_face_up": lambda g, c, o: v.TurnFaceUp(object=g.obj(c).id, by="special_action"),
    "turn_face_up_effect": lambda g, c, o: v.TurnFaceUp(object=g.obj(c).id, by="effect"),
    "turn_face_up_copy": lambda g, c, o: v.TurnFaceUp(
        object=g.obj(c).id, by="cost", copy=g.obj(o["bear"]).id
    ),
    "name_card": lambda g, c, o: v.NameCard(player="bob", name="Graf Rats"),
    "examine": lambda g, c, o: v.Examine(player="bob", object=g.obj(c).id),
    "look": lambda g, c, o: v.Look(player="bob", object=g.obj(c).id),
    "choose_exiled": lambda g, c, o: _verb(
        g, "choose_exiled", player="bob", among=(g.obj(c).id, g.obj(o["exiled"]).id)
    ),
    "cast": lambda g, c, o: v.Cast(object=g.obj(c).id),
    "add_counters": lambda g, c, o: v.AddCounters(object=g.obj(c).id, counter="+1/+1"),
    "move_to_hand": lambda g, c, o: v.Move(object=g.obj(c).id, to="hand"),
    "leave_game_bob": lambda g, c, o: _verb(g, "leave_game", player="bob"),
    "leave_game_alice": lambda g, c, o: _verb(g, "leave_game", player="alice"),
    "end_game": lambda g, c, o: _verb(g, "end_game"),
    "mutate": lambda g, c, o: _verb(g, "mutate", object=g.obj(o["spell"]).id, onto=g.obj(c).id),
    "mutate_under": lambda g, c, o: _verb(
        g, "mutate", object=g.obj(o["spell"]).id, onto=g.obj(c).id, position="bottom"
    ),
}


@pytest.mark.parametrize("zone", ["battlefield", "exile", "forest", "merged", "merged_under"])
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p[0])
@pytest.mark.parametrize("verb", sorted(VERBS))
@pytest.mark.parametrize("actor", ["bob", None])
def test_twins_differ_in_nothing_bob_gets(
    verb: str, pair: tuple[str, str], zone: str, actor: str | None
) -> None:
    if verb in ("turn_face_up", "turn_face_up_copy") and actor is None:
        pytest.skip("alice's own special action: only she may take it (116.2b)")
    seen, shown = [], []
    for secret in pair:
        game, cid, others = _twin(secret, zone)
        action = VERBS[verb](game, cid, others)
        out = apply(game.state, action, actor, catalog=game.cards)
        seen.append(_seen(game.state, out, verb == "choose_exiled"))
        found = out.state.object_of_card(cid)  # a merged one shows its topmost card only
        revealed = any(e.kind == "reveal" and e.card == cid for e in out.events)  # 708.9
        shown.append(
            revealed
            or (found is not None and found.card == cid and is_visible(out.state, "bob", found))
        )
    if any(shown):  # a rule showed bob the card (looking, casting it): then both do
        assert all(shown)
        return
    assert seen[0] == seen[1]
    for name in (*pair[0].split(" // "), pair[0]):
        assert json.dumps(name) not in seen[0]


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p[0])
def test_twins_offer_bob_and_alice_the_same_actions_on_the_face_down_card(
    pair: tuple[str, str],
) -> None:
    """Offers on a face-down card don't depend on the hidden card (meld: 708.2)."""
    offered = []
    for secret in pair:
        game, cid, _ = _twin(secret, "battlefield")
        oid = game.obj(cid).id
        for who in ("bob",):
            offered.append(
                sorted(
                    str(x.action)
                    for x in legal_actions(game.state, who)
                    if oid in x.action.object_ids()
                )
            )
        melds = [x for x in legal_actions(game.state, "alice") if x.action.verb == "meld"]
        offered.append(sorted(str(x.action) for x in melds))
    assert offered[0] == offered[2] and offered[1] == offered[3]


# --- 708.2: the values an effect lists ----------------------------------------------------


def test_listed_values_bad_input_names_the_key(tmp_path: Path) -> None:
    game = Game("mtg")
    cid = game.add("Serra Angel", "battlefield", owner="alice")
    with pytest.raises(InputError, match=r"values\.typez: not a characteristic .*'types'"):
        game.do("turn_face_down", object=cid, values={"typez": ["Land"]})
    with pytest.raises(InputError, match=r"unknown type 'Lnd'.*'Land'"):
        game.do("turn_face_down", object=cid, values={"types": ["Lnd"]})
    with pytest.raises(InputError, match=r"values\.power: expected a number"):
        game.do("turn_face_down", object=cid, values={"power": "two"})
    with pytest.raises(RulesError, match="values: needs a move to the battlefield"):
        game.do("move", object=cid, to="exile", face_down=True, values={"types": ["Land"]})
    fab = Game("fab")
    card = fab.add(bundled("fab").cards[0], "hand", owner="alice")
    with pytest.raises(InputError, match="no listed face-down values"):
        fab.do("turn_face_down", object=card, values={"types": ["Land"]})
    path = tmp_path / "s.yaml"
    path.write_text(
        "ruleset: mtg\nsetup:\n  - {label: a, card: Serra Angel, zone: battlefield}\n"
        "steps:\n  - turn_face_down: {object: a, values: {colour: [G]}}\n"
    )
    with pytest.raises(InputError) as err:
        load_scenario(path)
    assert "step 1" in str(err.value) and "values.colour" in str(err.value)
    setup = "  - {label: a, card: Serra Angel, zone: %s, face_down: true, values: %s}\n"
    for zone, values, key in [
        ("battlefield", "{types: [Lnd]}", "values.types"),
        ("exile", "{types: [Land]}", "values"),
    ]:
        path.write_text(
            "ruleset: mtg\nsetup:\n" + setup % (zone, values) + "steps:\n  - end_turn: null\n"
        )
        with pytest.raises(InputError) as err:
            load_scenario(path)
        assert "setup[1]" in str(err.value) and key in str(err.value)
    path.write_text(
        "ruleset: fab\nsetup:\n  - {label: a, card: Sigil of Solace, zone: hand, values: {}}\n"
        "steps:\n  - end_turn: null\n"
    )
    with pytest.raises(InputError, match="unknown key"):
        load_scenario(path)


def test_listed_values_end_when_it_is_turned_up_or_leaves() -> None:
    game = Game("mtg")
    cid = game.add("Serra Angel", "battlefield", owner="alice")
    game.do("turn_face_down", object=cid, values={"types": ["Land"], "subtypes": ["Forest"]})
    assert game.obj(cid).face_down_values
    game.do("turn_face_up", object=cid)
    assert game.obj(cid).face_down_values == () and not game.obj(cid).face_down
    game.do("turn_face_down", object=cid, values={"types": ["Land"]})
    game.do("move", object=cid, to="hand")
    game.do("move", object=cid, to="battlefield", face_down=True)
    chars = characteristics(game.state, game.obj(cid), game.ruleset)
    assert chars.props.types == ("Creature",) and chars.props.power == 2


def test_face_up_copies_are_mtg_only() -> None:
    fab = Game("fab")
    card = fab.add(bundled("fab").cards[0], "hand", owner="alice")
    with pytest.raises(InputError, match="no 'as it is turned face up' copies"):
        fab.do("turn_face_up", object=card, copy=card)


@pytest.mark.parametrize("to", ["hand", "library", "graveyard"])
def test_a_face_down_permanent_leaving_is_shown_to_all_as_it_moves(to: str) -> None:
    """708.9: revealed to all players as it moves, even into a hidden zone (where it is
    hidden again afterwards)."""
    game = Game("mtg")
    cid = game.add("Grinning Demon", "battlefield", owner="alice", face_down=True)
    before = game.state
    out = game.do("move", object=cid, to=to)
    events = view_events(before, out.state, out.events, "bob")
    assert any(e["kind"] == "reveal" and e.get("card") == "Grinning Demon" for e in events)
    assert is_visible(out.state, "bob", game.obj(cid)) is (to == "graveyard")


def _merged_on_face_down() -> tuple[Game, int]:
    """A face-up Wandering Ones merged on top of a face-down Grinning Demon (729.2e)."""
    game = Game("mtg")
    cid = game.add("Grinning Demon", "battlefield", owner="alice", face_down=True)
    top = game.add("Wandering Ones", "hand", owner="alice")
    game.do("cast", object=top)
    assert game.do("mutate", object=top, onto=cid).result == "done"
    return game, top


def test_a_face_down_component_leaving_is_shown_as_it_moves() -> None:
    """708.9, 729.3: the face-down component of a face-up merged permanent is revealed."""
    game, top = _merged_on_face_down()
    before = game.state
    assert "Grinning Demon" not in json.dumps(view(before, "bob"))
    out = game.do("move", object=top, to="hand")
    names = [e.get("card") for e in view_events(before, out.state, out.events, "bob")]
    assert "Grinning Demon" in names


def test_the_game_ending_reveals_a_face_down_component() -> None:
    """708.9: at the end of the game, face-down components of merged permanents too."""
    game, _ = _merged_on_face_down()
    before = game.state
    out = game.do("end_game")
    assert out.result == "done" and out.rulings[0].rule == "708.9"
    names = [e.get("card") for e in view_events(before, out.state, out.events, "bob")]
    assert names == ["Grinning Demon"]
    assert game.do("end_game").result == "nothing_happened"


def test_listed_values_and_components_survive_serialization() -> None:
    game = Game("mtg")
    cid = game.add("Serra Angel", "battlefield", owner="alice")
    game.do("turn_face_down", object=cid, values={"types": ["Land"], "subtypes": ["Forest"]})
    merged, state = _merged_on_face_down()[0], game.state
    for s in (state, merged.state):
        assert loads(dumps(s)) == s
    assert loads(dumps(state)).object_of_card(cid) == game.obj(cid)
