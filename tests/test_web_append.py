"""A web table keeps its state: appending a step equals replaying the whole game, and the
table appended to is unchanged; the store keeps every event a crashed server stored."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec

from obverse.web import offers as offers_mod
from obverse.web.store import JUDGE, GameRecord, Store
from obverse.web.table import Request, Table, build_step, legal_actions, legal_body

CARDS = ("Delver of Secrets", "Elite Vanguard", "Fire // Ice", "Clone", "Serra Angel")


def record() -> GameRecord:
    setup = [
        {
            "label": f"c{i}",
            "card": CARDS[i % len(CARDS)],
            "owner": ("alice", "bob")[i % 2],
            "zone": ("battlefield", "hand", "graveyard")[i % 3],
        }
        for i in range(12)
    ]
    return GameRecord(
        id="t",
        ruleset="mtg",
        title="",
        players=("alice", "bob"),
        seed=3,
        setup=setup,
        handle_key=b"k" * 16,
    )


def test_appending_steps_equals_replaying_them() -> None:
    rng = random.Random(7)
    table = Table(record())
    for _ in range(12):
        offers = legal_actions(table, JUDGE)
        pick = rng.choice([o for o in offers if o["verb"] != "end_turn"] or offers)
        step = build_step(table, JUDGE, Request(pick["verb"], pick["object"], pick["args"]))
        before_state, before_steps = table.state, len(table.history)
        before_log = table.log("alice")
        new = table.append(step, JUDGE)
        # the table appended to is unchanged
        assert table.state is before_state and len(table.history) == before_steps
        assert table.log("alice") == before_log
        replayed = Table(new.rec)
        assert new.broken is None and replayed.broken is None
        assert new.state == replayed.state
        assert new.runner.labels == replayed.runner.labels
        for seat in ("alice", "bob", "spectator", JUDGE):
            assert new.log(seat) == replayed.log(seat)
            assert new.seat_view(seat) == replayed.seat_view(seat)
        assert legal_actions(new, "alice") == legal_actions(replayed, "alice")
        table = new
    assert len(table.history) == 12


def test_an_appended_event_survives_the_process_crashing(tmp_path: Path) -> None:
    """The store commits each event before answering: a server process killed without
    closing anything (os._exit) leaves every event it stored readable, in WAL mode."""
    path = tmp_path / "tables.sqlite3"
    step = {"move": {"object": "c0", "to": "exile"}}
    script = (
        "import json, os, sys\n"
        "from obverse.web.store import Store\n"
        "store = Store(sys.argv[1])\n"
        "game, seats = store.create('mtg', ('alice', 'bob'))\n"
        "store.append(game, 'step', 'alice', json.loads(sys.argv[2]))\n"
        "print(game, flush=True)\n"
        "os._exit(0)  # no close, no checkpoint: as a crash leaves it\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script, str(path), json.dumps(step)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    game = ran.stdout.strip()
    store = Store(path)
    rec = store.load(game)
    assert rec is not None and rec.steps == [(step, "alice")] and rec.version == 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def offered_step(table: Table, seat: str, rng: random.Random) -> Table | None:
    """The table after one offered action of ``seat`` (not ending the turn), picked at
    random; ``None`` when nothing is offered."""
    offers = [o for o in legal_actions(table, seat) if o["verb"] != "end_turn"]
    if not offers:
        return None
    pick = rng.choice(offers)
    step = build_step(table, seat, Request(pick["verb"], pick["object"], pick["args"]))
    return table.append(step, seat)


def test_kept_offer_bodies_equal_fresh_ones_along_a_game() -> None:
    """The encoded offers a seat keeps across tables (and the legal cache the tables share)
    give, after every step by any seat, exactly the offers a freshly replayed table lists;
    each seat's body names objects only by that seat's own handles."""
    rng = random.Random(11)
    table = Table(record())
    seats = ("alice", "bob", JUDGE)
    for _ in range(10):
        for seat in (*seats, "spectator"):
            body = msgspec.json.decode(legal_body(table, seat))
            fresh = Table(table.rec)
            assert body == {"actions": legal_actions(fresh, seat)}
            if seat in ("alice", "bob"):
                own = set(table.handles(seat))
                named = {o["object"] for o in body["actions"] if o["object"] is not None}
                assert named <= own
        after = offered_step(table, rng.choice(seats), rng)
        if after is None:
            continue
        table = after
        assert table.broken is None


def test_kept_offers_follow_a_name_that_left_and_came_back_changed(monkeypatch: Any) -> None:
    """An offer kept with an object's old name is not reused once the seat's name of that
    object changed, even when the object went unnamed (and unoffered) in between."""
    table = Table(record())
    seat = "alice"
    first = msgspec.json.decode(legal_body(table, seat))["actions"]
    target = next(o["object"] for o in first if o["object"] is not None)
    player, names = offers_mod._seat_names(table, seat) or (None, {})
    oid = next(i for i, h in names.items() if h == target)
    every = offers_mod._seat_parts

    def without(table: Table, seat: str, player: str | None) -> list[Any]:
        parts = every(table, seat, player)
        return [[x for x in part if oid not in x.action.object_ids()] for part in parts]

    gone = {i: h for i, h in names.items() if i != oid}
    monkeypatch.setattr(offers_mod, "_seat_names", lambda t, s: (player, gone))
    monkeypatch.setattr(offers_mod, "_seat_parts", without)
    legal_body(table, seat)
    back = {**names, oid: "renamed"}
    monkeypatch.setattr(offers_mod, "_seat_names", lambda t, s: (player, back))
    monkeypatch.setattr(offers_mod, "_seat_parts", every)
    again = msgspec.json.decode(legal_body(table, seat))["actions"]
    assert [o for o in again if o["object"] == "renamed"]
    assert target not in json.dumps(again)


def test_a_seats_encoded_log_is_its_log_encoded_along_a_game() -> None:
    rng = random.Random(5)
    table = Table(record())
    seats = ("alice", "bob", JUDGE, "spectator")
    for _ in range(8):
        for seat in seats:
            log = table.log(seat)
            for start in {0, len(log) // 2, len(log)}:
                assert table.log_json(seat, start) == msgspec.json.encode(log[start:])
        table = offered_step(table, "alice", rng) or table


def test_a_seats_view_encoded_zone_by_zone_is_its_view_encoded_along_a_game() -> None:
    from obverse.web.app import view_json

    rng = random.Random(8)
    table = Table(record())
    seats = ("alice", "bob", JUDGE, "spectator")
    for _ in range(8):
        for seat in seats:
            view = table.seat_view(seat)
            assert view_json(table, seat, view) == msgspec.json.encode(view)
        table = offered_step(table, rng.choice(("alice", "bob", JUDGE)), rng) or table
