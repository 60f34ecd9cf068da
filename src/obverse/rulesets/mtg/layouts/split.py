"""Split cards (709, layout ``split``): the :class:`Split` handler (both halves off the stack,
709.4; the chosen half on it, 709.3; fused, 702.102 / 709.4d; copies and names), and
:class:`MagicSplit`, the cast and leave procedures of aftermath (702.127a) and split cards of
more than two halves (Who // What // When // Where // Why; 709.3 applied to each half).

A half is chosen by ``face: left`` /
``right`` (the first and second halves, as before) or by ``half:`` (a half's name, or its
position from 1); on the stack the third and later halves are the faces ``half3`` ... A spell
cast from a graveyard with aftermath carries the ``cast_from_graveyard`` designation while it
is on the stack, and is exiled whenever it would leave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.errors import InputError, RulesError, quote
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.base import Layout, Plan, refuse
from obverse.rulesets.mtg.layouts.flip import both_halves
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulesets.mtg.values import cost
from obverse.rulings import DONE, ILLEGAL, Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

replace = msgspec.structs.replace

#: The designation of a spell cast from a graveyard (702.127a's "if this spell was cast from
#: a graveyard"), on the stack object.
FROM_GRAVEYARD: Final = "cast_from_graveyard"
AFTERMATH: Final = "aftermath"

__all__ = ["FROM_GRAVEYARD", "MagicSplit", "Split", "half_face", "half_index"]


def half_face(i: int) -> str:
    """The face name of half ``i`` (0-based) on the stack: ``left``, ``right``, ``half3`` ..."""
    return ("left", "right")[i] if i < 2 else f"half{i + 1}"


def half_index(face: str) -> int | None:
    """The 0-based half a face names (``left`` 0, ``right`` 1, ``half3`` 2 ...), or ``None``."""
    if face == "left":
        return 0
    if face == "right":
        return 1
    if face.startswith("half") and face[4:].isdigit() and int(face[4:]) >= 1:
        return int(face[4:]) - 1
    return None


def _has(face: Face, keyword: str) -> bool:
    return any(x.casefold() == keyword for x in face.abilities)


class Split(Layout):
    """A split card: two (or more) halves on one face."""

    name: ClassVar[str] = "split"
    whole_name: ClassVar[str] = "split_names"
    off_the_stack: ClassVar[tuple[str, str]] = ("split_combined", "combined halves")

    def default_face(self, rs: MagicFaces, card: CardDef, zone: str) -> str:
        """709.3: the half cast on the stack (the first by default); both elsewhere."""
        return "left" if zone == rs.stack_zone else "both"

    def allowed_faces(self, rs: MagicFaces, card: CardDef, zone: str) -> frozenset[str]:
        """709.3: one half on the stack (``half3`` ... beyond two); 709.4: both elsewhere."""
        if zone == rs.stack_zone and len(card.faces) > 2:
            return frozenset(half_face(i) for i in range(len(card.faces)))
        return frozenset({"left", "right"} if zone == "stack" else {"both"})

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """709.3b: on the stack the half cast; 709.4, 709.4b: off it both halves, their
        costs combined; 709.4d: fused on the stack, both halves."""
        if obj.zone == "stack" and obj.face == "both" and rs.has("fuse"):
            chars = self.halves("both", rs, faces)
            why = rs.cite(
                "fuse_chars", "a fused split spell has both halves' characteristics"
            ) + rs.cite("split_fused", "on the stack too, its values are the halves combined")
            return replace(chars, why=why)
        return self.halves(face, rs, faces)

    def halves(self, face: str, rs: MagicFaces, faces: tuple[Face, ...]) -> Characteristics:
        """The half ``face`` names (709.3b), or both combined (709.4)."""
        if face in ("left", "right") or face.startswith("half"):
            half = faces[0 if face == "left" else 1 if face == "right" else int(face[4:]) - 1]
            chars = rs.with_colors(combine_faces(face, (half,)))
            why = rs.cite("split_stack", "on the stack only the chosen half exists")
            return replace(chars, mana_value=mana.mana_value(cost(half)), why=why)
        combined = mana.combine(*(cost(f) for f in faces))  # 709.4b
        chars = combine_faces("both", faces)
        chars = replace(chars, props=replace(chars.props, cost=combined))
        chars = rs.with_colors(chars)
        why = rs.cite(
            "split_combined", "off the stack it has both halves' characteristics"
        ) + rs.cite("mv_split", "its mana value comes from the combined cost")
        return replace(chars, mana_value=mana.mana_value(combined), why=why)

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """709.3c: a copy of a split card copies both halves."""
        if len(faces) < 2:
            return super().copiable_values(rs, state, of, faces)
        return both_halves(rs, of, "split", faces, "split_copy")

    def plan_cast(
        self, rs: MagicFaces, obj: GameObject, card: CardDef, face: str | None
    ) -> Plan | None:
        """709.3: the player chooses one half; only it is on the stack."""
        chosen = face or "left"
        if chosen not in ("left", "right"):
            return refuse(obj, rs.cite("split_choose", "choose one half to cast"))
        half = card.faces[0 if chosen == "left" else 1]
        return "done", "stack", chosen, half_rulings(rs, half)

    def face_naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """709.4a: one half's name may be chosen."""
        if name not in card.face_names:
            return super().face_naming(rs, name, card)
        return Decided(
            True,
            rs.cite("naming_split", "one half's name may be chosen")
            + rs.cite("split_names", f"{name} is one of the card's two names"),
        )

    def candidates(
        self, rs: MagicFaces, state: GameState, o: GameObject, verb: str
    ) -> list[v.Action]:
        """702.102a: from a hand, casting it fused."""
        if o.zone == "hand" and rs.has("fuse") and verb != "unlock":
            return [v.Cast(object=o.id, fuse=True)]
        return []


