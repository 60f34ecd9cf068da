"""Magic: The Gathering split cards beyond two plain halves: aftermath (702.127a) and split
cards with more than two halves (Who // What // When // Where // Why; 709.3 applied to each
half).

:class:`MagicSplit` sits in :class:`~obverse.rulesets.mtg.Magic`'s bases before
:class:`~obverse.rulesets.mtg.layouts.room.MagicLayouts`. A half is chosen by ``face: left`` /
``right`` (the first and second halves, as before) or by ``half:`` (a half's name, or its
position from 1); on the stack the third and later halves are the faces ``half3`` ... A spell
cast from a graveyard with aftermath carries the ``cast_from_graveyard`` designation while it
is on the stack, and is exiled whenever it would leave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.errors import InputError, quote
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulings import DONE, ILLEGAL, Outcome
from obverse.state import GameObject, GameState

replace = msgspec.structs.replace

#: The designation of a spell cast from a graveyard (702.127a's "if this spell was cast from
#: a graveyard"), on the stack object.
FROM_GRAVEYARD: Final = "cast_from_graveyard"
AFTERMATH: Final = "aftermath"

__all__ = ["FROM_GRAVEYARD", "MagicSplit", "half_face", "half_index"]


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


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMoves
else:
    _Base = object


class MagicSplit(_Base):
    """Aftermath halves and split cards of any number of halves."""

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        if card.layout == "split" and zone == self.stack_zone and len(card.faces) > 2:
            return frozenset(half_face(i) for i in range(len(card.faces)))
        return super().allowed_faces(card, zone)

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """709.3: a half chosen by ``half`` (any of a split card's halves); 702.127a: an
        aftermath half is cast only from a graveyard, and a spell cast from a graveyard with
        aftermath is marked so that it is exiled as it leaves the stack."""
        obj = state.objects[a.object]
        card = state.card_def(obj)
        if card.layout != "split" or obj.face_down or a.face_down or a.fuse:
            if a.half is not None:
                raise InputError("", "half", f"{card.name} isn't a split card with halves")
            return super().cast(state, a)
        index = self._chosen_half(card, a)
        half = card.faces[index]
        if _has(half, AFTERMATH) and obj.zone != "graveyard" and "aftermath" in self.rule_ids:
            why = f"{half.name} has aftermath: it can be cast only from a graveyard"
            return Outcome(state, ILLEGAL, self.rule("aftermath", why))
        if index < 2:
            out = super().cast(state, replace(a, face=half_face(index), half=None))
        else:
            out = self._put(state, obj, "stack", half_face(index), False, self._half_rulings(half))
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
        return replace(out, state=state, rulings=out.rulings + self.rule("aftermath", why))

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

    def _half_rulings(self, half: Face) -> Rulings:
        """709.3: the half chosen is the only one on the stack (as for two halves)."""
        return (
            *self.rule("split_choose", f"the player chose to cast {half.name}"),
            *self.rule("split_evaluated", "only the chosen half is evaluated"),
            *self.rule("split_stack", f"only {half.name} is on the stack"),
            *self.rule("mv_split", "on the stack its mana value is that half's"),
        )

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
        return state, "exile", rulings + self.rule("aftermath", why), None
