"""MTG Rooms (709.5), fuse (702.102), prototype (718) and Omen (720) cards: the kernel's
answers beyond the example scenarios (legal actions, other rules versions, bad input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.engine import apply, legal_actions
from obverse.errors import InputError, RulesError
from obverse.rulesets import get_ruleset
from obverse.rulesets.mtg import Unlock
from obverse.rulings import DONE, ILLEGAL, NOTHING
from obverse.runner import run_scenario
from obverse.state import GameState, new_state

ROOM = CardDef(
    name="Bottomless Pool // Locker Room",
    layout="split",
    faces=(
        Face(name="Bottomless Pool", cost="{U}", types=("Enchantment",), subtypes=("Room",)),
        Face(name="Locker Room", cost="{4}{U}", types=("Enchantment",), subtypes=("Room",)),
    ),
)
FUSE = CardDef(
    name="Turn // Burn",
    layout="split",
    faces=(
        Face(name="Turn", cost="{2}{U}", types=("Instant",), abilities=("Fuse",)),
        Face(name="Burn", cost="{1}{R}", types=("Instant",), abilities=("Fuse",)),
    ),
)
PROTOTYPE = CardDef(
    name="Blitz Automaton",
    layout="prototype",
    faces=(
        Face(name="Blitz Automaton", cost="{7}", types=("Artifact", "Creature"), power=6),
        Face(name="Blitz Automaton", cost="{2}{R}", power=3, toughness=2),
    ),
)


def _with(card: CardDef, zone: str, ruleset: str = "mtg") -> tuple[GameState, int]:
    state = new_state(ruleset, ("alice", "bob"))
    state, card_id = get_ruleset(ruleset).add_card(state, card, zone, owner="alice")
    obj = state.object_of_card(card_id)
    assert obj is not None
    return state, obj.id


def _now(after: GameState, before: GameState, oid: int) -> Characteristics:
    """The characteristics of the object that ``oid``'s card is now (casting makes a new one)."""
    obj = after.object_of_card(before.objects[oid].card)
    assert obj is not None
    return characteristics(after, obj)


def test_legal_actions_offer_only_the_locked_door() -> None:
    state, oid = _with(ROOM, "battlefield")
    doors = {a.action.door for a in legal_actions(state, "alice") if isinstance(a.action, Unlock)}
    assert doors == {"left", "right"}
    state = apply(state, Unlock(object=oid, door="right")).state
    doors = {a.action.door for a in legal_actions(state, "alice") if isinstance(a.action, Unlock)}
    assert doors == {"left"}
    state = apply(state, Unlock(object=oid, door="left")).state
    assert not [a for a in legal_actions(state, "alice") if isinstance(a.action, Unlock)]
    assert characteristics(state, oid).names == ("Bottomless Pool", "Locker Room")


def test_the_opponent_cannot_unlock_a_face_down_room_it_cannot_identify() -> None:
    state, oid = _with(ROOM, "battlefield")
    state = apply(state, v.TurnFaceDown(object=oid)).state
    out = apply(state, Unlock(object=oid, door="left"), "bob")
    assert out.result == NOTHING  # a face-down permanent is named as what it is: no doors
    assert "Pool" not in " ".join(r.reason for r in out.rulings)
    assert not [a for a in legal_actions(state, "bob") if isinstance(a.action, Unlock)]


def test_a_door_name_that_is_not_a_door_is_an_input_error() -> None:
    state, oid = _with(ROOM, "battlefield")
    with pytest.raises(InputError) as err:
        apply(state, Unlock(object=oid, door="Attic"))
    assert err.value.key == "door" and "Locker Room" in str(err.value)


def test_fuse_is_offered_and_refused_by_other_games() -> None:
    state, oid = _with(FUSE, "hand")
    fused = [a for a in legal_actions(state, "alice") if getattr(a.action, "fuse", False)]
    assert [a.action for a in fused] == [v.Cast(object=oid, fuse=True)]
    out = apply(state, v.Cast(object=oid, fuse=True))
    assert out.result == DONE and _now(out.state, state, oid).mana_value == 5
    fab_state = new_state("fab", ("alice", "bob"))
    plain = CardDef(name="X", faces=(Face(name="X"),))
    fab_state, card_id = get_ruleset("fab").add_card(fab_state, plain, "hand", owner="alice")
    obj = fab_state.object_of_card(card_id)
    assert obj is not None
    with pytest.raises(InputError) as err:
        apply(fab_state, v.Cast(object=obj.id, fuse=True))
    assert err.value.key == "fuse"


@pytest.mark.parametrize("ruleset", ["mtg@2020", "mtg@2008"])
def test_versions_before_these_rules(ruleset: str) -> None:
    """No Room, fuse or prototype rule ids in the 2020 and 2008 texts: a Room is a plain split
    card, fuse and unlock are errors, a prototype card is cast normally only."""
    state, oid = _with(ROOM, "battlefield", ruleset)
    assert characteristics(state, oid).names == ("Bottomless Pool", "Locker Room")
    with pytest.raises(RulesError):
        apply(state, Unlock(object=oid, door="left"))
    state, fid = _with(FUSE, "hand", ruleset)
    with pytest.raises(RulesError):
        apply(state, v.Cast(object=fid, fuse=True))
    state, pid = _with(PROTOTYPE, "hand", ruleset)
    assert apply(state, v.Cast(object=pid, face="back")).result == ILLEGAL
    out = apply(state, v.Cast(object=pid))
    assert out.result == DONE and _now(out.state, state, pid).props.power == 6


CARD = (
    "cards:\n  - name: Pool // Locker\n    layout: split\n    faces:\n"
    "      - {name: Pool, cost: '{U}', types: [Enchantment], subtypes: [Room]}\n"
    "      - {name: Locker, cost: '{4}{U}', types: [Enchantment], subtypes: [Room]}\n"
)


@pytest.mark.parametrize(
    "entry",
    [
        "{label: r, card: Pool // Locker, zone: hand, unlocked: [left]}",
        "{label: r, card: Pool // Locker, zone: battlefield, unlocked: [middle]}",
        "{label: r, card: Pool // Locker, zone: battlefield, unlocked: left}",
        "{label: r, card: Elite Vanguard, zone: battlefield, unlocked: [left]}",
    ],
)
def test_bad_unlocked_setup_is_a_clear_error(tmp_path: Path, entry: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"ruleset: mtg\n{CARD}setup:\n  - {entry}\nsteps:\n  - end_turn: null\n")
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert result.error.place == "setup[1]" and result.error.key == "unlocked"


def test_unlocked_setup_by_name_and_side(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(
        f"ruleset: mtg\n{CARD}setup:\n"
        "  - {label: r, card: Pool // Locker, zone: battlefield, unlocked: [Locker]}\n"
        "steps:\n  - expect: {object: r, names: [Locker], mana_value: 5}\n"
        "  - unlock: {object: r, door: right}\n  - expect: {last_result: nothing_happened}\n"
    )
    assert run_scenario(path).status == "PASS"
