"""The scenario format (shared/docs/scenario-format.md) and its runner.

``load_scenario`` validates a whole file before anything runs; ``run_scenario`` performs
its steps and checks every ``expect``. Labels name physical cards and follow them across
zones; ``remember`` pins game objects.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import msgspec

from obverse import vocab as v
from obverse.carddata import CardIndex, CardResolver, unknown_card_error
from obverse.cards import MAX_STAT, STAT_FIELDS, CardDef, parse_card
from obverse.characteristics import MODIFY_KEYS, STATUS_KEYS
from obverse.errors import InputError, quote, shorten, suggest
from obverse.loader import MAX_INT, load_file
from obverse.rulesets import Ruleset, get_ruleset

# A step's shape and its typed action (obverse.steps); runner, web and fuzz import them here.
from obverse.steps import all_verbs
from obverse.steps import is_query as is_query
from obverse.steps import step_shape as step_shape
from obverse.steps import struct_fields as struct_fields
from obverse.steps import to_step as to_step

TOP_KEYS: Final = frozenset(
    {"ruleset", "title", "players", "pregame", "cards", "setup", "steps", "seed", "turn"}
)
SETUP_KEYS: Final = frozenset(
    {
        "label",
        "card",
        "owner",
        "controller",
        "zone",
        "face",
        "transformed",
        "flipped",
        "face_down",
        "token",
        "position",
        "as",
        "unlocked",
    }
)
FACE_VALUES: Final = ("front", "back", "left", "right", "both")
TURN_UP_BY: Final = ("special_action", "cost", "effect")
POSITIONS: Final = ("top", "bottom")

_L = "label"
#: The most counters one step may put on an object (a count is never negative or absurd).
MAX_COUNT: Final = 1_000_000

SET_KEYS: Final = frozenset(
    {"names", "colors", "types", "supertypes", "subtypes", "abilities", "tags"}
)
STAT_KEYS: Final = frozenset(STAT_FIELDS)
OBJECT_KEYS: Final = frozenset(
    {
        "zone",
        "owner",
        "controller",
        "exists",
        "name",
        "has_name",
        "mana_value",
        "mana_cost",
        "cost",
        "has_type",
        "lacks_type",
        "has_ability",
        "lacks_ability",
        "has_mark",
        "lacks_mark",
        "face",
        "transformed",
        "flipped",
        "face_down",
        "is_copy",
        "is_token",
        "marked",
        "rested",
        "tapped",
        "can_transform",
        "new_object_since",
        "same_object_as",
        "position",
        "affected_by",
        "not_affected_by",
        "counters",
        "visible",
        *SET_KEYS,
        *STAT_KEYS,
    }
)
EXPECT_KEYS: Final = frozenset(
    {"object", "viewer", "distinguishable", "last_result", "cites", "answer", *OBJECT_KEYS}
)
RESULTS: Final = frozenset({"done", "nothing_happened", "illegal"})
#: What an absent key of an unidentified object's view entry means.
VIEW_DEFAULTS: Final[dict[str, Any]] = {
    "face_down": False,
    "transformed": False,
    "flipped": False,
    "is_copy": False,
    "is_token": False,
    "marked": False,
    "counters": {},
    "names": [],
    "types": [],
    "supertypes": [],
    "subtypes": [],
    "colors": [],
    "abilities": [],
    "tags": [],
}
#: Keys whose value names something and whose check is a yes/no predicate.
PREDICATE_KEYS: Final = frozenset(
    {
        "has_name",
        "has_type",
        "lacks_type",
        "has_ability",
        "lacks_ability",
        "has_mark",
        "lacks_mark",
        "new_object_since",
        "same_object_as",
        "affected_by",
        "not_affected_by",
    }
)


@dataclass
class Scenario:
    """A validated scenario file."""

    path: str
    title: str
    ruleset: Ruleset
    players: tuple[str, ...]
    pregame: bool
    resolver: CardResolver
    setup: list[dict[str, Any]]
    steps: list[tuple[str, Any]]
    seed: int = 0
    #: The player whose turn it is when the steps begin (the first player by default).
    turn: str | None = None


def _err(place: str, key: str, message: str) -> InputError:
    return InputError(place, key, message)


def _check_type(value: Any, kind: type | tuple[type, ...], place: str, key: str, what: str) -> None:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _err(place, key, f"expected {what}, got {_json_safe(value)}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _json_safe(value: Any) -> str:
    """``value`` as JSON for an error message, cut to :data:`~obverse.errors.QUOTE_LIMIT`."""
    try:
        return shorten(_json(value))
    except (TypeError, ValueError, RecursionError):
        return quote(value)


def load_scenario(
    path: str | Path,
    extra_cards: Callable[[str], CardDef | None] | None = None,
) -> Scenario:
    """Read and validate a scenario file in full; raises :class:`InputError` naming the
    file, the place and the key."""
    p = str(path)
    data = load_file(p)
    try:
        return _validate(p, data, extra_cards)
    except InputError as exc:
        raise exc.at(p) from None


def _validate(path: str, data: Any, extra: Callable[[str], CardDef | None] | None) -> Scenario:
    top = "top level"
    if not isinstance(data, dict):
        raise _err(top, "", "a scenario must be a mapping")
    for key in data:
        if key not in TOP_KEYS:
            raise _err(top, str(key), f"unknown key{suggest(str(key), TOP_KEYS)}")
    if "ruleset" not in data:
        raise _err(top, "ruleset", "missing")
    _check_type(data["ruleset"], str, top, "ruleset", "a ruleset alias")
    rs = get_ruleset(data["ruleset"])
    title = data.get("title", path)
    _check_type(title, str, top, "title", "a string")
    players = data.get("players", ["alice", "bob"])
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(x, str) and x for x in players)
        or len(set(players)) != len(players)
    ):
        raise _err(top, "players", "expected a list of distinct player names")
    pregame, seed, turn = _top_options(data, players)
    inline = CardIndex()
    raw_cards = data.get("cards") or []
    _check_type(raw_cards, list, top, "cards", "a list of card definitions")
    for i, entry in enumerate(raw_cards, 1):
        inline.add(parse_card(entry, f"cards[{i}]", rs.game))
    resolver = CardResolver(rs.game, inline, extra)
    for i, card in enumerate(inline.cards, 1):
        for half in card.melds_from:  # 712.4: a meld result names the two cards it melds from
            if not resolver.candidates(half):
                why = unknown_card_error(half, resolver).message
                raise InputError(f"cards[{i}]", "melds_from", why)
    labels: dict[str, str] = {}  # label -> "card" | "effect" | "meld"
    setup = data.get("setup") or []
    _check_type(setup, list, top, "setup", "a list")
    for i, entry in enumerate(setup, 1):
        _validate_setup(entry, f"setup[{i}]", rs, resolver, tuple(players), labels)
    if "steps" not in data:
        raise _err(top, "steps", "missing")
    steps = data["steps"]
    if not isinstance(steps, list) or not steps:
        raise _err(top, "steps", "expected a non-empty list")
    scope = _Scope(rs, resolver, tuple(players), labels, set())
    parsed = [_validate_step(step, f"step {n}", scope) for n, step in enumerate(steps, 1)]
    return Scenario(
        path=path,
        title=title,
        ruleset=rs,
        players=tuple(players),
        pregame=pregame,
        resolver=resolver,
        setup=setup,
        steps=parsed,
        seed=seed,
        turn=turn,
    )


def _top_options(data: Mapping[str, Any], players: list[str]) -> tuple[bool, int, str | None]:
    """``pregame``, ``seed`` and ``turn`` (the player whose turn it is), checked."""
    top = "top level"
    pregame = data.get("pregame", False)
    _check_type(pregame, bool, top, "pregame", "true or false")
    seed = data.get("seed", 0)
    _check_type(seed, int, top, "seed", "an integer")
    if not 0 <= seed <= MAX_INT:  # a web table stores it as SQLite's signed 64 bits
        raise _err(top, "seed", f"expected a whole number from 0 to {MAX_INT:,}")
    turn = data.get("turn")
    if turn is not None and turn not in players:
        raise _err(top, "turn", f"unknown player {_json_safe(turn)}")
    return pregame, seed, turn


def _validate_setup(
    entry: Any,
    place: str,
    rs: Ruleset,
    resolver: CardResolver,
    players: tuple[str, ...],
    labels: dict[str, str],
) -> None:
    if not isinstance(entry, dict):
        raise _err(place, "", "a setup entry must be a mapping")
    for key in entry:
        if key not in SETUP_KEYS and key not in rs.setup_keys:
            known = [*SETUP_KEYS, *rs.setup_keys]
            raise _err(place, str(key), f"unknown key{suggest(str(key), known)}")
        if key in rs.setup_keys and rs.setup_keys[key] == "values":  # mtg 708.2
            try:
                rs.check_face_down_values(entry[key])
            except InputError as exc:
                raise _err(place, exc.key or str(key), exc.message) from None
            if not entry.get("face_down") or entry.get("zone") != rs.play_zone:
                raise _err(place, str(key), f"needs face_down: true in {rs.play_zone}")
        elif key in rs.setup_keys:
            _check_status(entry[key], rs.setup_keys[key], place, str(key))
    for key in ("label", "card", "zone"):
        if key not in entry:
            raise _err(place, key, "missing")
        _check_type(entry[key], str, place, key, "a string")
    label = entry["label"]
    if label in labels:
        raise _err(place, "label", f"duplicate label {quote(label)}")
    try:
        card = resolver.get(entry["card"])
    except InputError as exc:  # a name several cards share: the choices are listed
        raise exc.at(place=place) from None
    if card is None:
        raise unknown_card_error(entry["card"], resolver).at(place=place)
    for key in ("owner", "controller"):
        if key in entry and entry[key] not in players:
            raise _err(place, key, f"unknown player {quote(entry[key])}")
    if not rs.is_zone(entry["zone"]):
        hint = suggest(str(entry["zone"]), rs.zones)
        raise _err(place, "zone", f"unknown zone {quote(entry['zone'])} for {rs.name}{hint}")
    for key in ("transformed", "flipped", "face_down", "token"):
        if key in entry:
            _check_type(entry[key], bool, place, key, "true or false")
    if "position" in entry and entry["position"] not in POSITIONS:
        raise _err(place, "position", "expected top or bottom")
    zone = rs.canonical_zone(entry["zone"])
    if "as" in entry:
        _check_kind(entry["as"], place, rs)
        if not entry.get("face_down") or zone not in (rs.play_zone, rs.stack_zone):
            raise _err(place, "as", f"needs face_down: true in {rs.play_zone} or the stack")
    try:
        face = _setup_face(entry, card, zone, rs)
    except InputError as exc:
        raise _err(place, exc.key, exc.message) from None
    if face not in rs.allowed_faces(card, zone) and not entry.get("face_down"):
        raise _err(
            place,
            "face" if "face" in entry else "transformed",
            f"{card.name} can't be {face} face up in {entry['zone']} under {rs.name}",
        )
    if "unlocked" in entry:
        _validate_doors(entry["unlocked"], card, zone, rs, place)
    labels[label] = "card"


def _validate_doors(doors: Any, card: CardDef, zone: str, rs: Ruleset, place: str) -> None:
    """``unlocked:`` (MTG 709.5c): a list of a Room permanent's doors, by side or name."""
    if not isinstance(doors, list) or not all(isinstance(d, str) for d in doors):
        raise _err(place, "unlocked", "expected a list of doors (left, right or a door's name)")
    if card.layout != "split" or len(card.faces) != 2 or zone != rs.play_zone:
        raise _err(place, "unlocked", f"only a Room in the {rs.play_zone} has doors to unlock")
    for door in doors:
        if door not in ("left", "right", *card.face_names):
            names = ", ".join(card.face_names)
            raise _err(place, "unlocked", f"{quote(door)} is not a door: left, right, {names}")


