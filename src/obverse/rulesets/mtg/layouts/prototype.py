"""Prototype cards (718, layout ``prototype``): cast prototyped, on the stack and battlefield
the inset power, toughness and mana cost (718.3b); the normal characteristics elsewhere
(718.4); the alternative values are copiable (718.3d); one name (718.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import mana
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.rulesets.mtg.layouts.base import Alternative
from obverse.rulesets.mtg.values import cost
from obverse.rulings import Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Prototype"]

replace = msgspec.structs.replace


class Prototype(Alternative):
    """A prototype card."""

    name: ClassVar[str] = "prototype"
    how: ClassVar[str] = "prototyped"
    off_the_stack: ClassVar[tuple[str, str]] = ("prototype_normal", "normal characteristics")
    #: 718.3c: a copy of a prototyped spell is prototyped too.
    spell_copy: ClassVar[tuple[str, str] | None] = (
        "prototype_spell_copy",
        "a copy of a prototyped spell is prototyped too",
    )

    def allowed_faces(self, rs: MagicFaces, card: CardDef, zone: str) -> frozenset[str]:
        """718.3b: prototyped only on the stack and battlefield (a version before 718: one)."""
        if len(card.faces) < 2:
            return super().allowed_faces(rs, card, zone)
        alt = zone in ("stack", "battlefield") and rs.has("prototype_alt")
        return frozenset({"front", "back"} if alt else {"front"})

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """718.3b, 718.4."""
        if len(faces) < 2 or not rs.has("prototype_alt"):
            return super().characteristics(rs, state, obj, faces, face)
        return self.prototyped(rs, obj, faces)

    def prototyped(
        self, rs: MagicFaces, obj: GameObject, faces: tuple[Face, ...]
    ) -> Characteristics:
        """718.3b: prototyped on the stack or battlefield, the inset power, toughness and
        mana cost (and the cost's colors); 718.4: its normal characteristics elsewhere."""
        normal, alt = faces[0], faces[1]
        if obj.zone in ("stack", "battlefield") and obj.face == "back":
            merged = replace(
                normal, cost=alt.cost, power=alt.power, toughness=alt.toughness, colors=alt.colors
            )
            chars = rs.with_colors(combine_faces("back", (merged,)))
            why = rs.cite(
                "prototype_chars", "prototyped: its prototype power, toughness and mana cost"
            ) + rs.cite("prototype_same", "its other characteristics are the card's own")
            return replace(chars, mana_value=mana.mana_value(cost(alt)), why=why)
        chars = rs.with_colors(combine_faces("front", (normal,)))
        why = rs.cite("prototype_normal", f"in the {obj.zone}: its normal characteristics")
        return replace(chars, mana_value=mana.mana_value(cost(normal)), why=why)

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """718.2a, 718.3d: the values as prototyped (or not) are the copiable values."""
        if len(faces) < 2 or not rs.has("prototype_alt"):
            return super().copiable_values(rs, state, of, faces)
        props = self.prototyped(rs, of, faces).props
        values = CopyValues(
            layout="normal", faces=(props,), name=props.name or "", source_face="front"
        )
        rulings = rs.cite(
            "prototype_copiable", "the alternative characteristics are copiable values"
        )
        if of.face == "back" and of.zone in ("stack", "battlefield"):
            rulings += rs.cite(
                "prototype_copy", "a copy of a prototyped permanent has the prototype values"
            )
        return Decided(values, rulings)

    def resolve(self, rs: MagicFaces, state: GameState, obj: GameObject) -> Outcome | None:
        """718.3c: the permanent a prototyped spell becomes is prototyped too."""
        if obj.face != "back" or not rs.has("prototype_alt"):
            return None
        why = "the permanent a prototyped spell becomes is prototyped too"
        return rs._put(state, obj, "battlefield", "back", False, rs.cite("prototype_chars", why))

    def naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """718.5: a prototype card has one name."""
        if name == card.faces[0].name:
            return Decided(True, rs.cite("naming", "a prototype card has its one name"))
        return super().naming(rs, name, card)
