"""What a player may be offered now: the candidate actions, per verb and per object.

:meth:`Offers.candidates` is the whole list (:func:`obverse.engine.legal_actions` tries each);
it is the union of the per-object generators (:meth:`Offers.candidates_on`, one object and one
verb) and the actions naming no object (:meth:`Offers.loose_candidates`). Random play draws
from one generator at a time (:meth:`Offers.draw_on`), never listing the board.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, NamedTuple

import immutables

from obverse import vocab as v
from obverse.rulesets.hooks import Hooks
from obverse.state import GameObject, GameState


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

    #: Verbs whose candidates on an object name other objects too: :meth:`several_on` makes
    #: them (becoming a copy of another object; MTG adds melding).
    several_verbs: ClassVar[frozenset[str]] = frozenset({"become_copy"})

    def candidates_on(
        self, state: GameState, player: str | None, o: GameObject, verb: str
    ) -> list[v.Action]:
        """The candidates of ``verb`` :meth:`candidates` generates on ``o`` (the first object
        they name): none if ``player`` may not refer to it."""
        if verb in self.several_verbs:
            return self.several_on(state, player, o, verb)
        make = (_TABLES.get(type(self)) or _table(type(self))).makers.get(verb)
        if make is None:  # most verbs have no generator on most objects: nothing to make
            return []
        out = make(self, state, player or o.owner, o)
        # Asked last: most draws find no candidate of the verb on the object, and whether the
        # player may refer to it costs more than listing the few there are.
        if not out or (player is not None and not self.may_refer(state, player, o)):
            return []
        return out

    def several_on(
        self, state: GameState, player: str | None, o: GameObject, verb: str
    ) -> list[v.Action]:
        """:meth:`candidates_on` for a verb of :attr:`several_verbs`: ``o`` becoming a copy of
        each other object in play the player may refer to (after any candidates of the verb's
        own generators)."""
        out = _offers_on(self, state, player or o.owner, o, verb)
        copies = verb == "become_copy" and self.is_in_play(o.zone)
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
        if verb == "become_copy" and not _offers_on(self, state, player or o.owner, o, verb):
            if not self.is_in_play(o.zone):
                return None
            if player is not None and not self.may_refer(state, player, o):
                return None
            objects = objects_in_order(state)
            x = objects[int(rng.random() * len(objects))]
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
            for zone, key in _shuffled_zones(self, who):
                if state.zones.get(key):
                    out.append(v.Shuffle(player=who, zone=zone))
        return out

    #: This class's own per-object generators, in the order :meth:`object_candidates` lists
    #: them (after those of the classes it extends): ``(verb, method name)`` pairs, each method
    #: ``(state, player, o)`` giving that verb's candidates on ``o``. A generator of a verb
    #: outside the vocabulary is never asked. Random play asks only the verb's generators.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("move", "_offer_moves"),
        ("resolve", "_offer_resolve"),
        ("cast", "_offer_casts"),
        ("turn_face_down", "_offer_turn_face_down"),
        ("turn_face_up", "_offer_turn_face_up"),
        ("examine", "_offer_examine"),
        ("reveal", "_offer_reveal"),
        ("add_counters", "_offer_add_counters"),
        ("create_token_copy", "_offer_token_copy"),
        ("change_control", "_offer_change_control"),
        ("transform", "_offer_transform"),
    )

    def object_candidates(
        self, state: GameState, player: str, o: GameObject, verb: str | None = None
    ) -> list[v.Action]:
        """Candidate actions on one object ``player`` may refer to (``verb``: only that
        verb's, in the same order): the generators of :attr:`object_offers` in order. An
        override keeps to ``verb`` as this one does."""
        out: list[v.Action] = []
        if verb is None:
            for _verb, make in _table(type(self)).every:
                out += make(self, state, player, o)
        else:
            for make in _table(type(self)).by_verb.get(verb, ()):
                out += make(self, state, player, o)
        return out

    def _offer_moves(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        # Never onto the stack: casting puts a card there.
        return [v.Move(object=o.id, to=zone) for zone in _move_targets(self, o.zone)]

    def _offer_resolve(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Resolve(object=o.id)] if o.zone == self.stack_zone else []

    def _offer_casts(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone == self.stack_zone or self.is_in_play(o.zone):
            return []
        card = state.card_def(o)
        if len(card.faces) < 2:
            return [v.Cast(object=o.id)]
        faces = sorted(self.allowed_faces(card, self.stack_zone))
        return [v.Cast(object=o.id, face=f) for f in faces]  # type: ignore[arg-type]

    def _offer_turn_face_down(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.TurnFaceDown(object=o.id)]

    def _offer_turn_face_up(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.TurnFaceUp(object=o.id)]

    def _offer_examine(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Examine(player=player, object=o.id)]

    def _offer_reveal(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Reveal(object=o.id)]

    def _offer_add_counters(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if not self.is_in_play(o.zone):
            return []
        return [v.AddCounters(object=o.id, counter="+1/+1")]

    def _offer_token_copy(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.CreateTokenCopy(of=o.id)] if self.is_in_play(o.zone) else []

    def _offer_change_control(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if not self.is_in_play(o.zone):
            return []
        return [v.ChangeControl(object=o.id, to=p) for p in state.players if p != o.controller]

    def _offer_transform(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Transform(object=o.id)]


#: A per-object generator (an :attr:`Offers.object_offers` method, unbound).
Offer = Callable[[Any, GameState, str, GameObject], list[v.Action]]


class _Table(NamedTuple):
    """A ruleset class's per-object generators: ``every`` ``(verb, generator)`` in order and
    ``by_verb`` each verb's generators in that order (what :meth:`Offers.object_candidates`
    asks); ``makers``, per verb, the one call making that verb's candidates on an object
    (:meth:`Offers.candidates_on` asks it): its generators themselves, or, where a class
    overrides ``object_candidates``, that override."""

    every: tuple[tuple[str, Offer], ...]
    by_verb: dict[str, tuple[Offer, ...]]
    makers: dict[str, Offer]


def _offers_on(
    rs: Offers, state: GameState, player: str, o: GameObject, verb: str
) -> list[v.Action]:
    """``rs.object_candidates(state, player, o, verb)`` (a new list), asking only the
    verb's generators when no override stands between."""
    make = (_TABLES.get(type(rs)) or _table(type(rs))).makers.get(verb)
    return [] if make is None else make(rs, state, player, o)


