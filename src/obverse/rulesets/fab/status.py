"""Flesh and Blood, a permanent's state and what the newer rules add around entering the arena
and copies: tapped and untapped (1.3.3b, 8.5.55, 8.5.56), suspense counters (8.3.42), a
landmark clearing the others (8.2.9b), Return to the Brood (8.5.52) and a copy of a ``*``
property (8.5.25e).

A permanent's tapped state is the object's ``rested`` status (the same physical turn a card
makes sideways as Grand Archive's rest); scenarios call it ``tapped``.
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import STAT_FIELDS, Face
from obverse.characteristics import characteristics
from obverse.errors import InputError
from obverse.rulesets.base import Rulings
from obverse.rulesets.fab.arena import FabArena
from obverse.rulings import DONE, NOTHING, Decided, Event, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.fab.arena import FabArena as _Base
else:
    _Base = object


replace = msgspec.structs.replace

#: 8.3.42: the counters a card with suspense enters the arena with.
SUSPENSE: Final = ("suspense", 2)


class Tap(v.Action, frozen=True, tag="tap"):
    """Tap a permanent (8.5.55): untapped to tapped."""

    refs = ("object",)
    object: int


class Untap(v.Action, frozen=True, tag="untap"):
    """Untap a permanent (8.5.56): tapped to untapped."""

    refs = ("object",)
    object: int


class ReturnToTheBrood(v.Action, frozen=True, tag="return_to_the_brood"):
    """``player`` returns to the brood (8.5.52): the become/copy effects on their hero end."""

    player_fields = ("player",)
    subject = None
    player: str


class FabStatus(_Base):
    """FaB's tapped state, suspense, landmarks, Return to the Brood and ``*`` copies."""

    setup_keys: ClassVar[Mapping[str, str]] = {"tapped": "bool", "counters": "counters"}
    sideways_status: ClassVar[str] = "tapped"

    def setup_status(
        self, state: GameState, obj: GameObject, status: Mapping[str, Any]
    ) -> GameState:
        """``tapped`` (only a permanent has that state, 1.3.3b) and ``counters``."""
        tapped = bool(status.get("tapped"))
        if tapped and not self.is_in_play(obj.zone):
            raise InputError("", "tapped", "only a permanent in the arena can be tapped")
        counters = dict(obj.counters)
        counters.update(status.get("counters") or {})
        new = replace(obj, rested=tapped, counters=tuple(sorted(counters.items())))
        return core.update(state, new)

    # --- tap and untap (1.3.3b, 8.5.55, 8.5.56) ---------------------------------------------

    def tap(self, state: GameState, a: Tap) -> Outcome:
        """8.5.55: a permanent goes from untapped to tapped; 8.5.55a: already tapped, it
        fails."""
        return self._set_tapped(state, state.objects[a.object], True)

    def untap(self, state: GameState, a: Untap) -> Outcome:
        """8.5.56: a permanent goes from tapped to untapped; 8.5.56a: already untapped, it
        fails."""
        return self._set_tapped(state, state.objects[a.object], False)

    def _set_tapped(self, state: GameState, obj: GameObject, tapped: bool) -> Outcome:
        rule, word = ("8.5.55", "tapped") if tapped else ("8.5.56", "untapped")
        if not self.is_in_play(obj.zone) or obj.zone == "combat_chain":
            why = "only a permanent has a tapped or untapped state; this is not one"
            return Outcome(state, NOTHING, self.cite("1.3.3b", why))
        if obj.rested == tapped:
            why = f"the permanent is already {word}: the effect fails"
            return Outcome(state, NOTHING, self.cite(f"{rule}a", why))
        state = core.update(state, replace(obj, rested=tapped))
        rulings = self.cite(rule, f"the permanent's state changes to {word}") + self.cite(
            "1.3.3b", "a permanent is untapped or tapped"
        )
        verb = "tap" if tapped else "untap"
        return Outcome(state, DONE, rulings, (Event(verb, obj.id, obj.card, obj.controller),))

    # --- entering the arena: suspense (8.3.42), landmarks (8.2.9b) ---------------------------

    def _enters_as_permanent(
        self, state: GameState, obj: GameObject, before: GameObject
    ) -> tuple[GameState, Rulings]:
        """1.3.3b: it enters untapped; 8.3.42 suspense counters; 8.2.9b the other landmarks
        are cleared; then afflictions and demi-heroes (8.2.11c, 8.1.11b)."""
        props = characteristics(state, obj, self).props
        rulings: Rulings = ()
        if obj.rested:  # a permanent enters untapped unless an effect says otherwise
            state = core.update(state, replace(obj, rested=False))
        if "Suspense" in props.abilities:
            counters = dict(state.objects[obj.id].counters)
            counters[SUSPENSE[0]] = counters.get(SUSPENSE[0], 0) + SUSPENSE[1]
            new = replace(state.objects[obj.id], counters=tuple(sorted(counters.items())))
            state = core.update(state, new)
            why = "suspense: it enters the arena with 2 suspense counters"
            rulings += self.cite("8.3.42", why)
        if "Landmark" in props.subtypes and self.is_permanent(state, obj):
            state, more = self._clear_other_landmarks(state, obj)
            rulings += more
        state, more = super()._enters_as_permanent(state, state.objects[obj.id], before)
        return state, (*rulings, *more)

    def _clear_other_landmarks(
        self, state: GameState, obj: GameObject
    ) -> tuple[GameState, Rulings]:
        """8.2.9b: a landmark entering the arena clears every other landmark permanent."""
        others = [
            o.id
            for o in state.iter_objects()
            if o.id != obj.id
            and o.zone == self.play_zone
            and not o.face_down
            and "Landmark" in characteristics(state, o, self).props.subtypes
        ]
        moved: Rulings = ()
        for oid in others:
            out = FabArena.move_object(self, state, v.Move(object=oid, to=self.discard_zone))
            state = out.state
            moved += out.rulings
        if not others:
            return state, ()
        why = "a landmark entered the arena: every other landmark permanent is cleared"
        cleared = self.cite("3.0.12", "cleared, it goes to its owner's graveyard")
        return state, (*self.cite("8.2.9b", why), *cleared, *moved)

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """8.3.42: at the start of its controller's turn a card with suspense loses a
        suspense counter; with none left, it is destroyed (to its owner's graveyard)."""
        out = super().end_turn(state, a)
        state, player = out.state, out.state.players[out.state.active]
        rulings: Rulings = ()
        for obj in [o for o in state.iter_objects() if o.zone == self.play_zone]:
            left = dict(obj.counters).get(SUSPENSE[0], 0)
            if obj.controller != player or not left or obj.face_down:
                continue
            if "Suspense" not in characteristics(state, obj, self).props.abilities:
                continue
            counters = tuple((k, n - 1 if k == SUSPENSE[0] else n) for k, n in obj.counters)
            state = core.update(state, replace(obj, counters=counters))
            why = f"at the start of {player}'s turn a suspense counter is removed ({left - 1} left)"
            rulings += self.cite("8.3.42", why)
            if left == 1:
                moved = FabArena.move_object(
                    self, state, v.Move(object=obj.id, to=self.discard_zone)
                )
                state = moved.state
                gone = "it has no suspense counters: it is destroyed"
                rulings += (*self.cite("8.3.42", gone), *moved.rulings)
        return Outcome(state, out.result, (*out.rulings, *rulings), out.events)

    # --- copies: Return to the Brood (8.5.52), a * property (8.5.25e) ------------------------

    def return_to_the_brood(self, state: GameState, a: ReturnToTheBrood) -> Outcome:
        """8.5.52: the existing become/copy effects that apply to the player's hero cease to
        exist; none: nothing happens."""
        heroes = [
            o for o in state.iter_objects() if o.controller == a.player and self.is_hero(state, o)
        ]
        copied = [o for o in heroes if o.copies]
        if not copied:
            why = f"no become/copy effect applies to {a.player}'s hero: nothing ceases to exist"
            return Outcome(state, NOTHING, self.cite("8.5.52", why))
        state, ts = core.tick(state)
        events = []
        for hero in copied:
            state = core.update(state, replace(hero, copies=(), timestamp=ts))
            events.append(Event("return_to_the_brood", hero.id, hero.card, a.player))
        why = f"the become/copy effects on {a.player}'s hero cease to exist"
        return Outcome(state, DONE, self.cite("8.5.52", why), tuple(events))

    def copy_effect(self, state: GameState, obj: GameObject, of: GameObject) -> Decided[CopyValues]:
        """8.5.25e: a copyable property of ``*`` becomes the original object's printed value
        of that property, or 0 if it had none."""
        values, rulings = super().copy_effect(state, obj, of)
        printed = state.card_def(obj).faces[0]
        starred: list[str] = []
        faces: list[Face] = []
        for face in values.faces:
            fix = {k: getattr(printed, k) or 0 for k in STAT_FIELDS if getattr(face, k) == "*"}
            starred.extend(k for k in fix if k not in starred)
            faces.append(replace(face, **fix) if fix else face)
        if not starred:
            return Decided(values, rulings)
        values = replace(values, faces=tuple(faces))
        parts = ", ".join(f"{k} {getattr(faces[0], k)}" for k in starred)
        why = f"the reference's * values are the original object's printed ones: {parts}"
        return Decided(values, (*rulings, *self.cite("8.5.25e", why)))

    # --- candidates --------------------------------------------------------------------------

    # 1.3.3b: a permanent in the arena (its hero and equipment zones too); the kernel decides.
    def _offer_tap(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [] if o.rested or not self.is_in_play(o.zone) else [Tap(object=o.id)]

    def _offer_untap(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Untap(object=o.id)] if o.rested else []

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The arena's, and Return to the Brood for each player."""
        out = super().loose_candidates(state, player, verb)
        if verb in (None, "return_to_the_brood"):
            who = (player,) if player else state.players
            out += [ReturnToTheBrood(player=p) for p in who]
        return out


#: The per-object generators of this module (see :attr:`Offers.object_offers`).
STATUS_OFFERS: Final = (("tap", "_offer_tap"), ("untap", "_offer_untap"))
