"""Magic: The Gathering, "As this is turned face up ..." copy choices (708.11).

A face-down permanent that has, once face up, an "As [this] is turned face up, you may
choose another creature ... it becomes a copy of that creature" ability (Vesuvan
Shapeshifter) applies it while being turned face up (708.11): it is never face up without
the copy. ``turn_face_up: {object, copy}`` names the creature chosen. Whether the card has
such an ability is read only once it is face up (a refusal before would tell the other
players what the hidden card is); the copy lasts until it is turned face down again (the
ability's own duration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.mtg.merge import MagicMerge
from obverse.rulings import DONE, Outcome
from obverse.state import GameState

replace = msgspec.structs.replace

#: The designation of a copy an "as this is turned face up" ability made: it ends when the
#: permanent is turned face down.
FACE_UP_COPY: Final = "face_up_copy"


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMerge
else:
    _Base = object


class MagicFaceUp(_Base):
    """708.11 on top of MTG's face-down and merge rules."""

    face_up_copies: ClassVar[bool] = True

    def turn_face_up(self, state: GameState, a: v.TurnFaceUp) -> Outcome:
        """708.11: with ``copy``, the ability applies while it is turned face up."""
        out = super().turn_face_up(state, a)
        if a.copy is None or out.result != DONE:
            return out
        obj = out.state.objects.get(a.object)
        if obj is None or obj.face_down:  # revealed but still face down (110.4, 701.40g)
            return out
        text = (state.card_def(obj).faces[0].text or "").lower()
        if "turned face up" not in text or "copy" not in text:
            why = "it has no 'as this is turned face up' copy ability: it copies nothing"
            return replace(out, rulings=(*out.rulings, *self.cite("face_up_as", why)))
        of = out.state.objects[a.copy]
        values, rulings = self.copy_effect(out.state, obj, of)
        state = core.update(out.state, replace(obj, copies=(*obj.copies, values)))
        state = replace(state, designations=(*state.designations, (FACE_UP_COPY, obj.id)))
        why = "its 'as this is turned face up' ability applies as it turns face up: a copy"
        return replace(
            out, state=state, rulings=(*out.rulings, *self.cite("face_up_as", why), *rulings)
        )

    def turn_face_down(self, state: GameState, a: v.TurnFaceDown) -> Outcome:
        """The copy an "as this is turned face up" ability made lasts until it is turned
        face down."""
        out = super().turn_face_down(state, a)
        mark = (FACE_UP_COPY, a.object)
        if out.result != DONE or mark not in out.state.designations:
            return out
        obj = out.state.objects[a.object]
        state = core.update(out.state, replace(obj, copies=obj.copies[:-1]))
        kept = tuple(d for d in state.designations if d != mark)
        return replace(out, state=replace(state, designations=kept))


__all__ = ["FACE_UP_COPY", "MagicFaceUp"]
