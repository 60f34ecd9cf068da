"""The web sandbox's JSON API: tables, seats, actions, persistence, export, bad requests,
and no leak of a hidden card's name, label or id to a player's or spectator's seat."""

from __future__ import annotations

import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette asks for httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from obverse.runner import run_scenario
from obverse.web.app import MAX_BODY, create_app
from obverse.web.store import Store
from obverse.web.table import Table, legal_body

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Cards bob holds hidden from alice and the spectator for the whole game (no other copy of
#: these names is ever visible to them).
SECRET = {"Serra Angel", "Fire // Ice", "Fire", "Ice", "Grinning Demon", "Air Elemental"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Store(":memory:"))) as c:
        yield c


def new_table(c: TestClient, ruleset: str = "mtg", **kw: Any) -> dict[str, str]:
    r = c.post("/api/tables", json={"ruleset": ruleset, "title": "test table", **kw})
    assert r.status_code == 201, r.text
    seats: dict[str, str] = r.json()["seats"]
    return seats


def add(c: TestClient, judge: str, card: str, owner: str, zone: str, **kw: Any) -> str:
    r = c.post(f"/api/t/{judge}/setup", json={"card": card, "owner": owner, "zone": zone, **kw})
    assert r.status_code == 200, r.text
    label: str = r.json()["label"]
    return label


def act(
    c: TestClient, token: str, verb: str, obj: str | None = None, **args: Any
) -> dict[str, Any]:
    r = c.post(f"/api/t/{token}/act", json={"verb": verb, "object": obj, "args": args})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def objects(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for z in view["zones"] for o in z["objects"]]


