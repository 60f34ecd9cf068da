"""Game state: physical cards, game objects, zones, effects. Immutable, with value semantics.

The four things the design keeps apart (docs/decisions.md, "Model"): the printed card
(:class:`CardDef`), the game object (:class:`GameObject`, a fresh id whenever the rules make a
new object), its status (fields of the object), and the copiable-value overrides
(:attr:`GameObject.copies`).
"""

from __future__ import annotations

import hashlib
import hmac
import operator
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

import immutables
import msgspec

from obverse import memo
from obverse.cards import CardDef, Face

FACES: Final = ("front", "back", "left", "right", "both")


class PhysicalCard(msgspec.Struct, frozen=True):
    """A physical card (or token) in the game: stable across the objects it becomes."""

    card: CardDef
    owner: str
    token: bool = False
    #: FaB 9.1.5b: a transcended card keeps its back face active for the rest of the game.
    transcended: bool = False


class CopyValues(msgspec.Struct, frozen=True):
    """Copiable values a copy effect imposes (MTG 707.2, FaB 8.5.25, GA 7).

    ``faces`` with the ``layout`` that tells how to read them (a copy of a flip card keeps
    both faces and the copy's own flipped status picks one, 707.3; a copy of a split card
    keeps both halves, 709.3c); ``source_face`` records which face of the original was copied.
    """

    layout: str
    faces: tuple[Face, ...]
    name: str
    source_face: str = "front"
    #: MTG 707.9: the copy effect's exceptions ("except it's a 1/1 green Frog"), part of the
    #: copiable values (so a copy of this copy has them too): (key, value) pairs.
    exceptions: tuple[tuple[str, object], ...] = ()


class GameObject(msgspec.Struct, frozen=True, gc=False):
    """One game object: a card (or two, when melded) in a zone, with its status."""

    id: int
    cards: tuple[int, ...]
    zone: str
    owner: str
    controller: str
    face: str = "front"
    face_down: bool = False
    flipped: bool = False
    token: bool = False
    copies: tuple[CopyValues, ...] = ()
    meld: CardDef | None = None
    counters: tuple[tuple[str, int], ...] = ()
    timestamp: int = 0
    marked: bool = False
    #: SCP: a cross test was declared with this object.
    cross_tested: bool = False
    #: The object was turned face down (or set up / moved face down) on purpose.
    set_face_down: bool = False
    #: A public object in a private zone (FaB 3.0.4d: moved there or turned there face up).
    shown: bool = False
    #: MTG: how it was turned face down (morph, manifest, disguise ...): its face-down values.
    face_down_as: str | None = None
    #: MTG 708.2: the characteristics the effect that turned it face down listed, instead
    #: of the 2/2 (``(key, value)`` pairs: "It's a Forest land").
    face_down_values: tuple[tuple[str, object], ...] = ()
    #: MTG 729.2: a merged permanent's components, topmost first, each ``(card id, face,
    #: face down)`` (its ``cards`` in the same order); empty for any other object.
    components: tuple[tuple[int, str, bool], ...] = ()
    #: MTG 709.5c: a Room's unlocked doors ("left", "right"): a designation, not copiable.
    unlocked: tuple[str, ...] = ()
    #: FaB 3.0.14: the id of the top-card this sub-card is under (``None``: not a sub-card).
    under: int | None = None
    #: GA Orientation: rested (turned sideways) rather than awake; objects enter awake.
    rested: bool = False

    @property
    def card(self) -> int:
        """The (first) physical card representing the object."""
        return self.cards[0]


class Effect(msgspec.Struct, frozen=True):
    """A continuous effect from ``apply_effect``: bound to one object or to a filter."""

    label: str
    target: int | None
    filter: tuple[tuple[str, object], ...] | None
    modify: tuple[tuple[str, object], ...]
    until_end_of_turn: bool = False
    fixed: tuple[int, ...] | None = None
    timestamp: int = 0
    zone: str | None = None


