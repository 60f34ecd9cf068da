"""Magic: The Gathering copies of spells (707.10): ``copy_spell`` puts a copy of a spell onto
the stack, for every layout, and the copy resolves as the spell would: a copy of a permanent
spell becomes a token permanent (707.10f, 608.3f; of a double-faced spell, a double-faced
token with the same face up, 707.10g), and anywhere but the stack and the battlefield a copy
of a spell ceases to exist (707.10a).

A copy is made of the same printed card as the spell (an Adventure, Omen, prototyped or split
half, a Room's door or a double-faced face: the face up is the decision copied, 707.10;
715.3c, 720.3c, 718.3c, 709.5b), under the same copy effects; it carries the
``spell_copy`` designation while it is a spell. A copy of a face-down spell is a nameless
2/2 creature spell (its copiable values, 708.2a), so it tells nothing of the hidden card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import FACE_DOWN
from obverse.rulesets.mtg.moves import MagicMoves
from obverse.rulings import DONE, NOTHING, Event, Outcome
from obverse.state import CopyValues, GameObject, GameState

replace = msgspec.structs.replace

#: The designation of a copy of a spell while it is one (on the stack).
SPELL_COPY: Final = "spell_copy"
#: The printed card a copy of a face-down spell is made of: its face-down values (708.2a).
FACE_DOWN_COPY: Final = CardDef(name="Face-down spell copy", faces=(FACE_DOWN,))

__all__ = ["SPELL_COPY", "CopySpell", "MagicCopies"]


class CopySpell(v.Action, frozen=True, tag="copy_spell"):
    """Put a copy of the spell ``object`` onto the stack (707.10), controlled and owned by
    ``controller`` (default: the spell's controller). ``answer`` is the copy's card id."""

    refs = ("object",)
    player_fields = ("controller",)
    creates = True
    answers_card = True
    object: int
    controller: str | None = None


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicMoves
else:
    _Base = object


class MagicCopies(_Base):
    """Copies of spells on top of MTG's face rules."""

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("copy_spell", "_offer_copy_spell"),)
    #: :meth:`leaving` has a say about a copy of a spell (707.10a).
    leaving_marks: ClassVar[tuple[str, ...]] = (SPELL_COPY,)

    def _offer_copy_spell(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [CopySpell(object=o.id)] if o.zone == self.stack_zone else []

    def copy_spell(self, state: GameState, a: CopySpell) -> Outcome:
        """707.10: a copy of the spell goes onto the stack, with its characteristics and the
        decisions made for it (the face or half cast); it isn't cast, and its controller
        (the player under whose control it was put on the stack) owns it."""
        of = state.objects[a.object]
        if of.zone != self.stack_zone:
            why = f"only a spell on the stack can be copied, not an object in the {of.zone}"
            return Outcome(state, NOTHING, self.cite("copy_spell", why))
        who = a.controller or of.controller
        copies: tuple[CopyValues, ...] = ()
        if of.face_down:
            card, face = FACE_DOWN_COPY, "front"
            rulings = self.cite("face_down_chars", "its copiable values are a nameless 2/2")
        else:
            card, face, copies = state.card_def(of), of.face, of.copies
            rulings = self._copy_rulings(state, of, card)
        state, card_id = self.add_card(
            state, card, self.stack_zone, owner=who, controller=who, face=face, token=True
        )
        obj = state.object_of_card(card_id)
        assert obj is not None
        # A copy of a spell is a spell, not a token (707.10); it becomes one as it resolves.
        state = core.update(state, replace(obj, copies=copies, token=False))
        state = replace(state, designations=(*state.designations, (SPELL_COPY, obj.id)))
        why = f"a copy of the spell is put onto the stack under {who}'s control; it isn't cast"
        rulings = self.cite("copy_spell", why) + rulings
        event = Event("copy_spell", obj.id, card_id, who)
        return Outcome(state, DONE, rulings, (event,), answer=card_id)

    def _copy_rulings(self, state: GameState, of: GameObject, card: CardDef) -> Rulings:
        """The layout's rule for what the copy is (707.10g, 715.3c, 720.3c, 718.3c,
        709.5b)."""
        said = self.layout_rule(card.layout, card.faces).spell_copy  # Adventure, Omen ...
        if said is not None and of.face == "back" and len(card.faces) > 1:
            topic, why = said
            if topic in self.rule_ids:
                return self.cite(topic, why)
        if self.is_double_faced(card) and "copy_dfc_spell" in self.rule_ids:
            why = f"a copy of a double-faced spell has both faces, {of.face} face up"
            return self.cite("copy_dfc_spell", why)
        rooms = card.layout == "split" and all("Room" in f.subtypes for f in card.faces)
        if rooms and len(card.faces) == 2 and "room_copiable" in self.rule_ids:
            why = "both halves of a Room spell are copiable values, the cast door too"
            return self.cite("room_copiable", why)
        return ()

    def leaving(
        self, state: GameState, obj: GameObject, to: str
    ) -> tuple[GameState, str, Rulings, Outcome | None]:
        """707.10a: a copy of a spell going anywhere but the battlefield ceases to exist."""
        state, to, rulings, done = super().leaving(state, obj, to)
        mark = (SPELL_COPY, obj.id)
        if done is not None or not core.designated(state.designations, mark):
            return state, to, rulings, done
        state = replace(state, designations=tuple(d for d in state.designations if d != mark))
        if to == self.play_zone:
            return state, to, rulings, None
        state = core.forget(self.remove(state, obj), obj.id)
        why = f"a copy of a spell in the {to} ceases to exist"
        ceased = Outcome(
            state, DONE, self.cite("copy_spell_ceases", why), (Event("cease", obj.id, obj.card),)
        )
        return state, to, rulings, ceased

    def moved(self, state: GameState, old: GameObject, to: str) -> tuple[GameState, Rulings]:
        """707.10f, 608.3f: a copy of a permanent spell resolving becomes a token."""
        state, rulings = super().moved(state, old, to)
        new = state.object_of_card(old.card)
        if old.zone != self.stack_zone or new is None or new.zone != self.play_zone:
            return state, rulings
        if not state.cards[old.card].token or old.token or new.token:
            return state, rulings
        state = core.update(state, replace(new, token=True))
        more: Rulings = ()
        for topic, why in (
            ("copy_permanent_spell", "as the copy resolves it becomes a token permanent"),
            ("copy_token_resolves", "that token is no longer a copy of a spell"),
        ):
            if topic in self.rule_ids:  # 2020: numbers no seed confirms
                more += self.cite(topic, why)
        return state, more + rulings
