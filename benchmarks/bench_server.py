"""Benchmark: the web sandbox under concurrent load, on loopback only.

Starts ``obverse serve`` on 127.0.0.1 (a free port, a temporary tables file), builds a table
with a realistic board through the judge's API, then runs CLIENTS concurrent clients (threads,
one keep-alive connection each) of REQUESTS mixed requests each: seat state GETs, log GETs
with ``?since=``, legal-action GETs and act POSTs with an action the seat was offered. It
reports requests/s and p50/p99 latency beside a floor measured in the same run (the same
load on the trivial ``GET /api/rulesets``), then stops the server. A hard time limit ends
the run however the server behaves. Usage::

    python benchmarks/bench_server.py [--clients 20] [--requests 300] [--cards 60] [--json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
SERVE = (sys.executable, "-m", "obverse", "serve")
#: The whole run ends by this many seconds, whatever happens.
HARD_LIMIT = 120.0
#: The goals of issue 14.
GOAL_RATE = 500.0
GOAL_P99_MS = 50.0
#: Cards of the bundled MTG set the board is built from (each player gets a share).
BOARD_CARDS = (
    "Delver of Secrets",
    "Elite Vanguard",
    "Village Ironsmith",
    "Serra Angel",
    "Fire // Ice",
    "Blackbloom Rogue",
    "Air Elemental",
    "Akki Lavarunner",
    "Clone",
    "Grinning Demon",
)


@dataclass
class Load:
    """What one load phase measured."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def rate(self) -> float:
        """Requests per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile latency, in milliseconds."""
        if len(self.latencies) < 2:
            return self.latencies[0] * 1000 if self.latencies else 0.0
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[int(q) - 1] * 1000


def free_port() -> int:
    """A port nothing listens on now (the OS's pick)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start_server(port: int, tables: Path, deadline: float) -> subprocess.Popen[bytes]:
    """``obverse serve`` in a child process, once it answers."""
    proc = subprocess.Popen(
        [*SERVE, "--host", HOST, "--port", str(port), "--tables", str(tables)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "OBVERSE_DB": str(tables.parent / "no-card-db.sqlite3")},
    )
    while time.monotonic() < min(deadline, time.monotonic() + 30):
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"bench_server: the server exited: {err.strip()[-400:]}")
        try:
            conn = Conn(port)
            ready = conn.request("GET", "/api/rulesets")[0] == 200
            conn.close()
            if ready:
                return proc
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
    stop_server(proc)
    raise SystemExit("bench_server: the server did not answer within 30 s")


def profiler(pid: int, out: str | None) -> subprocess.Popen[bytes] | None:
    """``py-spy record`` of the server during the mixed load (collapsed stacks in ``out``),
    when asked for."""
    if out is None:
        return None
    cmd = ["py-spy", "record", "--pid", str(pid), "--format", "raw", "-o", out, "--rate", "200"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Interrupt the server as Ctrl-C would; kill it if it lingers."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def build_table(port: int, cards: int, seed: int) -> dict[str, str]:
    """A new table with ``cards`` cards dealt between two players (battlefield, hand,
    library, graveyard) and the game started; returns the seat tokens."""
    conn = Conn(port)
    status, made = conn.request("POST", "/api/tables", {"ruleset": "mtg", "seed": seed})
    if status != 201:
        raise SystemExit(f"bench_server: POST /api/tables answered {status}: {made}")
    seats: dict[str, str] = made["seats"]
    rng = random.Random(seed)
    zones = ("battlefield", "battlefield", "hand", "library", "graveyard")
    for i in range(cards):
        body = {
            "card": BOARD_CARDS[i % len(BOARD_CARDS)],
            "owner": ("alice", "bob")[i % 2],
            "zone": rng.choice(zones),
        }
        status, data = conn.request("POST", f"/api/t/{seats['judge']}/setup", body)
        if status != 200:
            raise SystemExit(f"bench_server: adding {body} answered {status}: {data}")
    conn.close()
    return seats


class Conn:
    """One keep-alive HTTP/1.1 connection (the standard library's client: light enough that
    20 of them in one process measure the server, not the client)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.http = http.client.HTTPConnection(HOST, port, timeout=10)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """``(status, decoded JSON)`` of one request."""
        headers = {"Origin": self.origin}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.http.request(method, path, body=data, headers=headers)
        resp = self.http.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if raw else None

    def close(self) -> None:
        """Close the connection."""
        self.http.close()


