"""MTG face-down kinds (``as``) and turning face up (``by``): the values each kind gives, the
ways up it opens, clear errors for bad kinds, and that none of it tells an opponent what the
hidden card is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obverse import Game
from obverse import vocab as v
from obverse.carddata import bundled
from obverse.characteristics import characteristics
from obverse.engine import apply, decode, legal_actions
from obverse.errors import InputError
from obverse.runner import run_scenario
from obverse.scenario import load_scenario, to_step
from obverse.serialize import dumps, loads
from obverse.state import GameState
from obverse.views import view

SCENARIO = """ruleset: {ruleset}
title: "test"
setup:
  - {{label: a, card: Air Elemental, owner: alice, zone: {zone}{extra}}}
steps:
{steps}
"""


def _scenario(tmp_path: Path, steps: str, extra: str = "", ruleset: str = "mtg") -> Path:
    zone = "battlefield" if extra else "library"
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(ruleset=ruleset, zone=zone, extra=extra, steps=steps))
    return path


def _manifested(card: str, kind: str = "manifest") -> tuple[Game, int]:
    game = Game("mtg", secret=b"twins")  # the same handle key: only the card differs
    cid = game.add(card, "library", owner="alice")
    out = game.do("move", object=cid, to="battlefield", face_down=True, as_=kind)
    assert out.result == "done"
    return game, cid


# --- bad input: clear errors naming the place and key ---------------------------------


def test_unknown_kind_in_a_step_suggests_the_closest(tmp_path: Path) -> None:
    path = _scenario(
        tmp_path, "  - move: {object: a, to: battlefield, face_down: true, as: cloack}"
    )
    with pytest.raises(InputError) as err:
        load_scenario(path)
    text = str(err.value)
    assert "step 1" in text and "as" in text and "did you mean 'cloak'" in text


def test_unknown_kind_in_setup_is_refused(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "  - expect: {object: a, zone: battlefield}", ", as: morf")
    with pytest.raises(InputError) as err:
        load_scenario(path)
    assert "setup[1]" in str(err.value) and "did you mean 'morph'" in str(err.value)


def test_setup_kind_needs_a_face_down_object(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "  - expect: {object: a, zone: battlefield}", ", as: cloak")
    with pytest.raises(InputError, match="face_down: true"):
        load_scenario(path)


def test_a_kind_newer_than_the_rules_version_is_refused(tmp_path: Path) -> None:
    steps = "  - move: {object: a, to: battlefield, face_down: true, as: disguise}"
    with pytest.raises(InputError, match="unknown face-down kind 'disguise'"):
        load_scenario(_scenario(tmp_path, steps, ruleset="mtg@2020"))


def test_a_game_without_kinds_refuses_one() -> None:
    game = Game("fab")
    cid = game.add(bundled("fab").cards[0], "hand", owner="alice")
    with pytest.raises(InputError, match="no face-down kind 'morph'"):
        game.do("turn_face_down", object=cid, as_="morph")
    with pytest.raises(InputError, match="only by an effect"):
        game.do("turn_face_up", object=cid, by="special_action")


def test_a_kind_on_a_move_that_isnt_face_down_onto_the_battlefield(tmp_path: Path) -> None:
    steps = "  - move: {object: a, to: exile, face_down: true, as: cloak}"
    result = run_scenario(_scenario(tmp_path, steps))
    assert result.status == "ERROR"
    assert "step 1" in result.line() and "battlefield" in result.line()


def test_unknown_way_up_is_refused(tmp_path: Path) -> None:
    steps = "  - turn_face_up: {object: a, by: magic}"
    with pytest.raises(InputError, match="special_action, cost, effect"):
        load_scenario(_scenario(tmp_path, steps, ", face_down: true, as: manifest"))


# --- the kind as data: decoded, written back, serialized --------------------------------


def test_kind_decodes_writes_back_and_survives_serialization() -> None:
    game, cid = _manifested("Air Elemental", "cloak")
    oid = game.obj(cid).id
    action = decode({"verb": "turn_face_down", "object": oid, "as": "cloak"}, game.state)
    assert isinstance(action, v.TurnFaceDown) and action.as_ == "cloak"
    step = to_step(v.Move(object=oid, to="battlefield", face_down=True, as_="cloak"), str)
    assert step == {
        "move": {"object": str(oid), "to": "battlefield", "face_down": True, "as": "cloak"}
    }
    again = loads(dumps(game.state))
    assert again == game.state and again.objects[oid].face_down_as == "cloak"


def test_kind_is_forgotten_when_it_leaves_and_when_turned_up() -> None:
    game, cid = _manifested("Air Elemental", "cloak")
    game.do("move", object=cid, to="exile")
    assert game.obj(cid).face_down_as is None and not game.obj(cid).face_down
    game, cid = _manifested("Air Elemental", "cloak")
    assert game.do("turn_face_up", object=cid, by="special_action").result == "done"
    assert game.obj(cid).face_down_as is None


def test_a_copy_of_a_cloaked_permanent_has_ward() -> None:
    game, cid = _manifested("Air Elemental", "cloak")
    clone = game.add("Clone", "battlefield", owner="bob")
    game.do("become_copy", object=clone, of=cid)
    chars = characteristics(game.state, game.obj(clone), game.ruleset)
    assert chars.props.abilities == ("Ward",) and chars.props.power == 2 and not chars.names


# --- hidden information: the opponent learns nothing about the card ---------------------


def _bob_sees(state: GameState) -> str:
    return json.dumps(view(state, "bob"), sort_keys=True)


@pytest.mark.parametrize("kind", ["manifest", "cloak", "manifest_dread"])
def test_bob_cannot_tell_a_manifested_creature_from_an_instant(kind: str) -> None:
    twins = [_manifested(card, kind) for card in ("Air Elemental", "Dark Ritual")]
    assert _bob_sees(twins[0][0].state) == _bob_sees(twins[1][0].state)
    for by in ("special_action", "cost"):
        outs = [apply(g.state, v.TurnFaceUp(object=g.obj(c).id, by=by), "bob") for g, c in twins]
        assert outs[0].result == outs[1].result == "illegal"
        assert [str(r) for r in outs[0].rulings] == [str(r) for r in outs[1].rulings]
    offered = [
        sorted(
            str(x.action) for x in legal_actions(g.state, "bob") if x.action.verb == "turn_face_up"
        )
        for g, _ in twins
    ]
    assert offered[0] == offered[1]


def test_the_controller_is_offered_the_special_action_only_where_it_is_open() -> None:
    def ways(card: str) -> set[str | None]:
        game, cid = _manifested(card)
        oid = game.obj(cid).id
        legal = legal_actions(game.state, "alice")
        return {
            x.action.by
            for x in legal
            if isinstance(x.action, v.TurnFaceUp) and x.action.object == oid
        }

    assert ways("Air Elemental") == {"special_action", None}
    assert ways("Grinning Demon") == {"special_action", "cost", None}
    assert ways("Dark Ritual") == {None}  # an effect only reveals it (701.40g)
