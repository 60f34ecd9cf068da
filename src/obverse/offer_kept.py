"""What the offers' fast path (:mod:`obverse.fastoffers`) keeps between calls: a version of
an object's offers (:class:`Version`), a call's context whose shared sets are interned
(:class:`KeptContext`), and a seat's latest call (:class:`SeatCall`), what the next call
starts from. Instances only: the tables live in the memo that holds them."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from obverse.engine import Legal
from obverse.rulesets.base import Catalog
from obverse.rulesets.offers import OfferContext, Offers, Targets
from obverse.state import GameObject, GameState

#: At most this many interned sets are kept (then they are interned afresh).
INTERNED = 4096


class Version:
    """One object's kept offers: what they were made from and the list (for free-target
    offers, also the shared sets and the first choices they read)."""

    __slots__ = (
        "firsts",
        "inputs",
        "keys",
        "known",
        "legal",
        "obj",
        "reads",
        "sig",
        "what",
        "world",
    )

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
        #: What they read, as :class:`SeatCall` indexes it (:func:`what_read`).
        self.what: Read = NOTHING

    def same_sets(self, ctx: KeptContext) -> bool:
        """Whether every shared set the free-target offers read is the very set this call
        made (sets are interned: an equal set is the same tuple). By the sets' identities:
        this version holds its sets and the call its own, so equal identities are the
        same sets."""
        return self.sig == ctx.signature(self.keys)

    def same_choices(self, ctx: KeptContext, state: GameState) -> bool:
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


class SeatCall:
    """A seat's latest call, what its next one starts from: the state, the objects the seat
    may act with (by id, in order) and their parts (own and free-target offers, two each),
    the objects it may refer to and identify (by id, in order), what each object's
    free-target offers read (the shared sets by key, the choices by id) and the inputs found
    (:meth:`~obverse.rulesets.Ruleset.offer_inputs`)."""

    __slots__ = (
        "_tables",
        "acting",
        "catalog",
        "choosers",
        "each",
        "identified",
        "inputs",
        "kept",
        "pairs",
        "reach",
        "readers",
        "reads",
        "referable",
        "sets",
        "state",
        "volatile",
        "world",
    )

    def __init__(self, state: GameState, world: Any, catalog: Catalog | None) -> None:
        self.state, self.world, self.catalog = state, world, catalog
        #: Whether the next call starts from this one (:data:`DELTA_MIN`).
        self.kept = True
        self.acting: list[int] = []
        self.pairs: list[list[Legal]] = []
        self.referable: list[int] = []
        self.identified: list[int] = []
        #: The inputs found, by object id; ``reach``: those asked again after any change
        #: (:func:`empty_stays`: those that weren't ``()``).
        self.inputs: dict[int, Any] = {}
        self.reach: set[int] = set()
        #: Per object, the keys of the sets its free-target offers read and their choices'
        #: ids; and each key's readers, each choice's choosers, the sets by key.
        self.reads: dict[int, Read] = {}
        self.readers: dict[Any, set[int]] = {}
        self.choosers: dict[int, set[int]] = {}
        #: Per key, the objects deciding each of its set's choices one by one (a changed
        #: object in the set: decided again).
        self.each: dict[Any, set[int]] = {}
        self._tables = (self.readers, self.choosers, self.each)
        self.sets: dict[Any, tuple[int, ...]] = {}
        #: Objects whose free-target offers are decided on every call (a copy's exclusions
        #: may read the other objects: FaB 8.5.25d).
        self.volatile: set[int] = set()

    def read(self, oid: int, what: Read, volatile: bool) -> None:
        """What ``oid``'s free-target offers read now (instead of what they read before)."""
        was = self.reads.get(oid, NOTHING)
        # The same as before (one record per kept version), most often: nothing to index.
        if was is not what and was != what:
            self.unread(oid)
            if what != NOTHING:
                self.reads[oid] = what
                for table, ids in zip(self._tables, what, strict=True):
                    for k in ids:
                        table.setdefault(k, set()).add(oid)
        if volatile:
            self.volatile.add(oid)
        else:
            self.volatile.discard(oid)

    def unread(self, oid: int) -> None:
        """Forget what ``oid``'s free-target offers read (and that they are volatile)."""
        was = self.reads.pop(oid, None)
        if was is not None:
            for table, ids in zip(self._tables, was, strict=True):
                for k in ids:
                    found = table.get(k)  # a choice may be read twice
                    if found is not None:
                        found.discard(oid)
                        if not found:
                            del table[k]
        self.volatile.discard(oid)

    def drop(self, oid: int) -> None:
        """``oid`` out of every list (it changed: its facts are found again)."""
        i = find(self.acting, oid)
        if i is not None:
            del self.acting[i], self.pairs[2 * i : 2 * i + 2]
            self.unread(oid)
        for ids in (self.referable, self.identified):
            i = find(ids, oid)
            if i is not None:
                del ids[i]
        self.inputs.pop(oid, None)
        self.reach.discard(oid)

    def keep_inputs(self, found: dict[int, Any], empty_stays: bool) -> None:
        """Keep the inputs found this call (``empty_stays``: those that are ``()`` are not
        asked again while their object is the same)."""
        self.inputs.update(found)
        reach = self.reach
        for oid, inputs in found.items():
            if empty_stays and inputs == ():
                reach.discard(oid)
            else:
                reach.add(oid)


