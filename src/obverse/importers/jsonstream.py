"""A large JSON array of records read fast, in bounded memory, with msgspec.

:func:`read_records` reads the file as bytes a chunk at a time and decodes *runs* of whole
items with one msgspec call into a :class:`msgspec.Struct` type that declares only the fields
an importer reads (the others are skipped in C). A run ends where a cheap pattern says an item
ends and the next begins (``}, {``); the decode itself proves the cut: a run cut inside an
item never parses, because the brackets left open can't be closed by the one ``]`` appended.

When a run doesn't decode (a wrong cut, invalid JSON, a value of an unexpected type), its
items are read one at a time: each item's end is found exactly, the item decoded on its own
(as plain JSON when it doesn't fit the type, so the importer names the bad key), and an item
that isn't JSON is reported by its number and byte offset and skipped, as
:func:`~obverse.importers.iter_json_array` does. A file that doesn't start with ``[`` (an API
page, one object, JSON Lines) is read by :func:`~obverse.importers.read_json_file`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Final

import msgspec

from obverse import importers
from obverse.importers import Problem, Report

#: Bytes read at a time (a run is at most about this much JSON).
CHUNK_BYTES: Final = 1 << 20
#: Where one object of an array ends and the next begins, wherever the items are objects.
OBJECT_BOUNDARY: Final = re.compile(rb"\}\s*,\s*\{")
#: How far back from the end of the buffer a run's end is looked for first.
_WINDOW: Final = 1 << 16
_WS: Final = b" \t\r\n"
_BYTE: Final = re.compile(r"\s*\(byte (\d+)\)$")
_RESYNC: Final = re.compile(rb"\n\s*\{|\},\s*\{")


class _Invalid(Exception):
    """An item that is not valid JSON: msgspec's reason and the byte offset in the buffer."""

    def __init__(self, reason: str, at: int) -> None:
        super().__init__(reason)
        self.reason, self.at = reason, at


def read_records(
    path: str | Path,
    report: Report,
    record_type: type[msgspec.Struct],
    progress: Callable[[int], None] | None = None,
    boundaries: Sequence[re.Pattern[bytes]] = (OBJECT_BOUNDARY,),
) -> Iterator[Any]:
    """The items of a JSON file: instances of ``record_type`` where an item of an array is an
    object whose fields fit it, else the item as plain JSON values (for the importer to
    report); the items of a page, one object or JSON Lines are plain JSON values. A
    :class:`msgspec.Raw` field holds on to the chunk it was read from: convert, don't keep.

    ``boundaries`` are patterns whose match starts with the ``}`` ending an item and goes on
    to the next item's start, tried in order (a stricter one first: fewer cuts inside an
    item). ``progress`` is called with the bytes read so far. A file that can't be read or
    isn't UTF-8 is reported, never raised.
    """
    p = str(path)
    try:
        if Path(path).exists() and not Path(path).is_file():  # a device or pipe
            report(Problem(p, "", "", "not a regular file"))
            return
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        report(Problem(p, "", "", f"can't read: {exc.strerror or exc}"))
        return
    with stream:
        reader = _Reader(stream, p, report, progress, record_type, boundaries)
        if not reader.start():
            return
        if reader.buf[reader.pos] != ord("["):  # an object, a page or JSON Lines
            stream.close()
            yield from importers.read_json_file(path, report, progress)
            return
        reader.pos += 1
        yield from reader.array()


