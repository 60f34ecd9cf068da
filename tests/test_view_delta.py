"""Incremental views and deltas: over random histories of every ruleset, for every viewer,
the patched view equals a view built from scratch, ``apply_delta(old, view_delta(old, ...))``
equals the new view, and a delta is never longer than the full view."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obverse import views
from obverse.fuzz import PLAYERS
from obverse.registry import rulesets
from obverse.state import GameState
from obverse.testing import random_history

ALIASES = sorted({cls.aliases[0] for cls in rulesets()})
VIEWERS: tuple[str | None, ...] = (*PLAYERS, None)


def _size(data: dict[str, Any]) -> int:
    return len(json.dumps(data, sort_keys=True, ensure_ascii=False))


def history(alias: str, seed: int, steps: int, cards: tuple[int, int] = (4, 24)) -> list[GameState]:
    """The states of a random history (``cards``: the range of the deal's size)."""
    return random_history(alias, seed, steps, cards)


def _check(states: list[GameState], viewer: str | None, lag: int) -> None:
    old = views.view(states[0], viewer)
    for i, state in enumerate(states[1:], 1):
        new = views.view(state, viewer)
        assert new == views.fresh_view(state, viewer), f"step {i}"
        base = views.view(states[max(0, i - lag)], viewer) if lag > 1 else old
        delta = views.view_delta(base, state, viewer)
        assert views.apply_delta(base, delta) == new, f"step {i}"
        assert _size(delta) <= _size(new), f"step {i}"
        old = new


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1 << 30), lag=st.integers(1, 4))
def test_delta_rebuilds_the_fresh_view(alias: str, seed: int, lag: int) -> None:
    states = history(alias, seed, 30)
    for viewer in VIEWERS:
        _check(states, viewer, lag)


def test_delta_of_an_unchanged_state_is_empty() -> None:
    state = history(ALIASES[0], 7, 5)[-1]
    old = views.view(state, "bob")
    assert views.view_delta(old, state, "bob") == {}


def test_a_move_patches_one_zone_only() -> None:
    states = history("mtg", 3, 40)
    moved = [
        (a, b)
        for a, b in itertools.pairwise(states)
        if len(a.objects) == len(b.objects) and a.zones is not b.zones
    ]
    assert moved, "the history has a zone change"
    a, b = moved[0]
    old = views.view(a, "alice")
    delta = views.view_delta(old, b, "alice")
    assert len(delta.get("zones", [])) <= 2
    assert views.apply_delta(old, delta) == views.fresh_view(b, "alice")


def test_views_stay_valid_after_later_views() -> None:
    states = history("fab", 11, 30)
    early = views.view(states[1], None)
    snapshot = json.dumps(early, sort_keys=True)
    for s in states[2:]:
        views.view(s, None)
    assert json.dumps(early, sort_keys=True) == snapshot


def test_views_handed_out_never_change_when_later_views_are_patched_in_place() -> None:
    """A kept view nobody else holds is patched in place; one a caller holds (whole, or just a
    zone's list of objects) is copied first, so what the caller has stays as it was."""
    import copy

    from obverse import vocab as v
    from obverse.bench import board
    from obverse.engine import apply
    from obverse.views import fresh_view, view

    state = board(120, seed=4)
    oid = state.zones["battlefield"][0]
    others = list(state.zones["battlefield"])[1:6]
    whole = view(state, "alice")
    whole_copy = copy.deepcopy(whole)
    objs = None
    for i, other in enumerate(others):
        state = apply(state, v.Transform(object=oid)).state
        seen = view(state, "alice")
        assert seen == fresh_view(state, "alice")
        if i == 1:
            objs = seen["zones"][0]["objects"]  # hold one zone's list only
            objs_copy = list(objs)
        state = apply(state, v.Move(object=other, to="graveyard")).state
        assert view(state, "alice") == fresh_view(state, "alice")
    assert whole == whole_copy
    assert objs is not None and objs == objs_copy


def test_a_kept_view_without_the_changed_entry_is_rebuilt() -> None:
    """A patch finds an old entry's place from the kept view's state; if the entry isn't
    there (a kept view damaged by a caller editing it), the view is rebuilt, not mispatched."""
    from obverse import vocab as v
    from obverse.bench import board
    from obverse.engine import apply

    state = board(30, seed=3)
    dfc = state.objects[state.zones["battlefield"][0]]
    views.clear_cache(shapes=False)
    kept = views.view(state, "bob")
    zone = next(z for z in kept["zones"] if z["zone"] == "battlefield")
    gone = views.handle(state, "bob", dfc)
    memo = views._KEPT.table[(state.secret, state.ruleset, "bob")]
    part = memo.parts["battlefield"]
    i = next(i for i, e in enumerate(part.entries) if e["handle"] == gone)
    del part.keys[i], part.entries[i]
    assert all(e["handle"] != gone for e in zone["objects"])
    after = apply(state, v.Transform(object=dfc.id)).state
    assert views.view(after, "bob") == views.fresh_view(after, "bob")
