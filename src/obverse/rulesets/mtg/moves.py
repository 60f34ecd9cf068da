"""Magic: The Gathering moves with something to say about leaving the stack or battlefield and
entering the battlefield: one :meth:`MagicMoves.move_object` override for the mechanics of
:mod:`~obverse.rulesets.mtg.permanents`, :mod:`~obverse.rulesets.mtg.copies`,
:mod:`~obverse.rulesets.mtg.craft` and :mod:`~obverse.rulesets.mtg.layouts.split`, each a hook
(:meth:`MagicMoves.leaving`, :meth:`MagicMoves.moved`) in its own module.

Most moves have nothing of theirs to say (a card from the hand to the graveyard, a
permanent to exile with no designation): the override sends them on at the cost of a few
comparisons, without asking the hooks (the move is the kernel's hottest procedure).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import MagicFaces
from obverse.rulings import DONE, Outcome
from obverse.state import GameObject, GameState

replace = msgspec.structs.replace

__all__ = ["MagicMoves"]


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaces
else:
    _Base = object


class MagicMoves(_Base):
    """The one move override of MTG's round-three mechanics, and its two hooks."""

    def move_object(
        self,
        state: GameState,
        a: v.Move,
        *,
        controller: str | None = None,
        face_fixed: str | None = None,
    ) -> Outcome:
        """:meth:`Ruleset.move_object`, with :meth:`leaving` first for an object leaving
        the stack or battlefield that has designations or goes to a graveyard, and
        :meth:`moved` after it for one entering the battlefield or leaving it marked.

        An unmarked object leaving has nothing for the hooks but a replacement of where it
        goes (:meth:`replaces_leaving`): asked first, so a plain death skips the hooks."""
        obj = state.objects[a.object]
        here, to = obj.zone, a.to
        # Asked of this object only (a legal-action trial notes the read as of it alone).
        marks = state.designations
        marked = bool(marks) and core.mentions(marks, core.DESIGNATED, obj.id)
        leaves = here in ("battlefield", "stack") and to != here
        enters = to == "battlefield" and here != to
        if not (enters or (leaves and (marked or self.replaces_leaving(state, obj, to)))):
            return super().move_object(state, a, controller=controller, face_fixed=face_fixed)
        first: Rulings = ()
        if leaves:
            state, to, first, done = self.leaving(state, obj, to)
            if done is not None:
                return replace(done, rulings=first + done.rulings)
            if to != a.to:  # a replacement effect's zone (aftermath, craft ...)
                a = replace(a, to=to)
        out = super().move_object(state, a, controller=controller, face_fixed=face_fixed)
        if out.result != DONE:
            return replace(out, rulings=first + out.rulings) if first else out
        after, more = self.moved(out.state, obj, to)
        return replace(out, state=after, rulings=first + out.rulings + more)

    def leaving(
        self, state: GameState, obj: GameObject, to: str
    ) -> tuple[GameState, str, Rulings, Outcome | None]:
        """Before ``obj`` leaves the stack or battlefield for ``to``: the state, the zone it
        really goes to (a replacement effect's), the rulings, and an outcome when the move
        is done here (a copy of a spell ceasing to exist). Mechanics extend it."""
        return state, to, (), None

    def replaces_leaving(self, state: GameState, obj: GameObject, to: str) -> bool:
        """Whether a replacement effect of the object's own changes where ``obj``, with no
        designation, goes as it leaves the stack or battlefield for ``to`` (the one thing
        :meth:`leaving` has to say of an unmarked object). Mechanics extend it."""
        return False

    def moved(self, state: GameState, old: GameObject, to: str) -> tuple[GameState, Rulings]:
        """After ``old`` moved to ``to`` (entering the battlefield or leaving it marked):
        what the mechanics add, with their rulings."""
        return state, ()
