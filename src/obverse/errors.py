"""Errors raised for bad input: each names where it happened and the offending key."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class ObverseError(Exception):
    """Base class of every error obverse raises on purpose."""


class InputError(ObverseError):
    """Malformed input: a scenario, card file or action argument.

    ``place`` is where (``top level``, ``cards[2]``, ``setup[1]``, ``step 4``), ``key`` the
    offending key (may be empty), ``message`` what is wrong.
    """

    def __init__(self, place: str, key: str, message: str, path: str = "") -> None:
        self.place = place
        self.key = key
        self.message = message
        self.path = path
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line: ``path: place: key: message``."""
        parts = [p for p in (self.path, self.place, self.key) if p]
        return ": ".join([*parts, self.message])

    def at(self, path: str = "", place: str = "") -> InputError:
        """A copy that names ``path`` and, when it had none, ``place``."""
        return InputError(
            place if not self.place else self.place, self.key, self.message, path or self.path
        )


class NothingToUndo(ObverseError, IndexError):
    """``Game.undo()`` with no action to take back (an :class:`IndexError` too, as popping an
    empty history was)."""


class RulesError(ObverseError):
    """An action that cannot be carried out at all (e.g. resolving an object not on the stack)."""


def suggest(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest known word, or ``""``."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {quote(close[0])}?)" if close else ""


#: How many characters of a value an error message quotes.
QUOTE_LIMIT = 80


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, at most ``limit`` characters (a 1 MB value must
    not be repeated in full); a value too deeply nested to print is described, not raised."""
    if isinstance(value, str) and len(value) > limit:
        value = value[: limit + 1]  # repr of the head only: the rest is cut anyway
    try:
        text = repr(value)
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to print>"
    return shorten(text, limit)
