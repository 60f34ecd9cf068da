"""The first view's fast paths (bodies shared per shape, handles per 8 ids, entries grouped
and sorted per zone, sort keys made only when a patch needs them) give byte for byte the view
defined object by object: each entry its plain body and :func:`handle`, each zone in rank
order (ordered zones) or by visibility, name and handle, for every player and the judge."""

from __future__ import annotations

import json

import pytest

from obverse import views
from obverse import vocab as v
from obverse.bench import board
from obverse.engine import apply
from obverse.fuzz import PLAYERS
from obverse.registry import rulesets
from obverse.testing import reference_view
from test_view_delta import history

ALIASES = sorted({cls.aliases[0] for cls in rulesets()})
VIEWERS: tuple[str | None, ...] = (*PLAYERS, None)


# The view by its definition is the conformance kit's (obverse.testing.reference_view).
_reference = reference_view


@pytest.mark.parametrize("alias", ALIASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_first_and_patched_views_are_the_views_by_definition(alias: str, seed: int) -> None:
    """Byte-identical JSON (key order too): a first view (kept views and per-object caches
    cleared), a patched view and a fresh one, at every step of a random history."""
    states = history(alias, seed, 25, cards=(10, 40))
    assert len(states) > 5
    for i, state in enumerate(states):
        for viewer in VIEWERS:
            want = json.dumps(_reference(state, viewer))
            patched = views.view(state, viewer)
            assert json.dumps(patched) == want, (i, viewer)
            if i % 5 == 0:
                views.clear_cache(shapes=i % 10 == 0)
                assert json.dumps(views.view(state, viewer)) == want, (i, viewer)
            assert json.dumps(views.fresh_view(state, viewer)) == want, (i, viewer)


def test_a_board_s_first_view_is_its_view_by_definition() -> None:
    """The bench's board (many objects sharing shapes, DFCs among them), for each viewer."""
    state = board(300, seed=7)
    for viewer in VIEWERS:
        views.clear_cache(shapes=False)
        assert json.dumps(views.view(state, viewer)) == json.dumps(_reference(state, viewer))


def test_sort_keys_are_made_when_a_patch_needs_them_and_match_the_entries() -> None:
    """A first view makes no sort keys for an unordered zone; the first patch makes them
    from the entries (what a key made with each entry would be), and the patched view is
    the view by definition; zones the change didn't touch are the earlier view's own."""
    state = board(60, seed=3)
    views.clear_cache(shapes=False)
    first = views.view(state, "bob")
    memo = views._KEPT.table[(state.secret, state.ruleset, "bob")]
    field = memo.parts["battlefield"]
    assert field._keys is None
    dfc = state.zones["battlefield"][0]
    moved = apply(
        apply(state, v.Transform(object=dfc)).state, v.Move(object=dfc, to="graveyard")
    ).state
    after = views.view(moved, "bob")
    assert json.dumps(after) == json.dumps(_reference(moved, "bob"))
    part = views._KEPT.table[(moved.secret, moved.ruleset, "bob")].parts["battlefield"]
    assert part._keys == [views._entry_key(e) for e in part.entries]
    assert len(part.entries) == len(field.entries) - 1
    # The earlier view is unchanged (its zone still holds the moved object).
    assert first["zones"][0]["count"] == 60


def test_a_shape_tells_apart_every_field_its_short_form_leaves_out() -> None:
    """A shape leaves out the fields at their plain defaults when all are (most objects):
    two objects of one card and status share it, and a physical card's flag, an object's
    flag or counters, or a designation each make it another shape."""
    import msgspec

    from obverse.characteristics import object_shape
    from obverse.state import PhysicalCard

    state = board(40, seed=5)
    objs = list(state.objects.values())
    o = objs[0]
    twin = msgspec.structs.replace(o, id=10_000, timestamp=99)
    base = object_shape(state.cards, o, ())
    assert object_shape(state.cards, twin, ()) == base
    variants = [object_shape(state.cards, o, ("hero",))]
    for field, value in (("face_down", True), ("counters", (("+1/+1", 1),)), ("under", 3)):
        variants.append(object_shape(state.cards, msgspec.structs.replace(o, **{field: value}), ()))
    pc = state.cards[o.cards[0]]
    for field in PhysicalCard.__struct_fields__:
        if isinstance(getattr(pc, field), bool):
            cards = state.cards.set(o.cards[0], msgspec.structs.replace(pc, **{field: True}))
            variants.append(object_shape(cards, o, ()))
    assert len(variants) >= 5
    assert base not in variants and len(set(variants)) == len(variants)
