"""Running scenarios: the :class:`Runner` performs the steps of a validated
:class:`~obverse.scenario.Scenario` and checks every ``expect``; :func:`run_scenario` never
raises for bad input, it reports it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import applies_to, characteristics, marks_of, matches
from obverse.engine import apply
from obverse.errors import InputError, ObverseError, RulesError
from obverse.rulesets import Ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome, Ruling
from obverse.scenario import (
    OBJECT_KEYS,
    POSITIONS,
    PREDICATE_KEYS,
    SET_KEYS,
    TUPLE_FIELDS,
    VIEW_DEFAULTS,
    Scenario,
    _err,
    _json,
    _setup_face,
    is_query,
    load_scenario,
    setup_doors,
)
from obverse.state import GameObject, GameState, new_state
from obverse.views import chars_dict, status_dict, view, view_object


@dataclass
class Failure:
    """One failed expectation."""

    step: int
    key: str
    expected: Any
    actual: Any
    #: The rulings that decided the actual value (the characteristics' ``why`` for a
    #: characteristic, else the last action's rulings), at most two.
    why: tuple[Ruling, ...] = ()

    def __str__(self) -> str:
        line = (
            f"  step {self.step}: {self.key}: expected {_json(self.expected)}, "
            f"got {_json(self.actual)}"
        )
        return line + "".join(f"\n    decided by {r}" for r in self.why)


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
            detail = self.error.describe()
            if self.title == self.error.path:  # untitled: the path is the title already
                detail = detail[len(self.title) + 2 :]
            return f"ERROR {self.title}: {detail}"
        return f"{self.status} {self.title}"


class Runner:
    """Runs a validated scenario: keeps labels, remembered objects, last result and rulings."""

    def __init__(
        self, scn: Scenario, secret: bytes | None = None, shuffle_key: bytes = b""
    ) -> None:
        self.scn = scn
        self.rs = scn.ruleset
        self.state = new_state(
            self.rs.name,
            scn.players,
            seed=scn.seed,
            pregame=scn.pregame,
            secret=secret,
            shuffle_key=shuffle_key,
        )
        if scn.turn is not None:  # the scenario states whose turn it is
            self.state = msgspec.structs.replace(self.state, active=scn.players.index(scn.turn))
        self.labels: dict[str, tuple[str, int]] = {}  # label -> ("card", id) | ("obj", id)
        self.effects: set[str] = set()
        self.remembered: dict[str, int | None] = {}
        self.last_ids: dict[str, int] = {}
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
        for i, entry in enumerate(self.scn.setup, 1):
            card = self.scn.resolver.get(entry["card"])
            assert card is not None
            zone = self.rs.canonical_zone(entry["zone"])
            try:
                self.state, card_id = self.rs.add_card(
                    self.state,
                    card,
                    zone,
                    owner=entry.get("owner"),
                    controller=entry.get("controller"),
                    face=_setup_face(entry, card, zone, self.rs),
                    face_down=entry.get("face_down"),
                    face_down_as=entry.get("as"),
                    flipped=entry.get("flipped"),
                    token=bool(entry.get("token")),
                    position=entry.get("position", "bottom"),
                )
                status = {k: entry[k] for k in self.rs.setup_keys if k in entry}
                obj = self.state.object_of_card(card_id)
                if obj is not None:  # the game's own status (GA rested, counters ...)
                    self.state = self.rs.setup_status(self.state, obj, status)
            except InputError as exc:
                raise _err(f"setup[{i}]", exc.key, exc.message) from None
            except ObverseError as exc:
                raise _err(f"setup[{i}]", "", str(exc)) from None
            doors = setup_doors(entry, card)
            if doors:  # MTG 709.5c: a Room permanent set up with unlocked doors
                obj = self.state.object_of_card(card_id)
                assert obj is not None
                self.state = core.update(self.state, msgspec.structs.replace(obj, unlocked=doors))
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
                elif is_query(name, self.rs):
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

    # actions: the contract's step -> a typed action -> the kernel
    def record(self, out: Outcome) -> None:
        self.state = out.state
        self.last_result = out.result
        self.last_rulings = out.rulings

    def ref(self, label: str) -> int:
        """The object id a label names now: its card's object, or the last object it was
        (which the kernel knows no longer exists)."""
        kind, ident = self.labels[label]
        if kind == "card":
            o = self.state.object_of_card(ident)
            if o is not None:
                self.last_ids[label] = o.id
                return o.id
            ident = self.last_ids.get(label, -1)
        if ident < 0:
            raise _Nothing
        return ident

    def to_action(self, name: str, arg: Any) -> tuple[v.Action, str | None]:
        """The typed action a step stands for, and the label it gives a new object."""
        cls = self.rs.action_class(name)
        assert cls is not None  # validated
        data: dict[str, Any] = (
            {} if arg is None else {"object": arg} if isinstance(arg, str) else dict(arg)
        )
        data.pop("actor", None)
        label = data.pop("label", None) if cls.creates else None
        for key in cls.refs:
            value = data.get(key)
            if isinstance(value, str) and value in self.labels:
                data[key] = self.ref(value)
            elif isinstance(value, list):
                data[key] = [
                    self.ref(x) if isinstance(x, str) and x in self.labels else x for x in value
                ]
        for key in cls.player_fields:
            if isinstance(data.get(key), str) and key in TUPLE_FIELDS.get(name, ()):
                data[key] = [data[key]]
        return msgspec.convert({"verb": name, **data}, cls), label

    def act(self, name: str, arg: Any) -> None:
        label = arg.get("label") if isinstance(arg, dict) else None
        try:
            action, label = self.to_action(name, arg)
            actor = arg.get("actor") if isinstance(arg, dict) else None
            out = apply(self.state, action, actor, catalog=self.scn.resolver)
        except _Nothing:
            out = Outcome(
                self.state,
                NOTHING,
                (self.rs.ruling("-", "the label stands for nothing; nothing happens"),),
            )
        if label is not None and self.rs.action_class(name) is not None:
            self.name_new_object(name, label, out)
        self.record(out)

    def name_new_object(self, name: str, label: str, out: Outcome) -> None:
        """Give the object an action created its scenario label (a token's card, a melded
        permanent); a label of an action that made nothing stands for nothing."""
        made = out.answer if out.result == DONE else None
        cls = self.rs.action_class(name)
        if cls is not None and cls.answers_card and made:
            self.labels[label] = ("card", int(made))
        else:
            self.labels[label] = ("obj", int(made) if made else -1)

    # queries
    def query(self, name: str, arg: Mapping[str, Any]) -> None:
        try:
            action, _ = self.to_action(name, arg)
            actor = arg.get("actor") if isinstance(arg, dict) else None
            out = apply(self.state, action, actor, catalog=self.scn.resolver)
        except _Nothing:
            out = Outcome(self.state, NOTHING, (self.rs.ruling("-", "it stands for nothing"),))
        self.last_rulings = out.rulings
        cls = self.rs.action_class(name)
        if out.result == ILLEGAL:  # a choice the rules refuse (ga find): no answer
            self.answer = "illegal"
        elif (cls is not None and cls.answers_objects) or isinstance(out.answer, tuple):
            found = set(out.answer or ())
            self.answer = [lab for lab in self.labels if (o := self.obj(lab)) and o.id in found]
        elif name == "name_card":
            self.answer = "valid" if out.answer else "invalid"
        elif name == "check_card_pool":
            self.answer = "legal" if out.answer else "illegal"
        else:  # a game's own query (fab has_transcended): its answer as it is
            self.answer = out.answer

    # expectations
    def fail(
        self, step: int, key: str, expected: Any, actual: Any, o: GameObject | None = None
    ) -> None:
        """Record a failed expectation with the rulings that decided the value it got."""
        self.failures.append(Failure(step, key, expected, actual, self._why(key, o)))

    def _why(self, key: str, o: GameObject | None) -> tuple[Ruling, ...]:
        """What decided ``key``'s value: for a characteristic of ``o``, the characteristics'
        own rulings; otherwise (a result, a zone, a status) the last action's."""
        why: tuple[Ruling, ...] = ()
        if o is not None and key not in _STATUS_KEYS and o.id in self.state.objects:
            why = characteristics(self.state, o, self.rs).why
        return (why or self.last_rulings)[:2]

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
            same = (
                sorted(map(str, want)) == sorted(map(str, got))
                if isinstance(want, list) and isinstance(got, list)
                else want == got
            )
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
                got = self._view_value(key, facts, o, exp[key])
                self._compare(step, key, exp[key], got, o if facts["visible"] else None)
            return
        for key in keys:
            self._compare(step, key, exp[key], self.value(o, key, exp[key]), o)

    def _compare(self, step: int, key: str, want: Any, got: Any, o: GameObject | None) -> None:
        if key in PREDICATE_KEYS:
            if got is not True:
                self.fail(step, key, want, f"not {key} {want}", o)
        elif key == "zone" and isinstance(want, str) and isinstance(got, str):
            # fab `arena` matches the hero and equipment zones; scp `sandbox` any sandbox.
            if got != want and not self.rs.zone_matches(got, want):
                self.fail(step, key, want, got, o)
        elif not _equal(key, want, got, self.rs):
            self.fail(step, key, want, got, o)

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
            if key in ("affected_by", "not_affected_by", "has_mark", "lacks_mark"):
                return self.value(o, key, want)  # effects and designations are public
            return None
        return self.value(o, key, want)

    def value(self, o: GameObject, key: str, want: Any = None) -> Any:
        """The true value of an expectation key for object ``o``."""
        st, rs = self.state, self.rs
        if key == "exists":
            return True
        if key in ("zone", "owner", "controller"):
            return getattr(o, key)
        if key in ("face_down", "flipped", "marked", "rested"):
            return getattr(o, key)
        if key == "tapped":  # FaB 1.3.3b: a permanent's tapped state, its sideways turn
            return o.rested
        if key in ("transformed", "is_copy", "is_token", "counters"):
            return status_dict(st, o, rs)[key]
        if key == "can_transform":
            return rs.action_class("transform") is not None and (
                apply(st, v.Transform(object=o.id)).result == DONE
            )
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
            return not same if key == "new_object_since" else same
        if key in ("affected_by", "not_affected_by"):
            hit = self.affected(o, want)
            return hit if key == "affected_by" else not hit
        if key in ("has_mark", "lacks_mark"):  # a designation on the object (SCP breached)
            marked = want in marks_of(st, o.id)
            return marked if key == "has_mark" else not marked
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
#: Expectation keys an action decides rather than the characteristics (a failure cites the
#: last action's rulings for them).
_STATUS_KEYS = frozenset(
    {"exists", "zone", "owner", "controller", "position", "new_object_since", "same_object_as"}
)
#: Player fields the contract lets name one player where the action takes a list.


