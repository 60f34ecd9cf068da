"""A scenario step and the typed action it stands for: each action's step shape (its keys
and how it is written), derived from its typed struct, and a typed action written back as a
step (the reverse of the runner's reading). The scenario validator, the schema, the web
table and the fuzzer's export share them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import msgspec

from obverse import vocab as v
from obverse.rulesets import Ruleset, rulesets

#: The key naming a created object's label (and the shape of a bare-label step).
_L = "label"


@functools.cache  # resolved from the struct's annotations: about a millisecond a call
def struct_fields(cls: type[v.Action]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(cls)``, once per action class."""
    return msgspec.structs.fields(cls)


@functools.cache
def step_shape(cls: type[v.Action]) -> tuple[frozenset[str], frozenset[str], str]:
    """An action's argument keys, required keys and shape in the contract, derived from its
    typed struct: ``null`` (no argument), ``label`` (a bare label), ``either`` (a bare label
    or a mapping with ``object``), ``map``. An action that creates an object takes the
    ``label`` its new object gets."""
    fields = struct_fields(cls)
    keys = {f.encode_name for f in fields}  # a field's name in the contract (``as``)
    required = {f.encode_name for f in fields if f.required}
    if cls.creates:
        keys.add(_L)
        required.add(_L)
    if not keys:
        return frozenset(), frozenset(), "null"
    if keys == {"object"}:
        return frozenset(), frozenset(), _L
    shape = "either" if required == {"object"} else "map"
    return frozenset(keys), frozenset(required), shape


def to_step(action: v.Action, label: Callable[[int], str]) -> dict[str, Any]:
    """The contract's step for a typed action (the reverse of the runner's reading):
    object ids become labels (``label(id)``), defaults are left out, and an action that
    takes only an object is written as a bare label."""
    cls = type(action)
    data: dict[str, Any] = {}
    for f in struct_fields(cls):
        value = getattr(action, f.name)
        if not f.required and value == f.default:
            continue
        if f.name in cls.refs:
            value = (
                [label(x) if isinstance(x, int) else x for x in value]
                if isinstance(value, tuple)
                else label(value)
                if isinstance(value, int)
                else value
            )
        data[f.encode_name] = list(value) if isinstance(value, tuple) else value
    shape = step_shape(cls)[2]
    if shape == "null":
        return {action.verb: None}
    if shape == _L or (shape == "either" and list(data) == ["object"]):
        return {action.verb: data["object"]}
    return {action.verb: data}


def all_verbs() -> frozenset[str]:
    """Every verb of every registered ruleset."""
    return frozenset(v.verb_of(c) for rs in rulesets() for c in rs.vocabulary())


def is_query(name: str, rs: Ruleset) -> bool:
    """Whether ``name`` is a query of ``rs`` (answers without changing the state)."""
    cls = rs.action_class(name)
    return cls is not None and cls.is_query


__all__ = ["all_verbs", "is_query", "step_shape", "struct_fields", "to_step"]