def setup_doors(entry: Mapping[str, Any], card: CardDef) -> tuple[str, ...]:
    """A setup entry's ``unlocked`` doors as sides, in printed order."""
    given = entry.get("unlocked") or ()
    sides = {"left" if d in ("left", card.faces[0].name) else "right" for d in given}
    return tuple(side for side in ("left", "right") if side in sides)


def _check_status(value: Any, kind: str, place: str, key: str) -> None:
    """A game's own setup key (:attr:`~obverse.rulesets.Ruleset.setup_keys`) has a value of
    its kind."""
    if kind == "bool":
        _check_type(value, bool, place, key, "true or false")
    elif not (
        isinstance(value, dict)
        and all(
            isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n >= 0
            for k, n in value.items()
        )
    ):
        raise _err(place, key, "expected a mapping of counter names to whole numbers")


def _setup_face(entry: Mapping[str, Any], card: CardDef, zone: str, rs: Ruleset) -> str:
    face = entry.get("face")
    if face is not None and face not in FACE_VALUES:
        raise _err("", "face", f"expected one of {', '.join(FACE_VALUES)}")
    if face is None and (entry.get("transformed") or entry.get("flipped")):
        face = "back"
    return face or rs.default_face(card, zone)


def _label(
    value: Any,
    place: str,
    key: str,
    labels: Mapping[str, str],
    kinds: tuple[str, ...] = ("card", "meld"),
) -> str:
    if not isinstance(value, str):
        raise _err(place, key, f"expected a label, got {_json_safe(value)}")
    if value not in labels:
        raise _err(place, key, f"unknown label {quote(value)}")
    if labels[value] not in kinds:
        raise _err(place, key, f"{quote(value)} is an effect label, not an object")
    return value


