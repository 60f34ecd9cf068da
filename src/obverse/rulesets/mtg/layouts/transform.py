"""Transforming double-faced cards (712, layout ``transform``): both faces on the battlefield
and stack, the front elsewhere; a back face up takes the front face's mana value (712.8e);
cast transformed (712.11a); a copy of the back face has mana value 0 (707.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from obverse.cards import CardDef, Face
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulings import Decided
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Transform"]


class Transform(Layout):
    """A transforming double-faced card."""

    name: ClassVar[str] = "transform"

    def double_faced(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.1: a card with two faces."""
        return len(card.faces) > 1

    def transforms(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.9: a transforming double-faced card transforms (in every version)."""
        return len(card.faces) > 1

    def is_transformed(self, rs: MagicFaces) -> bool:
        """701.27g: back face up, it is transformed."""
        return True

    def front_mana_value(self, obj: GameObject, faces: tuple[Face, ...], face: str) -> bool:
        """712.8e: a nonmodal double-faced card's back face has the front face's mana value
        (not a copy's: 707.8)."""
        return face == "back" and not obj.copies and len(faces) > 1

    def face_rulings(self, rs: MagicFaces, obj: GameObject, front_mv: bool) -> Rulings:
        """712.8e, 202.3b: back face up on the battlefield, the front face's mana value."""
        if front_mv and obj.zone == "battlefield":
            return rs.cite(
                "dfc_back_up",
                "back face up: the back face's characteristics; mana value from the front face",
            ) + rs.cite("mv_back_face", "the back face has no mana cost of its own")
        return super().face_rulings(rs, obj, front_mv)

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """707.8: a copy of a back face has mana value 0 (712.8e is the card's own)."""
        values, rulings = super().copiable_values(rs, state, of, faces)
        if of.face == "back" and len(faces) > 1:
            rulings += rs.cite("mv_back_face", "a copy of a back face has mana value 0") + rs.cite(
                "dfc_back_up", "only the back face uses the front face's mana value"
            )
        return Decided(values, rulings)

    def cast_face_choice(
        self, rs: MagicFaces, card: CardDef, chosen: str, face: str | None, transformed: bool
    ) -> Decided[bool]:
        """712.11a: cast transformed, back face up (2020's 711.7: front face up only)."""
        if chosen != "back":
            return super().cast_face_choice(rs, card, chosen, face, transformed)
        if not rs.can_cast_transformed:
            why = "a transforming double-faced card is put on the stack front face up"
            return Decided(False, rs.cite("cast_front", why))
        if not transformed:
            why = "a transforming double-faced card is cast front face up"
            return Decided(False, rs.cite("cast_front", why))
        why = "cast transformed, it is put on the stack back face up"
        return Decided(True, rs.cite("cast_transformed", why))
