"""Magic: The Gathering, the faces half: which face(s) count and with which values (712.8,
710, 709.4, 708.2, 202.3), transforming, turning face down or up, copies and looking at
cards. :class:`obverse.rulesets.mtg.Magic` builds moving, casting, meld and flip on it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import mana
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics, combine_faces
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.mtg import rules_ids as mtg_rules
from obverse.rulings import Decided
from obverse.state import CopyValues, GameObject, GameState

PERMANENT_TYPES: Final = frozenset(
    {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}
)
SPELL_ONLY: Final = frozenset({"Instant", "Sorcery"})
FACE_DOWN: Final = Face(types=("Creature",), power=2, toughness=2)


def is_permanent_face(face: Face) -> bool:
    """A face whose card type makes a permanent."""
    return bool(PERMANENT_TYPES.intersection(face.types))


#: :meth:`MagicFaces.can_transform`'s card part per (ruleset class, card id, face): the card
#: (kept alive, so its id isn't reused while cached) and the decision.
_TURNS: dict[tuple[type, int, str], tuple[CardDef, Decided[bool]]] = {}
_TURNS_KEPT: Final = 10_000
#: How many distinct one-ruling tuples (per ruleset, topic and reason) are kept built.
_RULINGS_KEPT: Final = 8192


def _rule(self: MagicFaces, topic: str, reason: str) -> Rulings:
    """A one-ruling tuple for a topic, in this version's numbering."""
    return (self.ruling(self.rule_ids[topic], reason),)


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


#: Naming a two-part card by its whole name: the rule that says one name is chosen.
WHOLE_NAME: Final[dict[str, str]] = {
    "split": "split_names",
    "adventure": "naming_adventure",
    "flip": "naming_flip",
}

