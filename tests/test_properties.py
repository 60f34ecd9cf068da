"""Property tests over random play, for every ruleset (hypothesis).

- invariants: every card in exactly one zone, card counts preserved, faces valid for the zone,
  copies never able to transform where the rules forbid it;
- serialization round-trips and replay reproduce the state; the same seed gives the same game;
- non-interference: two histories differing only in one player's hidden card give the other
  player byte-identical views and event streams at every step, and the hidden card's name never
  appears in what that player gets.

The number of histories per ruleset is fixed (``HISTORIES``; ``OBVERSE_FUZZ_SCALE`` multiplies
it for long local runs) and reported by ``test_report_budget``.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obverse import actions
from obverse.carddata import bundled
from obverse.cards import CardDef
from obverse.characteristics import characteristics
from obverse.play import Action, apply, deal, random_action, replay
from obverse.rulesets import get_ruleset
from obverse.serialize import dumps, loads
from obverse.state import GameState
from obverse.views import view, view_events

SCALE = int(os.environ.get("OBVERSE_FUZZ_SCALE", "1"))
HISTORIES = 100 * SCALE
STEPS = 40
RULESETS = ["mtg", "mtg@2025-06", "mtg@2020", "fab", "ga", "scp"]
PLAYERS = ("alice", "bob")


def _pool(alias: str) -> list[CardDef]:
    rs = get_ruleset(alias)
    cards = [c for c in bundled(rs.game).cards if not c.is_meld_result]
    assert cards, f"no bundled cards for {rs.game}"
    return cards


def _deal(alias: str, rng: random.Random, n: int = 10) -> GameState:
    rs = get_ruleset(alias)
    pool = _pool(alias)
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    entries = [(rng.choice(pool), rng.choice(PLAYERS), rng.choice(zones)) for _ in range(n)]
    return deal(alias, entries, PLAYERS, seed=rng.randrange(1 << 30))


def _step(state: GameState, action: Action) -> Any:
    try:
        return apply(state, action)
    except Exception as exc:  # the kernel's own refusals are fine; anything else is a bug
        from obverse.errors import ObverseError

        if isinstance(exc, ObverseError):
            return None
        raise


def check_invariants(state: GameState, cards_before: int) -> None:
    rs = get_ruleset(state.ruleset)
    seen: dict[int, str] = {}
    for key, ids in state.zones.items():
        assert len(ids) == len(set(ids)), f"duplicate object in {key}"
        for oid in ids:
            assert oid not in seen, f"object {oid} in {seen[oid]} and {key}"
            seen[oid] = key
            obj = state.objects[oid]
            assert rs.zone_key(obj.zone, obj.owner) == key
    assert set(seen) == set(state.objects.keys()), "an object outside every zone"
    for card_id, oid in state.card_object.items():
        assert card_id in state.objects[oid].cards
    physical = [c for c, pc in state.cards.items() if not pc.token]
    assert len(physical) == cards_before
    for c in physical:
        assert c in state.card_object, f"card {c} is in no zone"
    for obj in state.objects.values():
        chars = characteristics(state, obj, rs)
        assert obj.face in ("front", "back", "left", "right", "both")
        if rs.game == "mtg" and obj.zone not in ("battlefield", "stack"):
            assert obj.face in ("front", "both"), "712.8a: front face only outside play"
        if obj.face_down and rs.game == "mtg":
            assert chars.names == () and chars.mana_value == 0
        if rs.game == "mtg" and not rs.is_double_faced(state.cards[obj.card].card):
            assert not rs.can_transform(state, obj)[0], "712.9: only DFCs transform"
        if rs.game == "ga" and obj.copies:
            assert not rs.can_transform(state, obj)[0], "GA 7.2: copies can't transform"


@pytest.mark.parametrize("alias", RULESETS)
@settings(max_examples=HISTORIES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_play_keeps_invariants_and_replays(alias: str, seed: int) -> None:
    rng = random.Random(seed)
    state = initial = _deal(alias, rng)
    cards = len(state.cards)
    log: list[Action] = []
    for _ in range(STEPS):
        action = random_action(state, rng)
        out = _step(state, action)
        if out is None:
            continue
        log.append(action)
        state = out.state
        check_invariants(state, cards)
        for viewer in (*PLAYERS, None):
            view(state, viewer)
    assert loads(dumps(state)) == state
    assert dumps(loads(dumps(state))) == dumps(state)
    assert replay(initial, log) == state


@pytest.mark.parametrize("alias", RULESETS)
def test_same_seed_same_game(alias: str) -> None:
    def play(seed: int) -> bytes:
        rng = random.Random(seed)
        state = _deal(alias, rng)
        for _ in range(STEPS):
            out = _step(state, random_action(state, rng))
            state = out.state if out is not None else state
        return dumps(state)

    assert play(7) == play(7)
    assert play(7) != play(8)


# --- non-interference ------------------------------------------------------------------------


def _hidden_zones(alias: str) -> list[str]:
    rs = get_ruleset(alias)
    return sorted(z for z in rs.zones if not rs.is_public(z) and not rs.is_shared(z)
                  and z != rs.stack_zone)


def _twin_action(state: GameState, rng: random.Random, secret_card: int, alias: str) -> Action:
    """A random action that keeps alice's secret card hidden from bob."""
    rs = get_ruleset(alias)
    secret = state.object_of_card(secret_card)
    if secret is not None and rng.random() < 0.3:
        to = rng.choice(_hidden_zones(alias))
        return Action("move", secret.id, (("to", to),))
    if rng.random() < 0.15:
        return Action("shuffle", None, (("player", "alice"),
                                        ("zone", rng.choice(_hidden_zones(alias)))))
    others = [o for o in sorted(state.objects.keys())
              if secret is None or o != secret.id]
    if not others:
        return Action("end_turn")
    action = random_action(state, rng, rs, verbs=("move", "transform", "turn_face_down",
                                                  "turn_face_up", "end_turn", "examine")
                           if "transform" in rs.extra_actions else
                           ("move", "turn_face_down", "turn_face_up", "end_turn", "examine"))
    if action.obj is not None and secret is not None and action.obj == secret.id:
        return Action("end_turn")
    if action.verb == "become_copy":
        return Action("end_turn")
    return action


