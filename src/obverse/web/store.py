"""SQLite persistence for web tables: an append-only event log per game.

A game is its ruleset, players and seed plus a log of events: ``card`` (an inline card
definition the table uses), ``setup`` (a setup entry added), ``unsetup`` (a setup entry
removed), ``step`` (an action in the scenario contract's form, with the seat that took it)
and ``undo`` (the last step withdrawn). Folding the log gives the scenario the game is, so a
restart of the server loses nothing. Each seat (``judge``, every player, ``spectator``) has a
secret token; the token alone names the game and the seat.

Only a token's SHA-256 digest is stored, so a copy of the file gives no seat away. The judge's
token is random; every other seat's token is derived from it (an HMAC), which is how the judge
can be shown the seat links again without the file holding them. Files from before schema
version 2 kept plain tokens: opening one hashes them, and seals the seat links of each game
with a key only its judge's token yields.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from obverse.carddb import data_dir

#: The schema this module writes (``PRAGMA user_version``); 0 is the plain-token layout.
SCHEMA_VERSION = 4
#: Seconds a write waits for another connection's (another server on the same file) before
#: the request is answered 503: writes are serialised, never interleaved.
BUSY_TIMEOUT = 2.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, title TEXT NOT NULL, players TEXT NOT NULL,
    seed INTEGER NOT NULL, pregame INTEGER NOT NULL, created REAL NOT NULL, sealed TEXT,
    handle_key TEXT, scripted INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seat_digests (
    digest TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL);
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
    #: The key of the game's handles (:func:`obverse.views.handle`); never sent or exported.
    handle_key: bytes = b""
    #: How many of ``steps`` (the first) came from a scenario file and so shuffle by the
    #: seed; the later ones are live play, shuffled by a secret key.
    scripted: int = 0


class StoreError(Exception):
    """A tables file this version can't use (named in the message)."""


class StoreUnavailable(Exception):
    """A write the store could not make now: the disk is full (``status`` 507) or another
    server holds the file too long (503). Nothing was written; what was acknowledged before
    is intact."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def default_tables_path() -> Path:
    """Where ``obverse serve`` keeps its tables: the user's data directory, as for the card
    database (``$XDG_DATA_HOME/obverse/tables.sqlite3``, else ``~/.local/share/obverse/``;
    ``%LOCALAPPDATA%`` on Windows, ``~/Library/Application Support`` on macOS)."""
    return data_dir() / "tables.sqlite3"


def token_digest(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def derive_token(judge_token: str, game: str, seat: str) -> str:
    """A seat's token, derived from its game's judge token (one-way: a seat's token tells
    nothing of the judge's nor of another seat's)."""
    mac = hmac.new(judge_token.encode(), f"obverse-seat:{game}:{seat}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).decode()[:24]


def _keystream(judge_token: str, n: int) -> bytes:
    # One key per game (its judge token, random), used for one message only.
    return hashlib.shake_256(b"obverse-seal\0" + judge_token.encode()).digest(n)


def seal(judge_token: str, seats: dict[str, str]) -> str:
    """Seat tokens readable again only with the judge's token (for migrated games)."""
    plain = json.dumps(seats, sort_keys=True).encode()
    mixed = bytes(a ^ b for a, b in zip(plain, _keystream(judge_token, len(plain)), strict=True))
    return base64.b64encode(mixed).decode()


def unseal(judge_token: str, sealed: str) -> dict[str, str] | None:
    """The seat tokens :func:`seal` hid, or ``None`` if ``judge_token`` is not the key."""
    mixed = base64.b64decode(sealed)
    plain = bytes(a ^ b for a, b in zip(mixed, _keystream(judge_token, len(mixed)), strict=True))
    try:
        seats = json.loads(plain)
    except ValueError:
        return None
    return seats if isinstance(seats, dict) and seats.get(JUDGE) == judge_token else None