class Knowledge(msgspec.Struct, frozen=True):
    """``player`` may identify physical ``card`` while object ``obj`` exists (reveal/examine);
    ``lasting`` knowledge survives turning face down (GA public/private #6.1.1). ``since`` is
    the state clock when it was gained; it ends when the object stops existing (unless
    lasting), when the card's zone is shuffled, or when a ruleset hook drops it."""

    player: str
    card: int
    obj: int
    lasting: bool = False
    since: int = 0


#: A knowledge entry's object and card, read in C (``x in map(KNOWN_OBJ, knowledge)`` scans
#: without a Python frame per entry).
KNOWN_OBJ: Final = operator.attrgetter("obj")
KNOWN_CARD: Final = operator.attrgetter("card")
#: Whether a knowledge entry survives turning face down.
KNOWN_LASTING: Final = operator.attrgetter("lasting")
_TARGET: Final = operator.attrgetter("target")
#: A designation's object (a designation is ``(name, object id)``).
DESIGNATED: Final = operator.itemgetter(1)


#: A plain tuple this long or longer is asked through its index (:func:`_named`); a shorter
#: one is scanned (a scan of a few entries costs less than finding the index).
_INDEXED_FROM: Final = 24

#: An index of a long tuple's ``field`` values: the set of them, them in order, and whether
#: no value is there twice (then an entry naming a value is the only one: no count needed).
_Index = tuple[frozenset[Any], tuple[Any, ...], bool]


def _grown(
    kept: tuple[object, ...], index: _Index, entries: tuple[Any, ...], field: Callable[[Any], Any]
) -> _Index | None:
    """The index of ``entries`` from the index of the tuple asked before, when ``entries`` is
    that tuple and more (:func:`adding`): only the new values read; ``None`` otherwise."""
    (before,) = kept
    n = len(before)  # type: ignore[arg-type]
    if len(entries) <= n or entries[:n] != before:
        return None
    added = tuple(map(field, entries[n:]))
    values, named = index[0].union(added), (*index[1], *added)
    return values, named, len(values) == len(named)


# Knowledge grows with the game and is asked about many times between its changes
# (designations, once per battle, at every move): one pass per tuple, not per ask, and a
# grown tuple's index grows from its predecessor's. One slot per field (the last long tuple
# asked about), the tuple held so its identity can't be reused while kept.
@memo.last("entries", per="field", derive=_grown)
def _slot(entries: tuple[Any, ...], field: Callable[[Any], Any]) -> _Index:
    """The index of a long plain tuple's ``field`` values: their set, them in order, and
    whether each is there once."""
    named = tuple(map(field, entries))
    values = frozenset(named)
    return values, named, len(values) == len(named)


def _named(entries: tuple[Any, ...], field: Callable[[Any], Any]) -> frozenset[Any]:
    """The ``field`` values of a long plain tuple's entries, as a set (:func:`_slot`)."""
    return _slot(entries, field)[0]


def mentions(entries: tuple[Any, ...], field: Callable[[Any], Any], x: Any) -> bool:
    """Whether an entry's ``field`` is ``x`` (``x in map(field, entries)``: a scan in C, or
    the index of a long tuple). ``field`` is a module constant (the index is kept per field)."""
    if len(entries) >= _INDEXED_FROM:
        return x in _named(entries, field)
    return x in map(field, entries)


def mentions_any(entries: tuple[Any, ...], field: Callable[[Any], Any], xs: set[Any]) -> bool:
    """Whether an entry's ``field`` is one of ``xs``."""
    if len(entries) >= _INDEXED_FROM:
        return not _named(entries, field).isdisjoint(xs)
    return not xs.isdisjoint(map(field, entries))


@memo.last("designations")
def _marks(designations: tuple[tuple[str, int], ...]) -> frozenset[tuple[str, int]]:
    """The set of a long designations tuple's entries (the last one asked about)."""
    return frozenset(designations)


