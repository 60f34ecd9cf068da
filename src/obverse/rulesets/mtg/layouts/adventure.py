"""Adventurer cards (715, layout ``adventure``): cast as an Adventure, on the stack only the
alternative characteristics (715.3b), exiled as it resolves (715.3d); the normal
characteristics everywhere else (715.4); the Adventure's name may be chosen (201.4f, 715.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from obverse.cards import CardDef
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulings import Decided
from obverse.state import GameObject

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Adventure"]


class Adventure(Layout):
    """An adventurer card."""

    name: ClassVar[str] = "adventure"
    whole_name: ClassVar[str] = "naming_adventure"
    off_the_stack: ClassVar[tuple[str, str]] = ("adventure_normal", "normal characteristics")
    #: 715.3c: a copy of an Adventure spell is an Adventure too.
    spell_copy: ClassVar[tuple[str, str] | None] = (
        "adventure_copy",
        "a copy of an Adventure spell is an Adventure too",
    )

    def face_rulings(self, rs: MagicFaces, obj: GameObject, front_mv: bool) -> Rulings:
        """715.3b: on the stack as an Adventure its alternative values; 715.4: else its
        normal ones."""
        if obj.zone == "stack" and obj.face == "back":
            return rs.cite(
                "adventure_stack", "on the stack as an Adventure: its alternative values"
            )
        return rs.cite("adventure_normal", f"in the {obj.zone}: its normal characteristics")

    def cast_face_choice(
        self, rs: MagicFaces, card: CardDef, chosen: str, face: str | None, transformed: bool
    ) -> Decided[bool]:
        """715.3: cast as an Adventure (``face: back``) or normally."""
        if len(card.faces) < 2:
            return super().cast_face_choice(rs, card, chosen, face, transformed)
        if chosen == "back":
            return Decided(
                True,
                rs.cite("adventure_cast", f"the player chose to cast {card.faces[1].name}")
                + rs.cite("adventure_evaluated", "only its alternative characteristics count"),
            )
        return Decided(True, rs.cite("adventure_cast", "it is cast normally"))

    def resolve_plan(self, rs: MagicFaces, obj: GameObject) -> tuple[str, str, Rulings] | None:
        """715.3d: an Adventure spell resolves into exile."""
        if obj.face != "back":
            return None
        why = "an adventure spell resolves into exile"
        return "exile", "front", rs.cite("adventure_exile", why)

    def face_naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """201.4f, 715.2: the Adventure's name names its alternative characteristics."""
        if name not in card.face_names[1:]:
            return super().face_naming(rs, name, card)
        return Decided(
            True,
            rs.cite("naming_adventure", "an adventurer card's alternative name may be chosen")
            + rs.cite("adventure_alt", f"{name} names its alternative characteristics"),
        )
