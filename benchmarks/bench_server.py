"""Benchmark: the web sandbox under concurrent load, on loopback only.

Each run starts ``obverse serve`` on 127.0.0.1 (a free port, a temporary tables file), builds a
table with a realistic board through the judge's API, then runs CLIENTS concurrent clients
(asyncio tasks in one process, one keep-alive HTTP/1.1 connection each over raw streams, so
the client costs little beside the server) of REQUESTS mixed requests each: seat state GETs,
log GETs with ``?since=``, legal-action GETs and act POSTs with an action the seat was offered.
It reports requests/s and p50/p99 latency beside a floor measured in the same run (the same
load on the trivial ``GET /api/rulesets``), the CPU the server and the client used, then stops
the server. The machine may be shared, so it runs several times (``--runs``) and reports the
best run and the spread. A hard time limit ends each run however the server behaves. Usage::

    python benchmarks/bench_server.py [--clients 20] [--requests 300] [--cards 60]
                                      [--runs 3] [--json] [--in-process]

``--in-process`` sends the same requests straight to the app in this process and reports the
CPU time each took (by kind, with its floor): no server, socket or client process shares the
measure, so it compares two trees on a loaded machine where requests/s can't.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

HOST = "127.0.0.1"
SERVE = (sys.executable, "-m", "obverse", "serve")
#: Each run ends by this many seconds, whatever happens.
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
_encode = msgspec.json.Encoder().encode


class Offer(msgspec.Struct):
    """An offered action, as much as the client sends back (its ``rule`` is skipped)."""

    verb: str
    object: str | None
    args: msgspec.Raw


class Offers(msgspec.Struct):
    actions: list[Offer]


class LogKey(msgspec.Struct):
    key: str


class SeatState(msgspec.Struct):
    """The two fields of a seat's state the client follows (the view is skipped unread)."""

    log_length: int
    log: list[LogKey]


# The client decodes only what it uses, into structs: a client that built every response's
# dicts would cost as much CPU as the server and queue the answers it measures.
_decode_offers = msgspec.json.Decoder(Offers).decode
_decode_state = msgspec.json.Decoder(SeatState).decode


class HTTPError(Exception):
    """A response the client can't read (closed connection, no length, bad status line)."""


@dataclass
class Load:
    """What one load phase measured."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    #: Each request's latency by its kind (which requests make the tail).
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    #: CPU seconds the client process and the server process used during the phase.
    client_cpu: float = 0.0
    server_cpu: float = 0.0

    @property
    def rate(self) -> float:
        """Requests per second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile latency, in milliseconds."""
        if len(self.latencies) < 2:
            return self.latencies[0] * 1000 if self.latencies else 0.0
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[int(q) - 1] * 1000


class Conn:
    """One keep-alive HTTP/1.1 connection over asyncio streams: a request is one write, a
    response is its head and ``Content-Length`` bytes."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.host = f"{HOST}:{port}".encode()
        self.origin = f"http://{HOST}:{port}".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """``(status, body)`` of one request (opens the connection if needed)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        head = b"%s %s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\n" % (
            method.encode(),
            path.encode(),
            self.host,
            self.origin,
        )
        data = b"" if body is None else _encode(body)
        if body is not None:
            head += b"Content-Type: application/json\r\n"
        self.writer.write(head + b"Content-Length: %d\r\n\r\n" % len(data) + data)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        parts = lines[0].split(b" ", 2)
        if len(parts) < 2 or not parts[1].isdigit():
            raise HTTPError(f"bad status line {lines[0]!r}")
        length = None
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise HTTPError("a response without Content-Length")
        return int(parts[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
            self.writer = self.reader = None


class AppConn:
    """A connection straight to an ASGI app in this process (``--in-process``): the same
    requests as :class:`Conn`, with no HTTP server or socket between."""

    def __init__(self, app: Any) -> None:
        self.app = app
        #: The CPU time the app took for the last request, in seconds.
        self.cpu = 0.0

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """``(status, body)`` of one request."""
        route, _, query = path.partition("?")
        data = b"" if body is None else _encode(body)
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]
        headers.append((b"content-length", b"%d" % len(data)))
        if body is not None:
            headers.append((b"content-type", b"application/json"))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": route,
            "raw_path": route.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 8000),
        }
        sent: list[Any] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": data, "more_body": False}

        async def send(message: Any) -> None:
            sent.append(message)

        await asyncio.sleep(0)  # the other clients' turn first, as over a socket
        t0 = time.process_time()
        await self.app(scope, receive, send)
        self.cpu = time.process_time() - t0
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    async def close(self) -> None:
        """Nothing to close."""


Connect = Any  # a function making a connection (``--in-process``)


def connect(port: int | Connect) -> Any:
    """A connection to the server on ``port``, or one ``port`` (a factory) makes."""
    return Conn(port) if isinstance(port, int) else port()


def free_port() -> int:
    """A port nothing listens on now (the OS's pick)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (0.0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_server(port: int, tables: Path, deadline: float) -> subprocess.Popen[bytes]:
    """``obverse serve`` in a child process, once it answers."""
    proc = subprocess.Popen(
        [*SERVE, "--host", HOST, "--port", str(port), "--tables", str(tables)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "OBVERSE_DB": str(tables.parent / "no-card-db.sqlite3")},
    )
    until = min(deadline, time.monotonic() + 30)
    while time.monotonic() < until:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"bench_server: the server exited: {err.strip()[-400:]}")
        conn = Conn(port)
        try:
            ready = (await conn.request("GET", "/api/rulesets"))[0] == 200
        except (OSError, HTTPError, asyncio.IncompleteReadError):
            ready = False
        await conn.close()
        if ready:
            return proc
        await asyncio.sleep(0.1)
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