def _validate_where(
    where: Any, place: str, key: str, rs: Ruleset, players: tuple[str, ...] = ()
) -> None:
    if not isinstance(where, dict):
        raise _err(place, key, "a filter must be a mapping")
    allowed = {"name", "zone", *SET_KEYS, *STAT_KEYS, "mana_value", "cost", "mana_cost"}
    for k, val in where.items():
        if k in STATUS_KEYS:
            _validate_status(k, val, place, f"{key}.{k}", players)
            continue
        if k not in allowed:
            known = [*allowed, *STATUS_KEYS]
            raise _err(place, f"{key}.{k}", f"unknown filter key{suggest(str(k), known)}")
        if k == "zone" and not (isinstance(val, str) and rs.is_zone(val)):
            hint = suggest(str(val), rs.zones)
            raise _err(place, f"{key}.zone", f"unknown zone {quote(val)}{hint}")


def _validate_status(k: str, val: Any, place: str, key: str, players: tuple[str, ...]) -> None:
    """A status filter key: ``face_down``/``token`` true or false, ``controller``/``owner``
    a player of the scenario."""
    if k in ("face_down", "token"):
        _check_type(val, bool, place, key, "true or false")
    elif players and val not in players:
        raise _err(place, key, f"unknown player {quote(val)}")


