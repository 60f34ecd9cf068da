"""The kernel's entry point: :func:`apply` checks an action and runs its procedure.

Every surface (scenario runner, :class:`~obverse.Game`, web sandbox, random play, replay)
goes through :func:`apply`; nothing else decides what is legal. Before any procedure runs
the kernel checks, in order: the verb is in the ruleset's vocabulary; the players and zones it
names exist (an unknown one is an :class:`~obverse.errors.InputError` with a suggestion);
every object it names exists (one that ceased to exist: nothing happens); with an ``actor``,
that the actor may refer to each object and is the one who learns a query's answer; and
that no ``forbid`` effect stops the subject. A refusal of a reference says nothing about the
card behind it.

>>> from obverse import Game
>>> from obverse.vocab import TurnFaceDown
>>> game = Game("mtg")
>>> clone = game.add("Clone", zone="battlefield")
>>> game.apply_effect("no", to=clone, modify={"forbid": ["turn_face_down"]}).result
'done'
>>> apply(game.state, TurnFaceDown(object=game.obj(clone).id)).result
'nothing_happened'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import msgspec

from obverse import memo
from obverse import vocab as v
from obverse.errors import InputError, ObverseError, quote, suggest
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets.base import Catalog, Ruleset
from obverse.rulesets.offers import OfferContext, Targets, with_choice
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome, Ruling
from obverse.state import GameObject, GameState

#: Verbs whose refusal by an effect is ``illegal`` (the player can't begin them) rather
#: than ``nothing_happened`` (the event doesn't occur).
_REFUSED_AS_ILLEGAL = frozenset({"cast", "play", "examine"})


class Legal(msgspec.Struct, frozen=True):
    """An action the rules let a player take now, with the rules that allow it.

    An offer with a free target (``field``: becoming a copy *of*, melding *with*, a token
    copy's source) stands for one action per choice: ``action`` names the first, the
    choices are ``targets`` less ``excluded`` (:meth:`choices`; :meth:`expand` gives the
    actions). ``targets`` may be shared by many offers: it is never copied per offer."""

    action: v.Action
    rulings: tuple[Ruling, ...]
    field: str | None = None
    targets: tuple[int, ...] = ()
    excluded: frozenset[int] = frozenset()

    def choices(self) -> tuple[int, ...]:
        """The objects the free target may name (none for an offer without one)."""
        if self.field is None:
            return ()
        gone = self.excluded
        return tuple(x for x in self.targets if x not in gone) if gone else self.targets

    def expand(self) -> Iterator[v.Action]:
        """The actions this offer stands for, lazily: itself, or one per choice."""
        if self.field is None:
            yield self.action
            return
        for x in self.choices():
            yield with_choice(self.action, self.field, x)


def ruleset_of(state: GameState) -> Ruleset:
    """The ruleset a state is played under."""
    return get_ruleset(state.ruleset)


def apply(
    state: GameState,
    action: v.Action,
    actor: str | None = None,
    *,
    catalog: Catalog | None = None,
) -> Outcome:
    """Check ``action`` and carry it out; ``actor`` is the player taking it (``None``: the
    rules themselves, a judge or a test). Queries answer in ``Outcome.answer``.

    Raises :class:`InputError` for names that don't exist (verb, zone, player, object)."""
    rs, route = _routed(state.ruleset, type(action))
    if route is None:
        raise _unknown_verb(rs, action)
    procedure, names, uses_catalog, zone_field, as_named = route
    # A zone already named as the ruleset names it needs no check (the names found once).
    if names and (zone_field is None or getattr(action, zone_field) not in as_named):
        action = _checked_names(state, action, rs)
    # check() passes a judge's action (no actor) whose object fields each name one object
    # that exists, with no effect that may forbid it (none, or the verb has no subject):
    # the common case of check(), asked here without its call.
    passes = False
    if actor is None:
        objects = state.objects
        for name in action.refs:
            oid = getattr(action, name)
            if type(oid) is not int or oid not in objects:
                break  # none, several or a gone one: check() decides
        else:
            passes = type(action).subject is None or not state.effects
    if not passes:
        refusal = check(state, action, actor, rs)
        if refusal is not None:
            return refusal
    if uses_catalog:
        out = procedure(rs, state, action, catalog or _EmptyCatalog())
    else:
        out = procedure(rs, state, action)
    # What lasts only until the next action (GA Reveal 3) ends once this one is taken.
    return rs.after_action(state, action, out) if rs.ends_on_action else out


class _Route(NamedTuple):
    """How :func:`apply` carries out one verb under one ruleset class, found once."""

    #: The verb's procedure, unbound (called with the ruleset first).
    procedure: Callable[..., Outcome]
    #: Whether the action names a player or zone (:func:`normalize` checks them).
    names: bool
    uses_catalog: bool
    #: The verb's one zone field, when it names no player and no other zone (a move's
    #: ``to``); ``None`` otherwise.
    zone_field: str | None
    #: The names that zone field may hold as they are: the ruleset's zones named as it
    #: names them (:func:`_checked_names` leaves them so).
    as_named: frozenset[str]


@memo.per_value
def _routed(alias: str, cls: type[v.Action]) -> tuple[Ruleset, _Route | None]:
    """The ruleset of ``alias`` and its route of an action of class ``cls`` (one lookup per
    action: the registry forgets every cache when it changes)."""
    rs = get_ruleset(alias)
    return rs, _route(type(rs), cls)


@memo.per_value
def _route(rules: type[Ruleset], cls: type[v.Action]) -> _Route | None:
    """The route of an action of class ``cls`` under the ruleset class ``rules``; ``None``
    for a verb outside its vocabulary."""
    if cls not in _vocabulary(rules):
        return None
    names = bool(cls.player_fields or cls.zone_fields)
    one_zone = len(cls.zone_fields) == 1 and not cls.player_fields
    zone_field = cls.zone_fields[0] if one_zone else None
    rs = rules()
    as_named = frozenset(z for z in rs.zones if _zone_name(rs, z) == z) if one_zone else frozenset()
    return _Route(getattr(rules, v.VERBS[cls]), names, cls.uses_catalog, zone_field, as_named)


def _unknown_verb(rs: Ruleset, action: v.Action) -> InputError:
    verbs = [v.verb_of(c) for c in rs.vocabulary()]
    return InputError("", action.verb, f"not an action of {rs.name}{suggest(action.verb, verbs)}")


@memo.per_value
def _vocabulary(rules: type[Ruleset]) -> frozenset[type[v.Action]]:
    """The ruleset class's vocabulary as a set (membership is asked once per action)."""
    return frozenset(rules.vocabulary())


def normalize(state: GameState, action: v.Action, rs: Ruleset | None = None) -> v.Action:
    """``action`` with its names checked: the verb is this ruleset's, the players exist,
    the zones are the game's (canonical names). Raises :class:`InputError` otherwise."""
    rs = rs or ruleset_of(state)
    cls = type(action)
    if cls not in _vocabulary(type(rs)):
        raise _unknown_verb(rs, action)
    return _checked_names(state, action, rs)


def _checked_names(state: GameState, action: v.Action, rs: Ruleset) -> v.Action:
    """:func:`normalize` of an action whose verb is in ``rs``'s vocabulary."""
    cls = type(action)
    for name in cls.player_fields:
        value = getattr(action, name)
        for p in value if isinstance(value, tuple) else (value,):
            if p is not None and p not in state.players:
                hint = suggest(str(p), state.players)
                raise InputError("", name, f"unknown player {quote(p)}{hint}")
    changes: dict[str, Any] | None = None
    for name in cls.zone_fields:
        zone = getattr(action, name)
        if zone is None:  # an optional zone field left out (scp breach of an object)
            continue
        canonical = _zone_name(rs, zone)
        if canonical is None:
            hint = suggest(zone, rs.zones)
            raise InputError("", name, f"unknown zone {quote(zone)} for {rs.name}{hint}")
        if canonical != zone:
            changes = changes or {}
            changes[name] = canonical
    return msgspec.structs.replace(action, **changes) if changes else action


@memo.per_value
def _zone_name(rs: Ruleset, zone: str) -> str | None:
    """The canonical name of ``zone`` under ``rs`` (found once, not twice per action), or
    ``None`` if it isn't one of its zones."""
    return rs.canonical_zone(zone) if rs.is_zone(zone) else None


def check(
    state: GameState, action: v.Action, actor: str | None = None, rs: Ruleset | None = None
) -> Outcome | None:
    """The kernel's refusal of ``action`` before its procedure runs, or ``None``."""
    rs = rs or ruleset_of(state)
    ids = action.object_ids()
    objects = state.objects
    for oid in ids:
        if oid in objects:
            continue
        if actor is not None and 0 < oid < state.next_id:
            return refused_reference(state, rs)  # an actor can't tell gone from hidden
        if 0 < oid < state.next_id:  # it was an object once: it moved on or left the game
            reason = "that object no longer exists; nothing happens"
            return Outcome(state, NOTHING, (rs.ruling(rs.new_object_rule, reason),))
        raise InputError("", _field_of(action, oid), f"no object {oid}")
    if actor is not None:
        refusal = _actor_refusal(state, action, actor, rs, ids)
        if refusal is not None:
            return refusal
    subject = type(action).subject
    if subject is None or not state.effects:  # only an effect forbids
        return None
    verb = v.VERBS[type(action)]
    if verb not in rs.checks_forbid:
        obj = objects[getattr(action, subject)]
        if rs.is_forbidden(state, obj, verb):
            result = ILLEGAL if verb in _REFUSED_AS_ILLEGAL else NOTHING
            reason = f"an effect says it can't {verb.replace('_', ' ')}"
            return Outcome(state, result, (rs.ruling(rs.forbid_rule, reason),))
    return None


def check_actor(
    state: GameState, action: v.Action, actor: str, rs: Ruleset | None = None
) -> Outcome | None:
    """The refusal of an action naming what ``actor`` may not refer to (an object they
    can't identify) or learn (another player's answer), or ``None``."""
    return _actor_refusal(state, action, actor, rs or ruleset_of(state), action.object_ids())


def _actor_refusal(
    state: GameState, action: v.Action, actor: str, rs: Ruleset, ids: tuple[int, ...]
) -> Outcome | None:
    """:func:`check_actor` of an action naming the objects ``ids`` (each one that exists)."""
    if actor not in state.players:
        raise InputError(
            "", "actor", f"unknown player {quote(actor)}{suggest(actor, state.players)}"
        )
    if type(action).viewer_field is not None:  # a query naming who learns its answer
        refusal = _viewer_refusal(state, action, actor, rs)
        if refusal is not None:
            return refusal
    objects = state.objects
    for oid in ids:
        if not rs.may_refer(state, actor, objects[oid]):
            return refused_reference(state, rs)
    return rs.refuse_actor(state, action, actor)


def _viewer_refusal(state: GameState, action: v.Action, actor: str, rs: Ruleset) -> Outcome | None:
    """The refusal of a query asked for another player's answer, or ``None``."""
    viewer = type(action).viewer_field
    if viewer is not None and getattr(action, viewer) != actor:
        reason = "only the player taking the action may learn its answer"
        return Outcome(state, ILLEGAL, (rs.ruling(rs.hidden_rule, reason),))
    return None


def refused_reference(state: GameState, rs: Ruleset | None = None) -> Outcome:
    """The one refusal for naming an object the actor can't identify: the same whatever
    the object is (or whether it exists), so it reveals nothing."""
    rs = rs or ruleset_of(state)
    reason = "you can't refer to a card you can't identify"
    return Outcome(state, ILLEGAL, (rs.ruling(rs.hidden_rule, reason),))


def _field_of(action: v.Action, oid: int) -> str:
    for name in type(action).refs:
        value = getattr(action, name)
        if value == oid or (isinstance(value, tuple) and oid in value):
            return name
    return "object"


def legal_actions(
    state: GameState, seat: str | None, *, catalog: Catalog | None = None
) -> list[Legal]:
    """What the rules let ``seat`` do now (``None``: the judge, with every object), each with
    the rules that allow it: the concatenation of :func:`offer_parts`.

    A function of what the seat may know: only actions whose main object the seat may act
    with (:meth:`Ruleset.may_act`: objects it owns or controls and can identify) are made,
    by each verb's generator beside its rule (:attr:`Ruleset.object_offers`,
    :attr:`Ruleset.target_offers`); each is decided by the verb's own procedure, with the seat
    as actor (so a reference to a card it can't identify is refused the one way), and its
    rulings are that decision's. A verb with a free target (becoming a copy *of*, melding
    *with*, a token copy's source) is one offer carrying its choices (:meth:`Legal.expand`).
    Only face, zone and visibility rules are modelled, never timing or costs; ``catalog``
    names meld results."""
    return [x for part in offer_parts(state, seat, catalog=catalog) for x in part]


def offer_parts(
    state: GameState, seat: str | None, *, catalog: Catalog | None = None
) -> Iterator[list[Legal]]:
    """:func:`legal_actions` in parts, in order: ending the turn; then per object the seat
    may act with, its own offers and its free-target offers; then the offers naming no
    object (shuffles, queries)."""
    rs = ruleset_of(state)
    ctx = OfferContext(rs, state, seat)
    yield decided(state, seat, [v.EndTurn()], catalog)
    for o in ctx.objects():
        if rs.may_act(state, seat, o):
            yield own_offers(state, seat, o, catalog)
            yield target_offers(state, seat, rs.target_offers_on(state, seat, o, ctx), catalog)
    yield loose_offers(state, seat, catalog)
    yield target_offers(state, seat, rs.loose_target_offers(state, seat, ctx), catalog)


def own_offers(
    state: GameState, seat: str | None, o: GameObject, catalog: Catalog | None = None
) -> list[Legal]:
    """The offers on ``o`` decided one by one (:meth:`Ruleset.offer_candidates`)."""
    rs = ruleset_of(state)
    if seat is not None:
        return decided(state, seat, rs.offer_candidates(state, seat, o), catalog)
    made: dict[v.Action, None] = {}  # the judge's: as each player (in order, once each)
    for p in state.players:
        made.update(dict.fromkeys(rs.offer_candidates(state, p, o)))
    return decided(state, seat, list(made), catalog)


def loose_offers(state: GameState, seat: str | None, catalog: Catalog | None = None) -> list[Legal]:
    """The offers naming no object: shuffles and queries (:meth:`Ruleset.loose_candidates`),
    starting the game (the judge's, before it begins)."""
    rs = ruleset_of(state)
    actions = [a for a in rs.loose_offer_candidates(state, seat) if rs.may_act_on(state, seat, a)]
    if seat is None and state.pregame:
        actions = [v.StartGame(), *actions]
    return decided(state, seat, actions, catalog)


def decided(
    state: GameState, seat: str | None, actions: list[v.Action], catalog: Catalog | None = None
) -> list[Legal]:
    """Each action ``seat`` may take now (the procedure's result ``done``), with its
    rulings, in order."""
    out: list[Legal] = []
    for action in actions:
        found = _try(state, action, seat, catalog)
        if found is not None and found[0] == DONE:
            out.append(Legal(action, found[1]))
    return out


def target_offers(
    state: GameState, seat: str | None, found: list[Targets], catalog: Catalog | None = None
) -> list[Legal]:
    """The free-target offers ``found`` the seat may take: decided on the first choice (or,
    with ``each``, choice by choice, keeping those carried out)."""
    out: list[Legal] = []
    for t in found:
        legal = target_offer(state, seat, t, catalog)
        if legal is not None:
            out.append(legal)
    return out


def target_offer(
    state: GameState, seat: str | None, t: Targets, catalog: Catalog | None = None
) -> Legal | None:
    """One free-target offer (see :func:`target_offers`), or ``None``."""
    if not t.each:
        found = _try(state, t.action, seat, catalog)
        if found is None or found[0] != DONE:
            return None
        return Legal(t.action, found[1], t.field, t.ids, t.excluded)
    kept: list[int] = []
    rulings: tuple[Ruling, ...] = ()
    for x in t.ids:
        if x in t.excluded:
            continue
        action = with_choice(t.action, t.field, x)
        found = _try(state, action, seat, catalog)
        if found is not None and found[0] == DONE:
            if not kept:
                rulings = found[1]
            kept.append(x)
    if not kept:
        return None
    action = with_choice(t.action, t.field, kept[0])
    return Legal(action, rulings, t.field, tuple(kept))


def is_legal(
    state: GameState, seat: str | None, action: v.Action, *, catalog: Catalog | None = None
) -> Legal | None:
    """``action`` with its rulings when ``seat`` may take it now (its main object one the
    seat may act with, :meth:`Ruleset.may_act_on`; its procedure's result ``done``), else
    ``None``: one action, without listing the others."""
    rs = ruleset_of(state)
    try:
        if not rs.may_act_on(state, seat, action):
            return None
    except ObverseError:
        return None
    found = _try(state, action, seat, catalog)
    return Legal(action, found[1]) if found is not None and found[0] == DONE else None


def _try(
    state: GameState, action: v.Action, actor: str | None, catalog: Catalog | None = None
) -> tuple[str, tuple[Ruling, ...]] | None:
    """The result and rulings of ``action`` (``None``: the kernel refuses its names)."""
    try:
        outcome = apply(state, action, actor, catalog=catalog)
    except ObverseError:
        return None
    return outcome.result, outcome.rulings


class _EmptyCatalog:
    """No cards known beyond the game's own."""

    def get(self, name: str) -> None:
        return None

    def bearing(self, name: str) -> list[Any]:
        return []

    def all_cards(self) -> list[Any]:
        return []


def decode(data: Any, state: GameState) -> v.Action:
    """A typed action from plain data (``{"verb": "move", "object": 3, "to": "exile"}``),
    decoded against the state's ruleset vocabulary. Raises :class:`InputError`."""
    rs = ruleset_of(state)
    if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
        raise InputError("", "verb", "an action is a mapping with a verb")
    cls = rs.action_class(data["verb"])
    if cls is None:
        verbs = [v.verb_of(c) for c in rs.vocabulary()]
        raise InputError(
            "", data["verb"], f"not an action of {rs.name}{suggest(data['verb'], verbs)}"
        )
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        raise InputError("", data["verb"], str(exc)) from None


def schema(ruleset: str | None = None) -> dict[str, Any]:
    """The JSON Schema of the actions of one ruleset (or of every ruleset)."""
    classes: list[type[v.Action]] = []
    for cls in [get_ruleset(ruleset).__class__] if ruleset else rulesets():
        classes += [c for c in cls.vocabulary() if c not in classes]
    union: Any = classes[0]
    for c in classes[1:]:
        union = union | c
    return msgspec.json.schema(union)


__all__ = [
    "Legal",
    "apply",
    "check",
    "check_actor",
    "decided",
    "decode",
    "is_legal",
    "legal_actions",
    "normalize",
    "offer_parts",
    "refused_reference",
    "ruleset_of",
    "schema",
]
