"""Explanations come from the branch that decides: ``obverse card`` cites exactly the rulings
of ``Characteristics.why``; the 712.8e mana value and its ruling agree; a search's rulings
are those of the decision that chose how it sees objects."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from obverse import vocab as v
from obverse.cardinfo import describe, explain
from obverse.cards import CardDef, Face
from obverse.characteristics import characteristics
from obverse.cli import iter_scenarios
from obverse.engine import apply
from obverse.mana import mana_value
from obverse.registry import get_ruleset
from obverse.rulesets.mtg.faces import MagicFaces
from obverse.rulings import Decided, Ruling
from obverse.runner import run_scenario
from obverse.state import GameObject, GameState, new_state
from obverse.views import view_object

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = list(iter_scenarios([str(EXAMPLES)]))


def _ids(rulings: Sequence[Ruling]) -> list[str]:
    return [r.rule for r in rulings]


@cache
def _final_state(path: str) -> GameState:
    result = run_scenario(path)
    assert result.state is not None, result.line()
    return result.state


def _fresh_comparable(state: GameState, obj: GameObject) -> bool:
    """Whether ``obverse card`` for this card, zone and face describes the same object: no
    copy effect, meld, facing or card status of its own that a fresh card wouldn't have."""
    if obj.copies or obj.meld is not None or obj.face_down or obj.token or obj.unlocked:
        return False
    if obj.components:  # a merged permanent (MTG 729.2): more than one card
        return False
    if any(d[1] == obj.id for d in state.designations):
        return False  # a rule's designation (FaB 8.1.11b: a demi-hero that is the hero)
    physical = state.cards[obj.card]
    if physical.transcended:
        return False
    rs = get_ruleset(state.ruleset)
    if rs.face_down_on_setup(obj.zone, None):  # a fresh card there is face down (scp sandbox)
        return False
    return obj.face in rs.allowed_faces(physical.card, obj.zone)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(EXAMPLES)))
def test_card_explanation_is_the_characteristics_why(path: str) -> None:
    state = _final_state(path)
    rs = get_ruleset(state.ruleset)
    for obj in state.iter_objects():
        why = _ids(characteristics(state, obj).why)
        assert _ids(explain(state, obj)) == why, (obj.id, obj.zone, obj.face)
        for viewer in (None, *state.players):  # a view cites what the decision cited
            entry = view_object(state, viewer, obj, rs)
            if entry["visible"]:
                assert list(entry.get("why") or []) == list(why), (viewer, obj.id)
        if not _fresh_comparable(state, obj):
            continue
        card = state.cards[obj.card].card
        info = describe(rs.game, card, zone=obj.zone, face=obj.face, ruleset=rs.name)
        assert info.chars is not None
        assert sorted(set(_ids(info.rulings))) == sorted(set(why)), (card.name, obj.zone)
        if not state.effects:
            assert info.chars.mana_value == characteristics(state, obj).mana_value


def _mtg_object(card: CardDef, face: str, ruleset: str = "mtg") -> tuple[GameState, int]:
    state = new_state(ruleset, ("you",))
    state, card_id = get_ruleset(ruleset).add_card(
        state, card, "battlefield", owner="you", face=face
    )
    obj = state.object_of_card(card_id)
    assert obj is not None
    return state, obj.id


def _two_faced(layout: str) -> CardDef:
    front = Face(name="Front", cost="{4}{G}", types=("Creature",), power=4, toughness=4)
    back = Face(name="Back", cost="{1}" if layout != "transform" else None, types=("Creature",))
    return CardDef(name="Front // Back", layout=layout, faces=(front, back))


@pytest.mark.parametrize("layout", ["transform", "reversible_card", "modal_dfc"])
@pytest.mark.parametrize("ruleset", ["mtg", "mtg@2025-06", "mtg@2020"])
def test_back_face_mana_value_and_its_ruling_agree(layout: str, ruleset: str) -> None:
    card = _two_faced(layout)
    state, oid = _mtg_object(card, "back", ruleset)
    chars = characteristics(state, oid)
    rs = get_ruleset(ruleset)
    assert isinstance(rs, MagicFaces)
    front_mv = mana_value("{4}{G}")
    claims_front = any(
        r.rule == rs.rule_ids["dfc_back_up"] and "from the front face" in r.reason
        for r in chars.why
    )
    assert claims_front == (chars.mana_value == front_mv)
    assert chars.props.name == "Back"
    if layout == "transform":
        assert chars.mana_value == front_mv  # 712.8e
    else:
        assert chars.mana_value == mana_value("{1}")  # each face has a mana cost of its own


def test_front_face_up_cites_its_branch() -> None:
    state, oid = _mtg_object(_two_faced("transform"), "front")
    chars = characteristics(state, oid)
    assert _ids(chars.why) == ["712.8d"]
    assert chars.mana_value == mana_value("{4}{G}")


@pytest.mark.parametrize("ruleset", ["mtg", "mtg@2008", "fab", "ga", "scp"])
@pytest.mark.parametrize("verb", [v.Search, v.Select])
def test_search_rulings_are_the_decisions(
    ruleset: str, verb: type[v.Search] | type[v.Select]
) -> None:
    rs = get_ruleset(ruleset)
    state = new_state(rs.name, ("alice", "bob"))
    for zone in sorted(rs.zones):
        decided = rs.query_sight(v.verb_of(verb), zone)
        assert isinstance(decided, Decided)
        out = apply(state, verb(player="alice", zone=zone))
        assert out.rulings == decided.rulings, zone


def test_search_sees_what_its_decision_sees() -> None:
    """MTG: a transformed card searched for in the graveyard is seen by its front face."""
    rs = get_ruleset("mtg")
    state = new_state("mtg", ("alice",))
    card = _two_faced("transform")
    state, card_id = rs.add_card(state, card, "graveyard", owner="alice", face="front")
    obj = state.object_of_card(card_id)
    assert obj is not None
    sight, _ = rs.query_sight("search", "graveyard")
    assert sight(state, obj).props.name == "Front"
    out = apply(state, v.Search(player="alice", zone="graveyard", where={"name": "Front"}))
    assert out.answer == (obj.id,)
    out = apply(state, v.Search(player="alice", zone="graveyard", where={"name": "Back"}))
    assert out.answer == ()