def _validate_except(arg: Any, place: str, rs: Ruleset) -> None:
    """A copy's ``except:`` mapping: the game's characteristics (707.9), checked by the
    ruleset that will apply it."""
    if not isinstance(arg, dict) or not arg:
        raise _err(place, "except", "expected a mapping of characteristics")
    try:
        rs.checked_exceptions(arg)
    except InputError as e:
        raise _err(place, e.key, e.message) from None


def _check_args(
    arg: Any, keys: frozenset[str], required: frozenset[str], place: str, name: str
) -> None:
    if not isinstance(arg, dict):
        raise _err(place, name, "expected a mapping of arguments")
    for key in arg:
        if key not in keys:
            raise _err(place, str(key), f"unknown argument of {name}{suggest(str(key), keys)}")
    for key in sorted(required):
        if key not in arg:
            raise _err(place, key, f"missing argument of {name}")


@dataclass(frozen=True)
class _Scope:
    """What a scenario's steps are checked against: its ruleset and cards, its players, the
    labels its setup defined and the names its ``remember`` steps gave so far."""

    rs: Ruleset
    resolver: CardResolver
    players: tuple[str, ...]
    labels: dict[str, str]
    remembered: set[str]


def _validate_step(step: Any, place: str, scope: _Scope) -> tuple[str, Any]:
    rs, players, labels = scope.rs, scope.players, scope.labels
    if not isinstance(step, dict) or len(step) != 1:
        given = ", ".join(map(str, step)) if isinstance(step, dict) else ""
        raise _err(place, given, "a step is a mapping with exactly one key (the action)")
    ((name, arg),) = step.items()
    name = str(name)
    if name == "expect":
        _validate_expect(arg, place, scope)
        return name, arg
    if name == "remember":
        if not isinstance(arg, dict):
            raise _err(place, "remember", "expected {object: LABEL, as: NAME}")
        _check_args(
            arg, frozenset({"object", "as"}), frozenset({"object", "as"}), place, "remember"
        )
        _label(arg["object"], place, "object", labels)
        _check_type(arg["as"], str, place, "as", "a name")
        scope.remembered.add(arg["as"])
        return name, arg
    cls = rs.action_class(name)
    if cls is None:
        if name in all_verbs():
            raise _err(place, name, f"not an action of {rs.name}")
        verbs = [v.verb_of(c) for c in rs.vocabulary()]
        raise _err(place, name, f"unknown action{suggest(name, verbs)}")
    if cls.is_query:
        keys, required, shape = step_shape(cls)
        if shape == _L:  # a query of one object (mtg protector): a bare label
            _label(arg, place, name, labels)
            return name, arg
        if shape == "null":  # a query of the game itself (mtg day_night): no argument
            if arg is not None:
                raise _err(place, name, "takes no argument (null)")
            return name, arg
        _check_args(arg, keys, required, place, name)
        _check_names(cls, arg, place, rs, players, labels)
        _validate_query(name, arg, place, scope)
        _check_fields(cls, arg, place)
        return name, arg
    return name, _validate_action(cls, arg, place, rs, players, labels)


