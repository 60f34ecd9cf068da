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

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from obverse import vocab as v
from obverse.errors import InputError, ObverseError, quote, suggest
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets.base import Catalog, Ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome, Ruling
from obverse.state import GameObject, GameState
from obverse.tracing import (
    _ALL,
    _FIELDS,
    _RUNNING,
    _TRACED,
    _TUPLES,
    Dependency,
    _Reads,
    _traced,
    _TracedMap,
    _TracedState,
    _tuple_changes,
)

#: Verbs whose refusal by an effect is ``illegal`` (the player can't begin them) rather
#: than ``nothing_happened`` (the event doesn't occur).
_REFUSED_AS_ILLEGAL = frozenset({"cast", "play", "examine"})


class Legal(msgspec.Struct, frozen=True):
    """An action the rules let a player take now, with the rules that allow it."""

    action: v.Action
    rulings: tuple[Ruling, ...]


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
    rs = get_ruleset(state.ruleset)
    routes = _ROUTES.get(type(rs)) or _ROUTES.setdefault(type(rs), {})
    procedure, names, uses_catalog = routes.get(type(action)) or _route(rs, action, routes)
    if names:  # players or zones to check or make canonical
        action = _checked_names(state, action, rs)
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


#: Per ruleset class, each action class's route.
_ROUTES: dict[type[Ruleset], dict[type[v.Action], _Route]] = {}


def _route(rs: Ruleset, action: v.Action, routes: dict[type[v.Action], _Route]) -> _Route:
    """The route of ``action``'s class under ``rs`` (kept in ``routes``); raises
    :class:`InputError` for a verb outside the ruleset's vocabulary."""
    cls = type(action)
    if cls not in _vocabulary(rs):
        raise _unknown_verb(rs, action)
    names = bool(cls.player_fields or cls.zone_fields)
    route = routes[cls] = _Route(getattr(type(rs), v.VERBS[cls]), names, cls.uses_catalog)
    return route


def _unknown_verb(rs: Ruleset, action: v.Action) -> InputError:
    verbs = [v.verb_of(c) for c in rs.vocabulary()]
    return InputError("", action.verb, f"not an action of {rs.name}{suggest(action.verb, verbs)}")


#: Each ruleset class's vocabulary as a set (membership is asked once per action).
_VOCABULARY: dict[type[Ruleset], frozenset[type[v.Action]]] = {}


def _vocabulary(rs: Ruleset) -> frozenset[type[v.Action]]:
    """``rs``'s vocabulary as a set."""
    known = _VOCABULARY[type(rs)] = frozenset(rs.vocabulary())
    return known


def normalize(state: GameState, action: v.Action, rs: Ruleset | None = None) -> v.Action:
    """``action`` with its names checked: the verb is this ruleset's, the players exist,
    the zones are the game's (canonical names). Raises :class:`InputError` otherwise."""
    rs = rs or ruleset_of(state)
    cls = type(action)
    if cls not in (_VOCABULARY.get(type(rs)) or _vocabulary(rs)):
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
    zones = _ZONE_NAMES.get(type(rs)) or _ZONE_NAMES.setdefault(type(rs), {})
    for name in cls.zone_fields:
        zone = getattr(action, name)
        if zone is None:  # an optional zone field left out (scp breach of an object)
            continue
        canonical = zones.get(zone) or _zone_name(rs, name, zone, zones)
        if canonical != zone:
            changes = changes or {}
            changes[name] = canonical
    return msgspec.structs.replace(action, **changes) if changes else action


#: Per ruleset class, each zone name it accepts and its canonical name (a pure function of
#: the class: found once, not twice per action).
_ZONE_NAMES: dict[type[Ruleset], dict[str, str]] = {}


