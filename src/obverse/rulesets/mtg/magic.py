"""Magic: The Gathering, the ruleset: :class:`Magic` (the newest Comprehensive Rules) and its
rules versions (2025-06, 2020, 2008), each a direct subclass setting its own switches.

:class:`Magic` composes flat mixins, one per mechanic (:mod:`.faces` the face rules,
:mod:`.facedown`, :mod:`.exile`, :mod:`.merge`, :mod:`.permanents`, :mod:`.copies`,
:mod:`.craft` ...), and one handler per card layout (:attr:`Magic.layout_rules`, from
:mod:`.layouts`): its hooks ask the card's handler. This module adds moving (400.7, 712.13-14),
casting (601.2, 712.11, 305), resolving and visibility (708.5, 712.6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Final

from obverse import memo
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.hooks import Sight
from obverse.rulesets.mtg import rules_ids as mtg_rules
from obverse.rulesets.mtg.copies import CopySpell, MagicCopies
from obverse.rulesets.mtg.craft import Craft, CraftedWith, MagicCraft
from obverse.rulesets.mtg.effects import MagicEffects
from obverse.rulesets.mtg.exile import ChooseExiled, EndGame, LeaveGame, MagicExile
from obverse.rulesets.mtg.facedown import MagicFaceDown
from obverse.rulesets.mtg.faces import MTG_SUPERTYPES, MTG_TYPES, MagicFaces
from obverse.rulesets.mtg.faceup import MagicFaceUp
from obverse.rulesets.mtg.kinds import OLD_KINDS
from obverse.rulesets.mtg.layouts.base import Layout, refuse
from obverse.rulesets.mtg.layouts.flip import Flip
from obverse.rulesets.mtg.layouts.meld import Meld
from obverse.rulesets.mtg.layouts.room import Lock, Unlock
from obverse.rulesets.mtg.layouts.split import MagicSplit
from obverse.rulesets.mtg.layouts.verbs import LAYOUT_RULES, MagicLayouts
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
from obverse.rulesets.mtg.values import FACE_DOWN, PERMANENT_TYPES, SPELL_ONLY
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


#: Battles, day and night (permanents.py).
PERMANENT_VERBS: Final = (
    RemoveCounters,
    Damage,
    ChooseProtector,
    Protector,
    BecomeDay,
    BecomeNight,
    DayNight,
)


def _decide_new_object(
    self: MagicFaces, was: str, zone: str, face_down: bool, flipped: bool, melded: bool
) -> Decided[bool]:
    """400.7: moving from ``was`` to ``zone`` makes a new object; what leaving does to an
    object that was face down, flipped or melded."""
    out = self.cite(
        "new_object",
        f"moving from {was} to {zone} makes a new object with no memory of the old one",
    )
    if face_down and was in ("battlefield", "stack") and zone not in ("battlefield", "stack"):
        out += self.cite("face_down_reveal", "a face-down permanent or spell leaving is revealed")
    if flipped and was == "battlefield":
        out += self.cite(
            "flip_one_way", "a flipped permanent that leaves retains no memory of being flipped"
        )
    if melded and zone != "battlefield":
        out += self.cite(
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
    #: The designations :meth:`leaving` has a say about: each mechanic's.
    leaving_marks: ClassVar[tuple[str, ...]] = (
        *MagicCopies.leaving_marks,
        *MagicCraft.leaving_marks,
        *MagicSplit.leaving_marks,
    )
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

    #: One handler per layout: the hooks ask the card's (712.8e is in ``layouts/transform.py``).
    layout_rules: ClassVar[Mapping[str, Layout]] = LAYOUT_RULES
    #: The move hooks here (destination, faces, facing, new object, tokens) read the printed
    #: card and the object alone.
    plans_per_object: ClassVar[bool] = True
    #: The offers read beyond the object only for a craft card on the battlefield (702.167a).
    empty_inputs_stay: ClassVar[bool] = True

    #: Also melding with a partner (701.42a): each meld card of the same owner, decided one
    #: by one (the pair decides, 712.4).
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("meld", "_targets_meld"),)

    #: Melding names two objects.
    several_verbs: ClassVar[frozenset[str]] = frozenset({"become_copy", "meld"})

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
        out = self.move_object(state, a)
        if out.result != DONE:
            return out
        # A Room has a say only leaving unlocked or put onto the battlefield (709.5d).
        if obj.unlocked or (obj.zone != "battlefield" and a.to == "battlefield"):
            out = self.room_moved(state, obj, a.to, out)
        if obj.face_down or obj.components:  # 708.9 (exile.py)
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
            out += self.cite("split_types", "a split card has both halves' card types")
        if "Instant" in types:
            out += self.cite("instant_stays", f"{card.name} is an instant: it stays in its zone")
        if "Sorcery" in types:
            out += self.cite("sorcery_stays", f"{card.name} is a sorcery: it stays in its zone")
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
    _new_object = memo.per_value(_decide_new_object)

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
                self.cite(
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
            # half3 ...: a split card's third or later half (layouts/split.py)
            now = obj.face
            chosen = now != "front" and (now in ("back", "left", "right") or now[:4] == "half")
            if chosen and len(card.faces) > 1:
                topic, what = self.layout_rule(card.layout, card.faces).off_the_stack
                return Decided(
                    self.default_face(card, zone),
                    self.cite(topic, f"in the {zone} it has only its {what}"),
                )
            return PLAIN[self.default_face(card, zone)]
        if obj.zone == "stack" and face is not None:
            return Decided(
                face,
                self.cite(
                    "resolve_same_face", "it enters with the same face up it had on the stack"
                ),
            )
        if transformed or (face == "back" and card.layout != "flip" and len(card.faces) > 1):
            # The contract: ``face: back`` and ``transformed: true`` both mean "transformed".
            return self._enter_transformed(card)
        return self.layout_rule(card.layout, card.faces).enter_face(self, card, zone)

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
                (
                    self.cite(
                        "enter_transformed",
                        f"its back face, {card.faces[1].name}, is "
                        "an instant or sorcery: it can't enter the battlefield",
                    )
                    + self.cite(
                        "sorcery_stays",
                        "an instant or sorcery that would enter the battlefield "
                        "stays in its previous zone",
                    )
                ),
            )
        if self.is_double_faced(card) and self.can_be_transformed_by_layout(card):
            return Decided(
                "back",
                self.cite(
                    "enter_transformed",
                    "put onto the battlefield transformed, it enters back face up",
                ),
            )
        return Decided(
            None,
            self.cite(
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
                    self.cite(
                        "dfc_exiled_face_down", "a double-faced card exiled face down stays hidden"
                    ),
                )
            if zone == "battlefield" and self.is_double_faced(state.card_def(obj)):
                return Decided(
                    True,
                    self.cite(
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
            True, self.cite("111.7", "a token that leaves the battlefield ceases to exist")
        )

    # --- casting (712.11, 712.12, 709.3, 708.4, 305) -----------------------------------------

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        """601.2, 712.11, 709.3, 708.4, 305: the card's layout handler decides which face
        it may be cast with; a land face is played."""
        card = state.card_def(obj)
        if a.face_down:
            return "done", "stack", "front", self._cast_face_down(card)
        handler = self.layout_rule(card.layout, card.faces)
        own = handler.plan_cast(self, obj, card, a.face)  # split, meld: their own plan
        if own is not None:
            return own
        chosen = "back" if a.transformed else (a.face or "front")
        refused = handler.cast_refused(self, card, chosen)
        if refused:
            return refuse(obj, refused)
        special = handler.cast_face(self, obj, card, chosen)  # prototype, Omen
        if special is not None:
            return special
        ok, rulings = handler.cast_face_choice(self, card, chosen, a.face, a.transformed)
        if not ok:
            return refuse(obj, rulings)
        the_face = card.faces[1 if chosen == "back" and len(card.faces) > 1 else 0]
        if "Land" in the_face.types:
            return self._play_land(obj, card, the_face, chosen, a.verb)
        if self.is_double_faced(card):
            why = f"only {the_face.name} is considered put onto the stack"
            rulings += self.cite("cast_evaluated", why)
        return "done", "stack", chosen, rulings

    def _cast_face_down(self, card: CardDef) -> Rulings:
        """708.4: cast face down, it is a 2/2 face-down spell; a DFC stays hidden."""
        rulings = self.cite("face_down_cast", "cast face down, it is a 2/2 face-down spell")
        if self.is_double_faced(card):
            rulings += self.cite(
                "dfc_face_down",
                "a double-faced card cast face down has "
                "the face-down characteristics and stays hidden",
            )
        return rulings

    def _play_land(
        self, obj: GameObject, card: CardDef, the_face: Face, chosen: str, action: str
    ) -> tuple[str, str, str, Rulings]:
        """305: a land (or a land face, 712.12) is played onto the battlefield, never cast."""
        if action != "play":
            return refuse(
                obj,
                (
                    *self.cite("land_play", f"{the_face.name} is a land: it is played, not cast"),
                    *(
                        self.cite("mdfc_land", "a land face is played")
                        if len(card.faces) > 1
                        else ()
                    ),
                ),
            )
        rulings = (
            self.cite("mdfc_land", f"played as a land with {the_face.name} up")
            if self.is_double_faced(card)
            else self.cite("land_play", "a land is played onto the battlefield")
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
                self.cite("face_down_chars", "a face-down spell becomes a face-down permanent"),
            )
        own = self.layout_rule(card.layout, card.faces).resolve_plan(self, obj)  # Adventure
        if own is not None:
            return own
        if self.is_permanent(state, obj):
            rulings = (
                self.cite(
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
        rulings = self.cite("spell_graveyard", why) if "spell_graveyard" in self.rule_ids else ()
        return "graveyard", self.default_face(card, "graveyard"), rulings

    # --- naming (201.4, 712.19, 709.4a, 710.5) ----------------------------------------------

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """A search sees cards as they are in their zone: outside the battlefield and stack
        a DFC has only its front face (712.8a), a flip card its normal characteristics (710.2),
        a split card both halves (709.4)."""
        sight, why = super().query_sight(verb, zone)  # 701.23a, 708.2 (facedown.py)
        if verb == "search" and zone not in ("battlefield", "stack"):
            return Decided(
                sight,
                (
                    *why,
                    *self.cite(
                        "dfc_front_outside",
                        f"in the {zone} a double-faced card has only its front face",
                    ),
                    *self.cite("flip_normal", "a flip card has its normal characteristics"),
                    *self.cite("split_combined", "a split card has both halves' characteristics"),
                    *self.cite("split_names", "a split card has both names"),
                    *self.cite("split_types", "a split card has both halves' card types"),
                ),
            )
        return Decided(sight, why)

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


#: The switches of the 2020 rules, which the 2008 rulings share (each version subclasses
#: :class:`Magic` directly and takes its switches from a table, not from another version):
#: no mutate (702.140 came in 2020-04, after that text), morph, megamorph and manifest only,
#: meld cards not double-faced (712.1 came in 2022), no double-faced token copies (707.8a),
#: transforming DFCs cast front face up only (711.7), modal DFCs never transform (712.9).
SWITCHES_2020: Final[Mapping[str, object]] = {
    "actions": tuple(a for a in Magic.actions if a is not Mutate),
    "face_down_kinds": OLD_KINDS,
    "meld_is_double_faced": False,
    "double_faced_token_copies": False,
    "can_cast_transformed": False,
    "modal_can_transform": False,
    "modal_is_transformed": False,
}


def _switches(table: Mapping[str, object]) -> Callable[[type[Magic]], type[Magic]]:
    """A class decorator setting a version's switches from ``table`` (each a ClassVar
    :class:`Magic` declares)."""

    def apply(cls: type[Magic]) -> type[Magic]:
        for name, value in table.items():
            assert hasattr(Magic, name), name
            setattr(cls, name, value)
        return cls

    return apply


class Magic2025(Magic):
    """MTG rules of June 2025: DFCs at 712, before modal DFCs could transform."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2025-06",)
    version: ClassVar[str] = "2025-06"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, June 2025)"
    modal_can_transform: ClassVar[bool] = False
    modal_is_transformed: ClassVar[bool] = False
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2025_06


@_switches(SWITCHES_2020)
class Magic2020(Magic):
    """MTG rules of 2020 (seed 004): DFCs at 711, transform 701.28; modal DFCs can't
    transform (:data:`SWITCHES_2020`)."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2020",)
    version: ClassVar[str] = "2020"
    title: ClassVar[str] = "Magic: The Gathering (Comprehensive Rules, 2020)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2020


@_switches(SWITCHES_2020)
class Magic2008(Magic):
    """MTG rulings of March 2008 (seed 002): flip cards at 508; the 2020 switches
    (:data:`SWITCHES_2020`)."""

    aliases: ClassVar[tuple[str, ...]] = ("mtg@2008",)
    version: ClassVar[str] = "2008"
    title: ClassVar[str] = "Magic: The Gathering (rulings of March 2008)"
    rule_ids: ClassVar[dict[str, str]] = mtg_rules.V2008


RULESETS: list[type[Ruleset]] = [Magic, Magic2025, Magic2020, Magic2008]
