"""Magic: The Gathering moves with something to say about leaving the stack or battlefield and
entering the battlefield: one :meth:`MagicMoves.move_object` override for the mechanics of
:mod:`~obverse.rulesets.mtg.permanents`, :mod:`~obverse.rulesets.mtg.copies`,
:mod:`~obverse.rulesets.mtg.craft` and :mod:`~obverse.rulesets.mtg.layouts.split`, each a hook
(:meth:`MagicMoves.leaving`, :meth:`MagicMoves.moved`) in its own module.

Most moves have nothing of theirs to say (a card from the hand to the graveyard, a
permanent to exile with no designation, a battle with only its protector): the override
sends them on at the cost of a few comparisons and one answer kept per object value
(:func:`_says_leaving`), without asking the hooks (the move is the kernel's hottest procedure).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import MagicFaces
from obverse.rulings import DONE, Outcome
from obverse.state import GameObject, GameState, marks_naming

replace = msgspec.structs.replace

__all__ = ["MagicMoves"]


@memo.per_identity("obj", "rs", "state.effects", "state.designations", "state.cards", "to")
def _says_leaving(rs: MagicMoves, state: GameState, obj: GameObject, to: str) -> bool:
    """Whether :meth:`MagicMoves.leaving` has something to say as ``obj`` leaves for ``to``:
    a designation naming it has one of :attr:`~MagicMoves.leaving_marks`, or a replacement
    of its own changes where it goes (:meth:`~MagicMoves.replaces_leaving`, from its text).
    Kept per object value and what its designations and characteristics read."""
    marks = rs.leaving_marks
    for name in marks_naming(state.designations, obj.id):
        if name.startswith(marks):
            return True
    return rs.replaces_leaving(state, obj, to)


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaces
else:
    _Base = object


class MagicMoves(_Base):
    """The one move override of MTG's round-three mechanics, and its two hooks."""

    #: The designation names (or prefixes) :meth:`leaving` has something to say about;
    #: each mechanic's own, gathered on the ruleset (an object with none of them, going
    #: where nothing of its own replaces, skips :meth:`leaving`).
    leaving_marks: ClassVar[tuple[str, ...]] = ()

    def move_object(
        self,
        state: GameState,
        a: v.Move,
        *,
        controller: str | None = None,
        face_fixed: str | None = None,
    ) -> Outcome:
        """:meth:`Ruleset.move_object`, with :meth:`leaving` first for an object leaving
        the stack or battlefield that has one of :attr:`leaving_marks` or a replacement of
        where it goes (:meth:`replaces_leaving`), and :meth:`moved` after it for one
        entering the battlefield or still named by a designation once it has left.

        Whether :meth:`leaving` has something to say is kept per object value
        (:func:`_says_leaving`), and the designations naming it are looked up after the move
        only for an object that stays the same: most moves skip the hooks."""
        obj = state.objects[a.object]
        here, to = obj.zone, a.to
        leaves = here in ("battlefield", "stack") and to != here
        enters = to == "battlefield" and here != to
        if not (enters or leaves):
            return super().move_object(state, a, controller=controller, face_fixed=face_fixed)
        marks = state.designations
        first: Rulings = ()
        if leaves and _says_leaving(self, state, obj, to):
            state, to, first, done = self.leaving(state, obj, to)
            if done is not None:
                return replace(done, rulings=first + done.rulings)
            if to != a.to:  # a replacement effect's zone (aftermath, craft ...)
                a = replace(a, to=to)
        out = super().move_object(state, a, controller=controller, face_fixed=face_fixed)
        # Left, the old object has something for :meth:`moved` only while a mark names it:
        # never once it is gone (a new object, or ceased), as the kernel forgets (core.forget)
        # every mark of an object that ceases to exist, so only a kept object is looked up.
        if out.result != DONE or not (
            enters
            or (
                obj.id in out.state.objects
                and marks_naming(marks, obj.id)
                and core.mentions(out.state.designations, core.DESIGNATED, obj.id)
            )
        ):
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
        """After ``old`` moved to ``to`` (entering the battlefield, or gone with a
        designation still naming it): what the mechanics add, with their rulings."""
        return state, ()
