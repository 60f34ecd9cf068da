"""Grand Archive lineages and Preserve: the Lineage keyword (a levelling restriction),
Lineage Release (banishing a card from the inner lineage) and Preserve (a card put into the
material deck revealed and Preserved).

Rule ids are the glossary's headings and items ("Lineage 1", "Lineage Release 3",
"Preserve 2"); the glossary's term "Lineage" is cited "Lineage (term) 2".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.base import Rulings
from obverse.rulesets.ga.objects import BANISHMENT, FIELD, GRAVEYARD, MATERIAL_DECK, _typed
from obverse.rulings import DONE, ILLEGAL, Event, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.ga.objects import FieldObjects as _Base
else:
    _Base = object

replace = msgspec.structs.replace

#: The designation of a Preserved card in the material deck (Preserve 4): public there.
PRESERVED: Final = "preserved"
PRESERVE: Final = "Preserve"
LINEAGE_RELEASE: Final = "Lineage Release"
#: Lineage 1: the ability "Lineage X" (or "Lineage (X)", "Lineage — X"): X is the character
#: name of the champion it must be levelled from.
_LINEAGE: Final = re.compile(r"^Lineage(?:\s*[(—-]\s*|\s+)(?P<name>[^)]+?)\)?$")


class LineageRelease(v.Action, frozen=True, tag="lineage_release"):
    """Lineage Release 1: the card named ``name`` in the champion ``object``'s inner lineage
    is banished (the cost of its Lineage Release ability)."""

    refs = ("object",)
    object: int
    name: str


def character_name(name: str) -> str:
    """Lineage (term) 2: a champion's name without its title or moniker ("Lorraine,
    Wandering Warrior" is "Lorraine")."""
    return name.split(",", 1)[0].strip()


