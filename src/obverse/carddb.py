"""The card database: imported cards in SQLite (stdlib ``sqlite3``), the embedded default.

Each card is stored once per game under a stable key (the upstream id: Scryfall oracle id, FaB
card unique id, GA uuid) as msgspec-JSON of its :class:`CardDef`, and indexed by its full name,
every face name and any aliases, case-insensitively for suggestions. Importing is idempotent:
importing the same files again replaces the same rows.
"""

from __future__ import annotations

import difflib
import os
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import msgspec

from obverse.cards import CardDef
from obverse.errors import InputError
from obverse.importers import GAMES, Problem, Record, Report, expand_paths, fab, ga, scryfall

SCHEMA_VERSION: Final = "1"
BATCH: Final = 2000
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(CardDef).decode

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cards (
    game TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL, layout TEXT NOT NULL,
    meld INTEGER NOT NULL DEFAULT 0, data BLOB NOT NULL, PRIMARY KEY (game, key));
CREATE TABLE IF NOT EXISTS names (
    game TEXT NOT NULL, lname TEXT NOT NULL, name TEXT NOT NULL, key TEXT NOT NULL,
    kind INTEGER NOT NULL, rank INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS names_by_name ON names (game, lname);
CREATE INDEX IF NOT EXISTS names_by_key ON names (game, key);
CREATE TABLE IF NOT EXISTS sources (
    game TEXT NOT NULL, source TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (game, source));
CREATE INDEX IF NOT EXISTS sources_by_key ON sources (game, key);
"""


def default_path() -> Path:
    """Where the database lives by default: ``$OBVERSE_DB``, else the user's data directory
    (``$XDG_DATA_HOME/obverse/cards.sqlite3``, ``~/.local/share/...``; ``%LOCALAPPDATA%`` on
    Windows, ``~/Library/Application Support`` on macOS)."""
    env = os.environ.get("OBVERSE_DB")
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "obverse" / "cards.sqlite3"


@dataclass
class ImportSummary:
    """What an import did: records read and stored, per layout, and the problems reported."""

    game: str
    files: int = 0
    stored: int = 0
    cards: int = 0
    layouts: Counter[str] = field(default_factory=Counter)
    skipped: int = 0
    warnings: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        """One line: ``mtg: 133 records imported as 97 cards from 3 file(s) (normal 90 ...),
        0 skipped``."""
        per = ", ".join(
            f"{k} {v}" for k, v in sorted(self.layouts.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        extra = f", {self.warnings} warnings" if self.warnings else ""
        return (
            f"{self.game}: {self.stored} records imported as {self.cards} cards from "
            f"{self.files} file(s) ({per or 'none'}), {self.skipped} skipped{extra}"
        )


class CardLookup:
    """A name lookup for :func:`obverse.scenario.run_scenario`'s ``extra_cards``: exact names
    of one game; :meth:`meld_results` gives the database's meld result cards."""

    def __init__(self, db: CardDB, game: str) -> None:
        self.db = db
        self.game = game

    def __call__(self, name: str) -> CardDef | None:
        return self.db.get(self.game, name)

    def meld_results(self) -> list[CardDef]:
        """Every meld result card of the game (for the ``meld`` action)."""
        return self.db.meld_results(self.game)


class CardDB:
    """A card database file (created on first use)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        if str(self.path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(
                    "",
                    "--db",
                    f"can't create {self.path.parent}: {exc.strerror or exc}",
                    str(self.path),
                ) from None
        try:
            self.conn = sqlite3.connect(str(self.path))
            self.conn.executescript(_SCHEMA)
            row = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                with self.conn:
                    self.conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            elif row[0] != SCHEMA_VERSION:
                raise InputError(
                    "",
                    "schema",
                    f"card database schema {row[0]} is not "
                    f"{SCHEMA_VERSION}; re-import into a new file",
                    str(self.path),
                )
        except sqlite3.DatabaseError as exc:
            raise InputError("", "--db", f"not a card database ({exc})", str(self.path)) from None

    def close(self) -> None:
        """Close the file."""
        self.conn.close()

    def __enter__(self) -> CardDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------

    def store(self, game: str, records: Iterable[Record]) -> tuple[Counter[str], int]:
        """Store records (replacing cards with the same key); returns the records per layout
        and how many distinct cards they were."""
        layouts: Counter[str] = Counter()
        batch: dict[str, Record] = {}
        keys: set[str] = set()
        with self.conn:
            for record in records:
                batch.pop(record.key, None)
                batch[record.key] = record
                keys.add(record.key)
                layouts[record.card.layout] += 1
                if len(batch) >= BATCH:
                    self._write(game, list(batch.values()))
                    batch = {}
            if batch:
                self._write(game, list(batch.values()))
        return layouts, len(keys)

    def _write(self, game: str, batch: list[Record]) -> None:
        cur = self.conn.cursor()
        keys = [(game, r.key) for r in batch]
        cur.executemany("DELETE FROM names WHERE game=? AND key=?", keys)
        cur.executemany("DELETE FROM sources WHERE game=? AND key=?", keys)
        cur.executemany(
            "INSERT OR REPLACE INTO cards (game, key, name, layout, meld, data) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    game,
                    r.key,
                    r.card.name,
                    r.card.layout,
                    int(r.card.is_meld_result),
                    _encode(r.card),
                )
                for r in batch
            ],
        )
        names: list[tuple[str, str, str, str, int, int]] = []
        for r in batch:
            seen: set[str] = set()
            for kind, name in [
                (0, r.card.name),
                *((1, n) for n in r.card.face_names),
                *((2, a) for a in r.aliases),
            ]:
                if name not in seen:
                    seen.add(name)
                    names.append((game, name.casefold(), name, r.key, kind, r.rank))
        cur.executemany("INSERT INTO names VALUES (?, ?, ?, ?, ?, ?)", names)
        cur.executemany(
            "INSERT OR REPLACE INTO sources VALUES (?, ?, ?)",
            [(game, s, r.key) for r in batch for s in r.sources],
        )

    def import_files(
        self,
        game: str,
        paths: Iterable[str | Path],
        report: Report,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> ImportSummary:
        """Import upstream files (or directories) of ``game`` (``mtg``, ``fab``, ``ga``).

        Bad records are reported through ``report`` and skipped; the rest are stored."""
        if game not in GAMES:
            raise InputError("", "game", f"no importer for {game!r} (known: {', '.join(GAMES)})")
        summary = ImportSummary(game=game)
        start = time.perf_counter()

        def counted(problem: Problem) -> None:
            if problem.warning:
                summary.warnings += 1
            else:
                summary.skipped += 1
            report(problem)

        raw = list(paths)
        for p in raw:
            if not Path(p).exists():
                counted(Problem(str(p), "", "", "no such file or directory"))
        existing = [Path(p) for p in raw if Path(p).exists()]
        records: Iterator[Record]
        if game == "fab":
            files = fab.card_files(existing)
            summary.files = len(files)
            records = fab.read(files, counted)
        else:
            files = expand_paths(existing, (".json",))
            summary.files = len(files)
            if game == "ga":
                records = ga.read(files, counted)
            else:
                records = _scryfall_all(files, counted, progress)
        summary.layouts, summary.cards = self.store(game, records)
        summary.stored = sum(summary.layouts.values())
        summary.seconds = time.perf_counter() - start
        return summary

    # --- reading ------------------------------------------------------------------------

    def _card(self, game: str, key: str) -> CardDef | None:
        row = self.conn.execute(
            "SELECT data FROM cards WHERE game=? AND key=?", (game, key)
        ).fetchone()
        return None if row is None else _decode(row[0])

    def get(self, game: str, name: str) -> CardDef | None:
        """The card of ``game`` with this exact full, face or alias name (a full name first,
        then a face name; FaB pitch variants red first)."""
        row = self.conn.execute(
            "SELECT key FROM names WHERE game=? AND lname=? AND name=? ORDER BY kind, rank LIMIT 1",
            (game, name.casefold(), name),
        ).fetchone()
        return None if row is None else self._card(game, row[0])

    def find(self, name: str, game: str | None = None) -> list[tuple[str, CardDef]]:
        """Cards with this name, ignoring case (exact-case matches first), one per game."""
        games = [game] if game else list(GAMES)
        out: list[tuple[str, CardDef]] = []
        for g in games:
            row = self.conn.execute(
                "SELECT key FROM names WHERE game=? AND lname=? ORDER BY name=? DESC, kind, "
                "rank LIMIT 1",
                (g, name.casefold(), name),
            ).fetchone()
            if row is not None:
                card = self._card(g, row[0])
                if card is not None:
                    out.append((g, card))
        return out

    def by_source(self, game: str, source: str) -> CardDef | None:
        """The card an upstream id (a FaB card unique id, a Scryfall id, a GA uuid) became."""
        row = self.conn.execute(
            "SELECT key FROM sources WHERE game=? AND source=?", (game, source)
        ).fetchone()
        return None if row is None else self._card(game, row[0])

    def names(self, game: str | None = None) -> list[str]:
        """Every name the database knows (of one game, or all)."""
        if game:
            rows = self.conn.execute("SELECT DISTINCT name FROM names WHERE game=?", (game,))
        else:
            rows = self.conn.execute("SELECT DISTINCT name FROM names")
        return [r[0] for r in rows]

    def suggest(
        self, name: str, game: str | None = None, n: int = 5, extra: Iterable[str] = ()
    ) -> list[str]:
        """The closest known names to ``name`` (case-insensitive)."""
        known: dict[str, str] = {}
        for candidate in [*extra, *self.names(game)]:
            known.setdefault(candidate.casefold(), candidate)
        close = difflib.get_close_matches(name.casefold(), list(known), n=n, cutoff=0.6)
        if not close:
            low = name.casefold()
            close = [k for k in known if low in k][:n]
        return [known[c] for c in close]

    def count(self, game: str | None = None) -> int:
        """How many cards are stored (of one game, or all)."""
        if game:
            return int(
                self.conn.execute("SELECT COUNT(*) FROM cards WHERE game=?", (game,)).fetchone()[0]
            )
        return int(self.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0])

    def source_count(self, game: str) -> int:
        """How many upstream ids map to stored cards."""
        return int(
            self.conn.execute("SELECT COUNT(*) FROM sources WHERE game=?", (game,)).fetchone()[0]
        )

    def layouts(self, game: str) -> Counter[str]:
        """Stored cards per layout."""
        rows = self.conn.execute(
            "SELECT layout, COUNT(*) FROM cards WHERE game=? GROUP BY layout", (game,)
        )
        return Counter({r[0]: int(r[1]) for r in rows})

    def cards(self, game: str) -> Iterator[CardDef]:
        """Every stored card of ``game``."""
        for row in self.conn.execute("SELECT data FROM cards WHERE game=? ORDER BY key", (game,)):
            yield _decode(row[0])

    def meld_results(self, game: str) -> list[CardDef]:
        """The meld result cards of ``game``."""
        rows = self.conn.execute("SELECT data FROM cards WHERE game=? AND meld=1", (game,))
        return [_decode(r[0]) for r in rows]

    def lookup(self, game: str) -> CardLookup:
        """A name lookup for one game (``extra_cards`` of a scenario run)."""
        return CardLookup(self, game)


def _scryfall_all(
    files: list[Path], report: Report, progress: Callable[[str, int, int], None] | None
) -> Iterator[Record]:
    for path in files:
        try:
            total = path.stat().st_size
        except OSError:
            total = 0
        tick: Callable[[int], None] | None = None
        if progress is not None:

            def tick(done: int, _p: str = str(path), _t: int = total) -> None:
                progress(_p, done, _t)

        yield from scryfall.read(path, report, tick)


def open_db(path: str | Path | None, must_exist: bool = False) -> CardDB | None:
    """The database at ``path`` (default location if None); ``None`` when ``must_exist`` and
    there is no file (commands that only read cards don't create one)."""
    target = Path(path) if path is not None else default_path()
    if must_exist and not target.exists():
        if path is not None:
            raise InputError("", "--db", "no such card database", str(target))
        return None
    return CardDB(target)
