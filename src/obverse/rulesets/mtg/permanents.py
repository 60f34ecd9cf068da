"""Magic: The Gathering permanents whose multi-faced rules need the state they carry: battles
(310: defense counters, damage, protector, a defeated Siege), Sagas (714.3a: a lore counter as
one enters) and day and night (730, 702.145: the game's designation and daybound / nightbound
permanents).

:class:`MagicPermanents` sits between :class:`~obverse.rulesets.mtg.effects.MagicEffects` and
:class:`~obverse.rulesets.mtg.layouts.room.MagicLayouts` in :class:`~obverse.rulesets.mtg.Magic`. It
adds what a permanent gets as it enters (:meth:`entering`), the verbs
:class:`RemoveCounters`, :class:`Damage`, :class:`ChooseProtector`, :class:`BecomeDay`,
:class:`BecomeNight` and the queries :class:`Protector` and :class:`DayNight`. The game's
day/night designation is a designation on no object (id 0), as FaB's game marks are.
A rules version without a topic's rule ids (``mtg@2020``, ``mtg@2008``: no battles, no
day and night) leaves these cards as plain permanents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import RulesError
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import SPELL_ONLY
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState

replace = msgspec.structs.replace

DEFENSE: Final = "defense"
LORE: Final = "lore"
#: The game's designations (730.1), on no object.
DAY: Final = ("day", 0)
NIGHT: Final = ("night", 0)
#: A battle's protector (310.8): ``protector:<player>`` on the battle.
PROTECTOR: Final = "protector:"
#: A spell cast this turn (730.2): ``spell_cast:<player>:<turn>:<spell id>``, on no object.
CAST: Final = "spell_cast:"

__all__ = [
    "BecomeDay",
    "BecomeNight",
    "ChooseProtector",
    "Damage",
    "DayNight",
    "MagicPermanents",
    "Protector",
    "RemoveCounters",
]


#: Removing counters (a battle's last defense counter: 310.7, 310.11b, 704.5v): the action
#: class GA has too (one tag in the union of every game's actions).
RemoveCounters = v.RemoveCounters


class Damage(v.Action, frozen=True, tag="damage"):
    """``amount`` damage is dealt to a battle (120.3h, 310.6: that many defense counters are
    removed)."""

    refs = ("object",)
    object: int
    amount: int = 1


class ChooseProtector(v.Action, frozen=True, tag="choose_protector"):
    """``player`` becomes the battle's protector (310.8f; a Siege's is an opponent of its
    controller, 310.11a)."""

    refs = ("object",)
    player_fields = ("player",)
    object: int
    player: str


class Protector(v.Action, frozen=True, tag="protector"):
    """Query: the battle's protector (310.8); ``answer`` is the player or ``None``."""

    refs = ("object",)
    is_query = True
    object: int


class BecomeDay(v.Action, frozen=True, tag="become_day"):
    """It becomes day (730.1; night becomes day, 730.1a)."""

    subject = None


class BecomeNight(v.Action, frozen=True, tag="become_night"):
    """It becomes night (730.1; day becomes night, 730.1a)."""

    subject = None


class DayNight(v.Action, frozen=True, tag="day_night"):
    """Query: the game's day/night designation (730.1): ``day``, ``night`` or ``neither``."""

    subject = None
    is_query = True


def _count(obj: GameObject, counter: str) -> int:
    return dict(obj.counters).get(counter, 0)


def _with_count(obj: GameObject, counter: str, n: int) -> GameObject:
    counts = dict(obj.counters)
    counts[counter] = n
    return replace(obj, counters=tuple(sorted((k, c) for k, c in counts.items() if c)))


def _number(stat: object) -> int:
    """A printed number (``"5"`` or 5); anything else (``*``, none) counts 0."""
    if isinstance(stat, int) and not isinstance(stat, bool):
        return stat
    return int(stat) if isinstance(stat, str) and stat.isdigit() else 0


def day_or_night(state: GameState) -> str:
    """730.1: ``day``, ``night`` or ``neither``."""
    marks = state.designations
    return "day" if DAY in marks else "night" if NIGHT in marks else "neither"


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMoves
else:
    _Base = object


