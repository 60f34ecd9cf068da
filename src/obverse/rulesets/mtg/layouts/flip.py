"""Flip cards (710, layout ``flip``): normal characteristics until flipped on the battlefield
(710.2), then the alternative name, text, type line, power and toughness with the same color
and mana cost (710.1b-c); flipping is one-way (710.3) and forgotten on leaving (710.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulesets.mtg.values import cost
from obverse.rulings import DONE, NOTHING, Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["FLIP", "Flip", "FlipCard"]

replace = msgspec.structs.replace


class Flip(v.Action, frozen=True, tag="flip"):
    """Flip a flip card on the battlefield (710.3)."""

    refs = ("object",)
    object: int


class FlipCard(Layout):
    """A flip card: two halves of one face, the other half upside down."""

    name: ClassVar[str] = "flip"
    whole_name: ClassVar[str] = "naming_flip"
    off_the_stack: ClassVar[tuple[str, str]] = ("flip_normal", "normal characteristics")

    def allowed_faces(self, rs: MagicFaces, card: CardDef, zone: str) -> frozenset[str]:
        """710.2: flipped only on the battlefield."""
        if len(card.faces) < 2 or card.is_meld_result:
            return super().allowed_faces(rs, card, zone)
        return frozenset({"front", "back"} if zone == "battlefield" else {"front"})

    def is_flipped_on_setup(self, card: CardDef, face: str) -> bool:
        """710.1: set up with its alternative half up, it is flipped."""
        return face == "back"

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """710.1b-c, 710.2: the alternative values only flipped on the battlefield."""
        if len(faces) < 2:
            return super().characteristics(rs, state, obj, faces, face)
        normal, alt = faces[0], faces[1]
        mv = mana.mana_value(cost(normal))
        if face != "back" or obj.zone != "battlefield":
            chars = rs.with_colors(combine_faces("front", (normal,)))
            why = rs.cite(
                "flip_normal", "unflipped or off the battlefield: its normal characteristics"
            )
            return replace(chars, mana_value=mv, why=why)
        # 710.1b/c: alternative name, text, type line, P/T; color and mana cost unchanged.
        flipped = replace(alt, cost=normal.cost, colors=normal.colors)
        chars = rs.with_colors(combine_faces("back", (flipped,)))
        why = rs.cite(
            "flip_alt", "flipped on the battlefield: the alternative characteristics"
        ) + rs.cite("flip_color_cost", "color and mana cost stay the normal ones")
        return replace(chars, mana_value=mv, why=why)

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """707.3, 710.6: the copy gets both halves; its own status decides which apply."""
        if len(faces) < 2:
            return super().copiable_values(rs, state, of, faces)
        return both_halves(rs, of, "flip", faces, "copy_status")

    def cast_refused(self, rs: MagicFaces, card: CardDef, chosen: str) -> Rulings:
        """710.2: a flip card is cast with its normal characteristics."""
        refused = super().cast_refused(rs, card, chosen)
        if refused or chosen != "back":
            return refused
        return rs.cite("flip_normal", "a flip card is cast with its normal characteristics")

    def face_naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """710.5: a flip card's alternative name may be chosen."""
        if name not in card.face_names:
            return super().face_naming(rs, name, card)
        if name == card.faces[0].name:
            return Decided(True, rs.cite("naming", "a card's name may be chosen"))
        return Decided(
            True,
            rs.cite("naming_flip", "a flip card's alternative name may be chosen")
            + rs.cite("flip_naming", f"{name} is its alternative name"),
        )

    def flip(self, rs: MagicFaces, state: GameState, a: Flip) -> Outcome:
        """``flip`` (710.3): one-way; only a flip card on the battlefield flips."""
        o = state.objects[a.object]
        card = state.card_def(o)
        if o.flipped:
            why = "it is already flipped; flipping is one-way"
            return Outcome(state, NOTHING, rs.cite("flip_one_way", why))
        if o.face_down:  # whatever card it is: nothing on a face-down permanent flips it
            why = "a face-down permanent has only its face-down values: nothing happens"
            return Outcome(state, NOTHING, rs.cite("face_down_values", why))
        if o.zone != "battlefield":
            why = "the alternative characteristics are used only on the battlefield"
            normal = "outside the battlefield a flip card has its normal characteristics; "
            return Outcome(
                state,
                NOTHING,
                rs.cite("flip_alt", why) + rs.cite("flip_normal", normal + "nothing happens"),
            )
        layout, _ = rs.printed_faces(state, o)
        if layout != "flip" and card.layout != "flip":
            why = f"{card.name} isn't a flip card; nothing happens"
            return Outcome(state, NOTHING, rs.cite("flip", why))
        state, ts = core.tick(state)
        state = core.update(state, replace(o, flipped=True, face="back", timestamp=ts))
        return Outcome(
            state,
            DONE,
            rs.cite("flip", "it flips: its alternative characteristics apply")
            + rs.cite(
                "flip_alt", "the alternative name, text, type line, power and toughness now apply"
            )
            + rs.cite("flip_color_cost", "its color and mana cost don't change"),
        )


def both_halves(
    rs: MagicFaces, of: GameObject, layout: str, faces: tuple[Face, ...], topic: str
) -> Decided[CopyValues]:
    """707.2: a copy of a card of two halves (flip, split) gets both; status isn't copied."""
    return Decided(
        CopyValues(
            layout=layout,
            faces=faces,
            name=" // ".join(f.name or "" for f in faces),
            source_face=of.face,
        ),
        rs.cite(topic, "the copy gets both halves; its own status decides which apply")
        + rs.cite("copiable_values", "status, such as being flipped, isn't copied"),
    )


#: The handler (the ``flip`` verb is its procedure).
FLIP = FlipCard()
