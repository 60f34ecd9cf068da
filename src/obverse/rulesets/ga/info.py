"""Grand Archive hidden information beyond the seed: permissions on cards banished face down,
a reveal that ends at the next action, and searches that may fail to find.

Rule ids are GA CR page titles and items: "Public vs Private Information 6.1", "Reveal 3"
(the glossary entry), "Searching and Finding 1.1".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Literal

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.base import Ruleset
from obverse.rulesets.ga.objects import BANISHMENT
from obverse.rulings import DONE, ILLEGAL, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only (at run time a flat mixin)
    _Base = Ruleset
else:
    _Base = object

replace = msgspec.structs.replace

#: Public vs Private Information 6.1: what an effect may let a player do with a banished card.
Permission = Literal["activate", "materialize"]
#: Designation label prefix of a permission: ``permission:<player>`` on the object.
PERMISSION: Final = "permission:"
#: Reveal 3: the designation of a revealed card, until the next action.
REVEALED: Final = "revealed"
PRIVATE_INFO: Final = "Public vs Private Information 6.1"


class GrantPermission(v.Action, frozen=True, tag="grant_permission"):
    """An effect gives ``player`` a permission (``activate`` or ``materialize``) for
    ``object``; on a card banished face down it makes the card private to that player."""

    refs = ("object",)
    player_fields = ("player",)
    object: int
    player: str
    permission: Permission = "activate"


class Find(v.Search, frozen=True, tag="find"):
    """``player`` searches their ``zone`` for a card matching ``where`` and finds ``choose``
    (an object), or nothing (``choose`` left out: a failure to find). Answers what was
    found; ``illegal`` when the rules don't allow that choice."""

    refs = ("choose",)
    choose: int | None = None


