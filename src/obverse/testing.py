"""A conformance kit: what every game obverse runs must hold, checked in one call.

Any registered ruleset, built in or a plug-in (``obverse.rulesets`` entry point), runs
``check_game(alias)`` (or :func:`assert_conforms` in a test) over seeded random histories, as
OpenSpiel's ``games_sim_test`` runs every registered game:

- **invariants**: every card in exactly one zone, counts kept, faces valid for the zone
  (:func:`obverse.fuzz.check_invariants`);
- **replay**: a state survives serialization, and replaying the log reproduces it;
- **non-interference**: twin histories that differ only in one hidden card of alice's give
  bob byte-identical views, events and answers (:func:`obverse.fuzz.twin_history`);
- **views against their definition**: the kept, patched and fresh views equal the view built
  object by object (:func:`reference_view`), for each player and a spectator.

Random play deals the game's :meth:`~obverse.rulesets.Ruleset.sample_cards`::

    from obverse.testing import assert_conforms

    def test_my_game_conforms() -> None:
        assert_conforms("mygame", histories=20)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from obverse import views
from obverse.fuzz import PLAYERS, play_history, random_deal, to_scenario, try_apply, twin_history
from obverse.play import random_action
from obverse.rulesets import get_ruleset
from obverse.state import GameState

#: Who looks at each view the kit compares: each player and a spectator.
VIEWERS: tuple[str | None, ...] = (*PLAYERS, None)


@dataclass(frozen=True)
class Finding:
    """One broken property: which check, on which seed, what broke, and (for the random-play
    checks) a scenario file that replays it."""

    check: str
    seed: int
    error: str
    scenario: str = ""

    def __str__(self) -> str:
        text = f"{self.check} (seed {self.seed}): {self.error}"
        return f"{text}\n--- replayable scenario ---\n{self.scenario}" if self.scenario else text


def reference_view(state: GameState, viewer: str | None) -> dict[str, Any]:
    """The view by its definition, one object at a time, with no shared body, digest or
    kept view: each entry its plain body and handle; each zone in rank order (ordered
    zones) or by visibility, name and handle. :func:`obverse.view` must equal it byte for
    byte."""
    rs = get_ruleset(state.ruleset)
    zones = []
    for zkey in sorted(state.zones):
        entries = []
        for oid in state.zones[zkey].ids():
            obj = state.objects[oid]
            entry = views._body(state, viewer, obj, rs, views.is_visible(state, viewer, obj, rs))
            entry["handle"] = views.handle(state, viewer, obj)
            entries.append(entry)
        if not entries:
            continue
        if zkey.rpartition(":")[2] not in rs.ordered_zones:
            entries.sort(key=lambda e: (not e["visible"], e.get("name") or "", e["handle"]))
        owner, _, name = zkey.rpartition(":")
        zones.append(
            {"zone": name, "owner": owner or None, "count": len(entries), "objects": entries}
        )
    return {
        "ruleset": rs.name,
        "viewer": viewer,
        "players": list(state.players),
        "active": state.active_player,
        "turn": state.turn,
        "pregame": state.pregame,
        "zones": zones,
    }


def random_history(
    alias: str, seed: int, steps: int, size: int | tuple[int, int] = 12
) -> list[GameState]:
    """The states of a seeded random history of ``alias`` from a deal of ``size`` cards (a
    range: a size drawn from it, by the same generator)."""
    rng = random.Random(seed)
    n = size if isinstance(size, int) else rng.randrange(*size)
    state = random_deal(alias, rng, n=n)
    states = [state]
    for _ in range(steps):
        out = try_apply(state, random_action(state, rng))
        if out is not None:
            state = out.state
            states.append(state)
    return states


def check_views(alias: str, seed: int, steps: int = 20) -> str | None:
    """Whether the views of a random history equal their definition (the kept view, patched
    from the last, and a fresh one), for each viewer: the first difference, or ``None``."""
    for i, state in enumerate(random_history(alias, seed, steps)):
        for viewer in VIEWERS:
            want = json.dumps(reference_view(state, viewer))
            for kind, got in (
                ("kept", views.view(state, viewer)),
                ("fresh", views.fresh_view(state, viewer)),
            ):
                if json.dumps(got) != want:
                    return f"the {kind} view of step {i} for {viewer} differs from its definition"
    return None


def check_game(alias: str, histories: int = 10, steps: int = 30, seed: int = 0) -> list[Finding]:
    """Every check of the kit over ``histories`` seeds from ``seed``: what broke (empty: the
    game conforms)."""
    get_ruleset(alias)  # an unknown alias is an error here, not a finding
    found: list[Finding] = []
    for s in range(seed, seed + histories):
        hist = play_history(alias, s, steps)
        if hist.error is not None:
            found.append(Finding("invariants and replay", s, hist.error, to_scenario(hist)))
        twin = twin_history(alias, s, steps // 2)
        if twin.error is not None:
            found.append(Finding("non-interference", s, twin.error, to_scenario(twin)))
        error = check_views(alias, s, steps // 2)
        if error is not None:
            found.append(Finding("views against their definition", s, error))
    return found


def assert_conforms(alias: str, histories: int = 10, steps: int = 30, seed: int = 0) -> None:
    """:func:`check_game`, raising :class:`AssertionError` with the first finding (and its
    replayable scenario) if anything broke."""
    found = check_game(alias, histories, steps, seed)
    if found:
        raise AssertionError(f"{alias}: {len(found)} finding(s); the first:\n{found[0]}")


__all__ = [
    "VIEWERS",
    "Finding",
    "assert_conforms",
    "check_game",
    "check_views",
    "random_history",
    "reference_view",
]
