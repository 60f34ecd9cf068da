"""The memos on the hot paths can't go stale: each is keyed by everything its answer depends
on (the ruleset class, the card, the face, the status), so asking in another order, another
rules version or about another object gives the answer a fresh computation gives."""

from __future__ import annotations

import pytest

from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import characteristics, clear_cache
from obverse.engine import apply
from obverse.errors import InputError
from obverse.play import deal
from obverse.registry import get_ruleset
from obverse.rulesets.mtg.faces import MagicFaces
from obverse.rulings import DONE, NOTHING
from obverse.state import GameObject, GameState

BEAR = Face(name="Bear", types=("Creature",), power=2, toughness=2)
SPELL = Face(name="Zap", types=("Instant",))
#: Its back face is an instant: it can't transform front to back, but back to front it can.
ODD = CardDef(name="Bear // Zap", layout="transform", faces=(BEAR, SPELL))
MODAL = CardDef(name="Bear // Wolf", layout="modal_dfc", faces=(BEAR, BEAR))


def _on_battlefield(alias: str, card: CardDef, face: str) -> tuple[GameState, int]:
    rs = get_ruleset(alias)
    state = deal(alias, [])
    state, card_id = rs.add_card(state, card, "battlefield", face=face)
    obj = state.object_of_card(card_id)
    assert obj is not None
    return state, obj.id


@pytest.mark.parametrize("first", ["front", "back"])
def test_transform_decision_depends_on_the_face_up(first: str) -> None:
    # The same printed card, asked about with one face up, then the other.
    results = {}
    for face in (first, "back" if first == "front" else "front"):
        state, oid = _on_battlefield("mtg", ODD, face)
        results[face] = apply(state, v.Transform(object=oid)).result
    assert results == {"front": NOTHING, "back": DONE}


@pytest.mark.parametrize("order", [("mtg", "mtg@2025-06"), ("mtg@2025-06", "mtg")])
def test_transform_decision_depends_on_the_rules_version(order: tuple[str, str]) -> None:
    # Modal DFCs transform under the newest rules only (712.9).
    results = {}
    for alias in order:
        state, oid = _on_battlefield(alias, MODAL, "front")
        out = apply(state, v.Transform(object=oid))
        results[alias] = (out.result, out.cites)
    assert results["mtg"][0] == DONE
    assert results["mtg@2025-06"][0] == NOTHING
    assert results["mtg"][1] != results["mtg@2025-06"][1]


def test_rulings_cite_each_versions_own_numbers() -> None:
    # The same topic and reason, memoized per ruleset: each version keeps its numbering.
    newest, v2020 = get_ruleset("mtg"), get_ruleset("mtg@2020")
    assert isinstance(newest, MagicFaces) and isinstance(v2020, MagicFaces)
    new = newest.cite("transform", "it turns over")[0]
    old = v2020.cite("transform", "it turns over")[0]
    assert (new.rule, new.version) != (old.rule, old.version)
    assert old.rule.startswith("701.28")


def test_zone_names_are_checked_per_ruleset() -> None:
    scp = deal("scp", [])
    mtg = deal("mtg", [])
    # scp accepts "chain" for its stack; once that is known, mtg still doesn't.
    scp_state, card = get_ruleset("scp").add_card(scp, CardDef(name="X", faces=(Face(),)), "hand")
    obj = scp_state.object_of_card(card)
    assert obj is not None
    out = apply(scp_state, v.Move(object=obj.id, to="chain"))
    assert out.result == DONE and scp_state.objects[obj.id].zone == "hand"
    assert out.state.object_of_card(card).zone == "stack"  # type: ignore[union-attr]
    mtg_state, mcard = get_ruleset("mtg").add_card(mtg, ODD, "hand")
    mobj = mtg_state.object_of_card(mcard)
    assert mobj is not None
    for _ in range(2):  # the second time the accepted names are known: still refused
        with pytest.raises(InputError, match="unknown zone"):
            apply(mtg_state, v.Move(object=mobj.id, to="chain"))


