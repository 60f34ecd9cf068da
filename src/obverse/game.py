"""A small convenience wrapper: a :class:`Game` holds the current state and applies actions.

The kernel itself is functional (every action takes a state and returns an
:class:`~obverse.rulings.Outcome`); ``Game`` just keeps the latest state and names cards.
"""

from __future__ import annotations

from typing import Any

from obverse import actions
from obverse.carddata import CardResolver
from obverse.cards import CardDef
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import InputError
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Outcome
from obverse.state import GameObject, GameState, PhysicalCard, new_state
from obverse.views import view


class Game:
    """A game under a ruleset alias (``mtg``, ``mtg@2020``, ``fab``, ``ga``, ``scp``).

    Cards are named as in scenarios; :meth:`add` returns the physical card id, which follows
    the card across zones (like a scenario label)."""

    def __init__(
        self,
        ruleset: str = "mtg",
        players: tuple[str, ...] = ("alice", "bob"),
        seed: int = 0,
        cards: list[CardDef] | None = None,
    ) -> None:
        self.ruleset: Ruleset = get_ruleset(ruleset)
        self.state: GameState = new_state(self.ruleset.name, players, seed=seed)
        from obverse.carddata import CardIndex

        self.cards = CardResolver(self.ruleset.game, CardIndex(cards or []))
        self.history: list[Outcome] = []

    def add(
        self,
        card: str | CardDef,
        zone: str,
        owner: str | None = None,
        face: str | None = None,
        face_down: bool = False,
    ) -> int:
        """Put a card into ``zone`` before play; returns its card id."""
        cdef = self.cards.get(card) if isinstance(card, str) else card
        if cdef is None:
            raise InputError("", "card", f"unknown card {card!r}")
        who = owner or self.state.players[0]
        self.state, card_id = actions.add_card(
            self.state,
            PhysicalCard(card=cdef, owner=who),
            zone,
            face=face or self.ruleset.default_face(cdef, zone),
            face_down=face_down,
        )
        return card_id

    def obj(self, card_id: int) -> GameObject:
        """The object a card is now."""
        o = self.state.object_of_card(card_id)
        if o is None:
            raise KeyError(card_id)
        return o

    def _apply(self, out: Outcome) -> Outcome:
        self.state = out.state
        self.history.append(out)
        return out

    def move(self, card_id: int, to: str, **kwargs: Any) -> Outcome:
        """Move the card's object to zone ``to`` (see :func:`obverse.actions.move`)."""
        return self._apply(actions.move(self.state, self.obj(card_id).id, to, **kwargs))

    def cast(self, card_id: int, **kwargs: Any) -> Outcome:
        """Cast the card (see :func:`obverse.actions.cast`)."""
        return self._apply(actions.cast(self.state, self.obj(card_id).id, **kwargs))

    def resolve(self, card_id: int) -> Outcome:
        """Resolve the card's object on the stack."""
        return self._apply(actions.resolve(self.state, self.obj(card_id).id))

    def transform(self, card_id: int) -> Outcome:
        """Transform the card's permanent (MTG 701.27, GA 2)."""
        return self._apply(actions.transform(self.state, self.obj(card_id).id))

    def turn_face_down(self, card_id: int) -> Outcome:
        """Turn the card's object face down."""
        return self._apply(actions.turn_face_down(self.state, self.obj(card_id).id))

    def turn_face_up(self, card_id: int) -> Outcome:
        """Turn the card's object face up."""
        return self._apply(actions.turn_face_up(self.state, self.obj(card_id).id))

    def characteristics(self, card_id: int) -> Characteristics:
        """The card's object's characteristics now."""
        return characteristics(self.state, self.obj(card_id), self.ruleset)

    def view(self, viewer: str | None) -> dict[str, Any]:
        """``viewer``'s view of the game (``None``: a spectator)."""
        return view(self.state, viewer)
