"""Modal double-faced cards (712, layout ``modal_dfc``) and reversible cards: the face up
counts, mana value included (712.8f); cast with either face (712.11b); a front face that
isn't a permanent can't enter the battlefield (712.14b); since September 2025 they can
transform (712.9, 701.27g)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from obverse.cards import CardDef
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulesets.mtg.values import is_permanent_face
from obverse.rulings import Decided
from obverse.state import GameObject

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Modal", "Reversible"]


class Reversible(Layout):
    """A reversible card: double-faced, neither face transforming into the other."""

    name: ClassVar[str] = "reversible_card"

    def double_faced(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.1: a card with two faces."""
        return len(card.faces) > 1


class Modal(Reversible):
    """A modal double-faced card."""

    name: ClassVar[str] = "modal_dfc"

    def transforms(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.9: since September 2025 (``modal_can_transform``)."""
        return rs.modal_can_transform

    def is_transformed(self, rs: MagicFaces) -> bool:
        """701.27g: since September 2025 any DFC permanent back face up is transformed."""
        return rs.modal_is_transformed

    def face_rulings(self, rs: MagicFaces, obj: GameObject, front_mv: bool) -> Rulings:
        """712.8f: the face that is up counts, mana value included."""
        if obj.zone not in ("battlefield", "stack"):
            return super().face_rulings(rs, obj, front_mv)
        return rs.cite(
            "mdfc_face_up",
            "a modal double-faced card has the face that is up, mana value included",
        )

    def enter_face(self, rs: MagicFaces, card: CardDef, zone: str) -> Decided[str | None]:
        """712.14b: a front face that isn't a permanent card can't enter the battlefield."""
        if not is_permanent_face(card.faces[0]):
            return Decided(
                None,
                rs.cite(
                    "mdfc_front_not_permanent",
                    "its front face isn't a permanent card; it stays in its current zone",
                ),
            )
        return super().enter_face(rs, card, zone)

    def cast_face_choice(
        self, rs: MagicFaces, card: CardDef, chosen: str, face: str | None, transformed: bool
    ) -> Decided[bool]:
        """712.11b: the player chooses the face to cast; 712.11a when it can transform."""
        if transformed and rs.modal_can_transform:
            why = "cast transformed, it is put on the stack back face up"
            return Decided(True, rs.cite("cast_transformed", why))
        if len(card.faces) < 2:
            return super().cast_face_choice(rs, card, chosen, face, transformed)
        name = card.faces[0 if chosen == "front" else 1].name
        rulings = rs.cite("cast_mdfc_face", f"the player chose to cast {name}")
        if face is None:
            rulings += rs.cite("cast_front", "with no choice made, it is cast front face up")
        return Decided(True, rulings)
