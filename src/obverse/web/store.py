"""SQLite persistence for web tables: an append-only event log per game.

A game is its ruleset, players and seed plus a log of events: ``card`` (an inline card
definition the table uses), ``setup`` (a setup entry added), ``unsetup`` (a setup entry
removed), ``step`` (an action in the scenario contract's form, with the seat that took it)
and ``undo`` (the last step withdrawn). Folding the log gives the scenario the game is, so a
restart of the server loses nothing. Each seat (``judge``, every player, ``spectator``) has a
secret token; the token alone names the game and the seat.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, title TEXT NOT NULL, players TEXT NOT NULL,
    seed INTEGER NOT NULL, pregame INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    actor TEXT NOT NULL, payload TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (game, seq));
"""

JUDGE = "judge"
SPECTATOR = "spectator"


@dataclass
class GameRecord:
    """A stored game: its header and its folded log (what the scenario consists of)."""

    id: str
    ruleset: str
    title: str
    players: tuple[str, ...]
    seed: int
    pregame: bool = False
    cards: list[dict[str, Any]] = field(default_factory=list)
    setup: list[dict[str, Any]] = field(default_factory=list)
    #: ``(step, actor)``: a step in the contract's form (one key: the action) and its seat.
    steps: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    version: int = 0


class Store:
    """Games, seat tokens and event logs in one SQLite file (``:memory:`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._memory: sqlite3.Connection | None = None
        if self.path == ":memory:":
            self._memory = sqlite3.connect(":memory:", check_same_thread=False)
        with self._conn() as conn:
            conn.executescript(_SCHEMA)

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._memory or sqlite3.connect(self.path, timeout=10)
            try:
                with conn:
                    yield conn
            finally:
                if self._memory is None:
                    conn.close()

    def create(
        self,
        ruleset: str,
        players: tuple[str, ...],
        title: str = "",
        seed: int = 0,
        pregame: bool = False,
    ) -> tuple[str, dict[str, str]]:
        """A new empty game; returns its id and the token of every seat."""
        gid = secrets.token_hex(6)
        seats = {JUDGE: secrets.token_urlsafe(18)}
        for seat in (*players, SPECTATOR):
            seats[seat] = secrets.token_urlsafe(18)
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                (gid, ruleset, title, json.dumps(list(players)), seed, int(pregame), time.time()),
            )
            conn.executemany(
                "INSERT INTO seats VALUES (?, ?, ?)",
                [(tok, gid, seat) for seat, tok in seats.items()],
            )
        return gid, seats

    def seat_of(self, token: str) -> tuple[str, str] | None:
        """``(game id, seat)`` for a token, or ``None``."""
        with self._conn() as conn:
            row = conn.execute("SELECT game, seat FROM seats WHERE token=?", (token,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def tokens(self, game: str) -> dict[str, str]:
        """Every seat's token of a game (for the judge only)."""
        with self._conn() as conn:
            rows = conn.execute("SELECT seat, token FROM seats WHERE game=?", (game,)).fetchall()
        return {str(s): str(t) for s, t in rows}

    def append(self, game: str, kind: str, actor: str, payload: Any) -> int:
        """Append one event to a game's log; returns its sequence number."""
        with self._conn() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game=?", (game,)
            ).fetchone()
            seq = int(row[0]) + 1
            conn.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (game, seq, kind, actor, json.dumps(payload, ensure_ascii=False), time.time()),
            )
        return seq

    def load(self, game: str) -> GameRecord | None:
        """The game with its log folded into cards, setup and steps."""
        with self._conn() as conn:
            head = conn.execute(
                "SELECT id, ruleset, title, players, seed, pregame FROM games WHERE id=?", (game,)
            ).fetchone()
            if head is None:
                return None
            rows = conn.execute(
                "SELECT seq, kind, actor, payload FROM events WHERE game=? ORDER BY seq", (game,)
            ).fetchall()
        rec = GameRecord(
            id=head[0],
            ruleset=head[1],
            title=head[2],
            players=tuple(json.loads(head[3])),
            seed=int(head[4]),
            pregame=bool(head[5]),
        )
        for seq, kind, actor, payload in rows:
            data = json.loads(payload)
            rec.version = int(seq)
            if kind == "card":
                rec.cards.append(data)
            elif kind == "setup":
                rec.setup.append(data)
            elif kind == "unsetup":
                rec.setup = [e for e in rec.setup if e.get("label") != data]
            elif kind == "step":
                rec.steps.append((data, str(actor)))
            elif kind == "undo" and rec.steps:
                rec.steps.pop()
        return rec


__all__ = ["JUDGE", "SPECTATOR", "GameRecord", "Store"]