def designated(designations: tuple[tuple[str, int], ...], mark: tuple[str, int]) -> bool:
    """Whether ``mark`` is one of ``designations`` (``mark in designations``). A long tuple
    (every battle's protector ...) is asked through the set of its entries, built once per
    tuple: a move asks it several times, and a scan compares every entry."""
    if len(designations) < _INDEXED_FROM:
        return mark in designations
    return mark in _marks(designations)


def marks_naming(designations: tuple[tuple[str, int], ...], oid: int) -> tuple[str, ...]:
    """The names of the designations on object ``oid``, in order: a scan in C first for a
    short tuple (most objects have none), the index of a long one."""
    if len(designations) >= _INDEXED_FROM:
        return _by_object(designations).get(oid, ())
    if not designations or oid not in map(DESIGNATED, designations):
        return ()
    return tuple(name for name, on in designations if on == oid)


@memo.last("designations")
def _by_object(designations: tuple[tuple[str, int], ...]) -> dict[int, tuple[str, ...]]:
    """The names of a long designations tuple's entries by the object they name, built once
    per tuple (every battle's protector is one: a move asks it of the moving object)."""
    names: dict[int, tuple[str, ...]] = {}
    for name, on in designations:
        names[on] = (*names.get(on, ()), name)
    return names


def dropping(
    entries: tuple[Any, ...],
    field: Callable[[Any], Any],
    x: Any,
    keep: Callable[[Any], Any] | None = None,
) -> tuple[Any, ...]:
    """``entries`` without those whose ``field`` is ``x`` (save those ``keep`` keeps);
    ``entries`` itself when none goes. ``keep`` looks at the entry alone."""
    # A scan in C (or the index of a long tuple) first: most x are named by no entry.
    if len(entries) >= _INDEXED_FROM:
        values, named, once = _slot(entries, field)  # the values in order kept with the set
        if x not in values:
            return entries
    else:
        if x not in map(field, entries):
            return entries
        named, once = tuple(map(field, entries)), False
    # The entries naming x found in C too (tuple.index), only they looked at in Python: a
    # long tuple names x a few times at most, most often once (then cut out by two slices).
    # Counted unless the index knows every value is there once (a count reads every entry).
    at = named.index(x)
    count = 1 if once else named.count(x)
    if count == 1:
        if keep is not None and keep(entries[at]):
            return entries
        return entries[:at] + entries[at + 1 :]
    out: tuple[Any, ...] = ()
    start, at = 0, -1
    for _ in range(count):
        at = named.index(x, at + 1)
        if keep is None or not keep(entries[at]):
            out += entries[start:at]
            start = at + 1
    return entries if start == 0 else out + entries[start:]


def adding(entries: tuple[Any, ...], *new: Any) -> tuple[Any, ...]:
    """``entries`` and then ``new``. An index of ``entries`` (:func:`_slot`) grows with it:
    the new values are added to it, not every entry read again."""
    return (*entries, *new)


