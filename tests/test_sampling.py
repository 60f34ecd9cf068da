"""Determinization (:func:`obverse.sample`): over random histories of every ruleset, the
seat's view of a sample is byte-identical to its view of the true state, the sample keeps the
game's invariants and does deal the hidden cards anew; what it deals depends only on the
hidden cards as a set (not on where they are) and, given pools, not on them at all."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from obverse import InputError, get_ruleset, sample, view
from obverse.fuzz import card_pool, check_invariants, random_deal
from obverse.play import deal, random_step
from obverse.sampling import places
from obverse.state import GameState
from obverse.views import fresh_view

RULESETS = ["mtg", "mtg@2020", "fab", "ga", "scp"]


def _histories(alias: str, seeds: range, steps: int = 30) -> list[GameState]:
    """States along random play from seeded deals (every tenth step)."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = random_deal(alias, rng, 30)
        for step in range(steps):
            out = random_step(state, rng)[1]
            if out is not None:
                state = out.state
            if step % 10 == 9:
                found.append(state)
    return found


def _bytes(state: GameState, seat: str) -> str:
    return json.dumps(view(state, seat), ensure_ascii=False)


@pytest.mark.parametrize("alias", RULESETS)
def test_the_seats_view_of_a_sample_is_the_true_view(alias: str) -> None:
    dealt_anew, pool = 0, card_pool(alias)[:6]
    for i, state in enumerate(_histories(alias, range(12))):
        cards = sum(1 for pc in state.cards.values() if not pc.token)
        for seat in state.players:
            got = sample(state, seat, random.Random(i))
            assert _bytes(got, seat) == _bytes(state, seat)
            assert fresh_view(got, seat) == view(state, seat)
            check_invariants(got, cards)
            drawn = sample(state, seat, random.Random(i), dict.fromkeys(state.players, pool))
            assert _bytes(drawn, seat) == _bytes(state, seat)
            moved = [
                oid
                for group in places(state, seat)
                for oid in (o.id for o in group)
                if got.objects[oid].cards != state.objects[oid].cards
            ]
            dealt_anew += bool(moved)
            # Nothing the seat identifies changes.
            for oid, obj in state.objects.items():
                if all(oid not in {o.id for o in g} for g in places(state, seat)):
                    assert got.objects[oid] == obj
    assert dealt_anew > 0


def _swapped(state: GameState, seat: str) -> GameState | None:
    """``state`` with the records of two places of one class exchanged (what a seat can't
    tell apart), or None when no class has two different records."""
    for group in places(state, seat):
        for p in group:
            q = next((o for o in group if o.cards != p.cards), None)
            if q is None:
                continue
            keep = ("id", "zone", "owner", "controller", "face_down", "timestamp", "under")
            a = msgspec.structs.replace(q, **{f: getattr(p, f) for f in keep})
            b = msgspec.structs.replace(p, **{f: getattr(q, f) for f in keep})
            objects = state.objects.set(p.id, a).set(q.id, b)
            card_object = state.card_object.set(a.cards[0], p.id).set(b.cards[0], q.id)
            return msgspec.structs.replace(state, objects=objects, card_object=card_object)
    return None


@pytest.mark.parametrize("alias", RULESETS)
def test_a_sample_does_not_depend_on_where_the_hidden_cards_are(alias: str) -> None:
    checked = 0
    for i, state in enumerate(_histories(alias, range(8))):
        for seat in state.players:
            twin = _swapped(state, seat)
            if twin is None:
                continue
            assert twin != state and _bytes(twin, seat) == _bytes(state, seat)
            assert sample(twin, seat, random.Random(i)) == sample(state, seat, random.Random(i))
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("alias", RULESETS)
def test_with_pools_a_sample_does_not_depend_on_the_hidden_cards(alias: str) -> None:
    """Twins differing only in one hidden card of alice's: with a pool for alice, bob's
    samples of both are the same state; without, they differ (the default takes the deck
    lists as known)."""
    rs, pool = get_ruleset(alias), card_pool(alias)
    hidden = min(z for z in rs.zones if not rs.is_public(z) and not rs.is_shared(z))
    rng = random.Random(3)
    a, b = rng.sample(pool, 2)
    public = [(rng.choice(pool), rng.choice(("alice", "bob")), rs.discard_zone) for _ in range(4)]
    hand = [(rng.choice(pool), "alice", hidden) for _ in range(3)]
    twins = [deal(alias, [*public, *hand, (secret, "alice", hidden)]) for secret in (a, b)]
    assert _bytes(twins[0], "bob") == _bytes(twins[1], "bob")
    pools = {"alice": pool[:5]}
    samples = [sample(t, "bob", random.Random(9), pools) for t in twins]
    assert samples[0] == samples[1]
    assert all(_bytes(s, "bob") == _bytes(twins[0], "bob") for s in samples)
    plain = [sample(t, "bob", random.Random(9)) for t in twins]
    assert plain[0] != plain[1]


def test_a_sample_for_no_seat_of_the_game_is_refused() -> None:
    state = random_deal("mtg", random.Random(1), 5)
    with pytest.raises(InputError, match="seat: unknown player 'carol'"):
        sample(state, "carol", random.Random(1))
