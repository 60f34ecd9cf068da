"""Playing whole games: dealing, replaying an action log, and random play for fuzzing.

Actions are the typed structs of :mod:`obverse.vocab`; :func:`apply` is the kernel's. The
action log of a game replays to the identical state (:func:`replay`); :func:`random_action`
draws an action the rules allow (or, asked to, any candidate, which the kernel may refuse).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.engine import apply, legal_actions
from obverse.errors import ObverseError
from obverse.registry import get_ruleset
from obverse.rulesets import Ruleset
from obverse.rulings import DONE
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
    *,
    legal: bool = True,
    tries: int = 12,
) -> v.Action:
    """A random action of a random player (``None``: the rules themselves). With ``legal``,
    one the kernel carries out (``done``): candidates in random order, the first the kernel
    accepts, so random play draws from the legal actions without listing them all. Without,
    any candidate, which the kernel may refuse (robustness against what the rules forbid)."""
    rs = rs or get_ruleset(state.ruleset)
    player = rng.choice([*state.players, None])
    pool = [a for a in rs.candidates(state, player) if verbs is None or a.verb in verbs]
    if not legal:
        return rng.choice(pool) if pool else v.EndTurn()
    for action in rng.sample(pool, min(tries, len(pool))):
        try:
            if apply(state, action, player).result == DONE:
                return action
        except ObverseError:
            continue
    return v.EndTurn()


def random_legal_action(state: GameState, rng: random.Random, player: str) -> v.Action:
    """A random action of :func:`~obverse.engine.legal_actions` for ``player``."""
    legal = legal_actions(state, player)
    return rng.choice(legal).action if legal else v.EndTurn()


__all__ = ["apply", "deal", "random_action", "random_legal_action", "replay"]
