"""What a player may be offered now: the candidate actions, per verb and per object.

:meth:`Offers.candidates` is the whole list (:func:`obverse.engine.legal_actions` tries each);
it is the union of the per-object generators (:meth:`Offers.candidates_on`, one object and one
verb) and the actions naming no object (:meth:`Offers.loose_candidates`). Random play draws
from one generator at a time (:meth:`Offers.draw_on`), never listing the board.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import NamedTuple

from obverse import vocab as v
from obverse.rulesets.hooks import Hooks
from obverse.state import GameObject, GameState, object_ids


class CandidatePart(NamedTuple):
    """A part of the candidates (see :meth:`Offers.candidate_parts`): ``actions`` (naming no
    object, or several at once); else the candidates on ``obj``, its own
    (:meth:`Offers.object_candidates`) or, with ``in_play``, becoming a copy of each other
    object of ``in_play``."""

    actions: list[v.Action] | None = None
    obj: GameObject | None = None
    in_play: list[GameObject] | None = None


class Offers(Hooks):
    """The candidate generators of a :class:`~obverse.rulesets.Ruleset` (its base class)."""

    @classmethod
    def vocabulary(cls) -> tuple[type[v.Action], ...]:
        """Every action and query of this ruleset (decided by the Ruleset)."""
        raise NotImplementedError

    def may_refer(self, state: GameState, actor: str, obj: GameObject) -> bool:
        """Whether ``actor`` may name ``obj`` in an action (decided by the Ruleset)."""
        raise NotImplementedError

    def candidates(
        self,
        state: GameState,
        player: str | None,
        verb: str | None = None,
        acting: Callable[[GameObject], bool] | None = None,
    ) -> list[v.Action]:
        """Actions worth offering ``player`` now, before the kernel's checks: every verb on
        every object they may refer to (``None``: every object, as a judge), with the
        choices the rules offer; with ``verb``, only that verb's, in the same order. With
        ``acting``, only the actions whose first object passes it (asked once per object,
        before its candidates are made: the same list, filtered, in the same order).

        The list is the union of the per-object generators (:meth:`candidates_on`, for each
        object and verb) and the actions naming no object (:meth:`loose_candidates`); random
        play draws from one generator at a time. Games add their own verbs by overriding
        :meth:`object_candidates`."""
        if verb is not None and verb not in _object_verbs(type(self)):  # random play's
            # frequent ask (ending the turn, shuffling): no object's part, only the others
            out: list[v.Action] = [v.EndTurn()] if verb == "end_turn" else []
            out += self.loose_candidates(state, player, verb)
            return out + self.extra_candidates(state, player, verb, acting)
        out = []
        for actions, o, in_play in self.candidate_parts(state, player, verb, acting):
            if actions is not None:
                out += actions
            elif o is not None and in_play is None:
                out += self.object_candidates(state, player or o.owner, o, verb)
            elif o is not None and in_play is not None:
                out += self.copy_candidates(o, in_play)
        return out

    def candidate_parts(
        self,
        state: GameState,
        player: str | None,
        verb: str | None = None,
        acting: Callable[[GameObject], bool] | None = None,
    ) -> Iterator[CandidatePart]:
        """:meth:`candidates` in parts, in order (what a cache keeps apart; see
        :class:`CandidatePart`); the candidates on an object are made as ``player`` (a
        judge: as the object's owner)."""
        if verb in (None, "end_turn"):
            yield CandidatePart([v.EndTurn()])
        if verb is None or verb in _object_verbs(type(self)):
            mine = [
                o
                for o in state.iter_objects()
                if player is None or self.may_refer(state, player, o)
            ]
            acts = mine if acting is None else [o for o in mine if acting(o)]
            for o in acts:
                yield CandidatePart(obj=o)
            if verb in (None, "become_copy"):
                in_play = [o for o in mine if self.is_in_play(o.zone)]
                copying = in_play if acting is None else [o for o in acts if o in in_play]
                for o in copying:
                    yield CandidatePart(obj=o, in_play=in_play)
        yield CandidatePart(self.loose_candidates(state, player, verb))
        yield CandidatePart(self.extra_candidates(state, player, verb, acting))

    def copy_candidates(self, o: GameObject, in_play: list[GameObject]) -> list[v.Action]:
        """``o`` becoming a copy of each other object in ``in_play`` (objects in play the
        player may refer to: then each is a partner, as :meth:`_copy_partner` decides)."""
        return [v.BecomeCopy(object=o.id, of=x.id) for x in in_play if x.id != o.id]

    def extra_candidates(
        self,
        state: GameState,
        player: str | None,
        verb: str | None = None,
        acting: Callable[[GameObject], bool] | None = None,
    ) -> list[v.Action]:
        """Candidates naming several objects at once (none here; MTG's melds), after the
        others; with ``acting``, only those whose first object passes it."""
        return []

    def candidates_on(
        self, state: GameState, player: str | None, o: GameObject, verb: str
    ) -> list[v.Action]:
        """The candidates of ``verb`` :meth:`candidates` generates on ``o`` (the first object
        they name): none if ``player`` may not refer to it."""
        out = self.object_candidates(state, player or o.owner, o, verb)
        copies = verb == "become_copy" and self.is_in_play(o.zone)
        # Asked last: most draws find no candidate of the verb on the object, and whether the
        # player may refer to it costs more than listing the few there are.
        if not (out or copies) or (player is not None and not self.may_refer(state, player, o)):
            return []
        if copies:
            out += [
                v.BecomeCopy(object=o.id, of=x.id)
                for x in state.objects.values()
                if self._copy_partner(state, player, o, x)
            ]
        return out

    def draw_on(
        self,
        state: GameState,
        player: str | None,
        o: GameObject,
        verb: str,
        rng: random.Random,
    ) -> v.Action | None:
        """One of :meth:`candidates_on` at random, each as likely (``None``: there is none,
        or this draw found none): what random play draws. Becoming a copy draws the other
        object among all and keeps it if it is a partner (each partner as likely), rather
        than asking of every object in play whether the player may refer to it."""
        if verb == "become_copy" and not self.object_candidates(state, player or o.owner, o, verb):
            if not self.is_in_play(o.zone):
                return None
            if player is not None and not self.may_refer(state, player, o):
                return None
            ids = object_ids(state)
            x = state.objects[ids[int(rng.random() * len(ids))]]
            if not self._copy_partner(state, player, o, x):
                return None
            return v.BecomeCopy(object=o.id, of=x.id)
        pool = self.candidates_on(state, player, o, verb)
        return pool[int(rng.random() * len(pool))] if pool else None

    def _copy_partner(
        self, state: GameState, player: str | None, o: GameObject, x: GameObject
    ) -> bool:
        """Whether ``o`` in play may be offered to become a copy of ``x``: another object in
        play the player may refer to."""
        if x.id == o.id or not self.is_in_play(x.zone):
            return False
        return player is None or self.may_refer(state, player, x)

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The candidates naming no object, after the per-object ones (ending the turn comes
        first in :meth:`candidates`): shuffling each of the player's unordered zones that
        holds anything."""
        out: list[v.Action] = []
        if verb not in (None, "shuffle"):
            return out
        for who in (player,) if player else state.players:
            for zone in _zones_in_order(type(self)):
                if zone in self.ordered_zones or self.is_shared(zone):
                    continue
                if state.zones.get(self.zone_key(zone, who)):
                    out.append(v.Shuffle(player=who, zone=zone))
        return out

    def object_candidates(
        self, state: GameState, player: str, o: GameObject, verb: str | None = None
    ) -> list[v.Action]:
        """Candidate actions on one object ``player`` may refer to (``verb``: only that
        verb's, in the same order; an override keeps to it as this one does)."""
        out: list[v.Action] = []
        if verb in (None, "move"):
            for zone in _zones_in_order(type(self)):
                if not self.zone_matches(o.zone, zone) and zone != self.stack_zone:
                    out.append(v.Move(object=o.id, to=zone))
        if o.zone == self.stack_zone:
            if verb in (None, "resolve"):
                out.append(v.Resolve(object=o.id))
        elif verb in (None, "cast") and not self.is_in_play(o.zone):
            card = state.card_def(o)
            faces = (
                sorted(self.allowed_faces(card, self.stack_zone)) if len(card.faces) > 1 else [None]
            )
            out += [v.Cast(object=o.id, face=f) for f in faces]  # type: ignore[arg-type]
        if verb in (None, "turn_face_down"):
            out.append(v.TurnFaceDown(object=o.id))
        if verb in (None, "turn_face_up"):
            out.append(v.TurnFaceUp(object=o.id))
        if verb in (None, "examine"):
            out.append(v.Examine(player=player, object=o.id))
        if verb in (None, "reveal"):
            out.append(v.Reveal(object=o.id))
        if self.is_in_play(o.zone):
            if verb in (None, "add_counters"):
                out.append(v.AddCounters(object=o.id, counter="+1/+1"))
            if verb in (None, "create_token_copy"):
                out.append(v.CreateTokenCopy(of=o.id))
            if verb in (None, "change_control"):
                out += [
                    v.ChangeControl(object=o.id, to=p) for p in state.players if p != o.controller
                ]
        if verb in (None, "transform") and v.Transform in self.vocabulary():
            out.append(v.Transform(object=o.id))
        return out


_OBJECT_VERBS: dict[type[Offers], frozenset[str]] = {}


def _object_verbs(cls: type[Offers]) -> frozenset[str]:
    """The verbs of ``cls`` whose actions name an object: only they have per-object
    candidates."""
    found = _OBJECT_VERBS.get(cls)
    if found is None:
        found = _OBJECT_VERBS[cls] = frozenset(v.verb_of(a) for a in cls.vocabulary() if a.refs)
    return found


_ZONES: dict[type[Offers], tuple[str, ...]] = {}


def _zones_in_order(cls: type[Offers]) -> tuple[str, ...]:
    """The zones of ``cls`` sorted by name, as candidates list them (sorted once)."""
    found = _ZONES.get(cls)
    if found is None:
        found = _ZONES[cls] = tuple(sorted(cls.zones))
    return found


__all__ = ["Offers"]