def _zone_name(rs: Ruleset, field: str, zone: str, known: dict[str, str]) -> str:
    """The canonical name of ``zone`` (kept in ``known``); :class:`InputError` naming
    ``field`` if it isn't one of ``rs``'s zones."""
    if not rs.is_zone(zone):
        hint = suggest(zone, rs.zones)
        raise InputError("", field, f"unknown zone {quote(zone)} for {rs.name}{hint}")
    known[zone] = canonical = rs.canonical_zone(zone)
    return canonical


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
    state: GameState,
    player: str | None,
    *,
    where: Callable[[v.Action], bool] | None = None,
    acting: Callable[[GameObject], bool] | None = None,
    cache: LegalCache | None = None,
) -> list[Legal]:
    """What the rules let ``player`` do now (``None``: a judge, on every object), each with
    the rules that allow it.

    Candidates come from the ruleset (every verb on every object the player may refer to,
    with the choices its rules offer); each is kept when the kernel carries it out with
    result ``done``, and its rulings are that outcome's: the decision and its explanation
    are one branch. Only face, zone and visibility rules are modelled, never timing or
    costs. The caller's own filters (e.g. a sandbox's seat policy) drop candidates before
    the kernel tries them: ``acting`` keeps the actions whose first object passes it (asked
    once per object, before its candidates are made), ``where`` the actions that pass it.

    With a ``cache`` (one per game, kept across its states), a candidate tried on an earlier
    state whose every read is unchanged in this one is not tried again: the answer is the
    same list, found in a fraction of the time after a small change (see
    :class:`LegalCache`)."""
    rs = ruleset_of(state)
    if cache is not None and where is None:
        return [x for part in cache.session(state, player).grouped(rs, acting) for x in part]
    candidates = rs.candidates(state, player, acting=acting)
    if where is not None:
        candidates = [a for a in candidates if where(a)]
    if cache is not None:
        return cache.session(state, player).offers(candidates)
    out: list[Legal] = []
    for action in candidates:
        found = _try(state, action, player)
        if found is not None and found[0] == DONE:
            out.append(Legal(action, found[1]))
    return out


def legal_parts(
    state: GameState,
    player: str | None,
    cache: LegalCache,
    *,
    acting: Callable[[GameObject], bool] | None = None,
) -> list[list[Legal]]:
    """:func:`legal_actions` with a cache, in parts (their concatenation is the list): the
    offers naming no object, then each object's (:meth:`Ruleset.candidate_parts`). A part
    is the very same list while nothing it came from changed, so a caller that keeps what it
    made of a part (a server's encoded offers) redoes only the parts that changed. Callers
    must not change the lists."""
    return cache.session(state, player).grouped(ruleset_of(state), acting)


def _try(
    state: GameState, action: v.Action, actor: str | None
) -> tuple[str, tuple[Ruling, ...]] | None:
    """The result and rulings of ``action`` (``None``: the kernel refuses its names)."""
    try:
        outcome = apply(state, action, actor)
    except ObverseError:
        return None
    return outcome.result, outcome.rulings


