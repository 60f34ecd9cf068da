"""What a player may be offered now: the candidate actions, per verb and per object.

:meth:`Offers.candidates` is the whole list (:func:`obverse.engine.legal_actions` tries each);
it is the union of the per-object generators (:meth:`Offers.candidates_on`, one object and one
verb) and the actions naming no object (:meth:`Offers.loose_candidates`). Random play draws
from one generator at a time (:meth:`Offers.draw_on`), never listing the board.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import msgspec

from obverse import memo
from obverse import vocab as v
from obverse.rulesets.hooks import Hooks
from obverse.state import FACES, GameObject, GameState


class CandidatePart(NamedTuple):
    """A part of the candidates (see :meth:`Offers.candidate_parts`): ``actions`` (naming no
    object, or several at once); else the candidates on ``obj``, its own
    (:meth:`Offers.object_candidates`) or, with ``in_play``, becoming a copy of each other
    object of ``in_play``."""

    actions: list[v.Action] | None = None
    obj: GameObject | None = None
    in_play: list[GameObject] | None = None


class Targets(NamedTuple):
    """An offer with a free target (becoming a copy *of*, melding *with* ...): ``action``
    names the first choice in ``field``; the choices are ``ids`` less ``excluded`` (``ids``
    is shared by every object's offer of the verb: one list, not one per object). With
    ``each``, each choice is decided by itself (a small set whose choices differ); else the
    first decides for all (the verb's rule reads nothing of the choice the set doesn't)."""

    action: v.Action
    field: str
    ids: tuple[int, ...]
    excluded: frozenset[int] = frozenset()
    each: bool = False


class OfferContext:
    """What one offers call finds once for every object (:meth:`Offers.target_offers_on`):
    the shared target sets, by key. A fast path may hand the same sets on to later calls."""

    def __init__(self, rs: Offers, state: GameState, seat: str | None) -> None:
        self.rs, self.state, self.seat = rs, state, seat
        self.sets: dict[Any, tuple[int, ...]] = {}
        self._objects: list[GameObject] | None = None

    def objects(self) -> list[GameObject]:
        """Every object, in id order (listed once a call)."""
        if self._objects is None:
            self._objects = list(self.state.iter_objects())
        return self._objects

    def shared(self, key: Any, make: Callable[[], tuple[int, ...]]) -> tuple[int, ...]:
        """The set kept under ``key`` this call (made once)."""
        found = self.sets.get(key)
        if found is None:
            found = self.sets[key] = make()
        return found

    def subset(
        self, key: Any, within: str, pick: Callable[[Sequence[int]], list[int]]
    ) -> tuple[int, ...]:
        """The objects of the call's set ``within`` (``"referable"`` or ``"identified"``)
        that belong to the set shared under ``key``, by id: ``pick`` gives those of the ids
        it is given that belong, each decided by its object alone (and what ``key``
        names), so a fast path finds the set from the latest call's, giving ``pick`` only
        the objects that changed since."""
        return self.shared(key, lambda: tuple(pick(getattr(self, within)())))

    def referable(self) -> tuple[int, ...]:
        """The objects the seat may refer to, by id."""
        rs, state, seat = self.rs, self.state, self.seat
        return self.shared(
            "referable",
            lambda: tuple(
                o.id for o in self.objects() if seat is None or rs.may_refer(state, seat, o)
            ),
        )

    def identified(self) -> tuple[int, ...]:
        """The objects whose card the seat can identify (:meth:`Offers.may_identify`), by
        id: the choices of a verb whose procedure reads the chosen card
        (:attr:`~obverse.vocab.Action.reads_choice`)."""
        rs, state, seat = self.rs, self.state, self.seat
        return self.shared(
            "identified",
            lambda: tuple(o.id for o in self.objects() if rs.may_identify(state, seat, o)),
        )

    def in_play(self) -> tuple[int, ...]:
        """The objects in play the seat may refer to, by id."""
        rs, objects = self.rs, self.state.objects
        return self.subset(
            "in_play", "referable", lambda ids: [x for x in ids if rs.is_in_play(objects[x].zone)]
        )


if TYPE_CHECKING:  # a sibling base of Ruleset beside Hooks: typed as Hooks, based on object
    _Base = Hooks
else:
    _Base = object


class Offers(_Base):
    """The candidate generators of a :class:`~obverse.rulesets.Ruleset` (one of its two bases,
    ``Ruleset(Offers, Hooks)``: the generators read the hooks)."""

    def may_act(self, state: GameState, seat: str | None, obj: GameObject) -> bool:
        """The seat policy: whether ``seat`` may take an action whose main object (its
        subject, else the first object it names) is ``obj``. A player acts with objects they
        own or control and can identify (the rules or kept knowledge: never a card they can't
        tell); the judge (``None``) with any. The one statement of it: offers, the web
        sandbox and :func:`obverse.engine.is_legal` ask it."""
        if seat is None:
            return True
        if seat != obj.owner and seat != obj.controller:
            return False
        return self.may_identify(state, seat, obj)

    def may_act_on(self, state: GameState, seat: str | None, action: v.Action) -> bool:
        """:meth:`may_act` of ``action``'s main object, and the seat's other limits: a player
        acts as themself (an answer or a shuffle of their own), only the judge starts the
        game."""
        if seat is None:
            return True
        if isinstance(action, v.StartGame):
            return False
        cls = type(action)
        as_whom = cls.viewer_field or ("player" if isinstance(action, v.Shuffle) else None)
        if as_whom is not None and getattr(action, as_whom) != seat:
            return False
        main = cls.subject or (cls.refs[0] if cls.refs else None)
        if main is None:
            return True
        value = getattr(action, main)
        oid = value[0] if isinstance(value, tuple) else value
        if not isinstance(oid, int):
            return True
        obj = state.objects.get(oid)
        return obj is not None and self.may_act(state, seat, obj)

    #: Designations (by name prefix) that concern only the object they name: a fast path
    #: keeps the other objects' offers when only these change (a battle's protector).
    own_designations: ClassVar[tuple[str, ...]] = ()

    #: Verbs with a free target: per object, a method ``(state, seat, o, ctx)`` giving its
    #: :class:`Targets` (``None``: none). Declared beside the verb's rule, as
    #: :attr:`object_offers` are; a verb here is not made by :attr:`object_offers`.
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("become_copy", "_targets_copy"),)

    #: Free-target verbs that also have a form naming no target (SCP's cross test against
    #: nothing): per verb, its free-target field. The verb's :attr:`object_offers` make every
    #: form (what random play draws from); the offers decide one by one only those naming no
    #: target (the field ``None``), the others being the :attr:`target_offers` offer.
    untargeted_forms: ClassVar[Mapping[str, str]] = {}

    def target_offers_on(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> list[Targets]:
        """The free-target offers on ``o`` (before the kernel decides them), in order."""
        out: list[Targets] = []
        for name in _target_table(type(self)):
            found = getattr(self, name)(state, seat, o, ctx)
            if found is not None:
                out.append(found)
        return out

    def _targets_copy(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Becoming a copy of an object the seat may refer to (707.2; the sandbox lets any
        object copy any, itself too)."""
        ids = ctx.referable()
        excluded = self.copy_excluded(state, o, ids)
        first = next((x for x in ids if x not in excluded), None)
        if first is None:
            return None
        return Targets(v.BecomeCopy(object=o.id, of=first), "of", ids, excluded)

    def copy_excluded(
        self, state: GameState, o: GameObject, ids: tuple[int, ...]
    ) -> frozenset[int]:
        """The objects of ``ids`` ``o`` may not become a copy of (none here; FaB 8.5.25d)."""
        return frozenset()

    def loose_target_offers(
        self, state: GameState, seat: str | None, ctx: OfferContext
    ) -> list[Targets]:
        """The free-target offers naming no subject (none here)."""
        return []

    def offer_candidates(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        """The candidates on ``o`` the kernel decides one by one (:meth:`object_candidates`
        less the free-target verbs of :attr:`target_offers`)."""
        skip, forms = _target_verbs(type(self)), self.untargeted_forms
        if type(self).object_candidates is not Offers.object_candidates:  # a plugin's override
            made = self.object_candidates(state, player, o)
            return [a for a in made if a.verb not in skip or _untargeted(forms, a.verb, a)]
        out: list[v.Action] = []
        for verb, make in _table(type(self)).every:
            if verb not in skip:
                out += make(self, state, player, o)
            elif verb in forms:
                out += [a for a in make(self, state, player, o) if _untargeted(forms, verb, a)]
        return out

    def loose_offer_candidates(self, state: GameState, seat: str | None) -> list[v.Action]:
        """The candidates naming no object (before the kernel and the seat policy decide):
        shuffling each zone of the seat's (the judge: every player's), the game's queries."""
        out: list[v.Action] = [
            v.Shuffle(player=p, zone=z)
            for p in ((seat,) if seat else state.players)
            for z in _zones_in_order(type(self))
        ]
        out += [a for a in self.loose_candidates(state, None) if not isinstance(a, v.Shuffle)]
        return out

    #: Whether an object whose :meth:`offer_inputs` are ``()`` has them ``()`` in every state
    #: where it is the same object (they read beyond it only for what the object itself is:
    #: MTG's craft card on the battlefield). A fast path then asks them again, after a
    #: change elsewhere, only of the objects they weren't ``()`` for. ``tests/test_offers.py``
    #: checks it along random histories.
    empty_inputs_stay: ClassVar[bool] = False

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[Any, ...]:
        """What ``o``'s offers read beyond ``o`` itself and the state's global fields (a fast
        path keeps them while these are unchanged): the objects under it or that it is
        under (FaB sub-cards)."""
        return ()

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
        ctx = OfferContext(self, state, player)  # the free targets' sets, made once
        for actions, o, in_play in self.candidate_parts(state, player, verb, acting):
            if actions is not None:
                out += actions
            elif o is not None and in_play is None:
                out += self.object_candidates(state, player or o.owner, o, verb)
                out += self.target_candidates(state, player, o, verb, ctx)
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
        make = _table(type(self)).makers.get(verb)
        out = [] if make is None else make(self, state, player or o.owner, o)
        if verb in _target_verbs(type(self)) and verb not in self.untargeted_forms:
            out = out + self.target_candidates(state, player, o, verb)
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

    def target_candidates(
        self,
        state: GameState,
        player: str | None,
        o: GameObject,
        verb: str | None = None,
        ctx: OfferContext | None = None,
    ) -> list[v.Action]:
        """The free-target verbs' candidates on ``o`` (``verb``: only that verb's), one per
        choice (not those of :attr:`several_verbs`, made apart, nor of
        :attr:`untargeted_forms`, whose object generators make them); ``ctx``: the call's shared
        sets (one for every object of a list)."""
        out: list[v.Action] = []
        ctx = ctx or OfferContext(self, state, player)
        for name_verb, name in _target_pairs(type(self)):
            if name_verb in self.several_verbs or verb not in (None, name_verb):
                continue
            if name_verb in self.untargeted_forms:  # its object generators make every form
                continue
            t = getattr(self, name)(state, player, o, ctx)
            if t is not None:
                out += [with_choice(t.action, t.field, x) for x in t.ids if x not in t.excluded]
        return out

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
        ("play", "_offer_plays"),
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
        return [v.Move(object=o.id, to=zone) for zone in _move_targets(self, o.zone)]

    def _offer_resolve(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Resolve(object=o.id)] if o.zone == self.stack_zone else []

    def _offer_casts(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return _with_faces(v.Cast, self, state, o)

    def _offer_plays(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        # Playing a land (a modal DFC's back face among them): each face the card has.
        return _with_faces(v.Play, self, state, o)

    def _offer_turn_face_down(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        kinds = _kinds(type(self))
        return [v.TurnFaceDown(object=o.id), *(v.TurnFaceDown(object=o.id, as_=k) for k in kinds)]

    def _offer_turn_face_up(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.TurnFaceUp(object=o.id)]

    def _offer_examine(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Examine(player=player, object=o.id)]

    def _offer_reveal(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Reveal(object=o.id)]

    def _offer_add_counters(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.AddCounters(object=o.id, counter="+1/+1")]

    def _offer_token_copy(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.CreateTokenCopy(of=o.id)]

    def _offer_change_control(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
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
    make = _table(type(rs)).makers.get(verb)
    return [] if make is None else make(rs, state, player, o)


@memo.per_value
def _verbs(cls: type[Offers]) -> frozenset[str]:
    """``cls``'s verbs."""
    return frozenset(v.verb_of(a) for a in cls.vocabulary())


@memo.per_value
def _target_table(cls: type[Offers]) -> tuple[str, ...]:
    """``cls``'s free-target methods, base classes first, of verbs in its vocabulary."""
    verbs = _verbs(cls)
    return tuple(
        name
        for k in reversed(cls.__mro__)
        for verb, name in vars(k).get("target_offers", ())
        if verb in verbs
    )


def with_choice(action: v.Action, field: str, x: int) -> v.Action:
    """``action`` with its free target ``field`` set to ``x`` (a pair's second object)."""
    value = getattr(action, field)
    made: v.Action = msgspec.structs.replace(
        action, **{field: (*value[:-1], x) if isinstance(value, tuple) else x}
    )
    return made


def _target_pairs(cls: type[Offers]) -> tuple[tuple[str, str], ...]:
    """``cls``'s free-target verbs of its vocabulary with their methods, base classes first."""
    verbs = _verbs(cls)
    return tuple(
        pair
        for k in reversed(cls.__mro__)
        for pair in vars(k).get("target_offers", ())
        if pair[0] in verbs
    )


def _untargeted(forms: Mapping[str, str], verb: str, a: v.Action) -> bool:
    """Whether ``a``, of a free-target verb, is a form of :attr:`Offers.untargeted_forms`
    naming no target (decided one by one)."""
    field = forms.get(verb)
    return field is not None and getattr(a, field) is None


@memo.per_value
def _target_verbs(cls: type[Offers]) -> frozenset[str]:
    """The verbs made as free targets (never by :attr:`Offers.object_offers`)."""
    return frozenset({verb for k in cls.__mro__ for verb, _ in vars(k).get("target_offers", ())})


def _with_faces(cls: type[v.Cast], rs: Offers, state: GameState, o: GameObject) -> list[v.Action]:
    """Casting or playing ``o``: a multi-faced card also as each face (the kernel decides
    which the card has, and from where)."""
    if len(state.card_def(o).faces) < 2:
        return [cls(object=o.id)]
    return [cls(object=o.id), *(cls(object=o.id, face=f) for f in FACES)]


@memo.per_value
def _kinds(cls: type[Offers]) -> tuple[str, ...]:
    """``cls``'s face-down kinds, sorted."""
    return tuple(sorted(getattr(cls, "face_down_kinds", ())))


@memo.per_value
def _table(cls: type[Offers]) -> _Table:
    """``cls``'s generators: each class's :attr:`Offers.object_offers`, base classes first
    (the order of ``super()`` calls), per class (a subclass overriding a generator method
    gets its own)."""
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
    return _Table(every, by_verb, makers)


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


@memo.per_value(kept=1024)  # players are named by callers: a bounded few
def _shuffled_zones(rs: Offers, who: str) -> tuple[tuple[str, str], ...]:
    """``who``'s unordered zones of their own, sorted, each with its key."""
    return tuple(
        (zone, rs.zone_key(zone, who))
        for zone in _zones_in_order(type(rs))
        if zone not in rs.ordered_zones and not rs.is_shared(zone)
    )


def _move_targets(rs: Offers, zone: str) -> tuple[str, ...]:
    """The zones an object in ``zone`` is offered to move to, sorted: every zone (the kernel
    decides, e.g. 400.7: a move within a zone may be a move)."""
    return _zones_in_order(type(rs))


@memo.last("state.objects")
def objects_in_order(state: GameState) -> tuple[GameObject, ...]:
    """Every object, in the object table's own order (the same for equal states, as it
    depends on the ids only): random play draws from it (most draws see the same table)."""
    return tuple(state.objects.values())


@memo.per_value
def _object_verbs(cls: type[Offers]) -> frozenset[str]:
    """The verbs of ``cls`` whose actions name an object: only they have per-object
    candidates."""
    return frozenset(v.verb_of(a) for a in cls.vocabulary() if a.refs)


@memo.per_value
def _zones_in_order(cls: type[Offers]) -> tuple[str, ...]:
    """The zones of ``cls`` sorted by name, as candidates list them."""
    return tuple(sorted(cls.zones))


__all__ = ["OfferContext", "Offers", "Targets", "objects_in_order", "with_choice"]
