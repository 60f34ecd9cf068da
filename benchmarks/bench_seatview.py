"""Milliseconds per act spent building the four seats' state answers (``Table.seat_view``).

A table like ``bench_server.build_table`` makes (60 cards of ``BOARD_CARDS`` between alice and
bob, zones at random); then, per act: a random offered action of a random player (or the
judge) is appended, and ``seat_view`` is timed for alice, bob, the judge and the spectator.
Compare two checkouts by running this with each one's ``src`` on ``PYTHONPATH``, alternately.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_server import BOARD_CARDS

from obverse.web.store import JUDGE, SPECTATOR, GameRecord
from obverse.web.table import Request, Table, build_step, legal_actions

SEATS = ("alice", "bob", JUDGE, SPECTATOR)


def make_table(cards: int, seed: int) -> Table:
    """The benchmark's starting table."""
    rng = random.Random(seed)
    zones = ("battlefield", "battlefield", "hand", "library", "graveyard")
    setup = [
        {
            "label": f"c{i}",
            "card": BOARD_CARDS[i % len(BOARD_CARDS)],
            "owner": ("alice", "bob")[i % 2],
            "zone": rng.choice(zones),
        }
        for i in range(cards)
    ]
    rec = GameRecord(
        id="b", ruleset="mtg", title="", players=("alice", "bob"), seed=seed, setup=setup
    )
    return Table(rec)


def run(acts: int, cards: int, seed: int, log: bool = False) -> float:
    """Milliseconds per act of the four seat views (and with ``log`` their logs too)."""
    rng = random.Random(seed)
    table = make_table(cards, seed)
    for seat in SEATS:  # warm: the first views are built whole
        table.seat_view(seat)
    spent = 0.0
    done = 0
    while done < acts:
        seat = rng.choice(("alice", "bob", JUDGE))
        offers = legal_actions(table, seat)
        if not offers:
            continue
        pick = rng.choice(offers)
        step = build_step(table, seat, Request(pick["verb"], pick["object"], pick["args"]))
        new = table.append(step, seat)
        if new.broken is not None or new.history[-1].result == "illegal":
            continue
        table = new
        t0 = time.perf_counter()
        for s in SEATS:
            table.seat_view(s)
            if log:
                table.log(s)
        spent += time.perf_counter() - t0
        done += 1
    return spent / acts * 1000


def main() -> None:
    """Print ms per act (best of ``--repeat``)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--acts", type=int, default=200)
    ap.add_argument("--cards", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--log", action="store_true", help="time each seat's log too")
    args = ap.parse_args()
    times = [run(args.acts, args.cards, args.seed, args.log) for _ in range(args.repeat)]
    what = "seat views and logs" if args.log else "seat views"
    print(f"{what}: {min(times):.3f} ms per act (best of {args.repeat}; all {times})")


if __name__ == "__main__":
    main()
