"""A move's plan kept per object value (issue 22, apply + undo): where a ruleset's move hooks
read only the object, its printed cards and what its characteristics read
(:attr:`Ruleset.plans_per_object`), :func:`obverse.rulesets.base._kept_plan` answers as
asking the hooks does, whatever else of the state changed since it was kept."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.fuzz import card_pool, play_history
from obverse.game import Game
from obverse.play import replay
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets.base import MovePlan, Ruleset, _kept_plan
from obverse.rulesets.ga.objects import EPHEMERAL
from obverse.state import GameObject, GameState

#: The ways a move is asked: plainly, face down, face up, transformed, on a face.
_HOW: list[dict[str, Any]] = [
    {},
    {"face_down": True},
    {"face_down": False},
    {"transformed": True},
    {"face": "back"},
]

PLANNED = sorted({cls.aliases[0] for cls in rulesets() if cls.plans_per_object})


def _plain(rs: Ruleset, state: GameState, obj: GameObject, a: v.Move) -> MovePlan | str:
    # The hooks asked directly (not inside memo.plain(), which would empty the kept plans).
    return _plan(rs, state, obj, a, kept=False)


def _plan(
    rs: Ruleset, state: GameState, obj: GameObject, a: v.Move, kept: bool = True
) -> MovePlan | str:
    try:
        return _kept_plan(rs, state, obj, a, None) if kept else rs.plan_move(state, obj, a)
    except Exception as e:  # a hook refusing a move refuses it the same way both times
        return f"{type(e).__name__}: {e}"


def test_the_rulesets_keeping_plans_are_the_ones_whose_hooks_say_so() -> None:
    assert {"mtg", "ga", "scp", "fab"} <= set(PLANNED)


def test_a_zone_holding_a_card_refuses_the_same_object_value_its_kept_plan_let_in() -> None:
    """FaB 3.3.2a: the arsenal's contents are asked after the kept plan (``refuses_entry``),
    so the same object value that moved into an empty arsenal is refused by a full one."""
    g = Game("fab")
    pool = [c for c in card_pool("fab") if len(c.faces) == 1 and "Action" in c.faces[0].types]
    card, other = (g.add(pool[0], "hand", owner="alice") for _ in range(2))
    obj, before = g.obj(card), g.state
    a = v.Move(object=obj.id, to="arsenal")
    assert g.ruleset.move(before, a).result == "done"
    g.move(other, "arsenal")
    out = g.ruleset.move(g.state, a)
    assert g.obj(card) is obj and out.result == "nothing_happened"
    assert [r.rule for r in out.rulings] == ["3.3.2a"]


@pytest.mark.parametrize("alias", PLANNED)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_kept_plan_answers_as_the_hooks_do_after_every_action(alias: str, seed: int) -> None:
    """Along a random history, each object that is the same value before and after an action
    is planned to every zone every way in the state before (so a plan is kept) and then in
    the state after: the same plan as asking the hooks there."""
    hist = play_history(alias, seed, steps=30)
    rs = get_ruleset(alias)
    zones = sorted(rs.zones)
    before = hist.initial
    asked = 0
    for i in range(1, len(hist.log) + 1):
        after = replay(hist.initial, hist.log[:i])
        for oid, obj in before.objects.items():
            if after.objects.get(oid) is not obj:
                continue
            for zone in zones[:: 1 + len(zones) // 6]:
                for how in _HOW:
                    a = v.Move(object=oid, to=zone, **how)
                    _plan(rs, before, obj, a)
                    assert _plan(rs, after, obj, a) == _plain(rs, after, obj, a), (i, a)
                    asked += 1
        before = after
    assert asked > 100


def _regalia(name: str, *abilities: str) -> CardDef:
    face = Face(name=name, types=("WEAPON",), supertypes=("REGALIA",), abilities=abilities)
    return CardDef(name=name, faces=(face,))


def test_a_designation_on_the_same_object_value_changes_its_plan() -> None:
    """Ephemeral 1.1: the same object value, once ephemeral, is banished instead: the kept
    plan of the state before isn't the answer of the state after."""
    g = Game("ga")
    card = g.add(_regalia("Plain Blade"), "field", owner="alice")
    obj = g.obj(card)
    a = v.Move(object=obj.id, to="hand")
    assert _kept_plan(g.ruleset, g.state, obj, a, None).dest == "material_deck"  # Regalia 5
    marked = msgspec.structs.replace(g.state, designations=((EPHEMERAL, obj.id),))
    plan = _kept_plan(g.ruleset, marked, obj, a, None)
    assert plan.dest == "banishment"
    assert plan.rulings[0].rule == "Ephemeral 1.1"