class _Reader:
    """The file's bytes in ``buf`` from ``pos`` (``base`` is the file offset of ``buf[0]``);
    ``count`` is the number of items begun so far."""

    def __init__(
        self,
        stream: IO[bytes],
        path: str,
        report: Report,
        progress: Callable[[int], None] | None,
        record_type: type[msgspec.Struct],
        boundaries: Sequence[re.Pattern[bytes]],
    ) -> None:
        self.stream, self.path, self.report, self.progress = stream, path, report, progress
        self.boundaries = boundaries
        self.run_decoder = msgspec.json.Decoder(list[record_type])  # type: ignore[valid-type]
        self.one_decoder = msgspec.json.Decoder(record_type)
        self.utf8 = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.base, self.read, self.count = b"", 0, 0, 0, 0
        self.eof = self.failed = False

    # --- the buffer ------------------------------------------------------------------------

    def more(self) -> bool:
        """Append the next chunk (dropping what was read); False at the end of the file or at
        text that isn't UTF-8 (reported: the file stops there, as the text reader's does)."""
        if self.eof:
            return False
        chunk = self.stream.read(CHUNK_BYTES)
        self.eof = len(chunk) < CHUNK_BYTES  # a regular file reads short only at its end
        try:
            # msgspec skips unread fields without decoding them: check the whole text here.
            self.utf8.decode(chunk, final=self.eof)
        except UnicodeDecodeError as exc:
            self.report(Problem(self.path, "", "", f"not UTF-8 text ({exc.reason})"))
            self.eof = self.failed = True
            self.buf, self.pos = b"", 0
            return False
        if not chunk:
            return False
        if self.read and self.progress is not None:
            self.progress(self.read + len(chunk))
        self.read += len(chunk)
        self.base += self.pos
        self.buf = self.buf[self.pos :] + chunk
        self.pos = 0
        return True

    def start(self) -> bool:
        """Read the first chunk and skip leading whitespace; False for an empty file or one
        that doesn't start with a JSON array or object (reported)."""
        self.skip_ws()
        if self.pos >= len(self.buf):
            return False
        if self.buf[self.pos] not in b"[{":
            self.report(Problem(self.path, "", "", "expected a JSON array of card objects"))
            return False
        return True

    def skip_ws(self) -> None:
        """Skip whitespace, reading on as needed."""
        while True:
            buf, pos = self.buf, self.pos
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            self.pos = pos
            if pos < len(buf) or not self.more():
                return

    def place(self, at: int) -> str:
        """Where buffer offset ``at`` is in the file, for messages."""
        return f"byte {self.base + at} of the file"

    def ended(self) -> bool:
        """Whether the buffer is used up (an unexpected end of the file is reported)."""
        if self.pos < len(self.buf):
            return False
        if not self.failed:
            where = f"after item {self.count}"
            self.report(Problem(self.path, where, "", "unexpected end of file"))
        return True

    # --- the array -------------------------------------------------------------------------

    def array(self) -> Iterator[Any]:
        """The items of the array whose ``[`` was read: runs while they decode, else one at a
        time up to where the run would have ended."""
        while True:
            self.skip_ws()
            if self.ended():
                return
            head = self.buf[self.pos]
            if head == ord("]"):
                return
            if head == ord(","):
                self.pos += 1
                continue
            end = self.run_end()
            run = None if end is None else self.decode_run(end)
            if run is not None and end is not None:
                self.count += len(run)
                self.pos = end
                yield from run
                continue
            # One at a time up to the run's end (all that is buffered if none was found).
            stop = self.base + (len(self.buf) if end is None else end)
            if not (yield from self.one_by_one(stop)):
                return

    def run_end(self) -> int | None:
        """Where a run of whole items from ``pos`` would end (the ``}`` closing its last item,
        or the array's ``]`` at the end of the file), reading on until the buffer holds one;
        None when none is found (an item longer than a chunk, or invalid JSON). A looser
        boundary pattern is tried only when the stricter ones find nothing in a full buffer."""
        while True:
            if self.eof:
                tail = self.buf.rstrip()
                if tail.endswith(b"]") and len(tail) - 1 > self.pos:
                    return len(tail) - 1
            full = self.eof or len(self.buf) - self.pos >= CHUNK_BYTES
            for pattern in self.boundaries if full else self.boundaries[:1]:
                end = _last_match(pattern, self.buf, self.pos)
                if end is not None:
                    return end
            # An item may straddle the chunks: read one more, not more (bounded memory).
            if self.eof or len(self.buf) - self.pos >= 2 * CHUNK_BYTES:
                return None
            self.more()

    def decode_run(self, end: int) -> list[Any] | None:
        """The items of ``buf[pos:end]``, or None when they aren't one run of valid items
        that fit the record type (a wrong cut gives invalid JSON, so it is never taken)."""
        try:
            items: list[Any] = self.run_decoder.decode(b"[" + self.buf[self.pos : end] + b"]")
        except (msgspec.DecodeError, RecursionError):  # ValidationError is a DecodeError
            return None
        return items

    def one_by_one(self, stop: int) -> Generator[Any, None, bool]:
        """Items one at a time until one starts at or after file offset ``stop``; returns
        False when the array ended (or can't be read on), True to go on with runs."""
        while True:
            self.skip_ws()
            if self.ended():
                return False
            head = self.buf[self.pos]
            if head == ord("]"):
                return False
            if head == ord(","):
                self.pos += 1
                continue
            if self.base + self.pos >= stop:
                return True
            self.count += 1
            try:
                end = self.item_end()
            except RecursionError:
                self.report(Problem(self.path, f"item {self.count}", "", importers._DEEP))
                return False
            except _Invalid as exc:
                if self.failed:  # the file stopped being read (reported)
                    return False
                message = f"invalid JSON: {exc.reason} ({self.place(exc.at)})"
                self.report(Problem(self.path, f"item {self.count}", "", message))
                if not self.resync(exc.at):
                    return False
                continue
            item = self.decode_one(end)
            if item is not _BAD:
                yield item

    def item_end(self) -> int:
        """Where the item at ``pos`` ends (exclusive), reading on while it is incomplete (up
        to :data:`~obverse.importers.MAX_RECORD_CHARS`); :class:`_Invalid` if it isn't JSON."""
        while True:
            rest = memoryview(self.buf)[self.pos :]  # no copy of the buffer per item
            try:
                msgspec.json.decode(rest, type=msgspec.Raw)
            except msgspec.DecodeError as exc:
                reason = str(exc).removeprefix("JSON is malformed: ")
                found = _BYTE.search(reason)
                at = self.pos + int(found[1]) if found else len(self.buf)
                reason = reason[: found.start()] if found else reason
                if reason == "trailing characters":  # msgspec names the byte after it
                    return at - 1
                # At the end of the buffer it may be the item going on in the next chunk.
                if not (
                    at >= len(self.buf) - 8
                    and len(rest) < importers.MAX_RECORD_CHARS
                    and self.more()
                ):
                    raise _Invalid(reason, at) from None
            else:  # nothing after it in the buffer: complete unless the file goes on
                if not self.more():
                    if self.failed:  # not UTF-8 further on (reported): the file stops
                        raise _Invalid("", len(self.buf))
                    return len(self.buf)

    def decode_one(self, end: int) -> Any:
        """The item ``buf[pos:end]`` as the record type, or as plain JSON when it doesn't fit
        (the importer says why); ``_BAD`` (reported) if msgspec refuses it after all."""
        text = memoryview(self.buf)[self.pos : end]
        try:
            try:
                return self.one_decoder.decode(text)
            except msgspec.ValidationError:
                return msgspec.json.decode(text)
        except (msgspec.DecodeError, RecursionError) as exc:
            reason = str(exc).removeprefix("JSON is malformed: ")
            message = f"invalid JSON: {reason} ({self.place(self.pos)})"
            self.report(Problem(self.path, f"item {self.count}", "", message))
            return _BAD
        finally:
            self.pos = end

    def resync(self, start: int) -> bool:
        """Move to the next item that starts on a new line or after ``},``."""
        return importers.resync(self, _RESYNC, start)


_BAD: Final = object()


def _last_match(pattern: re.Pattern[bytes], buf: bytes, start: int) -> int | None:
    """Where the last match of ``pattern`` in ``buf[start:]`` begins, plus one (just after
    the ``}`` it starts with); looked for near the end first."""
    window = _WINDOW
    while True:
        low = max(start, len(buf) - window)
        last = None
        for last in pattern.finditer(buf, low):  # noqa: B007 - the last one is wanted
            pass
        if last is not None:
            return last.start() + 1
        if low == start:
            return None
        window *= 8