class LegalCache:
    """What :func:`legal_actions` learnt of one game, for its later states.

    Each candidate is tried once without an actor, on a copy of the state whose object,
    zone and card tables note every entry the kernel reads (the core edits' own reads
    excepted: they only build the next state); for a player, the kernel's actor check
    (:func:`check_actor`) is traced the same way. The two together are the player's outcome:
    :func:`apply` with an actor refuses exactly what the actor check refuses, and otherwise
    runs as without one. So the trial a judge's list made serves every player's.

    Every entry is indexed by what it read. On a new state the cache compares it with the
    last one it saw: only the entries that read a changed entry (a whole map, tuple or
    other field that changed: effects, the turn ...; or asked a tuple about an object a
    changed entry names) are forgotten and tried again. Only the numbering fields (clock,
    next object id) are assumed never to decide an outcome. Not shared between threads."""

    def __init__(self) -> None:
        #: The last state's fields, as :data:`_FIELDS` lists them.
        self._values: tuple[Any, ...] = ()
        #: action -> its outcome without an actor; (actor, action) -> the actor check's
        #: refusal (``True``: refused). Each with the dependencies it read.
        self._entries: dict[Any, tuple[tuple[Dependency, ...], Any]] = {}
        #: (traced map index, key or _ALL) -> the entries that read it.
        self._readers: dict[tuple[int, Any], set[Any]] = {}
        self._indexed = 0
        #: Per actor: action -> the offer (``None``: not offered), while every entry it was
        #: found from is kept (one lookup per candidate on a later state).
        self._offers: dict[str | None, dict[Any, Legal | None]] = {}
        #: (actor, object id) -> the actions of that actor's offers kept while the actor's
        #: check of that object is (they go with it).
        self._naming: dict[tuple[str, int], set[Any]] = {}
        #: (actor, object id, None or _COPIES) -> the offers on the object, kept while what
        #: the candidates were made from is (an offer that went is made again alone).
        self._groups: dict[tuple[Any, int, Any], _Part] = {}
        #: action -> the last offer made of it (any actor's): an offer made again with the
        #: same rulings is that very object, so what a server keeps by it stays good.
        self._made: dict[v.Action, Legal] = {}
        #: Trials run and outcomes reused since the cache was made (for measurements).
        self.tried = 0
        self.reused = 0

    def session(self, state: GameState, actor: str | None) -> _Session:
        """The lookups of one :func:`legal_actions` call (entries the state made stale are
        forgotten first)."""
        values = tuple(getattr(state, f) for f in _FIELDS)
        if not self._values or len(self._entries) > _MAX_ENTRIES:
            self._entries.clear()
            self._readers.clear()
            self._offers.clear()
            self._naming.clear()
            self._groups.clear()
            self._made.clear()
            self._indexed = 0
        elif values != self._values:
            self._forget_changed(self._values, values)
        self._values = values
        return _Session(self, state, actor, values)

    def _forget_changed(self, old: tuple[Any, ...], new: tuple[Any, ...]) -> None:
        """Forget the entries that read what differs between two states' fields."""
        stale: list[tuple[int, Any]] = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a is b:
                continue
            if i >= len(_TRACED) + len(_TUPLES):  # a field read whole
                if a != b:
                    stale.append((i, _ALL))
                continue
            if i >= len(_TRACED):  # a tuple: what was read of it differs
                changes = _tuple_changes(i, a, b) if a != b else []
                if changes is None:  # entries it can't tell apart: nothing is kept
                    self._entries.clear()
                    self._readers.clear()
                    self._offers.clear()
                    self._naming.clear()
                    self._groups.clear()
                    return
                stale += changes
                continue
            stale.append((i, _ALL))
            stale += [(i, k) for k, val in b.items() if a.get(k, _ALL) is not val]
            stale += [(i, k) for k in a if k not in b]
        readers, entries, offers = self._readers, self._entries, self._offers
        for dep in stale:
            for key in readers.pop(dep, ()):
                if entries.pop(key, None) is None:
                    continue
                if isinstance(key, tuple) and key[0] is _REFER:  # an object's part of
                    kept = offers.get(key[1], {})  # the actor check: the actor's offers
                    for action in self._naming.pop(key[1:], ()):  # naming it go
                        if kept.pop(action, _ALL) is not _ALL:
                            self._drop(key[1], action)
                elif isinstance(key, tuple) and key[0] is not _MADE:  # the rest of an actor
                    if offers.get(key[0], {}).pop(key[1], _ALL) is not _ALL:  # check: its
                        self._drop(key[0], key[1])  # offer goes
                elif not isinstance(key, tuple):
                    for actor, kept in offers.items():
                        if kept.pop(key, _ALL) is not _ALL:  # an actor that had its offer
                            self._drop(actor, key)

    def _legal(self, action: v.Action, rulings: tuple[Ruling, ...]) -> Legal:
        """The offer of ``action`` with ``rulings``: the last one made when its rulings are
        the same (most offers tried again are)."""
        made = self._made.get(action)
        if made is None or made.rulings != rulings:
            made = self._made[action] = Legal(action, rulings)
        return made

    def _drop(self, actor: str | None, action: v.Action) -> None:
        """Mark the offer of ``action`` gone from the actor's part of the object it names
        first (made again when the part is next asked for)."""
        first = action.first_object_id()
        if first is None:
            return
        for key in ((actor, first, None), (actor, first, _COPIES)):
            part = self._groups.get(key)
            if part is not None:
                i = part.index.get(action)
                if i is not None:
                    part.stale.add(i)

    def _keep(self, key: Any, deps: tuple[Dependency, ...], value: Any) -> None:
        """Store an entry and index it by what it read."""
        self._entries[key] = (deps, value)
        readers = self._readers
        for dep in deps:
            found = readers.get(dep)
            if found is None:
                readers[dep] = {key}
            else:
                found.add(key)
        self._indexed += len(deps)
        if self._indexed > 16 * len(self._entries) + 100_000:
            self._reindex()

    def _reindex(self) -> None:
        """Rebuild the index from the entries (drops references to replaced entries)."""
        self._readers = {}
        self._indexed = 0
        for key, (deps, _) in self._entries.items():
            for dep in deps:
                self._readers.setdefault(dep, set()).add(key)
            self._indexed += len(deps)


