"""The fast path of offers: :func:`obverse.engine.offer_parts` kept across a game's states.

The one seam between the plain definition (:func:`obverse.engine.legal_actions`, which makes
and decides every offer) and the incremental machinery: an :class:`OfferMemo` keeps each
object's offers, for a seat, while what they were made from is unchanged: the object itself
(an immutable :class:`~obverse.state.GameObject`: a change makes a new one), the state's
global fields (effects, designations, the turn ...), the kept knowledge naming the object or
its card, and what its ruleset says it reads beyond it
(:meth:`~obverse.rulesets.Ruleset.offer_inputs`). A free-target offer is kept with the first
choice it was decided on, and shares the call's target set (a new list only when the set
changed); whether the sets it read are this call's is one comparison of identities, found once
a call per the (interned) keys they were read under. Whom the seat may act with, refer to and
identify is kept per object and per globals (a branch changing a designation comes back to its
own). A call finds each object's version by identity first (the globals are interned, and
each version is indexed by the object, globals and sets it was found with, so a search's
branch coming back finds its own).

A seat acting with at least :data:`DELTA_MIN` objects starts from its latest call
(:class:`~obverse.offer_kept.SeatCall`): in the same globals, the trail names the objects that
changed, and only they, the objects whose inputs changed, the offers that chose one of them
and the readers of a shared set that is another set now are looked at again; the shared sets
are the latest ones with the changed objects given to their ``pick`` again
(:meth:`~obverse.rulesets.offers.OfferContext.subset`). After one change a call then costs
what changed, not the board.

``tests/test_offers.py`` and ``tests/test_offer_delta.py`` hold the two equal on random
histories and searches of every game.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from obverse import vocab as v
from obverse.engine import (
    Legal,
    decided,
    loose_offers,
    own_offers,
    ruleset_of,
    target_offers,
)
from obverse.offer_kept import (
    INTERNED,
    NOTHING,
    KeptContext,
    Read,
    SeatCall,
    Version,
    empty_stays,
    find,
    firsts_of,
    knowledge_of,
    what_read,
)
from obverse.rulesets.base import Catalog
from obverse.rulesets.offers import Offers, Targets
from obverse.state import GameObject, GameState
from obverse.views import changed_objects


def _globals(state: GameState, own: tuple[str, ...]) -> tuple[Any, ...]:
    """The state's fields every object's offers may read (compared by identity first): the
    designations among them but those the ruleset says concern only the object they name
    (``own``, :attr:`~obverse.rulesets.Ruleset.own_designations`: that object's, as its
    knowledge is, :meth:`OfferMemo._knowledge`)."""
    marks = state.designations
    if own and marks:
        objects = state.objects
        marks = tuple(d for d in marks if not (d[0].startswith(own) and d[1] in objects))
    return (
        state.ruleset,
        state.players,
        state.effects,
        marks,
        state.active,
        state.turn,
        state.pregame,
    )


class OfferMemo:
    """What :func:`offer_parts` learnt of one game's states, for its later ones (one per
    game, kept across its states; not shared between threads). Offers are the plain
    definition's (:func:`obverse.engine.offer_parts`), part for part: a part is the very same
    list while nothing it came from changed, so a caller that keeps what it made of a part
    (a server's encoded offers) redoes only the parts that changed."""

    def __init__(self) -> None:
        #: Per (seat, id), the last few versions of an object's offers, the latest first: a
        #: search going back and forth between branches finds each branch's again.
        self._own: dict[tuple[str | None, int], list[Version]] = {}
        self._targets: dict[tuple[str | None, int], list[Version]] = {}
        #: Kept versions by the identities they were found with: the seat, the object, the
        #: (interned) globals and, for free-target offers, the sets
        #: (:meth:`KeptContext.signature`).
        self._index: dict[tuple[Any, ...], list[Version]] = {}
        #: The index's bound (emptied past it): room for a few worlds of the board.
        self._limit = INTERNED
        #: The recent calls' globals (:meth:`_world`), the latest first.
        self._worlds: list[tuple[Any, ...]] = []
        #: The shared target sets, interned by (key, contents): an equal set is the same
        #: tuple, so offers holding it are kept by an identity test.
        self._sets: dict[Any, tuple[int, ...]] = {}
        #: The keys of the sets a version's offers read, interned (one tuple for every
        #: version reading the same keys: a call finds their identities once).
        self._keys: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._known: tuple[Any, dict[Any, tuple[Any, ...]], Any] | None = None
        self._loose_kept: dict[
            str | None, list[tuple[Any, tuple[Any, ...], list[Legal], list[Legal]]]
        ] = {}
        #: Per (seat, id, globals' identity): the object, the globals, its knowledge, whether
        #: the seat may act with it, refer to it and identify it (one entry per world: a
        #: search's branches changing the globals come back to theirs).
        self._facts: dict[tuple[str | None, int, int], tuple[Any, Any, Any, bool, bool, bool]] = {}
        #: Per seat, its latest call (what the next one starts from).
        self._seen: dict[str | None, SeatCall] = {}

    def parts(
        self, state: GameState, seat: str | None, catalog: Catalog | None = None
    ) -> list[list[Legal]]:
        """:func:`obverse.engine.offer_parts`, kept (see the class)."""
        rs = ruleset_of(state)
        ctx = KeptContext(rs, state, seat, self._sets)
        world = self._world(_globals(state, rs.own_designations))
        ctx.known = self._knowledge(state)
        end, loose = self._loose(state, seat, world, catalog)
        # The seat's latest call, brought to this state when the trail tells what changed.
        seen = self._seen.get(seat)
        if seen is not None and (seen.world is not world or seen.catalog is not catalog):
            seen = None
        changed = None if seen is None else changed_objects(seen.state, state)
        if seen is None or changed is None:
            seen = self._every(ctx, world, catalog)
        else:
            self._since(seen, changed, ctx, world, catalog)
        if seen.kept:
            self._seen[seat] = seen
            seen.state = state
            seen.keep_inputs(ctx.found, empty_stays(rs))
        else:
            self._seen.pop(seat, None)
        self._forget(seat, seen.acting)
        found = rs.loose_target_offers(state, seat, ctx)
        tail = [loose, target_offers(state, seat, found, catalog)]
        ctx.keep()
        return [end, *seen.pairs, *tail]

    def _every(self, ctx: KeptContext, world: Any, catalog: Catalog | None) -> SeatCall:
        """The parts of every object the seat may act with (after a change the trail can't
        tell, or in other globals)."""
        seen = SeatCall(ctx.state, world, catalog)
        acting = self._acting(ctx, world, seen)
        # Room for a few worlds' versions of every object (a large board's too).
        self._limit = INTERNED + 8 * len(acting)
        # What the objects read is kept for the next call only on a board worth it.
        seen.kept = len(acting) >= DELTA_MIN
        pairs, record = seen.pairs, seen if seen.kept else None
        for o, mine in acting:
            seen.acting.append(o.id)
            inputs = ctx.inputs(o)
            pairs.append(self._own_part(o, mine, inputs, ctx, world, catalog))
            if record is None:  # nothing to keep: the part alone (a call less per object)
                pairs.append(self._target_part(o, ctx, world, mine, inputs, catalog)[0])
            else:
                pairs.append(self._free_targets(o, mine, inputs, ctx, world, catalog, seen=record))
        seen.sets = {k: ctx.sets[k] for k in seen.readers}
        return seen

    def _since(
        self,
        seen: SeatCall,
        changed: set[int],
        ctx: KeptContext,
        world: Any,
        catalog: Catalog | None,
    ) -> None:
        """``seen`` (the seat's latest call, in these globals) brought to this call's state
        by deciding again only what may have changed: the objects the trail names
        (``changed``: :func:`~obverse.views.changed_objects`), those whose inputs changed,
        the objects whose free-target offers chose one of these, and the readers of a shared
        set that changed."""
        objects, known = ctx.state.objects, ctx.known
        # What an object's ruleset says its offers read may change while it stays the same.
        dirty = set(changed)
        inputs = seen.inputs
        for oid in seen.reach:
            if oid not in changed and ctx.inputs(objects[oid]) != inputs[oid]:
                dirty.add(oid)
        for oid in changed:
            seen.drop(oid)
        redo: set[int] = set()
        for oid in sorted(changed):
            o = objects.get(oid)
            if o is None:
                continue
            acts, refers, knows = self._fact(ctx, world, o, knowledge_of(known, o))[3:]
            if refers:
                bisect.insort(seen.referable, oid)
            if knows:
                bisect.insort(seen.identified, oid)
            if acts:
                i = bisect.bisect_left(seen.acting, oid)
                seen.acting.insert(i, oid)
                seen.pairs[2 * i : 2 * i] = [[], []]  # both made just below
                redo.add(oid)
        referable = seen.referable
        ctx.shared("referable", lambda: tuple(referable))
        ctx.since = (seen.sets, changed)
        ctx.identifiable = seen.identified
        done: set[int] = set()
        self._redo(seen, redo | dirty, done, ctx, world, catalog, own=True)
        # The others' free-target offers: those choosing a changed object, or decided on
        # every call; those reading a shared set made again (by one of its readers) that
        # is another set now.
        chose = set(seen.volatile)
        for oid in dirty:
            chose.update(seen.choosers.get(oid, ()))
        for key, readers in seen.each.items():
            # (A key first read this call has only readers decided this call.)
            if not dirty.isdisjoint(seen.sets.get(key, ())):
                chose.update(readers)
        self._redo(seen, chose, done, ctx, world, catalog)
        for key, was in list(seen.sets.items()):
            if key not in ctx.sets:
                for oid in sorted(seen.readers.get(key, ())):
                    self._redo(seen, (oid,), done, ctx, world, catalog)
                    if key in ctx.sets:
                        break
            now = ctx.sets.get(key)
            if now is not None and now is not was:
                self._redo(seen, seen.readers.get(key, set()) - done, done, ctx, world, catalog)
        # Every key read is this call's: by an object decided now, or made again above.
        seen.sets = {k: ctx.sets[k] for k in seen.readers}

    def _redo(
        self,
        seen: SeatCall,
        oids: Iterable[int],
        done: set[int],
        ctx: KeptContext,
        world: Any,
        catalog: Catalog | None,
        *,
        own: bool = False,
    ) -> None:
        """Decide again the free-target offers (``own``: and the own offers) of ``oids``
        the seat may act with (each once a call)."""
        objects, known, pairs = ctx.state.objects, ctx.known, seen.pairs
        for oid in sorted(oids):
            if oid in done:
                continue
            done.add(oid)
            i = find(seen.acting, oid)
            if i is not None:
                o = objects[oid]
                mine, inputs = knowledge_of(known, o), ctx.inputs(o)
                if own:
                    pairs[2 * i] = self._own_part(o, mine, inputs, ctx, world, catalog)
                pairs[2 * i + 1] = self._free_targets(
                    o, mine, inputs, ctx, world, catalog, seen=seen
                )

    def _own_part(
        self,
        o: GameObject,
        mine: Any,
        inputs: Any,
        ctx: KeptContext,
        world: Any,
        catalog: Catalog | None,
    ) -> list[Legal]:
        """``o``'s own offers: a kept version while it holds."""
        seat = ctx.seat
        # First the version made from this very object in this very world (a search's
        # branch coming back), else any version made from equal inputs.
        kept = None
        for k in self._index.get((seat, id(o), id(world)), ()):
            if (
                k.world is world
                and k.known == mine
                and k.inputs == inputs
                and (k.obj is o or k.obj == o)
            ):
                kept = k
                break
        if kept is None:
            versions = self._own.setdefault((seat, o.id), [])
            kept = _first(versions, _Holds(o, world, mine, inputs))
            if kept is None:
                kept = Version(o, world, mine, inputs, own_offers(ctx.state, seat, o, catalog))
                _push(versions, kept)
            self._keep(kept, (seat, id(o), id(world)))
        return kept.legal

    def _free_targets(
        self,
        o: GameObject,
        mine: Any,
        inputs: Any,
        ctx: KeptContext,
        world: Any,
        catalog: Catalog | None,
        *,
        seen: SeatCall | None,
    ) -> list[Legal]:
        """``o``'s free-target offers (:meth:`_target_part`), what they read kept in
        ``seen`` (if given)."""
        legal, what = self._target_part(o, ctx, world, mine, inputs, catalog)
        if seen is not None:
            seen.read(o.id, what, bool(o.copies) and _reads_copies(ctx.rs))
        return legal

    def _acting(
        self, ctx: KeptContext, world: Any, seen: SeatCall
    ) -> list[tuple[GameObject, tuple[Any, ...]]]:
        """The objects the seat may act with, each with the knowledge naming it; and the
        call's sets of objects it may refer to and identify (``seen``'s, by id)."""
        referable, identified = seen.referable, seen.identified
        acting: list[tuple[GameObject, tuple[Any, ...]]] = []
        # The board's walk: the look-ups of knowledge_of and _fact written out (a call each
        # per object was 2-3% of a search node).
        known, seat, wid = ctx.known, ctx.seat, id(world)
        get, fact = known.get, self._facts.get
        for o in ctx.objects():
            oid = o.id
            mine = get(oid, ()) + get(("card", o.card), ()) + get(("d", oid), ()) if known else ()
            f = fact((seat, oid, wid))
            if f is None or (f[0] is not o and f[0] != o) or f[2] != mine or f[1] is not world:
                f = self._fact(ctx, world, o, mine)
            if f[4]:
                referable.append(o.id)
            if f[5]:
                identified.append(o.id)
            if f[3]:
                acting.append((o, mine))
        ctx.shared("referable", lambda: tuple(referable))
        ctx.identifiable = identified
        if len(self._facts) > 4 * len(ctx.objects()) + 256:
            self._facts.clear()
        return acting

    def _fact(
        self, ctx: KeptContext, world: Any, o: GameObject, mine: Any
    ) -> tuple[Any, Any, Any, bool, bool, bool]:
        """The object, the globals, its knowledge, and whether the seat may act with it,
        refer to it and identify it: kept while the object, the globals and that knowledge
        are the same."""
        key = (ctx.seat, o.id, id(world))
        f = self._facts.get(key)
        if f is None or (f[0] is not o and f[0] != o) or f[2] != mine or f[1] is not world:
            rs, state, seat = ctx.rs, ctx.state, ctx.seat
            acts = rs.may_act(state, seat, o)
            refers = seat is None or rs.may_refer(state, seat, o)
            knows = rs.may_identify(state, seat, o)
            f = self._facts[key] = (o, world, mine, acts, refers, knows)
        return f

    def _target_part(
        self,
        o: GameObject,
        ctx: KeptContext,
        world: Any,
        mine: Any,
        inputs: Any,
        catalog: Catalog | None,
    ) -> tuple[list[Legal], Read]:
        """``o``'s free-target offers (in ``ctx``'s state, to its seat): a kept decision while
        ``o``, the globals and each offer's first choice (and, decided one by one, every
        choice) are unchanged; with what they read (:func:`what_read`)."""
        state, seat = ctx.state, ctx.seat
        versions = self._targets.setdefault((seat, o.id), [])
        how = (versions, o, ctx, world, mine, inputs)
        tried = versions[0].keys if versions else None
        kept = self._kept_targets(*how)
        if kept is not None:
            return kept.legal, kept.what
        unmade = tried is None or ctx.signature(tried) is None
        ctx.read = []
        found = ctx.rs.target_offers_on(state, seat, o, ctx)
        reads, ctx.read = tuple(dict(ctx.read).items()), None  # each key once, in order
        if not found:
            return [], (self._interned(tuple(k for k, _ in reads)), (), ()) if reads else NOTHING
        keys = self._interned(tuple(k for k, _ in reads))
        if unmade or keys is not tried:
            # The generators made this call's sets: a kept version reading them may now be
            # known to hold (the first object of a call, whose sets no object made before
            # it; an object read other sets in its latest version, in another zone).
            kept = self._kept_targets(*how, keys=keys)
            if kept is not None:
                return kept.legal, kept.what
        shape = tuple(_shape(ctx, t) for t in found)
        kept = _first(versions, lambda k: k.holds(o, world, mine, (inputs, shape)))
        if kept is not None:
            # The same decisions; on a new shared set, the offers again with the new set, as
            # a version of their own (the old set's branch may come back).
            legal = [_retarget(x, found) for x in kept.legal]
            if any(a is not b for a, b in zip(legal, kept.legal, strict=True)):
                kept = Version(o, world, mine, kept.inputs, legal)
                _push(versions, kept)
        else:
            kept = Version(
                o, world, mine, (inputs, shape), target_offers(state, seat, found, catalog)
            )
            _push(versions, kept)
        kept.reads, kept.keys = reads, keys
        kept.sig = ctx.signature(keys) or ()
        kept.firsts = ctx.firsts(firsts_of(found))
        kept.what = what_read(keys, reads, found)
        if reads:
            self._keep(kept, (seat, id(o), id(world), kept.sig))
            self._keep(kept, ("id", seat, o.id, id(world), kept.sig))
        return kept.legal, kept.what

    def _interned(self, keys: tuple[Any, ...]) -> tuple[Any, ...]:
        """``keys`` interned (an equal tuple is the very same one)."""
        found = self._keys.get(keys)
        if found is None:
            if len(self._keys) > INTERNED:
                self._keys.clear()
            found = self._keys[keys] = keys
        return found

    def _kept_targets(
        self,
        versions: list[Version],
        o: GameObject,
        ctx: KeptContext,
        world: Any,
        mine: Any,
        inputs: Any,
        *,
        keys: tuple[Any, ...] | None = None,
    ) -> Version | None:
        """The kept free-target offers of ``o`` made from this very object in this very
        world with this call's very sets (a search's branch coming back), else a version
        made from an equal object with them; ``None`` while a set they read isn't made yet
        this call (nothing can be known to hold). ``keys``: the sets' keys to look up by
        (else its latest version's)."""
        state, seat = ctx.state, ctx.seat
        if keys is None:
            keys = versions[0].keys if versions else None
        sig = None if keys is None else ctx.signature(keys)
        if sig is None or (o.copies and _reads_copies(ctx.rs)):
            return None  # a copy's exclusions may read the other objects (FaB 8.5.25d)

        def fits(k: Version) -> bool:
            return (
                k.world is world  # interned (:meth:`_world`)
                and bool(k.reads)
                and (k.obj is o or k.obj == o)
                and k.known == mine
                and k.inputs[0] == inputs
                and k.same_sets(ctx)
                and k.same_choices(ctx, state)
            )

        key = (seat, id(o), id(world), sig)
        kept = _first(self._index.get(key, ()), fits)
        if kept is None:
            # An equal object (a branch made again): the versions read these very sets.
            kept = _first(self._index.get(("id", seat, o.id, id(world), sig), ()), fits)
            if kept is not None:
                self._keep(kept, key)
        return kept

    def _keep(self, kept: Version, key: tuple[Any, ...]) -> None:
        """Index ``kept`` by the identities it was found with, beside the versions found
        with the same ones (a hint: a version found there is still checked to hold, so a
        reused identity finds nothing wrong)."""
        index = self._index
        if len(index) > self._limit:
            index.clear()
        hint = index.get(key)
        if hint is None:
            index[key] = [kept]
        elif kept not in hint:
            hint.insert(0, kept)
            del hint[_HINTS:]

    def _world(self, world: tuple[Any, ...]) -> tuple[Any, ...]:
        """``world`` interned among the recent calls' (an equal one is the very same
        tuple, so the kept versions made in it are found by its identity)."""
        worlds = self._worlds
        for i, w in enumerate(worlds):
            if w == world:
                if i:
                    worlds.insert(0, worlds.pop(i))
                return w
        _push(worlds, world)
        return world

    def _loose(
        self, state: GameState, seat: str | None, world: Any, catalog: Catalog | None
    ) -> tuple[list[Legal], list[Legal]]:
        """Ending the turn and the offers naming no object, kept while the globals, every
        zone they may name (each player's, the shared ones), the objects and the knowledge
        are the very same (ending the game reads every face-down object and who knows it,
        708.9; ending the turn, every object: FaB's suspense, 8.3.42)."""
        rs = ruleset_of(state)
        zones = state.zones
        keys = _zone_keys(rs, state.players)
        held = (state.objects, state.knowledge, state.designations, *(zones.get(k) for k in keys))
        versions = self._loose_kept.setdefault(seat, [])
        # A tuple's == compares each pair by identity first (then equality), in C.
        kept = _first(versions, lambda k: (k[0] is world or k[0] == world) and k[1] == held)
        if kept is not None:
            return kept[3], kept[2]
        end = decided(state, seat, [v.EndTurn()], catalog)
        legal = loose_offers(state, seat, catalog)
        _push(versions, (world, held, legal, end))
        return end, legal

    def _knowledge(self, state: GameState) -> dict[Any, tuple[Any, ...]]:
        """The kept knowledge by the object id and (``("card", id)``) card it names, and the
        designations by (``("d", id)``) the object they name."""
        known, marks = state.knowledge, state.designations
        if self._known is not None and self._known[0] is known and self._known[2] is marks:
            return self._known[1]
        index: dict[Any, tuple[Any, ...]] = {}
        for k in known:
            index[k.obj] = (*index.get(k.obj, ()), k)
            index["card", k.card] = (*index.get(("card", k.card), ()), k)
        own = ruleset_of(state).own_designations
        for d in marks if own else ():
            if d[0].startswith(own):
                index["d", d[1]] = (*index.get(("d", d[1]), ()), d)
        self._known = (known, index, marks)
        return index

    def _forget(self, seat: str | None, acting: list[int]) -> None:
        """Drop the seat's entries of objects it no longer acts with (bounded memory)."""
        for table in (self._own, self._targets):
            if len(table) > 2 * len(acting) + 64:
                seen = {(seat, oid) for oid in acting}
                for key in [k for k in table if k[0] == seat and k not in seen]:
                    del table[key]


#: The versions kept per entry (:class:`OfferMemo`): a search's recent branches.
VERSIONS = 64

#: A seat's call starts from its latest one (:meth:`OfferMemo._since`) when it acts with at
#: least this many objects: on a smaller board, finding the objects again costs less than
#: keeping what each read (a search's branches change the shared sets, and most objects
#: are decided again anyway). Tests set it to 0 to hold both ways to the plain definition.
DELTA_MIN = 64

_T = TypeVar("_T")


def _first(versions: Sequence[_T], holds: Callable[[_T], bool]) -> _T | None:
    """The first version that ``holds`` (left where it is: a search cycling through its
    branches would otherwise find each one last)."""
    for k in versions:
        if holds(k):
            return k
    return None


class _Holds:
    """Whether a kept version was made from these very inputs (:meth:`Version.holds`)."""

    __slots__ = ("args",)

    def __init__(self, *args: Any) -> None:
        self.args = args

    def __call__(self, kept: Version) -> bool:
        return kept.holds(*self.args)


def _push(versions: list[_T], kept: _T) -> None:
    """``kept`` as the latest version (the oldest beyond :data:`VERSIONS` dropped)."""
    versions.insert(0, kept)
    del versions[VERSIONS:]


#: The versions an index entry keeps (:meth:`OfferMemo._keep`): those made from the same
#: object, globals and sets, differing in what else their ruleset says they read.
_HINTS = 8

_ZONE_KEYS: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _zone_keys(rs: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    """Every zone key of a game: each player's zones and the shared ones (found once)."""
    found = _ZONE_KEYS.get((type(rs), players))
    if found is None:
        found = _ZONE_KEYS[type(rs), players] = tuple(
            sorted({rs.zone_key(z, p) for z in rs.zones for p in players})
        )
    return found


def _reads_copies(rs: Any) -> bool:
    """Whether the ruleset's free-target offers read what a copy has become
    (:meth:`~obverse.rulesets.Ruleset.copy_excluded` overridden: FaB 8.5.25d)."""
    return type(rs).copy_excluded is not Offers.copy_excluded


def _shape(ctx: KeptContext, t: Targets) -> Any:
    """What a free-target decision read of its choices: the first choice's object (or,
    decided one by one, every choice's) with what its ruleset says it reads, and the
    exclusions."""
    return (t.action, t.excluded, tuple(ctx.choice(x) for x in firsts_of([t])))


def _retarget(legal: Legal, found: list[Targets]) -> Legal:
    """``legal`` with its shared set from ``found`` (itself when that is its set, or it was
    decided one by one: its own set)."""
    for t in found:
        if t.action == legal.action and not t.each and t.ids is not legal.targets:
            return Legal(legal.action, legal.rulings, t.field, t.ids, t.excluded)
    return legal


__all__ = ["OfferMemo"]