_TABLES: dict[type[Offers], _Table] = {}


def _table(cls: type[Offers]) -> _Table:
    """``cls``'s generators: each class's :attr:`Offers.object_offers`, base classes first
    (the order of ``super()`` calls), found once per class (a subclass overriding a generator
    method gets its own)."""
    found = _TABLES.get(cls)
    if found is None:
        verbs = {v.verb_of(a) for a in cls.vocabulary()}
        every = tuple(
            (verb, getattr(cls, name))
            for k in reversed(cls.__mro__)
            for verb, name in vars(k).get("object_offers", ())
            if verb in verbs
        )
        by_verb: dict[str, tuple[Offer, ...]] = {}
        for verb, make in every:
            by_verb[verb] = (*by_verb.get(verb, ()), make)
        if cls.object_candidates is Offers.object_candidates:
            makers = {verb: _joined(gens) for verb, gens in by_verb.items()}
        else:  # an override may add to any verb naming an object
            makers = {v.verb_of(a): _asking(v.verb_of(a)) for a in cls.vocabulary() if a.refs}
        found = _TABLES[cls] = _Table(every, by_verb, makers)
    return found


def _joined(gens: tuple[Offer, ...]) -> Offer:
    """One call making what ``gens`` make, in order."""
    if len(gens) == 1:
        return gens[0]

    def make(rs: Any, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        out: list[v.Action] = []
        for gen in gens:
            out += gen(rs, state, player, o)
        return out

    return make


def _asking(verb: str) -> Offer:
    """One call asking a ruleset's ``object_candidates`` override for ``verb``'s."""

    def make(rs: Any, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return rs.object_candidates(state, player, o, verb)  # type: ignore[no-any-return]

    return make


_SHUFFLED: dict[tuple[type[Offers], str], tuple[tuple[str, str], ...]] = {}


def _shuffled_zones(rs: Offers, who: str) -> tuple[tuple[str, str], ...]:
    """``who``'s unordered zones of their own, sorted, each with its key (a function of the
    class and the player, found once each)."""
    found = _SHUFFLED.get((type(rs), who))
    if found is None:
        if len(_SHUFFLED) > 1024:  # players are named by callers: keep a bounded few
            _SHUFFLED.clear()
        found = _SHUFFLED[type(rs), who] = tuple(
            (zone, rs.zone_key(zone, who))
            for zone in _zones_in_order(type(rs))
            if zone not in rs.ordered_zones and not rs.is_shared(zone)
        )
    return found


_MOVE_TARGETS: dict[tuple[type[Offers], str], tuple[str, ...]] = {}


def _move_targets(rs: Offers, zone: str) -> tuple[str, ...]:
    """The zones an object in ``zone`` is offered to move to, sorted: every zone it isn't in
    but the stack (a function of the class and the zone, found once each)."""
    found = _MOVE_TARGETS.get((type(rs), zone))
    if found is None:
        found = _MOVE_TARGETS[type(rs), zone] = tuple(
            z
            for z in _zones_in_order(type(rs))
            if not rs.zone_matches(zone, z) and z != rs.stack_zone
        )
    return found


def objects_in_order(state: GameState) -> tuple[GameObject, ...]:
    """Every object, in the object table's own order (the same for equal states, as it
    depends on the ids only): random play draws from it. The last table's objects are kept
    (most draws see the same table)."""
    objects = state.objects
    kept = _IN_ORDER[0]
    if kept is not None and kept[0] is objects:
        return kept[1]
    found = tuple(objects.values())
    _IN_ORDER[0] = (objects, found)  # the map held, so its identity can't be reused
    return found


_IN_ORDER: list[tuple[immutables.Map[int, GameObject], tuple[GameObject, ...]] | None] = [None]


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


__all__ = ["Offers", "objects_in_order"]