class Zone(msgspec.Struct, eq=False, gc=False):
    """A zone's contents: a persistent ordered set of object ids (top first).

    Each id has an integer rank (smaller is nearer the top) held in a hash-array-mapped trie,
    so placing on top or bottom, removing and finding an id are O(log n) and share structure
    with the previous state instead of rebuilding a tuple. The order is the ranks' (read
    whole, once per zone value: :meth:`ids`); a map from rank to id as well would be a second
    trie to edit on every move, for nothing the rules ask. ``shuffles`` counts this zone's
    shuffles: handles of its objects change with it (and only with it).
    Equality is by order and shuffle count, so states built the same way compare equal.

    A struct, not a plain class: every zone edit makes one, and a struct is built without a
    Python ``__init__``. It holds only maps of numbers, so it is never part of a reference
    cycle (``gc=False``). Treat it as immutable: only the ``ids()`` memo is ever set.
    """

    rank_of: immutables.Map[int, int]
    #: Bounds of the ranks in use (every rank is in ``[lo, hi]``; removals leave them):
    #: new tops go at lo - 1, new bottoms at hi + 1.
    lo: int = 0
    hi: int = -1
    shuffles: int = 0
    #: ``ids()``, found once per zone value.
    _ids: tuple[int, ...] | None = None

    @classmethod
    def of(cls, ids: Iterable[int], shuffles: int = 0) -> Zone:
        """A zone holding ``ids`` (top first)."""
        order = tuple(ids)
        rank_of = immutables.Map((oid, r) for r, oid in enumerate(order))
        if len(rank_of) != len(order):
            raise ValueError("an object appears twice in one zone")
        return cls(rank_of, 0, len(order) - 1, shuffles)

    def put(self, oid: int, bottom: bool = False) -> Zone:
        """The zone with ``oid`` added on top (or at the bottom)."""
        if oid in self.rank_of:
            self = self.without(oid)
        return self.put_absent(oid, bottom)

    def put_absent(self, oid: int, bottom: bool = False) -> Zone:
        """:meth:`put` of an ``oid`` known not to be here."""
        if not self.rank_of:
            return Zone(self.rank_of.set(oid, 0), 0, 0, self.shuffles)
        if bottom:
            hi = self.hi + 1
            return Zone(self.rank_of.set(oid, hi), self.lo, hi, self.shuffles)
        lo = self.lo - 1
        return Zone(self.rank_of.set(oid, lo), lo, self.hi, self.shuffles)

    def without(self, oid: int) -> Zone:
        """The zone without ``oid`` (KeyError if it isn't there)."""
        rank_of = self.rank_of.delete(oid)
        if not rank_of:
            return Zone(rank_of, 0, -1, self.shuffles)
        return Zone(rank_of, self.lo, self.hi, self.shuffles)

    def swap(self, old: int, new: int) -> Zone:
        """The zone with ``new`` in ``old``'s place."""
        rank = self.rank_of[old]
        rank_of = self.rank_of.delete(old).set(new, rank)
        return Zone(rank_of, self.lo, self.hi, self.shuffles)

    def shuffled(self, order: Iterable[int]) -> Zone:
        """The zone holding ``order`` (top first), one shuffle later."""
        return Zone.of(order, self.shuffles + 1)

    def rank(self, oid: int) -> int | None:
        """``oid``'s rank (smaller is nearer the top), or None if it isn't here."""
        return self.rank_of.get(oid)

    def top(self) -> int | None:
        """The id on top, or None when empty (O(n) once per zone value: :meth:`ids`)."""
        ids = self.ids()
        return ids[0] if ids else None

    def bottom(self) -> int | None:
        """The id at the bottom, or None when empty (O(n) once per zone value)."""
        ids = self.ids()
        return ids[-1] if ids else None

    def ids(self) -> tuple[int, ...]:
        """The ids, top first (O(n log n) once per zone value; not for the hot path)."""
        if self._ids is None:
            rank_of = self.rank_of
            self._ids = tuple(sorted(rank_of, key=rank_of.__getitem__))
        return self._ids

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids())

    def __len__(self) -> int:
        return len(self.rank_of)

    def __contains__(self, oid: object) -> bool:
        return oid in self.rank_of

    def __getitem__(self, index: int) -> int:
        return self.ids()[index]

    def index(self, oid: int) -> int:
        """``oid``'s position from the top (O(n))."""
        return self.ids().index(oid)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Zone):
            return NotImplemented
        return self.shuffles == other.shuffles and self.ids() == other.ids()

    def __hash__(self) -> int:
        return hash((self.shuffles, self.ids()))

    def __repr__(self) -> str:
        return f"Zone({list(self.ids())}, shuffles={self.shuffles})"


EMPTY_ZONE: Final = Zone(immutables.Map())


