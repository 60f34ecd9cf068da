"""The layout handler: what a card's layout decides for itself, asked by the ruleset.

:class:`Layout` is a card of one face that counts (a normal card; any card's front face
outside the battlefield and stack, 712.8a). Each layout's module subclasses it with that
layout's own rules (``transform.py`` 712.8e, ``flip.py`` 710 ...); :class:`~obverse.rulesets.
mtg.Magic` keeps one handler per layout in :attr:`~obverse.rulesets.mtg.Magic.layout_rules`
and its hooks delegate to the card's (:meth:`~obverse.rulesets.mtg.faces.MagicFaces.
layout_rule`). A handler holds no state: ``rs`` (the ruleset, for its switches and rule ids)
is passed to every decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import mana
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.values import colors, cost
from obverse.rulings import YES, Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["Alternative", "Layout", "Plan", "refuse"]

#: A cast's plan: the result, the zone it goes to, the face up there and why.
Plan = tuple[str, str, str, Rulings]


def refuse(obj: GameObject, rulings: Rulings) -> Plan:
    """A refused cast or play: the object stays as it is."""
    return "illegal", obj.zone, obj.face, rulings


class Layout:
    """A card with one face that counts; a layout's handler overrides what its rules say."""

    #: Scryfall's layout name (the key in the ruleset's table).
    name: ClassVar[str] = "normal"
    #: Naming the card by its whole name (``A // B``): the rule saying one name is chosen.
    whole_name: ClassVar[str] = "dfc_naming"
    #: Leaving the stack or battlefield: the rule giving it its values there, and what they are.
    off_the_stack: ClassVar[tuple[str, str]] = ("dfc_front_outside", "front face")
    #: 707.10: a copy of a spell cast with the layout's alternative face keeps it (the rule
    #: and why); ``None``: the layout has no such face.
    spell_copy: ClassVar[tuple[str, str] | None] = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} layout {self.name!r}>"

    # --- what the card is (712.1, 712.9, 701.27g) --------------------------------------------

    def double_faced(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.1: whether the card is a double-faced card."""
        return False

    def transforms(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.9: whether the card may transform in this rules version."""
        return False

    def is_transformed(self, rs: MagicFaces) -> bool:
        """701.27g: whether a permanent of this layout back face up is "transformed"."""
        return False

    def default_face(self, rs: MagicFaces, card: CardDef, zone: str) -> str:
        """The face up by default in ``zone``."""
        return "front"

    def allowed_faces(self, rs: MagicFaces, card: CardDef, zone: str) -> frozenset[str]:
        """The faces the card may have up in ``zone`` (712.8a: the front outside play)."""
        if len(card.faces) < 2 or card.is_meld_result:
            return frozenset({"back"} if card.is_meld_result else {"front"})
        if zone in ("battlefield", "stack"):
            return frozenset({"front", "back"})
        return frozenset({"front"})

    def is_flipped_on_setup(self, card: CardDef, face: str) -> bool:
        """710.1: only a flip card set up with its other half up is flipped."""
        return False

    # --- characteristics (712.8, 202.3) -------------------------------------------------------

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """The face up (712.8d-f) or the front (712.8a); ``face`` is ``obj``'s face as it
        counts in its zone."""
        chosen = faces[1] if face == "back" and len(faces) > 1 else faces[0]
        front_mv = self.front_mana_value(obj, faces, face)
        mv = mana.mana_value(cost(faces[0] if front_mv else chosen))
        got = colors(chosen)
        props = chosen if got == chosen.colors else msgspec.structs.replace(chosen, colors=got)
        why: Rulings = ()
        if rs.is_double_faced(state.card_def(obj)) or len(faces) > 1:
            why = self.face_rulings(rs, obj, front_mv)
        return Characteristics(
            face=obj.face,
            names=(chosen.name,) if chosen.name else (),
            props=props,
            mana_value=mv,
            why=why,
        )

    def front_mana_value(self, obj: GameObject, faces: tuple[Face, ...], face: str) -> bool:
        """Whether the face up takes the front face's mana value (712.8e: transform's)."""
        return False

    def face_rulings(self, rs: MagicFaces, obj: GameObject, front_mv: bool) -> Rulings:
        """Why :meth:`characteristics` chose that face of a double-faced card (712.8)."""
        where = obj.zone
        if where not in ("battlefield", "stack"):
            return rs.cite("dfc_front_outside", f"in the {where} it has only its front face")
        if where == "stack":
            return rs.cite("dfc_spell", "a spell has the face it was cast with")
        if obj.face != "back":
            return rs.cite("dfc_front_up", "front face up: only the front face counts")
        if obj.copies:
            return rs.cite(
                "dfc_back_up", "back face up as a copy: the copied face's mana value"
            ) + rs.cite("mv_back_face", "a copy of a back face has mana value 0")
        return rs.cite(
            "dfc_back_up", "back face up: the back face's characteristics, its own mana cost too"
        )

    # --- copies (707.2, 707.8) ----------------------------------------------------------------

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """707.2: the printed values; of a double-faced permanent only the face up."""
        if len(faces) > 1:
            face = faces[1] if of.face == "back" else faces[0]
            return Decided(
                CopyValues(
                    layout="normal", faces=(face,), name=face.name or "", source_face=of.face
                ),
                rs.cite("copy_dfc", f"only the face that is up, {face.name}, is copied"),
            )
        return Decided(
            CopyValues(layout="normal", faces=faces, name=faces[0].name or "", source_face=of.face),
            rs.cite("copiable_values", "the copy gets the printed values"),
        )

    # --- moving and casting (712.11-712.14, 305) ----------------------------------------------

    def enter_face(self, rs: MagicFaces, card: CardDef, zone: str) -> Decided[str | None]:
        """The face it enters the battlefield with, not cast and not transformed; ``None``:
        it stays where it is."""
        if rs.is_double_faced(card):
            return Decided(
                "front", rs.cite("enter_front", "it enters the battlefield front face up")
            )
        return Decided(self.default_face(rs, card, zone), ())

    def plan_cast(
        self, rs: MagicFaces, obj: GameObject, card: CardDef, face: str | None
    ) -> Plan | None:
        """The whole plan of casting the card, when its layout decides it alone (split, meld);
        ``None``: the ruleset's steps, asking :meth:`cast_refused`, :meth:`cast_face` and
        :meth:`cast_face_choice`."""
        return None

    def cast_refused(self, rs: MagicFaces, card: CardDef, chosen: str) -> Rulings:
        """Why the card can't be cast with ``chosen`` up; ``()`` when it may."""
        if chosen in ("left", "right", "both") or (chosen == "back" and len(card.faces) < 2):
            return rs.cite("cast_front", f"{card.name} has no {chosen} face to cast")
        return ()

    def cast_face(self, rs: MagicFaces, obj: GameObject, card: CardDef, chosen: str) -> Plan | None:
        """A face cast as the layout's own alternative (prototype, Omen); ``None`` else."""
        return None

    def cast_face_choice(
        self, rs: MagicFaces, card: CardDef, chosen: str, face: str | None, transformed: bool
    ) -> Decided[bool]:
        """712.11: which face it may be cast with; ``False``: illegal."""
        if rs.is_double_faced(card):
            why = "a double-faced card is cast front face up"
            return Decided(True, rs.cite("cast_front", why))
        return YES

    def resolve_plan(self, rs: MagicFaces, obj: GameObject) -> tuple[str, str, Rulings] | None:
        """Where the spell goes as it resolves when the layout says (an Adventure); ``None``:
        the ruleset's rule."""
        return None

    def resolve(self, rs: MagicFaces, state: GameState, obj: GameObject) -> Outcome | None:
        """The layout's own resolution of ``obj`` (a Room's door, an Omen); ``None`` else."""
        return None

    # --- naming (201.4) -----------------------------------------------------------------------

    def naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """Whether ``name`` may be chosen for this card; ``None``: not its name."""
        if name == card.name and len(card.faces) > 1:
            return Decided(False, rs.cite(self.whole_name, f"one name may be chosen, not {name}"))
        return self.face_naming(rs, name, card)

    def face_naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """712.19: either face's name of a double-faced card, not both."""
        if rs.is_double_faced(card) and name in card.face_names:
            topic = "naming_dfc" if name != card.faces[0].name else "naming"
            return Decided(
                True,
                rs.cite("dfc_naming", "either face's name may be chosen, not both")
                + rs.cite(topic, f"{name} is the name of a card"),
            )
        return None

    # --- the layout's own verbs and offers ----------------------------------------------------

    def candidates(
        self, rs: MagicFaces, state: GameState, o: GameObject, verb: str
    ) -> list[v.Action]:
        """The layout's own actions on ``o`` for ``verb`` (unlocking a Room, casting fused)."""
        return []


class Alternative(Layout):
    """A card with an inset alternative face it may be cast with (prototype 718, Omen 720)
    in a rules version that has it (``<layout>_alt``), cast normally otherwise."""

    #: How the alternative cast is said (``prototyped``, ``as an Omen``).
    how: ClassVar[str] = ""

    def has_alternative(self, rs: MagicFaces, card: CardDef) -> bool:
        """Whether this version has the layout's rules and the card its alternative face."""
        return len(card.faces) > 1 and rs.has(f"{self.name}_alt")

    def cast_face(self, rs: MagicFaces, obj: GameObject, card: CardDef, chosen: str) -> Plan | None:
        """718.3, 720.3: cast normally or with the inset face (``face: back``)."""
        if len(card.faces) < 2:
            return None
        if not rs.has(f"{self.name}_alt"):
            why = f"{card.name} can only be cast normally under these rules"
            return refuse(obj, rs.cite("cast_front", why)) if chosen == "back" else None
        if chosen != "back":
            return "done", "stack", "front", rs.cite(f"{self.name}_cast", "cast normally")
        rulings = rs.cite(f"{self.name}_cast", f"the player chose to cast it {self.how}") + rs.cite(
            f"{self.name}_eval", "only its alternative characteristics are evaluated"
        )
        return "done", "stack", "back", rulings
