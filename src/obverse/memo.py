"""The one seam for speed: every cache obverse keeps between calls is made here.

Rule procedures, characteristics and views are written plainly; where one answer is asked
again and again (a card's transform ruling, a state's arena index), the plain function is
wrapped by one of this module's decorators instead of keeping a dict of its own:

- :func:`per_value` -- keyed by the (hashable) arguments, like :func:`functools.lru_cache`
  (a ruleset class's verb table: ``memo.per_value`` keyed by the class);
- :func:`per_identity` -- keyed by the *identity* of some parts (a printed card, a state's
  maps), which are held so their identity can't be reused while kept;
- :func:`per_key` -- keyed by a value that names some objects by ``id()`` (a shape naming
  its printed card), holding those objects with the entry;
- :func:`last` -- one entry (or one per slot): the answer for the latest parts (once a state,
  not per object).

:class:`Kept` is the one keyed store of values kept between calls that are not answers of a
function (the views' last view per viewer, patched for the next one); :class:`ByIdentity`
the one store an owner keeps per object by identity (the web table's bytes per view zone and
per offer); :func:`identity_difference` the one comparison of items by ``id()``; and
:func:`refcounts` the one place that asks the interpreter who else holds a kept value
(whether a view handed out earlier can still see it, so it may be patched in place).

:func:`plain` turns every cache off (and empties it) for a block: the property tests run
random histories of every game with and without it and hold the answers equal
(``tests/test_memo.py``). :func:`clear` empties them all.

The two fast paths of their own are here and :class:`obverse.fastoffers.OfferMemo` (the
offers' incremental lists, checked against :mod:`obverse.offer_reference`); no other module
keeps a cache, keys a lookup by ``id()`` or generates code (``tests/test_architecture.py``).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Final, Generic, ParamSpec, TypeVar, overload

_P = ParamSpec("_P")
_R = TypeVar("_R")
_V = TypeVar("_V")
_K = TypeVar("_K", bound=Hashable)

#: Whether caches answer (``False`` inside :func:`plain`). A list, so wrappers read one slot.
_ON: Final[list[bool]] = [True]
#: Every cache made here, to be emptied together.
_ALL: Final[list[Callable[[], None]]] = []
#: A per-value or per-identity cache this large is emptied before it grows further.
KEPT: Final = 10_000


def forget(f: Callable[..., object]) -> None:
    """Empty the cache of one function wrapped here (its ``cache_clear``; typed callers see
    the wrapped function's own signature, so they ask through this)."""
    f.cache_clear()  # type: ignore[attr-defined]  # (a cast would subscript at run time)


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


def _cached(
    f: Callable[_P, _R], wrapper: Callable[_P, _R], empty: Callable[[], None]
) -> Callable[_P, _R]:
    """``wrapper`` with ``f``'s name and docstring and ``empty`` as its ``cache_clear``
    (:func:`forget`), emptied by :func:`clear` too."""
    functools.update_wrapper(wrapper, f)
    wrapper.cache_clear = empty  # type: ignore[attr-defined]
    _ALL.append(empty)
    return wrapper


@overload
def last(
    parts: str, per: str | None = None, derive: Callable[..., Any] | None = None
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
@overload
def last(
    parts: Callable[_P, tuple[object, ...]],
    per: Callable[_P, Hashable] | None = None,
    derive: Callable[..., Any] | None = None,
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
def last(
    parts: Callable[_P, tuple[object, ...]] | str,
    per: Callable[_P, Hashable] | str | None = None,
    derive: Callable[..., Any] | None = None,
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """One entry: the wrapped function's answer for the latest ``parts(*args)``, compared by
    identity (a state's ``zones`` and ``objects``: what it reads). The answer must depend on
    nothing but those parts (and constants). With ``per``, one such entry per slot
    ``per(*args)`` (a hashable value among a few: a field, a player). With ``derive``, a new
    answer may be made from the slot's last one: ``derive(last_parts, last_answer, *args)``
    (``None``: computed plainly), as a tuple's index grows with the tuple.

    For a function asked so often that a second call per ask shows, ``parts`` (and ``per``)
    may be expressions of its parameters instead: names and attributes, comma-separated
    (``"state.objects, state.zones"``), compiled into the wrapper as :func:`per_identity`'s
    are."""
    if isinstance(parts, str):
        assert per is None or isinstance(per, str)
        return _compiled_last(parts, per, derive)
    assert not isinstance(per, str)
    key_of, slot_of = parts, per

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        slots: dict[Hashable, tuple[tuple[object, ...], _R]] = {}

        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if not _ON[0]:
                return f(*args, **kwargs)
            key = key_of(*args, **kwargs)
            name = None if slot_of is None else slot_of(*args, **kwargs)
            hit = slots.get(name)
            if hit is not None:
                kept = hit[0]
                if len(kept) == len(key):
                    for a, b in zip(kept, key, strict=True):
                        if a is not b:
                            break
                    else:
                        return hit[1]
            value: _R | None = None
            if derive is not None and hit is not None:
                value = derive(hit[0], hit[1], *args, **kwargs)
            if value is None:
                value = f(*args, **kwargs)
            if len(slots) >= KEPT and name not in slots:
                slots.clear()
            slots[name] = (key, value)
            return value

        return _cached(f, cached, slots.clear)

    return wrap


def _compiled_last(
    parts: str, per: str | None, derive: Callable[..., Any] | None
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """:func:`last` with its parts (and slot) expressions of the parameters."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        slots: dict[Hashable, tuple[tuple[object, ...], _R]] = {}
        exprs = [x.strip() for x in parts.split(",") if x.strip()]
        local = [f"_p{i}" for i in range(len(exprs))]
        take = "\n".join(f"{p} = {x}" for p, x in zip(local, exprs, strict=True))
        same = " and ".join(f"_held[{i}] is {p}" for i, p in enumerate(local))
        # The slots are empty inside plain() and nothing is kept then: no check on a hit.
        body = f"""{take}
_name = {per or "None"}
_hit = _slots.get(_name)
if _hit is not None:
    _held = _hit[0]
    if {same}:
        return _hit[1]
_value = None
if _derive is not None and _hit is not None:
    _value = _derive(_hit[0], _hit[1], {{call}})
if _value is None:
    _value = _f({{call}})
if _on[0]:
    if len(_slots) >= _kept and _name not in _slots:
        _slots.clear()
    _slots[_name] = (({", ".join(local)},), _value)
return _value"""
        names = {"_on": _ON, "_slots": slots, "_derive": derive, "_kept": KEPT}
        return _cached(f, _compiled(f, body, names), slots.clear)  # type: ignore[arg-type]

    return wrap


@overload
def per_value(f: Callable[_P, _R], /) -> Callable[_P, _R]: ...
@overload
def per_value(*, kept: int = KEPT) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
def per_value(
    f: Callable[_P, _R] | None = None, /, *, kept: int = KEPT
) -> Callable[_P, _R] | Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """The wrapped function's answers keyed by its (hashable, positional) arguments, at most
    ``kept`` of them (then emptied: a bound, not a policy). ``@per_value`` or
    ``@per_value(kept=n)``."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        table: dict[Hashable, _R] = {}
        if _plain_parameters(f):  # compiled: one frame a call
            # The table is empty inside plain() and nothing is kept then: no check on a hit.
            body = """_key = ({call},)
_hit = _table.get(_key, _missing)
if _hit is _missing:
    _hit = _f({call})
    if _on[0]:
        if len(_table) >= _kept:
            _table.clear()
        _table[_key] = _hit
return _hit"""
            names = {"_on": _ON, "_table": table, "_kept": kept, "_missing": _MISSING}
            return _cached(f, _compiled(f, body, names), table.clear)  # type: ignore[arg-type]

        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if not _ON[0] or kwargs:
                return f(*args, **kwargs)
            hit = table.get(args, _MISSING)
            if hit is _MISSING:
                if len(table) >= kept:
                    table.clear()
                hit = table[args] = f(*args, **kwargs)
            return hit  # type: ignore[return-value]

        return _cached(f, cached, table.clear)

    return wrap if f is None else wrap(f)


def _plain_parameters(f: Callable[..., object]) -> bool:
    """Whether ``f`` takes positional-or-keyword parameters only, none named with a leading
    underscore (what :func:`_compiled` copies: its own names all have one)."""
    params = inspect.signature(f).parameters.values()
    return all(p.kind is p.POSITIONAL_OR_KEYWORD and p.name[0] != "_" for p in params)


def _compiled(
    f: Callable[..., object], body: str, names: dict[str, object]
) -> Callable[..., object]:
    """A wrapper of ``f`` with ``f``'s own parameters (so a call costs one frame, as a cache
    written into ``f`` would): ``body`` (``{call}`` standing for the parameters, in order)
    run with ``names`` and ``f``'s module's names in reach. ``f`` takes positional-or-keyword
    parameters only; a default is the very object of ``f``'s."""
    if not _plain_parameters(f):
        raise TypeError(f"{f.__qualname__}: a compiled cache takes plain parameters only")
    params = list(inspect.signature(f).parameters.values())
    defaults = {f"_default_{p.name}": p.default for p in params if p.default is not p.empty}
    head = ", ".join(
        p.name if p.default is p.empty else f"{p.name}=_default_{p.name}" for p in params
    )
    call = ", ".join(p.name for p in params)
    lines = body.replace("{call}", call).splitlines()
    source = (
        f"def _make({', '.join(('_f', *names, *defaults))}):\n"
        f"    def cached({head}):\n"
        + "".join(f"        {line}\n" for line in lines)
        + "    return cached\n"
    )
    made: dict[str, Any] = {}
    # The text is made here, from the parameters' names and the decorator's expressions.
    exec(source, f.__globals__, made)
    wrapper: Callable[..., object] = made["_make"](f, *names.values(), *defaults.values())
    return wrapper


@overload
def per_identity(
    parts: Callable[_P, tuple[object, ...] | None], /, *, kept: int = KEPT
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
@overload
def per_identity(
    *parts: str, when: str | None = None, kept: int = KEPT
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]: ...
def per_identity(
    *parts: str | Callable[..., tuple[object, ...] | None],
    when: str | None = None,
    kept: int = KEPT,
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """The wrapped function's answers keyed by the identity of some parts (a printed card, a
    face; a state's maps), at most ``kept`` of them. Each entry holds its parts, so an
    identity can't be reused while kept: equal ids are the same objects. The answer must
    depend on nothing but those parts (and constants).

    The parts are a function of the arguments (``parts(*args)``; ``None``: an answer not to
    keep), or, for a function asked so often that a second call per ask shows, expressions
    of its parameters (``"obj", "state.effects"``), compiled into the wrapper: then one
    answer is kept per identity of the first part (the latest, for its other parts), and
    ``when``, if given, an expression of the parameters too, says whether an answer may be
    kept (asked when one is computed: a call whose parts are all those of a kept answer
    asks the same question)."""
    if len(parts) == 1 and callable(parts[0]):
        return _per_parts(parts[0], kept)
    exprs = [p for p in parts if isinstance(p, str)]

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        table: dict[int, tuple[object, ...]] = {}
        # Each part is read where it is compared (a miss reads no more than it must); the
        # table is empty inside plain() and nothing is kept then, so a hit needs no check.
        same = " and ".join(f"_hit[{i}] is {x}" for i, x in enumerate(exprs))
        body = f"""_hit = _table.get(id({exprs[0]}))
if _hit is not None and {same}:
    return _hit[{len(exprs)}]
_value = _f({{call}})
if _on[0] and ({when or "True"}):
    if len(_table) >= _kept:
        _table.clear()
    _table[id({exprs[0]})] = ({", ".join(exprs)}, _value)
return _value"""
        names = {"_on": _ON, "_table": table, "_kept": kept}
        return _cached(f, _compiled(f, body, names), table.clear)  # type: ignore[arg-type]

    return wrap


def _per_parts(
    parts: Callable[_P, tuple[object, ...] | None], kept: int
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """:func:`per_identity` with its parts a function of the arguments."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        table: dict[tuple[int, ...], tuple[tuple[object, ...], _R]] = {}

        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            held = parts(*args, **kwargs) if _ON[0] else None
            if held is None:
                return f(*args, **kwargs)
            key = tuple(map(id, held))
            hit = table.get(key)
            if hit is not None:
                return hit[1]
            if len(table) >= kept:
                table.clear()
            value = f(*args, **kwargs)
            table[key] = (held, value)
            return value

        return _cached(f, cached, table.clear)

    return wrap


def per_key(
    key: str, holds: str, *, kept: int = KEPT
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """The wrapped function's answers keyed by the value of the expression ``key`` of its
    parameters, which may name objects by ``id()`` (a printed card inside a shape): the
    expression ``holds`` gives those objects, held with the entry (evaluated only when an
    answer is kept) so their ids can't be reused while it is kept. At most ``kept`` answers.
    A key that can't be hashed (an unhashable status field) is no key: the answer is computed
    plainly."""

    def wrap(f: Callable[_P, _R]) -> Callable[_P, _R]:
        table: dict[Hashable, tuple[object, _R]] = {}
        # The table is empty inside plain() and nothing is kept then: no check on a hit.
        body = f"""_key = {key}
try:
    _hit = _table.get(_key)
except TypeError:
    return _f({{call}})
if _hit is not None:
    return _hit[1]
_value = _f({{call}})
if _on[0]:
    if len(_table) >= _kept:
        _table.clear()
    _table[_key] = ({holds}, _value)
return _value"""
        names = {"_on": _ON, "_table": table, "_kept": kept}
        return _cached(f, _compiled(f, body, names), table.clear)  # type: ignore[arg-type]

    return wrap


class Kept(Generic[_K, _V]):
    """Values kept between calls by a hashable key that are not a function's answers (the
    views' last view per viewer, patched into the next): at most ``kept`` of them. Inside
    :func:`plain` nothing is kept, so every caller starts from scratch."""

    __slots__ = ("kept", "table")

    def __init__(self, kept: int = KEPT) -> None:
        self.table: dict[_K, _V] = {}
        self.kept = kept
        _ALL.append(self.table.clear)

    def get(self, key: _K) -> _V | None:
        """The value kept for ``key``, or ``None``."""
        return self.table.get(key) if _ON[0] else None

    def pop(self, key: _K) -> _V | None:
        """The value kept for ``key``, no longer kept, or ``None``."""
        return self.table.pop(key, None) if _ON[0] else None

    def put(self, key: _K, value: _V) -> _V:
        """Keep ``value`` for ``key``; ``value``."""
        if _ON[0]:
            if len(self.table) >= self.kept and key not in self.table:
                self.table.clear()
            self.table[key] = value
        return value

    def clear(self) -> None:
        """Forget every kept value."""
        self.table.clear()


class ByIdentity(Generic[_V]):
    """Values an owner keeps per object (a table's seat: the bytes of a view's zone, an
    offer's label), by the object's identity: one value each, the latest, for the other
    parts given with it (compared by identity too). The parts are held with the value, so
    their ids stay theirs while kept. Emptied with its owner (or by it: :meth:`clear`);
    inside :func:`plain` it never answers."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table: dict[int, tuple[tuple[object, ...], _V]] = {}

    def __len__(self) -> int:
        return len(self.table)

    def get(self, first: object, *parts: object) -> _V | None:
        """The value kept for ``first`` with these very ``parts``, or ``None``."""
        hit = self.table.get(id(first)) if _ON[0] else None
        if hit is None:
            return None
        held = hit[0]
        if held[0] is not first or len(held) != len(parts) + 1:
            return None
        for a, b in zip(held[1:], parts, strict=True):
            if a is not b:
                return None
        return hit[1]

    def put(self, value: _V, first: object, *parts: object) -> _V:
        """Keep ``value`` for ``first`` and ``parts`` (the one before dropped); ``value``."""
        if _ON[0]:
            self.table[id(first)] = ((first, *parts), value)
        return value

    def drop(self, first: object) -> None:
        """Forget the value kept for ``first``."""
        hit = self.table.get(id(first))
        if hit is not None and hit[0][0] is first:
            del self.table[id(first)]

    def clear(self) -> None:
        """Forget every kept value."""
        self.table.clear()


def identity_difference(old: Sequence[_V], new: Sequence[_V]) -> list[_V]:
    """The items of one sequence and not of the other, compared by identity (states share
    their unchanged items; an equal item made anew counts as changed): ``old``'s first."""
    a = {id(x): x for x in old}
    b = {id(x): x for x in new}
    return [x for k, x in a.items() if k not in b] + [x for k, x in b.items() if k not in a]


def refcounts(*held: object) -> list[int]:
    """How many references hold each of ``held`` (CPython's counts): compared with the counts
    of the same call on objects held once, they tell whether anything else holds them, so a
    kept value no one else can see may be changed in place (the views' incremental patch)."""
    return [sys.getrefcount(x) for x in held]


_MISSING: Final = object()