def _validate_query(name: str, arg: dict[str, Any], place: str, scope: _Scope) -> None:
    resolver, labels = scope.resolver, scope.labels
    if name == "name_card":
        _check_type(arg["name"], str, place, "name", "a card name")
        if not resolver.candidates(arg["name"]):
            raise _err(place, "name", f"unknown card name {quote(arg['name'])}")
    if "where" in arg:
        _validate_where(arg["where"], place, "where", scope.rs, scope.players)
    if name == "check_card_pool":
        if not isinstance(arg["cards"], list):
            raise _err(place, "cards", "expected a list of labels or card names")
        for c in arg["cards"]:
            if not isinstance(c, str) or (c not in labels and resolver.get(c) is None):
                raise _err(place, "cards", f"unknown label or card {quote(c)}")


def _validate_action(
    cls: type[v.Action],
    arg: Any,
    place: str,
    rs: Ruleset,
    players: tuple[str, ...],
    labels: dict[str, str],
) -> Any:
    """An action step's argument, checked; returns it (a bare label or a mapping)."""
    name = v.verb_of(cls)
    keys, required, shape = step_shape(cls)
    if isinstance(arg, dict) and "actor" in arg:  # format 2: the player taking the action
        if arg["actor"] not in players:
            raise _err(place, "actor", f"unknown player {quote(arg['actor'])}")
        keys, arg = keys | {"actor"}, dict(arg)
        if shape == _L:  # a bare-label action written as a mapping to name its actor
            shape, keys, required = "either", keys | {"object"}, frozenset({"object"})
        elif shape == "null":
            shape = "map"
    if shape == "null":
        if arg is not None:
            raise _err(place, name, "takes no argument (null)")
        return arg
    if shape == _L:
        _label(arg, place, name, labels)
        return arg
    if shape == "either" and isinstance(arg, str):
        arg = {"object": arg}
    _check_args(arg, keys, required, place, name)
    _check_names(cls, arg, place, rs, players, labels)
    _check_values(name, arg, place)
    if "as" in arg:
        _check_kind(arg["as"], place, rs)
    if "values" in arg:  # mtg 708.2: the characteristics an effect lists for it face down
        try:
            rs.check_face_down_values(arg["values"])
        except InputError as exc:
            raise _err(place, exc.key or "values", exc.message) from None
    if cls.creates or name == "apply_effect":
        _check_type(arg["label"], str, place, "label", "a new label")
        if arg["label"] in labels:
            raise _err(place, "label", f"duplicate label {quote(arg['label'])}")
    if name == "apply_effect":
        _validate_effect(arg, place, rs, players)
    if "except" in arg:
        _validate_except(arg["except"], place, rs)
    _check_fields(cls, arg, place)
    kinds = {"meld": "meld", "create_token_copy": "card", "apply_effect": "effect"}
    if name in kinds:
        labels[arg["label"]] = kinds[name]
    elif cls.creates:  # a game's own verb that makes an object (mtg copy_spell)
        labels[arg["label"]] = "card" if cls.answers_card else "meld"
    return arg