def _matches(chars: Any, where: Mapping[str, Any], rs: Ruleset) -> bool:
    return matches(chars, {k: v for k, v in where.items() if k != "zone"})


def _equal(key: str, want: Any, got: Any, rs: Ruleset) -> bool:
    if key in SET_KEYS:
        w = [] if want is None else (want if isinstance(want, list) else [want])
        g = [] if got is None else list(got)
        return sorted(map(str, w)) == sorted(map(str, g))
    if key == "counters":
        wanted = {k: v for k, v in (want or {}).items() if v}
        return bool(wanted == (got or {}))
    if key in ("mana_cost",) or (key == "cost" and rs.mana_costs):
        if want is None or got is None:
            return want is None and got is None
        try:
            return mana.normalize(str(want)) == mana.normalize(str(got))
        except ValueError:
            return False
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got or (want == got and type(want) is type(got))
    return bool(want == got)


def run_scenario(
    path: str | Path,
    explain: bool = False,
    extra_cards: Callable[[str], CardDef | None] | None = None,
) -> Result:
    """Validate and run one scenario file; never raises for bad input."""
    p = str(path)
    result = Result(path=p, title=p)
    try:
        scn = load_scenario(p, extra_cards)
    except InputError as exc:
        result.status = "ERROR"
        result.error = exc.at(p)
        return result
    except Exception as exc:  # a validator bug must still be a clean ERROR line (exit 2)
        result.status = "ERROR"
        result.error = InputError("validation", "", f"internal error: {type(exc).__name__}", p)
        return result
    result.title = scn.title
    runner = Runner(scn)
    try:
        runner.run(explain)
    except InputError as exc:
        result.status = "ERROR"
        result.error = exc.at(p)
    except Exception as exc:  # a kernel bug must still be a clean ERROR line
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
    return json.dumps(
        view(result.state, viewer), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )


__all__ = ["Failure", "Result", "Runner", "run_scenario", "scenario_view"]
