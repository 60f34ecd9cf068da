"""The core edits the hot paths use: ``relocate`` is ``remove`` then ``place`` in one edit,
zones and trails built as structs behave as before, and a move's state equals the one the
separate edits build."""

from __future__ import annotations

import random

import msgspec
import pytest

from obverse import state as core
from obverse import vocab as v
from obverse.bench import board
from obverse.engine import apply
from obverse.fuzz import random_deal
from obverse.registry import get_ruleset
from obverse.state import EMPTY_ZONE, Trail, Zone


def _two_steps(
    state: core.GameState,
    old: core.GameObject,
    old_key: str,
    new: core.GameObject,
    new_key: str,
    position: str | None,
) -> core.GameState:
    return core.place(core.remove(state, old, old_key), new, new_key, position)


@pytest.mark.parametrize("position", [None, "bottom"])
@pytest.mark.parametrize("seed", range(6))
def test_relocate_is_remove_then_place(seed: int, position: str | None) -> None:
    rng = random.Random(seed)
    state = random_deal("mtg", rng, 12)
    rs = get_ruleset("mtg")
    for old in list(state.objects.values()):
        old_key = state.zone_key_of(old)
        zone = rng.choice(sorted(rs.zones))
        new = msgspec.structs.replace(
            old, id=old.id if rng.random() < 0.3 else state.next_id, zone=zone
        )
        new_key = rs.zone_key(zone, new.owner)
        one = core.relocate(state, old, old_key, new, new_key, position)
        two = _two_steps(state, old, old_key, new, new_key, position)
        assert one == two
        assert dict(one.zones.items()) == dict(two.zones.items())
        assert dict(one.card_object.items()) == dict(two.card_object.items())
        assert one.trail.since(state.trail, 10) == {old.id, new.id}


def test_relocate_within_one_zone_keeps_a_shuffled_zone_count() -> None:
    state = board(5)
    rs = get_ruleset("mtg")
    key = "battlefield"
    ids = state.zone_contents(key)
    state = core.shuffle_zone(state, key, ids)
    old = state.objects[ids[0]]
    for position in (None, "bottom"):
        out = core.relocate(state, old, key, old, key, position)
        assert out.zones[key].shuffles == 1
        assert out.zones[key] == _two_steps(state, old, key, old, key, position).zones[key]
    assert rs.zone_key("battlefield", "alice") == key


def test_zone_struct_orders_compares_and_hashes_by_content() -> None:
    z = Zone.of([3, 1, 2])
    assert list(z) == [3, 1, 2] and len(z) == 3 and 1 in z and 9 not in z
    assert z.put(7).ids() == (7, 3, 1, 2)
    assert z.put(7, bottom=True).ids() == (3, 1, 2, 7)
    assert z.without(3).top() == 1 and z.without(2).bottom() == 1
    assert z.swap(1, 8).ids() == (3, 8, 2)
    # Built another way, the same contents are the same zone.
    assert Zone.of([1, 2]).put(3) == Zone.of([3, 1, 2])
    assert hash(Zone.of([1, 2]).put(3)) == hash(Zone.of([3, 1, 2]))
    assert z != z.shuffled([3, 1, 2])  # one shuffle later: handles differ
    assert not EMPTY_ZONE and not z.without(3).without(1).without(2)
    assert repr(z) == "Zone([3, 1, 2], shuffles=0)"


def test_trails_count_depth_compare_equal_and_free_without_recursing() -> None:
    root = Trail()
    t = root
    for oid in range(200_000):  # freeing a long trail must not overflow the C stack
        t = Trail(t, oid, t.depth + 1)
    assert t.depth == 200_000 and t == root and hash(t) == hash(root)
    assert t.since(Trail(t, 5, t.depth + 1), 10) == {5}
    del t


def test_move_and_transform_states_equal_the_separate_edits() -> None:
    state = board(30)
    dfc = state.objects[state.zones["battlefield"][0]]
    moved = apply(state, v.Move(object=dfc.id, to="graveyard")).state
    new = moved.objects[moved.zones[f"{dfc.owner}:graveyard"][0]]
    expected = core.place(core.remove(state, dfc, "battlefield"), new, f"{dfc.owner}:graveyard")
    expected = msgspec.structs.replace(expected, clock=moved.clock, next_id=moved.next_id)
    assert moved == expected
    turned = apply(state, v.Transform(object=dfc.id)).state
    back = turned.objects[dfc.id]
    assert back.face == "back" and back.timestamp == turned.clock == state.clock + 1


def test_knowledge_prechecks_keep_every_match() -> None:
    # forget, knows and shuffle first look for the object (or card) among the entries:
    # an entry found only through its card (lasting), or one of several, still counts.
    state = board(5)
    rs = get_ruleset(state.ruleset)
    oid = state.zones["battlefield"][0]
    obj = state.objects[oid]
    other = core.Knowledge(player="bob", card=obj.card + 999, obj=oid + 999)
    lasting = core.Knowledge(player="bob", card=obj.card, obj=oid + 500, lasting=True)
    brief = core.Knowledge(player="bob", card=obj.card, obj=oid)
    known = msgspec.structs.replace(state, knowledge=(other, lasting))
    assert rs.knows(known, "bob", obj) and not rs.knows(known, "alice", obj)
    assert not rs.knows(msgspec.structs.replace(state, knowledge=(other,)), "bob", obj)
    both = msgspec.structs.replace(state, knowledge=(other, brief, lasting))
    assert core.forget(both, oid).knowledge == (other, lasting)
    assert core.forget(both, oid + 500).knowledge == (other, brief, lasting)
