"""Views at scale: prints JSON figures (best of 5) for boards of 200 and 4,000 objects.

``transform_view_us``: transform one permanent, then bob's view of the result (the view kept
from the previous call is patched); ``move_us``: move a permanent to the graveyard;
``first_view_us_per_object``: a view with every cache cleared, per object, and its ratio to
copying one small dict; ``back_face_two_effects_us``: uncached characteristics of a
transformed DFC under two effects. ``growth`` is the 4,000 / 200 ratio of each.

    python benchmarks/bench_views.py
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from obverse import views
from obverse import vocab as v
from obverse.bench import board, clear_caches
from obverse.characteristics import apply_effects
from obverse.engine import apply
from obverse.rulesets import get_ruleset


def best_us(fn: Callable[[], object], repeat: int = 5, budget: float = 0.2) -> float:
    """Best-of-``repeat`` mean time per call in µs, each round running ~``budget`` s."""
    fn()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget / 10:
        fn()
        calls += 1
    n = max(1, calls * 10 // repeat)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def measure(n: int) -> dict[str, float]:
    """The figures for a board of ``n`` objects."""
    state = board(n)
    dfc = state.objects[state.zones["battlefield"][0]]
    views.view(state, "bob")
    rows = [{"id": i, "name": "x", "power": 1} for i in range(200)]
    copy_us = best_us(lambda: [dict(r) for r in rows]) / len(rows)

    def cold() -> None:
        clear_caches()
        views.view(state, "bob")

    first = best_us(cold, repeat=3) / n
    return {
        "transform_view_us": best_us(
            lambda: views.view(apply(state, v.Transform(object=dfc.id)).state, "bob")
        ),
        "move_us": best_us(lambda: apply(state, v.Move(object=dfc.id, to="graveyard"))),
        "first_view_us_per_object": first,
        "first_view_per_dict_copy": first / copy_us,
    }


def back_face_us() -> float:
    """Uncached characteristics of a DFC's back face under two effects."""
    state = board(200)
    rs = get_ruleset("mtg")
    dfc = state.objects[state.zones["battlefield"][0]]
    for label in ("a", "b"):
        pump = v.ApplyEffect(label=label, to=dfc.id, modify={"power": 1, "toughness": 1})
        state = apply(state, pump).state
    flipped = apply(state, v.Transform(object=dfc.id)).state
    back = flipped.objects[dfc.id]
    return best_us(lambda: apply_effects(flipped, back, rs.base_characteristics(flipped, back), rs))


def main() -> None:
    """Print the figures as JSON."""
    small, large = measure(200), measure(4000)
    out = {
        "200": small,
        "4000": large,
        "growth": {k: large[k] / small[k] for k in small},
        "back_face_two_effects_us": back_face_us(),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
