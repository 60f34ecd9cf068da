"""Grand Archive zones outside the seed's: the Intent (a public zone each champion's player
owns during combat), the Pantheon (a private zone of face-down boons, bestowed from it) and
an object's loaded cards (an object-specific zone).

Rule ids are the zone pages' titles and items ("Intent 1", "Pantheon 4", "Loaded Cards 1.1",
"Object-Specific Zones 1"), the glossary's ("Load 1", "Loaded 3") and the boon card type's
page ("Boons 5").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.ga.objects import FIELD, _typed
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, ILLEGAL, NOTHING, Event, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.ga.lineage import Lineages as _Base
else:
    _Base = object

replace = msgspec.structs.replace

PANTHEON: Final = "pantheon"
#: Boons 2: the two boon card types of the Pantheon format.
BOON_TYPES: Final = ("LESSER BOON", "GREATER BOON")
BESTOWED: Final = "bestowed"
#: Loaded Cards: the pseudo-zone of the cards loaded underneath an object (``under`` names it).
LOADED: Final = "loaded"
#: Loaded 3: the designation of an object that has loaded cards.
LOADED_MARK: Final = "loaded"


class Load(v.Action, frozen=True, tag="load"):
    """Load 1: the card ``object`` is moved from its zone underneath ``into``, an object on
    the field, and becomes one of its loaded cards."""

    refs = ("object", "into")
    reads_choice = True
    object: int
    into: int


class Bestow(v.Action, frozen=True, tag="bestow"):
    """Pantheon 3, Boons 4: the boon ``object`` is played from its owner's Pantheon by being
    bestowed; it stays there (Boons 5)."""

    refs = ("object",)
    object: int


class Pantheon(_Base):
    """The Intent and the Pantheon zones, and bestowing a boon."""

    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("load", "_targets_load"),)

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("bestow", "_offer_bestow"),)

    def _targets_load(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Load 1: ``o`` loaded into an object on the field, a free target (each decided)."""
        if o.zone in (FIELD, LOADED):
            return None
        objects = state.objects
        ids = ctx.subset(
            "load", "identified", lambda ids: [x for x in ids if objects[x].zone == FIELD]
        )
        first = next((x for x in ids if x != o.id), None)
        if first is None:
            return None
        return Targets(Load(object=o.id, into=first), "into", ids, frozenset({o.id}), True)

    def _offer_bestow(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Bestow(object=o.id)] if o.zone == PANTHEON else []

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """Pantheon 3: a player bestows only their own boons (their Pantheon is private:
        another player is refused the same way whatever the card is)."""
        if isinstance(action, Bestow):
            obj = state.objects[action.object]
            if obj.owner != actor:
                why = f"{actor} may bestow only boons from their own Pantheon"
                return Outcome(state, ILLEGAL, self.cite("Pantheon 3", why))
        return super().refuse_actor(state, action, actor)

    def bestow(self, state: GameState, a: Bestow) -> Outcome:
        """Pantheon 3, Boons 4: a boon in its owner's Pantheon is bestowed: turned face up
        (public from then on), it stays in the Pantheon (Boons 5), bestowed once."""
        obj = state.objects[a.object]
        if obj.zone != PANTHEON:
            why = "a boon is bestowed from its owner's Pantheon"
            return Outcome(state, ILLEGAL, self.cite("Pantheon 3", why))
        up = replace(obj, face_down=False, set_face_down=False, face="front")
        if not _typed(self._chars(state, up), *BOON_TYPES):
            why = "only a Lesser Boon or a Greater Boon is bestowed"
            return Outcome(state, ILLEGAL, self.cite("Boons 4", why))
        if (BESTOWED, obj.id) in state.designations:
            why = "it has already been bestowed: it stays in the Pantheon"
            return Outcome(state, NOTHING, self.cite("Boons 5", why))
        state = core.update(state, up)
        state = replace(state, designations=core.adding(state.designations, (BESTOWED, obj.id)))
        rulings = self.cite(
            "Pantheon 3", "the boon is played from the Pantheon by bestowing it"
        ) + self.cite("Boons 5", "bestowed, it stays in the Pantheon, not an object")
        events = (Event("turn_face_up", obj.id, obj.card, obj.controller),)
        return Outcome(state, DONE, rulings, events)

    def shown(self, state: GameState, obj: GameObject) -> bool:
        """A face-up card public in a private zone: Preserved in the material deck (Preserve
        3) or a bestowed boon in the Pantheon (Boons 5)."""
        if not core.mentions(state.designations, core.DESIGNATED, obj.id):
            return False
        return self.is_preserved(state, obj) or (BESTOWED, obj.id) in state.designations

    # --- loaded cards (Load, Loaded, Loaded Cards, Object-Specific Zones) ---------------------

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[object, ...]:
        """Also the cards loaded into ``o`` (Loaded Cards 4: they leave with it)."""
        return (*super().offer_inputs(state, o), _loaded(state).get(o.id, ()))

    def load(self, state: GameState, a: Load) -> Outcome:
        """Load 1: the card moves from its zone underneath the object; Loaded Cards 2: it is
        no object, only a card; Loaded 3: the object is loaded."""
        card, top = state.objects[a.object], state.objects[a.into]
        if top.zone != FIELD or card.zone in (FIELD, LOADED) or card.id == top.id:
            why = "a card from a zone other than the field is loaded underneath an object"
            return Outcome(state, ILLEGAL, self.cite("Load 1", why))
        out = super().move_object(state, v.Move(object=card.id, to=LOADED))
        new = out.state.object_of_card(card.card)
        if out.result != DONE or new is None or new.zone != LOADED:
            return out
        state = core.update(out.state, replace(new, under=top.id))
        if (LOADED_MARK, top.id) not in state.designations:
            mark = (LOADED_MARK, top.id)
            state = replace(state, designations=core.adding(state.designations, mark))
        rulings = (
            self.cite("Load 1", "the card is moved underneath the object: it is loaded")
            + self.cite("Loaded Cards 2", "a loaded card is no object, only a card")
            + self.cite("Loaded 3", "the object has loaded cards: it is loaded")
        )
        return Outcome(state, DONE, (*rulings, *out.rulings), out.events)

    def move_object(self, state: GameState, a: v.Move, **how: Any) -> Outcome:
        """A move; Object-Specific Zones 1: an object leaving the field puts its loaded
        cards into the graveyard (a regalia: banishment, Regalia 4); a loaded card leaving
        stops being one (Loaded 3: an object with none left is no longer loaded)."""
        before = state.objects[a.object]
        out = super().move_object(state, a, **how)
        if out.result != DONE:
            return out
        if before.zone == LOADED:
            return replace(out, state=self._unload(out.state, before))
        if before.zone != FIELD or (LOADED_MARK, before.id) not in state.designations:
            return out
        state, rulings, events = out.state, out.rulings, out.events
        for sub in [o for o in state.iter_objects() if o.under == before.id]:
            gone = super().move_object(state, v.Move(object=sub.id, to="graveyard"))
            state = self._unload(gone.state, sub)
            rulings, events = (*rulings, *gone.rulings), (*events, *gone.events)
        why = "the object left the field: its loaded cards go to the graveyard"
        rulings = (*rulings, *self.cite("Object-Specific Zones 1", why))
        return replace(out, state=state, rulings=rulings, events=events)

    def _unload(self, state: GameState, before: GameObject) -> GameState:
        """The card ``before`` was loaded is no longer under anything; Loaded 3: an object
        with no loaded card left is no longer loaded."""
        now = state.object_of_card(before.card)
        if now is not None and now.under is not None:
            state = core.update(state, replace(now, under=None))
        top = before.under
        if top is None or any(o.under == top for o in state.iter_objects()):
            return state
        kept = tuple(d for d in state.designations if d != (LOADED_MARK, top))
        return replace(state, designations=kept)


ACTIONS: Final[tuple[type[v.Action], ...]] = (Bestow, Load)


@memo.last("state.zones, state.objects")  # compiled: every offer listing asks
def _loaded(state: GameState) -> dict[int, tuple[GameObject, ...]]:
    """The loaded cards under each object, by its id."""
    found: dict[int, tuple[GameObject, ...]] = {}
    for who in state.players:
        for i in state.zones.get(state.zone_key(LOADED, who)) or ():
            x = state.objects[i]
            if x.under is not None:
                found[x.under] = (*found.get(x.under, ()), x)
    return found