class Trail(msgspec.Struct, eq=False, frozen=True):
    """Which objects changed, newest first: a persistent list the core edits extend, so a view
    can find what changed since an earlier state in O(changes). Bookkeeping, not game state:
    any two trails compare equal and it isn't serialized.

    A struct (each core edit makes one, built without a Python ``__init__``), tracked
    by the garbage collector so freeing a long trail doesn't recurse through it. ``depth``
    is ``prev.depth + 1`` (0 at the root)."""

    prev: Trail | None = None
    oid: int = 0
    depth: int = 0
    #: A second object the same edit touched (a move's new object), or 0 (no object has
    #: id 0): one node for a move, not two.
    also: int = 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trail)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"Trail(depth={self.depth})"

    # A trail is as long as the history behind it: pickled or deep-copied link by link it
    # would recurse once per action (RecursionError past a few hundred). It isn't game
    # state, so a copy shares it (it is immutable) and a pickle stores none of it: a loaded
    # state starts a trail of its own (:func:`_loaded_trail`).
    def __reduce__(self) -> tuple[Any, ...]:
        return (_root_trail, ()) if self.prev is None else (_loaded_trail, ())

    def __copy__(self) -> Trail:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self

    def since(self, old: Trail, limit: int) -> set[int] | None:
        """Objects touched on either side since this trail and ``old`` parted (``old`` may
        be an ancestor, a descendant (undo) or a sibling), or None past ``limit`` steps."""
        out: set[int] = set()
        a: Trail | None = self
        b: Trail | None = old
        while a is not b:
            if a is None or b is None or len(out) > limit:
                return None
            if a.depth >= b.depth:
                out.add(a.oid)
                if a.also:
                    out.add(a.also)
                a = a.prev
            else:
                out.add(b.oid)
                if b.also:
                    out.add(b.also)
                b = b.prev
        # Every game starts at the root, and a loaded state's trail is the root: no common
        # history to go by there.
        return None if a is None or a.depth == 0 else out


_ROOT: Final = Trail()


def _root_trail() -> Trail:
    """The root trail (an empty game's), as a pickle loads it."""
    return _ROOT


def _loaded_trail() -> Trail:
    """A loaded state's trail: a fresh start that no other state shares, so a view finds
    no common history with a state loaded apart (``Trail.since`` is ``None``: a full
    rebuild) and, with the states played on from it, only what changed since."""
    return Trail(_ROOT, 0, 1)


