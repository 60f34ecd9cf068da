"""Flesh and Blood, entering the arena and what sits around it: demi-heroes (8.1.11b),
afflictions (8.2.11c), sub-cards and the hero's soul (3.0.14, 3.11.5, 8.5.29, 8.5.36), the
start of the game (4.1.2, 4.1.4b, 4.1.8, 8.3.36), becoming the same reference again
(8.5.25d), looking at a private card (8.5.11) and permission to play a card from a zone
other than the hand or arsenal (5.1.1a, 5.1.2b).

A sub-card sits in the ``sub_cards`` pseudo-zone with :attr:`GameObject.under` naming its
top-card: it is not in the arena (3.0.14b), so nothing that looks at the arena finds it.
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import InputError
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.fab.zones import ARENA_ZONES, PUBLIC_ZONES, zone_name
from obverse.rulings import DONE, NO, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState, Knowledge

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.fab.zones import FabZones as _Base
else:
    _Base = object

replace = msgspec.structs.replace


@memo.last("players")  # a game's players: the same tuple in each of its states
def _sub_card_keys(players: tuple[str, ...]) -> tuple[str, ...]:
    """The keys of the players' sub-card zones."""
    return tuple(f"{who}:{SUB_CARDS}" for who in players)


def _no_sub_cards(state: GameState) -> bool:
    """Whether no player has a sub-card (3.0.14). (An empty zone's key is mostly dropped
    from the zones, :func:`obverse.state.relocate`: a key is looked for before its zone.)"""
    zones = state.zones
    # A loop and "in": cheaper than all() of a generator and a Map's get (every move asks).
    for key in _sub_card_keys(state.players):  # noqa: SIM110
        if key in zones and zones[key]:  # noqa: RUF019
            return False
    return True


_ID: Final = operator.attrgetter("id")

#: The pseudo-zone of sub-cards (3.0.14): under a permanent or a card on the stack.
SUB_CARDS: Final = "sub_cards"
#: 3.0.14: the zones of the objects cards can be put under: the arena's (a permanent) and
#: the stack (never the sub-card zone).
TOP_ZONES: Final = ARENA_ZONES | {"stack"}
#: Designation of a demi-hero that became its player's hero (8.1.11b).
HERO: Final = "hero"
#: Designation prefix: ``may_play:<player>`` lets that player play the object (5.1.1a).
MAY_PLAY: Final = "may_play:"
#: Designation prefix: ``has_transcended:<player>:<turn>`` (8.5.48a), on no object (id 0).
TRANSCENDED: Final = "has_transcended:"
#: 4.1.4a: the zones arena-cards start the game equipped in.
EQUIPMENT_ZONES: Final = ("arms", "chest", "head", "legs", "weapon")
#: 5.1.1a: a card is played from the hand or arsenal unless a rule or effect says otherwise.
PLAY_ZONES: Final = frozenset({"hand", "arsenal"})


class PutUnder(v.Action, frozen=True, tag="put_under"):
    """``object`` is put under ``top`` and becomes its sub-card: FaB's transform (8.5.36)."""

    refs = ("object", "top")
    object: int
    top: int


class Charge(v.Action, frozen=True, tag="charge"):
    """A card in its owner's hand goes into their hero's soul (8.5.29)."""

    refs = ("object",)
    object: int


#: 8.5.11: ``player`` looks at a private card; a verb MTG shares (its ``source`` is MTG's).
Look = v.Look


class AllowPlay(v.Action, frozen=True, tag="allow_play"):
    """An effect lets ``player`` play ``object`` from the zone it is in (5.1.1a, 5.1.2b)."""

    refs = ("object",)
    player_fields = ("player",)
    player: str
    object: int


class HasTranscended(v.Action, frozen=True, tag="has_transcended"):
    """Whether ``player`` has transcended (8.5.48a), this turn or at all."""

    player_fields = ("player",)
    subject = None
    is_query = True
    player: str
    this_turn: bool = False