#: Player fields a step may write as one name where the action takes a list.
TUPLE_FIELDS: Final[dict[str, tuple[str, ...]]] = {"reveal": ("to",)}


def _check_fields(cls: type[v.Action], arg: Mapping[str, Any], place: str) -> None:
    """Every field's type as the typed action declares it (objects as placeholder ids), so
    a wrong type is an error here, naming the step and key, not a crash when it runs."""
    name = v.verb_of(cls)
    data = {k: val for k, val in arg.items() if k != "actor" and not (cls.creates and k == _L)}
    for key in cls.refs:
        value = data.get(key)
        if isinstance(value, str):
            data[key] = 0
        elif isinstance(value, list):
            data[key] = [0 if isinstance(x, str) else x for x in value]
    for key in TUPLE_FIELDS.get(name, ()):
        if isinstance(data.get(key), str):
            data[key] = [data[key]]
    try:
        msgspec.convert({"verb": name, **data}, cls)
    except msgspec.ValidationError as exc:
        found = re.search(r"at `\$\.(\w+)", str(exc))
        key = found.group(1) if found else name
        raise _err(place, key, str(exc).split(" - at ")[0].replace("`", "")) from None


def _check_names(
    cls: type[v.Action],
    arg: dict[str, Any],
    place: str,
    rs: Ruleset,
    players: tuple[str, ...],
    labels: Mapping[str, str],
) -> None:
    """The labels, players and zones an argument names exist (by the action's fields)."""
    for key in cls.refs:
        value = arg.get(key)
        if key == "objects" and (not isinstance(value, list) or len(value) != 2):
            raise _err(place, key, "expected two labels")
        if key == "among" and not (isinstance(value, list) and value):
            raise _err(place, key, "expected a list of labels")
        if key == "cards" or (key == "to" and isinstance(value, dict)):
            continue  # card names beside labels; a filter (checked with the effect)
        for label in value if isinstance(value, list) else [value] if key in arg else []:
            _label(label, place, key, labels)
    for key in cls.player_fields:
        value = arg.get(key)
        for p in value if isinstance(value, list) else [value] if value is not None else []:
            if p not in players:
                raise _err(place, key, f"unknown player {quote(p)}")
    for key in cls.zone_fields:
        if key not in arg:  # an optional zone field (scp breach: an object or a sandbox)
            continue
        if not (isinstance(arg[key], str) and rs.is_zone(arg[key])):
            hint = suggest(str(arg[key]), rs.zones)
            raise _err(place, key, f"unknown zone {quote(arg[key])} for {rs.name}{hint}")


def _check_kind(kind: Any, place: str, rs: Ruleset) -> None:
    """``as``: a face-down kind of the game (MTG's morph, manifest, disguise ...)."""
    _check_type(kind, str, place, "as", "a face-down kind")
    try:
        rs.check_kind(kind)
    except InputError as exc:
        raise _err(place, "as", exc.message) from None


