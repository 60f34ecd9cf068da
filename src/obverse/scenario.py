"""The scenario format (shared/docs/scenario-format.md) and its runner.

``load_scenario`` validates a whole file before anything runs; ``run_scenario`` performs
its steps and checks every ``expect``. Labels name physical cards and follow them across
zones; ``remember`` pins game objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import msgspec

from obverse import actions, mana
from obverse.carddata import CardIndex, CardResolver
from obverse.cards import CardDef, parse_card
from obverse.characteristics import applies_to, characteristics
from obverse.errors import InputError, ObverseError, RulesError
from obverse.loader import load_file
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import DONE, NOTHING, Outcome, Ruling
from obverse.state import GameObject, GameState, PhysicalCard, new_state
from obverse.views import is_visible, status_dict, view, view_object

TOP_KEYS: Final = frozenset({"ruleset", "title", "players", "pregame", "cards", "setup", "steps",
                             "seed"})
SETUP_KEYS: Final = frozenset({"label", "card", "owner", "controller", "zone", "face",
                               "transformed", "flipped", "face_down", "token", "position"})
FACE_VALUES: Final = ("front", "back", "left", "right", "both")
POSITIONS: Final = ("top", "bottom")

# action -> (argument keys, required keys, accepts a bare label as {object: LABEL})
_L = "label"
ACTIONS: Final[dict[str, tuple[frozenset[str], frozenset[str], str]]] = {
    "move": (frozenset({"object", "to", "face", "face_down", "transformed", "position"}),
             frozenset({"object", "to"}), "map"),
    "cast": (frozenset({"object", "face", "transformed", "face_down"}), frozenset({"object"}),
             "either"),
    "play": (frozenset({"object", "face", "transformed", "face_down"}), frozenset({"object"}),
             "either"),
    "resolve": (frozenset(), frozenset(), _L),
    "transform": (frozenset(), frozenset(), _L),
    "flip": (frozenset(), frozenset(), _L),
    "awaken": (frozenset(), frozenset(), _L),
    "transcend": (frozenset(), frozenset(), _L),
    "turn_face_down": (frozenset(), frozenset(), _L),
    "turn_face_up": (frozenset(), frozenset(), _L),
    "mark": (frozenset(), frozenset(), _L),
    "become_copy": (frozenset({"object", "of"}), frozenset({"object", "of"}), "map"),
    "create_token_copy": (frozenset({"of", "label", "controller"}), frozenset({"of", "label"}),
                          "map"),
    "meld": (frozenset({"objects", "label"}), frozenset({"objects", "label"}), "map"),
    "apply_effect": (frozenset({"label", "to", "modify", "until", "fixed"}),
                     frozenset({"label", "to", "modify"}), "map"),
    "add_counters": (frozenset({"object", "counter", "count"}), frozenset({"object", "counter"}),
                     "map"),
    "change_control": (frozenset({"object", "to"}), frozenset({"object", "to"}), "map"),
    "reveal": (frozenset({"object", "to"}), frozenset({"object"}), "either"),
    "end_turn": (frozenset(), frozenset(), "null"),
    "start_game": (frozenset(), frozenset(), "null"),
    "examine": (frozenset({"player", "object"}), frozenset({"player", "object"}), "map"),
    "cross_test": (frozenset({"object", "target"}), frozenset({"object"}), "either"),
    "hit": (frozenset({"hero", "source"}), frozenset({"hero", "source"}), "map"),
    "shuffle": (frozenset({"player", "zone"}), frozenset({"player", "zone"}), "map"),
}
QUERIES: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    "name_card": (frozenset({"player", "name"}), frozenset({"player", "name"})),
    "search": (frozenset({"player", "zone", "where"}), frozenset({"player", "zone"})),
    "select": (frozenset({"player", "zone", "where"}), frozenset({"player", "zone"})),
    "check_card_pool": (frozenset({"hero", "cards"}), frozenset({"hero", "cards"})),
}
#: Actions that belong to some games only (the rest are shared).
GAME_ACTIONS: Final = frozenset({"transform", "flip", "meld", "awaken", "transcend", "mark",
                                 "hit", "cross_test"})
MODIFY_KEYS: Final = frozenset({"power", "toughness", "set_power", "set_toughness", "add_types",
                                "add_supertypes", "add_subtypes", "lose_all_abilities",
                                "prevent_damage_from", "forbid"})
SET_KEYS: Final = frozenset({"names", "colors", "types", "supertypes", "subtypes", "abilities",
                             "tags"})
STAT_KEYS: Final = frozenset({"power", "toughness", "loyalty", "defense", "pitch", "life",
                              "intellect", "reserve_cost", "memory_cost", "durability",
                              "element", "level", "securing_power", "object_class"})
OBJECT_KEYS: Final = frozenset({
    "zone", "owner", "controller", "exists", "name", "has_name", "mana_value", "mana_cost",
    "cost", "has_type", "lacks_type", "has_ability", "lacks_ability", "face", "transformed",
    "flipped", "face_down", "is_copy", "is_token", "marked", "can_transform",
    "new_object_since", "same_object_as", "position", "affected_by", "not_affected_by",
    "counters", "visible", *SET_KEYS, *STAT_KEYS})
EXPECT_KEYS: Final = frozenset({"object", "viewer", "distinguishable", "last_result", "cites",
                                "answer", *OBJECT_KEYS})
RESULTS: Final = frozenset({"done", "nothing_happened", "illegal"})
#: What an absent key of an unidentified object's view entry means.
VIEW_DEFAULTS: Final[dict[str, Any]] = {
    "face_down": False, "transformed": False, "flipped": False, "is_copy": False,
    "is_token": False, "marked": False, "counters": {}, "names": [], "types": [],
    "supertypes": [], "subtypes": [], "colors": [], "abilities": [], "tags": []}
#: Keys whose value names something and whose check is a yes/no predicate.
PREDICATE_KEYS: Final = frozenset({"has_name", "has_type", "lacks_type", "has_ability",
                                   "lacks_ability", "new_object_since", "same_object_as",
                                   "affected_by", "not_affected_by"})


@dataclass
class Failure:
    """One failed expectation."""

    step: int
    key: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (f"  step {self.step}: {self.key}: expected {_json(self.expected)}, "
                f"got {_json(self.actual)}")


@dataclass
class Result:
    """The outcome of running one scenario file."""

    path: str
    title: str
    status: str = "PASS"
    failures: list[Failure] = field(default_factory=list)
    error: InputError | None = None
    log: list[str] = field(default_factory=list)
    state: GameState | None = None

    def line(self) -> str:
        """The summary line: ``PASS|FAIL|ERROR TITLE``."""
        if self.status == "ERROR" and self.error is not None:
            return f"ERROR {self.title}: {self.error.describe()}"
        return f"{self.status} {self.title}"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


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


def _err(place: str, key: str, message: str) -> InputError:
    return InputError(place, key, message)


def _check_type(value: Any, kind: type | tuple[type, ...], place: str, key: str,
                what: str) -> None:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _err(place, key, f"expected {what}, got {_json_safe(value)}")


def _json_safe(value: Any) -> str:
    try:
        return _json(value)
    except (TypeError, ValueError):
        return repr(value)


def load_scenario(path: str | Path, extra_cards: Callable[[str], CardDef | None] | None = None,
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
            raise _err(top, str(key), "unknown key")
    if "ruleset" not in data:
        raise _err(top, "ruleset", "missing")
    _check_type(data["ruleset"], str, top, "ruleset", "a ruleset alias")
    rs = get_ruleset(data["ruleset"])
    title = data.get("title", path)
    _check_type(title, str, top, "title", "a string")
    players = data.get("players", ["alice", "bob"])
    if (not isinstance(players, list) or not players or
            not all(isinstance(x, str) and x for x in players)
            or len(set(players)) != len(players)):
        raise _err(top, "players", "expected a list of distinct player names")
    pregame = data.get("pregame", False)
    _check_type(pregame, bool, top, "pregame", "true or false")
    seed = data.get("seed", 0)
    _check_type(seed, int, top, "seed", "an integer")
    inline = CardIndex()
    raw_cards = data.get("cards") or []
    _check_type(raw_cards, list, top, "cards", "a list of card definitions")
    for i, entry in enumerate(raw_cards, 1):
        inline.add(parse_card(entry, f"cards[{i}]", rs.game))
    resolver = CardResolver(rs.game, inline, extra)
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
    parsed: list[tuple[str, Any]] = []
    remembered: set[str] = set()
    for n, step in enumerate(steps, 1):
        parsed.append(_validate_step(step, f"step {n}", rs, resolver, tuple(players), labels,
                                     remembered))
    return Scenario(path=path, title=title, ruleset=rs, players=tuple(players), pregame=pregame,
                    resolver=resolver, setup=setup, steps=parsed, seed=seed)


def _validate_setup(entry: Any, place: str, rs: Ruleset, resolver: CardResolver,
                    players: tuple[str, ...], labels: dict[str, str]) -> None:
    if not isinstance(entry, dict):
        raise _err(place, "", "a setup entry must be a mapping")
    for key in entry:
        if key not in SETUP_KEYS:
            raise _err(place, str(key), "unknown key")
    for key in ("label", "card", "zone"):
        if key not in entry:
            raise _err(place, key, "missing")
        _check_type(entry[key], str, place, key, "a string")
    label = entry["label"]
    if label in labels:
        raise _err(place, "label", f"duplicate label {label!r}")
    card = resolver.get(entry["card"])
    if card is None:
        raise _err(place, "card", f"unknown card {entry['card']!r}")
    for key in ("owner", "controller"):
        if key in entry and entry[key] not in players:
            raise _err(place, key, f"unknown player {entry[key]!r}")
    if not rs.is_zone(entry["zone"]):
        raise _err(place, "zone", f"unknown zone {entry['zone']!r} for {rs.name}")
    for key in ("transformed", "flipped", "face_down", "token"):
        if key in entry:
            _check_type(entry[key], bool, place, key, "true or false")
    if "position" in entry and entry["position"] not in POSITIONS:
        raise _err(place, "position", "expected top or bottom")
    zone = rs.canonical_zone(entry["zone"])
    face = _setup_face(entry, card, zone, rs)
    if face not in rs.allowed_faces(card, zone) and not entry.get("face_down"):
        raise _err(place, "face" if "face" in entry else "transformed",
                   f"{card.name} can't be {face} face up in {entry['zone']} under {rs.name}")
    labels[label] = "card"


def _setup_face(entry: Mapping[str, Any], card: CardDef, zone: str, rs: Ruleset) -> str:
    face = entry.get("face")
    if face is not None and face not in FACE_VALUES:
        raise _err("", "face", f"expected one of {', '.join(FACE_VALUES)}")
    if face is None and (entry.get("transformed") or entry.get("flipped")):
        face = "back"
    return face or rs.default_face(card, zone)


def _label(value: Any, place: str, key: str, labels: Mapping[str, str],
           kinds: tuple[str, ...] = ("card", "meld")) -> str:
    if not isinstance(value, str):
        raise _err(place, key, f"expected a label, got {_json_safe(value)}")
    if value not in labels:
        raise _err(place, key, f"unknown label {value!r}")
    if labels[value] not in kinds:
        raise _err(place, key, f"{value!r} is an effect label, not an object")
    return value


def _validate_where(where: Any, place: str, key: str, rs: Ruleset) -> None:
    if not isinstance(where, dict):
        raise _err(place, key, "a filter must be a mapping")
    allowed = {"name", "zone", *SET_KEYS, *STAT_KEYS, "mana_value", "cost", "mana_cost"}
    for k, v in where.items():
        if k not in allowed:
            raise _err(place, f"{key}.{k}", "unknown filter key")
        if k == "zone" and not (isinstance(v, str) and rs.is_zone(v)):
            raise _err(place, f"{key}.zone", f"unknown zone {v!r}")


def _validate_step(step: Any, place: str, rs: Ruleset, resolver: CardResolver,
                   players: tuple[str, ...], labels: dict[str, str],
                   remembered: set[str]) -> tuple[str, Any]:
    if not isinstance(step, dict) or len(step) != 1:
        raise _err(place, "", "a step is a mapping with exactly one key (the action)")
    (name, arg), = step.items()
    name = str(name)
    if name == "expect":
        _validate_expect(arg, place, rs, resolver, players, labels, remembered)
        return name, arg
    if name == "remember":
        if not isinstance(arg, dict) or set(arg) != {"object", "as"}:
            raise _err(place, "remember", "expected {object: LABEL, as: NAME}")
        _label(arg["object"], place, "object", labels)
        _check_type(arg["as"], str, place, "as", "a name")
        remembered.add(arg["as"])
        return name, arg
    if name in QUERIES:
        keys, required = QUERIES[name]
        if not isinstance(arg, dict):
            raise _err(place, name, "expected a mapping of arguments")
        for key in arg:
            if key not in keys:
                raise _err(place, str(key), f"unknown argument of {name}")
        for key in required:
            if key not in arg:
                raise _err(place, key, f"missing argument of {name}")
        if "player" in arg and arg["player"] not in players:
            raise _err(place, "player", f"unknown player {arg['player']!r}")
        if name == "name_card":
            _check_type(arg["name"], str, place, "name", "a card name")
            if resolver.get(arg["name"]) is None:
                raise _err(place, "name", f"unknown card name {arg['name']!r}")
        if name in ("search", "select"):
            if not (isinstance(arg["zone"], str) and rs.is_zone(arg["zone"])):
                raise _err(place, "zone", f"unknown zone {arg['zone']!r}")
            if "where" in arg:
                _validate_where(arg["where"], place, "where", rs)
        if name == "check_card_pool":
            _label(arg["hero"], place, "hero", labels)
            if not isinstance(arg["cards"], list):
                raise _err(place, "cards", "expected a list of labels or card names")
            for c in arg["cards"]:
                if not isinstance(c, str) or (c not in labels and resolver.get(c) is None):
                    raise _err(place, "cards", f"unknown label or card {c!r}")
        return name, arg
    if name not in ACTIONS:
        raise _err(place, name, "unknown action")
    if name in GAME_ACTIONS and name not in rs.extra_actions:
        raise _err(place, name, f"not an action of {rs.name}")
    keys, required, shape = ACTIONS[name]
    if shape == "null":
        if arg is not None:
            raise _err(place, name, "takes no argument (null)")
        return name, arg
    if shape == _L:
        _label(arg, place, name, labels)
        return name, arg
    if shape == "either" and isinstance(arg, str):
        arg = {"object": arg}
    if not isinstance(arg, dict):
        raise _err(place, name, "expected a mapping of arguments")
    for key in arg:
        if key not in keys:
            raise _err(place, str(key), f"unknown argument of {name}")
    for key in required:
        if key not in arg:
            raise _err(place, key, f"missing argument of {name}")
    for key in ("object", "of", "hero", "source"):
        if key in arg:
            _label(arg[key], place, key, labels)
    if "face" in arg and arg["face"] not in FACE_VALUES:
        raise _err(place, "face", f"expected one of {', '.join(FACE_VALUES)}")
    for key in ("face_down", "transformed", "fixed"):
        if key in arg:
            _check_type(arg[key], bool, place, key, "true or false")
    if "position" in arg and arg["position"] not in POSITIONS:
        raise _err(place, "position", "expected top or bottom")
    if name == "move" and not (isinstance(arg["to"], str) and rs.is_zone(arg["to"])):
        raise _err(place, "to", f"unknown zone {arg['to']!r} for {rs.name}")
    if name in ("change_control",) and arg["to"] not in players:
        raise _err(place, "to", f"unknown player {arg['to']!r}")
    if name == "reveal" and "to" in arg:
        to = arg["to"] if isinstance(arg["to"], list) else [arg["to"]]
        for p in to:
            if p not in players:
                raise _err(place, "to", f"unknown player {p!r}")
    if name == "examine" and arg["player"] not in players:
        raise _err(place, "player", f"unknown player {arg['player']!r}")
    if name == "shuffle":
        if arg["player"] not in players:
            raise _err(place, "player", f"unknown player {arg['player']!r}")
        if not (isinstance(arg["zone"], str) and rs.is_zone(arg["zone"])):
            raise _err(place, "zone", f"unknown zone {arg['zone']!r}")
    if name == "add_counters":
        _check_type(arg["counter"], str, place, "counter", "a counter name")
        if "count" in arg:
            _check_type(arg["count"], int, place, "count", "a whole number")
    if name == "cross_test" and "target" in arg:
        _label(arg["target"], place, "target", labels)
    if name in ("create_token_copy", "meld", "apply_effect"):
        _check_type(arg["label"], str, place, "label", "a new label")
        if arg["label"] in labels:
            raise _err(place, "label", f"duplicate label {arg['label']!r}")
    if name == "create_token_copy" and "controller" in arg and arg["controller"] not in players:
        raise _err(place, "controller", f"unknown player {arg['controller']!r}")
    if name == "meld":
        objs = arg["objects"]
        if not isinstance(objs, list) or len(objs) != 2:
            raise _err(place, "objects", "expected two labels")
        for o in objs:
            _label(o, place, "objects", labels)
        labels[arg["label"]] = "meld"
    if name == "create_token_copy":
        labels[arg["label"]] = "card"
    if name == "apply_effect":
        to = arg["to"]
        if isinstance(to, str):
            _label(to, place, "to", labels)
        else:
            _validate_where(to, place, "to", rs)
        modify = arg["modify"]
        if not isinstance(modify, dict) or not modify:
            raise _err(place, "modify", "expected a mapping of modifications")
        for key, value in modify.items():
            if key not in MODIFY_KEYS:
                raise _err(place, f"modify.{key}", "unknown modification")
            if key in ("power", "toughness", "set_power", "set_toughness"):
                _check_type(value, int, place, f"modify.{key}", "a number")
            elif key in ("lose_all_abilities", "prevent_damage_from"):
                _check_type(value, bool, place, f"modify.{key}", "true or false")
            elif key == "forbid":
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise _err(place, "modify.forbid", "expected a list of action names")
            elif not (isinstance(value, str) or (isinstance(value, list) and
                                                 all(isinstance(v, str) for v in value))):
                raise _err(place, f"modify.{key}", "expected a name or a list of names")
        if "until" in arg and arg["until"] not in ("end_of_turn", None):
            raise _err(place, "until", "expected end_of_turn")
        labels[arg["label"]] = "effect"
    return name, arg


def _validate_expect(arg: Any, place: str, rs: Ruleset, resolver: CardResolver,
                     players: tuple[str, ...], labels: Mapping[str, str],
                     remembered: set[str]) -> None:
    if not isinstance(arg, dict) or not arg:
        raise _err(place, "expect", "expected a mapping of expectations")
    for key in arg:
        if key not in EXPECT_KEYS:
            raise _err(place, str(key), "unknown expectation key")
    has_object_keys = any(k in OBJECT_KEYS for k in arg if k not in ("zone", "owner"))
    if "distinguishable" in arg:
        for key in ("zone", "owner"):
            if key not in arg:
                raise _err(place, key, "distinguishable needs zone: and owner:")
        if not rs.is_zone(arg["zone"]):
            raise _err(place, "zone", f"unknown zone {arg['zone']!r}")
        if arg["owner"] not in players:
            raise _err(place, "owner", f"unknown player {arg['owner']!r}")
    elif (has_object_keys or "zone" in arg or "owner" in arg) and "object" not in arg:
        raise _err(place, "object", "object keys need object:")
    if "object" in arg:
        _label(arg["object"], place, "object", labels)
    if "viewer" in arg and arg["viewer"] not in players and arg["viewer"] is not None:
        raise _err(place, "viewer", f"unknown player {arg['viewer']!r}")
    if "last_result" in arg and arg["last_result"] not in RESULTS:
        raise _err(place, "last_result", "expected done, nothing_happened or illegal")
    if "cites" in arg:
        cites = arg["cites"]
        if not isinstance(cites, list) or not all(isinstance(c, str | int | float) for c in cites):
            raise _err(place, "cites", "expected a list of rule ids")
    for key in ("new_object_since", "same_object_as"):
        if key in arg and arg[key] not in remembered:
            raise _err(place, key, f"nothing remembered as {arg[key]!r}")
    for key in ("affected_by", "not_affected_by"):
        if key in arg and labels.get(arg[key]) != "effect":
            raise _err(place, key, f"unknown effect label {arg[key]!r}")


# --- running ---------------------------------------------------------------------------------


class Runner:
    """Runs a validated scenario: keeps labels, remembered objects, last result and rulings."""

    def __init__(self, scn: Scenario) -> None:
        self.scn = scn
        self.rs = scn.ruleset
        self.state = new_state(self.rs.name, scn.players, seed=scn.seed, pregame=scn.pregame)
        self.labels: dict[str, tuple[str, int]] = {}  # label -> ("card", id) | ("obj", id)
        self.effects: set[str] = set()
        self.remembered: dict[str, int | None] = {}
        self.last_result: str | None = None
        self.last_rulings: tuple[Ruling, ...] = ()
        self.answer: Any = None
        self.failures: list[Failure] = []
        self.log: list[str] = []

    # labels
    def obj(self, label: str) -> GameObject | None:
        """The object a label stands for now, or ``None``."""
        kind, ident = self.labels[label]
        if kind == "card":
            return self.state.object_of_card(ident)
        return self.state.objects.get(ident)

    def need(self, label: str) -> GameObject:
        o = self.obj(label)
        if o is None:
            raise _Nothing
        return o

    def label_of(self, obj: GameObject) -> list[str]:
        return [lab for lab in self.labels if (o := self.obj(lab)) is not None and o.id == obj.id]

    def run_setup(self) -> None:
        players = self.scn.players
        for i, entry in enumerate(self.scn.setup, 1):
            place = f"setup[{i}]"
            card = self.scn.resolver.get(entry["card"])
            assert card is not None
            zone = self.rs.canonical_zone(entry["zone"])
            owner = entry.get("owner", players[0])
            face = _setup_face(entry, card, zone, self.rs)
            face_down = self.rs.face_down_on_setup(zone, entry.get("face_down"))
            flipped = bool(entry.get("flipped")) or (card.layout == "flip" and face == "back"
                                                     and self.rs.game == "mtg")
            position = entry.get("position", "bottom")
            try:
                self.state, card_id = actions.add_card(
                    self.state,
                    PhysicalCard(card=card, owner=owner, token=bool(entry.get("token"))),
                    zone, face=face, face_down=face_down, flipped=flipped,
                    controller=entry.get("controller", owner), position=position)
            except ObverseError as exc:
                raise _err(place, "", str(exc)) from None
            self.labels[entry["label"]] = ("card", card_id)

    def run(self, explain: bool = False) -> None:
        self.run_setup()
        for n, (name, arg) in enumerate(self.scn.steps, 1):
            place = f"step {n}"
            try:
                if name == "expect":
                    self.check(n, arg)
                elif name == "remember":
                    o = self.obj(arg["object"])
                    self.remembered[arg["as"]] = None if o is None else o.id
                elif name in QUERIES:
                    self.query(name, arg)
                    if explain:
                        self.explain(n, name, f"answer {_json(self.answer)}")
                else:
                    self.act(name, arg)
                    if explain:
                        self.explain(n, name, self.last_result or "")
            except InputError as exc:
                raise InputError(place, exc.key, exc.message) from None
            except RulesError as exc:
                raise InputError(place, name, str(exc)) from None

    def explain(self, n: int, name: str, result: str) -> None:
        self.log.append(f"  step {n}: {name} -> {result}")
        for r in self.last_rulings:
            self.log.append(f"    {r.rule}: {r.reason}")

    # actions
    def record(self, out: Outcome) -> None:
        self.state = out.state
        self.last_result = out.result
        self.last_rulings = out.rulings

    def act(self, name: str, arg: Any) -> None:
        if isinstance(arg, str) and name in ("cast", "play", "reveal", "cross_test"):
            arg = {"object": arg}
        try:
            out = self._act(name, arg)
        except _Nothing:
            out = Outcome(self.state, NOTHING, (self.rs.ruling("-", "the label stands for "
                                                               "nothing; nothing happens"),))
        self.record(out)

    def _act(self, name: str, arg: Any) -> Outcome:
        st = self.state
        rs = self.rs
        if name == "move":
            o = self.need(arg["object"])
            return actions.move(st, o.id, rs.canonical_zone(arg["to"]), face=arg.get("face"),
                                face_down=arg.get("face_down"),
                                transformed=arg.get("transformed"), position=arg.get("position"))
        if name in ("cast", "play"):
            o = self.need(arg["object"])
            return rs.do_cast(st, o.id, name, face=arg.get("face"),
                              transformed=bool(arg.get("transformed")),
                              face_down=bool(arg.get("face_down")))
        if name == "resolve":
            return actions.resolve(st, self.need(arg).id)
        if name == "transform":
            return actions.transform(st, self.need(arg).id)
        if name == "turn_face_down":
            return actions.turn_face_down(st, self.need(arg).id)
        if name == "turn_face_up":
            return actions.turn_face_up(st, self.need(arg).id)
        if name == "become_copy":
            return actions.become_copy(st, self.need(arg["object"]).id, self.need(arg["of"]).id)
        if name == "create_token_copy":
            of = self.obj(arg["of"])
            if of is None:
                self.labels[arg["label"]] = ("obj", -1)
                raise _Nothing
            out, card_id = actions.create_token_copy(st, of.id, arg.get("controller"))
            self.labels[arg["label"]] = ("card", card_id)
            return out
        if name == "apply_effect":
            to = arg["to"]
            self.effects.add(arg["label"])
            until = arg.get("until") == "end_of_turn"
            if isinstance(to, str):
                target = self.obj(to)
                if target is None:
                    raise _Nothing
                return actions.apply_effect(st, arg["label"], target=target.id,
                                            modify=arg["modify"], until_end_of_turn=until)
            return actions.apply_effect(st, arg["label"], where=to, modify=arg["modify"],
                                        until_end_of_turn=until, fixed=bool(arg.get("fixed")))
        if name == "add_counters":
            return actions.add_counters(st, self.need(arg["object"]).id, arg["counter"],
                                        arg.get("count", 1))
        if name == "change_control":
            return actions.change_control(st, self.need(arg["object"]).id, arg["to"])
        if name == "reveal":
            to = arg.get("to")
            return actions.reveal(st, self.need(arg["object"]).id,
                                  [to] if isinstance(to, str) else to)
        if name == "end_turn":
            return actions.end_turn(st)
        if name == "start_game":
            return actions.start_game(st)
        if name == "examine":
            return actions.examine(st, arg["player"], self.need(arg["object"]).id)
        if name == "shuffle":
            return actions.shuffle(st, arg["player"], rs.canonical_zone(arg["zone"]))
        if name == "meld":
            a, b = (self.obj(x) for x in arg["objects"])
            if a is None or b is None:
                self.labels[arg["label"]] = ("obj", -1)
                raise _Nothing
            out = rs.do_meld(st, a.id, b.id, self.scn.resolver.all_cards())
            melded = out.state.object_of_card(a.card)
            ok = out.result == DONE and melded is not None
            self.labels[arg["label"]] = ("obj", melded.id if ok and melded else -1)
            return out
        # game-specific actions: the ruleset's own vocabulary
        main_label = arg if isinstance(arg, str) else arg.get("object") or arg.get("hero")
        objs = {k: self.need(v).id for k, v in (arg.items() if isinstance(arg, dict) else [])
                if isinstance(v, str) and v in self.labels}
        main = self.need(main_label).id if isinstance(main_label, str) else None
        return rs.do_action(st, name, main, objs)

    # queries
    def query(self, name: str, arg: Mapping[str, Any]) -> None:
        st = self.state
        rs = self.rs
        if name == "name_card":
            valid, rulings = rs.name_card(st, arg["name"], self.scn.resolver.bearing(arg["name"]))
            self.answer = "valid" if valid else "invalid"
        elif name in ("search", "select"):
            zone = arg["zone"]
            where = arg.get("where") or {}
            found = []
            for lab in self.labels:
                o = self.obj(lab)
                if o is None or not rs.zone_matches(o.zone, zone):
                    continue
                if not rs.is_shared(o.zone) and o.owner != arg["player"] and \
                        rs.zone_key(o.zone, o.owner) != zone:
                    continue
                chars = rs.searchable(st, o) if name == "search" else characteristics(st, o, rs)
                if _matches(chars, where, rs):
                    found.append(lab)
            self.answer = found
            rulings = rs.query_rulings(name, zone)
        else:  # check_card_pool
            hero = self.need(arg["hero"])
            cards = []
            for c in arg["cards"]:
                if c in self.labels:
                    o = self.obj(c)
                    cards.append(st.card_def(o) if o else self.scn.resolver.get(c))
                else:
                    cards.append(self.scn.resolver.get(c))
            legal, rulings = rs.check_card_pool(st, hero, [c for c in cards if c is not None])
            self.answer = "legal" if legal else "illegal"
        self.last_rulings = rulings

    # expectations
    def fail(self, step: int, key: str, expected: Any, actual: Any) -> None:
        self.failures.append(Failure(step, key, expected, actual))

    def check(self, step: int, exp: Mapping[str, Any]) -> None:
        if "last_result" in exp and exp["last_result"] != self.last_result:
            self.fail(step, "last_result", exp["last_result"], self.last_result)
        if "cites" in exp:
            have = [r.rule for r in self.last_rulings]
            want = [str(c) for c in exp["cites"]]
            if not all(w in have for w in want):
                self.fail(step, "cites", want, have)
        if "answer" in exp:
            want = exp["answer"]
            got = self.answer
            same = (sorted(map(str, want)) == sorted(map(str, got))
                    if isinstance(want, list) and isinstance(got, list) else want == got)
            if not same:
                self.fail(step, "answer", want, got)
        viewer = exp.get("viewer", _NO_VIEWER)
        if "distinguishable" in exp:
            v = None if viewer is _NO_VIEWER else viewer
            zone = self.rs.canonical_zone(exp["zone"])
            got_d = self.rs.is_distinguishable(self.state, v, zone, exp["owner"])
            if got_d != exp["distinguishable"]:
                self.fail(step, "distinguishable", exp["distinguishable"], got_d)
            return
        if "object" not in exp:
            return
        o = self.obj(exp["object"])
        keys = [k for k in exp if k in OBJECT_KEYS]
        if o is None:
            for key in keys:
                if key == "exists" and exp[key] is False:
                    continue
                self.fail(step, key, exp[key], False if key == "exists" else None)
            return
        if viewer is not _NO_VIEWER:
            facts = view_object(self.state, viewer, o, self.rs)
            for key in keys:
                self._compare(step, key, exp[key], self._view_value(key, facts, o, exp[key]))
            return
        for key in keys:
            self._compare(step, key, exp[key], self.value(o, key, exp[key]))

    def _compare(self, step: int, key: str, want: Any, got: Any) -> None:
        if key in PREDICATE_KEYS:
            if got is not True:
                self.fail(step, key, want, f"not {key} {want}")
        elif key == "zone" and isinstance(want, str) and isinstance(got, str):
            # fab `arena` matches the hero and equipment zones; scp `sandbox` any sandbox.
            if got != want and not self.rs.zone_matches(got, want):
                self.fail(step, key, want, got)
        elif not _equal(key, want, got, self.rs):
            self.fail(step, key, want, got)

    def _view_value(self, key: str, facts: Mapping[str, Any], o: GameObject, want: Any) -> Any:
        if key == "visible":
            return facts["visible"]
        if key in facts:
            return facts[key]
        if not facts["visible"]:
            if key in VIEW_DEFAULTS:
                return VIEW_DEFAULTS[key]
            if key in ("has_name", "has_type", "has_ability"):
                source = {"has_name": "names", "has_type": "types", "has_ability": "abilities"}
                return want in (facts.get(source[key]) or [])
            if key in ("lacks_type", "lacks_ability"):
                source = {"lacks_type": "types", "lacks_ability": "abilities"}
                return want not in (facts.get(source[key]) or [])
            if key == "exists":
                return True
            if key in ("zone", "owner"):
                return facts[key]
            return None
        return self.value(o, key, want)

    def value(self, o: GameObject, key: str, want: Any = None) -> Any:
        """The true value of an expectation key for object ``o``."""
        st, rs = self.state, self.rs
        if key == "exists":
            return True
        if key in ("zone", "owner", "controller"):
            return getattr(o, key)
        if key in ("face_down", "flipped", "marked"):
            return getattr(o, key)
        if key in ("transformed", "is_copy", "is_token", "counters"):
            return status_dict(st, o, rs)[key]
        if key == "can_transform":
            return rs.can_transform(st, o)[0] and not actions.is_forbidden(st, o, "transform")
        if key == "position":
            key_ = st.zone_key_of(o)
            if o.zone not in rs.ordered_zones:
                return None
            ids = st.zone_contents(key_)
            if len(ids) == 1:
                return want if want in POSITIONS else "top"
            return "top" if ids[0] == o.id else "bottom" if ids[-1] == o.id else None
        if key in ("new_object_since", "same_object_as"):
            pinned = self.remembered.get(want)
            same = pinned is not None and pinned == o.id
            return (not same if key == "new_object_since" else same)
        if key in ("affected_by", "not_affected_by"):
            hit = self.affected(o, want)
            return hit if key == "affected_by" else not hit
        chars = characteristics(st, o, rs)
        if key == "has_name":
            return chars.has_name(want)
        if key == "has_type":
            return want in chars.props.types
        if key == "lacks_type":
            return want not in chars.props.types
        if key == "has_ability":
            return want in chars.props.abilities
        if key == "lacks_ability":
            return want not in chars.props.abilities
        if key == "face":
            return "none" if o.face_down else chars.face
        from obverse.views import chars_dict

        return chars_dict(chars, rs).get(key)

    def affected(self, o: GameObject, label: str) -> bool:
        chars = characteristics(self.state, o, self.rs)
        for e in self.state.effects:
            if e.label == label and applies_to(self.state, e, o, chars, self.rs):
                return True
        return False


class _Nothing(Exception):
    """The label stands for nothing."""


_NO_VIEWER: Any = object()


def _matches(chars: Any, where: Mapping[str, Any], rs: Ruleset) -> bool:
    from obverse.characteristics import matches

    return matches(chars, {k: v for k, v in where.items() if k != "zone"})


def _equal(key: str, want: Any, got: Any, rs: Ruleset) -> bool:
    if key in SET_KEYS:
        w = [] if want is None else (want if isinstance(want, list) else [want])
        g = [] if got is None else list(got)
        return sorted(map(str, w)) == sorted(map(str, g))
    if key == "counters":
        wanted = {k: v for k, v in (want or {}).items() if v}
        return bool(wanted == (got or {}))
    if key in ("mana_cost",) or (key == "cost" and rs.game == "mtg"):
        if want is None or got is None:
            return want is None and got is None
        try:
            return mana.normalize(str(want)) == mana.normalize(str(got))
        except ValueError:
            return False
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got or (want == got and type(want) is type(got))
    return bool(want == got)


def run_scenario(path: str | Path, explain: bool = False,
                 extra_cards: Callable[[str], CardDef | None] | None = None) -> Result:
    """Validate and run one scenario file; never raises for bad input."""
    p = str(path)
    result = Result(path=p, title=p)
    try:
        scn = load_scenario(p, extra_cards)
    except InputError as exc:
        result.status = "ERROR"
        result.error = exc.at(p)
        return result
    result.title = scn.title
    runner = Runner(scn)
    try:
        runner.run(explain)
    except InputError as exc:
        result.status = "ERROR"
        result.error = exc.at(p)
    except (ObverseError, KeyError, ValueError, TypeError, AssertionError) as exc:
        result.status = "ERROR"
        result.error = InputError("run", "", f"internal error: {type(exc).__name__}: {exc}", p)
    result.failures = runner.failures
    result.log = runner.log
    result.state = runner.state
    if result.status != "ERROR" and runner.failures:
        result.status = "FAIL"
    return result


def scenario_view(result: Result, viewer: str | None) -> str:
    """The final state's view for ``viewer`` as one line of canonical JSON."""
    assert result.state is not None
    return json.dumps(view(result.state, viewer), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))


__all__ = ["Failure", "Result", "Runner", "Scenario", "is_visible", "load_scenario",
           "msgspec", "run_scenario", "scenario_view"]
