"""The one seam for speed: every cache obverse keeps between calls is made here.

Rule procedures, characteristics and views are written plainly; where one answer is asked
again and again (a card's transform ruling, a state's arena index), the plain function is
wrapped by one of this module's decorators instead of keeping a dict of its own:

- :func:`per_value` -- keyed by the (hashable) arguments, like :func:`functools.lru_cache`;
- :func:`per_identity` -- keyed by the *identity* of some parts (a printed card, a state's
  maps), which are held so their identity can't be reused while kept;
- :func:`last` -- one entry: the answer for the latest parts (once a state, not per object).

:func:`plain` turns every cache off (and empties it) for a block: the property tests run
random histories of every game with and without it and hold the answers equal
(``tests/test_memo.py``). :func:`clear` empties them all.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Hashable, Iterator
from typing import Final, Generic, ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")
_V = TypeVar("_V")

#: Whether caches answer (``False`` inside :func:`plain`). A list, so wrappers read one slot.
_ON: Final[list[bool]] = [True]
#: Every cache made here, to be emptied together.
_ALL: Final[list[Callable[[], None]]] = []
#: A per-value or per-identity cache this large is emptied before it grows further.
KEPT: Final = 10_000


def is_on() -> bool:
    """Whether the caches answer (they don't inside :func:`plain`)."""
    return _ON[0]


def clear() -> None:
    """Empty every cache."""
    for empty in _ALL:
        empty()


@contextlib.contextmanager
def plain() -> Iterator[None]:
    """Run a block with every cache off: each call computes its answer plainly."""
    was = _ON[0]
    clear()
    _ON[0] = False
    try:
        yield
    finally:
        _ON[0] = was
        clear()


class LastOf(Generic[_V]):
    """What a rule finds once a state rather than once an object: the value kept for the
    latest key, whose parts (a state's maps, tuples) are compared by identity. The key is
    held, so a part's identity can't be reused while it is kept. Values are never ``None``.

    ``found = LAST.get(state.objects)``, then ``if found is None: found = LAST.put(make(),
    state.objects)``. Inside :func:`plain` it never answers."""

    __slots__ = ("key", "value")

    def __init__(self) -> None:
        self.key: tuple[object, ...] = ()
        self.value: _V | None = None
        _ALL.append(self.drop)

    def drop(self) -> None:
        """Forget the kept value."""
        self.key, self.value = (), None

    def get(self, *key: object) -> _V | None:
        """The value kept for ``key`` (the very same parts), or ``None``."""
        kept = self.key
        if len(kept) != len(key) or not _ON[0]:
            return None
        for a, b in zip(kept, key, strict=True):
            if a is not b:
                return None
        return self.value

    def put(self, value: _V, *key: object) -> _V:
        """Keep ``value`` for ``key`` (the one before is dropped); ``value``."""
        if _ON[0]:
            self.key, self.value = key, value
        return value


def last(parts: Callable[_P, tuple[object, ...]]) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """One entry: the wrapped function's answer for the latest ``parts(*args)``, compared by
    identity (a state's ``zones`` and ``objects``: what it reads). The answer must depend on
    nothing but those parts (and constants)."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        slot: LastOf[tuple[_R]] = LastOf()

        @functools.wraps(f)
        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            key = parts(*args, **kwargs)
            hit = slot.get(*key)
            if hit is None:
                hit = slot.put((f(*args, **kwargs),), *key)
            return hit[0]

        return cached

    return wrap


def per_value(f: Callable[_P, _R]) -> Callable[_P, _R]:
    """The wrapped function's answers keyed by its (hashable, positional) arguments, at most
    :data:`KEPT` of them (then emptied: a bound, not a policy)."""
    table: dict[Hashable, _R] = {}
    _ALL.append(table.clear)

    @functools.wraps(f)
    def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not _ON[0] or kwargs:
            return f(*args, **kwargs)
        hit = table.get(args, _MISSING)
        if hit is _MISSING:
            if len(table) >= KEPT:
                table.clear()
            hit = table[args] = f(*args, **kwargs)
        return hit  # type: ignore[return-value]

    return cached


def per_identity(
    parts: Callable[_P, tuple[object, ...]],
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """The wrapped function's answers keyed by the identity of ``parts(*args)`` (a printed
    card, a face; a ruleset class), at most :data:`KEPT` of them. Each entry holds its parts,
    so an identity can't be reused while kept. The answer must depend on nothing but those
    parts (and constants)."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        table: dict[tuple[int, ...], tuple[tuple[object, ...], _R]] = {}
        _ALL.append(table.clear)

        @functools.wraps(f)
        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if not _ON[0]:
                return f(*args, **kwargs)
            held = parts(*args, **kwargs)
            key = tuple(map(id, held))
            hit = table.get(key)
            if hit is not None and all(a is b for a, b in zip(hit[0], held, strict=True)):
                return hit[1]
            if len(table) >= KEPT:
                table.clear()
            value = f(*args, **kwargs)
            table[key] = (held, value)
            return value

        return cached

    return wrap


_MISSING: Final = object()