def _check_values(name: str, arg: dict[str, Any], place: str) -> None:
    """Faces, flags, positions and counts have values the format allows."""
    if "face" in arg and arg["face"] not in FACE_VALUES:
        raise _err(place, "face", f"expected one of {', '.join(FACE_VALUES)}")
    for key in ("face_down", "transformed", "fixed"):
        if key in arg:
            _check_type(arg[key], bool, place, key, "true or false")
    if "position" in arg and arg["position"] not in POSITIONS:
        raise _err(place, "position", "expected top or bottom")
    if "by" in arg and arg["by"] not in TURN_UP_BY:
        raise _err(place, "by", f"expected one of {', '.join(TURN_UP_BY)}")
    if name == "look" and arg.get("until") not in (None, "end_of_turn"):
        raise _err(place, "until", "expected end_of_turn")  # FaB 8.5.11a: the one duration
    if name in ("add_counters", "remove_counters"):
        _check_type(arg["counter"], str, place, "counter", "a counter name")
        if "count" in arg:
            _check_type(arg["count"], int, place, "count", "a whole number")
            if not 0 < arg["count"] <= MAX_COUNT:
                raise _err(place, "count", f"expected a whole number from 1 to {MAX_COUNT:,}")


def _validate_effect(
    arg: dict[str, Any], place: str, rs: Ruleset, players: tuple[str, ...] = ()
) -> None:
    if not isinstance(arg["to"], str):
        _validate_where(arg["to"], place, "to", rs, players)
    modify = arg["modify"]
    if not isinstance(modify, dict) or not modify:
        raise _err(place, "modify", "expected a mapping of modifications")
    for key, value in modify.items():
        if key not in MODIFY_KEYS:
            hint = suggest(str(key), MODIFY_KEYS)
            raise _err(place, f"modify.{key}", f"unknown modification{hint}")
        if key in ("power", "toughness", "set_power", "set_toughness"):
            _check_type(value, int, place, f"modify.{key}", "a number")
            if abs(value) > MAX_STAT:
                raise _err(place, f"modify.{key}", f"expected at most {MAX_STAT:,} either way")
        elif key in ("lose_all_abilities", "prevent_damage_from"):
            _check_type(value, bool, place, f"modify.{key}", "true or false")
        elif key == "forbid":
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise _err(place, "modify.forbid", "expected a list of action names")
        elif not (
            isinstance(value, str)
            or (isinstance(value, list) and all(isinstance(x, str) for x in value))
        ):
            raise _err(place, f"modify.{key}", "expected a name or a list of names")
        elif key in ("color", "add_color"):
            try:
                rs.color_letters(value, f"modify.{key}")
            except InputError as e:
                raise _err(place, e.key, e.message) from None
    if "until" in arg and arg["until"] not in ("end_of_turn", None):
        raise _err(place, "until", "expected end_of_turn")


def _validate_expect(arg: Any, place: str, scope: _Scope) -> None:
    rs, players, labels = scope.rs, scope.players, scope.labels
    if not isinstance(arg, dict) or not arg:
        raise _err(place, "expect", "expected a mapping of expectations")
    for key in arg:
        if key not in EXPECT_KEYS:
            hint = suggest(str(key), EXPECT_KEYS)
            raise _err(place, str(key), f"unknown expectation key{hint}")
    _check_expect_shapes(arg, place)
    has_object_keys = any(k in OBJECT_KEYS for k in arg if k not in ("zone", "owner"))
    if "distinguishable" in arg:
        for key in ("zone", "owner"):
            if key not in arg:
                raise _err(place, key, "distinguishable needs zone: and owner:")
        if not rs.is_zone(arg["zone"]):
            raise _err(place, "zone", f"unknown zone {quote(arg['zone'])}")
        if arg["owner"] not in players:
            raise _err(place, "owner", f"unknown player {quote(arg['owner'])}")
    elif (has_object_keys or "zone" in arg or "owner" in arg) and "object" not in arg:
        raise _err(place, "object", "object keys need object:")
    if "object" in arg:
        _label(arg["object"], place, "object", labels)
    if "viewer" in arg and arg["viewer"] not in players and arg["viewer"] is not None:
        raise _err(place, "viewer", f"unknown player {quote(arg['viewer'])}")
    if "last_result" in arg and arg["last_result"] not in RESULTS:
        raise _err(place, "last_result", "expected done, nothing_happened or illegal")
    if "cites" in arg:
        cites = arg["cites"]
        if not isinstance(cites, list) or not all(isinstance(c, str | int | float) for c in cites):
            raise _err(place, "cites", "expected a list of rule ids")
    for key in ("new_object_since", "same_object_as"):
        if key in arg and arg[key] not in scope.remembered:
            raise _err(place, key, f"nothing remembered as {quote(arg[key])}")
    for key in ("affected_by", "not_affected_by"):
        if key in arg and labels.get(arg[key]) != "effect":
            raise _err(place, key, f"unknown effect label {quote(arg[key])}")
    _validate_expect_values(arg, place, rs, players, labels)


