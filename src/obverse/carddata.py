"""Card name resolution: a scenario's inline cards, then the curated cards bundled with the
engine (``obverse/data/<game>.yaml``), then (optionally) a card database."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources

from obverse.cards import CardDef, parse_card
from obverse.errors import InputError
from obverse.loader import load_text


class CardIndex:
    """Cards findable by full name or by any face name."""

    def __init__(self, cards: Iterable[CardDef] = ()) -> None:
        self._by_name: dict[str, CardDef] = {}
        self.cards: list[CardDef] = []
        for card in cards:
            self.add(card)

    def add(self, card: CardDef) -> None:
        """Index a card under its full name and its face names (first definition wins)."""
        self.cards.append(card)
        for name in (card.name, *card.face_names):
            self._by_name.setdefault(name, card)

    def get(self, name: str) -> CardDef | None:
        """The card with this full or face name."""
        return self._by_name.get(name)

    def names(self) -> list[str]:
        """Every name the index knows."""
        return list(self._by_name)

    def bearing(self, name: str) -> list[CardDef]:
        """Cards that have ``name`` as a full or face name."""
        return [c for c in self.cards if name == c.name or name in c.face_names]


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

    def bearing(self, name: str) -> list[CardDef]:
        """Cards bearing ``name``, inline ones first."""
        found = self.inline.bearing(name) or bundled(self.game).bearing(name)
        if not found:
            card = self.get(name)
            found = [card] if card else []
        return found
