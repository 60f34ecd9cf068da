"""FaB round three (issue 24): every new verb takes part in the non-interference twin
histories (bob's view never depends on alice's hidden card) and in random play's invariants."""

from __future__ import annotations

from collections import Counter

from obverse import vocab as v
from obverse.fuzz import twin_history
from obverse.rulesets import get_ruleset

NEW_VERBS = frozenset(
    {"tap", "untap", "return_to_the_brood", "equip", "give", "steal", "exchange", "look_at_top"}
)


def test_new_verbs_are_fab_verbs() -> None:
    rs = get_ruleset("fab")
    for verb in NEW_VERBS:
        assert rs.action_class(verb) is not None, verb


def test_twin_histories_exercise_every_new_verb_without_a_leak() -> None:
    seen: Counter[str] = Counter()
    for seed in range(160):
        hist = twin_history("fab", seed, 40)
        assert hist.error is None, (seed, hist.error)
        seen.update(v.VERBS[type(a)] for a in hist.log)
        if set(seen) >= NEW_VERBS:
            break
    assert set(seen) >= NEW_VERBS, sorted(NEW_VERBS - set(seen))


def test_a_tapped_permanent_shows_tapped_in_every_view() -> None:
    from obverse import Game
    from obverse.rulesets.fab import Tap, Untap

    game = Game("fab")
    hero = game.add("Dorinthea Ironsong", "hero", owner="alice")

    def entry(viewer: str | None) -> dict[str, object]:
        found = [o for o in _entries(game.view(viewer)) if o.get("card") == "Dorinthea Ironsong"]
        assert len(found) == 1
        return found[0]

    assert "tapped" not in entry("bob")
    game.apply(Tap(object=game.obj(hero).id))
    assert entry("bob")["tapped"] is True and entry(None)["tapped"] is True
    game.apply(Untap(object=game.obj(hero).id))
    assert "tapped" not in entry("alice")


def _entries(node: object) -> list[dict[str, object]]:
    """Every object entry of a view (mappings with a ``zone`` and a ``visible`` key)."""
    out: list[dict[str, object]] = []
    if isinstance(node, dict):
        if "visible" in node and "zone" in node:
            out.append(node)
        for value in node.values():
            out += _entries(value)
    elif isinstance(node, list):
        for value in node:
            out += _entries(value)
    return out
