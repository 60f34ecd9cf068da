"""The conformance kit (:mod:`obverse.testing`) over every registered game, built in or
plugged in (the toy game through the registry), as OpenSpiel's ``games_sim_test`` runs every
game: invariants, replay, non-interference and views against their definition."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from obverse import registry
from obverse.rulesets import Ruleset
from obverse.testing import Finding, assert_conforms, check_game, reference_view
from toy_game import Toy

#: Every alias the registry knows (each rules version of a game too).
ALIASES = sorted(alias for cls in registry.rulesets() for alias in cls.aliases[:1])


@pytest.mark.parametrize("alias", ALIASES)
def test_every_registered_game_conforms(alias: str) -> None:
    assert_conforms(alias, histories=6, steps=24)


def test_a_plugged_in_game_conforms(register: Callable[[type[Ruleset]], Ruleset]) -> None:
    register(Toy)  # no bundled cards: random play deals its sample_cards()
    assert len(Toy.sample_cards()) == 4
    assert_conforms("toy", histories=6, steps=24)


def test_a_broken_view_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit can fail: a view that drops the spectator's public names is caught."""
    from obverse import views

    real = views.fresh_view

    def fresh(state: object, viewer: str | None) -> dict[str, object]:
        found = real(state, viewer)  # type: ignore[arg-type]
        return {**found, "turn": -1} if viewer is None else found

    monkeypatch.setattr(views, "fresh_view", fresh)
    found = check_game("mtg", histories=1, steps=4)
    assert [f.check for f in found] == ["views against their definition"]
    assert "fresh view" in found[0].error and "for None" in found[0].error


def test_a_finding_reads_with_its_scenario() -> None:
    text = str(Finding("non-interference", 3, "bob can tell the twins apart", "ruleset: mtg\n"))
    assert text.startswith("non-interference (seed 3): bob can tell")
    assert text.endswith("--- replayable scenario ---\nruleset: mtg\n")


def test_an_unknown_game_is_an_error_not_a_finding() -> None:
    with pytest.raises(Exception, match="unknown ruleset"):
        check_game("chess")
    assert callable(reference_view)  # exported for the views' own tests
