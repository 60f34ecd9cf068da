"""Grand Archive keywords and counters on objects: Immortality, Renewable, buff counters,
siegeable domains, deleveling and recollection.

Rule ids are the GA glossary's entry headings and item numbers ("Immortality 1.1", "Buff
Counters 1"), a page's section heading and item ("Deleveling 1" of the champion page,
"Siegeable 2.3" of the functional subtypes page, "Recollection Phase 3"), as
:mod:`obverse.rulesets.ga.objects` cites its headings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.characteristics import Characteristics
from obverse.rulesets.base import Rulings
from obverse.rulesets.ga.objects import (
    BANISHMENT,
    DAMAGE,
    DURABILITY,
    FIELD,
    GRAVEYARD,
    IMMORTALITY,
    MATERIAL_DECK,
    _set,
    _typed,
)
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState, Knowledge

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.ga.objects import FieldObjects as _Base
else:
    _Base = object

replace = msgspec.structs.replace

#: Buff Counters 1: a buff counter adds +1 to an object's power and +1 to its life.
BUFF: Final = "buff"
#: Renewable 1: a regalia that would be banished from the field or an intent goes to the
#: material deck.
RENEWABLE: Final = "Renewable"
INTENT: Final = "intent"
MEMORY: Final = "memory"
HAND: Final = "hand"


class Delevel(v.Action, frozen=True, tag="delevel"):
    """Deleveling 1: the top-most champion card of the champion's lineage returns to the
    material deck."""

    refs = ("object",)
    object: int


class Recollect(v.Action, frozen=True, tag="recollect"):
    """Recollection Phase 3: ``player`` returns every card in their memory to their hand."""

    player_fields = ("player",)
    subject = None
    player: str


class Keywords(_Base):
    """Immortality (an immortal object is never sent from the field to the graveyard, save
    by the Unique rule) and buff counters (static +1 power, +1 life each)."""

    # Buff Counters 1, 2: each buff counter is a static +1 to power and to life; the
    # counters stay on the object as it transforms (Double-faced Cards 9: the same object).
    pt_counters: ClassVar[Mapping[str, tuple[int, int]]] = {BUFF: (1, 1)}
    pt_counter_stats: ClassVar[tuple[str, str]] = ("power", "life")

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("delevel", "_offer_delevel"),)

    def _offer_delevel(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Delevel(object=o.id)] if o.zone == FIELD and len(o.cards) > 1 else []

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The shuffles, and recollecting each memory that holds a card (it names no
        object: not one object's offer)."""
        out = super().loose_candidates(state, player, verb)
        if verb in (None, "recollect"):
            for who in (player,) if player else state.players:
                if state.zone_contents(self.zone_key(MEMORY, who)):
                    out.append(Recollect(player=who))
        return out

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """Immortality 1: an immortal object can't be sent from the field to the graveyard
        (where its rules would put it: a regalia is banished instead, Regalia 4); the move
        does nothing. The state-based checks don't use this procedure: Immortality 2 (the
        Unique rule) still puts one into the graveyard."""
        obj = state.objects[a.object]
        if obj.zone == FIELD and self.is_immortal(state, obj):
            dest = self.destination(state, obj, a.to).value
            if dest == GRAVEYARD:
                why = "an immortal object can't be sent from the field to the graveyard"
                return Outcome(state, NOTHING, self.cite("Immortality 1", why))
        return super().move(state, a)

    def add_counters(self, state: GameState, a: v.AddCounters) -> Outcome:
        """Buff Counters 1, 2: buff counters raise power and life by one each, statically;
        Siegeable 2.1: damage to a siegeable domain removes that many durability counters."""
        obj = state.objects[a.object]
        if a.counter == DAMAGE and obj.zone == FIELD and _siegeable(self._chars(state, obj)):
            return self._siege_damage(state, obj, a.count)
        out = super().add_counters(state, a)
        if a.counter != BUFF or out.result != DONE:
            return out
        why = f"{a.count} buff counter(s): +{a.count} power and +{a.count} life, statically"
        return replace(out, rulings=(*self.cite("Buff Counters 1", why), *out.rulings))

    # --- Renewable ---------------------------------------------------------------------------

    def renewable_destination(
        self, state: GameState, obj: GameObject, decided: Decided[str]
    ) -> Decided[str]:
        """Renewable 1: a regalia with Renewable that would be banished from the field or an
        intent goes to its owner's material deck instead, also when banishment is itself a
        replacement (Regalia 4: a regalia that would go to the graveyard is banished); 2: from
        no other zone."""
        if decided.value != BANISHMENT or obj.zone not in (FIELD, INTENT) or obj.face_down:
            return decided
        chars = self._chars(state, obj)
        if RENEWABLE not in chars.props.abilities or not _typed(chars, "REGALIA"):
            return decided
        why = "a Renewable regalia that would be banished from the field goes to the material deck"
        return Decided(MATERIAL_DECK, (*decided.rulings, *self.cite("Renewable 1", why)))

    # --- siegeable domains --------------------------------------------------------------------

    def _siege_damage(self, state: GameState, obj: GameObject, n: int) -> Outcome:
        """Siegeable 2.1: damage removes durability counters, none marked; 2.3 the state-based
        checks destroy the domain when none is left."""
        have = dict(obj.counters).get(DURABILITY, 0)
        left = _set(obj.counters, DURABILITY, max(0, have - n))
        state = core.update(state, replace(obj, counters=left))
        why = f"{n} damage to a siegeable domain removes {min(n, have)} durability counter(s)"
        event = Event("counters", obj.id, obj.card, detail=f"{DURABILITY}-{min(n, have)}")
        return self._checked(Outcome(state, DONE, self.cite("Siegeable 2.1", why), (event,)))

    def _failing_check(self, state: GameState) -> tuple[int, Rulings] | None:
        """The checks of :class:`FieldObjects`, then Siegeable 2.3, Destruction 6: a
        siegeable domain with no durability counters is destroyed (it does not die: 1.1)."""
        found = super()._failing_check(state)
        if found is not None:
            return found
        for oid in state.zone_contents(FIELD):
            o = state.objects[oid]
            chars = self._chars(state, o)
            if not _siegeable(chars) or IMMORTALITY in chars.props.abilities:
                continue
            if chars.props.durability is not None and not dict(o.counters).get(DURABILITY, 0):
                why = "a siegeable domain with no durability counters is destroyed"
                return o.id, (
                    self.cite("Siegeable 2.3", why)
                    + self.cite("Destruction 6", "it is destroyed; not a unit, it does not die")
                )
        return None

    # --- deleveling (Deleveling 1) ----------------------------------------------------------

    def delevel(self, state: GameState, a: Delevel) -> Outcome:
        """Deleveling 1: the top-most champion card of the lineage returns to the material
        deck; the champion below it stays the same object (as levelling up, Leveling Up 7.2)
        with its counters. A lineage of one card has no card below: nothing happens."""
        champ = state.objects[a.object]
        if champ.zone != FIELD or not _typed(self._chars(state, champ), "CHAMPION"):
            why = "only a champion on the field is deleveled"
            return Outcome(state, ILLEGAL, self.cite("Deleveling 1", why))
        if len(champ.cards) < 2:
            why = "its lineage has no champion card below the top one: nothing to return"
            return Outcome(state, NOTHING, self.cite("Deleveling 1", why))
        top, owner = champ.cards[0], state.cards[champ.cards[0]].owner
        state = core.replace_object(state, champ, replace(champ, cards=champ.cards[1:]))
        oid, ts = state.next_id, state.clock + 1
        back = GameObject(
            id=oid, cards=(top,), zone=MATERIAL_DECK, owner=owner, controller=owner, timestamp=ts
        )
        state = replace(state, next_id=oid + 1, clock=ts)
        state = self.place(state, back, None)
        # Public vs Private Information 6.1.1: it was public on the field; all keep it known.
        seen = tuple(Knowledge(player=p, card=top, obj=oid, lasting=True) for p in state.players)
        state = replace(state, knowledge=core.adding(state.knowledge, *seen))
        why = "the top-most champion card of the lineage returns to the material deck"
        rulings = self.cite("Deleveling 1", why) + self.cite(
            "Leveling Up 7.2", "the champion below is the same object, counters stay"
        )
        event = Event("delevel", champ.id, top, champ.controller)
        return self._checked(Outcome(state, DONE, rulings, (event,)))

    # --- recollection (Recollection Phase 3) -----------------------------------------------

    def recollect(self, state: GameState, a: Recollect) -> Outcome:
        """Recollection Phase 3: the player returns all cards in their memory to their hand
        (a turn-based action of the turn player, not a draw)."""
        if a.player != state.active_player:
            why = f"recollection is the turn player's; it is {state.active_player}'s turn"
            return Outcome(state, ILLEGAL, self.cite("Recollection Phase 3", why))
        ids = state.zone_contents(self.zone_key(MEMORY, a.player))
        if not ids:
            why = f"{a.player}'s memory is empty: nothing returns"
            return Outcome(state, NOTHING, self.cite("Recollection Phase 3", why))
        events: tuple[Event, ...] = ()
        for oid in tuple(ids):
            out = self.move_object(state, v.Move(object=oid, to=HAND))
            state, events = out.state, (*events, *out.events)
        why = f"{a.player} returns all {len(ids)} card(s) in their memory to their hand"
        return Outcome(state, DONE, self.cite("Recollection Phase 3", why), events)


def _siegeable(chars: Characteristics) -> bool:
    """Siegeable 1: a domain with the Siegeable subtype (however spelt)."""
    return _typed(chars, "DOMAIN") and any(t.upper() == "SIEGEABLE" for t in chars.props.subtypes)


ACTIONS: Final[tuple[type[v.Action], ...]] = (Delevel, Recollect)

__all__ = ["ACTIONS", "BUFF", "IMMORTALITY", "Keywords"]
