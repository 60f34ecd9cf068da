"""The brute-force reference of offers: every verb with every reference a seat may make,
tried through :func:`obverse.engine.apply`.

:func:`reference_actions` is what the generators (:func:`obverse.engine.legal_actions`) must
equal, as a set of actions (free-target offers expanded): nothing ``apply`` carries out for
the seat is missing, nothing else is offered. It is slow (every verb on every object and
pair) and meant for tests on small states (``tests/test_offers.py``).

The choices it tries, per action field: an object field, every object (the main one: each
the seat may act with, :meth:`~obverse.rulesets.Ruleset.may_act`; another: each it may refer
to, or, when the verb reads the chosen card (``reads_choice``), each whose card it can
identify); a zone field, every zone;
a player field, every player (an optional one: its default); the fields of :data:`CHOICES`,
their values; every other field its default (modifiers a caller adds: a position, an
exception, a count). The free-form verbs of :data:`UNOFFERED` (an effect, a search, a name)
are composed by the seat, never offered.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import msgspec

from obverse import vocab as v
from obverse.engine import _try, ruleset_of
from obverse.rulesets.base import Catalog, Ruleset
from obverse.rulings import DONE
from obverse.state import FACES, GameState

#: Verbs whose arguments the seat composes (an effect, a search's filter, a name, a pool).
UNOFFERED = frozenset({"apply_effect", "search", "select", "find", "name_card", "check_card_pool"})

#: Per verb, the fields tried beyond objects, zones and players, with their values (a
#: callable gets the ruleset). ``face``: of a multi-faced card, each face by name.
CHOICES: dict[str, dict[str, Any]] = {
    "cast": {"fuse": (False, True)},
    # 708.11's copy is the ability's own choice as it turns face up, a caller's modifier.
    "turn_face_up": {"by": (None, "special_action", "cost"), "copy": (None,)},
    "turn_face_down": {"as_": lambda rs: (None, *sorted(rs.face_down_kinds))},
    "add_counters": {"counter": ("+1/+1",)},
    "unlock": {"door": ("left", "right")},
}

#: Verbs tried with each face of a multi-faced card (a move's face is a caller's modifier).
_FACED = frozenset({"cast", "play"})
#: Face-down ways tried together (``face_down`` with ``as``): moving or casting one face down.
_FACE_DOWN = frozenset({"move", "cast", "play"})


def reference_actions(
    state: GameState, seat: str | None, catalog: Catalog | None = None
) -> set[v.Action]:
    """Every action of the choices above the seat may take now (:meth:`Ruleset.may_act_on`;
    the procedure's result ``done``)."""
    rs = ruleset_of(state)
    objects = list(state.iter_objects())
    acting = [o.id for o in objects if rs.may_act(state, seat, o)]
    refer = [o.id for o in objects if seat is None or rs.may_refer(state, seat, o)]
    known = [o.id for o in objects if rs.may_identify(state, seat, o)]
    out: set[v.Action] = set()
    for cls in rs.vocabulary():
        # A query is asked, not taken: an offer is something the seat may do.
        if v.verb_of(cls) in UNOFFERED or cls.is_query:
            continue
        for action in _actions(cls, rs, state, acting, known if cls.reads_choice else refer):
            if not rs.may_act_on(state, seat, action):
                continue
            found = _try(state, action, seat, catalog)
            if found is not None and found[0] == DONE:
                out.add(action)
    return out


def expanded(offers: Any) -> set[v.Action]:
    """The actions a list of :class:`~obverse.engine.Legal` offers stands for."""
    return {a for legal in offers for a in legal.expand()}


def _actions(
    cls: type[v.Action], rs: Ruleset, state: GameState, acting: list[int], refer: list[int]
) -> Iterator[v.Action]:
    """Every action of ``cls`` of the choices (see the module)."""
    main = cls.subject or (cls.refs[0] if cls.refs else None)
    domains: dict[str, tuple[Any, ...]] = {}
    choices = CHOICES.get(v.verb_of(cls), {})
    for f in msgspec.structs.fields(cls):
        optional = f.default is not msgspec.NODEFAULT
        if f.name == main:
            pair = f.default is msgspec.NODEFAULT and "tuple" in str(f.type)
            if pair and "..." in str(f.type):  # a pile (mtg choose_exiled): each card alone
                domains[f.name] = tuple((a,) for a in acting)
            else:
                domains[f.name] = (
                    tuple((a, b) for a in acting for b in refer) if pair else tuple(acting)
                )
        elif f.name in choices:
            values = choices[f.name]
            domains[f.name] = tuple(values(rs) if callable(values) else values)
        elif f.name in cls.refs and "tuple" in str(f.type):  # a pile: each one card alone
            domains[f.name] = (*((None,) if optional else ()), *((x,) for x in refer))
        elif f.name in cls.refs:
            domains[f.name] = (*((None,) if optional else ()), *refer)
        elif f.name == "counter" and cls.refs and "counter" not in choices:
            # Removing counters: each kind some object has.
            kinds = {k for o in state.objects.values() for k, n in o.counters if n}
            domains[f.name] = tuple(sorted(kinds))
        elif f.name in cls.zone_fields:
            domains[f.name] = (*((None,) if optional else ()), *sorted(rs.zones))
        elif f.name in cls.player_fields and not optional:
            domains[f.name] = state.players
        elif f.name == "face" or f.name == "face_down" or (f.name == "as_" and optional):
            continue  # tried with the object (below)
        elif optional:
            domains[f.name] = (f.default,)
        else:
            return  # a required field of no known choices: composed, not offered
    names = list(domains)
    for values in itertools.product(*(domains[n] for n in names)):
        fields = dict(zip(names, values, strict=True))
        yield from _with_faces(cls, rs, state, fields, main)


def _with_faces(
    cls: type[v.Action], rs: Ruleset, state: GameState, fields: dict[str, Any], main: str | None
) -> Iterator[v.Action]:
    """``fields`` with each face of the main object's card (when ``cls`` names one) and,
    for a move or a cast, each face-down way."""
    names = {f.name for f in msgspec.structs.fields(cls)}
    faces: tuple[Any, ...] = (None,)
    if "face" in names and main is not None and v.verb_of(cls) in _FACED:
        oid = fields[main]
        o = state.objects.get(oid[0] if isinstance(oid, tuple) else oid)
        if o is not None and len(state.card_def(o).faces) > 1:
            faces = (None, *FACES)
    downs: tuple[tuple[Any, Any], ...] = ((None, None),)
    if v.verb_of(cls) in _FACE_DOWN and "as_" in names:
        default = msgspec.structs.fields(cls)
        fd = next(f.default for f in default if f.name == "face_down")
        downs = ((fd, None), *((True, k) for k in sorted(rs.face_down_kinds)))
    for face in faces:
        for down, kind in downs:
            extra: dict[str, Any] = {}
            if "face" in names:
                extra["face"] = face
            if down is not None or kind is not None:
                extra["face_down"], extra["as_"] = down, kind
            try:
                yield cls(**fields, **extra)
            except (TypeError, msgspec.ValidationError):
                continue


__all__ = ["CHOICES", "UNOFFERED", "expanded", "reference_actions"]
