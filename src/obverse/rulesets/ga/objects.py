"""Grand Archive objects on the field: orientation (rested or awake), durability and damage
counters and the state-based checks they feed, champions levelling up, Ephemeral and Unique.

Rule ids are GA CR headings and item numbers as a judge looks them up: the heading of the
entry that holds the item (the glossary's "Rest/Rested" is cited ``Rest``, the supertype
entry ``Unique``, the champion page's "Leveling Up" section ``Leveling Up``, the "Types of
Checks" of the state-based checks page ``State-based Checks``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import InputError, RulesError
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only (at run time a flat mixin)
    _Base = Ruleset
else:
    _Base = object

replace = msgspec.structs.replace

FIELD: Final = "field"
STACK: Final = "stack"
GRAVEYARD: Final = "graveyard"
BANISHMENT: Final = "banishment"
MATERIAL_DECK: Final = "material_deck"
#: The designation an ephemeral object carries (bound to the object, not to its card).
EPHEMERAL: Final = "Ephemeral"
DAMAGE: Final = "damage"
DURABILITY: Final = "durability"
#: Glossary, Unit: champions and allies are units.
UNIT_TYPES: Final = frozenset({"CHAMPION", "ALLY"})
#: Immortality 1: an object with this keyword can't be sent from the field to the graveyard.
IMMORTALITY: Final = "Immortality"


class Rest(v.Action, frozen=True, tag="rest"):
    """Rest an object on the field (GA Rest 1): turn it sideways."""

    refs = ("object",)
    object: int


class WakeUp(v.Action, frozen=True, tag="wake_up"):
    """Wake up a rested object on the field (GA Wake Up 1): turn it upright."""

    refs = ("object",)
    object: int


#: Resting and waking up (see ``FieldObjects._turn``): the verb, the status reached,
#: the turn, the rule that does it and the rule that refuses it when already so.
_TURNS: Final = {
    True: ("rest", "rested", "upright to sideways", "Rest 1", "Rest 5"),
    False: ("wake up", "awake", "sideways to upright", "Wake Up 1", "Wake Up 2"),
}


class LevelUp(v.Action, frozen=True, tag="level_up"):
    """Level up the champion ``object``: the champion card ``card`` (in the material deck) is
    placed on top of its lineage (GA Leveling Up 1)."""

    refs = ("object", "card")
    object: int
    card: int


#: Removing counters: one action class for the games that have it (MTG's too), so the union
#: of every game's actions has one ``remove_counters`` tag.
RemoveCounters = v.RemoveCounters


class FieldObjects(_Base):
    """The GA rules of objects on the field (their procedures and the state-based checks they
    run): a flat mixin of :class:`~obverse.rulesets.ga.GrandArchive`."""

    setup_keys: ClassVar[Mapping[str, str]] = {
        "rested": "bool",
        "ephemeral": "bool",
        "counters": "counters",
    }

    # --- candidates -------------------------------------------------------------------------

    #: Also, on the field: resting, waking up, removing a durability counter and levelling a
    #: champion up with each champion card of its material deck.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("rest", "_offer_rest"),
        ("wake_up", "_offer_wake_up"),
        ("remove_counters", "_offer_remove_counters"),
        ("level_up", "_offer_level_ups"),
    )

    def _offer_rest(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Rest(object=o.id)] if o.zone == FIELD else []

    def _offer_wake_up(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [WakeUp(object=o.id)] if o.zone == FIELD else []

    def _offer_remove_counters(
        self, state: GameState, player: str, o: GameObject
    ) -> list[v.Action]:
        # Each kind of counter it has (durability, buff ...): the kernel decides.
        return [RemoveCounters(object=o.id, counter=k) for k, n in o.counters if n]

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[object, ...]:
        """Also, on the field, its controller's material deck (Leveling Up 1: a champion
        levels up with a champion card from there)."""
        if o.zone != FIELD:
            return super().offer_inputs(state, o)
        deck = state.zones.get(self.zone_key(MATERIAL_DECK, o.controller))
        return (*super().offer_inputs(state, o), deck)

    def _offer_level_ups(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone != FIELD or not _typed(self._chars(state, o), "CHAMPION"):
            return []
        return [
            LevelUp(object=o.id, card=c)
            for c in state.zone_contents(self.zone_key(MATERIAL_DECK, o.controller))
            if _typed(self._chars(state, state.objects[c]), "CHAMPION")
        ]

    # --- orientation (Orientation, Rest, Wake Up, Field 5, Hindered, Wake Up Phase) ----------

    def rest(self, state: GameState, a: Rest) -> Outcome:
        """Rest 1: an object on the field turns sideways; Rest 5: an object already rested
        can't rest, nothing happens."""
        return self._turn(state, state.objects[a.object], rested=True)

    def wake_up(self, state: GameState, a: WakeUp) -> Outcome:
        """Wake Up 1: a rested object on the field turns upright; Wake Up 2: an awake one
        can't wake up, nothing happens."""
        return self._turn(state, state.objects[a.object], rested=False)

    def _turn(self, state: GameState, obj: GameObject, rested: bool) -> Outcome:
        """Rest (``rested``) or wake up ``obj``: one procedure, its rules and words per way."""
        verb, word, turn, rule, already = _TURNS[rested]
        if obj.zone != FIELD:
            why = f"only an object on the field can {verb}; nothing happens"
            return Outcome(state, NOTHING, self.cite(rule, why))
        if obj.rested == rested:
            why = f"it is already {word}: it can't {verb}, nothing happens"
            return Outcome(state, NOTHING, self.cite(already, why))
        state = core.update(state, replace(obj, rested=rested))
        why = f"turned from {turn}, it is {word}"
        event = Event(verb.replace(" ", "_"), obj.id, obj.card, obj.controller)
        return Outcome(state, DONE, self.cite(rule, why), (event,))

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """State-based Checks 6: the turn's clean-up removes the allies' damage counters;
        Wake Up Phase 1: the next turn begins by waking up each rested object its player
        controls (the other players' stay rested)."""
        out = super().end_turn(state, a)
        state, rulings = out.state, out.rulings
        for oid in state.zone_contents(FIELD):
            o = state.objects[oid]
            damage = dict(o.counters).get(DAMAGE, 0)
            if damage and _typed(self._chars(state, o), "ALLY"):
                state = core.update(state, replace(o, counters=_set(o.counters, DAMAGE, 0)))
                why = f"the clean-up removes the {damage} damage counters of an ally"
                rulings += self.cite("State-based Checks 6", why)
        player = state.active_player
        woken = [state.objects[i] for i in state.zone_contents(FIELD)]
        woken = [o for o in woken if o.rested and o.controller == player]
        for o in woken:
            state = core.update(state, replace(o, rested=False))
        if woken:
            why = (
                f"the wake up phase wakes up each rested object {player}, the turn player, controls"
            )
            rulings += self.cite("Wake Up Phase 1", why)
        return replace(out, state=state, rulings=rulings)

    # --- entering the field (Field 5, Hindered 1, Durability 2, Ephemerate 3.3) --------------

    def move_object(self, state: GameState, a: v.Move, **how: Any) -> Outcome:
        """:meth:`Ruleset.move_object`; an object entering the field enters awake (or rested,
        Hindered) with its durability counters, and the state-based checks follow."""
        before = state.objects[a.object]
        ephemeral = self.is_ephemeral(state, before)
        out = super().move_object(state, a, **how)
        if out.result != DONE or before.zone == FIELD:  # no entering: nothing to look up
            return out
        new = out.state.object_of_card(before.card)
        if new is None or new.zone != FIELD:
            return out
        state, rulings = self._enters(out.state, before, new, ephemeral)
        return self._checked(replace(out, state=state, rulings=(*out.rulings, *rulings)))

    def _enters(
        self, state: GameState, before: GameObject, new: GameObject, ephemeral: bool
    ) -> tuple[GameState, Rulings]:
        """The status ``new`` enters the field with (``before``: the object it was)."""
        chars = self._chars(state, new)
        if "Hindered" in chars.props.abilities:
            rulings: Rulings = self.cite("Hindered 1", "Hindered: it enters the field rested")
            new = replace(new, rested=True)
        else:
            rulings = self.cite("Field 5", "objects enter the field awake")
        n = chars.props.durability
        if isinstance(n, int) and not isinstance(n, bool):
            new = replace(new, counters=_set(new.counters, DURABILITY, n))
            why = f"it enters the field with {n} durability counters, its durability stat"
            rulings += self.cite("Durability 2", why)
        state = core.update(state, new)
        if ephemeral and before.zone == STACK:
            state = replace(state, designations=(*state.designations, (EPHEMERAL, new.id)))
            why = "activated ephemeral, it becomes an ephemeral object as it enters the field"
            rulings += self.cite("Ephemerate 3.3", why)
        return state, rulings

    # --- Ephemeral --------------------------------------------------------------------------

    def is_ephemeral(self, state: GameState, obj: GameObject) -> bool:
        """Whether the object (not its card: Ephemerate 3.3.1) is ephemeral."""
        return (EPHEMERAL, obj.id) in state.designations

    def ephemeral_destination(
        self, state: GameState, obj: GameObject, zone: str
    ) -> Decided[str] | None:
        """Ephemeral 1.1: an ephemeral object that would leave the field is banished;
        Ephemeral 1.2: an ephemeral activation leaving the effects stack other than onto the
        field is banished. ``None``: the object is not ephemeral, or stays."""
        if not self.is_ephemeral(state, obj) or zone in (obj.zone, BANISHMENT):
            return None
        if obj.zone == FIELD:
            why = (
                f"an ephemeral object that would leave the field for the {_words(zone)} is banished"
            )
            return Decided(BANISHMENT, self.cite("Ephemeral 1.1", why))
        if obj.zone == STACK and zone != FIELD:
            why = (
                "an ephemeral activation leaving the effects stack is banished, not put in "
                f"the {_words(zone)}"
            )
            return Decided(BANISHMENT, self.cite("Ephemeral 1.2", why))
        return None

    # --- counters and the state-based checks ------------------------------------------------

    def add_counters(self, state: GameState, a: v.AddCounters) -> Outcome:
        """Counters, then the state-based checks (damage counters may kill a unit)."""
        return self._checked(super().add_counters(state, a))

    def remove_counters(self, state: GameState, a: RemoveCounters) -> Outcome:
        """Remove up to ``count`` counters (as many as there are), then the state-based
        checks (a weapon left with no durability counters is destroyed)."""
        if a.count < 1:
            raise RulesError(f"count must be at least 1, got {a.count}")
        obj = state.objects[a.object]
        have = dict(obj.counters).get(a.counter, 0)
        if not have:
            return Outcome(state, NOTHING)
        gone = min(have, a.count)
        state = core.update(
            state, replace(obj, counters=_set(obj.counters, a.counter, have - gone))
        )
        detail = f"{a.counter}-{gone}"
        out = Outcome(state, DONE, (), (Event("counters", obj.id, obj.card, detail=detail),))
        return self._checked(out)

    def apply_effect(self, state: GameState, a: v.ApplyEffect) -> Outcome:
        """The effect starts, then the state-based checks (a type or name it gives may break
        the Unique rule)."""
        return self._checked(super().apply_effect(state, a))

    def change_control(self, state: GameState, a: v.ChangeControl) -> Outcome:
        """Control changes, then the state-based checks (the Unique rule)."""
        return self._checked(super().change_control(state, a))

    def _checked(self, out: Outcome) -> Outcome:
        """``out`` with the state-based checks done on its state, their rulings and events."""
        if out.result != DONE:
            return out
        state, rulings, events = self.state_checks(out.state)
        if state is out.state:
            return out
        return replace(
            out, state=state, rulings=(*out.rulings, *rulings), events=(*out.events, *events)
        )

    def state_checks(self, state: GameState) -> tuple[GameState, Rulings, tuple[Event, ...]]:
        """State-based Checks 2-4: units with damage at least their life die, weapons without
        durability counters are destroyed, a player's extra unique objects of one name are
        sacrificed; repeated until none applies."""
        rulings: Rulings = ()
        events: tuple[Event, ...] = ()
        for _ in range(len(state.objects) + 1):
            found = self._failing_check(state)
            if found is None:
                break
            oid, why = found
            out = self.move_object(state, v.Move(object=oid, to=GRAVEYARD))
            state, rulings, events = (
                out.state,
                (*rulings, *why, *out.rulings),
                (*events, *out.events),
            )
        return state, rulings, events

    def is_immortal(self, state: GameState, obj: GameObject) -> bool:
        """Immortality 1: whether the object has Immortality now."""
        return IMMORTALITY in self._chars(state, obj).props.abilities

    def _failing_check(self, state: GameState) -> tuple[int, Rulings] | None:
        """The first object a state-based check removes, with the rulings why; Immortality
        1.1, 1.2: an immortal object neither dies nor is destroyed (Immortality 2: the
        Unique rule still applies)."""
        field = [state.objects[i] for i in state.zone_contents(FIELD)]
        for o in field:
            chars = self._chars(state, o)
            if IMMORTALITY in chars.props.abilities:
                continue
            counters = dict(o.counters)
            life = chars.props.life
            if (
                _typed(chars, *UNIT_TYPES)
                and isinstance(life, int)
                and counters.get(DAMAGE, 0) >= life
            ):
                why = f"the damage marked on it reaches its life {life}: it dies"
                return o.id, (
                    self.cite("State-based Checks 2", why)
                    + self.cite(
                        "Destruction 5", "a unit with damage at least its life is destroyed"
                    )
                )
            if (
                _typed(chars, "WEAPON")
                and not _typed(chars, "REGALIA")
                and chars.props.durability is not None
                and not counters.get(DURABILITY, 0)
            ):
                why = "a weapon with no durability counters is destroyed"
                return o.id, (
                    self.cite("State-based Checks 3", why)
                    + self.cite(
                        "Destruction 4",
                        "a non-regalia weapon with 0 durability counters is destroyed",
                    )
                )
        return self._unique_check(state, field)

    def _unique_check(
        self, state: GameState, field: list[GameObject]
    ) -> tuple[int, Rulings] | None:
        """Unique 1: a player controlling two or more unique objects of one name sacrifices
        all but one (the player chooses; without a choice the newest stays); Unique 2: a
        non-unique object of that name doesn't count."""
        seen: dict[tuple[str, str], list[GameObject]] = {}
        for o in field:
            chars = self._chars(state, o)
            if _typed(chars, "UNIQUE") and chars.names:
                seen.setdefault((o.controller, chars.names[0]), []).append(o)
        for (player, name), objs in seen.items():
            if len(objs) > 1:
                newest = max(objs, key=lambda o: o.timestamp)
                oldest = min((o for o in objs if o is not newest), key=lambda o: o.timestamp)
                why = (
                    f"{player} controls {len(objs)} unique objects named {name}: all but one "
                    "are sacrificed (the player's choice; the newest is kept)"
                )
                return oldest.id, self.cite("Unique 1", why)
        return None

    # --- levelling up (Leveling Up 1, 2, 4, 7.2, 8; Champion 7) -----------------------------

    def level_up(self, state: GameState, a: LevelUp) -> Outcome:
        """Leveling Up 1: the next level champion card is placed on top of the champion's
        lineage; 7.2: the champion is not a new object (its counters, damage and effects
        stay); 4: it keeps its rested or awake orientation."""
        champ, card = state.objects[a.object], state.objects[a.card]
        refused = self._level_up_refused(state, champ, card)
        if refused:
            return Outcome(state, ILLEGAL, refused)
        state = core.forget(self.remove(state, card), card.id)
        up = replace(champ, cards=(card.card, *champ.cards), face="front", face_down=False)
        state = core.replace_object(state, champ, up)
        name = self._chars(state, up).names[0] if self._chars(state, up).names else "it"
        orientation = "rested" if up.rested else "awake"
        rulings: Rulings = (
            self.cite(
                "Leveling Up 1", f"{name} is placed on top of the lineage: the champion levels up"
            )
            + self.cite(
                "Leveling Up 7.2",
                "the champion is not a new object (its counters and damage stay); "
                "the card entering the lineage triggers its On Enter abilities",
            )
            + self.cite("Leveling Up 4", f"it keeps its orientation: still {orientation}")
        )
        event = Event("level_up", up.id, card.card, up.controller)
        return self._checked(Outcome(state, DONE, rulings, (event,)))

    def _level_up_refused(self, state: GameState, champ: GameObject, card: GameObject) -> Rulings:
        """Why ``card`` can't level ``champ`` up; empty: it can."""
        have, new = self._chars(state, champ), self._chars(state, card)
        if champ.zone != FIELD or not _typed(have, "CHAMPION"):
            return self.cite("Leveling Up 1", "only a champion on the field levels up")
        if card.zone != MATERIAL_DECK or not _typed(new, "CHAMPION"):
            why = "the next level champion card is selected from the material deck"
            return self.cite("Leveling Up 2", why)
        if card.owner != champ.controller:
            why = f"{card.owner} can level up only a champion they control"
            return self.cite("Leveling Up 8", why)
        level = state.card_def(champ).front.level  # the printed (base) level, not modified
        next_level = state.card_def(card).front.level
        if not (isinstance(level, int) and isinstance(next_level, int) and next_level == level + 1):
            why = (
                f"a level {next_level} champion card can't level up a level {level} "
                f"champion: it must be level {level}+1"
            )
            return self.cite("Leveling Up 2", why) + self.cite(
                "Champion 7", "only level N+1 champions level up a level N champion"
            )
        return ()

    # --- setup ------------------------------------------------------------------------------

    def setup_status(
        self, state: GameState, obj: GameObject, status: Mapping[str, Any]
    ) -> GameState:
        """``rested``, ``ephemeral`` (on the field or the effects stack) and ``counters`` (the
        counters it has now, over those it was set up with)."""
        where = {"rested": (FIELD,), "ephemeral": (FIELD, STACK)}
        for key, zones in where.items():
            if status.get(key) and obj.zone not in zones:
                places = " or the ".join(_words(z) for z in zones)
                raise InputError("", key, f"only an object on the {places} can be {key}")
        counters = dict(obj.counters)
        counters.update(status.get("counters") or {})
        obj = replace(
            obj, rested=bool(status.get("rested")), counters=tuple(sorted(counters.items()))
        )
        state = core.update(state, obj)
        if status.get("ephemeral"):
            state = replace(state, designations=(*state.designations, (EPHEMERAL, obj.id)))
        return state

    def add_card(
        self, state: GameState, card: CardDef, zone: str, **status: Any
    ) -> tuple[GameState, int]:
        """:meth:`Ruleset.add_card`; an object set up on the field has the durability
        counters it would have entered with (Durability 2)."""
        state, card_id = super().add_card(state, card, zone, **status)
        obj = state.object_of_card(card_id)
        n = None if obj is None else self._chars(state, obj).props.durability
        if obj is not None and zone == FIELD and isinstance(n, int) and not isinstance(n, bool):
            state = core.update(state, replace(obj, counters=_set(obj.counters, DURABILITY, n)))
        return state, card_id

    def _chars(self, state: GameState, obj: GameObject) -> Characteristics:
        return characteristics(state, obj, self)


def _typed(chars: Characteristics, *words: str) -> bool:
    """Whether the characteristics have one of ``words`` among their types or supertypes,
    however spelt (the index prints CHAMPION, the rules Champion)."""
    have = {t.upper() for t in (*chars.props.types, *chars.props.supertypes)}
    return any(w in have for w in words)


def _set(counters: tuple[tuple[str, int], ...], name: str, n: int) -> tuple[tuple[str, int], ...]:
    """``counters`` with ``name`` set to ``n`` (removed at 0), sorted."""
    out = dict(counters)
    out[name] = n
    return tuple(sorted((k, c) for k, c in out.items() if c))


def _words(zone: str) -> str:
    return zone.replace("_", " ")


ACTIONS: Final[tuple[type[v.Action], ...]] = (Rest, WakeUp, LevelUp, RemoveCounters)
