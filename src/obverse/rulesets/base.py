"""The :class:`Ruleset`: the generic procedures every game shares, built on the hooks.

A procedure is named by its verb and takes the typed action (:mod:`obverse.vocab`):
``rs.move(state, Move(...))``. The kernel's entry point, :func:`obverse.engine.apply`, checks
an action (vocabulary, names, references, ``forbid``) and then calls the procedure of that
name. A game overrides hooks (:class:`~obverse.rulesets.hooks.Hooks`) and, for its own verbs,
adds procedures; procedures call each other and the core edits, never the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.cards import STAT_FIELDS, CardDef
from obverse.characteristics import (
    FILTER_KEYS,
    MODIFY_KEYS,
    Characteristics,
    applies_to,
    characteristics,
    exception_keys,
    matches,
    status_matches,
)
from obverse.errors import InputError, RulesError, quote, suggest
from obverse.rulesets.hooks import Hooks, Rulings
from obverse.rulesets.offers import Offers
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import CopyValues, Effect, GameObject, GameState, Knowledge, PhysicalCard

replace = msgspec.structs.replace


class Catalog(Protocol):
    """The cards a game may name or meld into (a card database, the scenario's cards)."""

    def get(self, name: str) -> CardDef | None:
        """The card with this name, if any."""

    def bearing(self, name: str) -> list[CardDef]:
        """The cards with a face (or a whole) of this name."""

    def all_cards(self) -> list[CardDef]:
        """Every card known."""


class MovePlan(msgspec.Struct, frozen=True, gc=False):
    """What a ruleset's hooks decide of one move (:meth:`Ruleset.plan_move`). (A struct: built
    and read faster than a named tuple, on the hottest procedure.)"""

    #: The zone really reached (:meth:`~Hooks.destination`).
    dest: str
    #: The hooks' rulings, in order.
    rulings: Rulings
    #: ``dest`` is the zone it is in: :meth:`~Hooks.move_within_zone` has the first say
    #: (nothing else decided yet).
    within: bool = False
    #: The face up in ``dest``; ``None``: it doesn't move (``rulings`` say why).
    face: str | None = None
    face_down: bool = False
    is_new: bool = False
    #: ``"unmeld"``: each of its cards becomes a new object; ``"cease"``: a token ceases to
    #: exist; ``""``: it arrives as one object.
    ends: str = ""
    events: tuple[Event, ...] = ()
    #: The keys of the zone it leaves and the zone it enters.
    keys: tuple[str, str] = ("", "")
    #: The destination's rulings alone (what a refusal of the zone's entry follows).
    settled: Rulings = ()


class Ruleset(Offers, Hooks):
    """A game's rules: switches, hooks and the procedures built on them."""

    #: The game's own verbs beyond :data:`obverse.vocab.SHARED` (data: the typed actions).
    actions: ClassVar[tuple[type[v.Action], ...]] = ()
    #: The ways an object may be face down that change its values (``as``; MTG's morph ...).
    face_down_kinds: ClassVar[frozenset[str]] = frozenset()
    #: The ways (``by``) a face-down object may be turned face up besides an effect.
    turn_up_ways: ClassVar[frozenset[str]] = frozenset({"effect"})
    #: Turning face up may make it a copy (``copy``: MTG 708.11).
    face_up_copies: ClassVar[bool] = False
    #: Whether the move hooks :meth:`plan_move` asks read nothing of the state but what an
    #: object's characteristics read (its printed cards, the effects and designations): then
    #: a move's plan is kept per object value and move (:func:`_kept_plan`;
    #: ``tests/test_move_plans.py`` holds it equal to asking the hooks).
    plans_per_object: ClassVar[bool] = False
    #: Color names and the letters the game's cards use (MTG: ``green`` is ``G``); empty:
    #: colors are taken as written.
    color_names: ClassVar[Mapping[str, str]] = {}

    # --- the vocabulary ---------------------------------------------------------------------

    @classmethod
    def vocabulary(cls) -> tuple[type[v.Action], ...]:
        """Every action and query of this ruleset: the shared ones and its own."""
        return _vocabulary(cls)

    @classmethod
    def action_class(cls, verb: str) -> type[v.Action] | None:
        """The action class of ``verb`` in this ruleset, or ``None``."""
        return _action_classes(cls).get(verb)

    # --- core edits with this game's zone keys ---------------------------------------------

    def place(self, state: GameState, obj: GameObject, position: str | None = None) -> GameState:
        """Put ``obj`` into its zone (top unless ``position == "bottom"``)."""
        return core.place(state, obj, self.zone_key(obj.zone, obj.owner), position)

    def remove(self, state: GameState, obj: GameObject) -> GameState:
        """Take ``obj`` out of its zone and the object table."""
        return core.remove(state, obj, self.zone_key(obj.zone, obj.owner))

    def relocate(
        self,
        state: GameState,
        old: GameObject,
        new: GameObject,
        position: str | None = None,
        *,
        clock: int | None = None,
        next_id: int | None = None,
    ) -> GameState:
        """:meth:`remove` ``old`` and :meth:`place` ``new``, the object it became, as one edit
        (``clock``, ``next_id``: the state's new counters too, see :func:`core.relocate`)."""
        old_key = self.zone_key(old.zone, old.owner)
        new_key = self.zone_key(new.zone, new.owner)
        return core.relocate(
            state, old, old_key, new, new_key, position, clock=clock, next_id=next_id
        )

    # --- checks the kernel makes before any procedure ---------------------------------------

    def is_forbidden(self, state: GameState, obj: GameObject, action: str) -> bool:
        """Whether an effect says ``obj`` can't do or undergo ``action``."""
        for effect in state.effects:
            for key, value in effect.modify:
                if key != "forbid" or action not in (value if isinstance(value, tuple) else ()):
                    continue
                if effect.target is not None or effect.fixed is not None or effect.filter is None:
                    if effect.target == obj.id or (effect.fixed and obj.id in effect.fixed):
                        return True
                    continue
                if applies_to(state, effect, obj, characteristics(state, obj, self), self):
                    return True
        return False

    def check_kind(self, kind: str | None) -> None:
        """A face-down kind (``as``) is one of this game's; raises :class:`InputError`."""
        if kind is not None and kind not in self.face_down_kinds:
            raise InputError("", "as", f"{self.name} has no face-down kind {quote(kind)}")

    def check_face_down_values(self, given: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
        """The characteristics an effect lists for a face-down object (MTG 708.2) as
        ``(key, value)`` pairs; raises :class:`InputError` (a game without them: always)."""
        raise InputError("", "values", f"{self.name} has no listed face-down values")

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """The game's refusal of ``actor`` taking ``action`` (an action only some player
        may take), the same whatever hidden card it names; ``None`` to go on."""
        return None

    def may_refer(self, state: GameState, actor: str, obj: GameObject) -> bool:
        """Whether ``actor`` may name ``obj`` in an action: a card they can identify, or an
        object everyone sees as what it is (a face-down permanent, as the face-down object)."""
        # The public face-down object before kept knowledge: knowledge is read entry by entry.
        return (
            self.may_look(state, actor, obj)
            or self.public_characteristics(state, actor, obj) is not None
            or self.knows(state, actor, obj)
        )

    # --- setting up -------------------------------------------------------------------------

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
        """Bring a card (or token) into the game before play; returns its card id. The
        rules fill in what isn't given: the owner (a token's is its controller), the face,
        the facing and flip status the zone gives it; outside play the controller is the
        owner."""
        self.check_kind(face_down_as)
        owner = owner or (controller if token and controller else state.players[0])
        face = face or self.default_face(card, zone)
        face_down = self.face_down_on_setup(zone, face_down)
        if flipped is None:
            flipped = self.is_flipped_on_setup(card, face)
        state, card_id = core.add_physical_card(state, PhysicalCard(card, owner, token=token))
        # A new id and the next timestamp in one edit of the state.
        oid, ts = state.next_id, state.clock + 1
        state = replace(state, next_id=oid + 1, clock=ts)
        if not (self.is_in_play(zone) or zone == self.stack_zone):
            controller = None  # outside play the controller is the owner
        obj = GameObject(
            id=oid,
            cards=(card_id,),
            zone=zone,
            owner=owner,
            controller=controller or owner,
            face=face,
            face_down=face_down,
            set_face_down=face_down,
            flipped=flipped,
            token=token,
            timestamp=ts,
            face_down_as=face_down_as if face_down else None,
        )
        return self.place(state, obj, position), card_id

    def is_flipped_on_setup(self, card: CardDef, face: str) -> bool:
        """Whether a card set up with ``face`` up has the flipped status (MTG 710)."""
        return False

    # --- moving ------------------------------------------------------------------------------

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """Move an object to a zone (dies, bounce, exile, blink ...). The ruleset decides the
        destination really reached, the face, the facing and whether it is a new object."""
        if a.as_ is not None:  # no kind: nothing to check
            self.check_kind(a.as_)
        if a.values is not None:
            self.check_face_down_values(a.values)
        return self.move_object(state, a)  # a.to is canonical: the kernel made it so

    def move_object(
        self,
        state: GameState,
        a: v.Move,
        *,
        controller: str | None = None,
        face_fixed: str | None = None,
    ) -> Outcome:
        """:meth:`move` with what procedures add: ``face_fixed``, a face the rules already
        chose (casting, playing, resolving), and the controller in the new zone. The hooks
        decide the move (:meth:`plan_move`), then it is carried out."""
        obj = state.objects[a.object]
        if self.plans_per_object:
            plan = _kept_plan(self, state, obj, a, face_fixed)
        else:
            plan = self.plan_move(state, obj, a, face_fixed)
        rulings = plan.rulings
        if plan.within:  # a ruleset may give same-zone moves their own meaning
            within = self.move_within_zone(state, obj, a.face_down, a.position)
            if within is not None:
                return replace(within, rulings=(*rulings, *within.rulings))
            plan = self.plan_move(state, obj, a, face_fixed, within=False)
            rulings = plan.rulings
        dest, face, fd, is_new, ends = plan.dest, plan.face, plan.face_down, plan.is_new, plan.ends
        if face is None:
            return Outcome(state, NOTHING, rulings)
        if dest in self.entry_checked and face_fixed is None:
            refused = self.refuses_entry(state, obj, dest)
            if refused:  # after the destination's rulings, as a face refused would be
                return Outcome(state, NOTHING, (*plan.settled, *refused))
        if ends:
            state = self.remove(state, obj)
            if ends == "unmeld":
                state = self._unmeld(state, obj, dest, fd, a.position)
            else:  # a token ceases to exist
                state = core.forget(state, obj.id)
            return Outcome(state, DONE, rulings, plan.events)
        new, state = self._moved(
            state,
            obj,
            dest=dest,
            face=face,
            fd=fd,
            is_new=is_new,
            face_down=a.face_down,
            controller=controller,
        )
        next_id = new.id + 1 if is_new else None  # the counters advance in the same edit
        old_key, new_key = plan.keys
        state = core.relocate(
            state, obj, old_key, new, new_key, a.position, clock=new.timestamp, next_id=next_id
        )
        after = self.after_move_from  # most moves leave a zone after_move has nothing for
        if after is None or obj.zone in after:
            state = self.after_move(state, obj, new)
        return Outcome(state, DONE, rulings, plan.events)

    def plan_move(
        self,
        state: GameState,
        obj: GameObject,
        a: v.Move,
        face_fixed: str | None = None,
        within: bool = True,
    ) -> MovePlan:
        """What the hooks decide of moving ``obj`` as ``a`` says (``face_fixed``: a face the
        rules already chose): :meth:`destination`, then (unless it stays in its zone and
        ``within``) :meth:`face_on_move`, :meth:`face_down_on_move`, :meth:`is_new_object`,
        and whether it unmelds or (:meth:`token_ceases`) ceases to exist. With
        :attr:`plans_per_object`, decided once per object value and move (:func:`_kept_plan`)."""
        dest, rulings = self.destination(state, obj, a.to, a.transformed)
        if within and dest == obj.zone:
            return MovePlan(dest, rulings, within=True)
        settled = rulings
        new_face = face_fixed
        if new_face is None:
            new_face, why = self.face_on_move(state, obj, dest, a.face, a.transformed)
            if why:  # most hooks answer with no rulings: join only what there is
                rulings += why
            if new_face is None:
                return MovePlan(dest, rulings, settled=settled)
        fd, why = self.face_down_on_move(state, obj, dest, a.face_down)
        is_new, why2 = self.is_new_object(state, obj, dest)
        if why:
            rulings += why
        if why2:
            rulings += why2
        events: tuple[Event, ...] = (
            Event("move", obj.id, obj.cards[0], obj.controller, obj.zone, dest),
        )
        keys = (self.zone_key(obj.zone, obj.owner), self.zone_key(dest, obj.owner))
        if (obj.meld is not None or obj.components) and not self.is_in_play(dest):
            return MovePlan(
                dest, rulings, False, new_face, fd, is_new, "unmeld", events, keys, settled
            )
        ceases, why = self.token_ceases(state, obj, dest)
        if ceases:
            events += (Event("cease", obj.id, obj.cards[0]),)
            ceased = (*rulings, *why)
            return MovePlan(
                dest, ceased, False, new_face, fd, is_new, "cease", events, keys, settled
            )
        return MovePlan(dest, rulings, False, new_face, fd, is_new, "", events, keys, settled)

    def _moved(
        self,
        state: GameState,
        obj: GameObject,
        *,
        dest: str,
        face: str,
        fd: bool,
        is_new: bool,
        face_down: bool | None = None,
        controller: str | None = None,
    ) -> tuple[GameObject, GameState]:
        """``obj`` as it arrives in ``dest`` (a new object, or the same one) with ``face`` up,
        face down if ``fd`` (``face_down``: the facing the move asked for), and the next
        timestamp (and id); the state's counters are left for the caller's edit to advance."""
        ts = state.clock + 1
        if not self.is_in_play(dest) and dest != self.stack_zone:
            controller = obj.owner  # outside play and the stack the controller is the owner
        if is_new:
            # core.forget's own first test, made here: most objects leave nothing to forget.
            if state.effects or state.knowledge or state.designations:
                state = core.forget(state, obj.id)
            oid = state.next_id
            new = GameObject(
                id=oid,
                cards=obj.cards,
                zone=dest,
                owner=obj.owner,
                controller=controller or obj.owner,
                face=face,
                face_down=fd,
                set_face_down=fd,
                token=obj.token,
                timestamp=ts,
            )
        else:
            new = replace(
                obj,
                zone=dest,
                face=face,
                face_down=fd,
                set_face_down=fd and (obj.set_face_down or bool(face_down)),
                controller=controller or obj.controller,
                timestamp=ts,
            )
        shown = (
            face_down is False
            and not fd
            and self.public_objects_in_private_zones
            and not self.is_public(dest)
        )
        return (replace(new, shown=shown) if shown != new.shown else new), state

    def _unmeld(
        self, state: GameState, obj: GameObject, dest: str, fd: bool, position: str | None
    ) -> GameState:
        """A melded or merged permanent leaving play: each card becomes a new object (MTG
        712.21, 729.3)."""
        state = core.forget(state, obj.id)
        for card in obj.cards:
            single = replace(
                obj,
                cards=(card,),
                meld=None,
                copies=(),
                counters=(),
                components=(),
                face_down_as=None,
                face_down_values=(),
            )
            f, _ = self.face_on_move(state, single, dest, None, None)
            state, oid = core.new_object_id(state)
            state, ts = core.tick(state)
            new = replace(
                single,
                id=oid,
                zone=dest,
                face=f or "front",
                face_down=fd,
                set_face_down=fd,
                flipped=False,
                controller=single.owner,
                timestamp=ts,
            )
            state = self.place(state, new, position)
        return state

    # --- casting, playing, resolving --------------------------------------------------------

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """Cast a card: onto the stack (or, per game, straight into play) with a face choice
        where the rules allow one. Only face rules are checked, never timing or cost.
        ``controller``: the player casting it controls it (its owner stays)."""
        self.check_kind(a.as_)
        if a.fuse:  # MTG 702.102: the games that have fused split spells override cast
            raise InputError("", "fuse", f"{self.name} has no fused split spells")
        if a.half is not None:  # MTG 709.3: the games with split cards override cast
            raise InputError("", "half", f"{self.name} has no split card halves to choose")
        obj = state.objects[a.object]
        result, zone, new_face, rulings = self.plan_cast(state, obj, a)
        if result != DONE:
            return Outcome(state, result, rulings)
        if a.controller is not None:
            obj = replace(obj, controller=a.controller)
        return self._put(state, obj, zone, new_face, a.face_down, rulings)

    def play(self, state: GameState, a: v.Play) -> Outcome:
        """Play a card (lands, FaB cards): :meth:`cast` with the verb ``play``."""
        return self.cast(state, a)

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """The object on the stack resolves: into play per the rules, or to the graveyard."""
        obj = state.objects[a.object]
        if obj.zone != self.stack_zone:
            raise RulesError(f"the object is in {obj.zone}, not on the stack")
        zone, face, rulings = self.plan_resolve(state, obj)
        return self._put(state, obj, zone, face, obj.face_down, rulings)

    def _put(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str,
        face_down: bool,
        rulings: Rulings,
    ) -> Outcome:
        """``obj`` goes where casting or resolving put it, with the face the rules chose and
        its controller kept; the plan's rulings come first."""
        move = v.Move(object=obj.id, to=zone, face_down=face_down)
        out = self.move_object(state, move, face_fixed=face, controller=obj.controller)
        return Outcome(out.state, DONE, (*rulings, *out.rulings), out.events)

    # --- turning over -----------------------------------------------------------------------

    def transform(self, state: GameState, a: v.Transform) -> Outcome:
        """Turn a double-faced permanent over (MTG 701.27, GA 2): not a new object."""
        obj = state.objects[a.object]
        ok, rulings = self.can_transform(state, obj)
        if not ok:
            return Outcome(state, NOTHING, rulings)
        ts = state.clock + 1  # the clock ticks: the object gets the new timestamp
        new_face = "front" if obj.face == "back" else "back"
        state = core.update(state, replace(obj, face=new_face, timestamp=ts), clock=ts)
        return Outcome(
            state, DONE, rulings, (Event("transform", obj.id, obj.cards[0], obj.controller),)
        )

    def turn_face_down(self, state: GameState, a: v.TurnFaceDown) -> Outcome:
        """Turn an object face down (MTG 708, 712.16; GA 8; SCP)."""
        self.check_kind(a.as_)
        if a.values is not None:
            self.check_face_down_values(a.values)
        obj = state.objects[a.object]
        ok, rulings = self.can_turn_face_down(state, obj)
        if not ok:
            return Outcome(state, NOTHING, rulings)
        state, ts = core.tick(state)
        down = replace(obj, face_down=True, set_face_down=True, shown=False, timestamp=ts)
        state = core.update(state, down)
        knowledge = core.dropping(state.knowledge, core.KNOWN_OBJ, obj.id, core.KNOWN_LASTING)
        if knowledge is not state.knowledge:
            state = replace(state, knowledge=knowledge)
        state = self.after_turn_face_down(state, obj)
        return Outcome(
            state, DONE, rulings, (Event("turn_face_down", obj.id, None, obj.controller),)
        )

    def turn_face_up(self, state: GameState, a: v.TurnFaceUp) -> Outcome:
        """Turn a face-down object face up (MTG 708.8, 712.15a: front face up)."""
        if a.by is not None and a.by not in self.turn_up_ways:
            raise InputError("", "by", f"{self.name} turns objects face up only by an effect")
        if a.copy is not None and not self.face_up_copies:
            raise InputError("", "copy", f"{self.name} has no 'as it is turned face up' copies")
        obj = state.objects[a.object]
        ok, rulings = self.can_turn_face_up(state, obj)
        if not ok:
            return Outcome(state, NOTHING, rulings)
        state, ts = core.tick(state)
        up = replace(
            obj,
            face_down=False,
            set_face_down=False,
            shown=self.public_objects_in_private_zones and not self.is_public(obj.zone),
            face=self.face_after_face_up(state, obj),
            timestamp=ts,
        )
        state = core.update(state, up)
        return Outcome(
            state, DONE, rulings, (Event("turn_face_up", obj.id, obj.card, obj.controller),)
        )

    # --- copies -----------------------------------------------------------------------------

    def become_copy(self, state: GameState, a: v.BecomeCopy) -> Outcome:
        """``object`` becomes a copy of ``of``: the copiable values of its current face(s)."""
        obj = state.objects[a.object]
        of = state.objects[a.of]
        values, rulings = self.copy_effect(state, obj, of)
        values, why = self.with_exceptions(of, values, a.except_)
        rulings += why
        state, ts = core.tick(state)
        state = core.update(state, replace(obj, copies=(*obj.copies, values), timestamp=ts))
        return Outcome(state, DONE, rulings, (Event("copy", obj.id, obj.card, obj.controller),))

    def create_token_copy(self, state: GameState, a: v.CreateTokenCopy) -> Outcome:
        """A token that is a copy of ``of`` enters the play zone; ``answer`` is its card id."""
        of = state.objects[a.of]
        who = a.controller or of.controller
        card, face, values, rulings = self.token_copy(state, of)
        values, why = self.with_exceptions(of, values, a.except_)
        rulings += why
        state, card_id = self.add_card(
            state,
            card,
            self.play_zone,
            owner=who,
            controller=who,
            face=face,
            face_down=False,
            flipped=False,
            token=True,
        )
        obj = state.object_of_card(card_id)
        assert obj is not None
        state = core.update(state, replace(obj, copies=(values,)))
        event = Event("create_token", obj.id, card_id, who)
        return Outcome(state, DONE, rulings, (event,), answer=card_id)

    def with_exceptions(
        self, of: GameObject, values: CopyValues, given: Mapping[str, Any] | None
    ) -> Decided[CopyValues]:
        """Copy values with the exceptions ``of``'s own copy effect made part of its copiable
        values (MTG 707.2) and the new ones (``except:``, 707.9)."""
        inherited = of.copies[-1].exceptions if of.copies and not of.face_down else ()
        new = self.checked_exceptions(given) if given else ()
        if not (inherited or new):
            return Decided(values)
        values = replace(values, exceptions=(*inherited, *new))
        return Decided(values, self.copy_exception_rulings(new, inherited))

    def checked_exceptions(self, given: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
        """A copy effect's exceptions as (key, value) pairs: keys the game's characteristics
        (or ``add_*``), colors by letter. Raises :class:`InputError` naming a bad key."""
        allowed = exception_keys(self.stats)
        out: list[tuple[str, object]] = []
        for key, value in given.items():
            if key not in allowed:
                hint = suggest(key, allowed)
                raise InputError("", f"except.{key}", f"not a copy exception of {self.game}{hint}")
            out.append((key, self._exception_value(key, value)))
        return tuple(out)

    def _exception_value(self, key: str, value: Any) -> object:
        if key == "name" or key in STAT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise InputError("", f"except.{key}", "expected a name or a number")
            return value
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list | tuple) or not all(isinstance(x, str) for x in names):
            raise InputError("", f"except.{key}", "expected a name or a list of names")
        if key in ("colors", "add_colors"):
            return self.color_letters(names, f"except.{key}")
        return tuple(names)

    def color_letters(self, names: Any, key: str) -> tuple[str, ...]:
        """Colors by the game's letters (``green`` is ``G`` in MTG); with :attr:`color_names`
        set, an unknown color is an :class:`InputError` naming ``key``."""
        names = [names] if isinstance(names, str) else list(names)
        if not self.color_names:
            return tuple(names)
        letters = set(self.color_names.values())
        out: list[str] = []
        for n in names:
            letter = n if n in letters else self.color_names.get(str(n).lower())
            if letter is None:
                known = sorted({*self.color_names, *letters})
                raise InputError("", key, f"unknown color {quote(n)}{suggest(str(n), known)}")
            out.append(letter)
        return tuple(out)

    def copy_exception_rulings(
        self, new: tuple[tuple[str, object], ...], inherited: tuple[tuple[str, object], ...]
    ) -> Rulings:
        """The rules behind a copy effect's exceptions (games cite their copy rules)."""
        return ()

    # --- effects, counters, control ---------------------------------------------------------

    def apply_effect(self, state: GameState, a: v.ApplyEffect) -> Outcome:
        """Start a continuous effect on one object or on whatever matches a filter."""
        state, ts = core.tick(state)
        where = a.to if isinstance(a.to, Mapping) else None
        if where is not None:
            self.check_filter(state, where)
        modify = dict(a.modify)
        for key in modify:
            if key not in MODIFY_KEYS:  # never kept and ignored: an effect that does nothing
                hint = suggest(str(key), MODIFY_KEYS)
                raise InputError("", f"modify.{key}", f"unknown modification{hint}")
        for key in ("set_types", "set_supertypes"):
            if key in modify and not self.type_setting:
                raise InputError("", f"modify.{key}", f"{self.name} has no type-setting effects")
        for key in ("color", "add_color"):
            if key in modify:
                modify[key] = self.color_letters(modify[key], f"modify.{key}")
        effect = Effect(
            label=a.label,
            target=None if where is not None else int(a.to),  # type: ignore[arg-type]
            filter=_frozen({k: w for k, w in where.items() if k != "zone"}) if where else None,
            modify=_frozen(modify),
            until_end_of_turn=a.until == "end_of_turn",
            timestamp=ts,
            zone=self.canonical_zone(where["zone"]) if where and "zone" in where else None,
        )
        effect, rulings = self.effect_scope(state, effect, a.fixed)
        rulings += self.effect_rulings(effect)
        state = replace(state, effects=(*state.effects, effect))
        return Outcome(state, DONE, rulings)

    def check_filter(self, state: GameState, where: Mapping[str, Any]) -> None:
        """A filter's keys are characteristics, ``zone`` or status (``face_down``, ``token``:
        booleans; ``controller``, ``owner``: players). Raises :class:`InputError`."""
        for key, want in where.items():
            if key not in FILTER_KEYS:
                raise InputError("", f"to.{key}", f"unknown filter key{suggest(key, FILTER_KEYS)}")
            if key in ("face_down", "token") and not isinstance(want, bool):
                raise InputError("", f"to.{key}", "expected true or false")
            if key in ("controller", "owner") and want not in state.players:
                raise InputError("", f"to.{key}", f"unknown player {quote(want)}")

    def effect_rulings(self, effect: Effect) -> Rulings:
        """The rules behind a starting effect's kind (MTG: color-changing effects)."""
        return ()

    def add_counters(self, state: GameState, a: v.AddCounters) -> Outcome:
        """Put ``count`` counters named ``counter`` on an object."""
        obj = state.objects[a.object]
        if a.count == 0:
            return Outcome(state, NOTHING)
        counters = dict(obj.counters)
        counters[a.counter] = counters.get(a.counter, 0) + a.count
        state = core.update(state, replace(obj, counters=tuple(sorted(counters.items()))))
        state, rulings = self.after_counters(state, obj.id, a.counter)
        detail = f"{a.counter}+{a.count}"
        return Outcome(state, DONE, rulings, (Event("counters", obj.id, obj.card, detail=detail),))

    def after_counters(
        self, state: GameState, obj_id: int, counter: str
    ) -> tuple[GameState, Rulings]:
        """Adjust the state after counters were put on an object (MTG 704.5q: +1/+1 and
        -1/-1 counters annihilate), with the rules that decided it."""
        return state, ()

    def change_control(self, state: GameState, a: v.ChangeControl) -> Outcome:
        """``to`` gains control of the object."""
        obj = state.objects[a.object]
        if obj.controller == a.to:
            return Outcome(state, NOTHING)
        state = core.update(state, replace(obj, controller=a.to))
        state = self.after_control_change(state, obj, a.to)
        return Outcome(state, DONE, (), (Event("control", obj.id, obj.card, a.to),))

    # --- information ------------------------------------------------------------------------

    def reveal(self, state: GameState, a: v.Reveal) -> Outcome:
        """Reveal a card: the players may identify it until it moves, turns face down or is
        shuffled."""
        obj = state.objects[a.object]
        players = tuple(a.to or state.players)
        ok, why = self.can_reveal(state, obj, players)
        if not ok:
            return Outcome(state, NOTHING, why)
        known = (
            {(k.player, k.obj) for k in state.knowledge}
            if core.mentions(state.knowledge, core.KNOWN_OBJ, obj.id)  # else none is of obj
            else set()
        )
        lasting = self.reveal_knowledge_lasts
        new = tuple(
            Knowledge(player=p, card=obj.card, obj=obj.id, lasting=lasting, since=state.clock)
            for p in players
            if (p, obj.id) not in known
        )
        state = replace(state, knowledge=core.adding(state.knowledge, *new))
        event = Event("reveal", obj.id, obj.card, detail=",".join(players))
        return Outcome(state, DONE, why, (event,))

    def examine(self, state: GameState, a: v.Examine) -> Outcome:
        """``player`` looks at (both faces of) a card they may look at; never a transform."""
        obj = state.objects[a.object]
        ok, rulings = self.can_examine(state, a.player, obj)
        if not ok:
            return Outcome(state, ILLEGAL, rulings)
        knows = core.mentions(state.knowledge, core.KNOWN_OBJ, obj.id) and any(
            k.player == a.player and k.obj == obj.id for k in state.knowledge
        )
        if not knows and self.examine_records_knowledge:
            seen = Knowledge(
                player=a.player,
                card=obj.card,
                obj=obj.id,
                since=state.clock,
                lasting=self.knowledge_lasts,
            )
            state = replace(state, knowledge=core.adding(state.knowledge, seen))
        return Outcome(state, DONE, rulings)

    def shuffle(self, state: GameState, a: v.Shuffle) -> Outcome:
        """Shuffle a zone (:func:`obverse.state.shuffled`: seeded, or keyed for live play);
        knowledge of its cards ends."""
        zone = self.canonical_zone(a.zone)
        key = self.zone_key(zone, a.player)
        # The seed's generator for a scenario's own steps, a secret key's for live play.
        contents = core.shuffled(state, list(state.zone_contents(key)))
        knowledge = state.knowledge
        if contents:  # an empty zone ends no knowledge: no scan of it
            ids = set(contents)
            if core.mentions_any(knowledge, core.KNOWN_OBJ, ids):
                knowledge = tuple(k for k in knowledge if k.obj not in ids)
        state = replace(
            core.shuffle_zone(state, key, contents),
            shuffles=state.shuffles + 1,
            knowledge=knowledge,
        )
        state = self.after_shuffle(state, a.player, zone)
        return Outcome(state, DONE, (), (Event("shuffle", None, None, a.player, zone),))

    # --- turns ------------------------------------------------------------------------------

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """ "Until end of turn" effects end; the next player becomes active."""
        effects = tuple(e for e in state.effects if not e.until_end_of_turn)
        active = (state.active + 1) % len(state.players)
        state = replace(state, effects=effects, active=active, turn=state.turn + 1)
        return Outcome(self.on_end_turn(state), DONE, (), (Event("end_turn"),))

    def start_game(self, state: GameState, a: v.StartGame) -> Outcome:
        """The game begins (a state set up with ``pregame``)."""
        if not state.pregame:
            return Outcome(state, NOTHING)
        state = self.on_start_game(replace(state, pregame=False))
        return Outcome(state, DONE, (), (Event("start_game"),))

    # --- queries ----------------------------------------------------------------------------

    def search(self, state: GameState, a: v.Search | v.Select) -> Outcome:
        """The objects in ``player``'s ``zone`` (or a shared zone) matching ``where``; a
        search sees face-down cards by their fronts, a selection as they are."""
        zone = self.canonical_zone(a.zone)
        where = {k: w for k, w in (a.where or {}).items() if k != "zone"}
        sight, rulings = self.query_sight(a.verb, zone)
        found = []
        for o in state.iter_objects():
            if not self.zone_matches(o.zone, zone):
                continue
            if not (self.is_shared(zone) or self.is_shared(o.zone)) and o.owner != a.player:
                continue  # an owned zone: the player's own
            if matches(sight(state, o), where) and status_matches(o, where):
                found.append(o.id)
        return Outcome(state, DONE, rulings, answer=tuple(found))

    def select(self, state: GameState, a: v.Select) -> Outcome:
        """:meth:`search` seeing only the characteristics the objects have now."""
        return self.search(state, a)

    def name_card(self, state: GameState, a: v.NameCard, catalog: Catalog) -> Outcome:
        """Whether ``name`` may be chosen when naming a card; ``answer`` is True or False."""
        ok, rulings = self.can_name(state, a.name, catalog.bearing(a.name))
        return Outcome(state, DONE, rulings, answer=ok)

    def check_card_pool(self, state: GameState, a: v.CheckCardPool, catalog: Catalog) -> Outcome:
        """Whether the cards may be in the hero's card-pool (FaB 1.1.3); ``answer`` is
        True or False."""
        cards: list[CardDef] = []
        for c in a.cards:
            card = state.card_def(state.objects[c]) if isinstance(c, int) else catalog.get(c)
            if card is not None:
                cards.append(card)
        ok, rulings = self.can_be_in_pool(state, state.objects[a.hero], cards)
        return Outcome(state, DONE, rulings, answer=ok)


@memo.per_identity(
    "obj",
    "rs",
    "state.cards",
    "state.effects",
    "state.designations",
    "a.to",
    "a.face",
    "a.face_down",
    "a.transformed",
    "face_fixed",
)
def _kept_plan(
    rs: Ruleset, state: GameState, obj: GameObject, a: v.Move, face_fixed: str | None
) -> MovePlan:
    """:meth:`Ruleset.plan_move` kept per object value, ruleset, the state's parts an object's
    characteristics read (printed cards, effects, designations) and the move's fields: for a
    ruleset whose move hooks read nothing else (:attr:`Ruleset.plans_per_object`)."""
    return rs.plan_move(state, obj, a, face_fixed)


@memo.per_value
def _vocabulary(cls: type[Ruleset]) -> tuple[type[v.Action], ...]:
    """The shared verbs' action classes and the ruleset class's own."""
    return (*v.SHARED, *cls.actions)


@memo.per_value
def _action_classes(cls: type[Ruleset]) -> dict[str, type[v.Action]]:
    """The ruleset class's verbs' action classes (:meth:`Ruleset.action_class`): a class's
    vocabulary is fixed, so its verb table is built once."""
    return {v.verb_of(a): a for a in cls.vocabulary()}


def _frozen(values: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
    """A mapping as sorted-insertion pairs with lists made tuples (effects are hashable)."""
    return tuple((k, tuple(x) if isinstance(x, list) else x) for k, x in values.items())


__all__ = ["Catalog", "Characteristics", "CopyValues", "Ruleset", "Rulings"]
