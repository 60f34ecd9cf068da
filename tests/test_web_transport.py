"""The sandbox's transport: bad bodies are 4xx with a short JSON error (never a 500 or a
traceback), writes only from its own origin and only as JSON, reserved seat names, seat
tokens stored as digests (and the migration of files that kept them plain), random seeds,
and an upload parsed once."""

from __future__ import annotations

import json
import logging
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from obverse.runner import run_scenario
from obverse.web import app as app_mod
from obverse.web.app import create_app
from obverse.web.store import SCHEMA_VERSION, Store, StoreError, token_digest
from obverse.web.transport import MAX_DEPTH, depth

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SCENARIO = """ruleset: mtg
players: [alice, bob]
setup:
  - {label: delver, card: Delver of Secrets, owner: alice, zone: battlefield}
steps:
  - transform: delver
"""


@pytest.fixture
def client() -> Iterator[TestClient]:
    # Server errors come back as 500 responses here instead of raising in the test.
    with TestClient(create_app(Store(":memory:")), raise_server_exceptions=False) as c:
        yield c


def seats_of(c: TestClient, **body: Any) -> dict[str, str]:
    r = c.post("/api/tables", json={"ruleset": "mtg", **body})
    assert r.status_code == 201, r.text
    seats: dict[str, str] = r.json()["seats"]
    return seats


