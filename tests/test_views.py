"""Views: twin scenarios give byte-identical views, handles are unlinkable, and views and
events carry nothing the viewer may not know."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obverse import Game
from obverse import vocab as v
from obverse.cli import main
from obverse.engine import apply
from obverse.views import handle, view, view_events

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TWINS = sorted(EXAMPLES.rglob("*-twin-a.yaml"))


def _view_bytes(path: Path, viewer: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["run", str(path), "--view", viewer, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    record = json.loads(out)
    assert record["file"] == str(path) and record["result"] == "PASS"
    # The record is canonical JSON with "view" its last key: the view's own bytes.
    start = out.index(',"view":') + len(',"view":')
    assert json.loads(out[start:-2]) == record["view"]
    return out[start:-2]


def test_every_game_has_a_twin_pair() -> None:
    games = {p.relative_to(EXAMPLES).parts[0] for p in TWINS}
    assert {"mtg", "fab", "ga", "scp"} <= games


@pytest.mark.parametrize("twin_a", TWINS, ids=lambda p: str(p.relative_to(EXAMPLES)))
@pytest.mark.parametrize("viewer", ["bob", "spectator"])
def test_twin_views_are_identical(
    twin_a: Path, viewer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    twin_b = twin_a.with_name(twin_a.name.replace("-twin-a", "-twin-b"))
    a = _view_bytes(twin_a, viewer, capsys)
    b = _view_bytes(twin_b, viewer, capsys)
    assert a == b
    # the files must really differ in hidden information
    assert twin_a.read_text() != twin_b.read_text()


def test_view_is_deterministic_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = TWINS[0]
    assert _view_bytes(path, "bob", capsys) == _view_bytes(path, "bob", capsys)


def test_hidden_hand_card_and_draw_event() -> None:
    game = Game("mtg")
    secret = game.add("Delver of Secrets", zone="library", owner="alice")
    before = game.state
    out = game.move(secret, "hand")
    bob = json.dumps(view(out.state, "bob"))
    assert "Delver" not in bob
    alice = json.dumps(view(out.state, "alice"))
    assert "Delver of Secrets" in alice
    events = view_events(before, out.state, out.events, "bob")
    assert events and "card" not in events[0]
    assert view_events(before, out.state, out.events, "alice")[0]["card"].startswith("Delver")


def test_face_down_is_a_nameless_2_2_to_the_opponent() -> None:
    game = Game("mtg")
    demon = game.add("Grinning Demon", zone="battlefield", face_down=True)
    obj = view(game.state, "bob")["zones"][0]["objects"][0]
    assert obj["visible"] is False and obj.get("name") is None
    assert (obj["power"], obj["toughness"], obj["mana_value"]) == (2, 2, 0)
    mine = view(game.state, "alice")["zones"][0]["objects"][0]
    assert mine["card"] == "Grinning Demon" and mine["face_down"] is True
    assert "name" not in mine  # its characteristics are still those of a face-down 2/2
    assert game.obj(demon).face_down


def test_handles_change_on_shuffle_and_new_object() -> None:
    game = Game("mtg")
    cards = [game.add(n, zone="library") for n in ("Clone", "Elite Vanguard", "Moonmist")]
    obj = game.obj(cards[0])
    h1 = handle(game.state, "bob", obj)
    out = apply(game.state, v.Shuffle(player="alice", zone="library"))
    assert handle(out.state, "bob", out.state.objects[obj.id]) != h1
    game.state = out.state
    game.move(cards[0], "hand")
    assert handle(game.state, "bob", game.obj(cards[0])) != h1
    assert all(not h.startswith(str(obj.id)) for h in [h1])


def test_zone_top_and_bottom_after_many_removals_from_either_end() -> None:
    import random as _random

    from obverse.state import Zone

    rng = _random.Random(3)
    zone = Zone.of(range(2000))
    order = list(range(2000))
    next_id = 2000
    for step in range(3000):
        r = rng.random()
        if order and r < 0.35:
            oid = order[0]  # from the top
        elif order and r < 0.7:
            oid = order[-1]  # from the bottom
        elif order and r < 0.85:
            oid = rng.choice(order)  # from the middle: leaves a hole
        else:
            oid, next_id = next_id, next_id + 1
            bottom = rng.random() < 0.5
            zone = zone.put(oid, bottom=bottom)
            order = [*order, oid] if bottom else [oid, *order]
            continue
        zone = zone.without(oid)
        order.remove(oid)
        assert zone.top() == (order[0] if order else None), step
        assert zone.bottom() == (order[-1] if order else None), step
        # Every rank is within the bounds, so a new top or bottom goes past them.
        if order:
            assert zone.lo <= zone.rank(order[0]) and zone.rank(order[-1]) <= zone.hi  # type: ignore[operator]
    assert list(zone) == order


def test_effects_that_name_their_objects_give_what_the_layer_by_layer_path_gives() -> None:
    """Effects that all name their objects are looked up by id (sums of power and toughness
    precomputed); a filter effect that matches nothing sends the same objects through the
    layer-by-layer path: both must give the same characteristics."""
    from obverse.bench import board
    from obverse.characteristics import apply_effects, base_characteristics, clear_cache
    from obverse.rulesets import get_ruleset

    rs = get_ruleset("mtg")
    state = board(40, seed=7)
    ids = list(state.zones["battlefield"])[:6]
    changes: list[dict[str, object]] = [
        {"power": 2, "toughness": -1},
        {"set_power": 0},
        {"power": 3},
        {"add_types": ["Artifact"], "toughness": 4},
        {"lose_all_abilities": True},
        {"power": "x"},  # not a number: skipped on both paths
    ]
    for n, (oid, modify) in enumerate(zip(ids * 2, changes * 2, strict=True)):
        state = apply(state, v.ApplyEffect(label=f"e{n}", to=oid, modify=modify)).state
    state = apply(state, v.Transform(object=ids[0])).state
    nothing = v.ApplyEffect(label="none", to={"name": "No Such Card"}, modify={"power": 9})
    probe = apply(state, nothing).state
    assert probe.effects != state.effects
    seen = set()
    for oid in ids:
        clear_cache()
        fast = apply_effects(
            state, state.objects[oid], base_characteristics(state, state.objects[oid], rs), rs
        )
        slow = apply_effects(
            probe, probe.objects[oid], base_characteristics(probe, probe.objects[oid], rs), rs
        )
        assert fast == slow
        seen.add((fast.props.power, fast.props.toughness))
    assert len(seen) > 2  # the effects did change different objects differently


def test_handles_in_a_view_are_the_handle_function_s() -> None:
    """A first view makes handles its own faster way (the text after the id once per zone):
    every one equals :func:`handle` of the object, for a player and a spectator."""
    from obverse.bench import board
    from obverse.views import clear_cache, handle, view

    state = board(150, seed=2)
    for viewer in ("bob", None):
        clear_cache()
        got = {e["handle"] for z in view(state, viewer)["zones"] for e in z["objects"]}
        assert got == {handle(state, viewer, o) for o in state.objects.values()}
        assert len(got) == len(state.objects)


def test_a_view_shape_is_at_least_as_fine_as_the_characteristics_shape() -> None:
    """View bodies are shared by objects of one shape
    (:func:`obverse.characteristics.object_shape`): two objects of one view shape must have
    one characteristics shape (else a shared body would be stale), and every object field the
    characteristics shape counts must change the view shape too (a field added to GameObject
    later counts without an edit)."""
    import msgspec

    from obverse.bench import board
    from obverse.characteristics import NOT_SHAPE as _NOT_SHAPE
    from obverse.characteristics import object_shape as _shape
    from obverse.characteristics import shape_key
    from obverse.state import GameObject

    state = board(120, seed=4)
    objs = list(state.objects.values())
    by_view: dict[tuple[object, ...], tuple[object, ...]] = {}
    for o in objs:
        key = shape_key(state, o)
        assert by_view.setdefault(_shape(state.cards, o, ()), key) == key
    assert len(by_view) < len(objs)  # objects do share shapes
    o = objs[0]
    values: dict[str, object] = {"zone": "graveyard", "owner": "zed", "controller": "zed"}
    values |= {"face": "back", "counters": (("x", 1),), "unlocked": ("left",)}
    for f in GameObject.__struct_fields__:
        if f in _NOT_SHAPE:
            continue
        old = getattr(o, f)
        new = values.get(f, (not old) if isinstance(old, bool) else 7)
        changed = msgspec.structs.replace(o, **{f: new})
        assert _shape(state.cards, changed, ()) != _shape(state.cards, o, ()), f
        assert shape_key(state, changed) != shape_key(state, o), f