def half_rulings(rs: MagicFaces, half: Face) -> Rulings:
    """709.3: the half chosen is the only one on the stack."""
    return (
        rs.cite("split_choose", f"the player chose to cast {half.name}")
        + rs.cite("split_evaluated", "only the chosen half is evaluated")
        + rs.cite("split_stack", f"only {half.name} is on the stack")
        + rs.cite("mv_split", "on the stack its mana value is that half's")
    )


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMoves
else:
    _Base = object


class MagicSplit(_Base):
    """Aftermath halves and split cards of any number of halves."""

    #: :meth:`leaving` has a say about a spell cast from a graveyard with aftermath.
    leaving_marks: ClassVar[tuple[str, ...]] = (FROM_GRAVEYARD,)

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """709.3: a half chosen by ``half`` (any of a split card's halves); 702.127a: an
        aftermath half is cast only from a graveyard, and a spell cast from a graveyard with
        aftermath is marked so that it is exiled as it leaves the stack."""
        obj = state.objects[a.object]
        card = state.card_def(obj)
        if a.fuse:
            if a.half is not None:
                raise InputError("", "half", f"{card.name} isn't a split card with halves")
            return self._cast_fused(state, obj, card, a)
        if card.layout != "split" or obj.face_down or a.face_down:
            if a.half is not None:
                raise InputError("", "half", f"{card.name} isn't a split card with halves")
            return super().cast(state, a)
        index = self._chosen_half(card, a)
        half = card.faces[index]
        if _has(half, AFTERMATH) and obj.zone != "graveyard" and "aftermath" in self.rule_ids:
            why = f"{half.name} has aftermath: it can be cast only from a graveyard"
            return Outcome(state, ILLEGAL, self.cite("aftermath", why))
        if index < 2:
            out = super().cast(state, replace(a, face=half_face(index), half=None))
        else:
            out = self._put(state, obj, "stack", half_face(index), False, half_rulings(self, half))
            if a.controller is not None:
                moved = out.state.object_of_card(obj.card)
                assert moved is not None
                moved = replace(moved, controller=a.controller)
                out = replace(out, state=core.update(out.state, moved))
        if out.result != DONE or obj.zone != "graveyard" or not _has(half, AFTERMATH):
            return out
        if "aftermath" not in self.rule_ids:
            return out
        spell = out.state.object_of_card(obj.card)
        assert spell is not None
        state = replace(
            out.state, designations=(*out.state.designations, (FROM_GRAVEYARD, spell.id))
        )
        why = f"{half.name} is cast from a graveyard: it will be exiled as it leaves the stack"
        return replace(out, state=state, rulings=out.rulings + self.cite("aftermath", why))

    def _chosen_half(self, card: CardDef, a: v.Cast | v.Play) -> int:
        """The 0-based half ``a`` chooses (``half``: a name or a position from 1; else
        ``face``: left, right; none: the first)."""
        if a.half is None:
            index = 0 if a.face is None else half_index(a.face)
            if index is None or index >= len(card.faces):
                why = f"{quote(a.face or '')} is not a half of {card.name}: choose left or right"
                raise InputError("", "face", why)
            return index
        if a.face is not None:
            raise InputError("", "half", "give either face or half, not both")
        for i, face in enumerate(card.faces):
            if face.name == a.half or a.half == str(i + 1):
                return i
        names = ", ".join(quote(f.name or "") for f in card.faces)
        raise InputError("", "half", f"{quote(a.half)} is not a half of {card.name}: {names}")

    def _cast_fused(
        self, state: GameState, obj: GameObject, card: CardDef, a: v.Cast | v.Play
    ) -> Outcome:
        """702.102a, 709.4d: cast from a hand, both halves are cast as one fused spell."""
        if not self.has("fuse"):
            raise RulesError(f"fused split spells aren't modelled under {self.name}")
        refused = self._fuse_refused(obj, card, a)
        if refused:
            return Outcome(state, ILLEGAL, refused)
        rulings = (
            self.cite("fuse", f"cast from hand, both halves of {card.name} are cast")
            + self.cite("fuse_chars", "the fused split spell has both halves' characteristics")
            + self.cite("split_fused", "on the stack it has the combined characteristics")
        )
        return self._put(state, obj, "stack", "both", False, rulings)

    def _fuse_refused(self, obj: GameObject, card: CardDef, a: v.Cast | v.Play) -> Rulings:
        """702.102a: why this can't be cast fused, or ``()`` when it can."""
        fuse = any(x.casefold() == "fuse" for f in card.faces for x in f.abilities)
        if card.layout != "split" or not fuse:
            return self.cite("fuse", f"{card.name} isn't a split card with fuse")
        if a.verb != "cast" or a.face_down or a.transformed or a.face not in (None, "both"):
            return self.cite("fuse", "a fused split spell is both halves, cast face up")
        if obj.zone != "hand":
            return self.cite(
                "fuse", f"fuse applies only while the card is in a hand, not {obj.zone}"
            )
        return ()

    def leaving(
        self, state: GameState, obj: GameObject, to: str
    ) -> tuple[GameState, str, Rulings, Outcome | None]:
        """702.127a: a spell cast from a graveyard with aftermath is exiled instead of put
        anywhere else whenever it would leave the stack."""
        state, to, rulings, done = super().leaving(state, obj, to)
        mark = (FROM_GRAVEYARD, obj.id)
        if done is not None or not core.designated(state.designations, mark):
            return state, to, rulings, done
        state = replace(state, designations=tuple(d for d in state.designations if d != mark))
        why = f"cast from a graveyard with aftermath, it is exiled instead of going to the {to}"
        return state, "exile", rulings + self.cite("aftermath", why), None