@pytest.mark.parametrize("alias", RULESETS)
@settings(max_examples=HISTORIES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_non_interference(alias: str, seed: int) -> None:
    rng = random.Random(seed)
    pool = _pool(alias)
    hidden = _hidden_zones(alias)
    a, b = rng.sample(pool, 2)
    rs = get_ruleset(alias)
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    public = [(rng.choice(pool), rng.choice(PLAYERS), rng.choice(zones)) for _ in range(6)]
    spot = rng.choice(hidden)
    twins = [deal(alias, [*public[:3], (secret, "alice", spot), *public[3:]], PLAYERS, seed=seed)
             for secret in (a, b)]
    secret_card = 4  # the fourth card dealt
    canaries = {n for n in (*a.face_names, a.name, *b.face_names, b.name)}
    canaries -= {n for c, _, _ in public for n in (*c.face_names, c.name)}
    for _ in range(STEPS // 2):
        action = _twin_action(twins[0], rng, secret_card, alias)
        outs = [_step(t, action) for t in twins]
        if outs[0] is None or outs[1] is None:
            assert outs[0] is None and outs[1] is None
            continue
        where = [(o.zone, o.owner) if (o := out.state.object_of_card(secret_card)) else None
                 for out in outs]
        if where[0] != where[1]:
            break  # the rules sent the two cards to different zones (GA regalia): no longer twins
        views = []
        for before, out in zip(twins, outs, strict=True):
            seen = {"view": view(out.state, "bob"),
                    "events": view_events(before, out.state, out.events, "bob"),
                    "result": out.result}
            views.append(json.dumps(seen, sort_keys=True, ensure_ascii=False))
        assert views[0] == views[1], f"bob can tell the twins apart after {action}"
        for name in canaries:
            assert name not in views[0], f"{name!r} leaks to bob"
        twins = [out.state for out in outs]
    assert actions.ruleset_of(twins[0]).name == rs.name


def test_report_budget(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print(f"\nproperty tests: {HISTORIES} histories x {STEPS} steps per ruleset "
              f"({len(RULESETS)} rulesets); OBVERSE_FUZZ_SCALE={SCALE}")
