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


class RulesError(ObverseError):
    """An action that cannot be carried out at all (e.g. resolving an object not on the stack)."""


def suggest(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest known word, or ``""``."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
