"""Magic: The Gathering: double-faced (712), flip (710), split (709), meld (712.4),
face-down (708) and copies (707), in the newest rules and the 2025-06, 2020 and 2008 versions.
"""

from __future__ import annotations

from typing import ClassVar, Final

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.rulesets import mtg_rules
from obverse.rulesets.base import Catalog, Ruleset, Rulings
from obverse.rulings import DONE, NOTHING, Outcome
from obverse.state import CopyValues, GameObject, GameState

PERMANENT_TYPES: Final = frozenset(
    {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}
)
SPELL_ONLY: Final = frozenset({"Instant", "Sorcery"})
FACE_DOWN: Final = Face(types=("Creature",), power=2, toughness=2)


def is_permanent_face(face: Face) -> bool:
    """A face whose card type makes a permanent."""
    return bool(PERMANENT_TYPES.intersection(face.types))


class Flip(v.Action, frozen=True, tag="flip"):
    """Flip a flip card on the battlefield (710.3)."""

    refs = ("object",)
    object: int


class Meld(v.Action, frozen=True, tag="meld"):
    """Meld two cards of a meld pair into one permanent (701.42)."""

    refs = ("objects",)
    subject = None
    creates = True
    uses_catalog = True
    objects: tuple[int, int]


class Magic(Ruleset):
    """Magic: The Gathering, newest Comprehensive Rules (2026): modal DFCs can transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg", "magic", "mtg@newest")
    game: ClassVar[str] = "mtg"
    version: ClassVar[str] = "newest"
    title: ClassVar[str] = "Magic: The Gathering (newest Comprehensive Rules)"
    zones: ClassVar[frozenset[str]] = frozenset(
        {"library", "hand", "battlefield", "graveyard", "stack", "exile", "command"}
    )
    shared_zones: ClassVar[frozenset[str]] = frozenset({"battlefield", "stack", "exile", "command"})
    public_zones: ClassVar[frozenset[str]] = frozenset(
        {"battlefield", "graveyard", "stack", "exile", "command"}
    )
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"library", "graveyard", "stack"})
    play_zone: ClassVar[str] = "battlefield"
    actions: ClassVar[tuple[type[v.Action], ...]] = (v.Transform, Flip, Meld)
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

    def rule(self, topic: str, reason: str) -> Rulings:
        """A one-ruling tuple for a topic, in this version's numbering."""
        return (self.ruling(self.rule_ids[topic], reason),)

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

    # --- characteristics (712.8, 710, 709.4, 708.2, 202.3) ----------------------------------

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """708.2a: a nameless, colorless 2/2 creature with no text and no mana cost."""
        return Characteristics(face="none", names=(), props=FACE_DOWN, mana_value=0)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        if obj.face_down:
            return self.face_down_characteristics(state, obj)
        if obj.meld is not None:
            return self._melded(state, obj)
        layout, faces = self.printed_faces(state, obj)
        face = obj.face
        in_play_or_stack = obj.zone in ("battlefield", "stack")
        if not in_play_or_stack and face in ("back", "left", "right"):
            face = "both" if layout == "split" else "front"  # 712.8a, 709.4, 710.2
        if layout == "split":
            return self._split(face, faces)
        if layout == "flip" and len(faces) > 1:
            return self._flip(face if obj.zone == "battlefield" else "front", faces)
        chosen = faces[1] if face == "back" and len(faces) > 1 else faces[0]
        mv = mana.mana_value(_cost(chosen))
        if face == "back" and layout == "transform" and not obj.copies and len(faces) > 1:
            mv = mana.mana_value(_cost(faces[0]))  # 712.8e: the front face's mana value
        colors = _colors(chosen)
        props = (
            chosen if colors == chosen.colors else msgspec.structs.replace(chosen, colors=colors)
        )
        return Characteristics(
            face=obj.face, names=(chosen.name,) if chosen.name else (), props=props, mana_value=mv
        )

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
        if face in ("left", "right"):
            half = faces[0] if face == "left" else faces[1]
            chars = self._with_colors(combine_faces(face, (half,)))
            return msgspec.structs.replace(chars, mana_value=mana.mana_value(_cost(half)))
        cost = mana.combine(*(_cost(f) for f in faces))  # 709.4b
        chars = combine_faces("both", faces)
        chars = msgspec.structs.replace(
            chars, props=msgspec.structs.replace(chars.props, cost=cost)
        )
        chars = self._with_colors(chars)
        return msgspec.structs.replace(chars, mana_value=mana.mana_value(cost))

    def _flip(self, face: str, faces: tuple[Face, ...]) -> Characteristics:
        normal, alt = faces[0], faces[1]
        if face != "back":
            chars = self._with_colors(combine_faces("front", (normal,)))
            return msgspec.structs.replace(chars, mana_value=mana.mana_value(_cost(normal)))
        # 710.1b/c: alternative name, text, type line, P/T; color and mana cost unchanged.
        flipped = msgspec.structs.replace(alt, cost=normal.cost, colors=normal.colors)
        chars = self._with_colors(combine_faces("back", (flipped,)))
        return msgspec.structs.replace(chars, mana_value=mana.mana_value(_cost(normal)))

    def _melded(self, state: GameState, obj: GameObject) -> Characteristics:
        assert obj.meld is not None
        result = obj.meld.faces[0]
        chars = self._with_colors(combine_faces("back", (result,)))
        total = sum(mana.mana_value(_cost(state.cards[c].card.faces[0])) for c in obj.cards)
        props = msgspec.structs.replace(chars.props, cost=None)
        return msgspec.structs.replace(chars, props=props, mana_value=total)  # 712.8g

    def explain_characteristics(self, state: GameState, obj: GameObject) -> Rulings:
        """712.8a-g, 710.1b/710.2, 709.3b/709.4, 708.2a, 707.2: why these values count."""
        if obj.face_down:
            return self.rule(
                "face_down_chars", "face down: a nameless 2/2 creature with no mana cost"
            )
        if obj.meld is not None:
            return self.rule(
                "meld_chars",
                "a melded permanent has only its combined back "
                "face; its mana value is the sum of its front faces'",
            )
        layout, faces = self.printed_faces(state, obj)
        out: Rulings = (
            self.rule("copiable_values", "its values are the copied ones") if obj.copies else ()
        )
        where = obj.zone
        if layout == "split":
            if obj.face in ("left", "right"):
                return out + self.rule("split_stack", "on the stack only the chosen half exists")
            return out + self.ruling_list(
                ("split_combined", "off the stack it has both halves' characteristics"),
                ("mv_split", "its mana value comes from the combined cost"),
            )
        if layout == "flip" and len(faces) > 1:
            if where == "battlefield" and obj.face == "back":
                return out + self.ruling_list(
                    ("flip_alt", "flipped on the battlefield: the alternative characteristics"),
                    ("flip_color_cost", "color and mana cost stay the normal ones"),
                )
            return out + self.rule(
                "flip_normal", "unflipped or off the battlefield: its normal characteristics"
            )
        card = state.cards[obj.card].card
        if not (self.is_double_faced(card) or len(faces) > 1):
            return out
        if layout == "meld":
            topic = (
                "meld_stack"
                if where == "stack"
                else "meld_front_up"
                if where == "battlefield"
                else "meld_front_outside"
            )
            return out + self.rule(topic, "an unmelded meld card has only its front face")
        if where not in ("battlefield", "stack"):
            return out + self.rule(
                "dfc_front_outside", f"in the {where} it has only its front face"
            )
        if layout == "modal_dfc":
            return out + self.rule(
                "mdfc_face_up",
                "a modal double-faced card has the face that is up, mana value included",
            )
        if where == "stack":
            return out + self.rule("dfc_spell", "a spell has the face it was cast with")
        if obj.face == "back":
            return out + self.ruling_list(
                (
                    "dfc_back_up",
                    "back face up: the back face's characteristics; mana value "
                    "from the front face" + (" (a copy's is 0)" if obj.copies else ""),
                ),
                ("mv_back_face", "the back face has no mana cost of its own"),
            )
        return out + self.rule("dfc_front_up", "front face up: only the front face counts")

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

    def is_flipped_on_setup(self, card: CardDef, face: str) -> bool:
        """710.1: a flip card set up with its alternative half up is flipped."""
        return card.layout == "flip" and face == "back"

    def object_candidates(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [*super().object_candidates(state, player, o), Flip(object=o.id)]

    def candidates(self, state: GameState, player: str | None) -> list[v.Action]:
        out = super().candidates(state, player)
        melds = [
            o
            for o in state.iter_objects()
            if state.card_def(o).layout == "meld" and o.meld is None and player in (None, o.owner)
        ]
        out += [Meld(objects=(x.id, y.id)) for x in melds for y in melds if x.id < y.id]
        return out

    # --- transform (701.27, 712.9, 712.10, 712.15a) ------------------------------------------

    def can_transform(self, state: GameState, obj: GameObject) -> tuple[bool, Rulings]:
        if obj.zone != "battlefield":
            return False, self.rule("transform", "only permanents transform; nothing happens")
        if obj.face_down:
            return False, self.rule(
                "face_down_no_transform", "a face-down permanent can't transform; nothing happens"
            )
        if obj.meld is not None or state.cards[obj.card].card.layout == "meld":
            return False, (
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
        card = state.cards[obj.card].card
        if not self.is_double_faced(card):
            return False, (
                *self.rule(
                    "who_transforms", f"{card.name} isn't a double-faced card; nothing happens"
                ),
                *self.rule("transform_not_dfc", "not a double-faced permanent"),
            )
        if not self.can_be_transformed_by_layout(card):
            kind = "a meld card" if card.layout == "meld" else "a modal double-faced card"
            return False, self.rule(
                "who_transforms", f"{kind} can't transform under these rules; nothing happens"
            )
        target = card.faces[0] if obj.face == "back" else card.faces[1]
        if SPELL_ONLY.intersection(target.types):
            return False, (
                *self.rule(
                    "transform_into_instant",
                    f"the face it would transform into, {target.name}, is an "
                    "instant or sorcery; nothing happens",
                ),
                *self.rule("transform_instant", "instant or sorcery face"),
            )
        return True, (
            *self.rule("transform", f"it turns over to {target.name}"),
            *self.rule("who_transforms", "it is represented by a double-faced card"),
        )

    def transform_rulings(self, state: GameState, obj: GameObject) -> Rulings:
        return self.rule(
            "transform_not_new",
            "transforming doesn't make a new object; effects that applied to it still apply",
        )

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> tuple[bool, Rulings]:
        if obj.face_down:
            return False, self.rule("face_down_again", "it is already face down; nothing happens")
        card = state.cards[obj.card].card
        if obj.meld is not None or (card.layout == "meld" and obj.zone == "battlefield"):
            return False, self.rule(
                "meld_no_face_down",
                "meld cards on the battlefield and "
                "melded permanents can't be turned face down; nothing "
                "happens",
            )
        if self.is_double_faced(card):
            return False, self.rule(
                "dfc_no_face_down",
                "double-faced permanents can't be turned face down; nothing happens",
            )
        return True, self.rule(
            "face_down_chars", "face down it is a nameless 2/2 creature with no mana cost"
        )

    def become_copy_rulings(self, state: GameState, obj: GameObject) -> Rulings:
        """707.3 / 708.10: the copy's own status (face down, flipped) still applies."""
        if obj.face_down:
            return (
                *self.rule(
                    "face_down_copy",
                    "a face-down permanent that becomes a copy keeps its face-down characteristics",
                ),
                *self.rule("copy_status", "the copy is modified by its own status"),
            )
        if obj.flipped:
            return self.rule("copy_status", "the copy is modified by its own flipped status")
        return ()

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> tuple[bool, Rulings]:
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
        return ok, rulings

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> tuple[bool, Rulings]:
        if not obj.face_down:
            return False, self.rule("face_up", "it is already face up; nothing happens")
        rulings = self.rule("face_up", "turned face up, its copiable values revert to normal")
        if obj.copies:
            rulings += self.rule("face_down_copy", "turned face up, it has the copied values")
        if self.is_double_faced(state.cards[obj.card].card):
            rulings += self.rule(
                "face_down_no_transform", "a double-faced card turned face up has its front face up"
            )
        return True, rulings

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """708.8 / 712.15a: front face up; a flipped permanent stays flipped (710.4)."""
        if obj.flipped:
            return "back"
        return "both" if state.card_def(obj).layout == "split" else "front"

    # --- moves (400.7, 712.13-712.14, 708.9) ------------------------------------------------

    def is_new_object(self, state: GameState, obj: GameObject, zone: str) -> tuple[bool, Rulings]:
        return True, self.rule(
            "new_object",
            f"moving from {obj.zone} to {zone} makes a new object with no memory of the old one",
        )

    def destination(
        self, state: GameState, obj: GameObject, zone: str, transformed: bool | None = None
    ) -> tuple[str, Rulings]:
        """712.13a: a resolving spell that would enter transformed with an instant or sorcery
        back face goes to its owner's graveyard instead."""
        card = state.card_def(obj)
        if (
            transformed
            and obj.zone == "stack"
            and zone == "battlefield"
            and self.is_double_faced(card)
            and SPELL_ONLY.intersection(card.faces[1].types)
        ):
            return "graveyard", self.rule(
                "resolve_transformed_instant",
                f"its back face, {card.faces[1].name}, is an "
                "instant or sorcery: it goes to its owner's graveyard instead",
            )
        return zone, ()

    def face_on_move(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str | None,
        transformed: bool | None,
    ) -> tuple[str | None, Rulings]:
        card = state.card_def(obj)
        if zone == "stack" and face is not None:
            return face, ()
        if zone != "battlefield":
            if obj.face in ("back", "left", "right") and len(card.faces) > 1:
                return self.default_face(card, zone), self.rule(
                    "dfc_front_outside",
                    f"in the {zone} it has only its "
                    f"{'combined halves' if card.layout == 'split' else 'front face'}",
                )
            return self.default_face(card, zone), ()
        if obj.zone == "stack" and face is not None:
            return face, self.rule(
                "resolve_same_face", "it enters with the same face up it had on the stack"
            )
        if transformed or (face == "back" and card.layout != "flip" and len(card.faces) > 1):
            # The contract: ``face: back`` and ``transformed: true`` both mean "transformed".
            if (
                self.is_double_faced(card)
                and self.can_be_transformed_by_layout(card)
                and SPELL_ONLY.intersection(card.faces[1].types)
            ):
                return None, self.ruling_list(
                    (
                        "resolve_transformed_instant",
                        f"its back face, {card.faces[1].name}, is "
                        "an instant or sorcery: it can't enter the battlefield",
                    ),
                    (
                        "sorcery_stays",
                        "an instant or sorcery that would enter the battlefield "
                        "stays in its previous zone",
                    ),
                )
            if self.is_double_faced(card) and self.can_be_transformed_by_layout(card):
                return "back", self.rule(
                    "enter_transformed",
                    "put onto the battlefield transformed, it enters back face up",
                )
            return None, self.rule(
                "enter_transformed",
                f"{card.name} can't be put onto the battlefield transformed; "
                "it stays in its current zone",
            )
        if card.layout == "modal_dfc" and not is_permanent_face(card.faces[0]):
            return None, self.rule(
                "mdfc_front_not_permanent",
                "its front face isn't a permanent card; it stays in its current zone",
            )
        if self.is_double_faced(card):
            return "front", self.rule("enter_front", "it enters the battlefield front face up")
        return self.default_face(card, zone), ()

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> tuple[bool, Rulings]:
        if face_down:
            if zone == "exile" and self.is_double_faced(state.card_def(obj)):
                return True, self.rule(
                    "dfc_exiled_face_down", "a double-faced card exiled face down stays hidden"
                )
            if zone == "battlefield" and self.is_double_faced(state.card_def(obj)):
                return True, self.rule(
                    "dfc_face_down",
                    "a double-faced card entering face down "
                    "has the face-down characteristics and stays hidden",
                )
            return True, ()
        if (
            face_down is None
            and obj.face_down
            and obj.zone in ("battlefield", "stack")
            and zone in ("battlefield", "stack")
        ):
            return True, ()
        return False, ()

    def leave_rulings(self, state: GameState, obj: GameObject, zone: str) -> Rulings:
        out: Rulings = ()
        if (
            obj.face_down
            and obj.zone in ("battlefield", "stack")
            and zone not in ("battlefield", "stack")
        ):
            out += self.rule(
                "face_down_reveal", "a face-down permanent or spell leaving is revealed"
            )
        if obj.flipped and obj.zone == "battlefield":
            out += self.rule(
                "flip_one_way", "a flipped permanent that leaves retains no memory of being flipped"
            )
        if obj.meld is not None and zone != "battlefield":
            out += self.rule(
                "meld_leaves", "one permanent leaves; its two cards each move, front face up"
            )
        return out

    def token_ceases_rulings(self) -> Rulings:
        return (self.ruling("111.7", "a token that leaves the battlefield ceases to exist"),)

    # --- casting (712.11, 712.12, 709.3, 708.4, 305) -----------------------------------------

    def plan_cast(
        self,
        state: GameState,
        obj: GameObject,
        face: str | None,
        transformed: bool,
        face_down: bool,
        action: str = "cast",
    ) -> tuple[str, str, str, Rulings]:
        card = state.card_def(obj)
        if face_down:
            rulings = self.rule("face_down_cast", "cast face down, it is a 2/2 face-down spell")
            if self.is_double_faced(card):
                rulings += self.rule(
                    "dfc_face_down",
                    "a double-faced card cast face down has "
                    "the face-down characteristics and stays hidden",
                )
            return "done", "stack", "front", rulings
        if card.is_meld_result:
            return (
                "illegal",
                obj.zone,
                obj.face,
                self.rule("meld", "the back half of a meld card can't be cast"),
            )
        if card.layout == "meld":
            if face == "back":
                return (
                    "illegal",
                    obj.zone,
                    obj.face,
                    self.rule("meld_back", "a meld card's back face can't be cast"),
                )
            return (
                "done",
                "stack",
                "front",
                self.rule("meld_stack", "a meld card on the stack has only its front face"),
            )
        if card.layout == "split":
            chosen = face or "left"
            if chosen not in ("left", "right"):
                return (
                    "illegal",
                    obj.zone,
                    obj.face,
                    self.rule("split_choose", "choose one half to cast"),
                )
            half = card.faces[0 if chosen == "left" else 1]
            return (
                "done",
                "stack",
                chosen,
                (
                    *self.rule("split_choose", f"the player chose to cast {half.name}"),
                    *self.ruling_list(("split_evaluated", "only the chosen half is evaluated")),
                    *self.rule("split_stack", f"only {half.name} is on the stack"),
                    *self.rule("mv_split", "on the stack its mana value is that half's"),
                ),
            )
        chosen = "back" if transformed else (face or "front")
        if chosen in ("left", "right", "both") or (chosen == "back" and len(card.faces) < 2):
            return (
                "illegal",
                obj.zone,
                obj.face,
                self.rule("cast_front", f"{card.name} has no {chosen} face to cast"),
            )
        rulings = ()
        if card.layout == "flip" and chosen == "back":
            return (
                "illegal",
                obj.zone,
                obj.face,
                self.rule("flip_normal", "a flip card is cast with its normal characteristics"),
            )
        if card.layout == "transform" and chosen == "back":
            if not self.can_cast_transformed:
                return (
                    "illegal",
                    obj.zone,
                    obj.face,
                    self.rule(
                        "cast_front",
                        "a transforming double-faced card is put on the stack front face up",
                    ),
                )
            if not transformed:
                return (
                    "illegal",
                    obj.zone,
                    obj.face,
                    self.rule(
                        "cast_front", "a transforming double-faced card is cast front face up"
                    ),
                )
            rulings = self.rule(
                "cast_transformed", "cast transformed, it is put on the stack back face up"
            )
        elif transformed and self.can_be_transformed_by_layout(card):
            rulings = self.rule(
                "cast_transformed", "cast transformed, it is put on the stack back face up"
            )
        elif card.layout in ("modal_dfc", "adventure") and len(card.faces) > 1:
            rulings = self.rule(
                "cast_mdfc_face",
                f"the player chose to cast {card.faces[0 if chosen == 'front' else 1].name}",
            )
            if face is None:
                rulings += self.rule("cast_front", "with no choice made, it is cast front face up")
        elif self.is_double_faced(card):
            rulings = self.rule("cast_front", "a double-faced card is cast front face up")
        the_face = card.faces[1 if chosen == "back" and len(card.faces) > 1 else 0]
        if "Land" in the_face.types:
            if action != "play":
                return (
                    "illegal",
                    obj.zone,
                    obj.face,
                    (
                        *self.rule(
                            "land_play", f"{the_face.name} is a land: it is played, not cast"
                        ),
                        *(
                            self.rule("mdfc_land", "a land face is played")
                            if len(card.faces) > 1
                            else ()
                        ),
                    ),
                )
            rulings = (
                self.rule("mdfc_land", f"played as a land with {the_face.name} up")
                if self.is_double_faced(card)
                else self.rule("land_play", "a land is played onto the battlefield")
            )
            return "done", "battlefield", chosen, rulings
        rulings += (
            self.rule("cast_evaluated", f"only {the_face.name} is considered put onto the stack")
            if self.is_double_faced(card)
            else ()
        )
        return "done", "stack", chosen, rulings

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        chars = self.base_characteristics(state, obj)
        return obj.face_down or bool(PERMANENT_TYPES.intersection(chars.props.types))

    def plan_resolve(self, state: GameState, obj: GameObject) -> tuple[str, str, Rulings]:
        card = state.card_def(obj)
        if obj.face_down:
            return (
                "battlefield",
                obj.face,
                self.rule("face_down_chars", "a face-down spell becomes a face-down permanent"),
            )
        if card.layout == "adventure" and obj.face == "back":
            return (
                "exile",
                "front",
                self.rule("adventure_exile", "an adventure spell resolves into exile"),
            )
        if self.is_permanent(state, obj):
            rulings = (
                self.rule(
                    "resolve_same_face",
                    "it enters the battlefield with the same face up it had on the stack",
                )
                if self.is_double_faced(card)
                else ()
            )
            return "battlefield", obj.face, rulings
        if card.layout == "transform" and obj.face == "back":
            return (
                "graveyard",
                "front",
                self.rule(
                    "resolve_transformed_instant",
                    "its back face is an instant or sorcery: it goes to the graveyard",
                ),
            )
        return "graveyard", self.default_face(card, "graveyard"), ()

    # --- copies (707.2, 707.3, 707.8, 707.8a, 709.3c) ---------------------------------------

    def copiable_values(self, state: GameState, of: GameObject) -> tuple[CopyValues, Rulings]:
        if of.face_down:
            return CopyValues(
                layout="normal", faces=(FACE_DOWN,), name="", source_face="none"
            ), self.rule("copiable_values", "a copy of a face-down permanent is a nameless 2/2")
        if of.meld is not None:
            face = of.meld.faces[0]
            return CopyValues(
                layout="normal", faces=(face,), name=face.name or "", source_face="back"
            ), self.ruling_list(
                ("copy_dfc", "copying a melded permanent copies the face that is up"),
                ("mv_meld", "a copy of a melded permanent has mana value 0"),
            )
        layout, faces = self.printed_faces(state, of)
        if layout in ("flip", "split") and len(faces) > 1:
            topic = "copy_status" if layout == "flip" else "split_copy"
            return CopyValues(
                layout=layout,
                faces=faces,
                name=" // ".join(f.name or "" for f in faces),
                source_face=of.face,
            ), (
                *self.rule(topic, "the copy gets both halves; its own status decides which apply"),
                *self.rule("copiable_values", "status, such as being flipped, isn't copied"),
            )
        if len(faces) > 1:
            face = faces[1] if of.face == "back" else faces[0]
            rulings = self.rule("copy_dfc", f"only the face that is up, {face.name}, is copied")
            if of.face == "back" and layout == "transform":
                rulings += self.ruling_list(
                    ("mv_back_face", "a copy of a back face has mana value 0"),
                    ("dfc_back_up", "only the back face uses the front face's mana value"),
                )
            return CopyValues(
                layout="normal", faces=(face,), name=face.name or "", source_face=of.face
            ), rulings
        return CopyValues(
            layout="normal", faces=faces, name=faces[0].name or "", source_face=of.face
        ), self.rule("copiable_values", "the copy gets the printed values")

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

    # --- naming (201.4, 712.19, 709.4a, 710.5) ----------------------------------------------

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> tuple[bool, Rulings]:
        for card in cards:
            if card.is_meld_result:
                return True, self.ruling_list(
                    ("naming_meld", "a melded permanent's name may be chosen"),
                    ("meld_naming", "a front face's name or the combined back face's name"),
                )
            if name == card.name and len(card.faces) > 1:
                topic = "split_names" if card.layout == "split" else "dfc_naming"
                return False, self.rule(topic, f"one name may be chosen, not {name}")
            if card.layout == "flip" and name in card.face_names:
                return True, self.rule(
                    "flip_naming", "the alternative name of a flip card may be chosen"
                ) if name != card.faces[0].name else self.rule(
                    "naming", "a card's name may be chosen"
                )
            if card.layout == "split" and name in card.face_names:
                return True, self.rule("naming_split", "one half's name may be chosen")
            if self.is_double_faced(card) and name in card.face_names:
                topic = "naming_dfc" if name != card.faces[0].name else "naming"
                return True, self.ruling_list(
                    ("dfc_naming", "either face's name may be chosen, not both"),
                    (topic, f"{name} is the name of a card"),
                )
        return True, self.rule("naming", "the name of a card may be chosen")

    def query_rulings(self, name: str, zone: str = "") -> Rulings:
        """A search sees cards as they are in their zone: outside the battlefield and stack
        a DFC has only its front face (712.8a), a flip card its normal characteristics (710.2),
        a split card both halves (709.4)."""
        if name == "search" and zone not in ("battlefield", "stack"):
            return (
                *self.rule(
                    "dfc_front_outside",
                    f"in the {zone} a double-faced card has only its front face",
                ),
                *self.rule("flip_normal", "a flip card has its normal characteristics"),
                *self.rule("split_combined", "a split card has both halves' characteristics"),
                *self.rule("split_names", "a split card has both names"),
                *self.rule("split_types", "a split card has both halves' card types"),
            )
        return ()

    # --- meld (701.42, 712.4, 712.14c) ------------------------------------------------------

    def find_meld_result(self, names: set[str], candidates: list[CardDef]) -> CardDef | None:
        """The meld card whose ``melds_from`` is the two names."""
        for card in candidates:
            if card.is_meld_result and set(card.melds_from) == names:
                return card
        return None

    def meld(self, state: GameState, a: Meld, catalog: Catalog) -> Outcome:
        """701.42a, 712.4: exile the pair and put them onto the battlefield melded, one
        permanent represented by both cards, back faces up (712.14c). ``answer`` is the
        melded permanent's object id."""
        oa, ob = state.objects[a.objects[0]], state.objects[a.objects[1]]
        names = {state.cards[oa.card].card.name, state.cards[ob.card].card.name}
        result = self.find_meld_result(names, catalog.all_cards())
        # A meld ability exiles the pair from the battlefield and melds them from exile.
        where = {oa.zone, ob.zone}
        if (
            result is None
            or oa.token
            or ob.token
            or oa.meld is not None
            or ob.meld is not None
            or oa.id == ob.id
            or oa.owner != ob.owner
            or not where <= {"battlefield", "exile"}
        ):
            return Outcome(
                state,
                NOTHING,
                self.ruling_list(
                    ("meld_pair", "only two cards of the same meld pair can be melded"),
                    ("meld_stay", "objects that can't be melded stay in their current zone"),
                ),
            )
        state = core.forget(self.remove(self.remove(state, oa), ob), oa.id)
        state = core.forget(state, ob.id)
        state, oid = core.new_object_id(state)
        state, ts = core.tick(state)
        melded = GameObject(
            id=oid,
            cards=(oa.card, ob.card),
            zone="battlefield",
            owner=oa.owner,
            controller=oa.controller,
            face="back",
            meld=result,
            timestamp=ts,
        )
        state = self.place(state, melded)
        return Outcome(
            state,
            DONE,
            (
                *self.rule("meld_action", f"{' and '.join(sorted(names))} meld into {result.name}"),
                *self.rule(
                    "meld_enters",
                    "the melded permanent enters back "
                    "faces up, one object represented by two cards",
                ),
            ),
            answer=oid,
        )

    def flip(self, state: GameState, a: Flip) -> Outcome:
        """``flip`` (710.3): one-way; only a flip card on the battlefield flips."""
        o = state.objects[a.object]
        card = state.card_def(o)
        if o.flipped:
            return Outcome(
                state,
                NOTHING,
                self.rule("flip_one_way", "it is already flipped; flipping is one-way"),
            )
        if o.zone != "battlefield" or o.face_down:
            return Outcome(
                state,
                NOTHING,
                self.ruling_list(
                    (
                        "flip_alt",
                        "the alternative characteristics are used only on the battlefield",
                    ),
                    (
                        "flip_normal",
                        "outside the battlefield a flip card has its normal "
                        "characteristics; nothing happens",
                    ),
                ),
            )
        layout, _ = self.printed_faces(state, o)
        if layout != "flip" and card.layout != "flip":
            return Outcome(
                state, NOTHING, self.rule("flip", f"{card.name} isn't a flip card; nothing happens")
            )
        state, ts = core.tick(state)
        state = core.update(
            state, msgspec.structs.replace(o, flipped=True, face="back", timestamp=ts)
        )
        return Outcome(
            state,
            DONE,
            (
                *self.rule("flip", "it flips: its alternative characteristics apply"),
                *self.rule(
                    "flip_alt",
                    "the alternative name, text, type line, power and toughness now apply",
                ),
                *self.rule("flip_color_cost", "its color and mana cost don't change"),
            ),
        )

    # --- visibility (708.5, 712.6, 712.7) ---------------------------------------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        if obj.face_down:
            # 708.5: you may look at face-down spells and permanents you control.
            return (
                viewer is not None
                and obj.zone in ("battlefield", "stack")
                and obj.controller == viewer
            )
        if self.is_public(obj.zone):
            return True
        return viewer is not None and obj.zone == "hand" and obj.owner == viewer

    def is_distinguishable(
        self, state: GameState, viewer: str | None, zone: str, owner: str
    ) -> bool:
        key = self.zone_key(zone, owner)
        objs = [state.objects[o] for o in state.zone_contents(key)]
        if zone in ("battlefield", "stack", "exile"):
            # 708.6: face-down permanents and spells are kept distinguishable.
            return all(not o.face_down or o.zone in ("battlefield", "stack") for o in objs) or all(
                self.may_look(state, viewer, o) for o in objs
            )
        return bool(objs) and all(self.may_look(state, viewer, o) for o in objs)


class Magic2025(Magic):
    """MTG rules of June 2025: DFCs at 712, before modal DFCs could transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2025-06",)
    version: ClassVar[str] = "2025-06"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, June 2025)"
    modal_can_transform: ClassVar[bool] = False
    modal_is_transformed: ClassVar[bool] = False
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2025_06


class Magic2020(Magic2025):
    """MTG rules of 2020 (seed 004): DFCs at 711, transform 701.28; modal DFCs can't
    transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2020",)
    version: ClassVar[str] = "2020"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, 2020)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2020
    meld_is_double_faced: ClassVar[bool] = False
    double_faced_token_copies: ClassVar[bool] = False
    can_cast_transformed: ClassVar[bool] = False


class Magic2008(Magic2020):
    """MTG rulings of March 2008 (seed 002): flip cards at 508."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2008",)
    version: ClassVar[str] = "2008"
    title: ClassVar[str] = "Magic: The Gathering (rulings of March 2008)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2008


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


RULESETS: list[type[Ruleset]] = [Magic, Magic2025, Magic2020, Magic2008]