def test_an_effect_on_the_same_object_value_changes_its_plan() -> None:
    """Renewable 1: a regalia with Renewable goes to the material deck instead of being
    banished (Regalia 4); once an effect takes its abilities away, the same object value is
    banished."""
    g = Game("ga")
    card = g.add(_regalia("Evergreen Blade", "Renewable"), "field", owner="alice")
    obj = g.obj(card)
    a = v.Move(object=obj.id, to="graveyard")
    assert _kept_plan(g.ruleset, g.state, obj, a, None).dest == "material_deck"
    g.apply_effect("silence", to=card, modify={"lose_all_abilities": True})
    assert g.obj(card) is obj  # the effect changed no object, only what applies to it
    plan = _kept_plan(g.ruleset, g.state, obj, a, None)
    assert plan.dest == "banishment"
    assert plan == _plain(g.ruleset, g.state, obj, a)


def test_each_field_of_the_move_is_part_of_what_is_kept() -> None:
    """MTG 712.14: the same object put onto the battlefield plainly, transformed and face
    down: three plans, as the hooks decide them."""
    g = Game("mtg")
    card = g.add("Delver of Secrets", "hand", owner="alice")
    obj, rs = g.obj(card), g.ruleset
    faces = []
    hows: list[dict[str, Any]] = [{}, {"transformed": True}, {"face_down": True}, {}]
    for how in hows:
        a = v.Move(object=obj.id, to="battlefield", **how)
        plan = _kept_plan(rs, g.state, obj, a, None)
        assert plan == _plain(rs, g.state, obj, a)
        faces.append((plan.face, plan.face_down))
    assert faces == [("front", False), ("back", False), ("front", True), ("front", False)]


def _every_zone(cls: type[Ruleset]) -> type[Ruleset]:
    """``cls`` asking :meth:`after_move` after every move (an override stating no zones)."""

    class Always(cls):  # type: ignore[valid-type,misc]
        def after_move(self, state: GameState, old: GameObject, new: GameObject) -> GameState:
            after: GameState = super().after_move(state, old, new)
            return after

    return Always


def test_after_move_is_asked_of_the_zones_its_overrides_state() -> None:
    """A ruleset's ``after_move_from`` is the union of its classes' ``after_move_zones``;
    an override stating none makes it every zone; with no override, no zone."""
    by_alias = {cls.aliases[0]: cls for cls in rulesets()}
    assert by_alias["mtg"].after_move_from == frozenset({"stack"})  # 708.4: a face-down kind
    assert by_alias["fab"].after_move_from == frozenset()
    assert by_alias["ga"].after_move_from is None  # 6.1.1: what a player knows, every move
    assert _every_zone(by_alias["mtg"]).after_move_from is None

    fab, mtg = by_alias["fab"], by_alias["mtg"]

    class Hand(fab):  # type: ignore[misc,valid-type]
        after_move_zones = frozenset({"hand"})

        def after_move(self, state: GameState, old: GameObject, new: GameObject) -> GameState:
            return state

    class Both(Hand, mtg):  # type: ignore[misc,valid-type]
        pass

    assert Hand.after_move_from == frozenset({"hand"})
    assert Both.after_move_from == frozenset({"hand", "stack"})


@pytest.mark.parametrize("alias", ["mtg", "fab", "ga", "scp"])
def test_a_move_asking_after_move_only_where_it_says_moves_as_asking_it_always(
    alias: str,
) -> None:
    """Along a random history, every object moved to every zone by the ruleset and by one
    asking ``after_move`` after every move: the same outcome."""
    hist = play_history(alias, 3, steps=25)
    rs = get_ruleset(alias)
    always = _every_zone(type(rs))()
    state, moved = hist.initial, 0
    for i in range(len(hist.log) + 1):
        if i:
            state = replay(state, hist.log[i - 1 : i])
        for oid in list(state.objects)[::3]:
            for zone in sorted(rs.zones):
                a = v.Move(object=oid, to=zone)
                assert _moved(rs, state, a) == _moved(always, state, a), (i, a)
                moved += 1
    assert moved > 100


def _moved(rs: Ruleset, state: GameState, a: v.Move) -> object:
    try:
        out = rs.move(state, a)
    except Exception as e:  # refused the same way both times
        return f"{type(e).__name__}: {e}"
    return out.result, out.rulings, out.events, out.state