class GameState(msgspec.Struct, frozen=True, gc=False):
    """The whole game: immutable; every action returns a new state."""

    ruleset: str
    players: tuple[str, ...]
    cards: immutables.Map[int, PhysicalCard]
    objects: immutables.Map[int, GameObject]
    card_object: immutables.Map[int, int]
    zones: immutables.Map[str, Zone]
    effects: tuple[Effect, ...] = ()
    knowledge: tuple[Knowledge, ...] = ()
    #: Designations the rules put on objects, as ``(name, object id)`` (e.g. scp cards that
    #: may no longer be referred to before the game); not characteristics.
    designations: tuple[tuple[str, int], ...] = ()
    active: int = 0
    turn: int = 1
    next_id: int = 1
    clock: int = 0
    seed: int = 0
    shuffles: int = 0
    pregame: bool = False
    #: The key of this game's handles (:func:`obverse.views.handle`): never shown to anyone,
    #: so a player can't link handles across new objects, hidden zones and shuffles.
    secret: bytes = b""
    #: The key of live shuffles (:func:`shuffled`): empty, a shuffle follows ``seed`` (a
    #: scenario's own steps, reproducible); else each shuffle's order comes from this secret
    #: key and the shuffle's number, unpredictable to anyone without it (never shown).
    shuffle_key: bytes = b""
    #: Which objects the core edits touched (for incremental views; always compares equal).
    trail: Trail = _ROOT

    def __repr__(self) -> str:
        # Short, as python-chess's Board repr: the game, its players, the turn and the clock,
        # how much is in it. The whole state is str() (or a player's view()).
        when = "pregame" if self.pregame else f"turn {self.turn} ({self.active_player})"
        return (
            f"<GameState {self.ruleset} {'/'.join(self.players)}, {when}, clock {self.clock}: "
            f"{len(self.objects)} objects, {len(self.effects)} effects>"
        )

    def __str__(self) -> str:
        """The board, one zone a line (python-chess's ``print(board)``), as a judge sees it:
        the state is the whole truth, so a face-down object's card is named too, marked
        ``face down`` (a player's view of it is :func:`obverse.views.view`). A face other than
        the front is named; in a shared zone, the object's controller::

            <GameState mtg alice/bob, turn 1 (alice), clock 2: 2 objects, 0 effects>
              alice:hand: #1 Delver of Secrets // Insectile Aberration
              battlefield: #2 Clone (face down) [bob]
        """
        lines = [repr(self)]
        for key in sorted(self.zones):
            ids = self.zones[key].ids()
            if ids:
                shared = ":" not in key
                lines.append(f"  {key}: {', '.join(self._line(oid, shared) for oid in ids)}")
        return "\n".join(lines)

    def _line(self, oid: int, shared: bool) -> str:
        """One object of :meth:`__str__`."""
        obj = self.objects[oid]
        notes = [obj.face] if obj.face != "front" else []
        notes += ["face down"] if obj.face_down else []
        text = f"#{oid} {self.card_def(obj).name}"
        text += f" ({', '.join(notes)})" if notes else ""
        return f"{text} [{obj.controller}]" if shared else text

    # --- reading ---------------------------------------------------------------------------

    def obj(self, obj_id: int) -> GameObject:
        """The object with id ``obj_id`` (KeyError if it no longer exists)."""
        return self.objects[obj_id]

    def object_of_card(self, card_id: int) -> GameObject | None:
        """The object physical card ``card_id`` represents now, if any."""
        oid = self.card_object.get(card_id)
        return None if oid is None else self.objects.get(oid)

    def card_def(self, obj: GameObject) -> CardDef:
        """The printed card representing ``obj`` (the meld result for a melded permanent)."""
        return obj.meld if obj.meld is not None else self.cards[obj.cards[0]].card

    def zone_key(self, zone: str, owner: str | None) -> str:
        """The key of a zone: ``owner:zone`` for owned zones, ``zone`` for shared ones."""
        return zone if owner is None else f"{owner}:{zone}"

    def zone_contents(self, key: str) -> tuple[int, ...]:
        """Object ids in zone ``key``, top first (O(n): views and tests, not the hot path)."""
        zone = self.zones.get(key)
        return () if zone is None else zone.ids()

    def zone(self, key: str) -> Zone:
        """Zone ``key`` (empty if it holds nothing)."""
        return self.zones.get(key, EMPTY_ZONE)

    def zone_key_of(self, obj: GameObject) -> str:
        """The zone key ``obj`` is in (O(log n))."""
        for key in (f"{obj.owner}:{obj.zone}", obj.zone):
            zone = self.zones.get(key)
            if zone is not None and obj.id in zone.rank_of:
                return key
        raise KeyError(obj.id)

    def iter_objects(self) -> Iterator[GameObject]:
        """Every object, in id order."""
        for oid in sorted(self.objects.keys()):
            yield self.objects[oid]

    @property
    def active_player(self) -> str:
        """The player whose turn it is."""
        return self.players[self.active]


def new_state(
    ruleset: str,
    players: tuple[str, ...],
    seed: int = 0,
    pregame: bool = False,
    secret: bytes | None = None,
    shuffle_key: bytes = b"",
) -> GameState:
    """An empty game for ``players`` (the first is active). ``secret`` keys its handles:
    pass random bytes where players are adversaries (a server); the default derives it from
    the seed, so a scenario file replays to the same handles. ``shuffle_key`` keys its
    shuffles the same way (empty: they follow the seed)."""
    if secret is None:
        secret = hashlib.blake2b(f"obverse handles {seed}".encode(), digest_size=16).digest()
    return GameState(
        ruleset=ruleset,
        players=players,
        cards=immutables.Map(),
        objects=immutables.Map(),
        card_object=immutables.Map(),
        zones=immutables.Map(),
        seed=seed,
        pregame=pregame,
        secret=secret,
        shuffle_key=shuffle_key,
    )


