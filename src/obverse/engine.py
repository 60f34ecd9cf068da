"""The kernel's entry point: :func:`apply` checks an action and runs its procedure.

Every surface (scenario runner, :class:`~obverse.Game`, web sandbox, random play, replay)
goes through :func:`apply`; nothing else decides what is legal. Before any procedure runs
the kernel checks, in order: the verb is in the ruleset's vocabulary; the players and zones it
names exist (an unknown one is an :class:`~obverse.errors.InputError` with a suggestion);
every object it names exists (one that ceased to exist: nothing happens); with an ``actor``,
that the actor may refer to each object and is the one who learns a query's answer; and
that no ``forbid`` effect stops the subject. A refusal of a reference says nothing about the
card behind it.

>>> from obverse import Game
>>> from obverse.vocab import TurnFaceDown
>>> game = Game("mtg")
>>> clone = game.add("Clone", zone="battlefield")
>>> game.apply_effect("no", to=clone, modify={"forbid": ["turn_face_down"]}).result
'done'
>>> apply(game.state, TurnFaceDown(object=game.obj(clone).id)).result
'nothing_happened'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from obverse import vocab as v
from obverse.errors import InputError, ObverseError, quote, suggest
from obverse.registry import get_ruleset, rulesets
from obverse.rulesets.base import Catalog, Ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome, Ruling
from obverse.state import GameState

#: Verbs whose refusal by an effect is ``illegal`` (the player can't begin them) rather
#: than ``nothing_happened`` (the event doesn't occur).
_REFUSED_AS_ILLEGAL = frozenset({"cast", "play", "examine"})


class Legal(msgspec.Struct, frozen=True):
    """An action the rules let a player take now, with the rules that allow it."""

    action: v.Action
    rulings: tuple[Ruling, ...]


def ruleset_of(state: GameState) -> Ruleset:
    """The ruleset a state is played under."""
    return get_ruleset(state.ruleset)


def apply(
    state: GameState,
    action: v.Action,
    actor: str | None = None,
    *,
    catalog: Catalog | None = None,
) -> Outcome:
    """Check ``action`` and carry it out; ``actor`` is the player taking it (``None``: the
    rules themselves, a judge or a test). Queries answer in ``Outcome.answer``.

    Raises :class:`InputError` for names that don't exist (verb, zone, player, object)."""
    rs = ruleset_of(state)
    action = normalize(state, action, rs)
    refusal = check(state, action, actor, rs)
    if refusal is not None:
        return refusal
    procedure: Callable[..., Outcome] = getattr(rs, action.verb)
    if type(action).uses_catalog:
        return procedure(state, action, catalog or _EmptyCatalog())
    return procedure(state, action)


def normalize(state: GameState, action: v.Action, rs: Ruleset | None = None) -> v.Action:
    """``action`` with its names checked: the verb is this ruleset's, the players exist,
    the zones are the game's (canonical names). Raises :class:`InputError` otherwise."""
    rs = rs or ruleset_of(state)
    cls = type(action)
    if cls not in rs.vocabulary():
        verbs = [v.verb_of(c) for c in rs.vocabulary()]
        raise InputError(
            "", action.verb, f"not an action of {rs.name}{suggest(action.verb, verbs)}"
        )
    for name in cls.player_fields:
        value = getattr(action, name)
        for p in value if isinstance(value, tuple) else (value,):
            if p is not None and p not in state.players:
                hint = suggest(str(p), state.players)
                raise InputError("", name, f"unknown player {quote(p)}{hint}")
    changes: dict[str, Any] = {}
    for name in cls.zone_fields:
        zone = getattr(action, name)
        if not rs.is_zone(zone):
            raise InputError(
                "", name, f"unknown zone {quote(zone)} for {rs.name}{suggest(zone, rs.zones)}"
            )
        if rs.canonical_zone(zone) != zone:
            changes[name] = rs.canonical_zone(zone)
    return msgspec.structs.replace(action, **changes) if changes else action


def check(
    state: GameState, action: v.Action, actor: str | None = None, rs: Ruleset | None = None
) -> Outcome | None:
    """The kernel's refusal of ``action`` before its procedure runs, or ``None``."""
    rs = rs or ruleset_of(state)
    for oid in action.object_ids():
        if oid in state.objects:
            continue
        if actor is not None and 0 < oid < state.next_id:
            return refused_reference(state, rs)  # an actor can't tell gone from hidden
        if 0 < oid < state.next_id:  # it was an object once: it moved on or left the game
            reason = "that object no longer exists; nothing happens"
            return Outcome(state, NOTHING, (rs.ruling(rs.new_object_rule, reason),))
        raise InputError("", _field_of(action, oid), f"no object {oid}")
    if actor is not None:
        refusal = check_actor(state, action, actor, rs)
        if refusal is not None:
            return refusal
    subject = type(action).subject
    if subject is not None and action.verb not in rs.checks_forbid:
        obj = state.objects[getattr(action, subject)]
        if rs.is_forbidden(state, obj, action.verb):
            result = ILLEGAL if action.verb in _REFUSED_AS_ILLEGAL else NOTHING
            reason = f"an effect says it can't {action.verb.replace('_', ' ')}"
            return Outcome(state, result, (rs.ruling(rs.forbid_rule, reason),))
    return None


