"""Omen cards (720, layout ``omen``): cast as an Omen, on the stack only the alternative
characteristics (720.3b), shuffled into the library as it resolves (720.3d); the normal
characteristics elsewhere (720.4); either name may be chosen, not both (720.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import mana
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.rulesets.mtg.layouts.base import Alternative
from obverse.rulesets.mtg.values import cost
from obverse.rulings import DONE, Decided, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Omen"]

replace = msgspec.structs.replace


class Omen(Alternative):
    """An Omen card."""

    name: ClassVar[str] = "omen"
    how: ClassVar[str] = "as an Omen"
    off_the_stack: ClassVar[tuple[str, str]] = ("omen_normal", "normal characteristics")
    #: 720.3c: a copy of an Omen spell is an Omen too.
    spell_copy: ClassVar[tuple[str, str] | None] = (
        "omen_copy",
        "a copy of an Omen spell is an Omen too",
    )

    def allowed_faces(self, rs: MagicFaces, card: CardDef, zone: str) -> frozenset[str]:
        """720.3b: as an Omen only on the stack (a version before 720: the front only)."""
        if len(card.faces) < 2:
            return super().allowed_faces(rs, card, zone)
        alt = zone == "stack" and rs.has("omen_alt")
        return frozenset({"front", "back"} if alt else {"front"})

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """720.3b: on the stack as an Omen, only the alternative characteristics; 720.4: its
        normal characteristics everywhere else."""
        if len(faces) < 2 or not rs.has("omen_alt"):
            return super().characteristics(rs, state, obj, faces, face)
        if obj.zone == "stack" and obj.face == "back":
            up, topic, why = "back", "omen_stack", "on the stack as an Omen: its Omen values"
        else:
            up, topic, why = "front", "omen_normal", f"in the {obj.zone}: its normal values"
        chosen = faces[1] if up == "back" else faces[0]
        chars = rs.with_colors(combine_faces(up, (chosen,)))
        return replace(chars, mana_value=mana.mana_value(cost(chosen)), why=rs.cite(topic, why))

    def resolve(self, rs: MagicFaces, state: GameState, obj: GameObject) -> Outcome | None:
        """720.3d: an Omen spell is shuffled into its owner's library as it resolves."""
        if obj.face != "back" or not rs.has("omen_alt"):
            return None
        why = "an Omen spell is shuffled into its owner's library as it resolves"
        out = rs._put(state, obj, "library", "front", False, rs.cite("omen_shuffle", why))
        mixed = rs.shuffle(out.state, v.Shuffle(player=obj.owner, zone="library"))
        return Outcome(mixed.state, DONE, out.rulings, out.events + mixed.events)

    def naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """720.2: the Omen's alternative name may be chosen, or its own; not both."""
        if not self.has_alternative(rs, card):
            return super().naming(rs, name, card)
        if name == card.faces[1].name:
            return Decided(
                True,
                rs.cite("naming", "the name of a card may be chosen")
                + rs.cite("omen_alt", f"{name} names its Omen characteristics"),
            )
        if name == card.faces[0].name:
            return Decided(True, rs.cite("naming", "the name of a card may be chosen"))
        return Decided(False, rs.cite("naming", f"one name may be chosen, not {name}"))
