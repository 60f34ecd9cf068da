"""The JSON Schema (draft 2020-12) of scenario files, generated from the typed actions.

Each verb's argument shape comes from :func:`obverse.scenario.step_shape` and its argument
types from the action's struct (object ids become labels); the top-level, setup, expect and
card keys come from the contract's key sets in :mod:`obverse.scenario` and :mod:`obverse.cards`.
The schema checks structure only: labels, card names, players and zones are checked when a
file is loaded.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from obverse import vocab as v
from obverse.cards import CARD_FIELDS, FACE_FIELDS, LIST_FIELDS, STAT_FIELDS, game_layouts
from obverse.characteristics import MODIFY_KEYS
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets import Ruleset
from obverse.scenario import (
    BOOL_KEYS,
    EXPECT_KEYS,
    FACE_VALUES,
    OBJECT_KEYS,
    POSITIONS,
    RESULTS,
    SET_KEYS,
    SETUP_KEYS,
    STAT_KEYS,
    TOP_KEYS,
    step_shape,
)

DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID: Final = "https://obverse.dev/scenario.schema.json"

_STR: Final[dict[str, Any]] = {"type": "string"}
_BOOL: Final[dict[str, Any]] = {"type": "boolean"}
_NAMES: Final[dict[str, Any]] = {
    "anyOf": [_STR, {"type": "array", "items": _STR}, {"type": "null"}]
}
_STAT: Final[dict[str, Any]] = {"type": ["integer", "number", "string", "null"]}
_FILTER: Final[dict[str, Any]] = {"$ref": "#/$defs/filter"}


def _closed(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """A mapping with exactly these keys (unknown keys are errors, as in the loader)."""
    out: dict[str, Any] = {
        "type": "object",
        "properties": dict(sorted(props.items())),
        "additionalProperties": False,
    }
    if required:
        out["required"] = sorted(required)
    return out


def _as_labels(node: Any) -> Any:
    """A field schema with object ids (integers) replaced by labels (strings)."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            return {**node, "type": "string"}
        return {k: _as_labels(x) for k, x in node.items()}
    if isinstance(node, list):
        return [_as_labels(x) for x in node]
    return node


def _field_schema(cls: type[v.Action], name: str, tp: Any) -> dict[str, Any]:
    """One argument's schema: the struct field's type, labels for fields naming objects."""
    if name == "modify":  # typed as a mapping in the struct; the contract lists its keys
        return {"$ref": "#/$defs/modify"}
    if name == "where":
        return {"anyOf": [_FILTER, {"type": "null"}]}
    if name in cls.player_fields and tp is not str:
        return {"anyOf": [_STR, {"type": "array", "items": _STR}, {"type": "null"}]}
    node = msgspec.json.schema(tp)
    node.pop("$defs", None)
    if name in cls.refs:
        node = _as_labels(node)
        if name == "cards":  # labels or card names
            node = {"type": "array", "items": _STR}
        if name == "to" and "anyOf" in node:  # a label or a filter
            node = {"anyOf": [_STR, _FILTER]}
    if name == "face":
        node = {"anyOf": [{"enum": list(FACE_VALUES)}, {"type": "null"}]}
    return dict(node)


def action_schema(cls: type[v.Action]) -> dict[str, Any]:
    """The schema of one verb's value in a step (its contract shape)."""
    keys, required, shape = step_shape(cls)
    actor = {"actor": {"type": "string", "description": "the player taking it (format 2)"}}
    label = {"type": "string", "description": "a label"}
    if shape == "null":
        return {"anyOf": [{"type": "null"}, _closed(actor, ["actor"])]}
    if shape == "label":
        return {"anyOf": [label, _closed({"object": label, **actor}, ["object", "actor"])]}
    types = {f.encode_name: f.type for f in msgspec.structs.fields(cls)}
    props = {k: _field_schema(cls, k, types[k]) if k in types else _STR for k in keys}
    mapping = _closed({**props, **actor}, list(required))
    if shape == "either":
        return {"anyOf": [label, mapping]}
    return mapping


