"""The card database: imported cards in SQLite (stdlib ``sqlite3``), the embedded default.

Each card is stored once per game under a stable key (the upstream id: Scryfall oracle id, FaB
card unique id, GA uuid) as msgspec-JSON of its :class:`CardDef`, and indexed by its full name,
every face name and any aliases, case-insensitively for suggestions. Importing is idempotent:
importing the same files again replaces the same rows.

An import is one transaction: it is refused before anything is written when a path is
missing, not a regular file or directory, or holds another game's data (:func:`plan_import`);
it writes nothing when no record could be imported; a record that would replace a stored
card with one of fewer faces, or whose upstream id another record of the same import gave a
different name, is reported and skipped.
"""

from __future__ import annotations

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

from obverse.carddata import AmbiguousName, close_names, split_id
from obverse.cards import CardDef
from obverse.errors import InputError, quote
from obverse.importers import (
    FORMATS,
    GAMES,
    Problem,
    Record,
    Report,
    expand_paths,
    fab,
    ga,
    ignore,
    mismatch,
    scryfall,
)

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
    return Path(env) if env else data_dir() / "cards.sqlite3"


def data_dir() -> Path:
    """obverse's directory in the user's data directory (``$XDG_DATA_HOME/obverse``, else
    ``~/.local/share/obverse``; ``%LOCALAPPDATA%`` on Windows, ``~/Library/Application
    Support`` on macOS)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "obverse"


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

    @property
    def failed(self) -> bool:
        """Nothing could be imported though records were read: nothing is written."""
        return self.stored == 0 and self.skipped > 0

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
    of one game (an ambiguous name raises :class:`~obverse.carddata.AmbiguousName`);
    :meth:`meld_results` gives the database's meld result cards."""

    def __init__(self, db: CardDB, game: str) -> None:
        self.db = db
        self.game = game

    def __call__(self, name: str) -> CardDef | None:
        return self.db.get(self.game, name)

    def meld_results(self) -> list[CardDef]:
        """Every meld result card of the game (for the ``meld`` action)."""
        return self.db.meld_results(self.game)

    def candidates(self, name: str) -> list[CardDef]:
        """Every card of the game bearing ``name``."""
        return [card for _key, card in self.db.candidates(self.game, name)]

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """The game's names closest to ``name``."""
        return self.db.suggest(name, self.game, limit)


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

    def store(
        self, game: str, records: Iterable[Record], report: Report = ignore
    ) -> tuple[Counter[str], int]:
        """Store records (replacing cards with the same key) in one transaction; returns the
        records stored per layout and how many distinct cards they were. Records refused
        (:meth:`_keep`) are reported."""
        with self.conn:
            return self._store(game, records, report)

    def _store(
        self, game: str, records: Iterable[Record], report: Report
    ) -> tuple[Counter[str], int]:
        layouts: Counter[str] = Counter()
        batch: dict[str, Record] = {}
        names: dict[str, str] = {}
        written: set[str] = set()
        # Every upstream id a key stood for in this import: a Scryfall Oracle card has one
        # record per print, each naming its own print id, and every one must stay findable.
        sources: dict[str, tuple[str, ...]] = {}

        def flush() -> None:
            kept = self._write(game, list(batch.values()), report)
            written.update(r.key for r in kept)
            for r in batch.values():
                if r.key not in written:
                    layouts[r.card.layout] -= 1  # refused: not imported after all

        for record in records:
            seen = names.setdefault(record.key, record.card.name)
            if seen != record.card.name:
                message = f"same upstream id as {quote(seen)} read before; skipped"
                report(Problem("", f"{record.key} ({record.card.name})", "id", message))
                continue
            seen_ids = sources.get(record.key, ())
            merged = (*seen_ids, *(i for i in record.sources if i not in seen_ids))
            sources[record.key] = merged
            batch.pop(record.key, None)
            batch[record.key] = record._replace(sources=merged)
            layouts[record.card.layout] += 1
            if len(batch) >= BATCH:
                flush()
                batch = {}
        flush()
        return +layouts, len(written)

    def _keep(
        self, game: str, batch: list[Record], report: Report
    ) -> tuple[list[Record], set[str]]:
        """The records that don't downgrade a stored card (replace it by fewer faces: a
        double-faced card whose other face is missing from the files), the others reported;
        and the keys of the batch already stored."""
        held: dict[str, str] = {}
        keys = [r.key for r in batch]
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            rows = self.conn.execute(
                "SELECT key, layout FROM cards WHERE game=? AND key IN "
                f"({', '.join('?' * len(part))})",
                (game, *part),
            )
            held.update(rows)
        out: list[Record] = []
        for r in batch:
            layout = held.get(r.key)
            if layout is not None and layout != r.card.layout:  # rare: decode only then
                card = self._card(game, r.key)
                if card is not None and len(card.faces) > len(r.card.faces):
                    message = (
                        f"the database holds it as a {card.layout} card ({quote(card.name)});"
                        f" a {r.card.layout} record with fewer faces doesn't replace it; skipped"
                    )
                    report(Problem("", f"{r.key} ({r.card.name})", "faces", message))
                    continue
            out.append(r)
        return out, set(held)

    def _write(self, game: str, batch: list[Record], report: Report) -> list[Record]:
        """Write ``batch`` (what :meth:`_keep` keeps of it); the records written."""
        batch, held = self._keep(game, batch, report)
        cur = self.conn.cursor()
        # Names and sources rows are written with their card: only a stored card has any
        # (a re-import replaces them; within one import a key's sources are all its records').
        keys = [(game, r.key) for r in batch if r.key in held]
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
        return batch

    def import_files(
        self,
        game: str,
        paths: Iterable[str | Path],
        report: Report,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> ImportSummary:
        """Import upstream files (or directories) of ``game`` (``mtg``, ``fab``, ``ga``) in one
        transaction.

        Raises :class:`InputError` before writing anything for paths :func:`plan_import`
        refuses. Bad records are reported through ``report`` and skipped; the rest are stored,
        unless none could be: then nothing is written."""
        files = plan_import(game, paths)
        summary = ImportSummary(game=game, files=len(files))
        start = time.perf_counter()

        def counted(problem: Problem) -> None:
            if problem.warning:
                summary.warnings += 1
            else:
                summary.skipped += 1
            report(problem)

        records: Iterator[Record]
        if game == "fab":
            records = fab.read(files, counted)
        elif game == "ga":
            records = ga.read(files, counted)
        else:
            records = _scryfall_all(files, counted, progress)
        try:
            summary.layouts, summary.cards = self._store(game, records, counted)
        except BaseException:
            self.conn.rollback()
            raise
        summary.stored = sum(summary.layouts.values())
        if summary.failed:
            self.conn.rollback()
        else:
            self.conn.commit()
        summary.seconds = time.perf_counter() - start
        return summary

    # --- reading ------------------------------------------------------------------------

    def _card(self, game: str, key: str) -> CardDef | None:
        row = self.conn.execute(
            "SELECT data FROM cards WHERE game=? AND key=?", (game, key)
        ).fetchone()
        return None if row is None else _decode(row[0])

    def _keys(self, game: str, name: str, fold: bool = False) -> list[str]:
        """The keys of the cards bearing ``name`` (full names first, then by rank); with
        ``fold``, ignoring case when no name matches exactly. ``Name [id X]`` keeps the card
        whose key or upstream id is X."""
        base, ident = split_id(name)
        query = (
            "SELECT key, MIN(kind), MIN(rank), MAX(name=?) FROM names WHERE game=? AND lname=?"
            + ("" if fold else " AND name=?")
            + " GROUP BY key ORDER BY MIN(kind), MIN(rank), key"
        )
        args: tuple[str, ...] = (base, game, base.casefold()) + (() if fold else (base,))
        rows = self.conn.execute(query, args).fetchall()
        if fold and any(r[3] for r in rows):
            rows = [r for r in rows if r[3]]
        keys = [str(r[0]) for r in rows]
        if ident is not None:
            owner = self.conn.execute(
                "SELECT key FROM sources WHERE game=? AND source=?", (game, ident)
            ).fetchone()
            keys = [k for k in keys if k == ident or (owner is not None and k == owner[0])]
        return keys

    def candidates(self, game: str, name: str) -> list[tuple[str, CardDef]]:
        """Every card of ``game`` bearing this exact full, face or alias name, with its key."""
        out = []
        for key in self._keys(game, name):
            card = self._card(game, key)
            if card is not None:
                out.append((key, card))
        return out

    def _one(self, game: str, name: str, keys: list[str]) -> CardDef | None:
        if len(keys) > 1:
            raise AmbiguousName(name, [self._choice(game, name, k) for k in keys])
        return self._card(game, keys[0]) if keys else None

    def _choice(self, game: str, name: str, key: str) -> str:
        """A name that picks out card ``key`` alone: its full name or an alias (``Sink Below
        (red)``) when no other card bears it, else ``name [id KEY]``."""
        labels = self.conn.execute(
            "SELECT name FROM names WHERE game=? AND key=? AND kind IN (0, 2) ORDER BY kind",
            (game, key),
        ).fetchall()
        for (label,) in labels:
            if label != name and len(self._keys(game, label)) == 1:
                return str(label)
        return f"{name} [id {key}]"

    def get(self, game: str, name: str) -> CardDef | None:
        """The card of ``game`` with this exact full, face or alias name (or ``Name [id X]``);
        :class:`~obverse.carddata.AmbiguousName` when several cards bear it."""
        return self._one(game, name, self._keys(game, name))

    def find(self, name: str, game: str | None = None) -> list[tuple[str, CardDef]]:
        """Cards with this name, ignoring case when no name matches exactly, one per game;
        :class:`~obverse.carddata.AmbiguousName` when several cards of a game bear it."""
        out: list[tuple[str, CardDef]] = []
        for g in [game] if game else list(GAMES):
            card = self._one(g, name, self._keys(g, name, fold=True))
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
        """The closest known names to ``name`` (:func:`~obverse.carddata.close_names`)."""
        return close_names(name, [*extra, *self.names(game)], n)

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


def plan_import(game: str, paths: Iterable[str | Path]) -> list[Path]:
    """The files an import of ``game`` reads from ``paths`` (files, and directories' card
    files). :class:`InputError` naming the path, before anything is written, for a missing
    path, one that is neither a regular file nor a directory (a device, a pipe), no card file
    at all, or a file of another game or format (:func:`obverse.importers.mismatch`)."""
    if game not in GAMES:
        raise InputError("", "game", f"no importer for {quote(game)} (known: {', '.join(GAMES)})")
    given = [Path(p) for p in paths]
    for p in given:
        if not p.exists():
            raise InputError("", "", "no such file or directory", str(p))
        if not (p.is_file() or p.is_dir()):
            raise InputError("", "", "not a regular file or a directory", str(p))
    files = fab.card_files(given) if game == "fab" else expand_paths(given, (".json", ".jsonl"))
    if not files:
        where = ", ".join(str(p) for p in given)
        raise InputError("", "", f"no {FORMATS[game]} files found", where)
    for f in files:
        is_csv = game == "fab" and f.suffix.lower() == ".csv"
        why = fab.csv_mismatch(f) if is_csv else mismatch(game, f)
        if why is not None:
            raise InputError("", "", f"{why}; nothing imported", str(f))
    return files


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
