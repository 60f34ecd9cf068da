"""Issue: a seat made its own creature a copy of a hidden card in the opponent's library and
read the library in order. Every object a seat's request names goes through the kernel's
actor check; the refusal is the same whatever the hidden card is."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
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