#: Expectation keys whose value is one string (a label, a result, a name or a word).
STRING_KEYS: Final = frozenset(
    {
        "object",
        "last_result",
        "new_object_since",
        "same_object_as",
        "affected_by",
        "not_affected_by",
        "has_name",
        "has_type",
        "lacks_type",
        "has_ability",
        "lacks_ability",
    }
)
_SCALARS: Final = (str, int, float, bool, type(None))


def _check_expect_shapes(arg: Mapping[str, Any], place: str) -> None:
    """Every expectation value's shape, before any other check uses it: a list or a mapping
    where one value belongs is an error naming the key, never a crash or a silent FAIL."""
    for key, value in arg.items():
        if key in STRING_KEYS:
            _check_type(value, str, place, key, "a string")
        elif key in ("cites", "answer") or key in SET_KEYS:
            items = value if isinstance(value, list) else [value]
            if not all(isinstance(x, _SCALARS) for x in items):
                raise _err(place, key, f"expected a value or a list, got {_json_safe(value)}")
        elif key != "counters" and not isinstance(value, _SCALARS):
            raise _err(place, key, f"expected a single value, got {_json_safe(value)}")


#: Expectation keys whose value is true or false.
BOOL_KEYS: Final = frozenset(
    {
        "exists",
        "transformed",
        "flipped",
        "face_down",
        "is_copy",
        "is_token",
        "marked",
        "rested",
        "tapped",
        "can_transform",
        "visible",
        "distinguishable",
    }
)


def _validate_expect_values(
    arg: Mapping[str, Any],
    place: str,
    rs: Ruleset,
    players: tuple[str, ...],
    labels: Mapping[str, str],
) -> None:
    """Wrong types and impossible values are errors, not failures."""
    for key in BOOL_KEYS & set(arg):
        _check_type(arg[key], bool, place, key, "true or false")
    if "zone" in arg and not (isinstance(arg["zone"], str) and rs.is_zone(arg["zone"])):
        raise _err(place, "zone", f"unknown zone {_json_safe(arg['zone'])} for {rs.name}")
    for key in ("owner", "controller"):
        if key in arg and arg[key] not in players:
            raise _err(place, key, f"unknown player {_json_safe(arg[key])}")
    if "face" in arg and arg["face"] not in (*FACE_VALUES, "none"):
        raise _err(place, "face", f"expected one of {', '.join(FACE_VALUES)}, none")
    if "position" in arg and arg["position"] not in (*POSITIONS, None):
        raise _err(place, "position", "expected top, bottom or null")
    if "counters" in arg and not (
        isinstance(arg["counters"], dict)
        and all(isinstance(k, str) and isinstance(v, int) for k, v in arg["counters"].items())
    ):
        raise _err(place, "counters", "expected a mapping of counter names to numbers")
    for key in SET_KEYS & set(arg):
        value = arg[key]
        if value is not None and not isinstance(value, str | list):
            raise _err(place, key, f"expected a list, got {_json_safe(value)}")
    if isinstance(arg.get("answer"), list):
        for item in arg["answer"]:
            if item not in labels:
                raise _err(place, "answer", f"unknown label {_json_safe(item)}")
