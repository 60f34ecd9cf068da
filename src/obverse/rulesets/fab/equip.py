"""Flesh and Blood, equipping and control: equip (8.5.41, 3.16.2a, 8.2.1b, 8.2.2b, 8.2.10b,
8.3.39a), gaining control of an equipped object (8.5.35, 8.5.35a), give (8.5.53) and steal
(8.5.54), exchange (8.5.49), and who may look at a face-down equipped card (3.0.3a).

The engine files a card under its owner's zones; an equipment or weapon zone an object is
equipped to is its controller's (1.3.1b: it enters the arena under its owner's control, and a
gain of control re-equips it to the new controller, 8.5.35a). So "the player's chest zone" is
the chest zone objects the player controls are equipped to, whoever owns them.
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import Face
from obverse.characteristics import characteristics
from obverse.rulesets.base import Rulings
from obverse.rulesets.fab.arena import EQUIPMENT_ZONES, SUB_CARDS
from obverse.rulesets.fab.zones import zone_name
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, NOTHING, Event, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.fab.arena import FabArena as _Base
else:
    _Base = object

replace = msgspec.structs.replace

#: 8.5.41a, 8.5.41b: the zone each equipping subtype is equipped to.
EQUIP_ZONE: Final = {
    "Arms": "arms",
    "Chest": "chest",
    "Head": "head",
    "Legs": "legs",
    "1H": "weapon",
    "2H": "weapon",
    "Off-Hand": "weapon",
    "Quiver": "weapon",
}
#: 8.5.41c with 3.2.2, 3.5.2, 3.10.2, 3.12.2, 3.16.2: each zone holds one equipped object.
ZONE_RULE: Final = {
    "arms": "3.2.2",
    "chest": "3.5.2",
    "head": "3.10.2",
    "legs": "3.12.2",
    "weapon": "3.16.2",
}
#: The rule that says a weapon-zone card needs an empty weapon zone, by keyword.
WEAPON_RULE: Final = {
    "Perched": "8.3.39a",
    "1H": "8.2.1b",
    "Off-Hand": "8.2.10a",
    "Quiver": "8.2.15a",
}
#: 3.0.2: a player has two weapon zones.
WEAPON_ZONES: Final = 2


class Equip(v.Action, frozen=True, tag="equip"):
    """Equip ``object`` for its owner (8.5.41): into the zone its subtype decides (8.5.41a:
    no zone is specified)."""

    refs = ("object",)
    object: int


class Give(v.Action, frozen=True, tag="give"):
    """The controller of ``object`` gives it to ``to`` (8.5.53), who gains control of it."""

    refs = ("object",)
    player_fields = ("to",)
    object: int
    to: str


class Steal(v.Action, frozen=True, tag="steal"):
    """``player`` steals ``object`` (8.5.54): they gain control of it."""

    refs = ("object",)
    player_fields = ("player",)
    object: int
    player: str


class Exchange(v.Action, frozen=True, tag="exchange"):
    """``object`` and ``other`` swap zone, visibility and control (8.5.49)."""

    refs = ("object", "other")
    reads_choice = True
    object: int
    other: int


class FabEquip(_Base):
    """FaB's equip, control of equipped objects, give, steal and exchange."""

    # --- can it be equipped (8.5.41b, 8.5.41c, 8.2.x, 8.3.39a) -------------------------------

    def equip_refusal(
        self,
        state: GameState,
        obj: GameObject,
        zone: str | None,
        player: str,
        leaving: int | None = None,
    ) -> tuple[str | None, Rulings]:
        """The zone ``obj`` would be equipped to for ``player`` (8.5.41a), or ``None`` with the
        rules that stop it (8.5.41b, 8.5.41c, 3.16.2a, 8.2.1b, 8.2.2b, 8.2.10b, 8.3.39a);
        ``leaving``: an object leaving the zone in the same event (an exchange's other)."""
        # a face-down (cloaked) card is equipped by what it is: its printed front
        props = state.card_def(obj).faces[0] if obj.face_down else self._props(state, obj)
        target = next((EQUIP_ZONE[s] for s in props.subtypes if s in EQUIP_ZONE), None)
        if target is None or (zone is not None and zone != target):
            why = f"it has no subtype that equips it to {zone_name(zone or 'an equipment')}"
            return None, self.cite("8.5.41b", why)
        others = [
            o
            for o in state.iter_objects()
            if o.id not in (obj.id, leaving) and o.zone == target and o.controller == player
        ]
        if target != "weapon":
            if others:
                why = f"{player}'s {zone_name(target)} is not empty: it can't be equipped there"
                return None, (self.cite("8.5.41c", why) + self.cite(ZONE_RULE[target], why))
            return target, ()
        return self._weapon_refusal(state, obj, props.subtypes, props.abilities, others, player)

    def _weapon_refusal(
        self,
        state: GameState,
        obj: GameObject,
        subtypes: tuple[str, ...],
        abilities: tuple[str, ...],
        others: list[GameObject],
        player: str,
    ) -> tuple[str | None, Rulings]:
        """Weapon zones: a two-hander needs both (8.2.2b); a perched card may sit in the zone
        a two-hander is equipped to but doesn't occupy (8.3.39a); one off-hand (8.2.10b)."""
        subs = [
            state.card_def(o).faces[0] if o.face_down else self._props(state, o) for o in others
        ]
        two_handers = sum("2H" in p.subtypes for p in subs)
        perched = sum("Perched" in p.abilities for p in subs)
        used = sum(2 if "2H" in p.subtypes else 1 for p in subs) - min(perched, two_handers)
        free = WEAPON_ZONES - used
        if "Off-Hand" in subtypes and any("Off-Hand" in p.subtypes for p in subs):
            return None, self.cite("8.2.10b", f"{player} can't equip more than one off-hand")
        if "2H" in subtypes:
            if free < WEAPON_ZONES:
                why = f"a two-hander needs two empty weapon zones; {player} has {free}"
                return None, self.cite("8.2.2b", why)
            return "weapon", self.cite("8.2.2c", "it occupies one of the two zones, not both")
        if "Perched" in abilities and two_handers > perched:
            why = "perched: it is equipped to, and occupies, the weapon zone the two-hander "
            return "weapon", self.cite("8.3.39a", why + "is equipped to but doesn't occupy")
        if free < 1:
            why = f"{player} has no empty weapon zone"
            rule = next(
                (r for s, r in WEAPON_RULE.items() if s in (*abilities, *subtypes)), "8.5.41c"
            )
            return None, (self.cite(rule, why) + self.cite("3.16.2", why))
        return "weapon", ()

    def _props(self, state: GameState, obj: GameObject) -> Face:
        return characteristics(state, obj, self).props

    # --- equip (8.5.41) ----------------------------------------------------------------------

    def equip(self, state: GameState, a: Equip) -> Outcome:
        """8.5.41: the object goes into the equipment or weapon zone its subtype decides
        (8.5.41a) as a permanent; 8.5.41e: if it can't be equipped it stays where it is."""
        obj = state.objects[a.object]
        if obj.zone in EQUIPMENT_ZONES:
            return Outcome(state, NOTHING, self.cite("8.5.41c", "it is already equipped"))
        zone, why = self.equip_refusal(state, obj, None, obj.owner)
        if zone is None:
            why += self.cite("8.5.41e", "it can't be equipped, so it doesn't become a permanent")
            return Outcome(state, NOTHING, why)
        out = self.move_object(state, v.Move(object=obj.id, to=zone))
        if out.result != DONE:
            return out
        rulings = (
            *self.cite("8.5.41", f"equipped to {obj.owner}'s {zone_name(zone)} as a permanent"),
            *self.cite(
                "8.5.41a", f"no zone is specified: its subtype decides the {zone_name(zone)}"
            ),
            *why,
            *out.rulings,
        )
        return Outcome(out.state, DONE, rulings, out.events)

    # --- control (8.5.35, 8.5.35a, 8.5.53, 8.5.54) -------------------------------------------

    def change_control(self, state: GameState, a: v.ChangeControl) -> Outcome:
        """8.5.35: ``to`` gains control of the object; 8.5.35a: an equipped object is equipped
        by the new controller as part of the gain, and the gain fails if it can't be; 1.3.1b:
        only a card in the arena or on the stack has a controller."""
        return self._gain(state, state.objects[a.object], a.to, "8.5.35")

    def give(self, state: GameState, a: Give) -> Outcome:
        """8.5.53: ``to`` gains control of the object; 8.5.53a: its controller has given;
        8.5.53b: an equipped object is equipped by the new controller, or the give fails."""
        giver = state.objects[a.object].controller
        out = self._gain(state, state.objects[a.object], a.to, "8.5.53")
        if out.result != DONE:
            return out
        extra = self.cite("8.5.53a", f"{giver} has given")
        return Outcome(out.state, DONE, (*out.rulings, *extra), out.events)

    def steal(self, state: GameState, a: Steal) -> Outcome:
        """8.5.54: ``player`` gains control of the object; 8.5.54a: they have stolen;
        8.5.54b: an equipped object is equipped by them, or the steal fails."""
        out = self._gain(state, state.objects[a.object], a.player, "8.5.54")
        if out.result != DONE:
            return out
        extra = self.cite("8.5.54a", f"{a.player} has stolen")
        return Outcome(out.state, DONE, (*out.rulings, *extra), out.events)

    def _gain(self, state: GameState, obj: GameObject, player: str, rule: str) -> Outcome:
        if not (self.is_in_play(obj.zone) or obj.zone == self.stack_zone):
            why = "only a card in the arena or on the stack has a controller: nothing changes"
            return Outcome(state, NOTHING, self.cite("1.3.1b", why))
        if obj.controller == player:
            same = f"{player} already controls it: nothing changes"
            return Outcome(state, NOTHING, self.cite(rule, same))
        rulings = self.cite(rule, f"{player} gains control of it")
        if obj.zone in EQUIPMENT_ZONES:
            zone, refusal = self.equip_refusal(state, obj, obj.zone, player)
            sub = {"8.5.35": "8.5.35a", "8.5.53": "8.5.53b", "8.5.54": "8.5.54b"}[rule]
            if zone is None:
                fail = f"it can't be equipped by {player}: the effect fails"
                return Outcome(state, NOTHING, (*self.cite(sub, fail), *refusal))
            moved = f"equipped, it is equipped by {player} as part of the same event"
            rulings += (*self.cite(sub, moved), *refusal)
        state = core.update(state, replace(obj, controller=player))
        state = self.after_control_change(state, obj, player)
        return Outcome(state, DONE, rulings, (Event("control", obj.id, obj.card, player),))

    # --- exchange (8.5.49) -------------------------------------------------------------------

    def exchange(self, state: GameState, a: Exchange) -> Outcome:
        """8.5.49: the two objects swap zone, visibility and control; 8.5.49a: if either
        can't complete its move, the effect fails (nothing changes); 8.5.49b: one moving into
        an equipment zone must be equipped there by that zone's controller."""
        one, two = state.objects[a.object], state.objects[a.other]
        if one.id == two.id or one.zone == two.zone:
            same = "the objects are in the same zone: there is nothing to swap"
            return Outcome(state, NOTHING, self.cite("8.5.49", same))
        rulings: Rulings = ()
        for mover, into in ((one, two), (two, one)):
            if into.zone in EQUIPMENT_ZONES:
                zone, refusal = self.equip_refusal(
                    state, mover, into.zone, into.controller, leaving=into.id
                )
                if zone is None:
                    fail = "it can't be equipped in the zone it would go to: the exchange fails"
                    return Outcome(state, NOTHING, (*self.cite("8.5.49b", fail), *refusal))
                rulings += self.cite("8.5.49b", "it is equipped as part of the move")
        before = state
        events: list[Event] = []
        for mover, into in ((one, two), (two, one)):
            # the other's visibility: face down, public (3.0.4d in a private zone) or private
            seen = None if not (into.face_down or self.is_public_object(into)) else into.face_down
            out = self.move_object(state, v.Move(object=mover.id, to=into.zone, face_down=seen))
            if out.result != DONE:
                why = "one of the objects can't complete its move: the exchange fails"
                return Outcome(before, NOTHING, (*self.cite("8.5.49a", why), *out.rulings))
            state = out.state
            rulings += out.rulings
            events.extend(out.events)
        state = self._swap_control(state, one, two)
        why = "the objects swap their zones, visibility and control in one move event"
        return Outcome(state, DONE, (*self.cite("8.5.49", why), *rulings), tuple(events))

    def _swap_control(self, state: GameState, one: GameObject, two: GameObject) -> GameState:
        """Each object, now where the other was, has the other's controller there (in the
        arena or on the stack; elsewhere its owner controls it)."""
        for card, other in ((one.card, two), (two.card, one)):
            now = state.object_of_card(card)
            if now is not None and (self.is_in_play(now.zone) or now.zone == self.stack_zone):
                state = core.update(state, replace(now, controller=other.controller))
        return state

    def cannot_contain(self, state: GameState, obj: GameObject, zone: str) -> Rulings:
        """8.1.14: a companion card is an arena-card, so no zone of deck-cards holds it."""
        refused = super().cannot_contain(state, obj, zone)
        if refused and "Companion" in characteristics(state, obj, self).props.types:
            refused += self.cite("8.1.14", "a companion card is an arena-card")
        return refused

    # --- looking (3.0.3a) --------------------------------------------------------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """3.0.3a: a player may look at a private object in a zone they own: a face-down card
        equipped to a zone of its controller (who gained control of it, 8.5.35a)."""
        if (
            viewer is not None
            and obj.face_down
            and obj.zone in EQUIPMENT_ZONES
            and viewer == obj.controller
        ):
            return True
        return super().may_look(state, viewer, obj)

    # --- candidates --------------------------------------------------------------------------

    # Every object (and player): the kernel decides (8.5.41, 8.5.53, 8.5.54).
    def _offer_equip(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Equip(object=o.id)]

    def _offer_give(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Give(object=o.id, to=p) for p in state.players]

    def _offer_steal(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Steal(object=o.id, player=p) for p in state.players]

    # An exchange's other object is a free target (8.5.49): any object in another zone, each
    # decided by itself (whether both moves complete depends on the pair: 8.5.49a, b).
    def _targets_exchange(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        if o.zone == SUB_CARDS:  # a sub-card moves with its top-card (3.0.14)
            return None
        # One set per zone, shared by the objects there (an object in another zone each).
        objects, zone = state.objects, o.zone
        ids = ctx.subset(
            ("exchange", zone),
            "identified",
            lambda ids: [x for x in ids if (z := objects[x].zone) != SUB_CARDS and z != zone],
        )
        if not ids:
            return None
        excluded: frozenset[int] = frozenset()
        first = ids[0]
        return Targets(Exchange(object=o.id, other=first), "other", ids, excluded, True)


#: This module's per-object generators (see :attr:`Offers.object_offers`).
EQUIP_OFFERS: Final = (
    ("equip", "_offer_equip"),
    ("give", "_offer_give"),
    ("steal", "_offer_steal"),
)

#: Its free-target offers (see :attr:`Offers.target_offers`).
EQUIP_TARGETS: Final = (("exchange", "_targets_exchange"),)