class FabArena(_Base):
    """FaB's arena entries, sub-cards, start of game, look and play permissions."""

    #: 3.11: the zone of a player's hero card.
    hero_zone: ClassVar[str] = "hero"
    #: A play permission concerns only the object it names (5.1.1a: who may play it, and
    #: look at it, 8.5.11a): a fast path keeps the other objects' offers when one is given.
    own_designations: ClassVar[tuple[str, ...]] = (MAY_PLAY,)

    # --- entering the arena: afflictions (8.2.11c) and demi-heroes (8.1.11b) ----------------

    def move_object(
        self,
        state: GameState,
        a: v.Move,
        *,
        controller: str | None = None,
        face_fixed: str | None = None,
    ) -> Outcome:
        """A move, then what entering the arena as a permanent does to afflictions and
        demi-heroes; a sub-card leaving its top-card stops being one; sub-cards whose
        top-card ceased to exist are cleared (3.0.14e)."""
        before = state.objects[a.object]
        if a.to == SUB_CARDS and before.zone != SUB_CARDS:
            why = "a card is under a permanent only if a rule or effect puts it there"
            return Outcome(state, NOTHING, self.cite("3.0.14a", why))
        # super()'s, named: no class between this one and Ruleset in FleshAndBlood's order
        # has its own (tests/test_fab_moves.py), and every move pays for a super object.
        out = Ruleset.move_object(self, state, a, controller=controller, face_fixed=face_fixed)
        if out.result != DONE:
            return out
        # The object it became: only a sub-card (its ``under`` carried over) or an entry from
        # outside the arena reads it (back from the combat chain, 7.7.5, is no entry).
        entering = before.zone not in ARENA_ZONES  # is_in_play, without its call
        if not entering and before.under is None and _no_sub_cards(out.state):
            return out  # the commonest move: a permanent leaving, with no sub-card anywhere
        looked = entering or before.under is not None
        state, rulings = out.state, out.rulings
        moved = state.object_of_card(before.card) if looked else None
        if moved is not None and moved.under is not None and moved.zone != SUB_CARDS:
            state = core.update(state, replace(moved, under=None))
            moved = state.objects[moved.id]
        if entering and moved is not None and moved.zone == self.play_zone:
            state, more = self._enters_as_permanent(state, moved, before)
            rulings += more
        if state is out.state and rulings is out.rulings and _no_sub_cards(state):
            return out  # no sub-card anywhere (the common case): nothing more to decide
        subs = self.sub_cards(state)
        if not looked:
            moved = state.object_of_card(before.card)
        if (
            moved is not None
            and moved.id == before.id
            and moved.zone != before.zone
            and any(o.under == moved.id for o in subs)
        ):
            why = "it stays the same object: its sub-cards move with it and remain sub-cards"
            rulings += self.cite("3.0.14c", why)
        state, cleared = self.clear_orphans(state) if subs else (state, ())
        return Outcome(state, DONE, (*rulings, *cleared), out.events)

    def _enters_as_permanent(
        self, state: GameState, obj: GameObject, before: GameObject
    ) -> tuple[GameState, Rulings]:
        """8.2.11c, then 8.1.11b, for an object that just entered the permanent zone."""
        props = characteristics(state, obj, self).props
        rulings: Rulings = ()
        if "Affliction" in props.subtypes:
            state, rulings = self._affliction_enters(state, obj, before)
            obj = state.objects[obj.id]
        if "Demi-Hero" in props.types:
            state, more = self._demi_hero_enters(state, obj)
            rulings += more
        return state, rulings

    def _affliction_enters(
        self, state: GameState, obj: GameObject, before: GameObject
    ) -> tuple[GameState, Rulings]:
        """8.2.11c: its controller (its owner if it had none) declares an opponent, and it
        enters under that player's control; the owner stays the same (1.3.1a)."""
        had = self.is_in_play(before.zone) or before.zone == self.stack_zone
        declarer = before.controller if had else obj.owner
        others = [p for p in state.players if p != declarer]
        if not others:
            return state, self.cite("8.2.11c", "there is no opponent to declare")
        # 1.1.6: with several opponents, the next one in clockwise order stands in for the
        # declaration (the action names none).
        seat = state.players.index(declarer)
        opponent = min(others, key=lambda p: (state.players.index(p) - seat) % len(state.players))
        state = core.update(state, replace(obj, controller=opponent))
        who = "its controller" if had else "it had no controller, so its owner"
        return state, (
            self.cite(
                "8.2.11c",
                f"an affliction enters the arena under an opponent's control: {who}, "
                f"{declarer}, declares {opponent}",
            )
            + self.cite("1.3.1a", f"its owner is still {obj.owner}")
        )

    def controls_hero(self, state: GameState, player: str, other_than: int) -> bool:
        """Whether ``player`` controls a hero besides object ``other_than``."""
        return any(
            o.id != other_than and o.controller == player and self.is_hero(state, o)
            for o in state.iter_objects()
        )

    def is_hero(self, state: GameState, obj: GameObject) -> bool:
        """3.11.3: the hero card in the hero zone, or a hero in the arena (a demi-hero that
        became its player's hero has the hero type, 8.1.11b)."""
        if obj.face_down or obj.zone not in ARENA_ZONES:
            return False
        return obj.zone == "hero" or "Hero" in characteristics(state, obj, self).props.types

    def _demi_hero_enters(self, state: GameState, obj: GameObject) -> tuple[GameState, Rulings]:
        """8.1.11b: a demi-hero becoming a permanent is its controller's hero if they control
        none; otherwise it is cleared (3.0.12)."""
        player = obj.controller
        if self.controls_hero(state, player, obj.id):
            out = super().move_object(state, v.Move(object=obj.id, to=self.discard_zone))
            return out.state, (
                *self.cite(
                    "8.1.11b",
                    f"{player} already controls a hero: the demi-hero is cleared from the arena",
                ),
                *self.cite("3.0.12", "cleared, it goes to its owner's graveyard"),
                *out.rulings,
            )
        state, ts = core.tick(state)
        state = core.update(state, replace(obj, timestamp=ts))
        state = replace(state, designations=(*state.designations, (HERO, obj.id)))
        why = (
            f"{player} controls no hero: the demi-hero is {player}'s hero and has the hero "
            "type for the rest of the game"
        )
        return state, self.cite("8.1.11b", why)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """8.1.11b: a demi-hero that became its player's hero has the hero type."""
        chars = super().base_characteristics(state, obj)
        if obj.face_down or (HERO, obj.id) not in state.designations:
            return chars
        if "Hero" in chars.props.types:
            return chars
        props = replace(chars.props, types=(*chars.props.types, "Hero"))
        why = self.cite("8.1.11b", "a demi-hero that became its player's hero has the hero type")
        return replace(chars, props=props, why=chars.why + why)

    # --- sub-cards and the soul (3.0.14, 3.11.5, 8.5.29, 8.5.36) -----------------------------

    def sub_cards(self, state: GameState) -> list[GameObject]:
        """Every sub-card (3.0.14), from the players' sub-card zones: an object is under
        another only there (a move out of them clears :attr:`GameObject.under`), so what
        follows a top-card reads these few objects, never the whole board."""
        zones, out = state.zones, []
        for key in _sub_card_keys(state.players):
            zone = zones.get(key)
            if zone:
                objects = state.objects
                out += [objects[i] for i in zone.rank_of]
        return out

    def view_dependents(self, state: GameState, changed: set[int]) -> set[int]:
        """3.0.14: a sub-card is as visible as its top-card, so its entry follows the top's
        (only the few sub-cards are looked at, never the whole board)."""
        return {o.id for o in self.sub_cards(state) if o.under in changed}

    def put_under(self, state: GameState, a: PutUnder) -> Outcome:
        """8.5.36: put the object under a permanent (or a card on the stack, 3.0.14); it
        becomes a new card (3.0.14b), its own sub-cards go along (3.0.14c)."""
        obj, top = state.objects[a.object], state.objects[a.top]
        if obj.id == top.id or obj.under == top.id:
            why = "it is already that card or under it: nothing is transformed"
            return Outcome(state, NOTHING, self.cite("8.5.36", why))
        if top.zone not in TOP_ZONES:
            why = "only a permanent or a card on the stack can have cards under it"
            return Outcome(state, NOTHING, self.cite("3.0.14", why))
        carried = self.sub_cards_of(state, obj.id)
        return self._put_under(state, obj, top, self._transformed(bool(carried)), carried)

    def has_sub_cards(self, state: GameState, top: int) -> bool:
        """Whether object ``top`` has sub-cards (only the sub-card zones are looked at)."""
        return bool(self.sub_cards_of(state, top))

    def sub_cards_of(self, state: GameState, top: int) -> list[GameObject]:
        """The sub-cards under object ``top``, by id (only the sub-card zones are looked at)."""
        zones, objects = state.zones, state.objects
        out = []
        for key in _sub_card_keys(state.players):
            if key in zones:  # (most often no key: an empty zone's is dropped)
                for i in zones[key]:
                    if objects[i].under == top:
                        out.append(objects[i])
        return sorted(out, key=_ID) if len(out) > 1 else out

    # A branch's fixed rulings: the same every time (a memo of one entry beats citing).

    @memo.last("self", per="carried")
    def _transformed(self, carried: bool) -> Rulings:
        """A put-under's rulings: 8.5.36, 8.5.36a, 3.0.14c if the object had sub-cards
        (``carried``), 3.0.14b."""
        rulings = self.cite(
            "8.5.36", "to transform an object into a permanent, put it under it"
        ) + self.cite("8.5.36a", "the object has transformed into the card it is under")
        if carried:
            why = (
                "a top-card that becomes a sub-card takes its sub-cards: they are under the new one"
            )
            rulings += self.cite("3.0.14c", why)
        return rulings + self._new_sub_card()

    @memo.last("self")
    def _new_sub_card(self) -> Rulings:
        """3.0.14b: what becoming a sub-card makes of a card."""
        return self.cite(
            "3.0.14b",
            "a sub-card is not in the arena; becoming one it is a new card with no relation "
            "to its previous existence",
        )

    def _put_under(
        self,
        state: GameState,
        obj: GameObject,
        top: GameObject,
        rulings: Rulings,
        carried: list[GameObject],
    ) -> Outcome:
        """Make ``obj`` a sub-card of ``top`` (a new object, 3.0.14b); ``carried``, its own
        sub-cards (by id), go under ``top`` too (3.0.14c). ``rulings``: the caller's, 3.0.14b
        last; 3.11.5 follows them if ``top`` is a hero."""
        events = (Event("move", obj.id, obj.cards[0], obj.controller, obj.zone, SUB_CARDS),)
        # The sub-card zone holds any card: the face is never None (no call to narrow it).
        face: str = self.face_on_move(state, obj, SUB_CARDS, None, None).value  # type: ignore[assignment]
        # One core edit, as a move's (the counters advance in it).
        new, state = self._moved(
            state, obj, dest=SUB_CARDS, face=face, fd=False, is_new=True, face_down=False
        )
        new = replace(new, under=top.id)
        state = self.relocate(state, obj, new, clock=new.timestamp, next_id=new.id + 1)
        for sub in carried:  # (the edit above moved none of them)
            state = core.update(state, replace(sub, under=top.id))
        if self.is_hero(state, top):
            rulings += self.cite("3.11.5", "under the hero card it is in the hero's soul")
        return Outcome(state, DONE, rulings, events)

    def charge(self, state: GameState, a: Charge) -> Outcome:
        """8.5.29: a card from its owner's hand into their hero's soul; 8.5.29a: it is
        charged."""
        obj = state.objects[a.object]
        if obj.zone != "hand":
            return Outcome(state, NOTHING, self.cite("8.5.29", "only a card in hand is charged"))
        hero = next(
            (
                o
                for o in state.iter_objects()
                if o.controller == obj.owner and self.is_hero(state, o)
            ),
            None,
        )
        if hero is None:
            why = f"{obj.owner} has no hero, so no soul: the card can't be charged"
            return Outcome(state, NOTHING, self.cite("3.11.5", why))
        rulings = self.cite(
            "8.5.29", "charged: from its owner's hand into their hero's soul"
        ) + self.cite("8.5.29a", f"{obj.owner} has charged a card; the card is charged")
        rulings += self._new_sub_card()
        return self._put_under(state, obj, hero, rulings, self.sub_cards_of(state, obj.id))

    def clear_orphans(self, state: GameState) -> tuple[GameState, Rulings]:
        """3.0.14e: the sub-cards of a top-card that ceased to exist are cleared."""
        rulings: Rulings = ()
        orphans = [
            o.id
            for o in self.sub_cards(state)
            if o.under is not None and o.under not in state.objects
        ]
        for oid in sorted(orphans):
            sub = state.objects[oid]
            out = super().move_object(state, v.Move(object=sub.id, to=self.discard_zone))
            state = out.state
            rulings += out.rulings
            left = state.object_of_card(sub.card)
            if left is not None and left.under is not None:
                state = core.update(state, replace(left, under=None))
        if rulings:
            why = "its top-card ceased to exist: its sub-cards are cleared (3.0.12)"
            rulings = (*self.cite("3.0.14e", why), *rulings)
        return state, rulings

    def token_ceases(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """8.1.8a: a token exists in the arena or as a sub-card."""
        if not obj.token or zone == SUB_CARDS:
            return NO
        return super().token_ceases(state, obj, zone)

    def after_turn_face_down(self, state: GameState, obj: GameObject) -> GameState:
        """3.0.9 then 3.0.14e: a top-card turned face down is a new object; the sub-cards of
        the old one are cleared."""
        return self.clear_orphans(super().after_turn_face_down(state, obj))[0]

    # --- the start of the game (4.1.2, 4.1.4b, 4.1.8, 8.3.36) --------------------------------

    def start_game(self, state: GameState, a: v.StartGame) -> Outcome:
        """4.1.2: the hero is face up; 4.1.4b: the arena-cards were face down until the game
        begins; 4.1.8: they are equipped, face up (8.5.41), except cloaked ones (8.3.36)."""
        if not state.pregame:
            return super().start_game(state, a)
        rulings: Rulings = ()
        for obj in list(state.iter_objects()):
            if obj.zone == self.hero_zone and obj.face_down:
                state = self._set_facing(state, obj, face_down=False)
                rulings += self.cite("4.1.2", "the hero card is placed face up in the hero zone")
            elif obj.zone in EQUIPMENT_ZONES:
                state, why = self._equip_at_start(state, obj)
                rulings += why
        out = super().start_game(state, a)
        return Outcome(out.state, out.result, (*rulings, *out.rulings), out.events)

    def _equip_at_start(self, state: GameState, obj: GameObject) -> tuple[GameState, Rulings]:
        """4.1.8 / 8.3.36 for one card that starts the game in an equipment or weapon zone."""
        printed = state.card_def(obj).faces[0]
        if "Cloaked" in printed.abilities:
            if not obj.face_down:
                state = self._set_facing(state, obj, face_down=True)
            # The name stays out: the card is private to its player once equipped face down.
            why = f"the card in the {zone_name(obj.zone)} has cloaked: it is equipped face down"
            return state, (self.cite("8.3.36", why) + self.cite("4.1.8", "equipment is equipped"))
        if obj.face_down:
            state = self._set_facing(state, obj, face_down=False)
        name = printed.name
        return state, (
            self.cite("4.1.4b", f"{name} was face down and private until the game began")
            + self.cite("4.1.8", f"{name} is equipped in its {zone_name(obj.zone)}, face up")
        )

    def _set_facing(self, state: GameState, obj: GameObject, *, face_down: bool) -> GameState:
        """Turn ``obj`` face up or down where it is (private to public: the same object)."""
        state, ts = core.tick(state)
        return core.update(
            state, replace(obj, face_down=face_down, set_face_down=face_down, timestamp=ts)
        )

    # --- become the same reference (8.5.25d) -------------------------------------------------

    def become_copy(self, state: GameState, a: v.BecomeCopy) -> Outcome:
        """8.5.25d: an object that has become a reference can't become it again."""
        obj = state.objects[a.object]
        values, _ = self.copiable_values(state, state.objects[a.of])
        if obj.copies and obj.copies[-1] == values:
            why = "it has already become that reference: becoming the same reference fails"
            return Outcome(state, NOTHING, self.cite("8.5.25d", why))
        return super().become_copy(state, a)

    # --- look, play permissions, has transcended (8.5.11, 5.1.1a, 5.1.2b, 8.5.48a) ----------

    def is_public_object(self, obj: GameObject) -> bool:
        """3.0.4: a face-up object in a public zone, or shown in a private one (3.0.4d)."""
        if obj.face_down:
            return False
        return obj.zone in PUBLIC_ZONES or obj.shown

    def look(self, state: GameState, a: Look) -> Outcome:
        """8.5.11: the player learns the private object's properties (both faces, 9.1.2a);
        8.5.11b: it stays private and where it is; 8.5.11c: looking at a public object
        fails."""
        if a.source is not None:
            raise InputError("", "source", "fab: look takes no source")
        obj = state.objects[a.object]
        if self.is_public_object(obj):
            return Outcome(
                state, NOTHING, self.cite("8.5.11c", "the object is public: the look fails")
            )
        rulings = self.cite(
            "8.5.11", f"{a.player} looks at the private card: only they learn it"
        ) + self.cite("8.5.11b", "it does not become public and stays in its zone")
        if self.is_double_faced(state.card_def(obj)):
            rulings += self.cite("9.1.2a", "a player who may look at it may look at both faces")
        if not core.mentions(state.knowledge, core.KNOWN_OBJ, obj.id) or not any(
            k.player == a.player and k.obj == obj.id for k in state.knowledge
        ):
            seen = Knowledge(player=a.player, card=obj.card, obj=obj.id, since=state.clock)
            state = replace(state, knowledge=core.adding(state.knowledge, seen))
        return Outcome(state, DONE, rulings)

    def allow_play(self, state: GameState, a: AllowPlay) -> Outcome:
        """An effect's "you may play it": the player may play the object from where it is
        (5.1.1a, 5.1.2b) and, while they may, look at it (8.5.11a)."""
        obj = state.objects[a.object]
        mark = (MAY_PLAY + a.player, obj.id)
        if mark in state.designations:
            why = f"{a.player} may already play it"
            return Outcome(state, NOTHING, self.cite("5.1.2b", why))
        state = replace(state, designations=(*state.designations, mark))
        where = zone_name(obj.zone)
        return Outcome(
            state,
            DONE,
            (
                self.cite("5.1.1a", f"an effect lets {a.player} play it from the {where}")
                + self.cite("8.5.11a", f"while they may play it, {a.player} may look at it")
            ),
        )

    def may_play_holders(self, state: GameState, obj: GameObject) -> list[str]:
        """The players an effect lets play ``obj`` from where it is."""
        return [p for p in state.players if (MAY_PLAY + p, obj.id) in state.designations]

    def play_refusal(self, state: GameState, obj: GameObject) -> Rulings:
        """5.1.1a, 5.1.2b: a card outside the hand and arsenal is played only with a rule's
        or effect's permission; empty: it may be (the stack's own checks follow)."""
        if obj.zone not in ("banished", "graveyard") or self.may_play_holders(state, obj):
            return ()
        why = (
            f"a card is played from the hand or arsenal; nothing lets anyone play it from the "
            f"{zone_name(obj.zone)}"
        )
        return self.cite("5.1.1a", why) + self.cite(
            "5.1.2b", "a card is announced only if a rule or effect allows it"
        )

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """Playing with a permission: the holder plays it, so controls it on the stack
        (1.3.1b); the owner first if they hold one."""
        obj = state.objects[a.object]
        holders = self.may_play_holders(state, obj) if obj.zone not in PLAY_ZONES else []
        out = super().cast(state, a)
        if out.result != DONE or not holders:
            return out
        player = obj.owner if obj.owner in holders else holders[0]
        why = f"{player} plays it with the effect's permission"
        rulings = (*out.rulings, *self.cite("5.1.2b", why))
        moved = out.state.object_of_card(obj.card)
        state = out.state
        if moved is not None and moved.controller != player:
            state = core.update(state, replace(moved, controller=player))
            rulings += self.cite("1.3.1b", f"{player} played it, so {player} controls it")
        return Outcome(state, DONE, rulings, out.events)

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """A permission's holder may look at the card (8.5.11a); a sub-card is as public as
        its top-card (3.0.14d); otherwise :meth:`FabZones.may_look`."""
        if viewer is not None and (MAY_PLAY + viewer, obj.id) in state.designations:
            return True
        if obj.zone == SUB_CARDS and obj.under is not None:
            top = state.objects.get(obj.under)
            if top is not None and top.face_down:
                return viewer is not None and viewer == obj.owner
        return super().may_look(state, viewer, obj)

    def note_transcended(self, state: GameState, player: str) -> GameState:
        """8.5.48a: the player controlling the transcend effect has transcended."""
        mark = (f"{TRANSCENDED}{player}:{state.turn}", 0)
        if mark in state.designations:
            return state
        return replace(state, designations=(*state.designations, mark))

    def has_transcended(self, state: GameState, a: HasTranscended) -> Outcome:
        """8.5.48a: whether ``player`` has transcended (this turn, or this game)."""
        prefix = f"{TRANSCENDED}{a.player}:"
        turns = [int(d[0][len(prefix) :]) for d in state.designations if d[0].startswith(prefix)]
        yes = state.turn in turns if a.this_turn else bool(turns)
        when = "this turn" if a.this_turn else "this game"
        why = f"{a.player} {'has' if yes else 'has not'} transcended {when}"
        return Outcome(state, DONE, self.cite("8.5.48a", why), answer=yes)

    # Look, permission, charge and put-under candidates on one object: FaB lists them among
    # its own (ARENA_OFFERS).

    def _offer_look(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Look(player=player, object=o.id)]

    def _offer_allow_play(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        # Any player may be allowed (the permission is the effect's, 5.1.1a).
        return [AllowPlay(player=p, object=o.id) for p in state.players]

    def _offer_charge(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Charge(object=o.id)] if o.zone == "hand" else []

    def _offer_put_under(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        # Only under the hero or a permanent of the same controller: the effects that put a
        # card under something (8.5.29, 8.5.36) are its controller's own.
        return [
            PutUnder(object=o.id, top=x.id)
            for x in state.iter_objects()
            if x.id != o.id
            and x.controller == o.controller
            and (x.zone == self.hero_zone or x.zone == self.play_zone)
        ]


#: The arena's per-object generators (see :attr:`Offers.object_offers`), in the place FaB
#: lists them.
ARENA_OFFERS: Final = (
    ("look", "_offer_look"),
    ("allow_play", "_offer_allow_play"),
    ("charge", "_offer_charge"),
    ("put_under", "_offer_put_under"),
)
