"""Issue: a seat made its own creature a copy of a hidden card in the opponent's library and
read the library in order. Every object a seat's request names goes through the kernel's
actor check; the refusal is the same whatever the hidden card is."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from obverse.web.app import create_app
from obverse.web.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Store(":memory:"))) as c:
        yield c


def _table(c: TestClient, library: list[str]) -> dict[str, str]:
    r = c.post("/api/tables", json={"ruleset": "mtg", "title": "refs"})
    seats: dict[str, str] = r.json()["seats"]
    j = seats["judge"]
    c.post(f"/api/t/{j}/setup", json={"card": "Clone", "owner": "alice", "zone": "battlefield"})
    for name in library:
        c.post(f"/api/t/{j}/setup", json={"card": name, "owner": "bob", "zone": "library"})
    return seats


def _objects(c: TestClient, token: str) -> list[dict[str, Any]]:
    view = c.get(f"/api/t/{token}").json()["view"]
    return [o for z in view["zones"] for o in z["objects"]]


def _attack(c: TestClient, library: list[str]) -> list[tuple[int, str]]:
    seats = _table(c, library)
    mine = next(o for o in _objects(c, seats["alice"]) if o.get("name") == "Clone")
    hidden = [o for o in _objects(c, seats["alice"]) if o["zone"] == "library"]
    answers = []
    for o in hidden:
        r = c.post(
            f"/api/t/{seats['alice']}/act",
            json={"verb": "become_copy", "object": mine["ref"], "args": {"of": o["ref"]}},
        )
        answers.append((r.status_code, r.text))
    after = json.dumps(_objects(c, seats["alice"]))
    for name in library:
        assert name not in after
    return answers


def test_a_seat_cannot_copy_a_hidden_card(client: TestClient) -> None:
    one = _attack(client, ["Serra Angel", "Air Elemental"])
    two = _attack(client, ["Grinning Demon", "Delver of Secrets"])
    assert all(status == 403 for status, _ in one)
    assert one == two  # same status and text whatever the hidden cards are
    for _, text in one:
        for name in ("Serra Angel", "Air Elemental", "Grinning Demon", "Delver"):
            assert name not in text


def _first(c: TestClient, token: str, zone: str, owner: str) -> str:
    objs = [o for o in _objects(c, token) if o["zone"] == zone and o["owner"] == owner]
    return str(objs[0]["ref"]) if objs else "none"


#: alice's script: (verb, (zone, owner) of the object she names, args with named refs).
SCRIPT: list[tuple[str, tuple[str, str] | None, dict[str, Any]]] = [
    ("become_copy", ("battlefield", "alice"), {"of": ("hand", "bob")}),
    ("reveal", ("hand", "bob"), {}),
    ("examine", ("hand", "bob"), {}),
    ("cast", ("hand", "bob"), {}),
    ("move", ("hand", "bob"), {"to": "graveyard"}),
    ("add_counters", ("hand", "bob"), {"counter": "+1/+1", "count": 1}),
    ("change_control", ("hand", "bob"), {"to": "alice"}),
    ("create_token_copy", ("hand", "bob"), {}),
    ("transform", ("battlefield", "alice"), {}),
    ("add_counters", ("battlefield", "alice"), {"counter": "+1/+1", "count": 2}),
    ("create_token_copy", ("battlefield", "alice"), {}),
    ("turn_face_down", ("battlefield", "alice"), {}),
    ("turn_face_up", ("battlefield", "alice"), {}),
    ("shuffle", None, {"player": "alice", "zone": "library"}),
    ("become_copy", ("battlefield", "alice"), {"of": ("library", "bob")}),
    ("end_turn", None, {}),
]


def _twin_responses(secret: str, restart: Callable[[], None]) -> list[str]:
    restart()
    out: list[str] = []
    with TestClient(create_app(Store(":memory:"))) as c:
        r = c.post("/api/tables", json={"ruleset": "mtg", "title": "twins", "seed": 7})
        seats: dict[str, str] = r.json()["seats"]
        j, alice = seats["judge"], seats["alice"]
        for card, owner, zone in (
            ("Delver of Secrets", "alice", "battlefield"),
            ("Clone", "alice", "library"),
            (secret, "bob", "hand"),
            ("Grinning Demon", "bob", "library"),
        ):
            c.post(f"/api/t/{j}/setup", json={"card": card, "owner": owner, "zone": zone})
        for verb, where, args in SCRIPT:
            obj = _first(c, alice, *where) if where else None
            named = {
                k: (_first(c, alice, *val) if isinstance(val, tuple) else val)
                for k, val in args.items()
            }
            r = c.post(f"/api/t/{alice}/act", json={"verb": verb, "object": obj, "args": named})
            out.append(f"{verb} {r.status_code} {r.text}")
            for path in ("", "/legal", "/log"):
                out.append(c.get(f"/api/t/{alice}{path}").text)
    return out


def test_every_response_alice_gets_is_the_same_whatever_bob_hides(
    same_randomness: Callable[[], None],
) -> None:
    one = _twin_responses("Serra Angel", same_randomness)
    two = _twin_responses("Air Elemental", same_randomness)
    assert len(one) == len(two) == 4 * len(SCRIPT)
    for a, b in zip(one, two, strict=True):
        assert a == b
    text = "\n".join(one)
    assert "Serra Angel" not in text and "Air Elemental" not in text
    statuses = [line.split(" ", 2)[1] for line in one if line.split(" ", 1)[0].isidentifier()]
    assert "403" in statuses and "200" in statuses  # hidden references refused, others acted
