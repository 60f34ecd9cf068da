"""Card name resolution: a scenario's inline cards, then the curated cards bundled with the
engine (``obverse/data/<game>.yaml``), then (optionally) a card database.

A name borne by several cards (a full, face or alias name) is ambiguous: looking it up raises
:class:`AmbiguousName` listing a name for each choice instead of silently picking one. A
choice is named by its full name when that is unique, else by its pitch (``Sink Below (red)``,
FaB), else by its upstream id (``Inner Chi [id KEY]``, card databases). Unknown names get
suggestions (:func:`close_names`, rapidfuzz).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from typing import Final, Protocol

from rapidfuzz import fuzz, process

from obverse.cards import CardDef, parse_card
from obverse.errors import InputError, quote
from obverse.loader import load_text

#: Least rapidfuzz ``WRatio`` score (0-100) a suggestion needs.
SUGGEST_CUTOFF: Final = 70.0
#: How far below the best suggestion's score another may be.
SUGGEST_MARGIN: Final = 5.0
#: Most choices an ambiguity error lists.
MAX_CHOICES: Final = 12
PITCHES: Final = {"red": 1, "yellow": 2, "blue": 3}
_PITCH: Final = re.compile(r"^(?P<base>.+?)\s+\((?P<pitch>red|yellow|blue)\)$", re.IGNORECASE)
_ID: Final = re.compile(r"^(?P<base>.+?)\s+\[id (?P<id>[^\]]+)\]$")


def close_names(query: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """The names closest to ``query``, best first (rapidfuzz ``WRatio`` on case-folded names,
    at least :data:`SUGGEST_CUTOFF` and within :data:`SUGGEST_MARGIN` of the best): "delver"
    finds "Delver of Secrets"."""
    known: dict[str, str] = {}
    for name in names:
        known.setdefault(name.casefold(), name)
    hits = process.extract(
        query.casefold(),
        list(known),
        scorer=fuzz.WRatio,
        limit=limit,
        score_cutoff=SUGGEST_CUTOFF,
    )
    # Only names nearly as close as the best: WRatio's partial matching scores unrelated
    # names sharing a short word ("of") in the 80s. Equal scores: the shorter name first.
    best = max((h[1] for h in hits), default=0.0)
    hits = sorted(
        (h for h in hits if h[1] >= best - SUGGEST_MARGIN), key=lambda h: (-h[1], len(h[0]))
    )
    return [known[h[0]] for h in hits]


def split_id(name: str) -> tuple[str, str | None]:
    """``("Inner Chi", "KEY")`` for ``"Inner Chi [id KEY]"``; ``(name, None)`` otherwise."""
    found = _ID.match(name)
    return (found["base"], found["id"].strip()) if found else (name, None)


class AmbiguousName(InputError):
    """A card name borne by several cards; ``choices`` names each one unambiguously."""

    def __init__(self, name: str, choices: list[str]) -> None:
        self.name = name
        self.choices = choices
        shown = "; ".join(choices[:MAX_CHOICES])
        more = f"; and {len(choices) - MAX_CHOICES} more" if len(choices) > MAX_CHOICES else ""
        super().__init__(
            "", "card", f"{quote(name)} names {len(choices)} cards; choose one: {shown}{more}"
        )


class Suggests(Protocol):
    """Anything that suggests card names (:class:`CardIndex`, :class:`CardResolver`)."""

    def suggest(self, name: str, limit: int = 5) -> list[str]: ...


def unknown_card_error(name: str, index: Suggests) -> InputError:
    """The error for a card name nothing bears, with up to five suggestions from ``index``
    (place empty: the caller's :meth:`InputError.at` names it)."""
    found = index.suggest(name)
    hint = f"; did you mean: {', '.join(found)}?" if found else ""
    return InputError("", "card", f"unknown card {quote(name)}{hint}")


class CardIndex:
    """Cards findable by full name or by any face name."""

    def __init__(self, cards: Iterable[CardDef] = ()) -> None:
        self._by_name: dict[str, list[CardDef]] = {}
        self.cards: list[CardDef] = []
        for card in cards:
            self.add(card)

    def add(self, card: CardDef) -> None:
        """Index a card under its full name and its face names."""
        self.cards.append(card)
        for name in dict.fromkeys((card.name, *card.face_names)):
            self._by_name.setdefault(name, []).append(card)

    def candidates(self, name: str) -> list[CardDef]:
        """Every card bearing ``name`` as a full or face name; ``Name (red)`` (yellow, blue)
        keeps those whose front face has that pitch."""
        found = self._by_name.get(name)
        if found:
            return list(found)
        pitch = _PITCH.match(name)
        if pitch is None:
            return []
        want = PITCHES[pitch["pitch"].lower()]
        return [c for c in self._by_name.get(pitch["base"], []) if c.front.pitch == want]

    def get(self, name: str) -> CardDef | None:
        """The card with this full or face name; :class:`AmbiguousName` when several bear it."""
        found = self.candidates(name)
        if len(found) > 1:
            raise AmbiguousName(name, [self._choice(name, c) for c in found])
        return found[0] if found else None

    def _choice(self, name: str, card: CardDef) -> str:
        if card.name != name and len(self._by_name.get(card.name, ())) == 1:
            return card.name
        color = next((k for k, v in PITCHES.items() if v == card.front.pitch), None)
        return f"{name} ({color})" if color else card.name

    def names(self) -> list[str]:
        """Every name the index knows."""
        return list(self._by_name)

    def bearing(self, name: str) -> list[CardDef]:
        """Cards that have ``name`` as a full or face name."""
        return list(self._by_name.get(name, ()))

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """Up to ``limit`` known names closest to ``name`` (:func:`close_names`)."""
        return close_names(name, self._by_name, limit)


@cache
def bundled(game: str) -> CardIndex:
    """The curated cards shipped for ``game`` (empty if none)."""
    try:
        text = resources.files("obverse.data").joinpath(f"{game}.yaml").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return CardIndex()
    path = f"obverse/data/{game}.yaml"
    data = load_text(text, path)
    raw = data.get("cards", []) if isinstance(data, dict) else data
    if not isinstance(raw, list):
        raise InputError("top level", "cards", "expected a list", path)
    cards = []
    for i, entry in enumerate(raw, 1):
        try:
            cards.append(parse_card(entry, f"cards[{i}]", game))
        except InputError as exc:
            raise exc.at(path) from None
    return CardIndex(cards)


class CardResolver:
    """Resolves names in order: inline cards, bundled cards, then an optional lookup."""

    def __init__(
        self,
        game: str,
        inline: CardIndex | None = None,
        extra: Callable[[str], CardDef | None] | None = None,
    ) -> None:
        self.game = game
        self.inline = inline or CardIndex()
        self.extra = extra

    def get(self, name: str) -> CardDef | None:
        """The card for a full or face name, or ``None``."""
        card = self.inline.get(name) or bundled(self.game).get(name)
        if card is None and self.extra is not None:
            card = self.extra(name)
        return card

    def all_cards(self) -> list[CardDef]:
        """Inline and bundled cards (for meld results), then the lookup's meld results when
        it offers them (a card database's :meth:`~obverse.carddb.CardLookup.meld_results`)."""
        extra = getattr(self.extra, "meld_results", None)
        more: list[CardDef] = list(extra()) if callable(extra) else []
        return [*self.inline.cards, *bundled(self.game).cards, *more]

    def candidates(self, name: str) -> list[CardDef]:
        """Every card bearing ``name`` at the first level that has one: inline, bundled, then
        the lookup's ``candidates`` when it offers them."""
        found = self.inline.candidates(name) or bundled(self.game).candidates(name)
        more = getattr(self.extra, "candidates", None)
        if not found and callable(more):
            found = list(more(name))
        return found

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """The closest names of the inline and bundled cards and the lookup (when it offers
        ``suggest``)."""
        names = [*self.inline.names(), *bundled(self.game).names()]
        more = getattr(self.extra, "suggest", None)
        if callable(more):
            names.extend(more(name, limit))
        return close_names(name, names, limit)

    def bearing(self, name: str) -> list[CardDef]:
        """Cards bearing ``name``, inline ones first."""
        found = self.inline.bearing(name) or bundled(self.game).bearing(name)
        if not found:
            card = self.get(name)
            found = [card] if card else []
        return found
