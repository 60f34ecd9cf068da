"""Grand Archive: double-faced cards (GA CR "Double-faced Cards" #1-#10), with the zone,
regalia, object and knowledge rules they lean on.

This module is the game: :class:`GrandArchive` declares it (zones, layouts, stats, verbs, type
words) and decides faces, moves, regalia and knowledge; the rest of its rules are the seams of
this package, each a flat mixin listed once in its bases: :mod:`.objects` (the field: rested
or awake, counters, levelling up, Ephemeral, Unique), :mod:`.keywords` (Immortality,
Renewable, buff counters, siegeable domains, delevel, recollect), :mod:`.lineage` (Lineage,
Lineage Release, Preserve), :mod:`.info` (permissions, reveals, find), :mod:`.status`
(Distant, Fostered, Link, type-setting) and :mod:`.pantheon` (Intent, Pantheon, loaded cards).

Every rule id is a GA CR page title and item number, as a judge looks it up: the seed's
paragraphs are "Double-faced Cards 4.2", "Double-faced Cards 7.2"; the rules the seed relies
on are "Regalia 4", "Game Zones 5.1", "Public vs Private Information 6.1.1", "Objects 1",
"Tokens 3".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

import msgspec

from obverse import memo
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, apply_effects, characteristics
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.ga.info import ACTIONS as INFO_ACTIONS
from obverse.rulesets.ga.info import Information
from obverse.rulesets.ga.keywords import ACTIONS as KEYWORD_ACTIONS
from obverse.rulesets.ga.keywords import INTENT, Keywords
from obverse.rulesets.ga.lineage import ACTIONS as LINEAGE_ACTIONS
from obverse.rulesets.ga.lineage import PRESERVE, Lineages
from obverse.rulesets.ga.objects import (
    ACTIONS,
    BANISHMENT,
    FIELD,
    GRAVEYARD,
    IMMORTALITY,
    MATERIAL_DECK,
    STACK,
    FieldObjects,
)
from obverse.rulesets.ga.pantheon import ACTIONS as PANTHEON_ACTIONS
from obverse.rulesets.ga.pantheon import LOADED, LOADED_MARK, PANTHEON, Pantheon
from obverse.rulesets.ga.status import ACTIONS as STATUS_ACTIONS
from obverse.rulesets.ga.status import LINK, Statuses
from obverse.rulesets.hooks import Sight
from obverse.rulings import NO, PLAIN, YES, Decided, Outcome
from obverse.state import (
    KNOWN_CARD,
    KNOWN_OBJ,
    CopyValues,
    Effect,
    GameObject,
    GameState,
    Knowledge,
    mentions,
)

replace = msgspec.structs.replace

MAIN_DECK: Final = "main_deck"
#: Card types whose cards become objects on the field when they resolve (GA Objects 1).
OBJECT_TYPES: Final = frozenset({"CHAMPION", "ALLY", "WEAPON", "ITEM", "DOMAIN", "PHANTASIA"})
REGALIA: Final = "REGALIA"
#: The default side with no rulings: what most moves decide (a NamedTuple is slow to build).
FRONT: Final[Decided[str | None]] = Decided("front")
CHAMPION: Final = "CHAMPION"
#: Card Types: the card types and supertypes GA has.
GA_TYPES: Final = frozenset(
    {"ACTION", "ALLY", "ATTACK", "CHAMPION", "DOMAIN", "ITEM", "MASTERY", "PHANTASIA", "WEAPON"}
    # Type List: the Pantheon format's boon types (Boons 2).
    | {"LESSER BOON", "GREATER BOON"}
)
GA_SUPERTYPES: Final = frozenset({"REGALIA", "TOKEN", "UNIQUE"})
#: Zones an effect may send a regalia to that return it to the material deck instead.
REGALIA_RETURNS_FROM: Final = frozenset({"hand", "main_deck", "memory"})
#: Zones whose cards are private to their owner (the owner may look at them).
#: Pantheon 1, 4: the Pantheon is private; its owner may look at their boons.
OWNER_PRIVATE: Final = frozenset({"hand", "memory", "material_deck", "pantheon"})


class GrandArchive(Pantheon, Statuses, Information, Lineages, Keywords, FieldObjects, Ruleset):
    """Grand Archive (current GA CR): default side / flip side, transform, regalia zones,
    face-down cards and per-player knowledge.

    Its bases are the package's seams (see the module), each listed once. Where two seams
    define one hook, the one listed first extends the later one through ``super()`` (e.g.
    ``move_object``: pantheon, lineage, then objects)."""

    aliases: ClassVar[tuple[str, ...]] = ("ga", "grand_archive")
    game: ClassVar[str] = "ga"
    version: ClassVar[str] = "current"
    title: ClassVar[str] = "Grand Archive (Comprehensive Rules)"
    listed: ClassVar[int] = 2
    #: The move hooks (regalia, ephemeral, renewable, sides, tokens) read the object, its
    #: printed card and its characteristics alone.
    plans_per_object: ClassVar[bool] = True
    layouts: ClassVar[frozenset[str]] = frozenset({"normal", "double_faced"})
    stats: ClassVar[tuple[str, ...]] = (
        "reserve_cost",
        "memory_cost",
        "power",
        "life",
        "durability",
        "element",
        "level",
    )
    zones: ClassVar[frozenset[str]] = frozenset(
        {
            "main_deck",
            "material_deck",
            "hand",
            "memory",
            "field",
            "graveyard",
            "banishment",
            "stack",
            # Game Zones 1: the Intent and the Pantheon zone (the Pantheon format's).
            INTENT,
            PANTHEON,
            # Object-Specific Zones: the cards loaded underneath an object.
            LOADED,
        }
    )
    # Game Zones 2: the field and the effects stack are shared.
    shared_zones: ClassVar[frozenset[str]] = frozenset({FIELD, STACK})
    # Public vs Private Information 9: face up by default except main deck, material deck,
    # memory and hand.
    # Intent 1: the Intent is a public zone.
    public_zones: ClassVar[frozenset[str]] = frozenset(
        {FIELD, GRAVEYARD, BANISHMENT, STACK, INTENT, LOADED}
    )
    # Game Zones 9: order may be changed in every zone but the main deck and effects stack.
    ordered_zones: ClassVar[frozenset[str]] = frozenset({MAIN_DECK, STACK})
    play_zone: ClassVar[str] = FIELD
    stack_zone: ClassVar[str] = STACK
    discard_zone: ClassVar[str] = GRAVEYARD
    actions: ClassVar[tuple[type[v.Action], ...]] = (
        v.Transform,
        *ACTIONS,
        *INFO_ACTIONS,
        *KEYWORD_ACTIONS,
        *LINEAGE_ACTIONS,
        *STATUS_ACTIONS,
        *PANTHEON_ACTIONS,
    )
    # Card Types: the index prints the words upper case (REGALIA), the rules capitalised
    # (Regalia); either is the same word. REGALIA and TOKEN are supertypes but a card typed
    # with them as types is read the same way.
    type_words: ClassVar[Mapping[str, frozenset[str]]] = {
        "types": frozenset({*GA_TYPES, *GA_SUPERTYPES}),
        "supertypes": GA_SUPERTYPES,
    }
    type_words_fold_case: ClassVar[bool] = True
    tokens_cease_outside_play: ClassVar[bool] = True
    # Public vs Private Information 6.1.1: a player who saw a card keeps that knowledge.
    knowledge_lasts: ClassVar[bool] = True
    # Public vs Private Information 1.2: a card in a private zone has no characteristics
    # beyond being a card, so naming one the actor can't see is refused.
    hidden_rule: ClassVar[str] = "Public vs Private Information 1.2"
    # Tokens 3: a token moved off the field ceased to exist; an action on it does nothing.
    new_object_rule: ClassVar[str] = "Tokens 3"
    # Permission 1: an effect saying a player "can't" take a player action overrules any
    # permission to take it.
    forbid_rule: ClassVar[str] = "Permission 1"
    reveal_knowledge_lasts: ClassVar[bool] = True

    # --- cards and faces (1, 3, 4) ----------------------------------------------------------

    def is_double_faced(self, card: CardDef) -> bool:
        """1: a card with a default side and a flip side (layout ``double_faced``)."""
        return card.layout == "double_faced" and len(card.faces) > 1

    def default_face(self, card: CardDef, zone: str) -> str:
        """1.1, 3, 4: the default side, everywhere unless turned over on the field."""
        return "front"

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        """3, 4: only on the field may a double-faced card show its flip side."""
        if zone == FIELD and self.is_double_faced(card):
            return frozenset({"front", "back"})
        return frozenset({"front"})

    def active_faces(
        self, state: GameState, obj: GameObject, layout: str, faces: tuple[Face, ...]
    ) -> tuple[Face, ...]:
        """4: the face-up side counts on the field; off the field only the default side."""
        if len(faces) > 1 and obj.zone == FIELD and obj.face == "back":
            return (faces[1],)
        return (faces[0],)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """The base values with the rulings of the branch that picked the side (4, 7, 8)."""
        chars = super().base_characteristics(state, obj)
        layout, faces = self.printed_faces(state, obj)
        if obj.face_down:
            why = self.cite("Double-faced Cards 8", "face down it has no characteristics")
        elif obj.copies:
            why = self.cite("Double-faced Cards 7", "a copy has only the present side's values")
        elif layout != "double_faced" or len(faces) < 2:
            return chars
        elif obj.zone == FIELD and obj.face == "back":
            why = self.cite("Double-faced Cards 4", "on the field its face-up flip side counts")
        elif obj.zone == FIELD:
            why = self.cite("Double-faced Cards 4", "on the field its face-up default side counts")
        else:
            why = self.cite("Double-faced Cards 4", "off the field only its default side counts")
        return replace(chars, why=why + chars.why)

    def searchable(self, state: GameState, obj: GameObject) -> Characteristics:
        """4, 8: a search sees the card as if face up in its zone; a face-down card turned
        face up shows its default side."""
        up = replace(obj, face_down=False, face="front") if obj.face_down else obj
        return apply_effects(state, up, self.base_characteristics(state, up), self)

    # --- status (3, 7.2, 8) -----------------------------------------------------------------

    def is_in_play(self, zone: str) -> bool:
        """Objects 1: the objects in play are the field's (one zone, no other name to match:
        asked directly, as every move asks it)."""
        return zone == FIELD

    def is_transformed(self, state: GameState, obj: GameObject) -> bool:
        """3, 8: a double-faced card on its flip side on the field is transformed; a face-down
        card or a copy never is."""
        return (
            obj.zone == FIELD
            and obj.face == "back"
            and not obj.face_down
            and not obj.copies
            and self.is_double_faced(state.card_def(obj))
        )

    # --- transform (2, 4, 7.2, 8, 9, 9.1) ----------------------------------------------------

    def invariant_problems(self, state: GameState, obj: GameObject) -> list[str]:
        """7.2: a copy never transforms."""
        if obj.copies and self.can_transform(state, obj).value:
            return ["GA 7.2: copies can't transform"]
        return []

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """2: transform turns a double-faced object over; 4: only on the field; 8: not face
        down; 7.2: never a copy. Otherwise nothing happens."""
        card = state.card_def(obj)
        if obj.zone != FIELD:
            return Decided(
                False,
                self.cite(
                    "Double-faced Cards 4",
                    f"in the {_words(obj.zone)} only its default side "
                    "is considered; only an object on the field can "
                    "transform, nothing happens",
                ),
            )
        if obj.face_down:
            return Decided(
                False,
                self.cite(
                    "Double-faced Cards 8",
                    "a face-down card is treated as a non-double-faced "
                    "card: it can't transform, nothing happens",
                ),
            )
        if obj.copies:
            return Decided(
                False,
                self.cite(
                    "Double-faced Cards 7.2",
                    "a copy of a double-faced card can't transform: "
                    "nothing happens and the action is skipped",
                ),
            )
        if not self.is_double_faced(card):
            return Decided(
                False,
                self.cite(
                    "Double-faced Cards 2",
                    f"{card.name} is not a double-faced card: it has "
                    "no other side to transform to, nothing happens",
                ),
            )
        target = card.faces[0] if obj.face == "back" else card.faces[1]
        return Decided(
            True,
            (
                *self.cite(
                    "Double-faced Cards 2", f"transform flips it to its other side, {target.name}"
                ),
                *self._transform_result(state, obj),
            ),
        )

    def _transform_result(self, state: GameState, obj: GameObject) -> Rulings:
        """3, 9, 9.1: the result of a transform (``obj`` as it was before)."""
        now = "front" if obj.face == "back" else "back"
        out = (
            self.cite("Double-faced Cards 3", "on its flip side on the field it is transformed")
            if now == "back"
            else self.cite(
                "Double-faced Cards 3", "back on its default side it is no longer transformed"
            )
        )
        out += self.cite(
            "Double-faced Cards 9",
            "transforming doesn't make a new object; newly active static "
            "abilities get a new timestamp",
        )
        if any(_bound_to(e, obj.id) for e in state.effects):
            out += self.cite(
                "Double-faced Cards 9.1",
                "continuous effects that applied to it keep applying to the transformed card",
            )
        return out

    # --- moves (4.1, 4.2, regalia, new objects) ---------------------------------------------

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """:meth:`Ruleset.move`, through the seams' own ``move`` (Link 1 in :mod:`.status`,
        Immortality 1 in :mod:`.keywords`) and ``move_object`` (see :meth:`move_object`)
        only when one of them has something to say: both ``move`` pass through unchanged a
        move of an object off the field, and one from the field while no link exists and the
        object is not immortal. Decided here once, with one look-up of the object's
        abilities, as a move is the hottest call (``tests/test_ga_moves.py`` holds this path
        equal to theirs)."""
        obj = state.objects[a.object]
        if obj.zone != FIELD:  # Ruleset.move: the class after Keywords with a move
            return Ruleset.move(self, state, a)
        marks = state.designations
        if marks and ((LOADED_MARK, obj.id) in marks or any(d[0].startswith(LINK) for d in marks)):
            return super().move(state, a)
        abilities = characteristics(state, obj, self).props.abilities
        if IMMORTALITY in abilities:  # is_immortal
            return super().move(state, a)
        if PRESERVE in abilities or a.as_ is not None or a.values is not None:
            return Ruleset.move(self, state, a)  # Ruleset.move's checks, or Preserve 1
        # All would pass it through: the kernel's move (the class after FieldObjects), called
        # as a function (a super() object per move costs more than the rest of this test).
        return Ruleset.move_object(self, state, a)

    def move_object(self, state: GameState, a: v.Move, **how: Any) -> Outcome:
        """:meth:`Ruleset.move_object`, through the seams' own (loaded cards in
        :mod:`.pantheon`, Preserve 1 in :mod:`.lineage`, entering the field in
        :mod:`.objects`) only when one of them has something to say: all three pass through
        unchanged a move from the field of an object with no loaded card and no Preserve."""
        before = state.objects[a.object]
        if (
            before.zone != FIELD
            or (LOADED_MARK, before.id) in state.designations
            or PRESERVE in characteristics(state, before, self).props.abilities
        ):
            return super().move_object(state, a, **how)
        return Ruleset.move_object(self, state, a, **how)  # the class after FieldObjects

    def destination(
        self, state: GameState, obj: GameObject, zone: str, transformed: bool | None = None
    ) -> Decided[str]:
        """4.2: the zone is decided by the default side's rules: a regalia that would go to a
        graveyard is banished (Regalia 4); one sent to hand, main deck or memory returns to
        its owner's material deck (Regalia 5). An ephemeral object is banished (Ephemeral)."""
        # Ephemeral needs a designation (an ephemeral object is banished: Renewable 1 may
        # replace that); Renewable 1 replaces only a banishment.
        if state.designations:
            decided = self.ephemeral_destination(state, obj, zone)
            if decided is not None:
                return self.renewable_destination(state, obj, decided)
        if zone == GRAVEYARD or zone in REGALIA_RETURNS_FROM:
            default = state.card_def(obj).faces[0]
            words = _type_words(default)  # one look-up: a move is the hottest call
            if REGALIA not in words and CHAMPION not in words:
                return PLAIN[zone]  # not a banishment: nothing more to replace
            decided = self._regalia_destination(state, obj, zone, default, words)
        elif zone != BANISHMENT:
            return PLAIN[zone]  # no rule below sends a card elsewhere from this zone
        else:
            decided = PLAIN[zone]
        if decided.value != BANISHMENT:
            return decided
        return self.renewable_destination(state, obj, decided)

    def _regalia_destination(
        self, state: GameState, obj: GameObject, zone: str, default: Face, words: frozenset[str]
    ) -> Decided[str]:
        """:meth:`destination` of a regalia or a champion (``default``: its default side, of
        type and supertype ``words``) sent to the graveyard, hand, main deck or memory."""
        if REGALIA not in words:
            return self._champion_destination(default, zone, words)
        if zone == GRAVEYARD:
            dest, rule, why = (
                BANISHMENT,
                "Regalia 4",
                "a regalia that would go to a graveyard is banished instead",
            )
        else:  # one of REGALIA_RETURNS_FROM
            dest, rule, why = (
                MATERIAL_DECK,
                "Regalia 5",
                "a regalia sent to the hand, main "
                "deck or memory returns to its owner's material deck",
            )
        out: Rulings = self.cite(rule, why)
        if self.is_transformed(state, obj):
            out = (
                *self.cite(
                    "Double-faced Cards 4.2",
                    f"its default side {default.name} is a regalia, whose "
                    f"rules send it to the {_words(dest)} instead of the "
                    f"{_words(zone)}",
                ),
                *out,
            )
        return Decided(dest, out)

    def is_new_object(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """Objects 1: only cards on the field are objects; leaving it makes a new one."""
        return self._leaving_field(zone) if obj.zone == FIELD else YES

    @memo.per_value  # leaving the field for a zone: the same decision every time
    def _leaving_field(self, zone: str) -> Decided[bool]:
        """Objects 1: leaving the field for ``zone`` makes a new object."""
        why = f"leaving the field for the {_words(zone)} it becomes a new object"
        return Decided(True, self.cite("Objects 1", why))

    def face_on_move(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str | None,
        transformed: bool | None,
    ) -> Decided[str | None]:
        """3, 4, 4.1, 7.2: off the field only the default side; onto the field the flip side
        only when asked (it is then transformed); a card with no flip side can't enter
        transformed and stays where it is."""
        if zone != FIELD:
            if obj.face != "back" and face != "back" and not transformed:
                return FRONT  # nothing to flip back, no flip side asked (most moves)
            out: Rulings = ()
            if obj.face == "back" and self.is_transformed(state, obj):  # only then: a look-up
                card = state.card_def(obj)
                out += self.cite(
                    "Double-faced Cards 4.1",
                    "leaving the field it is flipped back to its default "
                    f"side, {card.front.name} (last-known information still sees "
                    f"{card.faces[1].name})",
                )
            if face == "back" or transformed:
                out += self.cite(
                    "Double-faced Cards 4",
                    f"in the {_words(zone)} only the default side is "
                    "considered; the flip side asked for is ignored",
                )
            return Decided("front", out) if out else FRONT
        if transformed or face == "back":
            card = state.card_def(obj)
            if not self.is_double_faced(card) or obj.copies:
                if not transformed:
                    return FRONT
                return Decided(
                    None,
                    self.cite(
                        "Double-faced Cards 7.2",
                        f"{card.name} is not a double-faced card and "
                        "can't enter the field transformed: nothing happens, "
                        "it stays where it is",
                    ),
                )
            return Decided(
                "back",
                self.cite(
                    "Double-faced Cards 3",
                    "it enters the field on its flip side and is transformed",
                ),
            )
        return FRONT

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> Decided[bool]:
        """8: moved face down, a double-faced card is not transformed and has no
        characteristics; cards in hidden zones stay face up (hiding them is the views' job)."""
        if face_down:
            return Decided(
                True,
                self.cite(
                    "Double-faced Cards 8",
                    "face down it is not transformed, has no "
                    "characteristics but being a card, and is treated as a "
                    "single-faced card",
                ),
            )
        return NO

    def move_within_zone(
        self, state: GameState, obj: GameObject, face_down: bool | None, position: str | None
    ) -> Outcome | None:
        """Game Zones 5.1: moving to the same zone is not a zone change."""
        out = super().move_within_zone(state, obj, face_down, position)
        if out is None:
            return None
        why = "it is already in that zone: no zone change, nothing happens"
        return replace(out, rulings=self.cite("Game Zones 5.1", why))

    def token_ceases(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """Tokens 3: a token moved off the field ceases to exist."""
        if not (obj.token and not self.is_in_play(zone)):
            return NO
        return Decided(True, self.cite("Tokens 3", "a token moved off the field ceases to exist"))

    def after_move(self, state: GameState, old: GameObject, new: GameObject) -> GameState:
        """Public vs Private Information 6.1.1: whoever could identify the card before the
        move keeps that knowledge (until its zone is shuffled), of the object it became."""
        return self._remember(state, old, new.cards[0], new.id)

    # --- face down (8) ---------------------------------------------------------------------

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """8: a face-down double-faced card is not transformed and has no characteristics
        but being a card."""
        if obj.face_down:
            return Decided(
                False,
                self.cite("Double-faced Cards 8", "it is already face down; nothing happens"),
            )
        return Decided(
            True,
            self.cite(
                "Double-faced Cards 8",
                "face down it is not transformed, has no "
                "characteristics but being a card and is treated as a "
                "single-faced card",
            ),
        )

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """8, 1.1: turned face up, a double-faced card shows its default side."""
        if not obj.face_down:
            return Decided(
                False,
                self.cite("Double-faced Cards 8", "it is already face up; nothing happens"),
            )
        return Decided(
            True, self.cite("Double-faced Cards 8", "turned face up it shows its default side")
        )

    # --- playing (3) ------------------------------------------------------------------------

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        """3: double-faced cards are played on their default side; the flip side can't be
        played."""
        face, transformed = a.face, a.transformed
        card = state.card_def(obj)
        if transformed or (face is not None and face != "front"):
            why = (
                (f"{card.name} must be played on its default side; its flip side can't be played")
                if self.is_double_faced(card)
                else f"{card.name} has only its default side to play"
            )
            return "illegal", obj.zone, obj.face, self.cite("Double-faced Cards 3", why)
        rulings: Rulings = ()
        if self.is_double_faced(card):
            rulings = self.cite(
                "Double-faced Cards 3", f"played on its default side, {card.front.name}"
            )
        return "done", STACK, "front", rulings

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        """Objects 1: champions, allies, weapons, items, domains and phantasias resolve onto
        the field."""
        types = self.base_characteristics(state, obj).props.types
        return any(t.upper() in OBJECT_TYPES for t in types)

    def _champion_destination(
        self, default: Face, zone: str, words: frozenset[str]
    ) -> Decided[str]:
        """Champion 8: a champion card (``words``: the types of ``default``, its default
        side) that would go to a graveyard from anywhere is banished instead."""
        if zone != GRAVEYARD or CHAMPION not in words:
            return PLAIN[zone]
        why = f"{default.name} is a champion: one that would go to a graveyard is banished instead"
        return Decided(BANISHMENT, self.cite("Champion 8", why))

    # --- copies (7, 7.1) --------------------------------------------------------------------

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        """7: only the present side is copied; 7.1: a transformed card's copy has the
        transformed side's characteristics (and, 7.2, can't transform)."""
        values, _ = super().copiable_values(state, of)
        if self.is_transformed(state, of):
            return Decided(
                values,
                (
                    self.cite(
                        "Double-faced Cards 7.1",
                        f"the copy has the characteristics of the transformed side, {values.name}",
                    )
                    + self.cite("Double-faced Cards 7", "only the present side is copied")
                ),
            )
        return Decided(
            values,
            self.cite(
                "Double-faced Cards 7",
                f"only the present side, {values.name or 'a card'}, is copied",
            ),
        )

    # --- naming, effects, queries (4, 10) ----------------------------------------------------

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> Decided[bool]:
        """10: either side's name may be chosen (the transformed one too), never both;
        Naming 6.1: tokens are not cards, so a name only tokens bear can't be named."""
        tokens = [c for c in cards if any(_typed(f, "TOKEN") for f in c.faces)]
        if tokens and len(tokens) == len(cards):
            why = f"{name} is the name of a token: tokens are not cards and can't be named"
            return Decided(False, self.cite("Naming 6.1", why))
        for card in cards:
            if not self.is_double_faced(card):
                continue
            if name == card.name:
                return Decided(
                    False,
                    self.cite(
                        "Double-faced Cards 10",
                        f"{name} names both sides; choose the name of one side",
                    ),
                )
            return Decided(
                True,
                self.cite(
                    "Double-faced Cards 10",
                    f"{name} is the name of a side of {card.name} and may be chosen",
                ),
            )
        return Decided(True, ())

    def effect_scope(self, state: GameState, effect: Effect, fixed: bool) -> Decided[Effect]:
        """10: an effect for a chosen name applies only to cards bearing that name now."""
        scoped = super().effect_scope(state, effect, fixed).value
        if effect.filter is not None and any(k == "name" for k, _ in effect.filter):
            return Decided(
                scoped,
                self.cite(
                    "Double-faced Cards 10",
                    "only cards with the chosen name now are affected, "
                    "whatever the name on their other side",
                ),
            )
        return Decided(scoped)

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """4: a search evaluates the face-up side on the field, the default side elsewhere."""
        sight = super().query_sight(verb, zone).value
        if zone == FIELD:
            why = "on the field only the face-up side's characteristics count"
        else:
            where = _words(zone) or "other zones"
            why = f"in the {where} only the default side's characteristics count"
        return Decided(sight, self.cite("Double-faced Cards 4", why))

    # --- visibility and knowledge (5, 6, 8; Public vs Private Information) ------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """Public vs Private Information 6, #6.1, #9: public zones are face up; hand, memory
        and material deck are private to the owner; the main deck to nobody; a face-down card
        is private to its controller, except in the main deck or face-down banished, where
        #6.1 an effect's permission (activation, materialization) makes it private to the
        player it was given to."""
        if obj.face_down:
            if viewer is None:
                return False
            if obj.zone == BANISHMENT:
                return self.has_permission(state, viewer, obj)
            return obj.zone != MAIN_DECK and obj.controller == viewer
        if self.is_public(obj.zone) or self.shown(state, obj):  # Preserve 3, Boons 5
            return True
        return viewer is not None and obj.zone in OWNER_PRIVATE and obj.owner == viewer

    def knows(self, state: GameState, viewer: str, obj: GameObject) -> bool:
        """Public vs Private Information 6.1.1: kept knowledge follows the physical card."""
        known = state.knowledge
        # Scanned in C first: an entry that could match names the object or its card.
        if not mentions(known, KNOWN_OBJ, obj.id) and not mentions(known, KNOWN_CARD, obj.card):
            return False
        return any(
            k.player == viewer and (k.card == obj.card if k.lasting else k.obj == obj.id)
            for k in state.knowledge
        )

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """5: a player with knowledge permission (the card is public, or private to them) may
        examine either side; 6: flipping it to look is no transform."""
        if not self.may_identify(state, player, obj):
            return Decided(
                False,
                self.cite(
                    "Double-faced Cards 5",
                    f"{player} has no knowledge permission for this "
                    "card: it is neither public nor private to them",
                ),
            )
        out: Rulings = self.cite(
            "Double-faced Cards 5",
            f"{player} has knowledge permission and may examine either side",
        )
        if self.is_double_faced(state.card_def(obj)):
            out += self.cite(
                "Double-faced Cards 6", "flipping it to examine it is not a transformation"
            )
        return Decided(True, out)

    def is_distinguishable(
        self, state: GameState, viewer: str | None, zone: str, owner: str
    ) -> bool:
        """Field and effects stack objects are individual objects; elsewhere the viewer tells
        ``owner``'s cards apart only if each is public, private to them or known to them."""
        objs = [
            o
            for o in (state.objects[i] for i in state.zone_contents(self.zone_key(zone, owner)))
            if o.owner == owner
        ]
        if zone in self.shared_zones:
            return True
        if self.is_public(zone) and all(not o.face_down for o in objs):
            return True
        return bool(objs) and all(
            self.may_look(state, viewer, o) or (viewer is not None and self.knows(state, viewer, o))
            for o in objs
        )

    def after_turn_face_down(self, state: GameState, obj: GameObject) -> GameState:
        """Public vs Private Information 6.1.1: who saw it face up keeps that knowledge."""
        return self._remember(state, obj, obj.card, state.card_object.get(obj.card, obj.id))

    def after_control_change(self, state: GameState, obj: GameObject, player: str) -> GameState:
        """Public vs Private Information 7: when control of a face-down card changes,
        neither its owner nor its former controller may look at it any more."""
        if not obj.face_down:
            return state
        losers = {obj.owner, obj.controller} - {player}
        knowledge = tuple(
            k for k in state.knowledge if not (k.card == obj.card and k.player in losers)
        )
        return replace(state, knowledge=knowledge)

    def after_shuffle(self, state: GameState, player: str, zone: str) -> GameState:
        """Main Deck: a shuffled zone's cards are no longer known to anyone."""
        ids = state.zone_contents(self.zone_key(zone, player))
        cards = {c for i in ids for c in state.objects[i].cards}
        knowledge = tuple(k for k in state.knowledge if k.card not in cards)
        return replace(state, knowledge=knowledge)

    def _remember(self, state: GameState, old: GameObject, card: int, new_obj: int) -> GameState:
        """Lasting knowledge of ``card`` (now object ``new_obj``) for every player who could
        identify ``old``."""
        known = state.knowledge
        # Only the entries naming the card are read (found in C, or by the tuple's index):
        # the knowledge grows with the game, a move doesn't.
        have = (
            {k.player for k in known if k.lasting and k.card == card}
            if known and mentions(known, KNOWN_CARD, card)
            else ()
        )
        extra = []
        for p in state.players:  # a loop, not a comprehension: no frame of its own
            if p not in have and self.may_look(state, p, old):
                extra.append(Knowledge(p, card, new_obj, True))
        return replace(state, knowledge=known + tuple(extra)) if extra else state


def _typed(face: Face, word: str) -> bool:
    """Card Types: whether ``face`` has the type or supertype ``word``, however it is
    spelt (the index prints REGALIA, the rules Regalia)."""
    return word in _type_words(face)


@memo.per_identity("face")  # every move asks: a regalia? a champion? (compiled: one frame)
def _type_words(face: Face) -> frozenset[str]:
    """``face``'s types and supertypes in capitals."""
    return frozenset(t.upper() for t in (*face.types, *face.supertypes))


def _words(zone: str) -> str:
    """A zone name for a reason sentence (``material_deck`` -> ``material deck``)."""
    return zone.replace("_", " ")


def _bound_to(effect: Effect, obj_id: int) -> bool:
    """Whether ``effect`` is bound to the object (by label or as a fixed set)."""
    return effect.target == obj_id or (effect.fixed is not None and obj_id in effect.fixed)


RULESETS: list[type[Ruleset]] = [GrandArchive]