async def build_table(port: int | Connect, cards: int, seed: int) -> dict[str, str]:
    """A new table with ``cards`` cards dealt between two players (battlefield, hand,
    library, graveyard); returns the seat tokens."""
    conn = connect(port)
    status, raw = await conn.request("POST", "/api/tables", {"ruleset": "mtg", "seed": seed})
    made = msgspec.json.decode(raw)
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
        status, data = await conn.request("POST", f"/api/t/{seats['judge']}/setup", body)
        if status != 200:
            raise SystemExit(f"bench_server: adding {body} answered {status}: {data[:200]!r}")
    await conn.close()
    return seats


async def client(
    port: int | Connect, token: str, count: int, load: Load, seed: int, mixed: bool
) -> None:
    """One client: ``count`` requests (mixed, or the floor's trivial GET). In process
    (``port`` a factory), a request's "latency" is the CPU time the app took."""
    in_process = not isinstance(port, int)
    rng = random.Random(seed)
    offers: list[Offer] = []
    since, after = 0, ""
    conn = connect(port)
    clock = time.perf_counter
    for _ in range(count):
        kind = "floor" if not mixed else pick(rng, bool(offers))
        t0 = clock()
        try:
            if kind == "floor":
                status, data = await conn.request("GET", "/api/rulesets")
            elif kind == "state":
                status, data = await conn.request("GET", f"/api/t/{token}")
            elif kind == "log":
                query = urllib.parse.urlencode({"since": since, "after": after})
                status, data = await conn.request("GET", f"/api/t/{token}?{query}")
            elif kind == "legal":
                status, data = await conn.request("GET", f"/api/t/{token}/legal")
            else:
                act = rng.choice(offers)
                body = {"verb": act.verb, "object": act.object, "args": act.args}
                status, data = await conn.request("POST", f"/api/t/{token}/act", body)
        except (OSError, HTTPError, ValueError, asyncio.IncompleteReadError):
            load.errors += 1
            await conn.close()
            continue
        load.latencies.append(conn.cpu if in_process else clock() - t0)
        load.by_kind.setdefault(kind, []).append(load.latencies[-1])
        load.kinds[kind] += 1
        load.statuses[status] += 1
        try:
            if status == 200 and kind == "legal":
                offers = _decode_offers(data).actions
            elif status == 200 and kind in ("state", "log", "act"):
                seen = _decode_state(data)
                since = seen.log_length
                after = seen.log[-1].key if seen.log else after
                if kind == "act":
                    offers = []  # the board changed: ask again
        except msgspec.DecodeError:
            load.errors += 1
    await conn.close()


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


async def run_load(
    port: int | Connect,
    server_pid: int,
    tokens: list[str],
    clients: int,
    requests: int,
    deadline: float,
    mixed: bool,
) -> Load:
    """``clients`` concurrent clients of ``requests`` requests each: their combined
    figures (the phase is cut at the deadline)."""
    load = Load()
    tasks = [
        client(port, tokens[i % len(tokens)], requests, load, i, mixed) for i in range(clients)
    ]
    cpu0, server0, t0 = time.process_time(), cpu_seconds(server_pid), time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), max(1.0, deadline - time.monotonic()))
    except TimeoutError:
        load.errors += 1
    load.seconds = time.perf_counter() - t0
    load.client_cpu = time.process_time() - cpu0
    load.server_cpu = cpu_seconds(server_pid) - server0
    return load