def client(
    port: int,
    token: str,
    count: int,
    deadline: float,
    load: Load,
    seed: int,
    mixed: bool,
) -> None:
    """One client: ``count`` requests (mixed, or the floor's trivial GET) until the deadline."""
    rng = random.Random(seed)
    offers: list[dict[str, Any]] = []
    since, after = 0, ""
    mine: list[float] = []
    kinds: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    errors = 0
    conn = Conn(port)
    for _ in range(count):
        if time.monotonic() >= deadline:
            break
        kind = "floor" if not mixed else pick(rng, bool(offers))
        t0 = time.perf_counter()
        try:
            if kind == "floor":
                status, data = conn.request("GET", "/api/rulesets")
            elif kind == "state":
                status, data = conn.request("GET", f"/api/t/{token}")
            elif kind == "log":
                query = urllib.parse.urlencode({"since": since, "after": after})
                status, data = conn.request("GET", f"/api/t/{token}?{query}")
            elif kind == "legal":
                status, data = conn.request("GET", f"/api/t/{token}/legal")
            else:
                act = rng.choice(offers)
                body = {"verb": act["verb"], "object": act["object"], "args": act["args"]}
                status, data = conn.request("POST", f"/api/t/{token}/act", body)
        except (OSError, http.client.HTTPException, ValueError):
            errors += 1
            conn.close()
            conn = Conn(port)
            continue
        mine.append(time.perf_counter() - t0)
        kinds[kind] += 1
        statuses[status] += 1
        if status == 200 and kind == "legal":
            offers = data["actions"]
        elif status == 200 and kind in ("state", "log", "act"):
            since = data["log_length"]
            after = data["log"][-1]["key"] if data["log"] else after
            if kind == "act":
                offers = []  # the board changed: ask again
    conn.close()
    with load.lock:
        load.latencies += mine
        load.kinds.update(kinds)
        load.statuses.update(statuses)
        load.errors += errors


def pick(rng: random.Random, can_act: bool) -> str:
    """The next request of a mixed client: mostly reads, an action in ten when it can."""
    roll = rng.random()
    if can_act and roll < 0.1:
        return "act"
    if roll < 0.4:
        return "state"
    if roll < 0.7:
        return "log"
    return "legal"


def run_load(
    port: int, tokens: list[str], clients: int, requests: int, deadline: float, mixed: bool
) -> Load:
    """``clients`` threads of ``requests`` requests each; their combined figures."""
    load = Load()
    threads = [
        threading.Thread(
            target=client,
            args=(port, tokens[i % len(tokens)], requests, deadline, load, i, mixed),
            daemon=True,  # a hung request can't keep the benchmark alive past the limit
        )
        for i in range(clients)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    load.seconds = time.perf_counter() - t0
    return load


def measure(
    clients: int, requests: int, cards: int, seed: int, profile: str | None = None
) -> dict[str, Any]:
    """Start the server, build the table, run the floor and the mixed load, stop it."""
    deadline = time.monotonic() + HARD_LIMIT
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, Path(tmp) / "tables.sqlite3", deadline)
        try:
            seats = build_table(port, cards, seed)
            tokens = [seats[s] for s in ("alice", "bob", "judge", "spectator")]
            floor = run_load(port, tokens, clients, requests, deadline, mixed=False)
            spy = profiler(proc.pid, profile)
            mixed = run_load(port, tokens, clients, requests, deadline, mixed=True)
            if spy is not None:
                stop_server(spy)
        finally:
            stop_server(proc)
    timed_out = time.monotonic() >= deadline
    return {
        "clients": clients,
        "requests_per_client": requests,
        "board_cards": cards,
        "requests": len(mixed.latencies),
        "errors": mixed.errors,
        "timed_out": timed_out,
        "requests_per_s": round(mixed.rate, 1),
        "p50_ms": round(mixed.percentile(50), 2),
        "p99_ms": round(mixed.percentile(99), 2),
        "floor_name": "GET /api/rulesets, same clients and count",
        "floor_requests_per_s": round(floor.rate, 1),
        "floor_p99_ms": round(floor.percentile(99), 2),
        "rate_ratio_to_floor": round(mixed.rate / floor.rate, 3) if floor.rate else None,
        "kinds": dict(mixed.kinds),
        "statuses": {str(k): v for k, v in sorted(mixed.statuses.items())},
        "goal": f">= {GOAL_RATE:.0f} requests/s and p99 <= {GOAL_P99_MS:.0f} ms",
        "met": mixed.rate >= GOAL_RATE and mixed.percentile(99) <= GOAL_P99_MS and not timed_out,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures (one JSON object with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=300, help="requests per client")
    ap.add_argument("--cards", type=int, default=60, help="cards on the table")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", help="py-spy's collapsed stacks of the server")
    args = ap.parse_args(argv)
    if not (1 <= args.clients <= 200 and 1 <= args.requests <= 10_000 and 0 <= args.cards <= 500):
        ap.error("--clients 1..200, --requests 1..10000, --cards 0..500")
    out = measure(args.clients, args.requests, args.cards, args.seed, args.profile)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(
            f"{out['requests']} requests from {out['clients']} clients: "
            f"{out['requests_per_s']:,.0f} requests/s, p50 {out['p50_ms']} ms, "
            f"p99 {out['p99_ms']} ms (goal {out['goal']}: {'met' if out['met'] else 'missed'})"
        )
        print(
            f"floor ({out['floor_name']}): {out['floor_requests_per_s']:,.0f} requests/s, "
            f"p99 {out['floor_p99_ms']} ms; ratio {out['rate_ratio_to_floor']}"
        )
        print(f"kinds {out['kinds']}; statuses {out['statuses']}; errors {out['errors']}")
    return 0 if not out["timed_out"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