def test_objects_of_one_card_in_other_status_get_their_own_characteristics() -> None:
    clear_cache()
    rs = get_ruleset("mtg")
    state = deal("mtg", [])
    state, front_card = rs.add_card(state, ODD, "battlefield", face="front")
    state, back_card = rs.add_card(state, ODD, "battlefield", face="back")
    state, down_card = rs.add_card(state, ODD, "battlefield", face_down=True)
    names = {}
    for card in (front_card, back_card, down_card, front_card):
        obj = state.object_of_card(card)
        assert obj is not None
        clear_cache(shapes=False)  # each object new; the shapes kept from the ones before
        names[card] = characteristics(state, obj).names
    assert names == {front_card: ("Bear",), back_card: ("Zap",), down_card: ()}


def _two_bears() -> tuple[GameState, tuple[GameObject, GameObject]]:
    """Two objects of one card and status on the battlefield."""
    rs = get_ruleset("mtg")
    state = deal("mtg", [])
    state, a = rs.add_card(state, ODD, "battlefield")
    state, b = rs.add_card(state, ODD, "battlefield")
    oa, ob = state.object_of_card(a), state.object_of_card(b)
    assert oa is not None and ob is not None
    return state, (oa, ob)


def test_power_and_toughness_effects_add_to_each_object_only() -> None:
    clear_cache()
    state, (oa, ob) = _two_bears()
    for modify in ({"power": 1, "toughness": 3}, {"power": 2}, {"toughness": -1}):
        state = apply(state, v.ApplyEffect(label="x", to=oa.id, modify=modify)).state
    pa = characteristics(state, state.objects[oa.id]).props
    pb = characteristics(state, state.objects[ob.id]).props
    assert (pa.power, pa.toughness) == (5, 4)
    assert (pb.power, pb.toughness) == (2, 2)


def test_objects_of_one_shape_share_only_the_effects_that_name_each() -> None:
    # Two objects of one card and status: characteristics are shared per shape and the
    # effects naming the object, so one's pump never reaches the other, in any order, and a
    # filter effect (which may look at the id) is applied object by object.
    state, (oa, ob) = _two_bears()
    pumped = apply(state, v.ApplyEffect(label="x", to=oa.id, modify={"power": 1})).state
    for order in ((oa.id, ob.id), (ob.id, oa.id)):
        clear_cache()
        seen = {}
        for oid in order:
            for s in (state, pumped, state):
                clear_cache(shapes=False)
                seen[oid, s is pumped] = characteristics(s, s.objects[oid]).props.power
        assert seen == {(oa.id, False): 2, (oa.id, True): 3, (ob.id, False): 2, (ob.id, True): 2}
    both = apply(
        pumped, v.ApplyEffect(label="y", to={"name": "Bear"}, modify={"toughness": 5})
    ).state
    clear_cache(shapes=False)
    pa, pb = (characteristics(both, both.objects[o]).props for o in (oa.id, ob.id))
    assert (pa.power, pa.toughness, pb.power, pb.toughness) == (3, 7, 2, 7)


def test_an_id_and_its_object_give_one_answer_and_a_hit_is_checked_against_the_state() -> None:
    # A hit is looked up by the object passed; an id is looked up through the state's object.
    clear_cache()
    state, (oa, _) = _two_bears()
    by_obj = characteristics(state, oa)
    assert characteristics(state, oa.id) is by_obj  # the id finds the cached object's entry
    pumped = apply(state, v.ApplyEffect(label="x", to=oa.id, modify={"power": 3})).state
    # The same object under other effects: not the cached entry.
    assert pumped.objects[oa.id] is oa
    assert characteristics(pumped, oa).props.power == 5
    assert characteristics(pumped, oa.id).props.power == 5
    assert characteristics(state, oa).props.power == 2  # and back: the first state again