async def measure(
    clients: int, requests: int, cards: int, seed: int, profile: str | None = None
) -> dict[str, Any]:
    """One run: start the server, build the table, run the floor and the mixed load, stop."""
    deadline = time.monotonic() + HARD_LIMIT
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = await start_server(port, Path(tmp) / "tables.sqlite3", deadline)
        try:
            seats = await build_table(port, cards, seed)
            tokens = [seats[s] for s in ("alice", "bob", "judge", "spectator")]
            floor = await run_load(port, proc.pid, tokens, clients, requests, deadline, False)
            spy = profiler(proc.pid, profile)
            mixed = await run_load(port, proc.pid, tokens, clients, requests, deadline, True)
            if spy is not None:
                stop_server(spy)
        finally:
            stop_server(proc)
    timed_out = time.monotonic() >= deadline
    rate, p99 = mixed.rate, mixed.percentile(99)
    return {
        "requests": len(mixed.latencies),
        "errors": mixed.errors,
        "timed_out": timed_out,
        "requests_per_s": round(rate, 1),
        "p50_ms": round(mixed.percentile(50), 2),
        "p99_ms": round(p99, 2),
        "floor_requests_per_s": round(floor.rate, 1),
        "floor_p99_ms": round(floor.percentile(99), 2),
        "rate_ratio_to_floor": round(rate / floor.rate, 3) if floor.rate else None,
        # CPU seconds per wall second: the share of one CPU each side kept busy.
        "client_cpu_share": round(mixed.client_cpu / mixed.seconds, 2) if mixed.seconds else 0,
        "server_cpu_share": round(mixed.server_cpu / mixed.seconds, 2) if mixed.seconds else 0,
        # Server CPU per request: what a request costs whatever else runs on the machine.
        "server_cpu_ms_per_request": per_request(mixed),
        # What that CPU figure allows one quiet core (no queueing, no client): an upper bound.
        "requests_per_cpu_s": per_cpu_second(mixed),
        "floor_server_cpu_ms_per_request": per_request(floor),
        "kinds": dict(mixed.kinds),
        "p99_ms_by_kind": {k: round(_p99(v), 2) for k, v in sorted(mixed.by_kind.items())},
        "statuses": {str(k): v for k, v in sorted(mixed.statuses.items())},
        "met_rate": rate >= GOAL_RATE and not timed_out,
        "met_p99": p99 <= GOAL_P99_MS and not timed_out,
    }


async def measure_in_process(clients: int, requests: int, cards: int, seed: int) -> dict[str, Any]:
    """One run in this process (``--in-process``): the same table, floor and mixed load sent
    straight to the app, each request's CPU time taken. No HTTP server, socket or other
    process is in it, so the figures hold on a loaded machine (compare them, as ratios, with
    another tree's: ``PYTHONPATH=OTHER/src``)."""
    from obverse.web.app import create_app, tune_gc  # only this mode needs the package here

    deadline = time.monotonic() + HARD_LIMIT
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "tables.sqlite3")
        tune_gc()  # as ``obverse serve`` starts

        def conn() -> AppConn:
            return AppConn(app)

        seats = await build_table(conn, cards, seed)
        tokens = [seats[s] for s in ("alice", "bob", "judge", "spectator")]
        for token in tokens:  # the quiet game's offers, as the server makes them unasked
            await conn().request("GET", f"/api/t/{token}/legal")
        floor = await run_load(conn, 0, tokens, clients, requests, deadline, False)
        mixed = await run_load(conn, 0, tokens, clients, requests, deadline, True)
        app.state.sandbox.store.close()
    cpu, floor_cpu = _mean_ms(mixed.latencies), _mean_ms(floor.latencies)
    return {
        "requests": len(mixed.latencies),
        "errors": mixed.errors,
        "cpu_ms_per_request": round(cpu, 4),
        "floor_cpu_ms_per_request": round(floor_cpu, 4),
        "ratio_to_floor": round(cpu / floor_cpu, 2) if floor_cpu else None,
        "cpu_ms_by_kind": {k: round(_mean_ms(v), 4) for k, v in sorted(mixed.by_kind.items())},
        "p99_cpu_ms": round(mixed.percentile(99), 3),
        "max_cpu_ms": round(max(mixed.latencies, default=0.0) * 1000, 3),
        "kinds": dict(mixed.kinds),
        "statuses": {str(k): v for k, v in sorted(mixed.statuses.items())},
    }


def _mean_ms(seconds: list[float]) -> float:
    return sum(seconds) / len(seconds) * 1000 if seconds else 0.0


def in_process_main(args: argparse.Namespace) -> int:
    """``--in-process``: every run's figures, the lowest CPU per request first."""
    runs = [
        asyncio.run(measure_in_process(args.clients, args.requests, args.cards, args.seed))
        for _ in range(args.runs)
    ]
    best = min(runs, key=lambda r: r["cpu_ms_per_request"])
    out = {
        "mode": "in-process",
        "runs": len(runs),
        **best,
        "spread_cpu_ms_per_request": [r["cpu_ms_per_request"] for r in runs],
    }
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(
            f"in process, best of {out['runs']} runs: {out['requests']} requests, "
            f"{out['cpu_ms_per_request']} ms of CPU per request (floor "
            f"{out['floor_cpu_ms_per_request']} ms, ratio {out['ratio_to_floor']}); p99 "
            f"{out['p99_cpu_ms']} ms, slowest {out['max_cpu_ms']} ms"
        )
        print(f"by kind (ms) {out['cpu_ms_by_kind']}; runs {out['spread_cpu_ms_per_request']}")
        print(f"statuses {out['statuses']}; errors {out['errors']}")
    return 0 if not any(r["errors"] for r in runs) else 1


