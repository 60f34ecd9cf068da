"""Playing whole games: dealing, replaying an action log, and random play for fuzzing.

Actions are the typed structs of :mod:`obverse.vocab`; :func:`apply` is the kernel's. The
action log of a game replays to the identical state (:func:`replay`); :func:`random_action`
draws a candidate action (which the kernel may refuse) and :func:`random_legal_action` one
the rules allow.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.engine import apply, legal_actions
from obverse.registry import get_ruleset
from obverse.rulesets import Ruleset
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


def random_action(
    state: GameState,
    rng: random.Random,
    rs: Ruleset | None = None,
    verbs: Sequence[str] | None = None,
) -> v.Action:
    """A random candidate action of a random player (the kernel decides what it does;
    it may refuse it): robustness against actions the rules don't allow."""
    rs = rs or get_ruleset(state.ruleset)
    player = rng.choice([*state.players, None])
    pool = [a for a in rs.candidates(state, player) if verbs is None or a.verb in verbs]
    return rng.choice(pool) if pool else v.EndTurn()


def random_legal_action(state: GameState, rng: random.Random, player: str) -> v.Action:
    """A random action of :func:`~obverse.engine.legal_actions` for ``player``."""
    legal = legal_actions(state, player)
    return rng.choice(legal).action if legal else v.EndTurn()


__all__ = ["apply", "deal", "random_action", "random_legal_action", "replay"]
