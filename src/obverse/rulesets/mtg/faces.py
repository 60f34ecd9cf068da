"""Magic: The Gathering, the faces half: MTG's zones and switches, and which face(s) count and
with which values (712.8, 708.2, 202.3) as each card's layout handler says
(:mod:`obverse.rulesets.mtg.layouts`), transforming (701.27, 712.9), turning face down or up,
copies and looking at cards. :class:`obverse.rulesets.mtg.Magic` builds the rest on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import memo
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.mtg import rules_ids as mtg_rules
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulesets.mtg.layouts.meld import MELD
from obverse.rulesets.mtg.values import (
    FACE_DOWN,
    PERMANENT_TYPES,
    SPELL_ONLY,
    colors,
    is_permanent_face,
    is_room,
)
from obverse.rulings import Decided
from obverse.state import CopyValues, GameObject, GameState

__all__ = [
    "FACE_DOWN",
    "MTG_SUPERTYPES",
    "MTG_TYPES",
    "PERMANENT_TYPES",
    "SPELL_ONLY",
    "MagicFaces",
    "is_permanent_face",
]

#: 205.2a card types (Tribal: Kindred's name before 2024; Stickers: Unfinity's sticker sheets,
#: printed cards Scryfall types so, which the importers' vocabulary check must accept).
MTG_TYPES: Final = frozenset(
    {
        "Artifact",
        "Battle",
        "Conspiracy",
        "Creature",
        "Dungeon",
        "Enchantment",
        "Instant",
        "Kindred",
        "Land",
        "Phenomenon",
        "Plane",
        "Planeswalker",
        "Scheme",
        "Sorcery",
        "Stickers",
        "Tribal",
        "Vanguard",
    }
)
#: 205.4a supertypes.
MTG_SUPERTYPES: Final = frozenset(
    {"Basic", "Elite", "Host", "Legendary", "Ongoing", "Snow", "World"}
)


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = Ruleset
else:
    _Base = object


class MagicFaces(_Base):
    """MTG's zones, switches and face rules (newest numbering; versions override)."""

    game: ClassVar[str] = "mtg"
    listed: ClassVar[int] = 0
    #: The scenario contract's layouts (Scryfall's names).
    layouts: ClassVar[frozenset[str]] = frozenset(
        {
            "normal",
            "transform",
            "modal_dfc",
            "flip",
            "split",
            "meld",
            "adventure",
            "token",
            "reversible_card",
            "prototype",
            "omen",
        }
    )
    stats: ClassVar[tuple[str, ...]] = ("power", "toughness", "loyalty", "defense")
    mana_costs: ClassVar[bool] = True
    zones: ClassVar[frozenset[str]] = frozenset(
        {"library", "hand", "battlefield", "graveyard", "stack", "exile", "command"}
    )
    shared_zones: ClassVar[frozenset[str]] = frozenset({"battlefield", "stack", "exile", "command"})
    public_zones: ClassVar[frozenset[str]] = frozenset(
        {"battlefield", "graveyard", "stack", "exile", "command"}
    )
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"library", "graveyard", "stack"})
    play_zone: ClassVar[str] = "battlefield"
    new_object_rule: ClassVar[str] = "400.7"
    hidden_rule: ClassVar[str] = "400.2"
    #: 707.8a: a token copy of a transforming permanent is a double-faced token (not in 2020).
    double_faced_token_copies: ClassVar[bool] = True
    #: 712.11a: a transforming DFC may be cast transformed (2020's 711.7: front face up only).
    can_cast_transformed: ClassVar[bool] = True
    #: 712.1: meld cards are double-faced cards (before 2022 they had rules of their own).
    meld_is_double_faced: ClassVar[bool] = True
    #: 712.9 since September 2025: modal DFCs can transform.
    modal_can_transform: ClassVar[bool] = True
    #: 701.27g since September 2025: "transformed" = any DFC permanent back face up.
    modal_is_transformed: ClassVar[bool] = True
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.NEWEST
    forbid_rule: ClassVar[str] = "101.2"

    #: One handler per layout (:mod:`obverse.rulesets.mtg.layouts`), set on the ruleset.
    layout_rules: ClassVar[Mapping[str, Layout]]

    # --- cards ------------------------------------------------------------------------------

    def layout_rule(self, layout: str, faces: tuple[Face, ...]) -> Layout:
        """The handler of a card of ``layout`` and ``faces`` (a Room, 709.5: ``room``)."""
        rules = self.layout_rules
        if layout == "split" and is_room(layout, faces):
            return rules["room"]
        return rules.get(layout) or rules["normal"]

    def has(self, topic: str) -> bool:
        """Whether this rules version has the rule of ``topic`` (Rooms arrived in 2024 ...)."""
        return topic in self.rule_ids

    def is_double_faced(self, card: CardDef) -> bool:
        """712.1: transforming (nonmodal) and modal DFCs, and since 2022 meld cards."""
        return self.layout_rule(card.layout, card.faces).double_faced(self, card)

    def can_be_transformed_by_layout(self, card: CardDef) -> bool:
        """712.9: which represented cards may transform in this version."""
        return self.layout_rule(card.layout, card.faces).transforms(self, card)

    def default_face(self, card: CardDef, zone: str) -> str:
        return self.layout_rule(card.layout, card.faces).default_face(self, card, zone)

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        return self.layout_rule(card.layout, card.faces).allowed_faces(self, card, zone)

    # --- characteristics (712.8, 710, 709.4, 708.2, 707.2, 202.3) ----------------------------
    # Each branch that picks the face(s) and values also states the rulings behind them
    # (``Characteristics.why``), so the explanation can't drift from the values.

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """708.2a: a nameless, colorless 2/2 creature with no text and no mana cost."""
        why = self.cite("face_down_chars", "face down: a nameless 2/2 creature with no mana cost")
        return Characteristics(face="none", names=(), props=FACE_DOWN, mana_value=0, why=why)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """The values of the face(s) that count, as the card's layout says (its handler);
        708.2a face down; 712.8g melded; 707.2 a copy's values."""
        if obj.face_down:
            return self.face_down_characteristics(state, obj)
        if obj.meld is not None:
            return MELD.melded(self, state, obj)
        layout, faces = self.printed_faces(state, obj)
        face = obj.face
        if obj.zone not in ("battlefield", "stack") and face in ("back", "left", "right"):
            face = "both" if layout == "split" else "front"  # 712.8a, 709.4, 710.2
        chars = self.layout_rule(layout, faces).characteristics(self, state, obj, faces, face)
        if not obj.copies:
            return chars
        copied = self.cite("copiable_values", "its values are the copied ones")
        return msgspec.structs.replace(chars, why=copied + chars.why)

    def with_colors(self, chars: Characteristics) -> Characteristics:
        """202.2: colors from the mana cost's symbols plus the color indicator."""
        merged = colors(chars.props)
        if merged == chars.props.colors:
            return chars
        return msgspec.structs.replace(
            chars, props=msgspec.structs.replace(chars.props, colors=merged)
        )

    # --- status -----------------------------------------------------------------------------

    def is_transformed(self, state: GameState, obj: GameObject) -> bool:
        """701.27g: a double-faced permanent with its back face up (before September 2025:
        a transforming DFC only)."""
        if obj.zone != "battlefield" or obj.face != "back" or obj.face_down or obj.meld:
            return False
        card = state.cards[obj.card].card
        return self.layout_rule(card.layout, card.faces).is_transformed(self)

    def invariant_problems(self, state: GameState, obj: GameObject) -> list[str]:
        """712.8a: only the front face (or both halves) outside the battlefield and the stack;
        708.2a: a face-down object has no name and mana value 0; 712.9: only a double-faced
        card transforms."""
        found = []
        if obj.zone not in ("battlefield", "stack") and obj.face not in ("front", "both"):
            found.append("712.8a: front face only outside play")
        if obj.face_down:  # 708.2a: a nameless 2/2; 406.3a: exiled, no characteristics
            chars = characteristics(state, obj, self)
            mv = 0 if obj.zone in ("battlefield", "stack") else None
            if chars.names != () or chars.mana_value != mv:
                found.append("708.2a: a face-down object has no name and mana value 0")
        if (
            not self.is_double_faced(state.cards[obj.card].card)
            and self.can_transform(state, obj).value
        ):
            found.append("712.9: only double-faced cards transform")
        return found

    def is_flipped_on_setup(self, card: CardDef, face: str) -> bool:
        """710.1: a flip card set up with its alternative half up is flipped."""
        return self.layout_rule(card.layout, card.faces).is_flipped_on_setup(card, face)

    # --- transform (701.27, 712.9, 712.10, 712.15a) ------------------------------------------

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        card = state.cards[obj.cards[0]].card
        blocked = self._transform_blocked(obj, card)
        if blocked:
            return Decided(False, blocked)
        return _card_transforms(self, card, obj.face)

    def card_transforms(self, card: CardDef, face: str) -> Decided[bool]:
        """What the card (its layout and faces) and the face up decide of a transform, once
        nothing about the object itself blocks it (decided once per ruleset, card and face)."""
        if not self.is_double_faced(card):
            return Decided(
                False,
                (
                    *self.cite(
                        "who_transforms", f"{card.name} isn't a double-faced card; nothing happens"
                    ),
                    *self.cite("transform_not_dfc", "not a double-faced permanent"),
                ),
            )
        if not self.can_be_transformed_by_layout(card):
            kind = "a meld card" if card.layout == "meld" else "a modal double-faced card"
            return Decided(
                False,
                self.cite(
                    "who_transforms", f"{kind} can't transform under these rules; nothing happens"
                ),
            )
        target = card.faces[0] if face == "back" else card.faces[1]
        if SPELL_ONLY.intersection(target.types):
            return Decided(
                False,
                (
                    *self.cite(
                        "transform_into_instant",
                        f"the face it would transform into, {target.name}, is an "
                        "instant or sorcery; nothing happens",
                    ),
                    *self.cite("transform_instant", "instant or sorcery face"),
                ),
            )
        return Decided(
            True,
            (
                *self.cite("transform", f"it turns over to {target.name}"),
                *self.cite("who_transforms", "it is represented by a double-faced card"),
                *self.cite(
                    "transform_not_new",
                    "transforming doesn't make a new object; "
                    "effects that applied to it still apply",
                ),
            ),
        )

    def _transform_blocked(self, obj: GameObject, card: CardDef) -> Rulings:
        """701.27, 708.8, 712.9: what keeps the object itself from transforming, whatever its
        card (``card``, the one representing it): not a permanent, face down, or a meld card or
        melded permanent."""
        if obj.zone != "battlefield":
            return self.cite("transform", "only permanents transform; nothing happens")
        if obj.face_down:
            return self.cite(
                "face_down_no_transform", "a face-down permanent can't transform; nothing happens"
            )
        if obj.meld is not None or card.layout == "meld":
            return MELD.transform_blocked(self)
        return ()

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        if obj.face_down:
            return Decided(
                False, self.cite("face_down_again", "it is already face down; nothing happens")
            )
        card = state.cards[obj.card].card
        if obj.meld is not None or (card.layout == "meld" and obj.zone == "battlefield"):
            return Decided(False, MELD.face_down_blocked(self))
        if self.is_double_faced(card):
            return Decided(
                False,
                self.cite(
                    "dfc_no_face_down",
                    "double-faced permanents can't be turned face down; nothing happens",
                ),
            )
        return Decided(
            True,
            self.cite(
                "face_down_chars", "face down it is a nameless 2/2 creature with no mana cost"
            ),
        )

    def copy_effect(self, state: GameState, obj: GameObject, of: GameObject) -> Decided[CopyValues]:
        """707.2 the copiable values; 707.3 / 708.10: the copy's own status (face down,
        flipped) still applies."""
        values, rulings = self.copiable_values(state, of)
        if obj.face_down:
            rulings += (
                *self.cite(
                    "face_down_copy",
                    "a face-down permanent that becomes a copy keeps its face-down characteristics",
                ),
                *self.cite("copy_status", "the copy is modified by its own status"),
            )
        elif obj.flipped:
            rulings += self.cite("copy_status", "the copy is modified by its own flipped status")
        return Decided(values, rulings)

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """708.5: only the controller may look at a face-down permanent; 712.6: whoever may
        look at a double-faced card may look at both faces."""
        ok = self.may_look(state, player, obj)
        rulings: Rulings = ()
        if obj.face_down:
            rulings = self.cite(
                "face_down_look", "you may look at face-down permanents you control, not at others'"
            )
        elif self.is_double_faced(state.card_def(obj)):
            rulings = self.cite(
                "dfc_look", "a player who may look at a double-faced card may look at both faces"
            )
        return Decided(ok, rulings)

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        if not obj.face_down:
            return Decided(False, self.cite("face_up", "it is already face up; nothing happens"))
        if obj.zone == "stack":
            why = "a face-down spell can't be turned face up; it stays face down"
            return Decided(False, self.cite("face_up_spell", why))
        rulings = self.cite("face_up", "turned face up, its copiable values revert to normal")
        if obj.copies:
            rulings += self.cite("face_down_copy", "turned face up, it has the copied values")
        if self.is_double_faced(state.cards[obj.card].card):
            rulings += self.cite(
                "face_down_no_transform", "a double-faced card turned face up has its front face up"
            )
        return Decided(True, rulings)

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """708.8 / 712.15a: front face up; a flipped permanent stays flipped (710.4)."""
        if obj.flipped:
            return "back"
        return self.default_face(state.card_def(obj), "battlefield")

    # --- copies (707.2, 707.3, 707.8, 707.8a, 709.3c) ---------------------------------------

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        """707.2: a face-down permanent's are a nameless 2/2's (708.2a); a melded one's its
        back face (712.8g); else as the layout says."""
        if of.face_down:
            return Decided(
                CopyValues(layout="normal", faces=(FACE_DOWN,), name="", source_face="none"),
                self.cite("copiable_values", "a copy of a face-down permanent is a nameless 2/2"),
            )
        if of.meld is not None:
            return MELD.melded_copy(self, of)
        layout, faces = self.printed_faces(state, of)
        return self.layout_rule(layout, faces).copiable_values(self, state, of, faces)

    def token_copy(
        self, state: GameState, of: GameObject
    ) -> tuple[CardDef, str, CopyValues, Rulings]:
        layout, faces = self.printed_faces(state, of)
        represented = state.cards[of.card].card
        kinds = ("transform", "modal_dfc") if self.modal_can_transform else ("transform",)
        if of.copies and represented.layout in kinds and len(represented.faces) > 1:
            # 707.8a: a transforming permanent under a copy effect: both faces of the token are
            # as that copy effect modifies them.
            layout, faces = represented.layout, (faces[0], faces[0])
        if (
            self.double_faced_token_copies
            and not of.face_down
            and of.meld is None
            and layout in kinds
            and len(faces) > 1
        ):
            card = CardDef(
                name=" // ".join(f.name or "" for f in faces), layout=layout, faces=faces
            )
            values = CopyValues(layout=layout, faces=faces, name=card.name, source_face=of.face)
            return (
                card,
                of.face,
                values,
                self.cite(
                    "token_copy_dfc",
                    "a token copy of a double-faced permanent is a double-faced "
                    "token, with the same face up",
                ),
            )
        return super().token_copy(state, of)


@memo.per_identity(lambda rs, card, face: (type(rs), card, face))
def _card_transforms(rs: MagicFaces, card: CardDef, face: str) -> Decided[bool]:
    """:meth:`MagicFaces.card_transforms`, once per ruleset class, printed card and face."""
    return rs.card_transforms(card, face)