#: Entries a cache holds at most (a long game's forgotten candidates go all at once).
_MAX_ENTRIES = 200_000


# The actor check (:func:`check_actor`) in the parts the cache keeps apart: whether the actor
# may refer to an object, per object (most actions name objects many others name too), and
# the rest, per action. It refuses exactly when a part does.


def _may_not_refer(state: GameState, actor: str, oid: int) -> bool:
    """Whether ``actor`` may not refer to object ``oid`` (its part of the actor check)."""
    try:
        return not ruleset_of(state).may_refer(state, actor, state.objects[oid])
    except (ObverseError, KeyError):
        return True


def _refuses_otherwise(state: GameState, action: v.Action, actor: str) -> bool:
    """Whether the actor check refuses ``action`` for another reason than its objects: an
    unknown player, another player's answer, the ruleset's own refusal."""
    try:
        rs = ruleset_of(state)
        return (
            actor not in state.players
            or _viewer_refusal(state, action, actor, rs) is not None
            or rs.refuse_actor(state, action, actor) is not None
        )
    except ObverseError:
        return True


#: The first item of the key of an object's part of the actor check: ``(_REFER, actor, id)``.
_REFER: Any = object()
#: The first item of the key of the candidates made on an object: ``(_MADE, player, id)``.
_MADE: Any = object()
#: The last item of the key of an object's offers of becoming a copy (the others: ``None``).
_COPIES: Any = object()


class _Part:
    """One object's part of an actor's offers (see :meth:`_Session.grouped`): the candidates
    and what they were made from, each one's offer (``None``: not offered), the offers, and
    which offers went since (their memo entries were dropped)."""

    __slots__ = ("actions", "index", "legal", "made", "slots", "stale")

    def __init__(self, made: Any, actions: list[v.Action], slots: list[Legal | None]) -> None:
        self.made, self.actions, self.slots = made, actions, slots
        self.index = {a: i for i, a in enumerate(actions)}
        self.legal = [x for x in slots if x is not None]
        self.stale: set[int] = set()


