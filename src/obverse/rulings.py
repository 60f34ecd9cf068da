"""Rulings (the rule that made each decision) and the outcome every action returns."""

from __future__ import annotations

import reprlib
from typing import Any, Final, Generic, NamedTuple, TypeVar

import msgspec

from obverse.state import GameState

DONE: Final = "done"
NOTHING: Final = "nothing_happened"
ILLEGAL: Final = "illegal"


class Ruling(msgspec.Struct, frozen=True):
    """One decision: the rule id (in the selected version's numbering) and why."""

    rule: str
    game: str
    version: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


T = TypeVar("T")


class Decided(NamedTuple, Generic[T]):
    """A decision and the rulings of the branch that made it, returned together so the
    explanation can't drift from the answer. A tuple: ``value, rulings = decided`` works."""

    value: T
    rulings: tuple[Ruling, ...] = ()


#: Decisions with no rulings behind them, built once: a NamedTuple is slow to build, and the
#: hooks a move calls answer with these most of the time.
YES: Final[Decided[bool]] = Decided(True)
NO: Final[Decided[bool]] = Decided(False)


class _Plain(dict[Any, "Decided[Any]"]):
    """A decision with no rulings per value, built on first use."""

    def __missing__(self, value: Any) -> Decided[Any]:
        found = self[value] = Decided(value)
        return found


#: ``PLAIN[value]`` is ``Decided(value)``, built once per value: for the zone and face names
#: (a few strings) the move hooks decide with no rule to cite.
PLAIN: Final = _Plain()


class Event(msgspec.Struct, frozen=True, gc=False):
    """Something that happened, for logs and replay: ``kind`` and its public details."""

    kind: str
    obj: int | None = None
    card: int | None = None
    player: str | None = None
    zone_from: str | None = None
    zone_to: str | None = None
    detail: str | None = None


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """The result of an action or query: new state, ``result``, rulings, events, answer."""

    state: GameState
    result: str
    rulings: tuple[Ruling, ...] = ()
    events: tuple[Event, ...] = ()
    answer: Any = None

    @property
    def cites(self) -> tuple[str, ...]:
        """The rule ids of the rulings, in order."""
        return tuple(r.rule for r in self.rulings)

    def __repr__(self) -> str:
        # The result and its rules, not the whole state (its repr is short too).
        n = len(self.events)
        events = f", {n} event{'s' if n > 1 else ''}" if n else ""
        # A query's answer may be long (every id a search found): reprlib cuts it short.
        answer = f", answer={reprlib.repr(self.answer)}" if self.answer is not None else ""
        return f"<Outcome {self.result} {list(self.cites)}{events}{answer}>"
