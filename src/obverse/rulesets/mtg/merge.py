"""Magic: The Gathering, merged permanents (729) and mutate (702.140).

A mutating creature spell resolving merges with its target, on top or underneath
(702.140c): the permanent stays the same object (729.2c) and is represented by every
component, each with its own face and facing (``GameObject.components``, topmost first).
It has the characteristics of its topmost component (729.2a) and the abilities of every
face-up one (702.140e); its status, face down or not, is the topmost component's (729.2e).
Turning it face down turns every component face down (729.2f), unless a face-up merged
permanent has a double-faced component (729.2j); turning it face up turns every component
up (729.2f), unless one is an instant or sorcery card (729.2g, in facedown.py). A merged
permanent isn't double-faced: transforming it turns each component that can transform
(729.2i). Leaving the battlefield, each component goes to the zone on its own (729.3) and a
face-down one is revealed (708.9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.characteristics import Characteristics, characteristics
from obverse.rulesets.hooks import Rulings
from obverse.rulesets.mtg.exile import MagicExile
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, NOTHING, Decided, Event, Outcome
from obverse.state import CopyValues, GameObject, GameState

replace = msgspec.structs.replace

#: A merged permanent's component: (card id, face, face down).
Component = tuple[int, str, bool]


class Mutate(v.Action, frozen=True, tag="mutate"):
    """A mutating creature spell resolves (702.140c): ``object`` (on the stack) merges with
    the creature ``onto``, on top (the default) or underneath (``position: bottom``); with an
    illegal target it resolves as a creature spell (702.140b)."""

    refs = ("object", "onto")
    reads_choice = True
    object: int
    onto: int
    position: v.Position = "top"


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicExile
else:
    _Base = object


class MagicMerge(_Base):
    """Merged permanents (729) and mutate (702.140) on top of MTG's face-down rules."""

    #: Also: a spell on the stack mutating onto each permanent its owner owns.
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("mutate", "_targets_mutate"),)

    def _targets_mutate(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """A mutating spell onto each object the seat may refer to, a free target decided
        choice by choice (702.140a-b: an illegal one and it resolves as a creature spell)."""
        if o.zone != "stack":
            return None
        ids = ctx.identified()
        if not ids:
            return None
        return Targets(Mutate(object=o.id, onto=ids[0]), "onto", ids, frozenset(), True)

    # --- mutating (702.140a-c, 729.2) -------------------------------------------------------

    def mutate(self, state: GameState, a: Mutate) -> Outcome:
        """702.140c: a mutating creature spell with a legal target merges with it; 702.140b:
        with an illegal one it resolves as a creature spell."""
        spell, target = state.objects[a.object], state.objects[a.onto]
        chars = characteristics(state, spell, self)
        if spell.zone != "stack" or "Creature" not in chars.props.types:
            why = "only a mutating creature spell on the stack merges as it resolves"
            return Outcome(state, NOTHING, self.cite("mutate", why))
        why = self._illegal_target(state, spell, target)
        if why:
            out = self.resolve(state, v.Resolve(object=spell.id))
            return replace(out, rulings=(*self.cite("mutate_illegal", why), *out.rulings))
        top = a.position != "bottom"
        mine: Component = (spell.card, spell.face, False)
        comps = (mine, *self.components_of(target)) if top else (*self.components_of(target), mine)
        state = core.forget(self.remove(state, spell), spell.id)
        state, ts = core.tick(state)
        merged = self._with_components(target, comps)
        if top:  # 729.2d: a token only if the topmost component is; the spell is a card
            merged = replace(merged, token=False, face_down_as=None, face_down_values=())
        merged = replace(merged, timestamp=ts)
        state = core.update(state, merged)
        state = replace(state, card_object=state.card_object.set(spell.card, target.id))
        where = "on top of" if top else "under"
        rulings = (
            *self.cite("mutate_merge", f"it merges with the creature, {where} it"),
            *self.cite("merge", "one permanent, represented by every component"),
            *self.cite("merged_same", "the merged permanent is the same object it was"),
        )
        if target.face_down and top:
            why = "its status is its topmost component's: face up, not turned face up"
            rulings += self.cite("merged_status", why)
        event = Event("merge", spell.id, spell.card, spell.controller, "stack", "battlefield")
        return Outcome(state, DONE, rulings, (event,))

    def _illegal_target(self, state: GameState, spell: GameObject, target: GameObject) -> str:
        """702.140a: why ``target`` isn't a legal target (a non-Human creature with the
        spell's owner), read from its characteristics now; ``""`` when it is."""
        if target.zone != "battlefield" or target.meld is not None:
            return "its target isn't a creature on the battlefield: it resolves as a creature"
        chars = characteristics(state, target, self)
        if "Creature" not in chars.props.types or "Human" in chars.props.subtypes:
            return "its target isn't a non-Human creature: it resolves as a creature spell"
        if target.owner != spell.owner:
            return "its target has another owner: it resolves as a creature spell"
        return ""

    def components_of(self, obj: GameObject) -> tuple[Component, ...]:
        """The object's components, topmost first (a lone card is its only component)."""
        return obj.components or ((obj.card, obj.face, obj.face_down),)

    def _with_components(self, obj: GameObject, comps: tuple[Component, ...]) -> GameObject:
        """``obj`` represented by ``comps``: its face and facing are the topmost's (729.2e)."""
        _, face, down = comps[0]
        return replace(
            obj,
            cards=tuple(c for c, _, _ in comps),
            components=comps,
            face=face,
            face_down=down,
            set_face_down=down,
        )

    # --- characteristics (729.2a, 702.140e) -------------------------------------------------

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """729.2a: the topmost component's characteristics; 702.140e: with the abilities of
        every component (face up: a face-down component has none)."""
        if not obj.components or obj.face_down or obj.copies:  # a copy effect: its values
            return super().base_characteristics(state, obj)
        parts = [
            super(MagicMerge, self).base_characteristics(state, self._component(state, obj, comp))
            for comp in obj.components
            if not comp[2]
        ]
        top = parts[0]
        abilities = tuple(dict.fromkeys(a for p in parts for a in p.props.abilities))
        why = (
            *self.cite("merged_chars", "a merged permanent has its topmost component's values"),
            *self.cite("mutated_abilities", "and the abilities of every card representing it"),
            *top.why,
        )
        if obj.flipped:
            why += self.cite("merged_flip", "flipped: its flip card uses its alternative values")
        return replace(top, props=replace(top.props, abilities=abilities), why=why)

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        """729.2a: merging is a copiable effect: a copy of a merged permanent copies its
        merged values (the topmost component's, with every component's abilities)."""
        if not of.components or of.face_down or of.copies:
            return super().copiable_values(state, of)
        chars = self.base_characteristics(state, of)
        face = chars.props
        values = CopyValues(
            layout="normal", faces=(face,), name=face.name or "", source_face=of.face
        )
        why = "merging is a copiable effect: the copy gets the merged values"
        return Decided(values, self.cite("merged_chars", why))

    def _component(self, state: GameState, obj: GameObject, comp: Component) -> GameObject:
        """One component seen as a lone object (its own card, face and facing); 729.2h: a
        flip card's alternative characteristics if the merged permanent is flipped."""
        card, face, down = comp
        if obj.flipped and state.cards[card].card.layout == "flip":
            face = "back"
        return replace(obj, cards=(card,), components=(), face=face, face_down=down, copies=())

    # --- face down and up (729.2e, 729.2f, 729.2j) ------------------------------------------

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """729.2j: a face-up merged permanent with a (face-up) double-faced component can't
        be turned face down; otherwise each face-up component turns face down (729.2f)."""
        if not obj.components or obj.face_down:
            return super().can_turn_face_down(state, obj)
        # Read of the face-up components only: a face-down one is already face down, and
        # whether it is double-faced is hidden (712.15) from every other player.
        if any(
            self.is_double_faced(state.cards[c].card) for c, _, down in obj.components if not down
        ):
            why = "it has a double-faced component: it can't be turned face down; nothing happens"
            return Decided(False, self.cite("merged_no_face_down", why))
        why = "each face-up component that represents it is turned face down"
        return Decided(True, self.cite("merged_face", why))

    def turn_face_down(self, state: GameState, a: v.TurnFaceDown) -> Outcome:
        """729.2f: every component of a merged permanent turns face down with it."""
        out = super().turn_face_down(state, a)
        return self._all_components(out, a.object, down=True)

    def turn_face_up(self, state: GameState, a: v.TurnFaceUp) -> Outcome:
        """729.2f: every face-down component of a merged permanent turns face up with it."""
        out = super().turn_face_up(state, a)
        return self._all_components(out, a.object, down=False)

    def _all_components(self, out: Outcome, oid: int, down: bool) -> Outcome:
        obj = out.state.objects.get(oid)
        if out.result != DONE or obj is None or not obj.components or obj.face_down != down:
            return out
        comps = tuple(
            (c, obj.face if i == 0 else f, down) for i, (c, f, _) in enumerate(obj.components)
        )
        why: Rulings = ()
        if not down:
            why = self.cite("merged_face", "each face-down component is turned face up")
        state = core.update(out.state, replace(obj, components=comps))
        return replace(out, state=state, rulings=(*out.rulings, *why))

    # --- transforming (729.2i) --------------------------------------------------------------

    def transform(self, state: GameState, a: v.Transform) -> Outcome:
        """729.2i: a merged permanent isn't double-faced; transforming it turns each
        component that can transform to its other face."""
        obj = state.objects[a.object]
        if not obj.components or obj.face_down:
            return super().transform(state, a)
        comps: list[Component] = []
        turned = 0
        for comp in obj.components:
            card, face, down = comp
            ok, _ = self.can_transform(state, self._component(state, obj, comp))
            if ok:
                face, turned = ("front" if face == "back" else "back"), turned + 1
            comps.append((card, face, down))
        if not turned:
            why = "it isn't double-faced and no component of it can transform; nothing happens"
            return Outcome(state, NOTHING, self.cite("merged_transform", why))
        state, ts = core.tick(state)
        state = core.update(state, replace(self._with_components(obj, tuple(comps)), timestamp=ts))
        why = f"{turned} double-faced component(s) turn to their other face"
        event = Event("transform", obj.id, obj.cards[0], obj.controller)
        return Outcome(state, DONE, self.cite("merged_transform", why), (event,))

    # --- leaving (729.3, 708.9) -------------------------------------------------------------

    def merged_leaves(self, obj: GameObject, zone: str, decided: Decided[bool]) -> Decided[bool]:
        """729.3: a merged permanent leaving puts each component into the zone; 708.9: a
        face-down component is revealed."""
        if not obj.components or zone == "battlefield":
            return decided
        why = self.cite("merged_leaves", "one permanent leaves; each component moves on its own")
        if not obj.face_down and any(down for _, _, down in obj.components):
            why += self.cite("face_down_reveal", "a face-down component is revealed as it moves")
        return Decided(decided.value, (*decided.rulings, *why))


__all__ = ["MagicMerge", "Mutate"]
