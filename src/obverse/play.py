"""Actions as data, applying them, replaying a log, and random legal play for fuzzing.

An :class:`Action` is a verb and its arguments; :func:`apply` dispatches it to the kernel.
The action log of a game replays to the identical state (:func:`replay`), and
:func:`random_action` draws a legal action from a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from obverse import actions
from obverse.cards import CardDef
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Outcome
from obverse.state import GameState, PhysicalCard, new_state

#: Verbs every ruleset accepts, and the game-specific ones by ruleset attribute.
SHARED_VERBS = (
    "move",
    "cast",
    "play",
    "resolve",
    "turn_face_down",
    "turn_face_up",
    "become_copy",
    "reveal",
    "examine",
    "shuffle",
    "end_turn",
    "add_counters",
    "change_control",
)


#: Verbs that take one object and nothing else.
_ONE_OBJECT: dict[str, Callable[[GameState, int], Outcome]] = {
    "resolve": actions.resolve,
    "transform": actions.transform,
    "turn_face_down": actions.turn_face_down,
    "turn_face_up": actions.turn_face_up,
}


class Action(msgspec.Struct, frozen=True):
    """One action: ``verb`` on object ``obj`` (an object id) with keyword ``args``."""

    verb: str
    obj: int | None = None
    args: tuple[tuple[str, Any], ...] = ()

    def arg(self, key: str, default: Any = None) -> Any:
        """An argument by name."""
        for k, v in self.args:
            if k == key:
                return v
        return default


def apply(state: GameState, action: Action) -> Outcome:
    """Apply an action to a state."""
    rs = get_ruleset(state.ruleset)
    v, o, a = action.verb, action.obj, action.arg
    if v == "move":
        assert o is not None
        return actions.move(
            state,
            o,
            a("to"),
            face=a("face"),
            face_down=a("face_down"),
            transformed=a("transformed"),
            position=a("position"),
        )
    if v in ("cast", "play"):
        assert o is not None
        return rs.do_cast(
            state,
            o,
            v,
            face=a("face"),
            transformed=bool(a("transformed")),
            face_down=bool(a("face_down")),
        )
    if v in _ONE_OBJECT:
        assert o is not None
        return _ONE_OBJECT[v](state, o)
    if v == "become_copy":
        assert o is not None
        return actions.become_copy(state, o, a("of"))
    if v == "reveal":
        assert o is not None
        return actions.reveal(state, o, a("to"))
    if v == "examine":
        assert o is not None
        return actions.examine(state, a("player"), o)
    if v == "shuffle":
        return actions.shuffle(state, a("player"), a("zone"))
    if v == "end_turn":
        return actions.end_turn(state)
    if v == "start_game":
        return actions.start_game(state)
    if v == "add_counters":
        assert o is not None
        return actions.add_counters(state, o, a("counter"), a("count", 1))
    if v == "change_control":
        assert o is not None
        return actions.change_control(state, o, a("to"))
    return rs.do_action(state, v, o, dict(a("objs", ()) or ()))


def replay(initial: GameState, log: Iterable[Action]) -> GameState:
    """The state reached by applying ``log`` to ``initial``."""
    state = initial
    for action in log:
        state = apply(state, action).state
    return state


def deal(
    ruleset: str,
    cards: Sequence[tuple[CardDef, str, str]],
    players: Sequence[str] = ("alice", "bob"),
    seed: int = 0,
) -> GameState:
    """A state with ``(card, owner, zone)`` entries, each at the rules' default face."""
    rs = get_ruleset(ruleset)
    state = new_state(rs.name, tuple(players), seed=seed)
    for card, owner, zone in cards:
        state, _ = actions.add_card(
            state,
            PhysicalCard(card=card, owner=owner),
            zone,
            face=rs.default_face(card, zone),
            face_down=rs.face_down_on_setup(zone, None),
            position="bottom",
        )
    return state


def random_action(
    state: GameState,
    rng: random.Random,
    rs: Ruleset | None = None,
    verbs: Sequence[str] | None = None,
) -> Action:
    """A random action on a random object (the kernel decides what it does)."""
    rs = rs or get_ruleset(state.ruleset)
    objs = sorted(state.objects.keys())
    verbs = verbs or (*SHARED_VERBS, *sorted(rs.extra_actions & {"transform"}))
    verb = rng.choice(list(verbs))
    player = rng.choice(state.players)
    if not objs or verb in ("shuffle", "end_turn"):
        if verb == "end_turn":
            return Action("end_turn")
        return Action("shuffle", None, (("player", player), ("zone", rng.choice(sorted(rs.zones)))))
    oid = rng.choice(objs)
    obj = state.objects[oid]
    if verb == "move":
        zones = sorted(z for z in rs.zones if z != rs.stack_zone)
        return Action(
            "move", oid, (("to", rng.choice(zones)), ("face_down", rng.choice([None, None, True])))
        )
    if verb == "resolve":
        stack = [o for o in objs if state.objects[o].zone == rs.stack_zone]
        return Action("resolve", rng.choice(stack)) if stack else Action("end_turn")
    if verb == "become_copy":
        return Action("become_copy", oid, (("of", rng.choice(objs)),))
    if verb in ("reveal",):
        return Action("reveal", oid, (("to", (player,)),))
    if verb == "examine":
        return Action("examine", oid, (("player", player),))
    if verb == "add_counters":
        return Action("add_counters", oid, (("counter", "+1/+1"), ("count", 1)))
    if verb == "change_control":
        return (
            Action("change_control", oid, (("to", player),))
            if rs.is_in_play(obj.zone)
            else Action("end_turn")
        )
    if verb in ("cast", "play"):
        return Action(verb, oid)
    return Action(verb, oid)
