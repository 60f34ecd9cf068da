"""Flesh and Blood, looks with a duration (8.5.11a) and looks specified by a location
(8.5.11d): "you may look at the top card of your deck until end of turn".

A continuous look on an object lets the player look at it for the duration as if it were a
private object they owned (8.5.11a): a designation ``look:<player>`` on the object, which
ends with the turn. A look at the top card of a deck names a location: the card there is
determined as a game state action, and a new card there may be looked at only once a player
would gain priority (8.5.11d). The designation ``look_top:<player>:<deck owner>`` on no object
(id 0) is the look; the same name on the object last determined is the card it shows (gone
with that object when it leaves), renewed as a layer resolves (5.3.7), as a card is played
(its player then gets priority) and ended with the turn.
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from obverse import vocab as v
from obverse.rulesets.fab.arena import Look
from obverse.rulings import DONE, NOTHING, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only: the seam this one builds on (at run time a flat mixin)
    from obverse.rulesets.fab.arena import FabArena as _Base
else:
    _Base = object


replace = msgspec.structs.replace

#: Designation prefix: ``look:<player>`` on an object the player may look at this turn.
LOOK: Final = "look:"
#: Designation prefix: ``look_top:<player>:<owner>`` naming the top card last determined.
LOOK_TOP: Final = "look_top:"
#: The one duration a look takes.
END_OF_TURN: Final = "end_of_turn"


class LookAtTop(v.Action, frozen=True, tag="look_at_top"):
    """``player`` may look at the top card of ``of``'s deck until end of turn (8.5.11a,
    8.5.11d): a continuous look specified by a location."""

    player_fields = ("player", "of")
    viewer_field = "player"
    subject = None
    player: str
    of: str


class FabLook(_Base):
    """FaB's continuous looks: on an object for the turn, and at the top of a deck."""

    def look(self, state: GameState, a: Look) -> Outcome:
        """8.5.11a: with a duration (``until: end_of_turn``) a look is continuous: the player
        may look at the object for the turn as if it were a private object they owned; with
        none, :meth:`FabArena.look` (a discrete look: they learn it)."""
        if a.until is None:
            return super().look(state, a)
        obj = state.objects[a.object]
        if self.is_public_object(obj):
            return Outcome(state, NOTHING, self.cite("8.5.11c", "the object is public: it fails"))
        mark = (LOOK + a.player, obj.id)
        if mark not in state.designations:
            state = replace(state, designations=(*state.designations, mark))
        why = (
            f"a look until end of turn is continuous: {a.player} may look at it for the "
            "turn as if it were a private object they owned"
        )
        return Outcome(
            state,
            DONE,
            (
                self.cite("8.5.11a", why)
                + self.cite("8.5.11b", "it does not become public and stays in its zone")
            ),
        )

    def look_at_top(self, state: GameState, a: LookAtTop) -> Outcome:
        """8.5.11a, 8.5.11d: a continuous look at the top card of a deck, a location: the card
        there now may be looked at; a card that later takes its place only once a player
        would gain priority."""
        prefix = f"{LOOK_TOP}{a.player}:{a.of}"
        if (prefix, 0) in state.designations:
            why = f"{a.player} may already look at the top card of {a.of}'s deck"
            return Outcome(state, NOTHING, self.cite("8.5.11a", why))
        state = replace(state, designations=(*state.designations, (prefix, 0)))
        state = self.renew_location_looks(state)
        why = f"{a.player} may look at the top card of {a.of}'s deck until end of turn"
        where = "the card there is determined as a game state action"
        return Outcome(state, DONE, (self.cite("8.5.11a", why) + self.cite("8.5.11d", where)))

    def _deck_top(self, state: GameState, owner: str) -> int:
        """The id of the top card of ``owner``'s deck (0: it is empty)."""
        deck = state.zone_contents(self.zone_key("deck", owner))
        return deck[0] if deck else 0

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """8.5.11a: a continuous look's player may look at its object; 8.5.11d: at the top
        card of the deck the look names, if it is the card last determined there."""
        if viewer is not None and state.designations:
            if (LOOK + viewer, obj.id) in state.designations:
                return True
            if obj.zone == "deck" and (f"{LOOK_TOP}{viewer}:{obj.owner}", obj.id) in (
                state.designations
            ):
                return True
        return super().may_look(state, viewer, obj)

    def renew_location_looks(self, state: GameState) -> GameState:
        """8.5.11d: a player would gain priority: each look at a deck's top (``(name, 0)``)
        now names the card there (``(name, id)``; the mark of a card that left went with
        it)."""
        marks = state.designations
        looks = [d[0] for d in marks if d[1] == 0 and d[0].startswith(LOOK_TOP)]
        if not looks:
            return state
        kept = tuple(d for d in marks if d[1] == 0 or not d[0].startswith(LOOK_TOP))
        tops = [(name, self._deck_top(state, name.rsplit(":", 1)[1])) for name in looks]
        renewed = (*kept, *(t for t in tops if t[1]))
        return replace(state, designations=renewed) if renewed != marks else state

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        """After a layer resolves the turn-player gains priority (5.3.7): 8.5.11d."""
        out = super().resolve(state, a)
        return replace(out, state=self.renew_location_looks(out.state))

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """After a card is played its player gains priority: 8.5.11d."""
        out = super().cast(state, a)
        if out.result != DONE:
            return out
        return replace(out, state=self.renew_location_looks(out.state))

    def end_turn(self, state: GameState, a: v.EndTurn) -> Outcome:
        """The turn's looks end (8.5.11a: their duration is over)."""
        marks = tuple(d for d in state.designations if not d[0].startswith((LOOK, LOOK_TOP)))
        if marks != state.designations:
            state = replace(state, designations=marks)
        return super().end_turn(state, a)

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The others', and a look at the top of one's own deck (the effects that say so are
        the player's own)."""
        out = super().loose_candidates(state, player, verb)
        if verb in (None, "look_at_top"):
            who = (player,) if player else state.players
            out += [LookAtTop(player=p, of=q) for p in who for q in state.players]
        return out
