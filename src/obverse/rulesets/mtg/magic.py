"""Magic: The Gathering: double-faced (712), flip (710), split (709), meld (712.4),
face-down (708) and copies (707), in the newest rules and the 2025-06, 2020 and 2008 versions.

The face rules (characteristics, transform, face down, copies) are
:class:`~obverse.rulesets.mtg.faces.MagicFaces`'; this module adds moving, casting,
resolving, naming, meld, flip and visibility.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.rulesets.base import Catalog, Ruleset, Rulings
from obverse.rulesets.hooks import Sight
from obverse.rulesets.mtg import rules_ids as mtg_rules
from obverse.rulesets.mtg.copies import CopySpell, MagicCopies
from obverse.rulesets.mtg.craft import Craft, CraftedWith, MagicCraft
from obverse.rulesets.mtg.effects import MagicEffects
from obverse.rulesets.mtg.exile import ChooseExiled, EndGame, LeaveGame, MagicExile
from obverse.rulesets.mtg.facedown import OLD_KINDS, MagicFaceDown
from obverse.rulesets.mtg.faces import (
    FACE_DOWN,
    MTG_SUPERTYPES,
    MTG_TYPES,
    OFF_THE_STACK,
    PERMANENT_TYPES,
    SPELL_ONLY,
    WHOLE_NAME,
    MagicFaces,
    is_permanent_face,
)
from obverse.rulesets.mtg.faceup import MagicFaceUp
from obverse.rulesets.mtg.layouts.room import Lock, MagicLayouts, Unlock
from obverse.rulesets.mtg.layouts.split import MagicSplit
from obverse.rulesets.mtg.merge import MagicMerge, Mutate
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulesets.mtg.permanents import (
    BecomeDay,
    BecomeNight,
    ChooseProtector,
    Damage,
    DayNight,
    MagicPermanents,
    Protector,
    RemoveCounters,
)
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, NO, NOTHING, PLAIN, YES, Decided, Outcome
from obverse.state import GameObject, GameState

__all__ = [
    "FACE_DOWN",
    "PERMANENT_TYPES",
    "RULESETS",
    "SPELL_ONLY",
    "Flip",
    "Magic",
    "Meld",
    "Unlock",
]


#: Battles, day and night (mtg_permanents).
PERMANENT_VERBS: Final = (
    RemoveCounters,
    Damage,
    ChooseProtector,
    Protector,
    BecomeDay,
    BecomeNight,
    DayNight,
)


class Flip(v.Action, frozen=True, tag="flip"):
    """Flip a flip card on the battlefield (710.3)."""

    refs = ("object",)
    object: int


class Meld(v.Action, frozen=True, tag="meld"):
    """Meld two cards of a meld pair into one permanent (701.42)."""

    refs = ("objects",)
    reads_choice = True
    subject = None
    creates = True
    uses_catalog = True
    objects: tuple[int, int]


def _decide_new_object(
    self: MagicFaceUp, was: str, zone: str, face_down: bool, flipped: bool, melded: bool
) -> Decided[bool]:
    """400.7: moving from ``was`` to ``zone`` makes a new object; what leaving does to an
    object that was face down, flipped or melded."""
    out = self.rule(
        "new_object",
        f"moving from {was} to {zone} makes a new object with no memory of the old one",
    )
    if face_down and was in ("battlefield", "stack") and zone not in ("battlefield", "stack"):
        out += self.rule("face_down_reveal", "a face-down permanent or spell leaving is revealed")
    if flipped and was == "battlefield":
        out += self.rule(
            "flip_one_way", "a flipped permanent that leaves retains no memory of being flipped"
        )
    if melded and zone != "battlefield":
        out += self.rule(
            "meld_leaves", "one permanent leaves; its two cards each move, front face up"
        )
    return Decided(True, out)


class Magic(
    MagicFaceUp,
    MagicMerge,
    MagicExile,
    MagicFaceDown,
    MagicEffects,
    MagicPermanents,
    MagicCopies,
    MagicCraft,
    MagicSplit,
    MagicMoves,
    MagicLayouts,
    MagicFaces,
    Ruleset,
):
    """Magic: The Gathering, newest Comprehensive Rules (2026): modal DFCs can transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg", "magic", "mtg@newest")
    game: ClassVar[str] = "mtg"
    version: ClassVar[str] = "newest"
    title: ClassVar[str] = "Magic: The Gathering (newest Comprehensive Rules)"
    actions: ClassVar[tuple[type[v.Action], ...]] = (
        v.Transform,
        Flip,
        Meld,
        Unlock,
        Lock,
        CopySpell,
        Craft,
        CraftedWith,
        *PERMANENT_VERBS,
        v.Look,
        ChooseExiled,
        LeaveGame,
        EndGame,
        Mutate,
    )
    #: Setup keys: 708.2's listed values (face-down kinds) and counters (battles, Sagas).
    setup_keys: ClassVar[Mapping[str, str]] = {
        **MagicFaceDown.setup_keys,
        **MagicPermanents.setup_keys,
    }
    # 205.2a card types (Tribal: its name before 2024) and 205.4a supertypes; subtypes open.
    type_words: ClassVar[Mapping[str, frozenset[str]]] = {
        "types": MTG_TYPES,
        "supertypes": MTG_SUPERTYPES,
    }

    #: Also: flipping, unlocking a Room's doors, casting a split card fused.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("flip", "_offer_flip"),
        ("unlock", "_offer_unlock"),
        ("cast", "_offer_fused"),
    )

    #: Also melding with a partner (701.42a): each meld card of the same owner, decided one
    #: by one (the pair decides, 712.4).
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("meld", "_targets_meld"),)

    def _targets_meld(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Melding ``o`` with each other meld card of its owner the seat may refer to."""
        if not self._meld_half(state, None, o):
            return None
        partners = ctx.shared(
            ("meld", o.owner),
            lambda: tuple(
                x.id
                for x in ctx.objects()
                if self._meld_half(state, o.owner, x) and self.may_identify(state, seat, x)
            ),
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
        melds = self._meld_halves(state, player)
        firsts = melds if acting is None else [x for x in melds if acting(x)]
        return [Meld(objects=(x.id, y.id)) for x in firsts for y in melds if x.id < y.id]

    #: Melding names two objects.
    several_verbs: ClassVar[frozenset[str]] = frozenset({"become_copy", "meld"})

    def several_on(
        self, state: GameState, player: str | None, o: GameObject, verb: str
    ) -> list[v.Action]:
        """Also melding ``o`` with each meld card of the same owner after it."""
        if verb != "meld":
            return super().several_on(state, player, o, verb)
        if not self._meld_half(state, player, o):
            return []
        return [Meld(objects=(o.id, y.id)) for y in self._meld_halves(state, player) if o.id < y.id]

    def _meld_halves(self, state: GameState, player: str | None) -> list[GameObject]:
        """The unmelded meld cards ``player`` owns (``None``: everyone's)."""
        return [o for o in state.iter_objects() if self._meld_half(state, player, o)]

    def _meld_half(self, state: GameState, player: str | None, o: GameObject) -> bool:
        return (
            not o.face_down  # 708.2: no name, so no meld card (whatever the hidden card)
            and state.card_def(o).layout == "meld"
            and o.meld is None
            and player in (None, o.owner)
        )

    # --- moves (400.7, 304.4, 307.4, 712.13-712.14, 708.9) ----------------------------------

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """304.4, 307.4: an instant or sorcery told to enter the battlefield face up stays in
        its zone; ``as``: put onto the battlefield face down that way (701.40a manifest,
        701.58a cloak ...); a Room's doors (709.5d); everything else moves as
        :meth:`Ruleset.move_object` says. (One override, the whole of MTG's move: each part
        a helper in its own module.)"""
        obj = state.objects[a.object]
        if a.to == "battlefield" and not (a.transformed or a.face == "back"):
            down, _ = self.face_down_on_move(state, obj, "battlefield", a.face_down)
            stays = () if down or obj.zone == "battlefield" else self._spell_only(state, obj)
            if stays:
                return Outcome(state, NOTHING, stays)
        if a.as_ is not None or a.values is not None:
            self.check_move_as(a)  # the kind and values are checked there (708.2)
        out = self.move_object(
            state, a.object, a.to, a.face, a.face_down, a.transformed, a.position
        )
        if out.result != DONE:
            return out
        if obj.unlocked or obj.zone != "battlefield":  # a Room has a say only then (709.5d)
            out = self.room_moved(state, obj, a.to, out)
        if obj.face_down or obj.components:  # 708.9 (mtg_exile)
            out = self.revealed_leaving(obj, out)
        if a.as_ is None and a.values is None:
            return out
        return self.moved_as(out, obj.card, a.as_, a.values)

    def _spell_only(self, state: GameState, obj: GameObject) -> Rulings:
        """Why ``obj``'s card can't enter the battlefield face up: only an instant or sorcery
        (a split card's halves together, 709.4c); ``()`` when it can. Double-faced cards
        decide by their faces (712.14)."""
        card = state.card_def(obj)
        if self.is_double_faced(card) or card.is_meld_result:
            return ()
        faces = card.faces if card.layout == "split" else card.faces[:1]
        types = {t for f in faces for t in f.types}
        if not SPELL_ONLY.intersection(types) or PERMANENT_TYPES.intersection(types):
            return ()
        out: Rulings = ()
        if card.layout == "split":
            out += self.rule("split_types", "a split card has both halves' card types")
        if "Instant" in types:
            out += self.rule("instant_stays", f"{card.name} is an instant: it stays in its zone")
        if "Sorcery" in types:
            out += self.rule("sorcery_stays", f"{card.name} is a sorcery: it stays in its zone")
        return out

    def is_in_play(self, zone: str) -> bool:
        """110.1: permanents are on the battlefield (one zone, no other name to match)."""
        return zone == self.play_zone

    def is_new_object(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """400.7: a new object with no memory of the old one; leaving, a face-down object is
        revealed (708.9), a flipped one forgets it was flipped, a melded one splits."""
        decided = self._new_object(obj.zone, zone, obj.face_down, obj.flipped, obj.meld is not None)
        return self.merged_leaves(obj, zone, decided) if obj.components else decided

    #: :meth:`is_new_object` by what it depends on, decided once per ruleset and kind of move.
    _new_object = functools.lru_cache(maxsize=1024)(_decide_new_object)

    def destination(
        self, state: GameState, obj: GameObject, zone: str, transformed: bool | None = None
    ) -> Decided[str]:
        """712.13a: a resolving spell that would enter transformed with an instant or sorcery
        back face goes to its owner's graveyard instead."""
        if not (transformed and obj.zone == "stack" and zone == "battlefield"):
            return PLAIN[zone]
        card = state.card_def(obj)
        if self.is_double_faced(card) and SPELL_ONLY.intersection(card.faces[1].types):
            return Decided(
                "graveyard",
                self.rule(
                    "resolve_transformed_instant",
                    f"its back face, {card.faces[1].name}, is an "
                    "instant or sorcery: it goes to its owner's graveyard instead",
                ),
            )
        return PLAIN[zone]

    def face_on_move(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str | None,
        transformed: bool | None,
    ) -> Decided[str | None]:
        card = state.card_def(obj)
        if zone == "stack" and face is not None:
            return PLAIN[face]
        if zone != "battlefield":
            # half3 ...: a split card's third or later half (mtg_split)
            chosen = obj.face in ("back", "left", "right") or obj.face[:4] == "half"
            if chosen and len(card.faces) > 1:
                topic, what = OFF_THE_STACK.get(card.layout, OFF_THE_STACK["transform"])
                return Decided(
                    self.default_face(card, zone),
                    self.rule(topic, f"in the {zone} it has only its {what}"),
                )
            return PLAIN[self.default_face(card, zone)]
        if obj.zone == "stack" and face is not None:
            return Decided(
                face,
                self.rule(
                    "resolve_same_face", "it enters with the same face up it had on the stack"
                ),
            )
        if transformed or (face == "back" and card.layout != "flip" and len(card.faces) > 1):
            # The contract: ``face: back`` and ``transformed: true`` both mean "transformed".
            return self._enter_transformed(card)
        if card.layout == "modal_dfc" and not is_permanent_face(card.faces[0]):
            return Decided(
                None,
                self.rule(
                    "mdfc_front_not_permanent",
                    "its front face isn't a permanent card; it stays in its current zone",
                ),
            )
        if self.is_double_faced(card):
            return Decided(
                "front", self.rule("enter_front", "it enters the battlefield front face up")
            )
        return PLAIN[self.default_face(card, zone)]

    def _enter_transformed(self, card: CardDef) -> Decided[str | None]:
        """712.14: put onto the battlefield transformed, a DFC that can transform enters back
        face up; one whose back face is an instant or sorcery, or any other card, stays."""
        if (
            self.is_double_faced(card)
            and self.can_be_transformed_by_layout(card)
            and SPELL_ONLY.intersection(card.faces[1].types)
        ):
            # 712.14a, not 712.13a: this card isn't a resolving spell.
            return Decided(
                None,
                self.ruling_list(
                    (
                        "enter_transformed",
                        f"its back face, {card.faces[1].name}, is "
                        "an instant or sorcery: it can't enter the battlefield",
                    ),
                    (
                        "sorcery_stays",
                        "an instant or sorcery that would enter the battlefield "
                        "stays in its previous zone",
                    ),
                ),
            )
        if self.is_double_faced(card) and self.can_be_transformed_by_layout(card):
            return Decided(
                "back",
                self.rule(
                    "enter_transformed",
                    "put onto the battlefield transformed, it enters back face up",
                ),
            )
        return Decided(
            None,
            self.rule(
                "enter_transformed",
                f"{card.name} can't be put onto the battlefield transformed; "
                "it stays in its current zone",
            ),
        )

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> Decided[bool]:
        if face_down:
            if zone == "exile" and self.is_double_faced(state.card_def(obj)):
                return Decided(
                    True,
                    self.rule(
                        "dfc_exiled_face_down", "a double-faced card exiled face down stays hidden"
                    ),
                )
            if zone == "battlefield" and self.is_double_faced(state.card_def(obj)):
                return Decided(
                    True,
                    self.rule(
                        "dfc_face_down",
                        "a double-faced card entering face down "
                        "has the face-down characteristics and stays hidden",
                    ),
                )
            return YES
        if (
            face_down is None
            and obj.face_down
            and obj.zone in ("battlefield", "stack")
            and zone in ("battlefield", "stack")
        ):
            return YES
        return NO

    def token_ceases(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """111.7: a token that leaves the battlefield ceases to exist."""
        if not (obj.token and not self.is_in_play(zone)):
            return NO
        return Decided(
            True, (self.ruling("111.7", "a token that leaves the battlefield ceases to exist"),)
        )

    # --- casting (712.11, 712.12, 709.3, 708.4, 305) -----------------------------------------

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        face, transformed, face_down = a.face, a.transformed, a.face_down
        card = state.card_def(obj)
        if face_down:
            return "done", "stack", "front", self._cast_face_down(card)
        if card.is_meld_result or card.layout == "meld":
            return self._cast_meld(obj, card, face)
        if card.layout == "split":
            return self._cast_split(obj, card, face)
        chosen = "back" if transformed else (face or "front")
        if chosen in ("left", "right", "both") or (chosen == "back" and len(card.faces) < 2):
            return _refuse(
                obj, self.rule("cast_front", f"{card.name} has no {chosen} face to cast")
            )
        if card.layout == "flip" and chosen == "back":
            why = "a flip card is cast with its normal characteristics"
            return _refuse(obj, self.rule("flip_normal", why))
        special = self.plan_layout_cast(obj, card, chosen)  # prototype, Omen (mtg_rooms)
        if special is not None:
            return special
        ok, rulings = self._cast_face_choice(card, chosen, face, transformed)
        if not ok:
            return _refuse(obj, rulings)
        the_face = card.faces[1 if chosen == "back" and len(card.faces) > 1 else 0]
        if "Land" in the_face.types:
            return self._play_land(obj, card, the_face, chosen, a.verb)
        if self.is_double_faced(card):
            why = f"only {the_face.name} is considered put onto the stack"
            rulings += self.rule("cast_evaluated", why)
        return "done", "stack", chosen, rulings

    def _cast_face_down(self, card: CardDef) -> Rulings:
        """708.4: cast face down, it is a 2/2 face-down spell; a DFC stays hidden."""
        rulings = self.rule("face_down_cast", "cast face down, it is a 2/2 face-down spell")
        if self.is_double_faced(card):
            rulings += self.rule(
                "dfc_face_down",
                "a double-faced card cast face down has "
                "the face-down characteristics and stays hidden",
            )
        return rulings

    def _cast_meld(
        self, obj: GameObject, card: CardDef, face: str | None
    ) -> tuple[str, str, str, Rulings]:
        """712.4: a meld card is cast front face up; the meld result can't be cast."""
        if card.is_meld_result:
            return _refuse(obj, self.rule("meld", "the back half of a meld card can't be cast"))
        if face == "back":
            return _refuse(obj, self.rule("meld_back", "a meld card's back face can't be cast"))
        why = "a meld card on the stack has only its front face"
        return "done", "stack", "front", self.rule("meld_stack", why)

    def _cast_split(
        self, obj: GameObject, card: CardDef, face: str | None
    ) -> tuple[str, str, str, Rulings]:
        """709.3: the player chooses one half; only it is on the stack."""
        chosen = face or "left"
        if chosen not in ("left", "right"):
            return _refuse(obj, self.rule("split_choose", "choose one half to cast"))
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

    def _cast_face_choice(
        self, card: CardDef, chosen: str, face: str | None, transformed: bool
    ) -> Decided[bool]:
        """712.11: which face a double-faced card may be cast with; ``False``: illegal."""
        back_up = "cast transformed, it is put on the stack back face up"
        if card.layout == "transform" and chosen == "back":
            if not self.can_cast_transformed:
                why = "a transforming double-faced card is put on the stack front face up"
                return Decided(False, self.rule("cast_front", why))
            if not transformed:
                why = "a transforming double-faced card is cast front face up"
                return Decided(False, self.rule("cast_front", why))
            return Decided(True, self.rule("cast_transformed", back_up))
        if transformed and self.can_be_transformed_by_layout(card):
            return Decided(True, self.rule("cast_transformed", back_up))
        if card.layout == "adventure" and len(card.faces) > 1:
            if chosen == "back":
                return Decided(
                    True,
                    self.ruling_list(
                        ("adventure_cast", f"the player chose to cast {card.faces[1].name}"),
                        ("adventure_evaluated", "only its alternative characteristics count"),
                    ),
                )
            return Decided(True, self.rule("adventure_cast", "it is cast normally"))
        if card.layout == "modal_dfc" and len(card.faces) > 1:
            name = card.faces[0 if chosen == "front" else 1].name
            rulings = self.rule("cast_mdfc_face", f"the player chose to cast {name}")
            if face is None:
                rulings += self.rule("cast_front", "with no choice made, it is cast front face up")
            return Decided(True, rulings)
        if self.is_double_faced(card):
            return Decided(
                True, self.rule("cast_front", "a double-faced card is cast front face up")
            )
        return YES

    def _play_land(
        self, obj: GameObject, card: CardDef, the_face: Face, chosen: str, action: str
    ) -> tuple[str, str, str, Rulings]:
        """305: a land (or a land face, 712.12) is played onto the battlefield, never cast."""
        if action != "play":
            return _refuse(
                obj,
                (
                    *self.rule("land_play", f"{the_face.name} is a land: it is played, not cast"),
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
        # 608.2n: an instant or sorcery (a transformed back face too, 712.8c) goes to its
        # owner's graveyard as the final part of its resolution (712.13a is about entering
        # the battlefield transformed, not this).
        why = "as the final part of its resolution, it is put into its owner's graveyard"
        rulings = self.rule("spell_graveyard", why) if "spell_graveyard" in self.rule_ids else ()
        return "graveyard", self.default_face(card, "graveyard"), rulings

    # --- naming (201.4, 712.19, 709.4a, 710.5) ----------------------------------------------

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> Decided[bool]:
        for card in cards:
            special = self.can_name_layout(name, card)  # prototype, Omen (mtg_rooms)
            if special is not None:
                return special
            if card.is_meld_result:
                return Decided(
                    True,
                    self.ruling_list(
                        ("naming_meld", "a melded permanent's name may be chosen"),
                        ("meld_naming", "a front face's name or the combined back face's name"),
                    ),
                )
            if name == card.name and len(card.faces) > 1:
                topic = WHOLE_NAME.get(card.layout, "dfc_naming")
                return Decided(False, self.rule(topic, f"one name may be chosen, not {name}"))
            if card.layout == "flip" and name in card.face_names:
                return Decided(
                    True,
                    self.ruling_list(
                        ("naming_flip", "a flip card's alternative name may be chosen"),
                        ("flip_naming", f"{name} is its alternative name"),
                    )
                    if name != card.faces[0].name
                    else self.rule("naming", "a card's name may be chosen"),
                )
            if card.layout == "split" and name in card.face_names:
                return Decided(
                    True,
                    self.ruling_list(
                        ("naming_split", "one half's name may be chosen"),
                        ("split_names", f"{name} is one of the card's two names"),
                    ),
                )
            if card.layout == "adventure" and name in card.face_names[1:]:
                return Decided(
                    True,
                    self.ruling_list(
                        ("naming_adventure", "an adventurer card's alternative name may be chosen"),
                        ("adventure_alt", f"{name} names its alternative characteristics"),
                    ),
                )
            if self.is_double_faced(card) and name in card.face_names:
                topic = "naming_dfc" if name != card.faces[0].name else "naming"
                return Decided(
                    True,
                    self.ruling_list(
                        ("dfc_naming", "either face's name may be chosen, not both"),
                        (topic, f"{name} is the name of a card"),
                    ),
                )
        return Decided(True, self.rule("naming", "the name of a card may be chosen"))

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """A search sees cards as they are in their zone: outside the battlefield and stack
        a DFC has only its front face (712.8a), a flip card its normal characteristics (710.2),
        a split card both halves (709.4)."""
        sight, why = super().query_sight(verb, zone)  # 701.23a, 708.2 (mtg_facedown)
        if verb == "search" and zone not in ("battlefield", "stack"):
            return Decided(
                sight,
                (
                    *why,
                    *self.rule(
                        "dfc_front_outside",
                        f"in the {zone} a double-faced card has only its front face",
                    ),
                    *self.rule("flip_normal", "a flip card has its normal characteristics"),
                    *self.rule("split_combined", "a split card has both halves' characteristics"),
                    *self.rule("split_names", "a split card has both names"),
                    *self.rule("split_types", "a split card has both halves' card types"),
                ),
            )
        return Decided(sight, why)

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
        nameless = self.nameless_meld(state, oa, ob)  # before the cards are read (708.2)
        if nameless is not None:
            return nameless
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
        if o.face_down:  # whatever card it is: nothing on a face-down permanent flips it
            why = "a face-down permanent has only its face-down values: nothing happens"
            return Outcome(state, NOTHING, self.rule("face_down_values", why))
        if o.zone != "battlefield":
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
            if obj.zone == "exile":  # 406.3: only with an instruction's permission
                return self.may_look_exiled(state, viewer, obj)
            # 708.5: you may look at face-down spells and permanents you control.
            return (
                viewer is not None
                and obj.zone in ("battlefield", "stack")
                and obj.controller == viewer
            )
        # is_public(obj.zone), read in place: a view asks this of every object.
        if obj.zone in self.public_zones:
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


#: Each older version subclasses :class:`Magic` directly (no chain of versions): its
#: switches are spelled out, the shared values named once here.
#: No mutate before 2020-04 (702.140 came after the 2020 text).
_ACTIONS_2020: Final = tuple(a for a in Magic.actions if a is not Mutate)


class Magic2025(Magic):
    """MTG rules of June 2025: DFCs at 712, before modal DFCs could transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2025-06",)
    version: ClassVar[str] = "2025-06"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, June 2025)"
    modal_can_transform: ClassVar[bool] = False
    modal_is_transformed: ClassVar[bool] = False
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2025_06


class Magic2020(Magic):
    """MTG rules of 2020 (seed 004): DFCs at 711, transform 701.28; modal DFCs can't
    transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2020",)
    version: ClassVar[str] = "2020"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, 2020)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2020
    actions: ClassVar[tuple[type[v.Action], ...]] = _ACTIONS_2020
    face_down_kinds: ClassVar[frozenset[str]] = OLD_KINDS
    modal_can_transform: ClassVar[bool] = False
    modal_is_transformed: ClassVar[bool] = False
    meld_is_double_faced: ClassVar[bool] = False
    double_faced_token_copies: ClassVar[bool] = False
    can_cast_transformed: ClassVar[bool] = False


class Magic2008(Magic):
    """MTG rulings of March 2008 (seed 002): flip cards at 508; otherwise the 2020
    switches."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2008",)
    version: ClassVar[str] = "2008"
    title: ClassVar[str] = "Magic: The Gathering (rulings of March 2008)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2008
    actions: ClassVar[tuple[type[v.Action], ...]] = _ACTIONS_2020
    face_down_kinds: ClassVar[frozenset[str]] = OLD_KINDS
    modal_can_transform: ClassVar[bool] = False
    modal_is_transformed: ClassVar[bool] = False
    meld_is_double_faced: ClassVar[bool] = False
    double_faced_token_copies: ClassVar[bool] = False
    can_cast_transformed: ClassVar[bool] = False


def _refuse(obj: GameObject, rulings: Rulings) -> tuple[str, str, str, Rulings]:
    """A refused cast or play: the object stays as it is."""
    return "illegal", obj.zone, obj.face, rulings


RULESETS: list[type[Ruleset]] = [Magic, Magic2025, Magic2020, Magic2008]
