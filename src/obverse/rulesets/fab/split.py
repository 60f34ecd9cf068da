"""Flesh and Blood, split-cards and meld beyond their faces: a restriction on a named card
meets the side a split-card is played with (9.2.2b, Chains of Eminence), a melded layer
resolves right side first (5.3.4d, 8.3.38a), and a card that isn't a split-card is unaffected
by meld (8.3.38c).
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.fab.zones import MELD
from obverse.rulings import DONE, Event, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only (at run time a flat mixin)
    _Base = Ruleset
else:
    _Base = object


replace = msgspec.structs.replace

#: Designation of a melded layer whose right side has resolved (5.3.4d).
RIGHT_RESOLVED: Final = "meld_right_resolved"
#: The verbs a "can't be played" restriction names.
PLAY_VERBS: Final = ("play", "cast")


class FabSplit(_Base):
    """Restrictions on a split-card's played side, and melded layers resolving."""

    #: FaB decides a restriction on playing with the side the card is played with (9.2.2b).
    checks_forbid: ClassVar[frozenset[str]] = frozenset(PLAY_VERBS)

    def play_forbidden(self, state: GameState, obj: GameObject, side: str) -> Rulings:
        """1.0.2: a restriction on playing the card wins; for a split-card it applies to the
        card as played, with its declared side (9.2.2b: a named "Shock" forbids Regrowth||Shock
        played as Shock or melded, 8.3.38c, not as Regrowth). Empty: it may be played."""
        if not state.effects:
            return ()
        card = state.card_def(obj)
        split = card.layout == "split" and len(card.faces) > 1
        played = replace(obj, face=side) if split else obj
        if not any(self.is_forbidden(state, played, verb) for verb in PLAY_VERBS):
            return ()
        out = self.cite("1.0.2", "an effect says it can't be played: the restriction wins")
        if split:
            names = self._side_names(card, side)
            why = f"played as {names}, it has the name the restriction is about"
            out += self.cite("9.2.2b", why)
            if side == "both":
                out += self.cite("8.3.38c", "a melded card has the names of both its sides")
        return out

    def allowed_side_note(self, state: GameState, obj: GameObject, side: str) -> Rulings:
        """9.2.2b: a restriction on the split-card's other name doesn't stop this side."""
        card = state.card_def(obj)
        if not state.effects or card.layout != "split" or side == "both":
            return ()
        whole = replace(obj, face="both")
        if not any(self.is_forbidden(state, whole, verb) for verb in PLAY_VERBS):
            return ()
        why = (
            f"played as {self._side_names(card, side)} it doesn't have the named card's name: "
            "the restriction doesn't stop it"
        )
        return self.cite("9.2.2b", why)

    @staticmethod
    def _side_names(card: CardDef, side: str) -> str:
        if side == "both":
            return " || ".join(card.face_names)
        return card.face_names[0 if side in ("left", "front") else 1]

    def search(self, state: GameState, a: v.Search | v.Select) -> Outcome:
        """9.2.2c: a card has the same name as a split-card only if it has all of its names
        (a filter's ``names`` asks for all of them)."""
        out = super().search(state, a)
        names = (a.where or {}).get("names")
        if not isinstance(names, list | tuple) or len(names) < 2:
            return out
        why = f"a card has the same name as {' || '.join(map(str, names))} only with all its names"
        return Outcome(
            out.state, out.result, (*out.rulings, *self.cite("9.2.2c", why)), answer=out.answer
        )

    # --- meld (5.3.4d, 8.3.38a, 8.3.38c) ----------------------------------------------------

    def meld_on_other_card(self, card: CardDef, chosen: str | None) -> tuple[str | None, Rulings]:
        """8.3.38c: a card with meld that isn't a split-card, played melded, is unaffected:
        it is played as it is."""
        if (
            chosen != "both"
            or card.layout == "split"
            or not any(MELD in f.abilities for f in card.faces)
        ):
            return chosen, ()
        why = "it is not a split-card, so it is unaffected by meld: it is played as it is"
        return None, self.cite("8.3.38c", why)

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """5.3.4d: a melded layer resolving the first time generates only its right side's
        effects and stays on the stack; the second time, its left side's, then it is cleared
        (5.3.7) or enters the arena as usual."""
        obj = state.objects[a.object]
        card = state.card_def(obj)
        melded = obj.zone == self.stack_zone and obj.face == "both" and card.layout == "split"
        if not melded:
            return super().resolve(state, a)
        mark = (RIGHT_RESOLVED, obj.id)
        left, right = card.face_names[0], card.face_names[1]
        if mark not in state.designations:
            state = replace(state, designations=(*state.designations, mark))
            why = (
                f"melded, resolving the first time: only {right}'s (the right side's) "
                "resolution abilities generate their effects; it stays on the stack and the "
                "turn-player gains priority"
            )
            rulings = self.cite("5.3.4d", why) + self.cite(
                "8.3.38a", "the card is melded until it ceases to exist"
            )
            return Outcome(
                state, DONE, rulings, (Event("resolve_right", obj.id, obj.card, obj.controller),)
            )
        designations = tuple(d for d in state.designations if d != mark)
        state = replace(state, designations=designations)
        out = super().resolve(state, a)
        why = f"resolving the second time: only {left}'s (the left side's) abilities resolve"
        return Outcome(out.state, out.result, (*self.cite("5.3.4d", why), *out.rulings), out.events)
