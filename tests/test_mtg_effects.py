"""MTG effects beyond faces: copy exceptions (707.9), color-setting effects (105.3), status
filters (face down, token, controller) and +1/+1 / -1/-1 counters (122.1a, 704.5q), through
the Game API, typed actions, and scenario files with bad input."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from obverse import Game
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import exception_keys
from obverse.engine import decode, schema
from obverse.errors import InputError
from obverse.registry import get_ruleset
from obverse.rulings import DONE
from obverse.runner import run_scenario
from obverse.scenario import to_step
from obverse.views import view


def test_copy_exception_through_game_and_copy_of_copy() -> None:
    game = Game("mtg")
    demon = game.add("Grinning Demon", zone="battlefield")
    clone = game.add("Clone", zone="battlefield", owner="bob")
    frog = {"power": 1, "toughness": 1, "colors": ["green"], "subtypes": ["Frog"]}
    out = game.do("become_copy", object=clone, of=demon, except_=frog)
    assert out.result == DONE and "707.9b" in out.cites
    chars = game.characteristics(clone)
    assert (chars.props.power, chars.props.toughness) == (1, 1)
    assert chars.props.colors == ("G",) and chars.props.subtypes == ("Frog",)
    assert chars.names == ("Grinning Demon",) and chars.mana_value == 4
    # The original is untouched; a token copy of the copy inherits the exception (707.2).
    assert game.characteristics(demon).props.power == 6
    out = game.do("create_token_copy", of=clone)
    token = out.answer
    assert isinstance(token, int)
    assert game.characteristics(token).props.subtypes == ("Frog",)
    assert "707.2" in out.cites


def test_copy_exception_name_changes_the_name() -> None:
    game = Game("mtg")
    angel = game.add("Serra Angel", zone="battlefield")
    clone = game.add("Clone", zone="battlefield")
    game.do("become_copy", object=clone, of=angel, except_={"name": "Copycat"})
    chars = game.characteristics(clone)
    assert chars.has_name("Copycat") and not chars.has_name("Serra Angel")


@pytest.mark.parametrize(
    ("exception", "key", "text"),
    [
        ({"powr": 1}, "except.powr", "did you mean 'power'"),
        ({"pitch": 1}, "except.pitch", "not a copy exception of mtg"),
        ({"colors": ["pink"]}, "except.colors", "unknown color 'pink'"),
        ({"power": [1]}, "except.power", "expected a name or a number"),
        ({"subtypes": [1]}, "except.subtypes", "expected a name or a list of names"),
    ],
)
def test_bad_copy_exceptions_are_clear_errors(
    exception: dict[str, object], key: str, text: str
) -> None:
    game = Game("mtg")
    angel = game.add("Serra Angel", zone="battlefield")
    clone = game.add("Clone", zone="battlefield")
    before = game.state
    with pytest.raises(InputError, match=text) as info:
        game.do("become_copy", object=clone, of=angel, except_=exception)
    assert info.value.key == key
    assert game.state is before


def test_exception_keys_follow_the_game() -> None:
    mtg, fab = (get_ruleset(alias).stats for alias in ("mtg", "fab"))
    assert {"power", "loyalty", "add_subtypes"} <= exception_keys(mtg)
    assert "pitch" not in exception_keys(mtg)
    assert {"pitch", "intellect"} <= exception_keys(fab)
    assert "loyalty" not in exception_keys(fab)


def test_except_is_the_wire_name() -> None:
    game = Game("mtg")
    game.add("Serra Angel", zone="battlefield")
    action = decode(
        {"verb": "become_copy", "object": 1, "of": 1, "except": {"power": 1}}, game.state
    )
    assert isinstance(action, v.BecomeCopy) and action.except_ == {"power": 1}
    assert json.loads(msgspec.json.encode(action))["except"] == {"power": 1}
    step = to_step(action, lambda oid: f"o{oid}")
    assert step["become_copy"]["except"] == {"power": 1}
    assert "except" in json.dumps(schema("mtg"))


def test_color_effects_replace_add_and_reject_unknown_colors() -> None:
    game = Game("mtg")
    demon = game.add("Grinning Demon", zone="battlefield")
    game.apply_effect("g", to=demon, modify={"color": ["Green"]})
    assert game.characteristics(demon).props.colors == ("G",)
    game.apply_effect("r", to=demon, modify={"add_color": "R"})
    assert game.characteristics(demon).props.colors == ("G", "R")
    game.apply_effect("none", to=demon, modify={"color": []})
    assert game.characteristics(demon).props.colors == ()
    with pytest.raises(InputError, match="unknown color 'purple'"):
        game.apply_effect("p", to=demon, modify={"color": ["purple"]})


@pytest.mark.parametrize(
    ("where", "key"),
    [
        ({"facedown": True}, "to.facedown"),
        ({"face_down": "yes"}, "to.face_down"),
        ({"controller": "carol"}, "to.controller"),
    ],
)
def test_bad_filters_are_clear_errors(where: dict[str, object], key: str) -> None:
    game = Game("mtg")
    game.add("Serra Angel", zone="battlefield")
    with pytest.raises(InputError) as info:
        game.apply_effect("x", to=where, modify={"power": 1})
    assert info.value.key == key


def test_status_filter_on_search() -> None:
    game = Game("mtg")
    down = game.add("Grinning Demon", zone="battlefield", face_down=True)
    game.add("Serra Angel", zone="battlefield")
    assert game.search("alice", "battlefield", {"face_down": True}) == [down]


def _bob_view(card: str) -> str:
    """Bob's view after status, name and color filters touched alice's face-down ``card``."""
    game = Game("mtg", seed=7)
    down = game.add(card, zone="battlefield", face_down=True)
    game.add("Elite Vanguard", zone="battlefield", owner="bob")
    game.apply_effect("down", to={"face_down": True, "controller": "alice"}, modify={"power": 1})
    game.apply_effect("demon", to={"name": "Grinning Demon"}, modify={"toughness": 5})
    game.apply_effect("black", to={"colors": ["B"]}, modify={"add_color": "G"})
    game.apply_effect("angel", to={"subtypes": ["Angel"]}, modify={"power": 9})
    props = game.characteristics(down).props
    assert (props.power, props.toughness, props.colors) == (3, 2, ())  # only "down" applies
    return json.dumps(_no_handles(view(game.state, "bob")), sort_keys=True, default=str)


def _no_handles(data: object) -> object:
    """Views without handles (keyed with a per-game secret; tests/test_handles.py)."""
    if isinstance(data, dict):
        return {k: _no_handles(x) for k, x in data.items() if k != "handle"}
    if isinstance(data, list):
        return [_no_handles(x) for x in data]
    return data


def test_filters_on_face_down_permanents_reveal_nothing() -> None:
    """Twins: two games that differ only in which card is face down look the same to bob."""
    assert _bob_view("Grinning Demon") == _bob_view("Serra Angel")


def test_counters_change_pt_annihilate_and_vanish() -> None:
    game = Game("mtg")
    angel = game.add("Serra Angel", zone="battlefield")
    game.add_counters(angel, "+1/+1", 3)
    out = game.add_counters(angel, "-1/-1", 1)
    assert "704.5q" in out.cites
    assert dict(game.obj(angel).counters) == {"+1/+1": 2}
    assert game.characteristics(angel).props.power == 6
    game.move(angel, "graveyard")
    assert game.obj(angel).counters == ()
    assert game.characteristics(angel).props.power == 4


def test_other_games_ignore_pt_counter_names() -> None:
    game = Game("ga")
    unit = CardDef(name="Test Unit", faces=(Face(name="Test Unit", types=("UNIT",), power=2),))
    card = game.add(unit, zone="field")
    game.add_counters(card, "+1/+1", 2)
    assert dict(game.obj(card).counters) == {"+1/+1": 2}
    assert game.characteristics(card).props.power == 2


def _scenario(tmp_path: Path, step: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "ruleset: mtg\n"
        "setup:\n"
        "  - {label: a, card: Serra Angel, zone: battlefield}\n"
        "  - {label: c, card: Clone, zone: battlefield}\n"
        f"steps:\n  - {step}\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR"
    return result.line()


@pytest.mark.parametrize(
    ("step", "words"),
    [
        ("become_copy: {object: c, of: a, except: {tougness: 1}}", ["step 1", "except.tougness"]),
        ("become_copy: {object: c, of: a, except: []}", ["step 1", "except"]),
        ("apply_effect: {label: e, to: {tokn: true}, modify: {power: 1}}", ["to.tokn"]),
        ("apply_effect: {label: e, to: {token: 1}, modify: {power: 1}}", ["to.token"]),
        ("apply_effect: {label: e, to: {controller: eve}, modify: {power: 1}}", ["eve"]),
        ("apply_effect: {label: e, to: a, modify: {color: [pink]}}", ["modify.color", "pink"]),
    ],
)
def test_bad_scenario_input_names_the_step_and_key(
    tmp_path: Path, step: str, words: list[str]
) -> None:
    line = _scenario(tmp_path, step)
    for word in words:
        assert word in line, line
    assert "Traceback" not in line
