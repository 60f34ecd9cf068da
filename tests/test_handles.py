"""Handles can't be reversed: the reversal attack (a player who saw a card once brute-forces
small object ids through a shuffle) finds nothing, because handles are keyed with a game
secret that never leaves the server."""

from __future__ import annotations

import hashlib
import json

from obverse import Game
from obverse.serialize import dumps
from obverse.views import handle, view


def _handles(view_: dict[str, object], zone: str) -> list[str]:
    zones = view_["zones"]
    assert isinstance(zones, list)
    return [o["handle"] for z in zones if z["zone"] == zone for o in z["objects"]]


def _guesses(seed: int, viewer: str, shuffles: int, max_id: int) -> set[str]:
    """Every handle the attacker can compute: the old unkeyed formula and the new one under
    every key they could know (none, the seed's)."""
    out = set()
    keys = [b"", hashlib.blake2b(f"obverse handles {seed}".encode(), digest_size=16).digest()]
    for oid in range(1, max_id):
        raw = f"{seed}:{viewer}:{oid}:{shuffles}".encode()
        out.add("h" + hashlib.blake2b(raw, digest_size=6).hexdigest())
        for zone in ("library", "hand"):
            for fd in (True, False):
                raw = f"{viewer}:{oid}:{zone}:{fd}:{shuffles}".encode()
                for key in keys:
                    out.add("h" + hashlib.blake2b(raw, key=key, digest_size=8).hexdigest())
    return out


def test_the_reversal_attack_fails_to_link() -> None:
    game = Game("mtg", seed=0)
    cards = [game.add(n, zone="library", owner="bob") for n in ("Clone", "Serra Angel") * 5]
    seen = cards[3]
    game.reveal(seen, to=("alice",))
    before = view(game.state, "alice")
    known = handle(game.state, "alice", game.obj(seen))
    assert known in _handles(before, "library")
    game.shuffle("bob", "library")
    after = view(game.state, "alice")
    now = set(_handles(after, "library"))
    assert known not in now  # fresh handles after the shuffle
    guesses = _guesses(game.state.seed, "alice", game.state.shuffles, 200)
    assert not guesses & now  # nothing the attacker can compute matches a real handle
    # The key is in no view and no event; only the judge-level state dump holds it.
    key = game.state.secret.hex()
    assert key not in json.dumps(after) and key not in json.dumps(before)
    assert game.state.secret and dumps(game.state)


def test_handles_are_fresh_on_hidden_zone_and_facing() -> None:
    game = Game("fab", seed=1)
    card = game.add("Snatch", zone="hand")
    first = handle(game.state, "bob", game.obj(card))
    game.move(card, "deck")
    assert handle(game.state, "bob", game.obj(card)) != first


def test_two_games_with_one_seed_have_unrelated_handles() -> None:
    a, b = Game("mtg", seed=7), Game("mtg", seed=7)
    ca, cb = a.add("Clone", zone="library"), b.add("Clone", zone="library")
    assert handle(a.state, "bob", a.obj(ca)) != handle(b.state, "bob", b.obj(cb))


def test_handles_of_ids_sharing_a_digest_are_distinct_and_change_alone() -> None:
    # One keyed digest holds the handles of 8 neighbouring ids in a zone: each is its own,
    # and moving one object renews its handle only.
    game = Game("mtg", seed=3)
    cards = [game.add("Serra Angel", zone="battlefield") for _ in range(12)]
    objs = [game.obj(c) for c in cards]
    assert len({o.id >> 3 for o in objs}) < len(objs)  # some ids do share a digest
    before = {o.id: handle(game.state, "bob", o) for o in objs}
    assert len(set(before.values())) == len(objs)
    assert set(_handles(view(game.state, "bob"), "battlefield")) == set(before.values())
    game.move(cards[5], "graveyard")
    moved = game.obj(cards[5])
    after = {
        o.id: handle(game.state, "bob", game.state.objects[o.id]) for o in objs if o is not objs[5]
    }
    assert after == {k: h for k, h in before.items() if k != objs[5].id}
    assert handle(game.state, "bob", moved) not in before.values()
    assert set(_handles(view(game.state, "bob"), "graveyard")) == {handle(game.state, "bob", moved)}
