"""Magic: The Gathering double-faced cards whose back face depends on how it came: craft
(702.167: the permanent returned transformed refers to the cards exiled to craft it,
702.167c) and disturb (702.146: cast transformed from a graveyard, its back face's "exile it
instead" replacement effect, 614.1a).

:class:`MagicCraft` adds the verb :class:`Craft` and the query :class:`CraftedWith`. The link
from a crafted permanent to the cards exiled to craft it is one designation per card,
``crafted_with:<exiled object id>`` on the permanent: an exiled card that leaves exile is a
new object (400.7) the link no longer names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import characteristics
from obverse.errors import InputError
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulings import DONE, ILLEGAL, Event, Outcome
from obverse.state import GameObject, GameState

replace = msgspec.structs.replace

CRAFTED: Final = "crafted_with:"

DISTURBED: Final = "cast_disturbed"
#: The replacement effect a disturb card's back face prints (614.1a).
_EXILE_INSTEAD: Final = "would be put into a graveyard from anywhere, exile it instead"


def _not_crafted(mark: tuple[str, int]) -> bool:
    """Whether a designation is kept as its object leaves: any but a crafted link."""
    return not mark[0].startswith(CRAFTED)


__all__ = ["Craft", "CraftedWith", "MagicCraft"]


class Craft(v.Action, frozen=True, tag="craft"):
    """Activate ``object``'s craft ability (702.167a): exile it and the ``materials``
    (permanents its controller controls and cards in their graveyard), then return it to the
    battlefield transformed."""

    refs = ("object", "materials")
    object: int
    materials: tuple[int, ...]


class CraftedWith(v.Action, frozen=True, tag="crafted_with"):
    """Query: the cards in exile that were exiled to craft the permanent (702.167c)."""

    refs = ("object",)
    is_query = True
    answers_objects = True
    object: int


def _has(card: CardDef, keyword: str) -> bool:
    return any(x.casefold() == keyword for x in card.faces[0].abilities) if card.faces else False


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMoves
else:
    _Base = object


class MagicCraft(_Base):
    """Craft and disturb on top of MTG's face rules."""

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("craft", "_offer_craft"),)
    #: :meth:`leaving` has a say about a spell cast using disturb and a crafted permanent.
    leaving_marks: ClassVar[tuple[str, ...]] = (DISTURBED, CRAFTED)

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[object, ...]:
        """Also, for a card with craft on the battlefield, its possible materials (702.167a:
        its controller's graveyard and their other permanents)."""
        if o.zone != "battlefield" or o.face != "front" or not _has(state.card_def(o), "craft"):
            return super().offer_inputs(state, o)
        graveyard = state.zones.get(self.zone_key("graveyard", o.controller))
        field = tuple(x for x in state.iter_objects() if x.zone == "battlefield" and x.id != o.id)
        return (*super().offer_inputs(state, o), graveyard, field)

    def _offer_craft(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone != "battlefield" or o.face != "front" or not _has(state.card_def(o), "craft"):
            return []
        # One material each: a card of its controller's graveyard or another permanent.
        graveyard = state.zone_contents(self.zone_key("graveyard", o.controller))
        field = [
            x.id
            for x in state.iter_objects()
            if x.zone == "battlefield" and x.controller == o.controller and x.id != o.id
        ]
        return [Craft(object=o.id, materials=(m,)) for m in (*graveyard, *field)]

    # --- craft (702.167a, 702.167c) ---------------------------------------------------------

    def craft(self, state: GameState, a: Craft) -> Outcome:
        """702.167a: exile the permanent and its materials, then return it to the battlefield
        transformed under its owner's control; 702.167c: it may refer to those exiled cards."""
        if "craft" not in self.rule_ids:
            raise InputError("", "craft", f"craft isn't modelled under {self.name}")
        obj = state.objects[a.object]
        refused = self._craft_refused(state, obj, a)
        if refused:
            return Outcome(state, ILLEGAL, refused)
        rulings = self.cite("craft", "it and its materials are exiled as the cost")
        events: tuple[Event, ...] = ()
        exiled: list[int] = []
        for oid in (obj.id, *a.materials):
            card = state.objects[oid].card
            out = self.move_object(state, v.Move(object=oid, to="exile"))
            state, rulings, events = out.state, rulings + out.rulings, events + out.events
            now = state.object_of_card(card)
            if now is not None and oid != obj.id:
                exiled.append(now.id)
        back = state.object_of_card(obj.card)
        if back is None or back.zone != "exile":  # a token ceased to exist in exile (111.7)
            return Outcome(state, DONE, rulings, events)
        out = self.move_object(state, v.Move(object=back.id, to="battlefield", transformed=True))
        state, rulings, events = out.state, rulings + out.rulings, events + out.events
        new = state.object_of_card(obj.card)
        if new is None or new.zone != "battlefield":
            return Outcome(state, DONE, rulings, events)
        links = tuple((CRAFTED + str(x), new.id) for x in exiled)
        state = replace(state, designations=(*state.designations, *links))
        why = "it returns transformed; it may refer to the cards exiled to craft it"
        return Outcome(state, DONE, rulings + self.cite("craft_exiled", why), events)

    def _craft_refused(self, state: GameState, obj: GameObject, a: Craft) -> Rulings:
        """Why ``a`` can't be activated (not a front-face-up permanent with craft, or a
        material that isn't the controller's permanent or graveyard card); ``()`` if it can."""
        if obj.zone != "battlefield" or obj.face_down or obj.face != "front":
            return self.cite("craft", "only a permanent with craft, front face up, crafts")
        if not _has(state.card_def(obj), "craft"):
            return self.cite("craft", f"{state.card_def(obj).name} has no craft ability")
        if not a.materials or len(set(a.materials)) != len(a.materials):
            return self.cite("craft", "craft exiles one or more distinct materials")
        for m in a.materials:
            mat = state.objects[m]
            mine_here = mat.zone == "battlefield" and mat.controller == obj.controller
            mine_there = mat.zone == "graveyard" and mat.owner == obj.controller
            if m == obj.id or mat.face_down or not (mine_here or mine_there):
                why = "materials are its controller's other permanents or graveyard cards"
                return self.cite("craft", why)
        return ()

    def crafted_with(self, state: GameState, a: CraftedWith) -> Outcome:
        """702.167c: the cards in exile that were exiled to craft this permanent."""
        found = tuple(
            int(name[len(CRAFTED) :])
            for name, on in state.designations
            if on == a.object and name.startswith(CRAFTED)
        )
        found = tuple(x for x in found if x in state.objects and state.objects[x].zone == "exile")
        rulings = (
            self.cite("craft_exiled", "the cards in exile exiled to craft it")
            if "craft_exiled" in self.rule_ids
            else ()
        )
        return Outcome(state, DONE, rulings, answer=found)

    # --- disturb (702.146) and the back face's replacement effect (614.1a) ------------------

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """702.146a: a disturb card cast transformed from a graveyard is marked as cast using
        disturb (702.146b: it resolves back face up)."""
        obj = state.objects[a.object]
        out = super().cast(state, a)
        if out.result != DONE or "disturb" not in self.rule_ids:
            return out
        if not (a.transformed and obj.zone == "graveyard" and _has(state.card_def(obj), "disturb")):
            return out
        spell = out.state.object_of_card(obj.card)
        assert spell is not None
        state = replace(out.state, designations=(*out.state.designations, (DISTURBED, spell.id)))
        why = "cast transformed from a graveyard using its disturb ability"
        return replace(out, state=state, rulings=out.rulings + self.cite("disturb", why))

    def leaving(
        self, state: GameState, obj: GameObject, to: str
    ) -> tuple[GameState, str, Rulings, Outcome | None]:
        """614.1a: a permanent or spell whose text says "if it would be put into a graveyard
        from anywhere, exile it instead" (a disturb card's back face) is exiled; 702.146b: a
        spell cast using disturb resolves back face up; a crafted permanent drops its links
        (702.167c) as it leaves."""
        state, to, rulings, done = super().leaving(state, obj, to)
        if done is not None:
            return state, to, rulings, done
        mark = (DISTURBED, obj.id)
        if core.designated(state.designations, mark):
            state = replace(state, designations=tuple(d for d in state.designations if d != mark))
            if to == "battlefield" and "disturb_back" in self.rule_ids:
                why = "cast using disturb, it enters back face up"
                rulings += self.cite("disturb_back", why)
        if self._exiled_instead(state, obj, to):
            why = "its own replacement effect: exiled instead of put into a graveyard"
            rulings += self.cite("replacement", why)
            # A rules version before disturb (2008) has the replacement but no disturb rule.
            if "disturb" in self.rule_ids and _has(state.card_def(obj), "disturb"):
                rulings += self.cite("disturb", "the back face of a disturb card")
            to = "exile"
        if obj.zone == "battlefield":  # only the entries naming obj looked at in Python
            kept = core.dropping(state.designations, core.DESIGNATED, obj.id, _not_crafted)
            if kept is not state.designations:
                state = replace(state, designations=kept)
        return state, to, rulings, None

    def replaces_leaving(self, state: GameState, obj: GameObject, to: str) -> bool:
        """614.1a: "exile it instead" replaces a graveyard (:meth:`_exiled_instead`)."""
        return self._exiled_instead(state, obj, to) or super().replaces_leaving(state, obj, to)

    def _exiled_instead(self, state: GameState, obj: GameObject, to: str) -> bool:
        """614.1a: ``obj`` going to a graveyard has "exile it instead" in its text."""
        if to != "graveyard" or obj.face_down or "replacement" not in self.rule_ids:
            return False
        return _EXILE_INSTEAD in characteristics(state, obj, self).props.text