class Store:
    """Games, seat token digests and event logs in one SQLite file (``:memory:`` for
    tests); the file's directory is created if missing."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        #: Each game's version as last read or written here, while no other connection
        #: committed (``PRAGMA data_version`` is unchanged): most requests ask only this.
        self._versions: dict[str, int] = {}
        self._data_version: int | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            # One connection for the store's life (opening one per request cost more than
            # the query); the lock serialises its use across threads.
            self._db: sqlite3.Connection | None = self._connect()
            with self._conn() as conn:
                migrated = self._open_schema(conn)
            if migrated:  # the dropped plain tokens must not linger in free pages
                with self._lock:
                    self._db.execute("VACUUM")  # outside any transaction
        except StoreUnavailable as exc:
            raise StoreError(f"{self.path}: {exc.message}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a tables file ({exc})") from None

    def _connect(self) -> sqlite3.Connection:
        self._data_version = None  # counted per connection: a new one starts afresh
        # Transactions are explicit (``_conn``): a write takes the file's write lock first.
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT, check_same_thread=False, isolation_level=None
        )
        # WAL with synchronous=NORMAL: a commit survives the server process crashing (only
        # an OS crash or power loss may drop the last commits); see docs/decisions.md.
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def close(self) -> None:
        """Close the store's connection (a later use opens it again); an in-memory store
        stays open, or its games would be gone."""
        with self._lock:
            if self._db is not None and self.path != ":memory:":
                self._db.close()
                self._db = None

    def _open_schema(self, conn: sqlite3.Connection) -> bool:
        """Create or upgrade the schema; whether plain tokens were migrated."""
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: tables file schema version {version} is newer than this "
                f"obverse's ({SCHEMA_VERSION}); upgrade obverse or use another --tables file"
            )
        old = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='seats'"
        ).fetchone()
        for statement in _SCHEMA.split(";"):  # in this transaction (executescript commits)
            if statement.strip():
                conn.execute(statement)
        columns = {str(r[1]) for r in conn.execute("PRAGMA table_info(games)").fetchall()}
        if "sealed" not in columns:  # a schema-0 file
            conn.execute("ALTER TABLE games ADD COLUMN sealed TEXT")
        if "handle_key" not in columns:  # before schema 3: give each game its own key
            conn.execute("ALTER TABLE games ADD COLUMN handle_key TEXT")
            for (gid,) in conn.execute("SELECT id FROM games").fetchall():
                key = secrets.token_hex(16)
                conn.execute("UPDATE games SET handle_key=? WHERE id=?", (key, gid))
        if "scripted" not in columns:  # before schema 4: every stored step shuffled by seed
            conn.execute("ALTER TABLE games ADD COLUMN scripted INTEGER NOT NULL DEFAULT 0")
            conn.execute(
                "UPDATE games SET scripted = "
                "(SELECT COALESCE(MAX(seq), 0) FROM events WHERE events.game = games.id)"
            )
        if old is not None:
            _migrate_plain_tokens(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return old is not None

    @contextmanager
    def _conn(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """The store's connection, in one transaction (committed on leaving, rolled back on
        an error). A write transaction takes the file's write lock at its start (``BEGIN
        IMMEDIATE``), so what it reads (the next sequence number) no other connection can
        change before it commits; a full disk or a lock held too long is
        :class:`StoreUnavailable`, with nothing written."""
        with self._lock:
            if self._db is None:
                self._db = self._connect()
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield db
                except BaseException:
                    db.rollback()
                    raise
                db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                if db.in_transaction:
                    db.rollback()
                raise _unavailable(exc) from None

    def create(
        self,
        ruleset: str,
        players: tuple[str, ...],
        title: str = "",
        seed: int = 0,
        pregame: bool = False,
        events: Sequence[tuple[str, Any]] = (),
    ) -> tuple[str, dict[str, str]]:
        """A new game; returns its id and the token of every seat. ``events`` (``(kind,
        payload)``, the judge's) are its log from a scenario file, stored in the same
        transaction: its steps are the game's scripted ones (they shuffle by the seed)."""
        gid = secrets.token_hex(6)
        judge = secrets.token_urlsafe(18)
        seats = {JUDGE: judge}
        for seat in (*players, SPECTATOR):
            seats[seat] = derive_token(judge, gid, seat)
        now = time.time()
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                (
                    gid,
                    ruleset,
                    title,
                    json.dumps(list(players)),
                    seed,
                    int(pregame),
                    now,
                    secrets.token_hex(16),  # the key of the game's handles: never sent
                    len(events),
                ),
            )
            conn.executemany(
                "INSERT INTO seat_digests VALUES (?, ?, ?)",
                [(token_digest(tok), gid, seat) for seat, tok in seats.items()],
            )
            conn.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (gid, seq, kind, JUDGE, json.dumps(payload, ensure_ascii=False), now)
                    for seq, (kind, payload) in enumerate(events, 1)
                ],
            )
        return gid, seats

    def seat_of(self, token: str) -> tuple[str, str] | None:
        """``(game id, seat)`` for a token, or ``None``."""
        digest = token_digest(token)
        with self._conn(write=False) as conn:
            row = conn.execute(
                "SELECT digest, game, seat FROM seat_digests WHERE digest=?", (digest,)
            ).fetchone()
        # The index finds the row by digest; the final comparison takes constant time.
        if row is None or not hmac.compare_digest(str(row[0]), digest):
            return None
        return str(row[1]), str(row[2])

    def tokens(self, game: str, judge_token: str) -> dict[str, str]:
        """Every seat's token of a game, recovered with its judge's token (for the judge)."""
        with self._conn(write=False) as conn:
            head = conn.execute("SELECT players, sealed FROM games WHERE id=?", (game,)).fetchone()
            digests = {
                str(s): str(d)
                for d, s in conn.execute(
                    "SELECT digest, seat FROM seat_digests WHERE game=?", (game,)
                ).fetchall()
            }
        if head is None or not hmac.compare_digest(
            digests.get(JUDGE, ""), token_digest(judge_token)
        ):
            return {}
        if head[1] is not None:
            return unseal(judge_token, str(head[1])) or {}
        seats = {JUDGE: judge_token}
        for seat in (*json.loads(head[0]), SPECTATOR):
            seats[seat] = derive_token(judge_token, game, seat)
        return seats

    def version(self, game: str) -> int:
        """The sequence number of a game's last event (0: none). Kept per game while no
        other connection (another process sharing the file) commits: then one pragma
        answers, not a query of the log."""
        with self._lock:
            if self._db is None:
                self._db = self._connect()
            db = self._db
            changed = db.execute("PRAGMA data_version").fetchone()[0]
            if changed != self._data_version:
                self._versions.clear()
                self._data_version = changed
            found = self._versions.get(game)
            if found is None:
                row = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game=?", (game,)
                ).fetchone()
                found = self._versions[game] = int(row[0])
            return found

    def append(self, game: str, kind: str, actor: str, payload: Any) -> int:
        """Append one event to a game's log; returns its sequence number (read and written
        in one write transaction: two servers on one file never take the same number)."""
        with self._conn() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game=?", (game,)
            ).fetchone()
            seq = int(row[0]) + 1
            conn.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (game, seq, kind, actor, json.dumps(payload, ensure_ascii=False), time.time()),
            )
        with self._lock:  # committed: this connection's own write moves no data_version
            self._versions[game] = seq
        return seq

    def load(self, game: str) -> GameRecord | None:
        """The game with its log folded into cards, setup and steps."""
        with self._conn(write=False) as conn:
            head = conn.execute(
                "SELECT id, ruleset, title, players, seed, pregame, handle_key, scripted "
                "FROM games WHERE id=?",
                (game,),
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
            handle_key=bytes.fromhex(head[6] or ""),
        )
        scripted_until = int(head[7] or 0)
        seqs: list[int] = []  # each kept step's sequence number
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
                seqs.append(int(seq))
            elif kind == "undo" and rec.steps:
                rec.steps.pop()
                seqs.pop()
        rec.scripted = sum(1 for seq in seqs if seq <= scripted_until)
        return rec


