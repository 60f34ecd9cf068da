"""Traced copies of a state, for the legal-action cache (:class:`obverse.engine.LegalCache`):
a trial runs the kernel on a state whose tables note every entry read (:class:`_TracedMap`),
whose knowledge and designations note what was asked of them (:class:`_TracedTuple`), and
whose other fields note being read (:class:`_TracedState`); what it noted is what its
outcome depends on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from obverse import state as core
from obverse.state import GameState

#: State fields that only number what an action creates (timestamps, object ids) or are
#: bookkeeping: procedures read them to build the next state, never to decide a result or a
#: ruling, so a candidate's outcome does not depend on them.
_NUMBERING = frozenset({"clock", "next_id", "trail"})
#: Maps a trial reads key by key: a candidate depends only on the entries it read.
_TRACED = ("objects", "zones", "card_object", "cards")
#: Tuples a trial reads per object where it only asks whether an entry names one
#: (:func:`state.mentions`; knowledge changes with every reveal, yet most candidates ask
#: only about their own object), else whole.
_TUPLES = ("knowledge", "designations")
#: Every other field (effects, the turn, the players ...) is traced whole: a trial's state is a
#: :class:`_TracedState`, whose reading of one of them notes it.
_WHOLE = tuple(
    f
    for f in GameState.__struct_fields__
    if f not in _NUMBERING and f not in _TRACED and f not in _TUPLES
)
#: The fields a trial's reads are noted on, in the order of their index in a dependency.
_FIELDS = (*_TRACED, *_TUPLES, *_WHOLE)
#: The core edits: what they read of a map only builds the next state (and the value they
#: write at a key derives from the value read at that same key), so it is no dependency. By
#: the id of their code (hashing a code object hashes its constants, on every read).
_EDITS = frozenset(
    id(f.__code__)
    for f in (
        core.place,
        core.remove,
        core.relocate,
        core.update,
        core.replace_object,
        core.shuffle_zone,
    )
)
#: The key standing for a read of a whole map (its length, keys or items).
_ALL: Any = object()

Dependency = tuple[int, Any]  # (traced map index, key or _ALL)


class _Reads:
    """What one trial read of the state it started from: ``(map, key)`` pairs (a changed
    entry is found by comparing states, so the values read need not be kept)."""

    __slots__ = ("origin", "seen", "untrusted")

    def __init__(self, origin: GameState) -> None:
        self.origin = origin
        self.seen: set[Dependency] = set()
        #: A read the tracing can't follow happened: the outcome is not kept.
        self.untrusted = False


#: The reads of the trial running now (one at a time: a cache is not shared between threads).
_RUNNING: list[_Reads] = []


class _TracedState(GameState, frozen=True):
    """A trial's state: reading a field traced whole (:data:`_WHOLE`) notes it. States a
    procedure derives from it (``replace``) are of this type too, so what it reads of them
    is noted as well (as a read of the original: conservative)."""


def _whole_field(index: int, name: str) -> property:
    """A property reading field ``name`` that notes the read, as index ``index``."""
    get = GameState.__dict__[name].__get__
    key = (index, _ALL)

    def read(self: GameState) -> Any:
        if _RUNNING:
            _RUNNING[-1].seen.add(key)
        return get(self)

    return property(read, doc=f"``{name}``, noted as read by the running trial.")


# Set after the class is made: a property in the class body would be taken for a default.
for _index, _name in enumerate(_FIELDS):
    if _name in _WHOLE:
        setattr(_TracedState, _name, _whole_field(_index, _name))


class _TracedMap:
    """An ``immutables.Map`` that notes which entries of the original map were read.

    A map a procedure derives by ``set``/``delete`` is traced too; any read of it notes the
    original's entry at that key (the derived value comes from it and from the procedure's
    own values, which come from earlier reads), so what a trial decided is a function of
    the notes. A key the procedure itself set or deleted on the way holds only its own
    value, so reading it there notes nothing (a new object's id is no dependency)."""

    __slots__ = ("_index", "_map", "_reads", "_written")

    def __init__(
        self, m: Any, index: int, reads: _Reads, written: frozenset[Any] = frozenset()
    ) -> None:
        self._map, self._index, self._reads = m, index, reads
        self._written = written

    def _note(self, key: Any) -> None:
        self._reads.seen.add((self._index, key))

    # The three reads by key note the read inline (a trial makes many): unless the key was
    # written on the way, or the reader is a core edit. The object table is never read by the
    # core edits (they only set and delete), so only the other maps ask who reads.

    def get(self, key: Any, default: Any = None) -> Any:
        if key not in self._written and (
            self._index == 0 or id(sys._getframe(1).f_code) not in _EDITS
        ):
            self._reads.seen.add((self._index, key))
        return self._map.get(key, default)

    def __getitem__(self, key: Any) -> Any:
        if key not in self._written and (
            self._index == 0 or id(sys._getframe(1).f_code) not in _EDITS
        ):
            self._reads.seen.add((self._index, key))
        return self._map[key]

    def __contains__(self, key: Any) -> bool:
        if key not in self._written and (
            self._index == 0 or id(sys._getframe(1).f_code) not in _EDITS
        ):
            self._reads.seen.add((self._index, key))
        return key in self._map

    def _whole(self) -> Any:
        self._note(_ALL)
        return self._map

    def __len__(self) -> int:
        return len(self._whole())

    def __bool__(self) -> bool:
        return bool(self._whole())

    def __iter__(self) -> Any:
        return iter(self._whole())

    def keys(self) -> Any:
        return self._whole().keys()

    def values(self) -> Any:
        return self._whole().values()

    def items(self) -> Any:
        return self._whole().items()

    def __eq__(self, other: object) -> bool:
        return bool(self._whole() == (other._whole() if isinstance(other, _TracedMap) else other))

    __hash__ = None  # type: ignore[assignment]

    def set(self, key: Any, value: Any) -> _TracedMap:
        m = self._map.set(key, value)
        written = self._written if key in self._written else self._written | {key}
        return _TracedMap(m, self._index, self._reads, written)

    def delete(self, key: Any) -> _TracedMap:
        m = self._map.delete(key)
        written = self._written if key in self._written else self._written | {key}
        return _TracedMap(m, self._index, self._reads, written)

    def __getattr__(self, name: str) -> Any:
        self._reads.untrusted = True  # e.g. mutate(): not followed, so not cached
        return getattr(self._map, name)


class _TracedTuple(tuple):  # type: ignore[type-arg]
    """A state's tuple field that notes what was read of it: whether it is empty, whether
    it holds an entry, whether an entry names ``x`` (:func:`state.mentions`); any other read
    notes the whole tuple.

    A tuple a procedure derives by :func:`state.dropping` or :func:`state.adding` is traced
    too, its reads noted on the original: an entry is in it by the entry alone (it was one
    of the original's and not dropped, or was added), so whether one names ``x`` depends
    on the original's entries naming ``x``. Whether it is empty, after dropping, depends on
    every entry."""

    _index: int
    _reads: _Reads
    _orig: tuple[Any, ...]
    #: Entries were dropped on the way from the original.
    _dropped = False

    def _note(self) -> None:
        self._reads.seen.add((self._index, _ALL))

    def _note_key(self, key: Any, answer: bool) -> bool:
        self._reads.seen.add((self._index, key))
        return answer

    def __iter__(self) -> Any:
        self._note()
        return super().__iter__()

    def __len__(self) -> int:
        self._note()
        return super().__len__()

    def __bool__(self) -> bool:
        if self._dropped:
            self._note()
            return super().__len__() > 0
        return self._note_key(_NONEMPTY, super().__len__() > 0)

    def __getitem__(self, index: Any) -> Any:
        self._note()
        return super().__getitem__(index)

    def __contains__(self, item: object) -> bool:
        if not _hashable(item):  # the whole tuple decides
            self._note()
            return super().__contains__(item)
        return self._note_key((_HOLDS, item), super().__contains__(item))

    def _mentions(self, field: Callable[[Any], Any], x: Any) -> bool:
        """:func:`state.mentions` on this tuple, noted as a read of ``x`` only."""
        found = x in map(field, tuple.__iter__(self))
        if not _hashable(x):
            self._note()
            return found
        _MENTIONED.setdefault(self._index, set()).add(field)
        return self._note_key((field, x), found)

    def _dropping(
        self, field: Callable[[Any], Any], x: Any, keep: Callable[[Any], Any] | None
    ) -> tuple[Any, ...]:
        """:func:`state.dropping` on this tuple (itself when nothing goes)."""
        plain = tuple(tuple.__iter__(self))
        out = core.dropping(plain, field, x, keep)
        self._mentions(field, x)  # what goes is what names x
        return self if out is plain else self._derive(out, dropped=True)

    def _adding(self, new: tuple[Any, ...]) -> tuple[Any, ...]:
        """:func:`state.adding` on this tuple."""
        return self._derive((*tuple.__iter__(self), *new), dropped=self._dropped)

    def _derive(self, value: tuple[Any, ...], dropped: bool) -> _TracedTuple:
        out = _traced(value, self._index, self._reads)
        out._orig, out._dropped = self._orig, dropped
        return out


def _whole_read(name: str) -> Callable[..., Any]:
    """A tuple method that reads the whole tuple (in C, past ``__iter__``), noted so."""
    method = getattr(tuple, name)

    def read(self: _TracedTuple, *args: Any) -> Any:
        self._note()
        return method(self, *args)

    return read


for _name in (
    *("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__"),
    *("__add__", "__mul__", "__rmul__", "count", "index"),
):
    setattr(_TracedTuple, _name, _whole_read(_name))


def _hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


#: Keys of a tuple's reads other than the whole: whether it is empty, whether it holds an
#: entry (``(_HOLDS, entry)``); a mention of ``x`` by ``field`` is ``(field, x)``.
_NONEMPTY: Any = object()
_HOLDS: Any = object()
#: Per traced tuple, the fields a mention was asked by (the keys a changed entry makes
#: stale are these fields of it).
_MENTIONED: dict[int, set[Callable[[Any], Any]]] = {}


def _traced(value: tuple[Any, ...], index: int, reads: _Reads) -> _TracedTuple:
    out = _TracedTuple(value)
    out._index, out._reads, out._orig = index, reads, value
    return out


def _tuple_changes(index: int, old: tuple[Any, ...], new: tuple[Any, ...]) -> list[Any] | None:
    """The read keys of a traced tuple whose answer may differ between two values of it
    (``None``: an entry is unhashable or lacks a field asked about, so any may)."""
    stale: list[Any] = [(index, _ALL)]
    if bool(old) != bool(new):
        stale.append((index, _NONEMPTY))
    try:
        changed = set(old).symmetric_difference(new)  # the order alone answers no other read
        stale += [(index, (_HOLDS, e)) for e in changed]
        for field in tuple(_MENTIONED.get(index, ())):  # another cache's trial may add one
            stale += [(index, (field, field(e))) for e in changed]
    except (TypeError, LookupError, AttributeError):
        return None
    return stale
