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

from obverse import actions, mana
from obverse.cards import CardDef
from obverse.characteristics import applies_to, characteristics
from obverse.errors import InputError, ObverseError, RulesError
from obverse.rulesets import Ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome, Ruling
from obverse.scenario import (
    OBJECT_KEYS,
    POSITIONS,
    PREDICATE_KEYS,
    QUERIES,
    SET_KEYS,
    VIEW_DEFAULTS,
    Scenario,
    _err,
    _json,
    _setup_face,
    load_scenario,
)
from obverse.state import GameObject, GameState, PhysicalCard, new_state
from obverse.views import status_dict, view, view_object


@dataclass
class Failure:
    """One failed expectation."""

    step: int
    key: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (
            f"  step {self.step}: {self.key}: expected {_json(self.expected)}, "
            f"got {_json(self.actual)}"
        )


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
            if entry.get("token") and "controller" in entry and "owner" not in entry:
                owner = entry["controller"]  # a token's owner is its controller
            face = _setup_face(entry, card, zone, self.rs)
            face_down = self.rs.face_down_on_setup(zone, entry.get("face_down"))
            flipped = bool(entry.get("flipped")) or (
                card.layout == "flip" and face == "back" and self.rs.game == "mtg"
            )
            position = entry.get("position", "bottom")
            try:
                self.state, card_id = actions.add_card(
                    self.state,
                    PhysicalCard(card=card, owner=owner, token=bool(entry.get("token"))),
                    zone,
                    face=face,
                    face_down=face_down,
                    flipped=flipped,
                    controller=entry.get("controller", owner),
                    position=position,
                )
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
            out = self._forbidden(name, arg) or self._act(name, arg)
        except _Nothing:
            out = Outcome(
                self.state,
                NOTHING,
                (self.rs.ruling("-", "the label stands for nothing; nothing happens"),),
            )
        self.record(out)

    def _forbidden(self, name: str, arg: Any) -> Outcome | None:
        """``apply_effect ... forbid: [action]``: the object can't do or undergo it. Actions
        whose procedure checks this itself (``move``, ``transform``, a ruleset's own) are
        left to it."""
        if name in ("move", "transform") or name in self.rs.checks_forbid:
            return None
        label = (
            arg
            if isinstance(arg, str)
            else arg.get("object") or arg.get("hero")
            if isinstance(arg, dict)
            else None
        )
        if not isinstance(label, str) or label not in self.labels:
            return None
        o = self.obj(label)
        if o is None or not actions.is_forbidden(self.state, o, name):
            return None
        result = ILLEGAL if name in ("cast", "play", "examine") else NOTHING
        return Outcome(
            self.state,
            result,
            (
                self.rs.ruling(
                    self.rs.forbid_rule, f"an effect says it can't {name.replace('_', ' ')}"
                ),
            ),
        )

    def _act(self, name: str, arg: Any) -> Outcome:
        st = self.state
        rs = self.rs
        if name == "move":
            o = self.need(arg["object"])
            return actions.move(
                st,
                o.id,
                rs.canonical_zone(arg["to"]),
                face=arg.get("face"),
                face_down=arg.get("face_down"),
                transformed=arg.get("transformed"),
                position=arg.get("position"),
            )
        if name in ("cast", "play"):
            o = self.need(arg["object"])
            return rs.do_cast(
                st,
                o.id,
                name,
                face=arg.get("face"),
                transformed=bool(arg.get("transformed")),
                face_down=bool(arg.get("face_down")),
            )
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
                return actions.apply_effect(
                    st,
                    arg["label"],
                    target=target.id,
                    modify=arg["modify"],
                    until_end_of_turn=until,
                )
            return actions.apply_effect(
                st,
                arg["label"],
                where=to,
                modify=arg["modify"],
                until_end_of_turn=until,
                fixed=bool(arg.get("fixed")),
            )
        if name == "add_counters":
            return actions.add_counters(
                st, self.need(arg["object"]).id, arg["counter"], arg.get("count", 1)
            )
        if name == "change_control":
            return actions.change_control(st, self.need(arg["object"]).id, arg["to"])
        if name == "reveal":
            to = arg.get("to")
            return actions.reveal(
                st, self.need(arg["object"]).id, [to] if isinstance(to, str) else to
            )
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
        objs = {
            k: self.need(v).id
            for k, v in (arg.items() if isinstance(arg, dict) else [])
            if isinstance(v, str) and v in self.labels
        }
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
                if not (rs.is_shared(zone) or rs.is_shared(o.zone)) and o.owner != arg["player"]:
                    continue  # an owned zone: the player's own
                chars = rs.searchable(st, o) if name == "search" else characteristics(st, o, rs)
                if _matches(chars, where, rs):
                    found.append(lab)
            self.answer = found
            rulings = rs.query_rulings(name, zone)
        else:  # check_card_pool
            hero_obj = self.obj(arg["hero"])
            if hero_obj is None:  # the hero stands for nothing: no card-pool can be legal
                self.answer = "illegal"
                self.last_rulings = (rs.ruling("-", "the hero stands for nothing"),)
                return
            hero = hero_obj
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
            if key in ("affected_by", "not_affected_by"):
                return self.value(o, key, want)  # effects are public
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
            return not same if key == "new_object_since" else same
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