def board(c: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """A board with hidden cards: bob's hand, bob's library, a face-down permanent."""
    seats = new_table(c)
    j = seats["judge"]
    labels = {
        "delver": add(c, j, "Delver of Secrets", "alice", "battlefield"),
        "fire": add(c, j, "Fire // Ice", "bob", "hand"),
        "serra": add(c, j, "Serra Angel", "bob", "library"),
        "air": add(c, j, "Air Elemental", "bob", "library"),
        "demon": add(c, j, "Grinning Demon", "bob", "battlefield", face_down=True),
        "clone": add(c, j, "Clone", "alice", "hand"),
        "vanguard": add(c, j, "Elite Vanguard", "alice", "battlefield"),
    }
    return seats, labels


def test_table_transform_and_views_differ(client: TestClient) -> None:
    seats, labels = board(client)
    out = act(client, seats["judge"], "transform", labels["delver"])
    assert out["last"]["result"] == "done"
    assert any(r["rule"] == "701.27a" for r in out["last"]["rulings"])
    views = {s: client.get(f"/api/t/{t}").json()["view"] for s, t in seats.items()}
    names = {s: {o.get("name") for o in objects(v) if o["visible"]} for s, v in views.items()}
    assert "Insectile Aberration" in names["alice"] and "Insectile Aberration" in names["bob"]
    assert "Fire // Ice" in names["bob"] and "Fire // Ice" not in names["alice"]
    assert "Clone" in names["alice"] and "Clone" not in names["bob"]
    assert "Grinning Demon" not in json.dumps(views["alice"])
    assert views["spectator"]["viewer"] is None
    # The judge sees everything, with labels.
    judge = views["judge"]
    assert all(o["visible"] for o in objects(judge))
    assert {o["ref"] for o in objects(judge)} == set(labels.values())
    # Both faces of a double-faced card are there for whoever may look at it.
    delver = next(o for o in objects(views["bob"]) if o.get("name") == "Insectile Aberration")
    assert [f["name"] for f in delver["printed"]] == ["Delver of Secrets", "Insectile Aberration"]
    assert delver["transformed"] is True


def test_players_act_by_their_handles(client: TestClient) -> None:
    seats, labels = board(client)
    alice = client.get(f"/api/t/{seats['alice']}").json()
    delver = next(o for o in objects(alice["view"]) if o.get("name") == "Delver of Secrets")
    out = act(client, seats["alice"], "transform", delver["ref"])
    assert out["last"]["actor"] == "alice" and out["last"]["result"] == "done"
    # A label is not a handle: a seat can't name objects by the judge's labels.
    r = client.post(
        f"/api/t/{seats['alice']}/act", json={"verb": "transform", "object": labels["delver"]}
    )
    assert r.status_code == 404
    # Alice can't act on bob's cards, nor with bob's handles.
    bob = client.get(f"/api/t/{seats['bob']}").json()
    fire = next(o for o in objects(bob["view"]) if o.get("name") == "Fire // Ice")
    r = client.post(f"/api/t/{seats['alice']}/act", json={"verb": "cast", "object": fire["ref"]})
    assert r.status_code == 404
    hidden = next(o for o in objects(alice["view"]) if o["zone"] == "hand" and o["owner"] == "bob")
    r = client.post(f"/api/t/{seats['alice']}/act", json={"verb": "cast", "object": hidden["ref"]})
    assert r.status_code == 403
    r = client.post(f"/api/t/{seats['spectator']}/act", json={"verb": "end_turn"})
    assert r.status_code == 403
    # Bob casts his own card.
    out = act(client, seats["bob"], "cast", fire["ref"], face="left")
    assert out["last"]["result"] == "done"


def scan(text: str, seat: str, secret_labels: set[str]) -> None:
    """No hidden card's name, label or id in a response to ``seat``."""
    for name in SECRET:
        assert name not in text, f"{seat} got {name!r}: {text[:300]}"
    for label in secret_labels:
        assert f'"{label}"' not in text and f"'{label}'" not in text, (seat, label)

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                assert key not in (
                    "id",
                    "obj",
                    "card_id",
                    "object_id",
                    "label",
                    "labels",
                    "seats",
                    "step",
                ), (seat, key)
                if key == "card":
                    assert isinstance(item, str | type(None))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    if text.startswith("{"):
        walk(json.loads(text))


def test_no_leak_to_players_or_spectators(client: TestClient) -> None:
    seats, labels = board(client)
    j = seats["judge"]
    secret_labels = {labels[k] for k in ("fire", "serra", "air", "demon")}
    responses: dict[str, list[str]] = {"alice": [], "spectator": []}

    def collect() -> None:
        for seat in responses:
            responses[seat].append(client.get(f"/api/t/{seats[seat]}").text)

    # The judge acts on hidden cards: bob's hand, library and face-down permanent.
    act(client, j, "transform", labels["delver"])
    collect()
    act(client, j, "move", labels["fire"], to="library")
    act(client, j, "shuffle", None, player="bob", zone="library")
    act(client, j, "move", labels["serra"], to="hand")
    act(client, j, "transform", labels["serra"])  # nothing happens: not a DFC
    act(client, j, "become_copy", labels["demon"], of=labels["vanguard"])
    act(client, j, "add_counters", labels["demon"], counter="+1/+1", count=2)
    act(client, j, "apply_effect", labels["demon"], modify={"power": 1})
    act(client, j, "examine", labels["serra"], player="bob")
    act(client, j, "reveal", labels["air"], to=["bob"])  # revealed to bob only
    # (A face-down spell moved off the stack is revealed to all, MTG 708.9: not done here.)
    collect()
    # Bob acts on his hidden cards through his own handles.
    bob = client.get(f"/api/t/{seats['bob']}").json()
    serra = next(o for o in objects(bob["view"]) if o.get("name") == "Serra Angel")
    act(client, seats["bob"], "move", serra["ref"], to="library", position="bottom")
    collect()
    # Players and spectators poke at hidden cards and get errors, which must not leak either.
    for seat in responses:
        token = seats[seat]
        view = client.get(f"/api/t/{token}").json()
        for o in objects(view["view"]):
            if o["visible"]:
                continue
            for verb in ("transform", "cast", "move", "turn_face_up", "examine"):
                r = client.post(
                    f"/api/t/{token}/act",
                    json={"verb": verb, "object": o["ref"], "args": {"to": "hand"}},
                )
                assert r.status_code in (403, 404), r.text
                responses[seat].append(r.text)
        for label in secret_labels:
            r = client.post(f"/api/t/{token}/act", json={"verb": "transform", "object": label})
            assert r.status_code in (403, 404)
            responses[seat].append(r.text)
        for path in ("/export", "/undo", "/remove", "/setup"):
            r = (
                client.get(f"/api/t/{token}{path}")
                if path == "/export"
                else client.post(f"/api/t/{token}{path}", json={"object": labels["serra"]})
            )
            assert r.status_code == 403
            responses[seat].append(r.text)
    # Alice's own actions answer with her view and her log.
    alice = client.get(f"/api/t/{seats['alice']}").json()
    mine = next(o for o in objects(alice["view"]) if o.get("name") == "Clone")
    out = client.post(
        f"/api/t/{seats['alice']}/act",
        json={
            "verb": "become_copy",
            "object": mine["ref"],
            "args": {"of": next(o["ref"] for o in objects(alice["view"]) if o.get("face_down"))},
        },
    )
    assert out.status_code == 200, out.text
    responses["alice"].append(out.text)
    collect()
    # Every response to alice and the spectator is clean; the judge's are not (sanity).
    for seat, texts in responses.items():
        assert texts
        for text in texts:
            scan(text, seat, secret_labels)
    judge = client.get(f"/api/t/{j}").text
    assert "Serra Angel" in judge and "Grinning Demon" in judge
    # The log tells alice that something happened to a card, not which.
    log = json.loads(responses["alice"][-1])["log"]
    assert [e["verb"] for e in log][:3] == ["transform", "move", "shuffle"]
    assert any(e.get("withheld") for e in log)


def test_alice_cannot_tell_which_card_bob_holds(same_randomness: Callable[[], None]) -> None:
    """Non-interference: two tables that differ only in bob's hidden hand card, the same
    public script (and the same seed); every response to alice is byte-identical."""
    texts: list[list[str]] = []
    for secret in ("Serra Angel", "Air Elemental"):
        same_randomness()
        with TestClient(create_app(Store(":memory:"))) as c:
            seats = new_table(c, seed=7)
            j = seats["judge"]
            add(c, j, "Delver of Secrets", "alice", "battlefield")
            hand = add(c, j, secret, "bob", "hand")
            add(c, j, "Clone", "bob", "library")
            out: list[str] = []
            for step in (
                ("transform", "delver", {}),
                ("move", hand, {"to": "library"}),
                ("shuffle", None, {"player": "bob", "zone": "library"}),
                ("transform", hand, {}),
                ("end_turn", None, {}),
            ):
                verb, obj, args = step
                r = c.post(f"/api/t/{j}/act", json={"verb": verb, "object": obj, "args": args})
                assert r.status_code == 200, r.text
                out.append(c.get(f"/api/t/{seats['alice']}").text)
                out.append(c.get(f"/api/t/{seats['spectator']}").text)
            texts.append(out)
    assert texts[0] == texts[1]


def test_bad_requests_change_nothing(client: TestClient) -> None:
    seats, labels = board(client)
    j = seats["judge"]
    before = client.get(f"/api/t/{j}").json()

    def bad(method: str, path: str, status: int, **kw: Any) -> str:
        r = client.request(method, path, **kw)
        assert r.status_code == status, (path, r.status_code, r.text)
        assert "error" in r.json() and r.json()["error"]
        message: str = r.json()["error"]
        return message

    assert "malformed JSON" in bad(
        "POST",
        f"/api/t/{j}/act",
        400,
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    bad("POST", f"/api/t/{j}/act", 400, json=["a", "list"])
    bad(
        "POST",
        f"/api/t/{j}/act",
        413,
        content=b"{" + b" " * (MAX_BODY + 10) + b"}",
        headers={"content-type": "application/json"},
    )
    assert "unknown table" in bad("GET", "/api/t/nosuchtoken123", 404)
    assert "no object" in bad(
        "POST", f"/api/t/{j}/act", 404, json={"verb": "transform", "object": "nosuchlabel"}
    )
    assert "not an action" in bad(
        "POST", f"/api/t/{j}/act", 400, json={"verb": "explode", "object": labels["delver"]}
    )
    assert "unknown zone" in bad(
        "POST",
        f"/api/t/{j}/act",
        400,
        json={"verb": "move", "object": labels["delver"], "args": {"to": "moon"}},
    )
    # An illegal choice under the rules: Delver of Secrets cast back face up (712.8).
    assert "illegal" in bad(
        "POST",
        f"/api/t/{j}/act",
        409,
        json={"verb": "cast", "object": labels["clone"], "args": {"face": "back"}},
    )
    bad(
        "POST",
        f"/api/t/{j}/setup",
        400,
        json={"card": "No Such Card", "owner": "alice", "zone": "hand"},
    )
    bad("POST", f"/api/t/{j}/setup", 400, json={"card": "Clone", "owner": "carol", "zone": "hand"})
    bad("POST", f"/api/t/{j}/undo", 409, json={})
    bad("POST", "/api/tables", 400, json={"ruleset": "chess"})
    bad("POST", "/api/tables/import", 422, json={"scenario": "ruleset: mtg\nsteps: 3\n"})
    bad(
        "POST",
        f"/api/t/{j}/act",
        400,
        json={"verb": "transform", "object": labels["delver"], "extra": 1},
    )
    after = client.get(f"/api/t/{j}").json()
    assert after == before


def test_persistence_across_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as c:
        seats = new_table(c)
        delver = add(c, seats["judge"], "Delver of Secrets", "alice", "battlefield")
        add(c, seats["judge"], "Fire // Ice", "bob", "hand")
        act(c, seats["judge"], "transform", delver)
        views = {s: c.get(f"/api/t/{t}").json() for s, t in seats.items()}
    with TestClient(create_app(db)) as c:  # a new server on the same file
        again = {s: c.get(f"/api/t/{t}").json() for s, t in seats.items()}
    assert again == views


def test_export_runs_and_reopens(client: TestClient, tmp_path: Path) -> None:
    seats, labels = board(client)
    j = seats["judge"]
    act(client, j, "transform", labels["delver"])
    act(client, j, "cast", labels["fire"], face="right")
    act(client, j, "become_copy", labels["clone"], of=labels["vanguard"])
    act(client, j, "apply_effect", labels["vanguard"], modify={"power": 2}, until="end_of_turn")
    r = client.get(f"/api/t/{j}/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "exported.yaml"
    path.write_text(r.text, encoding="utf-8")
    result = run_scenario(path)
    assert result.status == "PASS", (result.line(), [str(f) for f in result.failures])
    # Reopened as a game, the board is the same for every seat but the judge's labels; a
    # new table has its own handle key, so its handles are new.
    r = client.post("/api/tables/import", json={"scenario": r.text})
    assert r.status_code == 201, r.text
    seats2 = r.json()["seats"]
    for seat in ("judge", "alice", "bob", "spectator"):
        a = client.get(f"/api/t/{seats[seat]}").json()["view"]
        b = client.get(f"/api/t/{seats2[seat]}").json()["view"]
        assert _without_handles(a) == _without_handles(b), seat
        if seat != "judge":
            assert _handles_of(a).isdisjoint(_handles_of(b))


def _handles_of(view: dict[str, Any]) -> set[str]:
    return {str(o.get("ref") or o.get("handle")) for o in objects(view)}


def _without_handles(view: dict[str, Any]) -> Any:
    text = json.dumps(view, sort_keys=True)
    for h in _handles_of(view):
        text = text.replace(h, "H")
    return json.loads(text)


def test_open_an_example_scenario(client: TestClient) -> None:
    examples = sorted(Path(__file__).parent.parent.glob("examples/mtg/*.yaml"))
    if not examples:
        pytest.skip("no example scenarios")
    r = client.post("/api/tables/import", json={"scenario": examples[0].read_text("utf-8")})
    assert r.status_code == 201, r.text
    judge = client.get(f"/api/t/{r.json()['seats']['judge']}").json()
    assert judge["view"]["zones"]


def test_other_rulesets_and_autocomplete(client: TestClient) -> None:
    r = client.get("/api/rulesets")
    names = {x["name"] for x in r.json()}
    assert {"mtg", "ga", "scp"} <= names
    r = client.get("/api/cards", params={"ruleset": "mtg", "q": "delv"})
    assert r.json()["names"][0].startswith("Delver of Secrets")
    seats = new_table(client, "ga")
    j = seats["judge"]
    fatestone = add(client, j, "Fabled Azurite Fatestone", "alice", "field")
    out = act(client, j, "transform", fatestone)
    assert out["last"]["result"] == "done"
    assert "Seiryuu, Azure Dragon" in json.dumps(out["view"])


def test_page_is_self_contained(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and '<script src="/static/app.js"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for path in ("/static/app.js", "/static/style.css"):
        text = client.get(path).text
        assert "https://" not in text and "//cdn" not in text
    assert "http://" not in r.text and "https://" not in r.text


def test_serve_without_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from obverse.cli import main

    monkeypatch.setitem(sys.modules, "obverse.web.app", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install 'obverse[web]'" in err


def test_the_log_comes_incrementally(client: TestClient) -> None:
    seats, labels = board(client)
    j, alice = seats["judge"], seats["alice"]
    act(client, j, "transform", labels["delver"])
    act(client, j, "move", labels["fire"], to="library")
    act(client, j, "end_turn")
    for token in (j, alice):
        full = client.get(f"/api/t/{token}").json()
        assert full["log_from"] == 0 and [e["n"] for e in full["log"]] == [1, 2, 3]
        keys = [e["key"] for e in full["log"]]
        assert len(set(keys)) == 3
        part = client.get(f"/api/t/{token}", params={"since": 2, "after": keys[1]}).json()
        assert part["log_from"] == 2 and part["log_length"] == 3
        assert part["log"] == full["log"][2:]
        assert {k: v for k, v in part.items() if k != "log" and k != "log_from"} == {
            k: v for k, v in full.items() if k != "log" and k != "log_from"
        }
        # A key the seat does not hold (or an index past the end) gets the whole log.
        stale = client.get(f"/api/t/{token}", params={"since": 2, "after": "0" * 16}).json()
        assert stale["log_from"] == 0 and stale["log"] == full["log"]
        assert client.get(f"/api/t/{token}", params={"since": 9}).json()["log_from"] == 0
    # After an undo and another step, entry 3 differs: the page's copy is replaced.
    old = client.get(f"/api/t/{alice}").json()["log"]
    r = client.post(f"/api/t/{j}/undo", json={})
    assert r.status_code == 200 and r.json()["log_length"] == 2
    act(client, j, "transform", labels["delver"])
    again = client.get(f"/api/t/{alice}", params={"since": 3, "after": old[2]["key"]}).json()
    assert again["log_from"] == 0 and again["log"][2]["verb"] == "transform"
    tail = client.get(f"/api/t/{alice}", params={"since": 2, "after": old[1]["key"]}).json()
    assert tail["log_from"] == 2 and [e["verb"] for e in tail["log"]] == ["transform"]
    # An action answers with the same slice (keys are the seat's own: the judge's here).
    mine = client.get(f"/api/t/{j}").json()["log"]
    out = client.post(
        f"/api/t/{j}/act",
        params={"since": 3, "after": mine[2]["key"]},
        json={"verb": "end_turn"},
    ).json()
    assert out["log_from"] == 3 and [e["verb"] for e in out["log"]] == ["end_turn"]


def test_offered_actions_can_be_performed(client: TestClient) -> None:
    seats, labels = board(client)
    alice = seats["alice"]
    for prefix in ("/api/tables", "/api/t"):
        r = client.get(f"{prefix}/{alice}/legal")
        assert r.status_code == 200, r.text
    offers = r.json()["actions"]
    view = client.get(f"/api/t/{alice}").json()["view"]
    mine = {
        o["ref"] for o in objects(view) if o["visible"] and "alice" in (o["owner"], o["controller"])
    }
    keys = {"verb", "object", "args", "rule", "label", "group"}
    choices = {"targets", "choice_labels"}  # a free target's choices and their labels
    assert offers and all(keys <= set(o) <= keys | choices for o in offers)
    assert all(("targets" in o) == ("choice_labels" in o) for o in offers)
    assert {o["object"] for o in offers} - {None} <= mine  # alice's own handles only
    assert client.get(f"/api/t/{seats['spectator']}/legal").json()["actions"] == []
    delver = next(o["ref"] for o in objects(view) if o.get("name") == "Delver of Secrets")
    transform = next(o for o in offers if o["verb"] == "transform" and o["object"] == delver)
    r = client.post(
        f"/api/t/{alice}/act", json={k: transform[k] for k in ("verb", "object", "args")}
    )
    assert r.status_code == 200 and r.json()["last"]["result"] == "done"
    # Every offer the judge gets is an action the table takes or refuses by the rules.
    judge_offers = client.get(f"/api/t/{seats['judge']}/legal").json()["actions"]
    assert any(o["object"] == labels["fire"] for o in judge_offers)
    for o in judge_offers:
        r = client.post(
            f"/api/t/{seats['judge']}/act", json={k: o[k] for k in ("verb", "object", "args")}
        )
        assert r.status_code in (200, 409, 422), (o, r.text)
        if r.status_code == 200:
            client.post(f"/api/t/{seats['judge']}/undo", json={})


@pytest.fixture
def live(tmp_path: Path) -> Iterator[str]:
    """A real server (the test client can't stream an endless response)."""
    import socket
    import threading

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(tmp_path / "tables.sqlite3")
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        assert thread.is_alive(), "the server did not start"
        thread.join(0.05)
    yield f"http://127.0.0.1:{port}"
    app.state.sandbox.close_streams()
    srv.should_exit = True
    thread.join(10)


def next_event(lines: Iterator[str]) -> tuple[str, dict[str, Any]]:
    """The next server-sent event (comments and ``retry`` skipped)."""
    kind, data = "message", ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif not line and data:
            return kind, json.loads(data)
    raise AssertionError("the stream ended")


def test_events_follow_what_a_seat_sees(live: str) -> None:
    import httpx

    with httpx.Client(base_url=live, timeout=20) as c:
        seats = c.post("/api/tables", json={"ruleset": "mtg"}).json()["seats"]
        j = seats["judge"]
        r = c.post(
            f"/api/t/{j}/setup",
            json={"card": "Delver of Secrets", "owner": "alice", "zone": "battlefield"},
        )
        delver = r.json()["label"]
        with (
            c.stream("GET", f"/api/tables/{seats['alice']}/events") as alice,
            c.stream("GET", f"/api/tables/{j}/events") as judge,
        ):
            assert alice.headers["content-type"].startswith("text/event-stream")
            a_lines, j_lines = alice.iter_lines(), judge.iter_lines()
            kind, first = next_event(a_lines)
            assert kind == "change"
            assert first["version"] == c.get(f"/api/t/{seats['alice']}").json()["version"]
            assert next_event(j_lines)[1]["version"] == "1"
            r = c.post(f"/api/t/{j}/act", json={"verb": "transform", "object": delver})
            assert r.status_code == 200
            kind, second = next_event(a_lines)
            assert kind == "change" and second["version"] != first["version"]
            assert second["version"] == c.get(f"/api/t/{seats['alice']}").json()["version"]
            assert next_event(j_lines)[1]["version"] == "2"
        r = c.get("/api/tables/nosuchtoken123/events")
        assert r.status_code == 404 and r.json()["error"]


def test_serve_finds_its_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from obverse.cli import main

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, **kw: ran.append(self.config.app))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OBVERSE_DB", raising=False)
    assert main(["serve"]) == 0
    assert (tmp_path / "data" / "obverse" / "tables.sqlite3").is_file()
    assert ran[-1].state.sandbox.db_path is None  # no card database anywhere
    assert main(["serve", "--tables", str(tmp_path / "mine.sqlite3")]) == 0
    assert (tmp_path / "mine.sqlite3").is_file()
    cards = tmp_path / "data" / "obverse" / "cards.sqlite3"
    cards.write_bytes(b"")
    assert main(["serve"]) == 0
    assert ran[-1].state.sandbox.db_path == str(cards)  # the default database, as `run`
    monkeypatch.setenv("OBVERSE_DB", str(tmp_path / "elsewhere.sqlite3"))
    assert main(["serve"]) == 0 and ran[-1].state.sandbox.db_path is None
    (tmp_path / "elsewhere.sqlite3").write_bytes(b"")
    assert main(["serve"]) == 0
    assert ran[-1].state.sandbox.db_path == str(tmp_path / "elsewhere.sqlite3")
    capsys.readouterr()
    for argv in (["--db", str(tmp_path / "missing.sqlite3")], ["--tables", str(cards.parent)]):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", *argv])
        assert exit_.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("obverse serve: ") and "\n" not in err
    assert len(ran) == 5


def test_the_docs_screenshot_is_small() -> None:
    shot = Path(__file__).parent.parent / "docs" / "web-board.png"
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 200_000


def test_a_quiet_games_offers_are_made_unasked_and_are_the_asked_ones() -> None:
    """``obverse serve`` makes a game's seats' offers once it has been quiet after a change
    (the first request finds them made); they are the offers a request would make."""
    app = create_app(Store(":memory:"))
    sandbox = app.state.sandbox
    sandbox.warm_after = 0.01
    with TestClient(app) as c:
        seats, _labels = board(c)
        game, _ = sandbox.seat(seats["judge"])
        table = sandbox.table(game)
        for _ in range(100):  # the server's loop runs in its own thread: wait for it
            if all(table.has_seen("legal", s) for s in ("judge", "alice", "bob")):
                break
            time.sleep(0.02)
        assert all(table.has_seen("legal", s) for s in ("judge", "alice", "bob"))
        warmed = {s: c.get(f"/api/t/{seats[s]}/legal").json() for s in ("alice", "bob")}
    with TestClient(create_app(Store(":memory:"))) as cold:  # warming off: made when asked
        again = new_table(cold)
        assert not cold.app.state.sandbox.warm_after  # type: ignore[attr-defined]
        assert again and warmed["alice"]["actions"] and warmed["bob"]["actions"]
    fresh = {s: legal_body(Table(table.rec), s) for s in ("alice", "bob")}
    assert {s: json.loads(b) for s, b in fresh.items()} == warmed