def _unavailable(exc: sqlite3.OperationalError) -> StoreUnavailable:
    """The refusal for a write SQLite could not make (the cause, for the operator, is in
    the message; it names no game content)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "full" in str(exc):
        return StoreUnavailable(507, "the server's storage is full: nothing was saved")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(exc):
        return StoreUnavailable(503, "the tables file is busy: try again")
    return StoreUnavailable(503, f"the tables file can't be written now ({exc})")


def _migrate_plain_tokens(conn: sqlite3.Connection) -> None:
    """Schema 0 to 2: plain tokens become digests; each game's seat links are sealed."""
    games: dict[str, dict[str, str]] = {}
    for token, game, seat in conn.execute("SELECT token, game, seat FROM seats").fetchall():
        games.setdefault(str(game), {})[str(seat)] = str(token)
    for game, seats in games.items():
        conn.executemany(
            "INSERT OR IGNORE INTO seat_digests VALUES (?, ?, ?)",
            [(token_digest(tok), game, seat) for seat, tok in seats.items()],
        )
        if JUDGE in seats:
            conn.execute("UPDATE games SET sealed=? WHERE id=?", (seal(seats[JUDGE], seats), game))
    conn.execute("DROP TABLE seats")


__all__ = [
    "JUDGE",
    "SCHEMA_VERSION",
    "SPECTATOR",
    "GameRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "default_tables_path",
    "derive_token",
    "token_digest",
]
