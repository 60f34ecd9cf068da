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
own). So after one change a call costs a look-up per object the seat may act with (by
identity first: the globals are interned, and each version is indexed by the object, globals
and sets it was found with, so a search's branch coming back finds its own), and the decisions
of the objects that changed.

``tests/test_offers.py`` holds the two equal on random histories of every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
from obverse.rulesets.base import Catalog
from obverse.rulesets.offers import OfferContext, Offers, Targets
from obverse.state import GameObject, GameState


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


class _Own:
    """One object's kept offers: what they were made from and the list (for free-target
    offers, also the shared sets and the first choices they read)."""

    __slots__ = ("firsts", "inputs", "keys", "known", "legal", "obj", "reads", "sig", "world")

    def __init__(
        self, obj: GameObject, world: Any, known: Any, inputs: Any, legal: list[Legal]
    ) -> None:
        self.obj, self.world, self.known, self.inputs, self.legal = obj, world, known, inputs, legal
        #: The shared sets the free-target offers read (each key once, in order): held, so
        #: the identities of ``sig`` stay theirs.
        self.reads: tuple[tuple[Any, tuple[int, ...]], ...] = ()
        #: Their keys (interned: :meth:`OfferMemo._interned`) and the sets' identities.
        self.keys: tuple[Any, ...] = ()
        self.sig: tuple[int, ...] = ()
        #: Each choice the decisions read: its id, object and (decided one by one, as a
        #: choice's own inputs are read too) what its ruleset says it reads.
        self.firsts: tuple[tuple[int, GameObject | None, Any], ...] = ()

    def same_sets(self, ctx: _KeptContext) -> bool:
        """Whether every shared set the free-target offers read is the very set this call
        made (sets are interned: an equal set is the same tuple). By the sets' identities:
        this version holds its sets and the call its own, so equal identities are the
        same sets."""
        return self.sig == ctx.signature(self.keys)

    def same_choices(self, ctx: _KeptContext, state: GameState) -> bool:
        """Whether every choice the decisions read is the same object with the same
        inputs (found once a call for the versions sharing their choices)."""
        firsts = self.firsts
        shared = len(firsts) > 2  # a few choices are checked as fast as looked up
        if shared:
            found = ctx.checked.get(id(firsts))
            if found is not None and found[0] is firsts:
                return bool(found[1])
        # Each choice is checked once a call (many versions read the same choices: a
        # choice decided one by one is read by every object offering it); ``held`` pins the
        # checked ones, so an identity found there is theirs.
        held = ctx.held
        same = all(map(held.__contains__, map(id, firsts)))
        if not same:
            same = True
            objects = state.objects
            for c in firsts:
                if id(c) in held:
                    continue
                i, x, inputs = c
                now = objects.get(i)
                if (now is not x and now != x) or (now is not None and ctx.choice(i)[1] != inputs):
                    same = False
                    break
                held[id(c)] = c
        if shared:
            ctx.checked[id(firsts)] = (firsts, same)
        return same

    def holds(self, obj: GameObject, world: Any, known: Any, inputs: Any) -> bool:
        """Whether this version was made from ``obj``, ``world`` (interned: the very same
        tuple, :meth:`OfferMemo._world`), ``known`` and ``inputs``."""
        return (
            (self.obj is obj or self.obj == obj)
            and self.world is world
            and self.known == known
            and self.inputs == inputs
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
        self._own: dict[tuple[str | None, int], list[_Own]] = {}
        self._targets: dict[tuple[str | None, int], list[_Own]] = {}
        #: Kept versions by the identities they were found with: the seat, the object, the
        #: (interned) globals and, for free-target offers, the sets
        #: (:meth:`_KeptContext.signature`).
        self._index: dict[tuple[Any, ...], list[_Own]] = {}
        #: The index's bound (emptied past it): room for a few worlds of the board.
        self._limit = _INTERNED
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

    def parts(
        self, state: GameState, seat: str | None, catalog: Catalog | None = None
    ) -> list[list[Legal]]:
        """:func:`obverse.engine.offer_parts`, kept (see the class)."""
        rs = ruleset_of(state)
        ctx = _KeptContext(rs, state, seat, self._sets)
        world = self._world(_globals(state, rs.own_designations))
        known = ctx.known = self._knowledge(state)
        end, loose = self._loose(state, seat, world, catalog)
        out: list[list[Legal]] = [end]
        acting = self._acting(state, seat, ctx, world, known)
        # Room for a few worlds' versions of every object (a large board's too).
        self._limit = _INTERNED + 8 * len(acting)
        for o, mine in acting:
            inputs = ctx.inputs(o)
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
                    kept = _Own(o, world, mine, inputs, own_offers(state, seat, o, catalog))
                    _push(versions, kept)
                self._keep(kept, (seat, id(o), id(world)))
            out.append(kept.legal)
            out.append(self._target_part(o, ctx, world, mine, inputs, catalog))
        out.append(loose)
        out.append(target_offers(state, seat, rs.loose_target_offers(state, seat, ctx), catalog))
        ctx.keep()
        self._forget(seat, acting)
        return out

    def _acting(
        self,
        state: GameState,
        seat: str | None,
        ctx: _KeptContext,
        world: Any,
        known: dict[Any, tuple[Any, ...]],
    ) -> list[tuple[GameObject, tuple[Any, ...]]]:
        """The objects the seat may act with, each with the knowledge naming it; and the
        call's sets of objects it may refer to and identify. Whether it may act with, refer
        to or identify an object is kept while the object, the globals and that knowledge
        are the same."""
        rs, facts = ctx.rs, self._facts
        referable: list[int] = []
        identified: list[int] = []
        acting: list[tuple[GameObject, tuple[Any, ...]]] = []
        get, fact, wid = known.get, facts.get, id(world)
        for o in ctx.objects():
            oid = o.id
            mine = get(oid, ()) + get(("card", o.card), ()) + get(("d", oid), ()) if known else ()
            key = (seat, oid, wid)
            f = fact(key)
            if f is None or (f[0] is not o and f[0] != o) or f[2] != mine or f[1] is not world:
                acts = rs.may_act(state, seat, o)
                refers = seat is None or rs.may_refer(state, seat, o)
                knows = rs.may_identify(state, seat, o)
                f = facts[key] = (o, world, mine, acts, refers, knows)
            if f[4]:
                referable.append(o.id)
            if f[5]:
                identified.append(o.id)
            if f[3]:
                acting.append((o, mine))
        ctx.shared("referable", lambda: tuple(referable))
        ctx.identifiable = identified
        if len(facts) > 4 * len(ctx.objects()) + 256:
            facts.clear()
        return acting

    def _target_part(
        self,
        o: GameObject,
        ctx: _KeptContext,
        world: Any,
        mine: Any,
        inputs: Any,
        catalog: Catalog | None,
    ) -> list[Legal]:
        """``o``'s free-target offers (in ``ctx``'s state, to its seat): a kept decision while
        ``o``, the globals and each offer's first choice (and, decided one by one, every
        choice) are unchanged."""
        state, seat = ctx.state, ctx.seat
        versions = self._targets.setdefault((seat, o.id), [])
        how = (versions, o, ctx, world, mine, inputs)
        tried = versions[0].keys if versions else None
        kept = self._kept_targets(*how)
        if kept is not None:
            return kept.legal
        unmade = tried is None or ctx.signature(tried) is None
        ctx.read = []
        found = ctx.rs.target_offers_on(state, seat, o, ctx)
        reads, ctx.read = tuple(dict(ctx.read).items()), None  # each key once, in order
        if not found:
            return []
        keys = self._interned(tuple(k for k, _ in reads))
        if unmade or keys is not tried:
            # The generators made this call's sets: a kept version reading them may now be
            # known to hold (the first object of a call, whose sets no object made before
            # it; an object read other sets in its latest version, in another zone).
            kept = self._kept_targets(*how, keys=keys)
            if kept is not None:
                return kept.legal
        shape = tuple(_shape(ctx, t) for t in found)
        kept = _first(versions, lambda k: k.holds(o, world, mine, (inputs, shape)))
        if kept is not None:
            # The same decisions; on a new shared set, the offers again with the new set, as
            # a version of their own (the old set's branch may come back).
            legal = [_retarget(x, found) for x in kept.legal]
            if any(a is not b for a, b in zip(legal, kept.legal, strict=True)):
                kept = _Own(o, world, mine, kept.inputs, legal)
                _push(versions, kept)
        else:
            kept = _Own(o, world, mine, (inputs, shape), target_offers(state, seat, found, catalog))
            _push(versions, kept)
        kept.reads, kept.keys = reads, keys
        kept.sig = ctx.signature(keys) or ()
        kept.firsts = ctx.firsts(_firsts(found))
        if reads:
            self._keep(kept, (seat, id(o), id(world), kept.sig))
        return kept.legal

    def _interned(self, keys: tuple[Any, ...]) -> tuple[Any, ...]:
        """``keys`` interned (an equal tuple is the very same one)."""
        found = self._keys.get(keys)
        if found is None:
            if len(self._keys) > _INTERNED:
                self._keys.clear()
            found = self._keys[keys] = keys
        return found

    def _kept_targets(
        self,
        versions: list[_Own],
        o: GameObject,
        ctx: _KeptContext,
        world: Any,
        mine: Any,
        inputs: Any,
        *,
        keys: tuple[Any, ...] | None = None,
    ) -> _Own | None:
        """The kept free-target offers of ``o`` made from this very object in this very
        world with this call's very sets (a search's branch coming back), else any version
        that fits; ``None`` while a set they read isn't made yet this call (nothing can be
        known to hold). ``keys``: the sets' keys to look up by (else its latest
        version's)."""
        state, seat = ctx.state, ctx.seat
        if keys is None:
            keys = versions[0].keys if versions else None
        sig = None if keys is None else ctx.signature(keys)
        if sig is None or (o.copies and _reads_copies(ctx.rs)):
            return None  # a copy's exclusions may read the other objects (FaB 8.5.25d)

        def fits(k: _Own) -> bool:
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
            kept = _first(versions, fits)
            if kept is not None:
                self._keep(kept, key)
        return kept

    def _keep(self, kept: _Own, key: tuple[Any, ...]) -> None:
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

    def _forget(self, seat: str | None, acting: list[tuple[GameObject, Any]]) -> None:
        """Drop the seat's entries of objects it no longer acts with (bounded memory)."""
        for table in (self._own, self._targets):
            if len(table) > 2 * len(acting) + 64:
                seen = {(seat, o.id) for o, _ in acting}
                for key in [k for k in table if k[0] == seat and k not in seen]:
                    del table[key]


#: The versions kept per entry (:class:`OfferMemo`): a search's recent branches.
VERSIONS = 64

_T = TypeVar("_T")


def _first(versions: Sequence[_T], holds: Callable[[_T], bool]) -> _T | None:
    """The first version that ``holds`` (left where it is: a search cycling through its
    branches would otherwise find each one last)."""
    for k in versions:
        if holds(k):
            return k
    return None


class _Holds:
    """Whether a kept version was made from these very inputs (:meth:`_Own.holds`)."""

    __slots__ = ("args",)

    def __init__(self, *args: Any) -> None:
        self.args = args

    def __call__(self, kept: _Own) -> bool:
        return kept.holds(*self.args)


def _push(versions: list[_T], kept: _T) -> None:
    """``kept`` as the latest version (the oldest beyond :data:`VERSIONS` dropped)."""
    versions.insert(0, kept)
    del versions[VERSIONS:]


#: The versions an index entry keeps (:meth:`OfferMemo._keep`): those made from the same
#: object, globals and sets, differing in what else their ruleset says they read.
_HINTS = 8

#: At most this many interned sets are kept (then they are interned afresh).
_INTERNED = 4096


class _KeptContext(OfferContext):
    """An :class:`OfferContext` whose shared sets are interned (``last``): an equal set is
    the very same tuple, so offers holding it are kept as they are."""

    def __init__(
        self, rs: Any, state: GameState, seat: str | None, last: dict[Any, tuple[int, ...]]
    ) -> None:
        super().__init__(rs, state, seat)
        self.last = last
        #: The shared sets read while one object's free-target offers are made.
        self.read: list[tuple[Any, tuple[int, ...]]] | None = None
        #: The kept knowledge and designations by what they name (``OfferMemo._knowledge``).
        self.known: dict[Any, tuple[Any, ...]] = {}
        self._choices: dict[int, tuple[GameObject | None, Any]] = {}
        #: Per kept choices (by identity, :meth:`_Own.same_choices`): whether they hold.
        self.checked: dict[int, tuple[Any, bool]] = {}
        #: The kept choices (each an id, object and inputs) found unchanged this call, by
        #: identity (held, so an identity stays theirs).
        self.held: dict[int, tuple[Any, ...]] = {}
        #: This call's choices (:meth:`firsts`), one tuple per choice.
        self._made: dict[int, tuple[Any, ...]] = {}
        self._inputs: dict[int, Any] = {}
        #: The objects the seat may identify, by id (:meth:`OfferMemo._acting`).
        self.identifiable: list[int] | None = None
        self._firsts: dict[tuple[int, ...], tuple[tuple[Any, ...], ...]] = {}
        #: Per keys (interned), the identities of this call's sets under them.
        self._sigs: dict[int, tuple[tuple[Any, ...], tuple[int, ...]]] = {}

    def signature(self, keys: tuple[Any, ...]) -> tuple[int, ...] | None:
        """The identities of this call's sets under ``keys`` (interned sets: the same
        contents, the same tuple), or ``None`` while one isn't made yet; found once a call
        per (interned) ``keys``."""
        found = self._sigs.get(id(keys))
        if found is not None and found[0] is keys:
            return found[1]
        sets = self.sets
        out = []
        for key in keys:
            t = sets.get(key)
            if t is None:
                return None
            out.append(id(t))
        sig = tuple(out)
        self._sigs[id(keys)] = (keys, sig)
        return sig

    def identified(self) -> tuple[int, ...]:
        """:meth:`OfferContext.identified`, from the kept facts (``identifiable``, found
        with whom the seat may act), made into the call's set only when a verb asks."""
        made = self.identifiable
        if made is None:
            return super().identified()
        return self.shared("identified", lambda: tuple(made))

    def inputs(self, o: GameObject) -> Any:
        """What ``o``'s ruleset says its offers read (:meth:`~obverse.rulesets.Ruleset.
        offer_inputs`), found once a call."""
        found = self._inputs.get(o.id)
        if found is None:
            found = self._inputs[o.id] = self.rs.offer_inputs(self.state, o)
        return found

    def firsts(self, ids: list[int]) -> tuple[tuple[Any, ...], ...]:
        """Each of the choices ``ids`` with its object and inputs (:meth:`choice`), one
        tuple for every object whose decisions read the same choices this call."""
        key = tuple(ids)
        found = self._firsts.get(key)
        if found is None:
            found = self._firsts[key] = tuple(self._made_choice(i) for i in ids)
        return found

    def _made_choice(self, oid: int) -> tuple[Any, ...]:
        """A choice with its object and inputs, one tuple a call (shared by every
        :meth:`firsts` reading it: checked once a later call, :meth:`_Own.same_choices`)."""
        found = self._made.get(oid)
        if found is None:
            found = self._made[oid] = (oid, *self.choice(oid))
        return found

    def choice(self, oid: int) -> tuple[GameObject | None, Any]:
        """A choice's object and what its ruleset says its offers read
        (:meth:`~obverse.rulesets.Ruleset.offer_inputs`, and the designations naming it),
        found once a call (many objects' offers share their first choice)."""
        found = self._choices.get(oid)
        if found is None:
            obj = self.state.objects.get(oid)
            inputs = () if obj is None else self.inputs(obj)
            found = self._choices[oid] = (obj, (inputs, self.known.get(("d", oid), ())))
        return found

    def shared(self, key: Any, make: Any) -> tuple[int, ...]:
        found = self.sets.get(key)
        if found is None:
            found = make()
            found = self.sets[key] = self.last.setdefault((key, found), found)
        if self.read is not None:
            self.read.append((key, found))
        return found

    def keep(self) -> None:
        """Bound the interned sets (a later call interns its sets again)."""
        if len(self.last) > _INTERNED:
            self.last.clear()


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


def _firsts(found: list[Targets]) -> list[int]:
    """The choices the decisions of ``found`` read (the first, or each one by one)."""
    out: list[int] = []
    for t in found:
        if t.each:
            out += [x for x in t.ids if x not in t.excluded]
        else:
            first = getattr(t.action, t.field)
            out.append(first[-1] if isinstance(first, tuple) else first)
    return out


def _shape(ctx: _KeptContext, t: Targets) -> Any:
    """What a free-target decision read of its choices: the first choice's object (or,
    decided one by one, every choice's) with what its ruleset says it reads, and the
    exclusions."""
    return (t.action, t.excluded, tuple(ctx.choice(x) for x in _firsts([t])))


def _retarget(legal: Legal, found: list[Targets]) -> Legal:
    """``legal`` with its shared set from ``found`` (itself when that is its set, or it was
    decided one by one: its own set)."""
    for t in found:
        if t.action == legal.action and not t.each and t.ids is not legal.targets:
            return Legal(legal.action, legal.rulings, t.field, t.ids, t.excluded)
    return legal


__all__ = ["OfferMemo"]