class Information(_Base):
    """Permissions on banished cards (Public vs Private Information 6.1), the end of a
    reveal (Reveal 3) and finding (Searching and Finding 1, 2, 4)."""

    #: Reveal 3: a revealed card stops being revealed at the next action (see
    #: :meth:`after_action`).
    ends_on_action: ClassVar[bool] = True

    #: Public vs Private Information 6.1: a permission concerns the card it names alone (it
    #: is read only by that card's visibility, :meth:`has_permission`), so granting one
    #: leaves the other objects' offers as they were.
    own_designations: ClassVar[tuple[str, ...]] = (PERMISSION,)

    # A query (find) is asked, never offered: only the permission has a generator.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("grant_permission", "_offer_grant_permission"),
    )

    def _offer_grant_permission(
        self, state: GameState, player: str, o: GameObject
    ) -> list[v.Action]:
        # Any object, any player (an effect's permission may be for either): the kernel
        # decides.
        return [GrantPermission(object=o.id, player=p) for p in state.players]

    # --- permissions (Public vs Private Information 6.1) -------------------------------------

    def has_permission(self, state: GameState, player: str, obj: GameObject) -> bool:
        """Public vs Private Information 6.1: an effect gave ``player`` a permission for it."""
        if not core.mentions(state.designations, core.DESIGNATED, obj.id):
            return False
        return (PERMISSION + player, obj.id) in state.designations

    def grant_permission(self, state: GameState, a: GrantPermission) -> Outcome:
        """Public vs Private Information 6.1: a card an effect banished face down and gave a
        player a permission for (activation, materialization) is private to that player:
        they may look at it. The permission lasts while the card stays where it is."""
        obj = state.objects[a.object]
        mark = (PERMISSION + a.player, obj.id)
        if mark in state.designations:
            why = f"{a.player} already has a permission for this card"
            return Outcome(state, DONE, self.cite(PRIVATE_INFO, why))
        state = replace(state, designations=core.adding(state.designations, mark))
        if obj.face_down and obj.zone == BANISHMENT:
            why = (
                f"a card banished face down that {a.player} may {a.permission} is private "
                f"to {a.player}: they may look at it"
            )
        else:
            why = f"{a.player} may {a.permission} this card"
        return Outcome(state, DONE, self.cite(PRIVATE_INFO, why))

    # --- reveal (Reveal 3, 4) -----------------------------------------------------------------

    def reveal(self, state: GameState, a: v.Reveal) -> Outcome:
        """Reveal 2, 3: the card is shown as public information and stays revealed until
        the next action (a player action, or the state-based checks any change brings);
        Reveal 4: what the players saw they may keep (their knowledge stays)."""
        out = super().reveal(state, a)
        if out.result != DONE:
            return out
        mark = (REVEALED, a.object)
        st = out.state
        if mark not in st.designations:
            st = replace(st, designations=core.adding(st.designations, mark))
        why = "it stays revealed until the next action"
        return replace(out, state=st, rulings=(*out.rulings, *self.cite("Reveal 3", why)))

    def is_revealed(self, state: GameState, obj: GameObject) -> bool:
        """Reveal 3: whether the card is revealed now."""
        return core.mentions(state.designations, core.DESIGNATED, obj.id) and (
            (REVEALED, obj.id) in state.designations
        )

    def after_action(self, before: GameState, action: v.Action, out: Outcome) -> Outcome:
        """Reveal 3: cards revealed before this action stop being revealed (Reveal 4: their
        information state reverts; what players saw, they keep). A query is no action."""
        if not before.designations:  # nothing revealed (asked first: most actions)
            return out
        if type(action).is_query or out.result == ILLEGAL:
            return out  # no action was taken
        if not any(d[0] == REVEALED for d in before.designations):
            return out
        ended = {d for d in before.designations if d[0] == REVEALED}
        kept = tuple(d for d in out.state.designations if d not in ended)
        if len(kept) == len(out.state.designations):
            return out
        why = "the next action: the cards revealed before it stop being revealed"
        return replace(
            out,
            state=replace(out.state, designations=kept),
            rulings=(*out.rulings, *self.cite("Reveal 3", why)),
        )

    # --- finding (Searching and Finding) ------------------------------------------------------

    def find(self, state: GameState, a: Find) -> Outcome:
        """Searching and Finding 1: find ``choose`` among the cards the search sees matching
        ``where``; 4: with no legal choice nothing is found and nothing changes; 2: a search
        for "a card" (no characteristics) must find one if it can; 1.1: searching a private
        zone for given characteristics may fail to find, 1.1.1 unless a legal choice is
        public or revealed."""
        search = self.search(state, v.Search(player=a.player, zone=a.zone, where=a.where))
        legal = tuple(search.answer) if isinstance(search.answer, tuple) else ()
        if a.choose is not None:
            if a.choose in legal:
                rule, why, found = "Searching and Finding 1", "a legal choice: it is found", True
            else:
                rule, found = "Searching and Finding 1", False
                why = "not a legal choice: not among the cards searched with those characteristics"
        else:
            rule, why, found = self._fail_to_find(state, a, legal)
        rulings = (*search.rulings, *self.cite(rule, why))
        if not found:
            return Outcome(state, ILLEGAL, rulings)
        return Outcome(state, DONE, rulings, answer=() if a.choose is None else (a.choose,))

    def _fail_to_find(
        self, state: GameState, a: Find, legal: tuple[int, ...]
    ) -> tuple[str, str, bool]:
        """Whether ``a.player`` may find nothing (``legal``: the legal choices): the rule,
        the reason and the answer."""
        if not legal:
            why = "there is no legal choice: the effect resolves and nothing is found"
            return "Searching and Finding 4", why, True
        if not a.where:
            why = 'a search for "a card" must find one when there is a legal choice'
            return "Searching and Finding 2", why, False
        shown = [
            o
            for o in (state.objects[i] for i in legal)
            if self.is_revealed(state, o) or (self.is_public(o.zone) and not o.face_down)
        ]
        if shown:
            why = "a legal choice is public or revealed: the player can't fail to find"
            return "Searching and Finding 1.1.1", why, False
        why = "searching a private zone for given characteristics, the player may fail to find"
        return "Searching and Finding 1.1", why, True


ACTIONS: Final[tuple[type[v.Action], ...]] = (GrantPermission, Find)