def _p99(latencies: list[float]) -> float:
    return Load(latencies=latencies).percentile(99)


def per_request(load: Load) -> float | None:
    """Milliseconds of server CPU per request of a phase (``None`` without /proc)."""
    if not load.latencies or not load.server_cpu:
        return None
    return round(load.server_cpu / len(load.latencies) * 1000, 3)


def per_cpu_second(load: Load) -> float | None:
    """Requests the server answered per second of its own CPU (``None`` without /proc)."""
    if not load.latencies or not load.server_cpu:
        return None
    return round(len(load.latencies) / load.server_cpu, 1)


def summary(runs: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """The best run (highest requests/s) with the spread of every run."""
    best = max(runs, key=lambda r: r["requests_per_s"])
    rates = [r["requests_per_s"] for r in runs]
    p99s = [r["p99_ms"] for r in runs]
    return {
        "clients": args.clients,
        "requests_per_client": args.requests,
        "board_cards": args.cards,
        "runs": len(runs),
        **best,
        "floor_name": "GET /api/rulesets, same clients and count",
        "goal": f">= {GOAL_RATE:.0f} requests/s and p99 <= {GOAL_P99_MS:.0f} ms",
        "met": best["met_rate"] and best["met_p99"],
        "met_every_run": all(r["met_rate"] and r["met_p99"] for r in runs),
        "spread": {
            "requests_per_s": [min(rates), max(rates)],
            "p99_ms": [min(p99s), max(p99s)],
            "floor_requests_per_s": [
                min(r["floor_requests_per_s"] for r in runs),
                max(r["floor_requests_per_s"] for r in runs),
            ],
        },
        "each_run": [
            {
                k: r[k]
                for k in (
                    "requests_per_s",
                    "p50_ms",
                    "p99_ms",
                    "floor_requests_per_s",
                    "server_cpu_ms_per_request",
                    "requests_per_cpu_s",
                    "server_cpu_share",
                )
            }
            for r in runs
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures (one JSON object with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=300, help="requests per client")
    ap.add_argument("--cards", type=int, default=60, help="cards on the table")
    ap.add_argument("--runs", type=int, default=3, help="runs (each with a fresh server)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE", help="py-spy's collapsed stacks of the server")
    ap.add_argument(
        "--in-process",
        action="store_true",
        help="drive the app in this process: its CPU time per request, no server",
    )
    args = ap.parse_args(argv)
    if not (
        1 <= args.clients <= 200
        and 1 <= args.requests <= 10_000
        and 0 <= args.cards <= 250  # a table holds at most 250 cards (web/budget.py)
        and 1 <= args.runs <= 20
    ):
        ap.error("--clients 1..200, --requests 1..10000, --cards 0..250, --runs 1..20")
    if args.in_process:
        return in_process_main(args)
    runs = [
        asyncio.run(measure(args.clients, args.requests, args.cards, args.seed, args.profile))
        for _ in range(args.runs)
    ]
    out = summary(runs, args)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(
            f"best of {out['runs']} runs: {out['requests']} requests from {out['clients']} "
            f"clients: {out['requests_per_s']:,.0f} requests/s, p50 {out['p50_ms']} ms, "
            f"p99 {out['p99_ms']} ms (goal {out['goal']}: {'met' if out['met'] else 'missed'})"
        )
        print(
            f"floor ({out['floor_name']}): {out['floor_requests_per_s']:,.0f} requests/s, "
            f"p99 {out['floor_p99_ms']} ms; ratio {out['rate_ratio_to_floor']}"
        )
        print(
            f"spread: requests/s {out['spread']['requests_per_s']}, "
            f"p99 ms {out['spread']['p99_ms']}; CPU share: server "
            f"{out['server_cpu_share']}, client {out['client_cpu_share']}; server CPU per "
            f"request {out['server_cpu_ms_per_request']} ms (floor "
            f"{out['floor_server_cpu_ms_per_request']} ms), "
            f"{out['requests_per_cpu_s']} requests per server CPU second"
        )
        print(f"kinds {out['kinds']}; p99 ms by kind {out['p99_ms_by_kind']}")
        print(f"statuses {out['statuses']}; errors {out['errors']}")
    return 0 if not any(r["timed_out"] for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
