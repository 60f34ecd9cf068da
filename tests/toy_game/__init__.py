"""A toy game outside the obverse package: the smallest third-party ruleset.

It shows what a game module declares: zones (``table`` public and in play, ``hand``
private, ``stack``, ``pile`` where resolved cards go), one verb of its own as data
(:class:`Tap`, a typed action) with the procedure of the same name (:meth:`Toy.tap`), the
rule ids its rulings cite, and ``RULESETS`` for the ``obverse.rulesets`` entry-point
group::

    [project.entry-points."obverse.rulesets"]
    toy = "toy_game:RULESETS"
"""

from __future__ import annotations

from typing import ClassVar, Final

from msgspec.structs import replace

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.rulesets import Ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Event, Outcome
from obverse.state import GameObject, GameState

# The toy's rule ids: the numbering its rulings cite.
ZONES_RULE: Final = "T1"
TAP_RULE: Final = "T2"
TAPPED_RULE: Final = "T2.1"
NEW_OBJECT_RULE: Final = "T3"
HIDDEN_RULE: Final = "T4"
FORBID_RULE: Final = "T5"

#: The counter that marks a tapped object (it leaves with the object: a new object is untapped).
TAPPED: Final = "tapped"


class Tap(v.Action, frozen=True, tag="tap"):
    """Tap an untapped object on the table."""

    refs = ("object",)
    object: int


class Toy(Ruleset):
    """The toy game: cards go from hand to the stack to the table; cards on the table tap."""

    aliases: ClassVar[tuple[str, ...]] = ("toy",)
    game: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy game"
    zones: ClassVar[frozenset[str]] = frozenset({"table", "hand", "stack", "pile"})
    public_zones: ClassVar[frozenset[str]] = frozenset({"table", "stack", "pile"})
    play_zone: ClassVar[str] = "table"
    discard_zone: ClassVar[str] = "pile"
    actions: ClassVar[tuple[type[v.Action], ...]] = (Tap,)
    forbid_rule: ClassVar[str] = FORBID_RULE
    new_object_rule: ClassVar[str] = NEW_OBJECT_RULE
    hidden_rule: ClassVar[str] = HIDDEN_RULE

    @classmethod
    def sample_cards(cls) -> tuple[CardDef, ...]:
        """The toy has no bundled cards: random play (and the conformance kit) deals these."""
        return tuple(
            CardDef(name=name, faces=(Face(name=name, types=("Gadget",)),))
            for name in ("Lantern", "Kite", "Spinning Top", "Yo-yo")
        )

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        """Every toy card resolves onto the table."""
        return True

    def tap(self, state: GameState, a: Tap) -> Outcome:
        """Tap an object on the table; tapping a tapped object does nothing."""
        obj = state.objects[a.object]
        if not self.is_in_play(obj.zone):
            reason = f"only a card on the table taps, not one in {obj.zone}"
            return Outcome(state, ILLEGAL, (self.ruling(TAP_RULE, reason),))
        counters = dict(obj.counters)
        if counters.get(TAPPED):
            reason = "the card is already tapped"
            return Outcome(state, NOTHING, (self.ruling(TAPPED_RULE, reason),))
        counters[TAPPED] = 1
        state = core.update(state, replace(obj, counters=tuple(sorted(counters.items()))))
        event = Event("tap", obj.id, obj.card, obj.controller)
        return Outcome(state, DONE, (self.ruling(TAP_RULE, "a card on the table taps"),), (event,))

    def object_candidates(
        self, state: GameState, player: str, o: GameObject, verb: str | None = None
    ) -> list[v.Action]:
        """The shared candidates and a tap of each object (``verb``: only that verb's)."""
        out = super().object_candidates(state, player, o, verb)
        return [*out, Tap(object=o.id)] if verb in (None, "tap") else out


RULESETS: tuple[type[Ruleset], ...] = (Toy,)

__all__ = ["RULESETS", "Tap", "Toy"]
