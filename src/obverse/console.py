"""What the command line prints for a person: colour on a terminal, progress bars, plurals.

Colour follows the conventions terminals share: only on a terminal, never when ``NO_COLOR`` is
set (https://no-color.org) or ``TERM`` is ``dumb``, always when ``FORCE_COLOR`` is set. A
progress bar is drawn on standard error, and only on a terminal: piped output stays plain.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

#: ANSI SGR codes of the colours the CLI uses.
_CODES = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}


def use_colour(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream``: ``FORCE_COLOR`` yes, ``NO_COLOR`` or a
    dumb terminal no, else only when it is a terminal."""
    if os.environ.get("FORCE_COLOR"):
        return True
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, colour: str, stream: TextIO | None = None) -> str:
    """``text`` in ``colour`` when ``stream`` (default stdout) is coloured, else as it is."""
    if not use_colour(stream or sys.stdout):
        return text
    return f"\x1b[{_CODES[colour]}m{text}\x1b[0m"


#: The colour of each scenario status.
STATUS_COLOURS = {"PASS": "green", "FAIL": "red", "ERROR": "yellow"}


def status_line(line: str, stream: TextIO | None = None) -> str:
    """A result line (``PASS ...``, ``FAIL ...``, ``ERROR ...``) with its status coloured."""
    status, _, rest = line.partition(" ")
    colour = STATUS_COLOURS.get(status)
    if colour is None:
        return line
    return f"{paint(status, colour, stream)} {rest}" if rest else paint(status, colour, stream)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 error"``, ``"2 errors"`` (``many``: an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


class Progress:
    """A progress bar on a terminal (``label [#####-----] 50% 5/10``), redrawn at most 10 times a
    second and cleared by :meth:`close`; nothing at all when ``stream`` is not a terminal (or
    ``total`` is 0, unknown work shows a count)."""

    def __init__(
        self,
        label: str,
        total: int = 0,
        stream: TextIO | None = None,
        counts: bool = True,
        amount: Callable[[int, int], str] | None = None,
    ) -> None:
        self.label, self.total, self.done, self.counts = label, total, 0, counts
        #: How ``done`` of ``total`` shows after the bar (``5/10`` unless given: bytes as MiB).
        self.amount = amount or (lambda done, total: f"{done}/{total}" if total else f"{done}")
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.active = bool(isatty and isatty()) and "OBVERSE_NO_PROGRESS" not in os.environ
        self._drawn = 0.0
        self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, by: int = 1, note: str = "") -> None:
        """``by`` more units done (``note``: what is being done now)."""
        self.done += by
        now = time.monotonic()
        if self.active and (now - self._drawn >= 0.1 or self.done == self.total):
            self._drawn = now
            self._draw(note)

    def update(self, done: int, total: int, label: str | None = None) -> None:
        """``done`` of ``total`` units now (a callback's absolute figures; ``label``: what is
        being done now, e.g. which file)."""
        self.done, self.total = done, total
        if label is not None:
            self.label = label
        self.advance(0)

    def _draw(self, note: str) -> None:
        amount = self.amount(self.done, self.total) if self.counts else ""
        if self.total:
            filled = min(20, 20 * self.done // self.total)
            bar = (
                f"[{'#' * filled}{'-' * (20 - filled)}] {min(100, 100 * self.done // self.total)}%"
            )
            bar += f" {amount}" if amount else ""
        else:
            bar = amount or f"{self.done}"
        text = f"{self.label} {bar}" + (f" {note}" if note else "")
        pad = " " * max(0, self._width - len(text))
        self._width = len(text)
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar (the line is left empty for what is printed next)."""
        if self.active and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


__all__ = ["Progress", "paint", "plural", "status_line", "use_colour"]
