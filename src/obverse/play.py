"""Playing whole games: dealing, replaying an action log, and random play for fuzzing.

Actions are the typed structs of :mod:`obverse.vocab`; :func:`apply` is the kernel's. The
action log of a game replays to the identical state (:func:`replay`); :func:`random_action`
draws an action the rules allow (or, asked to, any candidate, which the kernel may refuse).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from obverse import memo
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.engine import apply, legal_actions
from obverse.errors import ObverseError
from obverse.registry import get_ruleset
from obverse.rulesets import Ruleset
from obverse.rulesets.offers import objects_in_order
from obverse.rulings import DONE, Outcome
from obverse.state import GameState, new_state


def replay(initial: GameState, log: Iterable[v.Action]) -> GameState:
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
    """A state with ``(card, owner, zone)`` entries, each as the rules set it up."""
    rs = get_ruleset(ruleset)
    state = new_state(rs.name, tuple(players), seed=seed)
    for card, owner, zone in cards:
        state, _ = rs.add_card(state, card, zone, owner=owner, position="bottom")
    return state


#: Draws :func:`random_action` makes before it settles for ending the turn.
TRIES = 32


def random_action(
    state: GameState,
    rng: random.Random,
    rs: Ruleset | None = None,
    verbs: Sequence[str] | None = None,
    *,
    legal: bool = True,
    tries: int = TRIES,
) -> v.Action:
    """A random action of a random player (``None``: the rules themselves).

    It draws lazily, never listing every candidate: the player; then, up to ``tries``
    times, a verb of the ruleset's vocabulary (of ``verbs``, if given), an object (any
    object; the ruleset offers nothing on one the player may not refer to) and one of the
    candidates :meth:`~obverse.rulesets.Ruleset.candidates_on` generates for that verb on
    that object, each as likely (:meth:`~obverse.rulesets.Ruleset.draw_on`); for a verb
    naming no object, one of that verb's candidates. With
    ``legal``, the first draw the kernel carries out (``done``) is the answer; without, the
    first candidate drawn, which the kernel may refuse (robustness against what the rules
    forbid). When no draw succeeds, the turn ends. Every verb, and every candidate, has a
    chance; the same ``rng`` state draws the same action."""
    return _draw(state, rng, rs or get_ruleset(state.ruleset), verbs, legal, tries)[0]


def random_step(
    state: GameState,
    rng: random.Random,
    rs: Ruleset | None = None,
    verbs: Sequence[str] | None = None,
    *,
    legal: bool = True,
    tries: int = TRIES,
) -> tuple[v.Action, Outcome | None]:
    """:func:`random_action` and its outcome when the rules themselves take it (``None``:
    the kernel refuses its names), without applying it twice: an action the player could
    carry out has the same outcome taken by the rules (the actor only adds refusals)."""
    action, found = _draw(state, rng, rs or get_ruleset(state.ruleset), verbs, legal, tries)
    if found is not None:
        return action, found
    try:
        return action, apply(state, action)
    except ObverseError:
        return action, None


def random_candidate(
    state: GameState,
    rng: random.Random,
    player: str | None,
    rs: Ruleset | None = None,
    *,
    where: Callable[[v.Action], bool] | None = None,
    tries: int = TRIES,
) -> v.Action | None:
    """A candidate offered to ``player`` (``None``: as a judge, on every object), drawn as
    :func:`random_action` draws and not tried; ``where`` drops a draw (it draws again);
    ``None`` when no draw of ``tries`` finds one."""
    rs = rs or get_ruleset(state.ruleset)
    for action in _draws(state, rng, rs, player, _offered(rs, None), tries):
        if action is not None and (where is None or where(action)):
            return action
    return None


def _draw(
    state: GameState,
    rng: random.Random,
    rs: Ruleset,
    verbs: Sequence[str] | None,
    legal: bool,
    tries: int,
) -> tuple[v.Action, Outcome | None]:
    """The action :func:`random_action` draws and, when it tried it, its ``done`` outcome."""
    seats = (*state.players, None)
    player = seats[int(rng.random() * len(seats))]
    for action in _draws(state, rng, rs, player, _offered(rs, verbs), tries):
        if action is None:
            continue
        if not legal:
            return action, None
        try:
            out = apply(state, action, player)
        except ObverseError:
            continue
        if out.result == DONE:
            return action, out
    return v.EndTurn(), None


def _draws(
    state: GameState,
    rng: random.Random,
    rs: Ruleset,
    player: str | None,
    offered: Sequence[tuple[str, bool]],
    tries: int,
) -> Iterator[v.Action | None]:
    """``tries`` draws (none without a verb), each a verb, then an object and one of its
    candidates of that verb (or one of the verb's candidates, for a verb naming no object);
    ``None`` when the draw found none. Each pick is ``items[int(rng.random() *
    len(items))]``: ``rng.choice`` at a third of the cost, one float drawn."""
    # The object table's own order (no sort of every id for each action), kept per map.
    objects = objects_in_order(state)
    for _ in range(tries if offered else 0):
        verb, names_object = offered[int(rng.random() * len(offered))]
        if not names_object:
            pool = rs.candidates(state, player, verb)
            yield pool[int(rng.random() * len(pool))] if pool else None
        elif objects:
            o = objects[int(rng.random() * len(objects))]
            yield rs.draw_on(state, player, o, verb, rng)
        else:
            yield None


def _offered(rs: Ruleset, verbs: Sequence[str] | None) -> Sequence[tuple[str, bool]]:
    """The verbs to draw from, each with whether its actions name an object."""
    every = _every_verb(type(rs))
    return every if verbs is None else [x for x in every if x[0] in verbs]


@memo.per_value
def _every_verb(cls: type[Ruleset]) -> tuple[tuple[str, bool], ...]:
    """A ruleset class's verbs (its vocabulary is fixed), each with whether its actions name
    an object."""
    return tuple((v.verb_of(c), bool(c.refs)) for c in cls.vocabulary())


def random_legal_action(state: GameState, rng: random.Random, player: str) -> v.Action:
    """A random action of :func:`~obverse.engine.legal_actions` for ``player``."""
    legal = legal_actions(state, player)
    return rng.choice(legal).action if legal else v.EndTurn()


__all__ = [
    "TRIES",
    "apply",
    "deal",
    "random_action",
    "random_candidate",
    "random_legal_action",
    "random_step",
    "replay",
]
