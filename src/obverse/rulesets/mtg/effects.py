"""Magic: The Gathering, the effects half: copy exceptions (707.9), color-changing effects
(105.3, layer 5), and +1/+1 and -1/-1 counters (122.1a, 613.4c) that annihilate in pairs as
a state-based action (704.5q, 122.3). :class:`obverse.rulesets.mtg.Magic` builds on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse.mana import COLORS
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import MagicFaces
from obverse.state import Effect, GameState

PLUS: Final = "+1/+1"
MINUS: Final = "-1/-1"


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaces
else:
    _Base = object


class MagicEffects(_Base):
    """MTG's continuous effects beyond faces: switches and the hooks of the procedures."""

    #: 122.1a: a +1/+1 counter adds 1 to power and toughness, a -1/-1 counter subtracts 1.
    pt_counters: ClassVar[Mapping[str, tuple[int, int]]] = {PLUS: (1, 1), MINUS: (-1, -1)}
    #: 105.1: the five colors, and the letters the cards' data uses.
    color_names: ClassVar[Mapping[str, str]] = dict(
        zip(("white", "blue", "black", "red", "green"), COLORS, strict=True)
    )

    def copy_exception_rulings(
        self, new: tuple[tuple[str, object], ...], inherited: tuple[tuple[str, object], ...]
    ) -> Rulings:
        """707.9a/b: exceptions become part of the copiable values; 707.2: a copy of that
        copy copies them too."""
        out: Rulings = ()
        keys = {k for k, _ in new}
        if keys - {"abilities", "add_abilities"}:
            out += self.cite(
                "copy_exception", "the exception is part of the copy's copiable values"
            )
        if keys & {"abilities", "add_abilities"}:
            out += self.cite(
                "copy_exception_ability", "the ability gained is part of the copiable values"
            )
        if inherited:
            out += self.cite(
                "copiable_values", "the copied object's copy exceptions are copiable values"
            )
        return out

    def effect_rulings(self, effect: Effect) -> Rulings:
        """105.3 / 613.1e: a color-changing effect replaces the colors (``color``) or adds
        to them (``add_color``), in layer 5."""
        keys = {k for k, _ in effect.modify}
        if not keys & {"color", "add_color"}:
            return ()
        how = "adds to its colors" if "color" not in keys else "replaces its colors"
        return self.cite("color_change", f"the new color {how}") + self.cite(
            "layer_color", "color-changing effects apply in layer 5"
        )

    def after_counters(
        self, state: GameState, obj_id: int, counter: str
    ) -> tuple[GameState, Rulings]:
        """122.1a: +1/+1 and -1/-1 counters change power and toughness (613.4c); 704.5q /
        122.3: with both on a permanent, N of each are removed (N the smaller count)."""
        if counter not in self.pt_counters:
            return state, ()
        rulings = self.cite(
            "counter_pt", f"each {counter} counter changes its power and toughness"
        ) + self.cite("pt_counters", "counters apply in layer 7c, with other modifying effects")
        obj = state.objects[obj_id]
        counts = dict(obj.counters)
        n = min(counts.get(PLUS, 0), counts.get(MINUS, 0))
        if n == 0 or not self.is_in_play(obj.zone):
            return state, rulings
        counts[PLUS] -= n
        counts[MINUS] -= n
        kept = tuple(sorted((k, c) for k, c in counts.items() if c))
        state = core.update(state, msgspec.structs.replace(obj, counters=kept))
        why = f"{n} +1/+1 and {n} -1/-1 counters are removed"
        return state, rulings + (
            self.cite("counter_annihilation", f"state-based action: {why}")
            + self.cite("counter_pairs", "a permanent doesn't keep both kinds of counter")
        )