def refused(r: Any, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    message: str = r.json()["error"]
    assert message and "Traceback" not in message and len(message) < 300
    return message


def test_deep_json_is_400(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    seats = seats_of(client)
    for n in (MAX_DEPTH + 1, 1_000, 100_000):
        body = b'{"verb": ' + b"[" * n + b"]" * n + b"}"
        for path in ("/api/tables", f"/api/t/{seats['judge']}/act"):
            r = client.post(path, content=body, headers={"content-type": "application/json"})
            assert "nested deeper" in refused(r, 400)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert depth({"a": [1, {"b": []}]}) == 4 and depth(5) == 0


#: A value of each JSON type, for every key of every body.
WRONG = [None, True, 7, -1.5, "x" * 300, [], [[1], [2]], {}, {"a": {"b": [1]}}]


def test_wrong_types_anywhere_are_4xx(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    seats = seats_of(client)
    j = seats["judge"]
    r = client.post(
        f"/api/t/{j}/setup", json={"card": "Delver of Secrets", "owner": "alice", "zone": "hand"}
    )
    label = r.json()["label"]
    bodies: dict[str, dict[str, Any]] = {
        "/api/tables": {"ruleset": "mtg", "title": "t", "players": ["alice"], "seed": 1},
        "/api/tables/import": {"scenario": SCENARIO},
        f"/api/t/{j}/act": {"verb": "move", "object": label, "args": {"to": "hand"}},
        f"/api/t/{seats['alice']}/act": {"verb": "transform", "object": "h1", "args": {}},
        f"/api/t/{j}/setup": {"card": "Clone", "owner": "bob", "zone": "hand", "face": "front"},
        f"/api/t/{j}/remove": {"object": label},
    }
    arg_keys = ("to", "face", "player", "zone", "of", "modify", "counter", "count", "position")
    statuses = set()
    for path, good in bodies.items():
        for key in [*good, "other"]:
            for value in WRONG:
                r = client.post(path, json={**good, key: value})
                statuses.add(r.status_code)
                assert r.status_code < 500, (path, key, value, r.text)
                assert r.json().get("error") or r.status_code in (200, 201), r.text
        if path.endswith("/act"):
            for key in arg_keys:
                for value in WRONG:
                    r = client.post(path, json={**good, "args": {key: value}})
                    assert r.status_code < 500, (path, key, value, r.text)
    assert client.post("/api/tables", json={"players": [[1], [2]]}).status_code == 400
    text = SCENARIO.replace("[alice, bob]", "[[1], [2]]")
    assert "players" in refused(client.post("/api/tables/import", json={"scenario": text}), 422)
    for text in ("&a [*a, *a]", "!!python/object:os.system ls", "{" * 5000):
        refused(client.post("/api/tables/import", json={"scenario": text}), 422)
    assert 400 in statuses and 500 not in statuses
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_writes_only_from_the_own_origin(client: TestClient) -> None:
    body = {"ruleset": "mtg"}
    own = "http://testserver"
    for headers in (
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
        {"referer": "http://evil.example/page"},
        {"origin": "http://evil.example", "referer": f"{own}/"},
    ):
        r = client.post("/api/tables", json=body, headers=headers)
        assert "cross-origin" in refused(r, 403), headers
    # Plain-text and form posts are refused from anywhere, even with a JSON body.
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        r = client.post(
            "/api/tables", content=json.dumps(body).encode(), headers={"content-type": ctype}
        )
        assert "application/json" in refused(r, 415)
    r = client.post("/api/tables", content=b"{}", headers={"origin": own})
    refused(r, 415)
    # The page's own writes pass, by Origin or (without one) by Referer; so do non-browsers.
    for headers in ({"origin": own}, {"referer": f"{own}/#k=x"}, {}):
        assert client.post("/api/tables", json=body, headers=headers).status_code == 201
    # Reads are not writes.
    assert client.get("/api/rulesets", headers={"origin": "http://evil.example"}).is_success
    seats = seats_of(client)
    r = client.post(
        f"/api/t/{seats['judge']}/undo", content=b"", headers={"content-type": "text/plain"}
    )
    refused(r, 415)


def test_reserved_seat_names(client: TestClient) -> None:
    for name in ("judge", "spectator"):
        text = SCENARIO.replace("players: [alice, bob]", f"players: [alice, {name}]")
        r = client.post("/api/tables/import", json={"scenario": text})
        assert "reserved" in refused(r, 400)
        r = client.post("/api/tables", json={"ruleset": "mtg", "players": ["alice", name]})
        assert "reserved" in refused(r, 400)


def test_tokens_are_stored_as_digests(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(create_app(path)) as c:
        seats = seats_of(c)
        judge = c.get(f"/api/t/{seats['judge']}").json()
        assert judge["seats"] == seats  # the judge still gets every seat link
        assert c.get(f"/api/t/{seats['bob']}").json()["seat"] == "bob"
        bob = seats["bob"]
        other = bob[:-1] + ("y" if bob.endswith("x") else "x")  # one character off, never bob's
        assert c.get(f"/api/t/{other}").status_code == 404
    raw = path.read_bytes()
    for token in seats.values():
        assert token.encode() not in raw
        assert token_digest(token).encode() in raw
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


OLD_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, title TEXT NOT NULL, players TEXT NOT NULL,
    seed INTEGER NOT NULL, pregame INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE seats (
    token TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL);
CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    actor TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (game, seq));
"""


def test_plain_tokens_are_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    tokens = {
        "judge": "judge-token-0123456789",
        "alice": "alice-token-0123456789",
        "bob": "bob-token-0123456789ab",
        "spectator": "spectator-token-012345",
    }
    setup = {"label": "delver", "card": "Delver of Secrets", "owner": "alice", "zone": "hand"}
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute(
            "INSERT INTO games VALUES ('g1', 'mtg', 'old', '[\"alice\", \"bob\"]', 0, 0, 0)"
        )
        conn.executemany(
            "INSERT INTO seats VALUES (?, 'g1', ?)", [(t, s) for s, t in tokens.items()]
        )
        conn.execute(
            "INSERT INTO events VALUES ('g1', 1, 'setup', 'judge', ?, 0)", (json.dumps(setup),)
        )
    with TestClient(create_app(path)) as c:
        judge = c.get(f"/api/t/{tokens['judge']}").json()
        assert judge["seats"] == tokens and judge["labels"] == ["delver"]
        alice = c.get(f"/api/t/{tokens['alice']}").json()
        assert alice["seat"] == "alice" and alice["view"]["zones"]
    raw = path.read_bytes()
    assert not any(t.encode() in raw for t in tokens.values())
    Store(path)  # opening a migrated file again changes nothing
    with TestClient(create_app(path)) as c:
        assert c.get(f"/api/t/{tokens['bob']}").json()["seat"] == "bob"


def test_newer_or_foreign_files_are_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer"):
        Store(newer)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a tables file"):
        Store(junk)


def test_each_table_gets_a_random_seed(client: TestClient, tmp_path: Path) -> None:
    seeds = set()
    for _ in range(4):
        seats = seats_of(client)
        j = seats["judge"]
        for card in ("Clone", "Serra Angel", "Elite Vanguard", "Air Elemental"):
            r = client.post(
                f"/api/t/{j}/setup", json={"card": card, "owner": "bob", "zone": "library"}
            )
            assert r.status_code == 200, r.text
        r = client.post(
            f"/api/t/{j}/act",
            json={"verb": "shuffle", "args": {"player": "bob", "zone": "library"}},
        )
        assert r.status_code == 200, r.text
        text = client.get(f"/api/t/{j}/export").text
        seeds.add(next(line for line in text.splitlines() if line.startswith("seed:")))
        scenario = tmp_path / "shuffled.yaml"
        scenario.write_text(text, encoding="utf-8")
        # The board the export pins (after the shuffle) is the board a replay reaches.
        result = run_scenario(scenario)
        assert result.status == "PASS", [str(f) for f in result.failures]
    assert len(seeds) == 4
    seats = seats_of(client, seed=12345)
    assert "seed: 12345" in client.get(f"/api/t/{seats['judge']}/export").text


def test_an_upload_is_parsed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = getattr(app_mod, "load_text")  # noqa: B009 (not in the module's __all__)

    def counting(text: str, path: str) -> Any:
        calls.append(path)
        return real(text, path)

    monkeypatch.setattr(app_mod, "load_text", counting)
    r = client.post("/api/tables/import", json={"scenario": SCENARIO})
    assert r.status_code == 201, r.text
    assert calls == ["upload"]
    r = client.post("/api/tables/import", json={"scenario": "- just\n- a list\n"})
    assert "mapping" in refused(r, 422)