def shuffled(state: GameState, contents: list[int]) -> list[int]:
    """``contents`` in the order the state's next shuffle gives (the ``shuffles``-th).

    Without a shuffle key the order is the seeded generator's (``seed`` and the count: a
    scenario replays). With one it is a Fisher-Yates shuffle drawing from HMAC-SHA256 of the
    key, the count and a block number (a keyed pseudo-random function: without the key the
    order is unpredictable, with it a replay reproduces it); each draw is unbiased
    (rejection sampling)."""
    out = list(contents)
    if len(out) < 2:
        return out
    if not state.shuffle_key:
        random.Random(f"{state.seed}:{state.shuffles}").shuffle(out)
        return out
    stream = _KeyStream(state.shuffle_key, state.shuffles)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class _KeyStream:
    """Unbiased integers from HMAC-SHA256(key, shuffle number, block) (see :func:`shuffled`)."""

    def __init__(self, key: bytes, number: int) -> None:
        self.key, self.number, self.block, self.pool = key, number, 0, b""

    def _bytes(self, n: int) -> bytes:
        while len(self.pool) < n:
            msg = f"obverse shuffle {self.number}:{self.block}".encode()
            self.pool += hmac.new(self.key, msg, "sha256").digest()
            self.block += 1
        out, self.pool = self.pool[:n], self.pool[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        bits = n.bit_length()
        size = (bits + 7) // 8
        while True:
            value = int.from_bytes(self._bytes(size), "big") >> (size * 8 - bits)
            if value < n:
                return value


# --- primitive edits (core: the rulesets build their procedures from these) ----------------

_replace = msgspec.structs.replace


def tick(state: GameState) -> tuple[GameState, int]:
    """Advance the timestamp clock; returns the new state and the new timestamp."""
    return _replace(state, clock=state.clock + 1), state.clock + 1


def new_object_id(state: GameState) -> tuple[GameState, int]:
    """A fresh object id."""
    return _replace(state, next_id=state.next_id + 1), state.next_id


def place(state: GameState, obj: GameObject, key: str, position: str | None = None) -> GameState:
    """Put ``obj`` into zone ``key`` (top unless ``position == "bottom"``) and the table."""
    contents = state.zones.get(key, EMPTY_ZONE).put(obj.id, bottom=position == "bottom")
    card_object = state.card_object
    for card in obj.cards:
        card_object = card_object.set(card, obj.id)
    return _replace(
        state,
        zones=state.zones.set(key, contents),
        objects=state.objects.set(obj.id, obj),
        card_object=card_object,
        trail=Trail(state.trail, obj.id, state.trail.depth + 1),
    )


def remove(state: GameState, obj: GameObject, key: str) -> GameState:
    """Take ``obj`` out of zone ``key`` and the object table (its cards keep no object)."""
    contents = state.zones[key].without(obj.id)
    # An empty zone is dropped unless it was shuffled (its count keeps handles fresh).
    keep = contents.rank_of or contents.shuffles
    zones = state.zones.set(key, contents) if keep else state.zones.delete(key)
    card_object = state.card_object
    for card in obj.cards:
        if card_object.get(card) == obj.id:
            card_object = card_object.delete(card)
    return _replace(
        state,
        zones=zones,
        objects=state.objects.delete(obj.id),
        card_object=card_object,
        trail=Trail(state.trail, obj.id, state.trail.depth + 1),
    )


def relocate(
    state: GameState,
    old: GameObject,
    old_key: str,
    new: GameObject,
    new_key: str,
    position: str | None = None,
    *,
    clock: int | None = None,
    next_id: int | None = None,
) -> GameState:
    """:func:`remove` ``old`` from zone ``old_key``, then :func:`place` ``new`` (the object it
    became: the same id or a new one) into ``new_key``, as one edit (a move is the hottest
    pair of edits); ``clock`` and ``next_id``: the state's new counters, if they change."""
    zones, oid, nid = state.zones, old.id, new.id
    contents = zones[old_key].without(oid)
    # ``new`` is in no zone now (``old`` was in this one, and a new id is in none): its put
    # needs no test of whether it is there.
    if old_key == new_key:
        zones = zones.set(new_key, contents.put_absent(nid, position == "bottom"))
    else:
        target = zones.get(new_key, EMPTY_ZONE).put_absent(nid, position == "bottom")
        # Both zones edited in one mutation: the trie's root copied once, not twice.
        edit = zones.mutate()
        # An empty zone is dropped unless it was shuffled (its count keeps handles fresh).
        if contents.rank_of or contents.shuffles:
            edit[old_key] = contents
        else:
            del edit[old_key]
        edit[new_key] = target
        zones = edit.finish()
    card_object, objects, cards = state.card_object, state.objects, new.cards
    if oid == nid:
        objects = objects.set(nid, new)
    else:  # a new object: both edits of the objects in one mutation
        changes = objects.mutate()
        del changes[oid]
        changes[nid] = new
        objects = changes.finish()
    same_cards = cards == old.cards
    if not same_cards:  # a card left (a meld split ...): it names this object no more
        for card in old.cards:
            if card not in cards and card_object.get(card) == oid:
                card_object = card_object.delete(card)
    if oid != nid or not same_cards:  # else each card names this object already
        for card in cards:
            card_object = card_object.set(card, nid)
    trail = state.trail
    return _replace(
        state,
        zones=zones,
        objects=objects,
        card_object=card_object,
        trail=Trail(trail, oid, trail.depth + 1, nid),
        clock=state.clock if clock is None else clock,
        next_id=state.next_id if next_id is None else next_id,
    )


def update(state: GameState, obj: GameObject, clock: int | None = None) -> GameState:
    """Replace an object in place (same id, same zone position); ``clock``: the state's new
    clock too, in the same edit (an object stamped with the next timestamp)."""
    return _replace(
        state,
        objects=state.objects.set(obj.id, obj),
        trail=Trail(state.trail, obj.id, state.trail.depth + 1),
        clock=state.clock if clock is None else clock,
    )


def replace_object(state: GameState, old: GameObject, new: GameObject) -> GameState:
    """Put ``new`` (a new id) where ``old`` is, in the same zone position; ``old`` is gone."""
    key = state.zone_key_of(old)
    card_object, trail = state.card_object, state.trail
    for card in new.cards:
        card_object = card_object.set(card, new.id)
    return _replace(
        state,
        zones=state.zones.set(key, state.zones[key].swap(old.id, new.id)),
        objects=state.objects.delete(old.id).set(new.id, new),
        card_object=card_object,
        trail=Trail(trail, old.id, trail.depth + 1, new.id),
    )


def shuffle_zone(state: GameState, key: str, order: Iterable[int]) -> GameState:
    """Zone ``key`` holding ``order`` (its same ids, top first), shuffled once more."""
    zone = state.zones.get(key)
    if zone is None:
        return state
    return _replace(state, zones=state.zones.set(key, zone.shuffled(order)))


def forget(state: GameState, obj_id: int) -> GameState:
    """Drop effects, knowledge and designations bound to an object that ceased to exist."""
    effects, knowledge, designations = state.effects, state.knowledge, state.designations
    if not (effects or knowledge or designations):
        return state
    # Each a scan in C first: most objects have no entry naming them.
    if effects:
        effects = dropping(effects, _TARGET, obj_id)
    if knowledge:
        knowledge = dropping(knowledge, KNOWN_OBJ, obj_id, KNOWN_LASTING)
    if designations:
        designations = dropping(designations, DESIGNATED, obj_id)
    if (
        effects is state.effects
        and knowledge is state.knowledge
        and designations is state.designations
    ):
        return state
    return _replace(state, effects=effects, knowledge=knowledge, designations=designations)


def add_physical_card(state: GameState, card: PhysicalCard) -> tuple[GameState, int]:
    """Register a physical card (it has no object yet); returns its card id."""
    card_id = len(state.cards) + 1
    while card_id in state.cards:
        card_id += 1
    return _replace(state, cards=state.cards.set(card_id, card)), card_id
