"""``obverse bench``'s search-node figures: what a game-tree search pays per node through
:class:`~obverse.game.Game` (the path an AI player uses), each beside python-chess doing the
same for chess in the same run (the ``bench`` extra: ``pip install 'obverse[bench]'``).

1. the offers after one change (:meth:`Game.legal_actions`) at the larger number of
   permanents, at most 20x their cost at the smaller (MTG and FaB);
2. a search node at 32 permanents (apply one offer, list the offers, undo) within 5x
   python-chess's push, ``list(board.legal_moves)``, pop, timed once each of its branches
   has been visited (the first visit of a branch decides its new objects' offers);
3. ``apply`` + ``undo`` at the larger number of permanents within 2x python-chess's push and
   pop, in every game (a move of a permanent to its owner's discard pile; FaB's put-under
   too).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from obverse import vocab as v
from obverse.bench import Figure, _best_of, _clock, best_us
from obverse.engine import Legal
from obverse.fuzz import card_pool
from obverse.game import Game
from obverse.rulesets.fab import PutUnder

#: The numbers of permanents the offers are listed at (``--node-sizes``): the issue sets the
#: growth goal from 50 to 1,000, and apply + undo's at 1,000.
NODE_SIZES = (50, 1000)
#: Permanents on a search node's board (the issue's figure).
NODE_PERMANENTS = 32
#: The games apply + undo is measured in; the offers' figures are MTG's and FaB's.
GAMES = ("mtg", "fab", "ga", "scp")
OFFER_GAMES = ("mtg", "fab")
#: A middle-game chess position (Italian game, move 5): its legal moves are the chess
#: floors' moves, each in turn, so no one cheap move stands for chess.
CHESS_FEN = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"
#: The offers a search node cycles through (a seeded sample of the root's): a node of a
#: real search applies any of them, not one cheap one.
NODE_OFFERS = 16
#: A call slower than this is timed once (the offers of a large board may take seconds).
_SLOW = 0.5
MISSING = (
    "python-chess isn't installed, so the search-node figures (which compare with it) are "
    "left out: pip install 'obverse[bench]'"
)


def chess_available() -> bool:
    """Whether python-chess (the search-node figures' floors) can be imported."""
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


def table(game: str, n: int, seed: int = 1) -> tuple[Game, list[int]]:
    """A two-player game of ``game`` with ``n`` random bundled cards as permanents (each
    player's at random), and the card ids."""
    g = Game(game, secret=f"bench node {game} {n}".encode())
    rng = random.Random(seed)
    pool = card_pool(game)
    zone = g.ruleset.play_zone
    ids = [g.add(rng.choice(pool), zone, owner=rng.choice(g.state.players)) for _ in range(n)]
    return g, ids


def _chess() -> tuple[Callable[[], object], Callable[[], object]]:
    """python-chess's push + pop and push + list the legal moves + pop, each move of
    :data:`CHESS_FEN` in turn."""
    import chess

    board = chess.Board(CHESS_FEN)
    moves = itertools.cycle(list(board.legal_moves))

    def push_pop() -> None:
        board.push(next(moves))
        board.pop()

    def node() -> None:
        board.push(next(moves))
        list(board.legal_moves)
        board.pop()

    return push_pop, node


def _times(fns: list[Callable[[], object]], budget: float, rounds: int) -> list[float]:
    """Microseconds per call of each of ``fns`` (:func:`best_us`, interleaved), except that a
    call slower than :data:`_SLOW` seconds is timed once, on its own (its first call)."""
    slow: dict[int, float] = {}
    for i, fn in enumerate(fns):
        t0 = _clock()
        fn()
        dt = _clock() - t0
        if dt > _SLOW:
            slow[i] = dt * 1e6
    fast = [fn for i, fn in enumerate(fns) if i not in slow]
    timed = iter(best_us(fast, budget * len(fast), rounds) if fast else [])
    return [slow[i] if i in slow else next(timed) for i in range(len(fns))]


def _move(g: Game, card: int) -> v.Action:
    return v.Move(object=g.obj(card).id, to=g.ruleset.discard_zone)


def _apply_undo(g: Game, action: v.Action) -> Callable[[], object]:
    def once() -> None:
        g.apply(action)
        g.undo()

    return once


def _offers_after_change(g: Game, change: v.Action) -> Callable[[], object]:
    seat = g.state.active_player

    def once() -> list[Legal]:
        g.apply(change)
        offers = g.legal_actions(seat)
        g.undo()
        return offers

    return once


def _node(g: Game, offers: list[Legal]) -> Callable[[], object]:
    """Apply one offer (each of ``offers`` in turn), list the offers, undo."""
    seat = g.state.active_player
    cycle = itertools.cycle([o.action for o in offers])

    def once() -> list[Legal]:
        g.apply(next(cycle), seat)
        listed = g.legal_actions(seat)
        g.undo()
        return listed

    return once


def _node_offers(g: Game) -> list[Legal]:
    offers = g.legal_actions(g.state.active_player)
    rng = random.Random(7)
    return rng.sample(offers, min(NODE_OFFERS, len(offers)))


def _one_pass(sizes: tuple[int, int], budget: float, rounds: int) -> list[Figure]:
    """One pass of the three figures (see the module's docstring)."""
    push_pop, chess_node = _chess()
    small, large = sizes
    figures: list[Figure] = []
    # 1. The offers after one change, at both sizes (MTG and FaB).
    for game in OFFER_GAMES:
        cost: list[float] = []
        for n in sizes:
            g, ids = table(game, n)
            g.legal_actions(g.state.active_player)  # the first listing, untimed
            value, floor = _times(
                [_offers_after_change(g, _move(g, ids[0])), chess_node], budget, rounds
            )
            cost.append(value)
            fig = Figure(
                f"{game}: offers after one change (Game.legal_actions)",
                value,
                "us",
                floor,
                "python-chess push + list(legal_moves) + pop",
                size=n,
                base=cost[0],
            )
            if n == large:
                fig.goal, fig.goal_kind, fig.limit = f"<= 20x the cost at {small}", "growth", 20
            figures.append(fig)
    # 2. A search node at 32 permanents.
    for game in GAMES:
        g, _ = table(game, NODE_PERMANENTS)
        offers = _node_offers(g)
        node = _node(g, offers)
        for _ in offers:  # one visit of each branch first: a search comes back to its nodes
            node()
        value, floor = _times([node, chess_node], budget, rounds)
        figures.append(
            Figure(
                f"{game}: search node (apply one offer, list the offers, undo)",
                value,
                "us",
                floor,
                "python-chess push + list(legal_moves) + pop",
                "<= 5x floor",
                size=NODE_PERMANENTS,
                goal_kind="floor_ratio",
                limit=5,
            )
        )
    # 3. apply + undo at the larger size, every game.
    for game in GAMES:
        g, ids = table(game, large)
        steps = [("move to the discard zone", _move(g, ids[0]))]
        if game == "fab":
            top, sub = g.obj(ids[0]).id, g.obj(ids[1]).id
            steps.append(("put-under", PutUnder(object=sub, top=top)))
        for label, action in steps:
            value, floor = _times([_apply_undo(g, action), push_pop], budget, rounds)
            figures.append(
                Figure(
                    f"{game}: apply + undo ({label})",
                    value,
                    "us",
                    floor,
                    "python-chess push + pop",
                    "<= 2x floor",
                    size=large,
                    goal_kind="floor_ratio",
                    limit=2,
                )
            )
    return figures


def run(sizes: tuple[int, int] = NODE_SIZES, quick: bool = False) -> list[Figure]:
    """The search-node figures (empty without python-chess: see :data:`MISSING`), in two
    passes, each figure the better of both (as :func:`obverse.bench.run` takes them);
    ``quick``: one short pass."""
    if not chess_available():
        return []
    if quick:
        return _one_pass(sizes, 0.02, 3)
    first = _one_pass(sizes, 0.25, 7)
    second = _one_pass(sizes, 0.25, 7)
    best = [_best_of(a, b) for a, b in zip(first, second, strict=True)]
    # A growth compares with the smaller size's best, measured alike.
    bases: dict[str, float] = {}
    out: list[Figure] = []
    for f in best:
        if f.base is not None and f.size == sizes[0]:
            bases[f.name] = f.value
        out.append(replace(f, base=bases[f.name]) if f.name in bases else f)
    return out


def parse_node_sizes(text: str) -> tuple[int, int]:
    """``--node-sizes 50,1000``: two numbers of permanents, the smaller first, from 2 to
    10,000 (``ValueError`` otherwise)."""
    try:
        found = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        found = ()
    if len(found) != 2 or not 2 <= found[0] < found[1] <= 10_000:
        raise ValueError(
            f"--node-sizes: expected two numbers of permanents, the smaller first, from 2 to "
            f"10,000, got {text!r}"
        )
    return found[0], found[1]


__all__: list[Any] = [
    "GAMES",
    "MISSING",
    "NODE_SIZES",
    "chess_available",
    "parse_node_sizes",
    "run",
    "table",
]
