"""Importers from upstream card data to obverse's card model (:class:`~obverse.cards.CardDef`).

* :mod:`obverse.importers.scryfall` — Scryfall card objects (MTG), bulk files streamed;
* :mod:`obverse.importers.fab` — the Flesh and Blood card database (the-fab-cube CSV and JSON);
* :mod:`obverse.importers.ga` — Grand Archive index API JSON;
* :mod:`obverse.importers.jsonstream` — a large JSON array read fast with msgspec (bulk files).

Each importer yields :class:`Record` s (one stored card each) and reports a bad record as a
:class:`Problem` (file, record id, key, message) through a callback, then goes on with the rest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Final, NamedTuple, Protocol

from obverse import memo
from obverse.cards import MAX_STAT, CardDef, check_type_words
from obverse.errors import InputError, quote, shorten
from obverse.registry import rulesets

#: Games with an importer.
GAMES: Final = ("mtg", "fab", "ga")
#: Largest single JSON record the streaming reader accepts (bytes of text).
MAX_RECORD_CHARS: Final = 16 * 1024 * 1024
CHUNK_CHARS: Final = 1 << 20


class Record(NamedTuple):
    """One card to store: a stable ``key`` (upstream id), the card, and lookup extras.

    ``aliases`` are extra names the card is found by; ``rank`` orders cards sharing a name
    (lower first: FaB's pitch variants); ``sources`` are the upstream ids it stands for.
    """

    key: str
    card: CardDef
    aliases: tuple[str, ...] = ()
    rank: int = 0
    sources: tuple[str, ...] = ()


class Problem(NamedTuple):
    """A bad record (skipped) or a warning (imported anyway)."""

    path: str
    record: str
    key: str
    message: str
    warning: bool = False

    def __str__(self) -> str:
        parts = [p for p in (self.path, shorten(self.record), shorten(self.key)) if p]
        head = "warning: " if self.warning else ""
        return head + ": ".join([*parts, self.message])


Report = Callable[[Problem], None]


class BadRecord(Exception):
    """Raised inside an importer for a record that can't be converted (key and message)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


def ignore(problem: Problem) -> None:
    """A :data:`Report` that drops every problem."""


# --- streaming JSON ------------------------------------------------------------------------

_WS: Final = " \t\r\n"
_DEEP: Final = "invalid JSON: nested too deeply; the rest of the file is skipped"
_RESYNC: Final = re.compile(r"\n\s*\{|\},\s*\{")


class Progress(NamedTuple):
    """Bytes read so far of a file of ``total`` bytes."""

    done: int
    total: int


def _incomplete(exc: json.JSONDecodeError, size: int) -> bool:
    return exc.msg.startswith("Unterminated string") or exc.pos >= size - 8


def read_json_file(
    path: str | Path, report: Report, progress: Callable[[int], None] | None = None
) -> Iterator[Any]:
    """The items of a JSON file, streamed (:func:`iter_json_array`); a file that can't be read
    or isn't UTF-8 is reported, never raised."""
    p = str(path)
    try:
        if Path(path).exists() and not Path(path).is_file():  # a device or pipe
            report(Problem(p, "", "", "not a regular file"))
            return
        stream = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        report(Problem(p, "", "", f"can't read: {exc.strerror or exc}"))
        return
    with stream:
        try:
            yield from iter_json_array(stream, p, report, progress)
        except UnicodeDecodeError as exc:
            report(Problem(p, "", "", f"not UTF-8 text ({exc.reason})"))


def iter_json_array(
    stream: IO[str], path: str, report: Report, progress: Callable[[int], None] | None = None
) -> Iterator[Any]:
    """The items of a JSON document one at a time without holding the file in memory.

    A top-level array yields its items; an object with a ``data`` array (an API page) yields
    those; any other object is yielded whole, and objects following it (JSON Lines, one per
    line) are yielded in turn. An item that is not valid JSON is reported and skipped (reading
    resumes at the next line of JSON Lines, else at the next item that starts on a new line or
    after ``},``); one nested too deeply for the decoder stops the file.
    """
    reader = _Reader(stream, path, report, progress)
    reader.skip_ws()
    if reader.pos >= len(reader.buf):
        return
    if reader.buf[reader.pos] == "{":
        yield from reader.objects()
    elif reader.buf[reader.pos] == "[":
        reader.pos += 1
        yield from reader.array()
    else:
        report(Problem(path, "", "", "expected a JSON array of card objects"))


def _int_or_text(text: str) -> int | str:
    """A JSON integer; one too long to be any card's number stays text, which the record's
    checks refuse as one bad record (``int()`` of 4,300 digits or more raises)."""
    return int(text) if len(text) <= 100 else text


class _Reader:
    """A JSON text read in chunks: ``buf`` holds the unread part from ``pos``."""

    def __init__(
        self, stream: IO[str], path: str, report: Report, progress: Callable[[int], None] | None
    ) -> None:
        self.stream, self.path, self.report, self.progress = stream, path, report, progress
        self.decoder = json.JSONDecoder(parse_int=_int_or_text)
        self.buf = stream.read(CHUNK_CHARS)
        self.read = len(self.buf)
        self.eof = not self.buf
        self.pos = 0

    def more(self) -> bool:
        """Append the next chunk (dropping what was read); False at the end of the file."""
        if self.eof:
            return False
        chunk = self.stream.read(CHUNK_CHARS)
        if not chunk:
            self.eof = True
            return False
        self.read += len(chunk)
        if self.progress is not None:
            self.progress(self.read)
        self.buf = self.buf[self.pos :] + chunk
        self.pos = 0
        return True

    def skip_ws(self) -> int:
        """Skip whitespace; the number of line breaks skipped."""
        lines = 0
        while True:
            buf, pos = self.buf, self.pos
            while pos < len(buf) and buf[pos] in _WS:
                lines += buf[pos] == "\n"
                pos += 1
            self.pos = pos
            if pos < len(buf) or not self.more():
                return lines

    def decode(self) -> tuple[Any, int]:
        """The JSON value at ``pos`` and where it ends, reading more while it is incomplete
        (up to :data:`MAX_RECORD_CHARS`)."""
        while True:
            try:
                return self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if not (
                    _incomplete(exc, len(self.buf))
                    and len(self.buf) - self.pos < MAX_RECORD_CHARS
                    and self.more()
                ):
                    raise

    def objects(self) -> Iterator[Any]:
        """One object, or JSON Lines (objects one after another); API pages yield their data."""
        line = 1
        while self.pos < len(self.buf):
            try:
                doc, end = self.decode()
            except RecursionError:
                self.report(Problem(self.path, f"line {line}", "", _DEEP))
                return
            except json.JSONDecodeError as exc:
                self.report(Problem(self.path, f"line {line}", "", f"invalid JSON: {exc.msg}"))
                nl = self.buf.find("\n", self.pos)
                while nl < 0 and self.more():
                    nl = self.buf.find("\n", self.pos)
                if nl < 0:
                    return
                self.pos = nl
                line += self.skip_ws()
                continue
            line += self.buf.count("\n", self.pos, end)
            self.pos = end
            if isinstance(doc, dict) and isinstance(doc.get("data"), list):
                yield from doc["data"]
            else:
                yield doc
            line += self.skip_ws()
            if self.pos < len(self.buf) and self.buf[self.pos] != "{":
                self.report(Problem(self.path, f"line {line}", "", "expected a JSON object"))
                return

    def array(self) -> Iterator[Any]:
        """The items of an array whose ``[`` was read."""
        count = 0
        while True:
            self.skip_ws()
            if self.pos >= len(self.buf):
                self.report(Problem(self.path, f"after item {count}", "", "unexpected end of file"))
                return
            if self.buf[self.pos] == "]":
                return
            if self.buf[self.pos] == ",":
                self.pos += 1
                continue
            count += 1
            try:
                item, end = self.decode()
            except RecursionError:
                self.report(Problem(self.path, f"item {count}", "", _DEEP))
                return
            except json.JSONDecodeError as exc:
                line = self.buf.count("\n", 0, exc.pos)
                message = f"invalid JSON: {exc.msg} (line {line + 1} of the item's chunk)"
                self.report(Problem(self.path, f"item {count}", "", message))
                if not self.resync(exc.pos):
                    return
                continue
            self.pos = end
            yield item
            if self.pos > CHUNK_CHARS:
                self.buf = self.buf[self.pos :]
                self.pos = 0

    def resync(self, start: int) -> bool:
        """Move to the next item that starts on a new line or after ``},``."""
        return resync(self, _RESYNC, start)


class Buffered(Protocol):
    """A reader holding a window of a file (``buf``, ``pos`` in it) that ``more()`` extends."""

    buf: Any
    pos: int

    def more(self) -> bool: ...


def resync(reader: Buffered, pattern: re.Pattern[Any], start: int) -> bool:
    """Move ``reader`` to the next match of ``pattern`` (the start of an item) from ``start``,
    reading more as needed: after a bad item, the reader goes on with the next."""
    found = pattern.search(reader.buf, start)
    while found is None and reader.more():
        found = pattern.search(reader.buf, reader.pos)
    if found is None:
        return False
    reader.pos = found.end() - 1
    return True


#: What each game's records are, for refusing another game's files (see :func:`mismatch`).
FORMATS: Final = {
    "mtg": "Scryfall card objects",
    "fab": "the FaB card database (card.csv / card.json, or @flesh-and-blood/cards as JSON)",
    "ga": "Grand Archive index API cards",
}
#: How many leading items of a file are looked at to tell its format.
SNIFF_ITEMS: Final = 20


def identify(item: Any) -> str | None:
    """The game whose upstream record ``item`` looks like (by its required fields), or None."""
    if not isinstance(item, dict):
        return None
    if item.get("object") == "card" and "layout" in item and "name" in item:
        return "mtg"
    if {"unique_id", "name", "type_text"} <= item.keys():
        return "fab"
    if {"cardIdentifier", "name", "typeText"} <= item.keys():
        return "fab"  # the @flesh-and-blood/cards npm package's cards, written out as JSON
    if {"uuid", "name", "types"} <= item.keys():
        return "ga"
    return None


def mismatch(game: str, path: Path) -> str | None:
    """Why ``path`` is not ``game``'s data (the first records that are objects decide), or None
    when it is, or when it has no object to tell by. Reads only the file's first records."""
    problems: list[Problem] = []
    for n, item in enumerate(read_json_file(path, problems.append), 1):
        if isinstance(item, dict):
            found = identify(item)
            if found == game:
                return None
            looks = f"; it looks like {FORMATS[found]} ({found})" if found else ""
            return f"not {FORMATS[game]}: record {n} lacks their required fields{looks}"
        if n >= SNIFF_ITEMS:
            break
    return problems[0].message if problems and not problems[0].record else None


def expand_paths(paths: Iterable[str | Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files named, and a directory's files with one of ``suffixes`` (sorted, not recursive
    beyond one level)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(
                sorted(f for f in p.rglob("*") if f.is_file() and f.name.lower().endswith(suffixes))
            )
        else:
            out.append(p)
    return out


def check_vocabulary(game: str, path: str, record: str | Callable[[], str], card: CardDef) -> None:
    """Refuse a card with a type word ``game`` doesn't have (its ruleset's ``type_words``,
    :func:`obverse.cards.check_type_words`, the check scenario cards get): an
    :class:`~obverse.errors.InputError` naming the file, the record (or a function giving its
    name, called only then) and the word. Raised, not reported: a misspelt type would store a
    card of no type, so the whole import fails and nothing is written."""
    if _known_words(game, card):
        return  # the common case, without a registry lookup per record
    try:
        check_type_words(card, "", game)
    except InputError as exc:
        name = record if isinstance(record, str) else record()
        place = f"record {shorten(name)}" + (f" {exc.place}" if exc.place else "")
        raise InputError(place, exc.key, exc.message, path) from None


def _known_words(game: str, card: CardDef) -> bool:
    """Whether every type word of ``card`` is one of ``game``'s (:func:`_type_words`)."""
    words, fold = _type_words(game)
    for face in card.faces:
        for field, known in words:
            values = getattr(face, field)
            if fold:
                values = [w.casefold() for w in values]
            if not known.issuperset(values):
                return False
    return True


@memo.per_value
def _type_words(game: str) -> tuple[tuple[tuple[str, frozenset[str]], ...], bool]:
    """``game``'s type words by field (case-folded where the game ignores case)."""
    cls = next((c for c in rulesets() if c.game == game), None)
    if cls is None:
        return (), False
    fold = cls.type_words_fold_case
    words = tuple(
        (field, frozenset(w.casefold() for w in known) if fold else frozenset(known))
        for field, known in cls.type_words.items()
    )
    return words, fold


def str_or_none(value: Any, key: str) -> str | None:
    """``value`` if a string (``None`` for null or ""); anything else is a bad record."""
    if isinstance(value, str):
        return value or None
    if value is None:
        return None
    raise BadRecord(key, f"expected a string, got {quote(value)}")


def str_list(value: Any, key: str) -> tuple[str, ...]:
    """A list of strings (null is empty); anything else is a bad record."""
    if value is None:
        return ()
    if isinstance(value, list):
        for v in value:
            if not isinstance(v, str):
                break
        else:
            return tuple(value)
    raise BadRecord(key, f"expected a list of strings, got {quote(value)}")


_INT: Final = re.compile(r"[+-]?\d+")


def stat(value: Any, key: str) -> int | str | None:
    """A printed number: an int when it is one ("3" -> 3), else the string ("*", "1+*")."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 100:
            raise BadRecord(key, f"expected a number, got {quote(value)}")
        if _INT.fullmatch(text):
            value = int(text)
        else:
            return text or None
    if isinstance(value, bool):
        raise BadRecord(key, f"expected a number, got {quote(value)}")
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_STAT:
        value = int(value)
    if isinstance(value, int):
        if abs(value) > MAX_STAT:  # the scenario format's bound: a card in the db must load
            raise BadRecord(key, f"expected a number from -{MAX_STAT:,} to {MAX_STAT:,}")
        return value
    raise BadRecord(key, f"expected a number, got {quote(value)}")


__all__ = [
    "FORMATS",
    "GAMES",
    "BadRecord",
    "Problem",
    "Progress",
    "Record",
    "Report",
    "check_vocabulary",
    "expand_paths",
    "identify",
    "ignore",
    "iter_json_array",
    "mismatch",
    "read_json_file",
    "stat",
    "str_list",
    "str_or_none",
]