class MagicPermanents(_Base):
    """Battles, Sagas and day/night on top of MTG's face rules."""

    #: 122: a permanent set up with counters (a battle's defense, a Saga's lore).
    setup_keys: ClassVar[Mapping[str, str]] = {"counters": "counters"}

    #: 310.8: a battle's protector concerns that battle alone.
    own_designations: ClassVar[tuple[str, ...]] = (PROTECTOR,)

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("remove_counters", "_offer_remove_counters"),
        ("damage", "_offer_damage"),
        ("choose_protector", "_offer_choose_protector"),
    )

    def _is_battle(self, state: GameState, obj: GameObject) -> bool:
        return obj.zone == "battlefield" and "Battle" in self.chars(state, obj).props.types

    def chars(self, state: GameState, obj: GameObject) -> Characteristics:
        """``obj``'s characteristics now (effects and copies applied)."""
        return characteristics(state, obj, self)

    def _offer_remove_counters(
        self, state: GameState, player: str, o: GameObject
    ) -> list[v.Action]:
        return [RemoveCounters(object=o.id, counter=k) for k, n in o.counters if n]

    def _offer_damage(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Damage(object=o.id)] if _count(o, DEFENSE) else []

    def _offer_choose_protector(
        self, state: GameState, player: str, o: GameObject
    ) -> list[v.Action]:
        # The procedure's own test (310.8f): a battle, whatever its defense counters.
        if o.zone != "battlefield" or not self._is_battle(state, o):
            return []
        return [ChooseProtector(object=o.id, player=p) for p in state.players]

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The shared ones, then day or night changing (730.1). (Queries, ``protector`` and
        ``day_night``, are asked, not offered, as ``search`` is.)"""
        out = super().loose_candidates(state, player, verb)
        if "day_night" not in self.rule_ids:
            return out
        if verb in (None, "become_day"):
            out.append(BecomeDay())
        if verb in (None, "become_night"):
            out.append(BecomeNight())
        return out

    # --- characteristics: a battle's defense is its defense counters (310.4c) ---------------

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        chars = super().base_characteristics(state, obj)
        if obj.zone != "battlefield" or "Battle" not in chars.props.types:
            return chars
        if "battle_defense" not in self.rule_ids:
            return chars
        n = _count(obj, DEFENSE)
        props = replace(chars.props, defense=n)
        why = self.cite("battle_defense", f"on the battlefield its defense is its {n} counters")
        return replace(chars, props=props, why=chars.why + why)

    # --- entering the battlefield (310.4b, 310.8a, 310.11a, 714.3a, 702.145) -----------------

    def add_card(
        self,
        state: GameState,
        card: CardDef,
        zone: str,
        *,
        owner: str | None = None,
        controller: str | None = None,
        face: str | None = None,
        face_down: bool | None = None,
        flipped: bool | None = None,
        token: bool = False,
        position: str | None = None,
        face_down_as: str | None = None,
    ) -> tuple[GameState, int]:
        """A permanent set up on the battlefield is as it would have entered: a battle with
        its defense counters and protector, a Saga with its lore counter (the setup's
        ``counters`` replace them)."""
        state, card_id = super().add_card(
            state,
            card,
            zone,
            owner=owner,
            controller=controller,
            face=face,
            face_down=face_down,
            flipped=flipped,
            token=token,
            position=position,
            face_down_as=face_down_as,
        )
        obj = state.object_of_card(card_id)
        if obj is not None and obj.zone == "battlefield" and not obj.face_down:
            state, _ = self.entering(state, obj)
        return state, card_id

    def setup_status(
        self, state: GameState, obj: GameObject, status: Mapping[str, Any]
    ) -> GameState:
        """``counters``: the counters the object has (122.1)."""
        state = super().setup_status(state, obj, status)
        if "counters" not in status:
            return state
        counts = tuple(sorted((str(k), int(n)) for k, n in status["counters"].items() if n))
        return core.update(state, replace(state.objects[obj.id], counters=counts))

    def moved(self, state: GameState, old: GameObject, to: str) -> tuple[GameState, Rulings]:
        """A battle's protector ends as it leaves the battlefield; a permanent entering it
        gets what :meth:`entering` gives."""
        state, rulings = super().moved(state, old, to)
        if old.zone == "battlefield":
            state = _drop_marks(state, old.id, PROTECTOR)
        new = state.object_of_card(old.card) if old.meld is None else None
        if to != "battlefield" or new is None or new.zone != "battlefield" or new.face_down:
            return state, rulings
        state, more = self.entering(state, new)
        return state, rulings + more

    def entering(self, state: GameState, obj: GameObject) -> tuple[GameState, Rulings]:
        """What ``obj`` gets as it enters the battlefield: transformed if it has daybound at
        night (702.145b), then a battle's defense counters (310.4b) and protector (310.8a,
        310.11a), a Saga's lore counter (714.3a); and the game becomes day or night
        (702.145d, 702.145g)."""
        rulings: Rulings = ()
        if "day_night" in self.rule_ids:
            state, obj, rulings = self._enters_at_night(state, obj)
        chars = self.chars(state, obj)
        if "Battle" in chars.props.types and "battle_enters" in self.rule_ids:
            state, why = self._battle_enters(state, obj, chars)
            rulings += why
        if "Saga" in chars.props.subtypes and "Enchantment" in chars.props.types:
            now = state.objects[obj.id]
            state = core.update(state, _with_count(now, LORE, _count(now, LORE) + 1))
            if any(x.casefold() == "read ahead" for x in chars.props.abilities):
                # The number chosen is 1 (no choice is modelled; setup's counters say more).
                lore = "read ahead: its controller chooses 1, and it enters with 1 lore counter"
            else:
                lore = "as a Saga enters, its controller puts a lore counter on it"
            rulings += self.cite("saga_lore", lore)
        if "day_night" in self.rule_ids:
            state, why = self._bound_starts_day_night(state, chars)
            rulings += why
        return state, rulings

    def _battle_enters(
        self, state: GameState, obj: GameObject, chars: Characteristics
    ) -> tuple[GameState, Rulings]:
        """310.4b: defense counters equal to its printed defense; 310.8a / 310.11a: its
        protector (a Siege's: its controller's first opponent; another battle's: its
        controller)."""
        obj = state.objects[obj.id]
        printed = _number(super().base_characteristics(state, obj).props.defense)
        state = core.update(state, _with_count(obj, DEFENSE, printed))
        rulings = self.cite(
            "battle_enters", f"it enters with {printed} defense counters, its printed defense"
        )
        if "Siege" in chars.props.subtypes:
            rivals = [p for p in state.players if p != obj.controller]
            if not rivals:
                return state, rulings
            who = rivals[0]
            why = f"its controller chooses an opponent, {who}, as its protector"
            rulings += self.cite("siege_protector", why)
        else:
            who = obj.controller
            rulings += self.cite("protector_enters", "with no battle type, its controller")
        return _set_protector(state, obj.id, who), rulings

    # --- counters and damage (310.6, 310.7, 310.11b, 704.5v, 120.3h) -------------------------

    def remove_counters(self, state: GameState, a: RemoveCounters) -> Outcome:
        """Remove up to ``count`` counters (as many as there are); a battle left with
        defense 0 is put into its owner's graveyard (704.5v), a Siege whose last defense
        counter was removed is exiled instead, to be cast transformed (310.11b)."""
        if a.count < 1:
            raise RulesError(f"count must be at least 1, got {a.count}")
        obj = state.objects[a.object]
        have = _count(obj, a.counter)
        if not have:
            return Outcome(state, NOTHING)
        gone = min(have, a.count)
        state = core.update(state, _with_count(obj, a.counter, have - gone))
        event = Event("counters", obj.id, obj.card, detail=f"{a.counter}-{gone}")
        out = Outcome(state, DONE, (), (event,))
        if a.counter == DEFENSE and gone == have:
            return self._defense_zero(out, state.objects[obj.id])
        return out

    def damage(self, state: GameState, a: Damage) -> Outcome:
        """120.3h, 310.6: damage dealt to a battle removes that many defense counters (the
        damage of creatures and players is combat's, not modelled here)."""
        if a.amount < 1:
            raise RulesError(f"amount must be at least 1, got {a.amount}")
        obj = state.objects[a.object]
        if not self._is_battle(state, obj) or "battle_damage" not in self.rule_ids:
            raise RulesError("damage is modelled for battles only (120.3h)")
        rulings = self.cite(
            "damage_battle", f"{a.amount} damage removes that many defense counters"
        ) + self.cite("battle_damage", "damage dealt to a battle removes defense counters")
        if not _count(obj, DEFENSE):
            return Outcome(state, NOTHING, rulings)
        out = self.remove_counters(
            state, RemoveCounters(object=obj.id, counter=DEFENSE, count=a.amount)
        )
        return replace(out, rulings=rulings + out.rulings)

    def _defense_zero(self, out: Outcome, obj: GameObject) -> Outcome:
        """A battle at defense 0: 310.11b, a Siege's trigger exiles it (704.5v doesn't put
        the source of a waiting trigger into the graveyard); 704.5v, any other battle goes
        to its owner's graveyard."""
        state = out.state
        if not self._is_battle(state, obj) or "sba_battle" not in self.rule_ids:
            return out
        chars = self.chars(state, obj)
        if "Siege" in chars.props.subtypes:
            rulings = self.cite(
                "siege_defeated",
                "its last defense counter was removed: it is exiled, and "
                "its controller may cast it transformed without paying its mana cost",
            ) + self.cite(
                "sba_battle", "the source of a waiting trigger isn't put into the graveyard"
            )
            moved = super().move_object(state, v.Move(object=obj.id, to="exile"))
        else:
            rulings = self.cite(
                "sba_battle", "a battle with defense 0 is put into its owner's graveyard"
            ) + self.cite("battle_zero", "its defense is 0")
            moved = super().move_object(state, v.Move(object=obj.id, to="graveyard"))
        after = _drop_marks(moved.state, obj.id, PROTECTOR)
        return Outcome(
            after, DONE, out.rulings + rulings + moved.rulings, out.events + moved.events
        )

    # --- protector (310.8, 310.8f, 310.11a, 704.5x) -----------------------------------------

    def choose_protector(self, state: GameState, a: ChooseProtector) -> Outcome:
        """310.8f: ``player`` becomes the battle's protector (the one before stops being
        it); 310.11a: a Siege's protector must be an opponent of its controller."""
        obj = state.objects[a.object]
        if not self._is_battle(state, obj) or "protector" not in self.rule_ids:
            why = "only a battle on the battlefield has a protector; nothing happens"
            return Outcome(
                state, NOTHING, self.cite("protector", why) if "protector" in self.rule_ids else ()
            )
        if "Siege" in self.chars(state, obj).props.subtypes and a.player == obj.controller:
            why = f"only an opponent of the Siege's controller can protect it, not {a.player}"
            return Outcome(state, ILLEGAL, self.cite("siege_protector", why))
        if protector_of(state, obj.id) == a.player:
            return Outcome(state, NOTHING, self.cite("protector_one", f"{a.player} already is"))
        state = _set_protector(state, obj.id, a.player)
        why = f"{a.player} becomes its protector; the one before stops being it"
        event = Event("protector", obj.id, obj.card, detail=a.player)
        return Outcome(state, DONE, self.cite("protector_one", why), (event,))

    def protector(self, state: GameState, a: Protector) -> Outcome:
        """310.8: the battle's protector (``None``: not a battle with one)."""
        who = protector_of(state, a.object)
        rulings = (
            self.cite("protector", f"its protector is {who}")
            if "protector" in self.rule_ids
            else ()
        )
        return Outcome(state, DONE, rulings if who else (), answer=who)

    def change_control(self, state: GameState, a: v.ChangeControl) -> Outcome:
        """Control changes; 704.5x: a Siege controlled by its protector gets an opponent of
        its new controller as its protector."""
        out = super().change_control(state, a)
        if out.result != DONE or "sba_siege_protector" not in self.rule_ids:
            return out
        obj = out.state.objects[a.object]
        if protector_of(out.state, obj.id) != a.to or not self._is_battle(out.state, obj):
            return out
        if "Siege" not in self.chars(out.state, obj).props.subtypes:
            return out
        rivals = [p for p in out.state.players if p != a.to]
        if not rivals:
            return out
        why = f"its controller is its protector: {a.to} chooses an opponent, {rivals[0]}"
        state = _set_protector(out.state, obj.id, rivals[0])
        return replace(
            out, state=state, rulings=out.rulings + self.cite("sba_siege_protector", why)
        )

    # --- day and night (730, 702.145) -------------------------------------------------------

    def become_day(self, state: GameState, a: BecomeDay) -> Outcome:
        """730.1: it becomes day; 702.145e: each nightbound permanent back face up
        transforms."""
        return self._become(state, "day")

    def become_night(self, state: GameState, a: BecomeNight) -> Outcome:
        """730.1: it becomes night; 702.145b: each daybound permanent front face up
        transforms."""
        return self._become(state, "night")

    def day_night(self, state: GameState, a: DayNight) -> Outcome:
        """730.1: the game's designation: ``day``, ``night`` or ``neither``."""
        if "day_night" not in self.rule_ids:
            raise RulesError(f"day and night aren't modelled under {self.name}")
        now = day_or_night(state)
        return Outcome(state, DONE, self.cite("day_night", f"it is {now}"), answer=now)

    # --- the untap step's day/night check (730.2, 502.2) -------------------------------------

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """A spell cast is counted for its caster's turn (730.2 reads the previous turn's
        count); a land played isn't a spell."""
        out = super().cast(state, a)
        if out.result != DONE or "day_night" not in self.rule_ids:
            return out
        spell = out.state.object_of_card(state.objects[a.object].card)
        if spell is None or spell.zone != self.stack_zone:
            return out
        caster = a.controller or spell.controller
        mark = (f"{CAST}{caster}:{out.state.turn}:{spell.id}", 0)
        return replace(out, state=replace(out.state, designations=(*out.state.designations, mark)))

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """The turn ends; as the next one's untap step, 730.2a: if it's day and the
        previous turn's active player cast no spells, it becomes night; 730.2b: if it's
        night and they cast two or more, it becomes day (502.2); neither: no check."""
        was = state.players[state.active]
        prefix = f"{CAST}{was}:{state.turn}:"
        cast = sum(1 for d in state.designations if d[0].startswith(prefix))
        out = super().end_turn(state, a)
        if "day_night" not in self.rule_ids or out.result != DONE:
            return out
        kept = tuple(d for d in out.state.designations if not d[0].startswith(CAST))
        after = replace(out.state, designations=kept)
        now = day_or_night(after)
        if now == "day" and cast == 0:
            why = f"it is day and {was} cast no spells last turn: it becomes night"
            change = self._become(after, "night")
            rulings = self.cite("day_to_night", why)
        elif now == "night" and cast >= 2:
            why = f"it is night and {was} cast {cast} spells last turn: it becomes day"
            change = self._become(after, "day")
            rulings = self.cite("night_to_day", why)
        else:
            return replace(out, state=after)
        rulings = self.cite("untap_day_night", "the untap step checks day and night") + rulings
        return Outcome(change.state, DONE, rulings + change.rulings, out.events + change.events)

    def _become(self, state: GameState, now: str) -> Outcome:
        if "day_night" not in self.rule_ids:
            raise RulesError(f"day and night aren't modelled under {self.name}")
        was = day_or_night(state)
        if was == now:
            return Outcome(state, NOTHING, self.cite("day_night", f"it is {now} already"))
        kept = tuple(d for d in state.designations if d not in (DAY, NIGHT))
        state = replace(state, designations=(*kept, DAY if now == "day" else NIGHT))
        if was == "neither":
            rulings = self.cite("day_night", f"the game gets the {now} designation")
        else:
            rulings = self.cite("day_night_change", f"{was} becomes {now}")
        state, why, events = self._turn_bound(state, now)
        return Outcome(state, DONE, rulings + why, (Event("day_night", detail=now), *events))

    def _turn_bound(
        self, state: GameState, now: str
    ) -> tuple[GameState, Rulings, tuple[Event, ...]]:
        """702.145b / 702.145e: as it becomes night (day), each daybound permanent front
        face up (nightbound, back face up) represented by a double-faced card transforms."""
        keyword, face, topic = (
            ("Daybound", "front", "daybound")
            if now == "night"
            else ("Nightbound", "back", "nightbound")
        )
        rulings: Rulings = ()
        events: tuple[Event, ...] = ()
        for o in list(state.objects.values()):
            if o.zone != "battlefield" or o.face_down or o.face != face:
                continue
            if keyword not in self.chars(state, o).props.abilities:
                continue
            name = self.chars(state, o).names
            if not self._dfc_turns(state, o):
                why = f"{' '.join(name)} isn't represented by a double-faced card: it stays"
                rulings += self.cite("who_transforms", why)
                continue
            state, ts = core.tick(state)
            flipped = "back" if face == "front" else "front"
            state = core.update(state, replace(o, face=flipped, timestamp=ts))
            why = f"as it becomes {now}, {' '.join(name)} transforms"
            rulings += self.cite(topic, why)
            events += (Event("transform", o.id, o.card, o.controller),)
        return state, rulings, events

    def _dfc_turns(self, state: GameState, o: GameObject) -> bool:
        """712.9: represented by a double-faced card that can transform into a permanent."""
        card = state.card_def(o)
        if not (self.is_double_faced(card) and self.can_be_transformed_by_layout(card)):
            return False
        other = card.faces[0] if o.face == "back" else card.faces[1]
        return not SPELL_ONLY.intersection(other.types)

    def _enters_at_night(
        self, state: GameState, obj: GameObject
    ) -> tuple[GameState, GameObject, Rulings]:
        """702.145b: a daybound permanent represented by a double-faced card enters
        transformed at night; 702.145f: one entering back face up with nightbound while it is
        day transforms at once."""
        now = day_or_night(state)
        if now == "night" and obj.face == "front":
            keyword, face, topic, why = "Daybound", "back", "daybound", "it enters transformed"
        elif now == "day" and obj.face == "back":
            keyword, face, topic = "Nightbound", "front", "nightbound_now"
            why = "back face up with nightbound while it is day, it transforms"
        else:
            return state, obj, ()
        if keyword not in self.chars(state, obj).props.abilities:
            return state, obj, ()
        if not self._dfc_turns(state, obj):
            why = "it isn't represented by a double-faced card: it enters as it is"
            return state, obj, self.cite("who_transforms", why)
        obj = replace(obj, face=face)
        state = core.update(state, obj)
        return state, obj, self.cite(topic, f"it is {now}: {why}")

    def _bound_starts_day_night(
        self, state: GameState, chars: Characteristics
    ) -> tuple[GameState, Rulings]:
        """702.145d: a daybound permanent and neither day nor night: it becomes day;
        702.145g: a nightbound one and no daybound permanent: it becomes night."""
        if day_or_night(state) != "neither":
            return state, ()
        abilities = chars.props.abilities
        if "Daybound" in abilities:
            mark, topic, why = DAY, "daybound_day", "a daybound permanent: it becomes day"
        elif "Nightbound" in abilities and not self._any_daybound(state):
            mark, topic, why = NIGHT, "nightbound_night", "a nightbound permanent: it becomes night"
        else:
            return state, ()
        return replace(state, designations=(*state.designations, mark)), self.cite(topic, why)

    def _any_daybound(self, state: GameState) -> bool:
        return any(
            o.zone == "battlefield" and "Daybound" in self.chars(state, o).props.abilities
            for o in state.objects.values()
        )

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """712.13a: a daybound permanent spell front face up resolving at night would enter
        transformed (702.145b); if the card representing it has an instant or sorcery back
        face, it is put into its owner's graveyard instead."""
        obj = state.objects[a.object]
        if obj.zone != self.stack_zone or obj.face_down or obj.face != "front":
            return super().resolve(state, a)
        if "day_night" not in self.rule_ids or day_or_night(state) != "night":
            return super().resolve(state, a)
        chars = self.chars(state, obj)
        card = state.card_def(obj)
        if "Daybound" not in chars.props.abilities or not self.is_double_faced(card):
            return super().resolve(state, a)
        back = card.faces[1]
        if not SPELL_ONLY.intersection(back.types) or not self.is_permanent(state, obj):
            return super().resolve(state, a)
        rulings = self.cite(
            "daybound", "it is night: the daybound permanent would enter transformed"
        ) + self.cite(
            "resolve_transformed_instant",
            f"its card's back face, {back.name}, is an instant or sorcery: it doesn't "
            "enter the battlefield and is put into its owner's graveyard instead",
        )
        return self._put(state, obj, "graveyard", "front", False, rulings)

    def become_copy(self, state: GameState, a: v.BecomeCopy) -> Outcome:
        """A permanent that becomes a copy of a daybound one at night is transformed
        (702.145c) if a double-faced card represents it, else it stays (712.9)."""
        return self._bound_now(super().become_copy(state, a), a.object)

    def turn_face_up(self, state: GameState, a: v.TurnFaceUp) -> Outcome:
        """A double-faced permanent turned face up is front face up (712.15a): with daybound
        at night it transforms at once (702.145c)."""
        return self._bound_now(super().turn_face_up(state, a), a.object)

    def _bound_now(self, out: Outcome, oid: int) -> Outcome:
        """702.145c: a permanent front face up with daybound at night is transformed (if a
        double-faced card represents it, 712.9); 702.145d: with neither day nor night, it
        becomes day."""
        if out.result != DONE or "day_night" not in self.rule_ids:
            return out
        obj = out.state.objects.get(oid)
        if obj is None or obj.zone != "battlefield" or obj.face_down or obj.face != "front":
            return out
        chars = self.chars(out.state, obj)
        if "Daybound" not in chars.props.abilities:
            return out
        now = day_or_night(out.state)
        if now == "neither":
            state, made = self._bound_starts_day_night(out.state, chars)
            return replace(out, state=state, rulings=out.rulings + made)
        if now != "night":
            return out
        if not self._dfc_turns(out.state, obj):
            why = "daybound at night, but no double-faced card represents it: it can't transform"
            return replace(out, rulings=out.rulings + self.cite("who_transforms", why))
        state, ts = core.tick(out.state)
        state = core.update(state, replace(obj, face="back", timestamp=ts))
        why = "a daybound permanent front face up at night transforms"
        return replace(out, state=state, rulings=out.rulings + self.cite("daybound_now", why))

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """702.145b, 702.145e: daybound and nightbound permanents transform only as day and
        night change; otherwise the face rules decide."""
        blocked = self.bound_blocks_transform(state, obj)
        if blocked:
            return Decided(False, blocked)
        return super().can_transform(state, obj)

    def bound_blocks_transform(self, state: GameState, obj: GameObject) -> Rulings:
        """702.145b / 702.145e: a permanent with daybound (nightbound) can't transform except
        as day and night change; ``()`` when it may."""
        if "day_night" not in self.rule_ids or obj.zone != "battlefield" or obj.face_down:
            return ()
        abilities = self.chars(state, obj).props.abilities
        if "Daybound" in abilities:
            return self.cite("daybound", "it can't transform except due to its daybound ability")
        if "Nightbound" in abilities:
            return self.cite(
                "nightbound", "it can't transform except due to its nightbound ability"
            )
        return ()


def protector_of(state: GameState, oid: int) -> str | None:
    """310.8: the player designated as battle ``oid``'s protector."""
    if not core.mentions(state.designations, core.DESIGNATED, oid):
        return None
    for name, on in state.designations:
        if on == oid and name.startswith(PROTECTOR):
            return name[len(PROTECTOR) :]
    return None


def _set_protector(state: GameState, oid: int, player: str) -> GameState:
    """310.8f: one protector at a time."""
    state = _drop_marks(state, oid, PROTECTOR)
    return replace(state, designations=(*state.designations, (PROTECTOR + player, oid)))


def _drop_marks(state: GameState, oid: int, prefix: str) -> GameState:
    """``state`` without ``oid``'s designations named ``prefix``... (the protector's)."""
    keep = _keep_unless(prefix)
    # Only the entries naming oid looked at in Python (core.dropping).
    kept = core.dropping(state.designations, core.DESIGNATED, oid, keep)
    return state if kept is state.designations else replace(state, designations=kept)


@memo.per_value
def _keep_unless(prefix: str) -> Callable[[tuple[str, int]], bool]:
    """Whether a designation (naming the object) is kept: not ``prefix``'s (one function per
    prefix)."""
    return lambda d: not d[0].startswith(prefix)
