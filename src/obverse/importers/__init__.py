"""Importers from upstream card data to obverse's card model (:class:`~obverse.cards.CardDef`).

* :mod:`obverse.importers.scryfall` — Scryfall card objects (MTG), bulk files streamed;
* :mod:`obverse.importers.fab` — the Flesh and Blood card database (the-fab-cube CSV and JSON);
* :mod:`obverse.importers.ga` — Grand Archive index API JSON.

Each importer yields :class:`Record` s (one stored card each) and reports a bad record as a
:class:`Problem` (file, record id, key, message) through a callback, then goes on with the rest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Final, NamedTuple

from obverse.cards import CardDef

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
        parts = [p for p in (self.path, self.record, self.key) if p]
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
    those; any other object is yielded whole. An item that is not valid JSON is reported and
    skipped (reading resumes at the next item that starts on a new line or after ``},``).
    """
    decoder = json.JSONDecoder()
    buf = stream.read(CHUNK_CHARS)
    read = len(buf)
    eof = not buf
    pos = 0
    count = 0

    def more() -> bool:
        nonlocal buf, pos, eof, read
        if eof:
            return False
        chunk = stream.read(CHUNK_CHARS)
        if not chunk:
            eof = True
            return False
        read += len(chunk)
        if progress is not None:
            progress(read)
        buf = buf[pos:] + chunk
        pos = 0
        return True

    def skip_ws() -> None:
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            if pos < len(buf) or not more():
                return

    skip_ws()
    if pos >= len(buf):
        return
    if buf[pos] == "{":
        # A whole document that is one object: an API envelope or a single card.
        while True:
            try:
                doc, _end = decoder.raw_decode(buf, pos)
                break
            except json.JSONDecodeError as exc:
                if _incomplete(exc, len(buf)) and len(buf) - pos < MAX_RECORD_CHARS and more():
                    continue
                report(Problem(path, "", "", f"invalid JSON: {exc.msg} (char {exc.pos})"))
                return
        if isinstance(doc, dict) and isinstance(doc.get("data"), list):
            yield from doc["data"]
        else:
            yield doc
        return
    if buf[pos] != "[":
        report(Problem(path, "", "", "expected a JSON array of card objects"))
        return
    pos += 1
    while True:
        skip_ws()
        if pos >= len(buf):
            report(Problem(path, f"after item {count}", "", "unexpected end of file"))
            return
        if buf[pos] == "]":
            return
        if buf[pos] == ",":
            pos += 1
            continue
        try:
            item, end = decoder.raw_decode(buf, pos)
        except json.JSONDecodeError as exc:
            if _incomplete(exc, len(buf)) and len(buf) - pos < MAX_RECORD_CHARS and more():
                continue
            line = buf.count("\n", 0, exc.pos)
            count += 1
            report(
                Problem(
                    path,
                    f"item {count}",
                    "",
                    f"invalid JSON: {exc.msg} (line {line + 1} of the item's chunk); skipped",
                )
            )
            found = _RESYNC.search(buf, exc.pos)
            while found is None and more():
                found = _RESYNC.search(buf, pos)
            if found is None:
                return
            pos = found.end() - 1
            continue
        count += 1
        pos = end
        yield item
        if pos > CHUNK_CHARS:
            buf = buf[pos:]
            pos = 0


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


def str_or_none(value: Any, key: str) -> str | None:
    """``value`` if a string (``None`` for null or ""); anything else is a bad record."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadRecord(key, f"expected a string, got {value!r}")
    return value


def str_list(value: Any, key: str) -> tuple[str, ...]:
    """A list of strings (null is empty); anything else is a bad record."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRecord(key, f"expected a list of strings, got {value!r}")
    return tuple(value)


def stat(value: Any, key: str) -> int | str | None:
    """A printed number: an int when it is one ("3" -> 3), else the string ("*", "1+*")."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise BadRecord(key, f"expected a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        return text or None
    raise BadRecord(key, f"expected a number, got {value!r}")


__all__ = [
    "GAMES",
    "BadRecord",
    "Problem",
    "Progress",
    "Record",
    "Report",
    "expand_paths",
    "ignore",
    "iter_json_array",
    "read_json_file",
    "stat",
    "str_list",
    "str_or_none",
]
