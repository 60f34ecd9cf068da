"""Grand Archive properties of objects on the field (Distant, Fostered, Link) and
type-setting effects (Type-Overwriting and Type-setting 1, 2; Objects 3).

Rule ids are the glossary's headings and items ("Distant 2", "Fostered 4", "Link 1"). Each
property is a designation on the object (a property, not a characteristic), gone when the
object leaves the field (a new object).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.rulesets.base import Rulings
from obverse.rulesets.ga.objects import FIELD, IMMORTALITY, UNIT_TYPES, _typed
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.ga.objects import FieldObjects as _Base
else:
    _Base = object

replace = msgspec.structs.replace

DISTANT: Final = "distant"
FOSTERED: Final = "fostered"
#: Link 1: the designation ``link:<linked object id>`` on the object with the Link ability.
LINK: Final = "link:"
LINK_ABILITY: Final = "Link"


class BecomeDistant(v.Action, frozen=True, tag="become_distant"):
    """Distant 1: the unit ``object`` becomes distant (until the end of its controller's
    turn)."""

    refs = ("object",)
    object: int


class Foster(v.Action, frozen=True, tag="foster"):
    """Fostered 3: the unit ``object`` becomes fostered (once: Fostered 4)."""

    refs = ("object",)
    object: int


class Link(v.Action, frozen=True, tag="link"):
    """Link 1: ``object`` (an object with Link, on the field) is linked to ``to``."""

    refs = ("object", "to")
    object: int
    to: int


class Statuses(_Base):
    """Distant, Fostered, Link and type-setting."""

    type_setting: ClassVar[bool] = True

    def apply_effect(self, state: GameState, a: v.ApplyEffect) -> Outcome:
        """Type-Overwriting and Type-setting 1: an effect setting an object's types replaces
        them, keeping what it doesn't set (its subtypes); 2: setting the card type loses the
        supertypes unless the effect names them again; Objects 3: its innate stats stay."""
        if "set_types" not in a.modify:
            return super().apply_effect(state, a)
        modify = {"set_supertypes": [], **a.modify}
        out = super().apply_effect(state, replace(a, modify=modify))
        if out.result != DONE:
            return out
        rulings = (
            self.cite(
                "Type-Overwriting and Type-setting 1",
                "the types it sets replace its types; its subtypes are kept",
            )
            + self.cite(
                "Type-Overwriting and Type-setting 2",
                "its card type set, it loses its supertypes unless the effect names them",
            )
            + self.cite("Objects 3", "its innate stats (power, life ...) stay")
        )
        return replace(out, rulings=(*out.rulings, *rulings))

    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("link", "_targets_link"),)
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("become_distant", "_offer_become_distant"),
        ("foster", "_offer_foster"),
    )

    def _offer_become_distant(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [BecomeDistant(object=o.id)] if not self._unit_refused(state, o, "") else []

    def _offer_foster(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Foster(object=o.id)] if not self._unit_refused(state, o, "") else []

    def _targets_link(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Link 1: an object with Link linked to each other object on the field, a free
        target (any takes it alike: the first decides)."""
        if o.zone != FIELD or LINK_ABILITY not in self._chars(state, o).props.abilities:
            return None
        objects = state.objects
        ids = ctx.subset(
            "link", "referable", lambda ids: [x for x in ids if objects[x].zone == FIELD]
        )
        first = next((x for x in ids if x != o.id), None)
        if first is None:
            return None
        return Targets(Link(object=o.id, to=first), "to", ids, frozenset({o.id}))

    def has_property(self, state: GameState, obj: GameObject, name: str) -> bool:
        """Whether the object has the property ``name`` (a designation on it)."""
        return core.mentions(state.designations, core.DESIGNATED, obj.id) and (
            (name, obj.id) in state.designations
        )

    def _give(self, state: GameState, obj: GameObject, name: str) -> GameState:
        return replace(state, designations=core.adding(state.designations, (name, obj.id)))

    def _unit_refused(self, state: GameState, obj: GameObject, rule: str) -> Rulings:
        """``rule``: only a unit on the field has this property. Empty: ``obj`` is one."""
        if obj.zone == FIELD and _typed(self._chars(state, obj), *UNIT_TYPES):
            return ()
        return self.cite(rule, "only a unit on the field has this property")

    # --- Distant -----------------------------------------------------------------------------

    def become_distant(self, state: GameState, a: BecomeDistant) -> Outcome:
        """Distant 1, 2: the unit becomes distant until the end of its controller's turn."""
        obj = state.objects[a.object]
        return self._mark_unit(
            state,
            obj,
            DISTANT,
            ("Distant 1", "Distant 2", "it is already distant"),
            f"distant until the end of {obj.controller}'s turn",
        )

    def _mark_unit(
        self, state: GameState, obj: GameObject, name: str, rules: tuple[str, str, str], why: str
    ) -> Outcome:
        """Give the unit ``obj`` the property ``name``; ``rules``: the rule refusing a
        non-unit, the rule of the property (cited with ``why``) and the reason it is had
        already (nothing happens)."""
        refused = self._unit_refused(state, obj, rules[0])
        if refused:
            return Outcome(state, ILLEGAL, refused)
        if self.has_property(state, obj, name):
            return Outcome(state, NOTHING, self.cite(rules[1], rules[2]))
        return Outcome(self._give(state, obj, name), DONE, self.cite(rules[1], why))

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """Distant 2, 3: the turn ends: the turn player's units stop being distant, with
        the other end of turn effects."""
        ending = state.active_player
        out = super().end_turn(state, a)
        gone = tuple(
            d
            for d in out.state.designations
            if d[0] == DISTANT
            and d[1] in out.state.objects
            and out.state.objects[d[1]].controller == ending
        )
        if not gone:
            return out
        kept = tuple(d for d in out.state.designations if d not in gone)
        why = f"the end of {ending}'s turn: their units stop being distant"
        return replace(
            out,
            state=replace(out.state, designations=kept),
            rulings=(*out.rulings, *self.cite("Distant 3", why)),
        )

    # --- Fostered ----------------------------------------------------------------------------

    def foster(self, state: GameState, a: Foster) -> Outcome:
        """Fostered 3: the unit becomes fostered; 4: only once (it stays fostered)."""
        obj = state.objects[a.object]
        if self.has_property(state, obj, FOSTERED):
            why = "an ally can only become fostered once"
            return Outcome(state, NOTHING, self.cite("Fostered 4", why))
        return self._mark_unit(
            state, obj, FOSTERED, ("Fostered 1", "Fostered 3", ""), "it becomes fostered"
        )

    # --- Link --------------------------------------------------------------------------------

    def link(self, state: GameState, a: Link) -> Outcome:
        """Link 1: the object enters linked to another object on the field (1.1: the linked
        object); if the link breaks it is sacrificed (the state-based checks)."""
        obj, to = state.objects[a.object], state.objects[a.to]
        if obj.zone != FIELD or to.zone != FIELD or obj.id == to.id:
            why = "an object on the field is linked to another object on the field"
            return Outcome(state, ILLEGAL, self.cite("Link 1", why))
        if LINK_ABILITY not in self._chars(state, obj).props.abilities:
            why = "only an object with Link links itself to another"
            return Outcome(state, ILLEGAL, self.cite("Link 1", why))
        state = self._give(state, obj, f"{LINK}{to.id}")
        return Outcome(state, DONE, self.cite("Link 1.1", "it is linked to that object"))

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """A move, then, when an object left the field while links exist, the state-based
        checks (Link 1: a link it broke sacrifices the linked-from object)."""
        left = state.objects[a.object].zone == FIELD
        out = super().move(state, a)
        if left and state.designations and any(d[0].startswith(LINK) for d in state.designations):
            return self._checked(out)
        return out

    def _failing_check(self, state: GameState) -> tuple[int, Rulings] | None:
        """The other checks, then Link 1: an object whose linked object left the field (its
        link broken) is sacrificed (an immortal one is not: Immortality 1.2)."""
        found = super()._failing_check(state)
        if found is not None or not state.designations:
            return found
        for name, oid in state.designations:
            if not name.startswith(LINK) or oid not in state.objects:
                continue
            holder, linked = state.objects[oid], state.objects.get(int(name[len(LINK) :]))
            if holder.zone != FIELD or (linked is not None and linked.zone == FIELD):
                continue
            if IMMORTALITY in self._chars(state, holder).props.abilities:
                continue
            why = "the object it is linked to left the field: the link is broken, it is sacrificed"
            return oid, self.cite("Link 1", why)
        return None


ACTIONS: Final[tuple[type[v.Action], ...]] = (BecomeDistant, Foster, Link)