def check_actor(
    state: GameState, action: v.Action, actor: str, rs: Ruleset | None = None
) -> Outcome | None:
    """The refusal of an action naming what ``actor`` may not refer to (an object they
    can't identify) or learn (another player's answer), or ``None``."""
    rs = rs or ruleset_of(state)
    if actor not in state.players:
        raise InputError(
            "", "actor", f"unknown player {quote(actor)}{suggest(actor, state.players)}"
        )
    viewer = type(action).viewer_field
    if viewer is not None and getattr(action, viewer) != actor:
        reason = "only the player taking the action may learn its answer"
        return Outcome(state, ILLEGAL, (rs.ruling(rs.hidden_rule, reason),))
    for oid in action.object_ids():
        if not rs.may_refer(state, actor, state.objects[oid]):
            return refused_reference(state, rs)
    return rs.refuse_actor(state, action, actor)


def refused_reference(state: GameState, rs: Ruleset | None = None) -> Outcome:
    """The one refusal for naming an object the actor can't identify: the same whatever
    the object is (or whether it exists), so it reveals nothing."""
    rs = rs or ruleset_of(state)
    reason = "you can't refer to a card you can't identify"
    return Outcome(state, ILLEGAL, (rs.ruling(rs.hidden_rule, reason),))


def _field_of(action: v.Action, oid: int) -> str:
    for name in type(action).refs:
        value = getattr(action, name)
        if value == oid or (isinstance(value, tuple) and oid in value):
            return name
    return "object"


def legal_actions(
    state: GameState,
    player: str | None,
    *,
    where: Callable[[v.Action], bool] | None = None,
) -> list[Legal]:
    """What the rules let ``player`` do now (``None``: a judge, on every object), each with
    the rules that allow it.

    Candidates come from the ruleset (every verb on every object the player may refer to,
    with the choices its rules offer); each is kept when the kernel carries it out with
    result ``done``, and its rulings are that outcome's: the decision and its explanation
    are one branch. Only face, zone and visibility rules are modelled, never timing or
    costs. ``where`` drops candidates before the kernel tries them."""
    rs = ruleset_of(state)
    out: list[Legal] = []
    for action in rs.candidates(state, player):
        if where is not None and not where(action):
            continue  # the caller's own filter (e.g. a sandbox's seat policy), asked first
        try:
            outcome = apply(state, action, player)
        except ObverseError:
            continue
        if outcome.result == DONE:
            out.append(Legal(action, outcome.rulings))
    return out


class _EmptyCatalog:
    """No cards known beyond the game's own."""

    def get(self, name: str) -> None:
        return None

    def bearing(self, name: str) -> list[Any]:
        return []

    def all_cards(self) -> list[Any]:
        return []


def decode(data: Any, state: GameState) -> v.Action:
    """A typed action from plain data (``{"verb": "move", "object": 3, "to": "exile"}``),
    decoded against the state's ruleset vocabulary. Raises :class:`InputError`."""
    rs = ruleset_of(state)
    if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
        raise InputError("", "verb", "an action is a mapping with a verb")
    cls = rs.action_class(data["verb"])
    if cls is None:
        verbs = [v.verb_of(c) for c in rs.vocabulary()]
        raise InputError(
            "", data["verb"], f"not an action of {rs.name}{suggest(data['verb'], verbs)}"
        )
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        raise InputError("", data["verb"], str(exc)) from None


def schema(ruleset: str | None = None) -> dict[str, Any]:
    """The JSON Schema of the actions of one ruleset (or of every ruleset)."""
    classes: list[type[v.Action]] = []
    for cls in [get_ruleset(ruleset).__class__] if ruleset else rulesets():
        classes += [c for c in cls.vocabulary() if c not in classes]
    union: Any = classes[0]
    for c in classes[1:]:
        union = union | c
    return msgspec.json.schema(union)


__all__ = [
    "Legal",
    "apply",
    "check",
    "check_actor",
    "decode",
    "legal_actions",
    "normalize",
    "refused_reference",
    "ruleset_of",
    "schema",
]