class _Session:
    """One :func:`legal_actions` call's use of a :class:`LegalCache`."""

    def __init__(
        self, cache: LegalCache, state: GameState, actor: str | None, values: tuple[Any, ...]
    ) -> None:
        self.cache, self.state, self.actor, self.values = cache, state, actor, values
        self.memo = cache._offers.setdefault(actor, {})
        #: The state a trial runs on and the reads its fields note into (made on the first
        #: trial: most calls try nothing).
        self.trial: GameState | None = None
        self.reads: _Reads | None = None

    def grouped(
        self, rs: Ruleset, acting: Callable[[GameObject], bool] | None
    ) -> list[list[Legal]]:
        """:meth:`offers` of every candidate, part by part (:meth:`Ruleset.candidate_parts`):
        the offers on an object are kept whole while what they came from is, its candidates
        (made on a traced state and kept as an entry of their own) and each one's offer."""
        out: list[list[Legal]] = []
        ids: tuple[int, ...] = ()
        in_play_seen: Any = None
        for actions, o, in_play in rs.candidate_parts(self.state, self.actor, None, acting):
            if actions is not None:
                out.append(self.offers(actions))
            elif o is not None and in_play is None:
                out.append(self._own(rs, o))
            elif o is not None and in_play is not None:
                if in_play is not in_play_seen:  # one list for every part that copies
                    ids, in_play_seen = tuple(x.id for x in in_play), in_play
                out.append(self._copies(rs, o, in_play, ids))
        return out

    def _own(self, rs: Ruleset, o: GameObject) -> list[Legal]:
        """The offers of the candidates on ``o`` (:meth:`Ruleset.object_candidates`)."""
        maker = self.actor or o.owner
        made = (_MADE, maker, o.id)
        key = (self.actor, o.id, None)
        part = self.cache._groups.get(key)
        entry = self.cache._entries.get(made)
        if part is not None and entry is not None and entry[1] is part.made:
            return self._patched(key, part)  # the same candidates: their offers kept
        oid = o.id
        actions = self._kept(
            made, lambda st: rs.object_candidates(st, maker, st.objects[oid], None)
        )
        return self._part(key, actions, actions)

    def _copies(
        self, rs: Ruleset, o: GameObject, in_play: list[GameObject], ids: tuple[int, ...]
    ) -> list[Legal]:
        """The offers of ``o`` becoming a copy of each other object of ``in_play`` (``ids``,
        their ids: the candidates depend on nothing else)."""
        key = (self.actor, o.id, _COPIES)
        part = self.cache._groups.get(key)
        if part is not None and part.made == ids:
            return self._patched(key, part)
        return self._part(key, ids, rs.copy_candidates(o, in_play))

    def _part(self, key: Any, made: Any, actions: list[v.Action]) -> list[Legal]:
        """The offers of ``actions``, kept under ``key`` as a :class:`_Part` made from
        ``made`` when every offer is kept."""
        slots, complete = self._slots(actions)
        if not complete:
            return [x for x in slots if x is not None]
        part = self.cache._groups[key] = _Part(made, actions, slots)
        return part.legal

    def _patched(self, key: Any, part: _Part) -> list[Legal]:
        """A kept part's offers, those whose offer went (:meth:`LegalCache._drop`) made again
        (the same list when each is the offer it was)."""
        if not part.stale:
            return part.legal
        memo, slots, changed = self.memo, part.slots, False
        for i in part.stale:
            action = part.actions[i]
            legal = self.offered(action)
            if legal is not slots[i]:
                slots[i], changed = legal, True
            if action not in memo:  # not kept: nor is the part
                del self.cache._groups[key]
                return [x for x in slots if x is not None]
        part.stale.clear()
        if changed:  # offers made again the same (the very same Legal) leave the very list
            part.legal = [x for x in slots if x is not None]
        return part.legal

    def offers(self, actions: list[v.Action]) -> list[Legal]:
        """The actions the actor may take now, with their rulings (:meth:`offered` of
        each)."""
        return [x for x in self._slots(actions)[0] if x is not None]

    def _slots(self, actions: list[v.Action]) -> tuple[list[Legal | None], bool]:
        """Each action's offer (``None``: not offered), the kept ones (the very same
        :class:`Legal` while kept) looked up inline: most candidates are unchanged since
        the last call; and whether every one is kept now."""
        slots: list[Legal | None] = []
        get, offered, memo = self.memo.get, self.offered, self.memo
        reused, complete = 0, True
        for action in actions:
            try:
                legal = get(action, _ALL)
            except TypeError:  # an unhashable action: offered() tries it every time
                legal, complete = offered(action), False
            else:
                if legal is _ALL:
                    legal = offered(action)
                    complete = complete and action in memo
                else:
                    reused += 1
            slots.append(legal)
        self.cache.reused += reused
        return slots, complete

    def offered(self, action: v.Action) -> Legal | None:
        """``action`` with its rulings when the actor may take it now (result ``done``),
        else ``None``; reused or tried."""
        try:
            memo = self.memo.get(action, _ALL)
        except TypeError:  # an unhashable action: tried every time
            found = _try(self.state, action, self.actor)
            return Legal(action, found[1]) if found is not None and found[0] == DONE else None
        if memo is not _ALL:
            self.cache.reused += 1
            return memo  # type: ignore[no-any-return]
        rulings, keys = self._offered(action)
        legal = None if rulings is None else self.cache._legal(action, rulings)
        entries = self.cache._entries
        if all(k in entries for k in keys):
            self.memo[action] = legal  # the entries it came from are kept: so is it
            naming = self.cache._naming
            for key in keys:
                if isinstance(key, tuple) and key[0] is _REFER:
                    naming.setdefault(key[1:], set()).add(action)
        return legal

    def _offered(self, action: v.Action) -> tuple[tuple[Ruling, ...] | None, tuple[Any, ...]]:
        """The rulings (``None``: not offered) and the keys of the entries they came from."""
        entries = self.cache._entries
        entry = entries.get(action)
        if entry is None:
            self.cache.tried += 1
            found = self._traced(action, lambda st: _try(st, action, None))
        else:
            self.cache.reused += 1
            found = entry[1]
        actor = self.actor
        if found is None or found[0] != DONE or actor is None:
            return (found[1] if found is not None and found[0] == DONE else None), (action,)
        keys: list[Any] = [action]
        for oid in action.object_ids():
            key: Any = (_REFER, actor, oid)
            keys.append(key)
            if self._kept(key, functools.partial(_may_not_refer, actor=actor, oid=oid)):
                return None, tuple(keys)
        key = (actor, action)
        keys.append(key)
        refused = self._kept(key, lambda st: _refuses_otherwise(st, action, actor))
        return (None if refused else found[1]), tuple(keys)

    def _trial_state(self, reads: _Reads) -> GameState:
        """The state a trial runs on, its traced fields noting into ``reads``. Made once per
        session with its reads (:attr:`reads`): a trial's state never outlives it, so the
        next one reuses both (unless a trial runs inside another: it gets its own)."""
        fields: dict[str, Any] = {}
        for i, f in enumerate((*_TRACED, *_TUPLES)):
            m = self.values[i]
            fields[f] = _TracedMap(m, i, reads) if i < len(_TRACED) else _traced(m, i, reads)
        plain = _TracedState(*msgspec.structs.astuple(self.state))
        trial = msgspec.structs.replace(plain, **fields)
        if self.trial is None and not _RUNNING:
            self.trial, self.reads = trial, reads
        return trial

    def _kept(self, key: Any, run: Callable[[GameState], Any]) -> Any:
        """The value kept under ``key``, else ``run`` traced and kept."""
        entry = self.cache._entries.get(key)
        return self._traced(key, run) if entry is None else entry[1]

    def _traced(self, key: Any, run: Callable[[GameState], Any]) -> Any:
        """``run`` on a copy of the state that notes what it reads; kept under ``key``
        unless a read could not be followed."""
        reads, state = self.reads, self.trial
        if reads is None or state is None or _RUNNING:
            reads = _Reads(self.state)
            state = self._trial_state(reads)
        else:  # the session's trial state, its reads emptied
            reads.seen, reads.untrusted = set(), False
        _RUNNING.append(reads)
        try:
            value = run(state)
        finally:
            _RUNNING.pop()
        if not reads.untrusted:
            self.cache._keep(key, tuple(reads.seen), value)
        return value


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
    "LegalCache",
    "apply",
    "check",
    "check_actor",
    "decode",
    "legal_actions",
    "legal_parts",
    "normalize",
    "refused_reference",
    "ruleset_of",
    "schema",
]