class Lineages(_Base):
    """The Lineage keyword, Lineage Release and Preserve."""

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("lineage_release", "_offer_lineage_release"),
    )

    def _offer_lineage_release(
        self, state: GameState, player: str, o: GameObject
    ) -> list[v.Action]:
        if o.zone != FIELD or len(o.cards) < 2:
            return []
        inner = [state.cards[c].card for c in o.cards[1:]]
        return [
            LineageRelease(object=o.id, name=c.name)
            for c in inner
            if LINEAGE_RELEASE in c.front.abilities
        ]

    # --- Lineage (keyword) -------------------------------------------------------------------

    def _level_up_refused(self, state: GameState, champ: GameObject, card: GameObject) -> Rulings:
        """Leveling Up's checks, then Lineage 1: a champion card with "Lineage X" is levelled
        up only from a champion whose character name is X (Lineage (term) 2)."""
        refused = super()._level_up_refused(state, champ, card)
        if refused:
            return refused
        for ability in state.card_def(card).front.abilities:
            found = _LINEAGE.match(ability)
            if found is None:
                continue
            want = found["name"].strip()
            have = self._chars(state, champ).names
            now = character_name(have[0]) if have else ""
            if now != want:
                why = f"it must be levelled from a previous {want} champion, not {now or 'none'}"
                return self.cite("Lineage 1", why)
        return ()

    # --- Lineage Release -----------------------------------------------------------------------

    def lineage_release(self, state: GameState, a: LineageRelease) -> Outcome:
        """Lineage Release 1: its cost banishes the card from the champion's inner lineage;
        2: only the card whose ability it is; 3: only from the inner lineage, not the
        champion on top. (The ability's effect is the card's own: not modelled.)"""
        champ = state.objects[a.object]
        if champ.zone != FIELD or not _typed(self._chars(state, champ), "CHAMPION"):
            why = "a Lineage Release card is banished from a champion's inner lineage"
            return Outcome(state, ILLEGAL, self.cite("Lineage Release 3", why))
        cards = [(c, state.cards[c].card) for c in champ.cards]
        if cards and cards[0][1].name == a.name:
            why = f"{a.name} is the champion itself, not in its inner lineage"
            return Outcome(state, ILLEGAL, self.cite("Lineage Release 3", why))
        found = [c for c, card in cards[1:] if card.name == a.name]
        if not found:
            why = f"no card named {a.name} in the champion's inner lineage"
            return Outcome(state, ILLEGAL, self.cite("Lineage Release 3", why))
        if LINEAGE_RELEASE not in state.cards[found[0]].card.front.abilities:
            why = f"{a.name} has no Lineage Release ability: it can't be banished for one"
            return Outcome(state, ILLEGAL, self.cite("Lineage Release 2", why))
        return self._release(state, champ, found[0])

    def _release(self, state: GameState, champ: GameObject, card: int) -> Outcome:
        """Banish ``card`` from ``champ``'s inner lineage: a card of its own in banishment."""
        rest = tuple(c for c in champ.cards if c != card)
        state = core.replace_object(state, champ, replace(champ, cards=rest))
        owner = state.cards[card].owner
        oid, ts = state.next_id, state.clock + 1
        gone = GameObject(
            id=oid, cards=(card,), zone=BANISHMENT, owner=owner, controller=owner, timestamp=ts
        )
        state = self.place(replace(state, next_id=oid + 1, clock=ts), gone, None)
        name = state.cards[card].card.name
        rulings = self.cite(
            "Lineage Release 1", f"{name} is banished from the champion's inner lineage"
        )
        return Outcome(state, DONE, rulings, (Event("banish", oid, card, champ.controller),))

    # --- Preserve -----------------------------------------------------------------------------

    def is_preserved(self, state: GameState, obj: GameObject) -> bool:
        """Preserve 3, 4: a Preserved card in the material deck is face up (public) there."""
        return core.mentions(state.designations, core.DESIGNATED, obj.id) and (
            (PRESERVED, obj.id) in state.designations
        )

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """Preserve 2: a non-object card with Preserve that would be put into the graveyard
        as it resolves goes to its owner's material deck instead, revealed and Preserved."""
        obj = state.objects[a.object]
        if (
            obj.zone != self.stack_zone
            or self.is_permanent(state, obj)
            or PRESERVE not in self._chars(state, obj).props.abilities
            or self.plan_resolve(state, obj)[0] != GRAVEYARD
        ):
            return super().resolve(state, a)
        why = "a non-object card with Preserve goes to its owner's material deck, Preserved"
        return self._preserve(state, obj, self.cite("Preserve 2", why))

    def move_object(self, state: GameState, a: v.Move, **how: Any) -> Outcome:
        """Preserve 1: an object with Preserve destroyed (sent from the field to the
        graveyard) is then put into its owner's material deck revealed and Preserved (its
        trigger, resolved at once); 1.1: not if it was banished instead."""
        before = state.objects[a.object]
        preserve = before.zone == FIELD and PRESERVE in self._chars(state, before).props.abilities
        out = super().move_object(state, a, **how)
        if not preserve or out.result != DONE:
            return out
        now = out.state.object_of_card(before.card)
        if now is None or now.zone != GRAVEYARD:
            return out
        why = "destroyed, an object with Preserve goes to its owner's material deck, Preserved"
        done = self._preserve(out.state, now, self.cite("Preserve 1", why))
        return replace(
            done, rulings=(*out.rulings, *done.rulings), events=(*out.events, *done.events)
        )

    def _preserve(self, state: GameState, obj: GameObject, why: Rulings) -> Outcome:
        """Put ``obj`` into its owner's material deck face up, Preserved (Preserve 3, 4)."""
        out = super().move_object(state, v.Move(object=obj.id, to=MATERIAL_DECK))
        new = out.state.object_of_card(obj.card)
        if out.result != DONE or new is None:
            return out
        designations = core.adding(out.state.designations, (PRESERVED, new.id))
        state = replace(out.state, designations=designations)
        shown = self.cite("Preserve 3", "it stays face up (public) in the material deck")
        return Outcome(state, DONE, why + out.rulings + shown, out.events)


ACTIONS: Final[tuple[type[v.Action], ...]] = (LineageRelease,)