def find(ids: Sequence[int], oid: int) -> int | None:
    """Where ``oid`` is in the sorted ``ids``, or ``None``."""
    i = bisect.bisect_left(ids, oid)
    return i if i < len(ids) and ids[i] == oid else None


def knowledge_of(known: dict[Any, tuple[Any, ...]], o: GameObject) -> tuple[Any, ...]:
    """The kept knowledge naming ``o`` or its card, and the designations naming it
    (:meth:`OfferMemo._knowledge`)."""
    if not known:
        return ()
    get = known.get
    return get(o.id, ()) + get(("card", o.card), ()) + get(("d", o.id), ())


def empty_stays(rs: Any) -> bool:
    """Whether an object's empty inputs stay empty while it is the same object
    (:attr:`~obverse.rulesets.Ruleset.empty_inputs_stay`, or no inputs at all)."""
    return bool(rs.empty_inputs_stay) or type(rs).offer_inputs is Offers.offer_inputs


class KeptContext(OfferContext):
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
        #: Per kept choices (by identity, :meth:`Version.same_choices`): whether they hold.
        self.checked: dict[int, tuple[Any, bool]] = {}
        #: The kept choices (each an id, object and inputs) found unchanged this call, by
        #: identity (held, so an identity stays theirs).
        self.held: dict[int, tuple[Any, ...]] = {}
        #: This call's choices (:meth:`firsts`), one tuple per choice.
        self._made: dict[int, tuple[Any, ...]] = {}
        #: The inputs found this call, by object id (:meth:`inputs`).
        self.found: dict[int, Any] = {}
        #: The objects the seat may identify, by id (:meth:`OfferMemo._acting`).
        self.identifiable: list[int] | None = None
        self._firsts: dict[tuple[int, ...], tuple[tuple[Any, ...], ...]] = {}
        #: The latest call's sets and the objects changed since (:meth:`subset`).
        self.since: tuple[dict[Any, tuple[int, ...]], set[int]] | None = None
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
        found = self.found.get(o.id)
        if found is None:
            found = self.found[o.id] = self.rs.offer_inputs(self.state, o)
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
        :meth:`firsts` reading it: checked once a later call, :meth:`Version.same_choices`)."""
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

    def subset(
        self, key: Any, within: str, pick: Callable[[Sequence[int]], list[int]]
    ) -> tuple[int, ...]:
        """:meth:`OfferContext.subset`, from the latest call's set under ``key``
        (``since``: those sets and the objects changed since) when there is one: ``pick``
        given only the changed objects."""
        found = self.sets.get(key)
        if found is not None:
            if self.read is not None:
                self.read.append((key, found))
            return found
        if self.since is None or key not in self.since[0]:
            return super().subset(key, within, pick)
        ids = list(self.since[0][key])
        changed = self.since[1]
        for oid in changed:
            i = find(ids, oid)
            if i is not None:
                del ids[i]
        base = getattr(self, within)()
        for oid in pick([x for x in changed if find(base, x) is not None]):
            bisect.insort(ids, oid)
        return self.shared(key, lambda: tuple(ids))

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
        if len(self.last) > INTERNED:
            self.last.clear()


def firsts_of(found: list[Targets]) -> list[int]:
    """The choices the decisions of ``found`` read (the first, or each one by one)."""
    out: list[int] = []
    for t in found:
        if t.each:
            out += [x for x in t.ids if x not in t.excluded]
        else:
            first = getattr(t.action, t.field)
            out.append(first[-1] if isinstance(first, tuple) else first)
    return out


#: What an object's free-target offers read: the keys of the shared sets, the first
#: choices (of the offers decided on their first), the keys of the sets whose every choice
#: is decided one by one.
Read = tuple[tuple[Any, ...], tuple[int, ...], tuple[Any, ...]]
NOTHING: Read = ((), (), ())


def what_read(
    keys: tuple[Any, ...], reads: tuple[tuple[Any, tuple[int, ...]], ...], found: list[Targets]
) -> Read:
    """What ``found`` read (:data:`Read`): an offer deciding each choice by itself reads
    its set's key (every choice in it); one whose set is no shared set, each choice."""
    chosen: list[int] = []
    each: list[Any] = []
    for t in found:
        key = next((k for k, ids in reads if ids is t.ids), None) if t.each else None
        if key is not None:
            each.append(key)
        else:
            chosen += firsts_of([t])
    return keys, tuple(chosen), tuple(dict.fromkeys(each))
