"""The hot routes answered in front of the framework (:mod:`obverse.web.hot`) answer exactly
what the framework's routes answer: status, headers and body, refusals included, for every
seat; the store's kept versions follow another connection's writes."""

from __future__ import annotations

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

from obverse.web.app import create_app
from obverse.web.hot import _route
from obverse.web.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BASE = "http://127.0.0.1:8000"
ORIGIN = {"Origin": BASE}
CARDS = (
    ("Delver of Secrets", "alice", "battlefield"),
    ("Clone", "bob", "battlefield"),
    ("Serra Angel", "alice", "hand"),
    ("Fire // Ice", "bob", "library"),
)


@pytest.fixture
def pair() -> Iterator[tuple[TestClient, TestClient, dict[str, str]]]:
    """The app with its hot routes and without, over one store, and a table's seats."""
    store = Store(":memory:")
    kw: dict[str, Any] = {"base_url": BASE, "raise_server_exceptions": False}
    with (
        TestClient(create_app(store), **kw) as hot,
        TestClient(create_app(store, hot=False), **kw) as plain,
    ):
        r = hot.post("/api/tables", json={"ruleset": "mtg", "seed": 3}, headers=ORIGIN)
        seats: dict[str, str] = r.json()["seats"]
        for card, owner, zone in CARDS:
            body = {"card": card, "owner": owner, "zone": zone}
            r = hot.post(f"/api/t/{seats['judge']}/setup", json=body, headers=ORIGIN)
            assert r.status_code == 200, r.text
        yield hot, plain, seats


def same(a: Any, b: Any) -> None:
    assert a.status_code == b.status_code, (a.status_code, b.status_code, a.text)
    assert a.headers.multi_items() == b.headers.multi_items()
    assert a.content == b.content


def both(
    pair: tuple[TestClient, TestClient, dict[str, str]], method: str, url: str, **kw: Any
) -> Any:
    hot, plain, _ = pair
    a, b = hot.request(method, url, **kw), plain.request(method, url, **kw)
    same(a, b)
    return a


def test_reads_are_the_frameworks(pair: tuple[TestClient, TestClient, dict[str, str]]) -> None:
    _, _, seats = pair
    for seat, token in seats.items():
        state = both(pair, "GET", f"/api/t/{token}")
        assert state.status_code == 200 and state.json()["seat"] == seat
        offers = both(pair, "GET", f"/api/t/{token}/legal")
        assert offers.status_code == 200 and isinstance(offers.json()["actions"], list)
        both(pair, "GET", f"/api/tables/{token}/legal")
        log = state.json()["log"]
        key = log[-1]["key"] if log else ""
        for query in (f"since={len(log)}&after={key}", "since=x&after=", "since=1&since=0"):
            both(pair, "GET", f"/api/t/{token}?{query}")
    for url in ("/api/t/nope-nope-nope", "/api/t/nope-nope-nope/legal", "/api/t/x"):
        assert both(pair, "GET", url).status_code == 404
    # Other methods and shapes go on to the framework (405, a redirect, a route of its own).
    token = seats["alice"]
    assert both(pair, "POST", f"/api/t/{token}/legal", json={}, headers=ORIGIN).status_code == 405
    assert both(pair, "PUT", f"/api/t/{token}", json={}, headers=ORIGIN).status_code == 405
    assert both(pair, "HEAD", f"/api/t/{token}").status_code == 200
    both(pair, "GET", f"/api/t/{token}/legal/", follow_redirects=False)
    both(pair, "GET", f"/api/tables/{token}")


