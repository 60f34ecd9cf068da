"""A seat's state answer, built from what the seat was given of earlier versions, equals (to
the byte) the answer built from scratch, along random games and for every seat."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from obverse import views
from obverse.characteristics import characteristics
from obverse.fuzz import card_pool
from obverse.rulesets import get_ruleset
from obverse.views import chars_dict, fresh_view, handle, is_visible, status_dict
from obverse.web.store import JUDGE, SPECTATOR, GameRecord
from obverse.web.table import Request, Table, build_step, legal_actions

SEATS = ("alice", "bob", JUDGE, SPECTATOR)
CARDS = (
    "Delver of Secrets",
    "Elite Vanguard",
    "Fire // Ice",
    "Clone",
    "Serra Angel",
    "Grinning Demon",
)


def record(seed: int, cards: int = 14) -> GameRecord:
    rng = random.Random(seed)
    zones = ("battlefield", "hand", "graveyard", "library", "exile")
    setup = [
        {
            "label": f"c{i}",
            "card": CARDS[i % len(CARDS)],
            "owner": ("alice", "bob")[i % 2],
            "zone": rng.choice(zones),
        }
        for i in range(cards)
    ]
    return GameRecord(
        id="t",
        ruleset="mtg",
        title="",
        players=("alice", "bob"),
        seed=seed,
        setup=setup,
        handle_key=b"k" * 16,
    )


def reference(table: Table, seat: str) -> dict[str, Any]:
    """The answer as it was built before anything was kept: every entry from scratch."""
    st, rs = table.state, table.rs
    if seat == JUDGE:
        zones = []
        seats: list[str | None] = [*st.players, None]
        for key in sorted(st.zones.keys()):
            ids = st.zones[key]
            if not ids:
                continue
            owner, _, zone = key.rpartition(":")
            objs = []
            for oid in ids:
                o = st.objects[oid]
                entry: dict[str, Any] = {
                    "ref": table.label_of(o),
                    "visible": True,
                    "zone": o.zone,
                    "owner": o.owner,
                    "controller": o.controller,
                }
                entry.update(chars_dict(characteristics(st, o, rs), rs))
                entry.update(status_dict(st, o, rs))
                entry["why"] = [r.rule for r in characteristics(st, o, rs).why]
                card = st.card_def(o)
                entry["card"] = card.name
                if len(card.faces) > 1:
                    entry["faces"] = [f.name for f in card.faces]
                entry.update(table.printed(o))
                entry["hidden_from"] = [
                    s or SPECTATOR for s in seats if not is_visible(st, s, o, rs)
                ]
                objs.append(entry)
            zones.append({"zone": zone, "owner": owner or None, "count": len(ids), "objects": objs})
        return {
            "ruleset": rs.name,
            "viewer": JUDGE,
            "players": list(st.players),
            "active": st.active_player,
            "turn": st.turn,
            "pregame": st.pregame,
            "zones": zones,
        }
    v = table.viewer(seat)
    out = dict(fresh_view(st, v))
    out["zones"] = [{**z, "objects": [dict(e) for e in z["objects"]]} for z in out["zones"]]
    objs_by = {handle(st, v, o): o for o in st.objects.values()}
    for zone_ in out["zones"]:
        for e in zone_["objects"]:
            e["ref"] = e["handle"]
            if e["visible"]:
                e.update(table.printed(objs_by[e["handle"]]))
    return out


def names(table: Table, seat: str) -> tuple[set[str], set[str]]:
    """The names ``seat`` can't identify in the table's state, and those it can, from scratch."""
    st, v = table.state, table.viewer(seat)
    hidden: set[str] = set()
    shown: set[str] = set()
    for o in st.objects.values():
        card = st.card_def(o)
        found = {
            card.name,
            *card.face_names,
            *(c.name for c in o.copies if c.name),
            *(f.name for c in o.copies for f in c.faces if f.name),
        }
        (shown if is_visible(st, v, o, table.rs) else hidden).update(found)
    return hidden, shown


def check(table: Table) -> None:
    replayed = Table(table.rec)
    for seat in ("alice", "bob", SPECTATOR):
        assert table._names_of(table.state, seat) == names(table, seat), seat
    for seat in SEATS:
        got = table.seat_view(seat)
        want = msgspec.json.encode(reference(table, seat))
        assert msgspec.json.encode(got) == want, seat
        assert msgspec.json.encode(replayed.seat_view(seat)) == want, seat
        if seat != JUDGE:
            assert table.handles(seat) == {
                handle(table.state, table.viewer(seat), o): o for o in table.state.objects.values()
            }


def step_at_random(table: Table, rng: random.Random) -> Table:
    """The table after a random offered action of a random seat (the judge's offers include
    reveals, shuffles, face changes, effects: what visibility and handles follow)."""
    for _ in range(20):
        seat = rng.choice(("alice", "bob", JUDGE, JUDGE))
        offers = legal_actions(table, seat)
        if not offers:
            continue
        pick = rng.choice(offers)
        step = build_step(table, seat, Request(pick["verb"], pick["object"], pick["args"]))
        new = table.append(step, seat)
        if new.broken is None:
            return new
    return table


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_seat_views_equal_fresh_ones_along_random_games(seed: int) -> None:
    rng = random.Random(seed)
    table = Table(record(seed))
    check(table)
    for _ in range(25):
        table = step_at_random(table, rng)
        check(table)


def bundled_record(alias: str, seed: int) -> GameRecord:
    """Bundled cards of the ruleset's game in random zones (each game's own visibility)."""
    rng = random.Random(seed)
    rs = get_ruleset(alias)
    names = sorted({c.name for c in card_pool(alias)})
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    setup = [
        {
            "label": f"c{i}",
            "card": rng.choice(names),
            "owner": ("alice", "bob")[i % 2],
            "zone": rng.choice(zones),
        }
        for i in range(12)
    ]
    return GameRecord(
        id="t",
        ruleset=alias,
        title="",
        players=("alice", "bob"),
        seed=seed,
        setup=setup,
        handle_key=b"k" * 16,
    )


@pytest.mark.parametrize("alias", ["fab", "ga", "scp", "mtg@2020"])
def test_kept_seat_views_equal_fresh_ones_in_every_game(alias: str) -> None:
    rng = random.Random(4)
    table = Table(bundled_record(alias, 4))
    assert table.broken is None
    check(table)
    for _ in range(15):
        table = step_at_random(table, rng)
        check(table)


def test_a_branch_from_an_earlier_table_gets_its_own_answers() -> None:
    """Two tables appended to the same one (two requests on one version) share what the
    seats were given, yet each answers for its own state."""
    rng = random.Random(5)
    base = Table(record(5))
    for seat in SEATS:
        base.seat_view(seat)
    a = step_at_random(base, rng)
    b = step_at_random(base, rng)
    for table in (a, b, base, a):
        for seat in SEATS:
            assert msgspec.json.encode(table.seat_view(seat)) == msgspec.json.encode(
                reference(table, seat)
            )
            table._seen.clear()  # ask again: the kept parts, not the table's answer


def test_a_revealed_card_shows_at_once_in_every_seat_that_now_knows_it() -> None:
    """A reveal changes no object, only knowledge: the judge's ``hidden_from`` and the
    player's entry follow it (a cache keyed by the object alone would go stale here)."""
    table = Table(record(9))
    check(table)  # what the seats were given before: the reveal is a change to follow
    hand = next(o for o in table.state.objects.values() if o.zone == "hand" and o.owner == "alice")
    label = table.label_of(hand)
    assert label is not None
    judged = {e["ref"]: e for z in table.seat_view(JUDGE)["zones"] for e in z["objects"]}
    assert "bob" in judged[label]["hidden_from"]
    before = sum(e["visible"] for z in table.seat_view("bob")["zones"] for e in z["objects"])
    new = table.append({"reveal": {"object": label, "to": ["bob"]}}, JUDGE)
    assert new.broken is None and new.state.objects[hand.id] is hand
    judged = {e["ref"]: e for z in new.seat_view(JUDGE)["zones"] for e in z["objects"]}
    assert "bob" not in judged[label]["hidden_from"]
    after = sum(e["visible"] for z in new.seat_view("bob")["zones"] for e in z["objects"])
    assert after == before + 1
    check(new)


def test_seat_views_keep_nothing_the_views_patch_in_place() -> None:
    """What a seat keeps (entries, copies of zone lists) holds none of the containers the
    view's memo patches in place when nothing else holds them: the memo stays the view's
    own, so views keep patching it in place rather than copying it."""
    table = Table(record(2))
    for seat in SEATS:
        table.seat_view(seat)
    for seat in ("alice", "bob", SPECTATOR):
        key = (table.state.secret, table.state.ruleset, table.viewer(seat))
        memo = views._KEPT.pop(key)
        assert memo is not None, seat
        try:
            assert views._unshared(views._refcounts(memo)), seat
        finally:
            views._KEPT.put(key, memo)
