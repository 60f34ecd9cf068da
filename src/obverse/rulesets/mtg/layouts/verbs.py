"""The layouts' table and the ruleset's procedures that ask a card's handler: flipping
(710.3), melding (701.42), a Room's doors (709.5f-g), a layout's own resolution, moving a
Room (709.5d), naming (201.4) and the offers of these verbs.

:data:`LAYOUT_RULES` is :attr:`~obverse.rulesets.mtg.Magic.layout_rules`: one handler per
layout, keyed by Scryfall's layout name (a Room by ``room``: its printed layout is ``split``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.rulesets.base import Catalog
from obverse.rulesets.mtg.layouts.adventure import Adventure
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulesets.mtg.layouts.flip import FLIP, Flip
from obverse.rulesets.mtg.layouts.meld import MELD, Meld
from obverse.rulesets.mtg.layouts.modal import Modal, Reversible
from obverse.rulesets.mtg.layouts.omen import Omen
from obverse.rulesets.mtg.layouts.prototype import Prototype
from obverse.rulesets.mtg.layouts.room import ROOM, Lock, Unlock
from obverse.rulesets.mtg.layouts.split import Split
from obverse.rulesets.mtg.layouts.transform import Transform
from obverse.rulesets.mtg.values import is_room
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import Decided, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

    _Base = MagicFaces
else:
    _Base = object

__all__ = ["LAYOUT_RULES", "MagicLayouts"]

#: One handler per layout (``token``: a normal card's rules).
LAYOUT_RULES: Final[Mapping[str, Layout]] = {
    h.name: h
    for h in (
        Layout(),
        Transform(),
        Modal(),
        Reversible(),
        FLIP,
        Split(),
        ROOM,
        Adventure(),
        MELD,
        Prototype(),
        Omen(),
    )
}


class MagicLayouts(_Base):
    """The procedures and offers of the layouts' own verbs, each asking the handler."""

    #: Locking a Room's unlocked doors again (709.5g).
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("lock", "_offer_lock"),)

    # --- offers -------------------------------------------------------------------------------

    def _targets_meld(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Melding ``o`` with each other meld card of its owner the seat may refer to."""
        if not MELD.is_half(state, None, o):
            return None
        objects, owner = state.objects, o.owner
        partners = ctx.subset(
            ("meld", owner),
            "identified",
            lambda ids: [x for x in ids if MELD.is_half(state, owner, objects[x])],
        )
        first = next((x for x in partners if x != o.id), None)
        if first is None:
            return None
        return Targets(Meld(objects=(o.id, first)), "objects", partners, frozenset({o.id}), True)

    def _offer_flip(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Flip(object=o.id)]

    def _offer_unlock(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return self.layout_candidates(state, o, "unlock")

    def _offer_fused(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return self.layout_candidates(state, o, "cast")

    def _offer_lock(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return ROOM.offer_lock(o)

    def layout_candidates(self, state: GameState, o: GameObject, verb: str) -> list[v.Action]:
        """The choices the card's layout offers for ``verb`` (a Room's doors, fuse)."""
        if o.face_down:
            return []
        layout, faces = self.printed_faces(state, o)
        return self.layout_rule(layout, faces).candidates(self, state, o, verb)

    def extra_candidates(
        self,
        state: GameState,
        player: str | None,
        verb: str | None = None,
        acting: Callable[[GameObject], bool] | None = None,
    ) -> list[v.Action]:
        """Melding each two meld cards of the same owner (712.4)."""
        if verb not in (None, "meld"):
            return []
        melds = MELD.halves(state, player)
        firsts = melds if acting is None else [x for x in melds if acting(x)]
        return [Meld(objects=(x.id, y.id)) for x in firsts for y in melds if x.id < y.id]

    def several_on(
        self, state: GameState, player: str | None, o: GameObject, verb: str
    ) -> list[v.Action]:
        """Also melding ``o`` with each meld card of the same owner after it."""
        if verb != "meld":
            return super().several_on(state, player, o, verb)
        if not MELD.is_half(state, player, o):
            return []
        return [Meld(objects=(o.id, y.id)) for y in MELD.halves(state, player) if o.id < y.id]

    # --- the layouts' verbs -------------------------------------------------------------------

    def flip(self, state: GameState, a: Flip) -> Outcome:
        """``flip`` (710.3): :meth:`~obverse.rulesets.mtg.layouts.flip.FlipCard.flip`."""
        return FLIP.flip(self, state, a)

    def meld(self, state: GameState, a: Meld, catalog: Catalog) -> Outcome:
        """``meld`` (701.42a): :meth:`~obverse.rulesets.mtg.layouts.meld.MeldCard.meld`."""
        return MELD.meld(self, state, a, catalog)

    def unlock(self, state: GameState, a: Unlock) -> Outcome:
        """``unlock`` (709.5f): :meth:`~obverse.rulesets.mtg.layouts.room.Room.unlock`."""
        return ROOM.unlock(self, state, a)

    def lock(self, state: GameState, a: Lock) -> Outcome:
        """``lock`` (709.5g): :meth:`~obverse.rulesets.mtg.layouts.room.Room.lock`."""
        return ROOM.lock(self, state, a)

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """A layout's own resolution (a Room's door 709.5d, an Omen 720.3d, a prototyped
        spell 718.3c), else the ruleset's."""
        obj = state.objects[a.object]
        if obj.zone != self.stack_zone or obj.face_down:
            return super().resolve(state, a)
        layout, faces = self.printed_faces(state, obj)
        done = self.layout_rule(layout, faces).resolve(self, state, obj)
        return done if done is not None else super().resolve(state, a)

    def room_moved(self, state: GameState, obj: GameObject, to: str, out: Outcome) -> Outcome:
        """``out``, a done move of ``obj`` to ``to``, with what a Room adds (709.5d)."""
        if obj.face_down:
            return out
        layout, faces = self.printed_faces(state, obj)
        if not is_room(layout, faces):
            return out
        extra = ROOM.moved(self, out.state, obj, to)
        return msgspec.structs.replace(out, rulings=out.rulings + extra) if extra else out

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> Decided[bool]:
        """201.4: the first of ``cards`` whose layout has a say about ``name`` decides."""
        for card in cards:
            said = self.layout_rule(card.layout, card.faces).naming(self, name, card)
            if said is not None:
                return said
        return Decided(True, self.cite("naming", "the name of a card may be chosen"))