#: Leaving the stack or battlefield, which rule gives a card its characteristics there.
OFF_THE_STACK: Final[dict[str, tuple[str, str]]] = {
    "split": ("split_combined", "combined halves"),
    "adventure": ("adventure_normal", "normal characteristics"),
    "flip": ("flip_normal", "normal characteristics"),
    "transform": ("dfc_front_outside", "front face"),
    "prototype": ("prototype_normal", "normal characteristics"),
    "omen": ("omen_normal", "normal characteristics"),
}


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

    #: A one-ruling tuple for a topic, in this version's numbering (built once per ruleset,
    #: topic and reason, as :meth:`ruling`).
    rule = functools.lru_cache(maxsize=_RULINGS_KEPT)(_rule)

    def ruling_list(self, *items: tuple[str, str]) -> Rulings:
        """Rulings for several ``(topic, reason)`` pairs."""
        return tuple(self.ruling(self.rule_ids[t], r) for t, r in items)

    # --- cards ------------------------------------------------------------------------------

    def is_double_faced(self, card: CardDef) -> bool:
        """712.1: transforming (nonmodal) and modal DFCs, and since 2022 meld cards."""
        if card.layout == "meld":
            return self.meld_is_double_faced
        return card.layout in ("transform", "modal_dfc", "reversible_card") and len(card.faces) > 1

    def can_be_transformed_by_layout(self, card: CardDef) -> bool:
        """712.9: which represented cards may transform in this version."""
        if card.layout == "transform":
            return len(card.faces) > 1
        return card.layout == "modal_dfc" and self.modal_can_transform

    def default_face(self, card: CardDef, zone: str) -> str:
        if card.layout == "split":
            return "left" if zone == self.stack_zone else "both"
        return "front"

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        if card.layout == "split":
            return frozenset({"left", "right"} if zone == "stack" else {"both"})
        if len(card.faces) < 2 or card.is_meld_result:
            return frozenset({"back"} if card.is_meld_result else {"front"})
        if card.layout == "flip":
            return frozenset({"front", "back"} if zone == "battlefield" else {"front"})
        if zone in ("battlefield", "stack"):
            return frozenset({"front", "back"})
        return frozenset({"front"})

    # --- characteristics (712.8, 710, 709.4, 708.2, 707.2, 202.3) ----------------------------
    # Each branch that picks the face(s) and values also states the rulings behind them
    # (``Characteristics.why``), so the explanation can't drift from the values.

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """708.2a: a nameless, colorless 2/2 creature with no text and no mana cost."""
        why = self.rule("face_down_chars", "face down: a nameless 2/2 creature with no mana cost")
        return Characteristics(face="none", names=(), props=FACE_DOWN, mana_value=0, why=why)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        if obj.face_down:
            return self.face_down_characteristics(state, obj)
        if obj.meld is not None:
            return self._melded(state, obj)
        layout, faces = self.printed_faces(state, obj)
        face = obj.face
        if obj.zone not in ("battlefield", "stack") and face in ("back", "left", "right"):
            face = "both" if layout == "split" else "front"  # 712.8a, 709.4, 710.2
        if layout == "split":
            chars = self._split(face, faces)
        elif layout == "flip" and len(faces) > 1:
            chars = self._flip(face if obj.zone == "battlefield" else "front", faces)
        else:
            chars = self._one_face(state, obj, layout, faces, face)
        if not obj.copies:
            return chars
        copied = self.rule("copiable_values", "its values are the copied ones")
        return msgspec.structs.replace(chars, why=copied + chars.why)

    def _with_colors(
        self, chars: Characteristics, cost_face: Face | None = None
    ) -> Characteristics:
        """202.2: colors from the mana cost's symbols plus the color indicator."""
        merged = _colors(cost_face or chars.props)
        if merged == chars.props.colors:
            return chars
        return msgspec.structs.replace(
            chars, props=msgspec.structs.replace(chars.props, colors=merged)
        )

    def _split(self, face: str, faces: tuple[Face, ...]) -> Characteristics:
        if face in ("left", "right") or face.startswith("half"):
            # 709.3b: the half cast; ``half3`` ... for a card of more than two (mtg_split).
            half = faces[0 if face == "left" else 1 if face == "right" else int(face[4:]) - 1]
            chars = self._with_colors(combine_faces(face, (half,)))
            why = self.rule("split_stack", "on the stack only the chosen half exists")
            return msgspec.structs.replace(chars, mana_value=mana.mana_value(_cost(half)), why=why)
        cost = mana.combine(*(_cost(f) for f in faces))  # 709.4b
        chars = combine_faces("both", faces)
        chars = msgspec.structs.replace(
            chars, props=msgspec.structs.replace(chars.props, cost=cost)
        )
        chars = self._with_colors(chars)
        why = self.ruling_list(
            ("split_combined", "off the stack it has both halves' characteristics"),
            ("mv_split", "its mana value comes from the combined cost"),
        )
        return msgspec.structs.replace(chars, mana_value=mana.mana_value(cost), why=why)

    def _flip(self, face: str, faces: tuple[Face, ...]) -> Characteristics:
        normal, alt = faces[0], faces[1]
        mv = mana.mana_value(_cost(normal))
        if face != "back":
            chars = self._with_colors(combine_faces("front", (normal,)))
            why = self.rule(
                "flip_normal", "unflipped or off the battlefield: its normal characteristics"
            )
            return msgspec.structs.replace(chars, mana_value=mv, why=why)
        # 710.1b/c: alternative name, text, type line, P/T; color and mana cost unchanged.
        flipped = msgspec.structs.replace(alt, cost=normal.cost, colors=normal.colors)
        chars = self._with_colors(combine_faces("back", (flipped,)))
        why = self.ruling_list(
            ("flip_alt", "flipped on the battlefield: the alternative characteristics"),
            ("flip_color_cost", "color and mana cost stay the normal ones"),
        )
        return msgspec.structs.replace(chars, mana_value=mv, why=why)

    def _melded(self, state: GameState, obj: GameObject) -> Characteristics:
        assert obj.meld is not None
        result = obj.meld.faces[0]
        chars = self._with_colors(combine_faces("back", (result,)))
        total = sum(mana.mana_value(_cost(state.cards[c].card.faces[0])) for c in obj.cards)
        props = msgspec.structs.replace(chars.props, cost=None)
        why = self.rule(
            "meld_chars",
            "a melded permanent has only its combined back "
            "face; its mana value is the sum of its front faces'",
        )
        return msgspec.structs.replace(chars, props=props, mana_value=total, why=why)  # 712.8g

    def _one_face(
        self, state: GameState, obj: GameObject, layout: str, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """A card with one face that counts: the face up (712.8d-f) or its front (712.8a)."""
        chosen = faces[1] if face == "back" and len(faces) > 1 else faces[0]
        # 712.8e: a nonmodal DFC's back face has the front face's mana value (not a copy's).
        front_mv = face == "back" and layout == "transform" and not obj.copies and len(faces) > 1
        mv = mana.mana_value(_cost(faces[0] if front_mv else chosen))
        colors = _colors(chosen)
        props = (
            chosen if colors == chosen.colors else msgspec.structs.replace(chosen, colors=colors)
        )
        return Characteristics(
            face=obj.face,
            names=(chosen.name,) if chosen.name else (),
            props=props,
            mana_value=mv,
            why=self._face_why(state, obj, layout, faces, front_mv),
        )

    def _face_why(
        self,
        state: GameState,
        obj: GameObject,
        layout: str,
        faces: tuple[Face, ...],
        front_mv: bool,
    ) -> Rulings:
        """The rulings of :meth:`_one_face`'s choice; ``front_mv``: it took the front face's
        mana value."""
        if not (self.is_double_faced(state.card_def(obj)) or len(faces) > 1):
            return ()
        where = obj.zone
        if layout == "meld":
            topic = {"stack": "meld_stack", "battlefield": "meld_front_up"}.get(
                where, "meld_front_outside"
            )
            return self.rule(topic, "an unmelded meld card has only its front face")
        if layout == "adventure":
            if where == "stack" and obj.face == "back":
                return self.rule(
                    "adventure_stack", "on the stack as an Adventure: its alternative values"
                )
            return self.rule("adventure_normal", f"in the {where}: its normal characteristics")
        if where not in ("battlefield", "stack"):
            return self.rule("dfc_front_outside", f"in the {where} it has only its front face")
        if layout == "modal_dfc":
            return self.rule(
                "mdfc_face_up",
                "a modal double-faced card has the face that is up, mana value included",
            )
        if where == "stack":
            return self.rule("dfc_spell", "a spell has the face it was cast with")
        if obj.face != "back":
            return self.rule("dfc_front_up", "front face up: only the front face counts")
        if front_mv:
            return self.ruling_list(
                (
                    "dfc_back_up",
                    "back face up: the back face's characteristics; mana value from the front face",
                ),
                ("mv_back_face", "the back face has no mana cost of its own"),
            )
        if obj.copies:
            return self.ruling_list(
                ("dfc_back_up", "back face up as a copy: the copied face's mana value"),
                ("mv_back_face", "a copy of a back face has mana value 0"),
            )
        return self.rule(
            "dfc_back_up", "back face up: the back face's characteristics, its own mana cost too"
        )

    # --- status -----------------------------------------------------------------------------

    def is_transformed(self, state: GameState, obj: GameObject) -> bool:
        """701.27g: a double-faced permanent with its back face up (before September 2025:
        a transforming DFC only)."""
        if obj.zone != "battlefield" or obj.face != "back" or obj.face_down or obj.meld:
            return False
        card = state.cards[obj.card].card
        if card.layout == "transform":
            return True
        return card.layout == "modal_dfc" and self.modal_is_transformed

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
        return card.layout == "flip" and face == "back"

    # --- transform (701.27, 712.9, 712.10, 712.15a) ------------------------------------------

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        card = state.cards[obj.cards[0]].card
        blocked = self._transform_blocked(obj, card)
        if blocked:
            return Decided(False, blocked)
        key = (type(self), id(card), obj.face)
        hit = _TURNS.get(key)
        if hit is not None and hit[0] is card:  # the id is of the card the entry keeps alive
            return hit[1]
        turns = self._card_transforms(card, obj.face)
        if len(_TURNS) > _TURNS_KEPT:
            _TURNS.clear()
        _TURNS[key] = (card, turns)
        return turns

    def _card_transforms(self, card: CardDef, face: str) -> Decided[bool]:
        """What the card (its layout and faces) and the face up decide of a transform, once
        nothing about the object itself blocks it (decided once per ruleset, card and face)."""
        if not self.is_double_faced(card):
            return Decided(
                False,
                (
                    *self.rule(
                        "who_transforms", f"{card.name} isn't a double-faced card; nothing happens"
                    ),
                    *self.rule("transform_not_dfc", "not a double-faced permanent"),
                ),
            )
        if not self.can_be_transformed_by_layout(card):
            kind = "a meld card" if card.layout == "meld" else "a modal double-faced card"
            return Decided(
                False,
                self.rule(
                    "who_transforms", f"{kind} can't transform under these rules; nothing happens"
                ),
            )
        target = card.faces[0] if face == "back" else card.faces[1]
        if SPELL_ONLY.intersection(target.types):
            return Decided(
                False,
                (
                    *self.rule(
                        "transform_into_instant",
                        f"the face it would transform into, {target.name}, is an "
                        "instant or sorcery; nothing happens",
                    ),
                    *self.rule("transform_instant", "instant or sorcery face"),
                ),
            )
        return Decided(
            True,
            (
                *self.rule("transform", f"it turns over to {target.name}"),
                *self.rule("who_transforms", "it is represented by a double-faced card"),
                *self.rule(
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
            return self.rule("transform", "only permanents transform; nothing happens")
        if obj.face_down:
            return self.rule(
                "face_down_no_transform", "a face-down permanent can't transform; nothing happens"
            )
        if obj.meld is not None or card.layout == "meld":
            return (
                *self.rule(
                    "meld_no_transform",
                    "meld cards and melded permanents can't transform; nothing happens",
                ),
                *(
                    self.rule("transform_not_dfc", "not a transforming permanent")
                    if not self.meld_is_double_faced
                    else ()
                ),
            )
        return ()

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        if obj.face_down:
            return Decided(
                False, self.rule("face_down_again", "it is already face down; nothing happens")
            )
        card = state.cards[obj.card].card
        if obj.meld is not None or (card.layout == "meld" and obj.zone == "battlefield"):
            return Decided(
                False,
                self.rule(
                    "meld_no_face_down",
                    "meld cards on the battlefield and "
                    "melded permanents can't be turned face down; nothing "
                    "happens",
                ),
            )
        if self.is_double_faced(card):
            return Decided(
                False,
                self.rule(
                    "dfc_no_face_down",
                    "double-faced permanents can't be turned face down; nothing happens",
                ),
            )
        return Decided(
            True,
            self.rule(
                "face_down_chars", "face down it is a nameless 2/2 creature with no mana cost"
            ),
        )

    def copy_effect(self, state: GameState, obj: GameObject, of: GameObject) -> Decided[CopyValues]:
        """707.2 the copiable values; 707.3 / 708.10: the copy's own status (face down,
        flipped) still applies."""
        values, rulings = self.copiable_values(state, of)
        if obj.face_down:
            rulings += (
                *self.rule(
                    "face_down_copy",
                    "a face-down permanent that becomes a copy keeps its face-down characteristics",
                ),
                *self.rule("copy_status", "the copy is modified by its own status"),
            )
        elif obj.flipped:
            rulings += self.rule("copy_status", "the copy is modified by its own flipped status")
        return Decided(values, rulings)

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """708.5: only the controller may look at a face-down permanent; 712.6: whoever may
        look at a double-faced card may look at both faces."""
        ok = self.may_look(state, player, obj)
        rulings: Rulings = ()
        if obj.face_down:
            rulings = self.rule(
                "face_down_look", "you may look at face-down permanents you control, not at others'"
            )
        elif self.is_double_faced(state.card_def(obj)):
            rulings = self.rule(
                "dfc_look", "a player who may look at a double-faced card may look at both faces"
            )
        return Decided(ok, rulings)

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        if not obj.face_down:
            return Decided(False, self.rule("face_up", "it is already face up; nothing happens"))
        if obj.zone == "stack":
            why = "a face-down spell can't be turned face up; it stays face down"
            return Decided(False, self.rule("face_up_spell", why))
        rulings = self.rule("face_up", "turned face up, its copiable values revert to normal")
        if obj.copies:
            rulings += self.rule("face_down_copy", "turned face up, it has the copied values")
        if self.is_double_faced(state.cards[obj.card].card):
            rulings += self.rule(
                "face_down_no_transform", "a double-faced card turned face up has its front face up"
            )
        return Decided(True, rulings)

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """708.8 / 712.15a: front face up; a flipped permanent stays flipped (710.4)."""
        if obj.flipped:
            return "back"
        return "both" if state.card_def(obj).layout == "split" else "front"

    # --- copies (707.2, 707.3, 707.8, 707.8a, 709.3c) ---------------------------------------

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        if of.face_down:
            return Decided(
                CopyValues(layout="normal", faces=(FACE_DOWN,), name="", source_face="none"),
                self.rule("copiable_values", "a copy of a face-down permanent is a nameless 2/2"),
            )
        if of.meld is not None:
            face = of.meld.faces[0]
            return Decided(
                CopyValues(
                    layout="normal", faces=(face,), name=face.name or "", source_face="back"
                ),
                self.ruling_list(
                    ("copy_dfc", "copying a melded permanent copies the face that is up"),
                    ("mv_meld", "a copy of a melded permanent has mana value 0"),
                ),
            )
        layout, faces = self.printed_faces(state, of)
        if layout in ("flip", "split") and len(faces) > 1:
            topic = "copy_status" if layout == "flip" else "split_copy"
            return Decided(
                CopyValues(
                    layout=layout,
                    faces=faces,
                    name=" // ".join(f.name or "" for f in faces),
                    source_face=of.face,
                ),
                (
                    *self.rule(
                        topic, "the copy gets both halves; its own status decides which apply"
                    ),
                    *self.rule("copiable_values", "status, such as being flipped, isn't copied"),
                ),
            )
        if len(faces) > 1:
            face = faces[1] if of.face == "back" else faces[0]
            rulings = self.rule("copy_dfc", f"only the face that is up, {face.name}, is copied")
            if of.face == "back" and layout == "transform":
                rulings += self.ruling_list(
                    ("mv_back_face", "a copy of a back face has mana value 0"),
                    ("dfc_back_up", "only the back face uses the front face's mana value"),
                )
            return Decided(
                CopyValues(
                    layout="normal", faces=(face,), name=face.name or "", source_face=of.face
                ),
                rulings,
            )
        return Decided(
            CopyValues(layout="normal", faces=faces, name=faces[0].name or "", source_face=of.face),
            self.rule("copiable_values", "the copy gets the printed values"),
        )

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
                self.rule(
                    "token_copy_dfc",
                    "a token copy of a double-faced permanent is a double-faced "
                    "token, with the same face up",
                ),
            )
        return super().token_copy(state, of)


_COLOR_MEMO: dict[int, tuple[Face, tuple[str, ...]]] = {}


def _colors(face: Face) -> tuple[str, ...]:
    """A face's colors (mana symbols + indicator), memoized per immutable face."""
    hit = _COLOR_MEMO.get(id(face))
    if hit is not None and hit[0] is face:
        return hit[1]
    colors = mana.colors_of(_cost(face))
    extra = tuple(c for c in face.colors if c not in colors)
    merged: tuple[str, ...] = tuple(c for c in mana.COLORS if c in colors or c in extra)
    merged += tuple(c for c in extra if c not in mana.COLORS)
    if len(_COLOR_MEMO) > 50_000:
        _COLOR_MEMO.clear()
    _COLOR_MEMO[id(face)] = (face, merged)
    return merged


def _cost(face: Face) -> str | None:
    return face.cost if isinstance(face.cost, str) and face.cost else None