def test_refusals_are_the_frameworks(
    pair: tuple[TestClient, TestClient, dict[str, str]],
) -> None:
    _, _, seats = pair
    url = f"/api/t/{seats['alice']}/act"
    cases: list[tuple[dict[str, Any], int]] = [
        ({"json": {"verb": "tap"}, "headers": {"Origin": "http://evil.example"}}, 403),
        ({"content": b"verb=tap", "headers": {**ORIGIN, "Content-Type": "text/plain"}}, 415),
        ({"content": b"{}", "headers": {**ORIGIN, "Content-Length": "999999999"}}, 413),
        ({"content": b"{", "headers": {**ORIGIN, "Content-Type": "application/json"}}, 400),
        ({"json": [1], "headers": ORIGIN}, 400),
        ({"json": {"verb": "tap", "extra": 1}, "headers": ORIGIN}, 400),
        ({"json": {"verb": "fly", "object": None}, "headers": ORIGIN}, 400),
        ({"json": {"verb": 3}, "headers": ORIGIN}, 400),
        ({"json": {"verb": "move", "args": {"a": {"b": {"c": 1}}}}, "headers": ORIGIN}, 400),
    ]
    for kw, status in cases:
        r = both(pair, "POST", url, **kw)
        assert r.status_code == status, (kw, r.text)
        assert r.json()["error"]
    big = b'{"verb": "' + b"x" * (600 * 1024) + b'"}'
    r = both(pair, "POST", url, content=big, headers={**ORIGIN, "Content-Type": "application/json"})
    assert r.status_code == 413
    unknown = both(pair, "POST", "/api/t/nope-nope-nope/act", json={}, headers=ORIGIN)
    assert unknown.status_code == 404


def test_an_action_is_the_frameworks(
    pair: tuple[TestClient, TestClient, dict[str, str]],
) -> None:
    hot, plain, seats = pair
    offers = hot.get(f"/api/t/{seats['alice']}/legal").json()["actions"]
    assert offers
    offer = next(o for o in offers if o["verb"] == "move")
    body = {k: offer[k] for k in ("verb", "object", "args")}
    url = f"/api/t/{seats['alice']}/act?since=0&after="
    a = hot.post(url, json=body, headers=ORIGIN)
    assert a.status_code == 200 and a.json()["last"]["result"] == "done"
    undo = hot.post(f"/api/t/{seats['judge']}/undo", json={}, headers=ORIGIN)
    assert undo.status_code == 200
    b = plain.post(url, json=body, headers=ORIGIN)
    same(a, b)  # the same action on the same board: the same answer, byte for byte


def test_route_shapes() -> None:
    def scope(method: str, path: str, **kw: Any) -> dict[str, Any]:
        return {"type": "http", "method": method, "path": path, **kw}

    assert _route(scope("GET", "/api/t/abc")) == ("state", "abc")
    assert _route(scope("GET", "/api/tables/abc/legal")) == ("legal", "abc")
    assert _route(scope("POST", "/api/t/abc/act")) == ("act", "abc")
    for method, path in (("GET", "/api/tables/abc"), ("GET", "/api/t/abc/act"), ("GET", "/")):
        assert _route(scope(method, path)) is None
    assert _route(scope("GET", "/api/t/abc", root_path="/sandbox")) is None
    assert _route({"type": "websocket", "path": "/api/t/abc"}) is None


def test_kept_versions_follow_another_connection(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    one, other = Store(path), Store(path)
    game, _ = one.create("mtg", ("alice", "bob"))
    assert one.version(game) == 0
    assert other.append(game, "setup", "judge", {"x": 1}) == 1
    assert one.version(game) == 1  # another connection's commit is seen at once
    assert one.append(game, "setup", "judge", {"x": 2}) == 2
    assert one.version(game) == 2 and other.version(game) == 2
    one.close()
    assert other.append(game, "setup", "judge", {"x": 3}) == 3
    assert one.version(game) == 3  # reopened: nothing kept from before
    one.close()
    other.close()


def test_the_in_process_bench_measures_every_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_server.py"
    spec = importlib.util.spec_from_file_location("bench_server", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_server", bench)  # its structs' types resolve
    spec.loader.exec_module(bench)
    out = bench.measure_in_process(clients=4, requests=40, cards=6, seed=3)
    figures = asyncio.run(out)
    assert figures["requests"] == 160 and figures["errors"] == 0
    assert set(figures["cpu_ms_by_kind"]) == {"state", "log", "legal", "act"}
    assert figures["cpu_ms_per_request"] > 0 and figures["floor_cpu_ms_per_request"] > 0
    assert set(figures["statuses"]) <= {"200", "404", "409", "422"}