def _verbs(classes: list[type[Ruleset]]) -> dict[str, dict[str, Any]]:
    """Every verb of these rulesets and its schema (a verb two games type differently may
    take either)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for rs in classes:
        for cls in rs.vocabulary():
            one = action_schema(cls)
            seen = out.setdefault(v.verb_of(cls), [])
            if one not in seen:
                seen.append(one)
    return {k: x[0] if len(x) == 1 else {"anyOf": x} for k, x in sorted(out.items())}


def _expect() -> dict[str, Any]:
    props: dict[str, Any] = {k: {} for k in EXPECT_KEYS}
    props.update({k: _BOOL for k in BOOL_KEYS})
    props.update({k: _NAMES for k in SET_KEYS})
    props.update({k: _STAT for k in STAT_KEYS})
    props.update({k: _STR for k in ("object", "zone", "owner", "controller")})
    props.update({k: _STR for k in OBJECT_KEYS if k.startswith(("has_", "lacks_"))})
    props.update(
        {k: _STR for k in ("new_object_since", "same_object_as", "affected_by", "not_affected_by")}
    )
    props["name"] = {"type": ["string", "null"]}
    props["viewer"] = {"type": ["string", "null"]}
    props["last_result"] = {"enum": sorted(RESULTS)}
    props["cites"] = {"type": "array", "items": {"type": ["string", "number"]}}
    props["face"] = {"enum": [*FACE_VALUES, "none"]}
    props["position"] = {"enum": [*POSITIONS, None]}
    props["counters"] = {"type": "object", "additionalProperties": {"type": "integer"}}
    props["mana_value"] = {"type": ["number", "null"]}
    out = _closed(props)
    out["minProperties"] = 1
    return out


def _setup(classes: list[type[Ruleset]]) -> dict[str, Any]:
    props: dict[str, Any] = {k: _STR for k in SETUP_KEYS}
    props.update({k: _BOOL for k in ("transformed", "flipped", "face_down", "token")})
    counters = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    for c in classes:  # a game's own setup keys (GA rested, counters ...)
        kinds = {"bool": _BOOL, "counters": counters, "values": {"type": "object"}}
        props.update({k: kinds[kind] for k, kind in c.setup_keys.items()})
    props["face"] = {"enum": list(FACE_VALUES)}
    props["position"] = {"enum": list(POSITIONS)}
    props["unlocked"] = {"type": "array", "items": _STR}  # MTG 709.5c: a Room's open doors
    return _closed(props, ["label", "card", "zone"])


def _card() -> dict[str, Any]:
    face: dict[str, Any] = {k: _STAT for k in FACE_FIELDS}
    face.update({k: _NAMES for k in LIST_FIELDS})
    face.update({"name": _STR, "text": _STR, "cost": _STAT, "hybrid": _NAMES})
    face.update({k: _STAT for k in STAT_FIELDS})
    card = dict(face)
    layouts = sorted(game_layouts(None))
    card.update(
        {
            "layout": {"type": "string", "examples": layouts},
            "faces": {"type": "array", "items": _closed(face, ["name"]), "minItems": 1},
            "melds_from": {"type": "array", "items": _STR},
        }
    )
    assert set(card) == FACE_FIELDS | CARD_FIELDS  # the contract's keys, no more
    return _closed(card, ["name"])


def _modify() -> dict[str, Any]:
    props: dict[str, Any] = {k: _NAMES for k in MODIFY_KEYS}
    props.update({k: {"type": "integer"} for k in ("power", "toughness")})
    props.update({k: {"type": "integer"} for k in ("set_power", "set_toughness")})
    props.update({k: _BOOL for k in ("lose_all_abilities", "prevent_damage_from")})
    props["forbid"] = {"type": "array", "items": _STR}
    out = _closed(props)
    out["minProperties"] = 1
    return out


def _step(verbs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    props = dict(verbs)
    props["expect"] = {"$ref": "#/$defs/expect"}
    props["remember"] = _closed({"object": _STR, "as": _STR}, ["object", "as"])
    return {
        "description": "a mapping with exactly one key: the action, expect or remember",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "properties": dict(sorted(props.items())),
        "additionalProperties": False,
    }


def scenario_schema(ruleset: str | None = None) -> dict[str, Any]:
    """The JSON Schema of a scenario file: of every registered ruleset, or of one alias."""
    classes = [type(get_ruleset(ruleset))] if ruleset else rulesets()
    aliases = sorted({a for c in classes for a in c.aliases})
    if ruleset:
        aliases = [ruleset]
    top: dict[str, Any] = {
        "ruleset": {"enum": aliases},
        "title": _STR,
        "players": {"type": "array", "items": _STR, "minItems": 1, "uniqueItems": True},
        "pregame": _BOOL,
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "turn": _STR,
        "cards": {"type": ["array", "null"], "items": {"$ref": "#/$defs/card"}},
        "setup": {"type": ["array", "null"], "items": {"$ref": "#/$defs/setup"}},
        "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}, "minItems": 1},
    }
    assert set(top) == TOP_KEYS
    body = _closed(top, ["ruleset", "steps"])
    return {
        "$schema": DIALECT,
        "$id": SCHEMA_ID,
        "title": "obverse scenario file" + (f" ({ruleset})" if ruleset else ""),
        "description": "Generated by `obverse schema`; see docs/scenario-format.md.",
        **body,
        "$defs": {
            "card": _card(),
            "expect": _expect(),
            "filter": {"type": "object"},
            "modify": _modify(),
            "setup": _setup(classes),
            "step": _step(_verbs(classes)),
        },
    }


__all__ = ["action_schema", "scenario_schema"]
