"""Property tests over random play, for every ruleset (hypothesis drives the seeds).

- invariants: every card in exactly one zone, card counts preserved, faces valid for the zone,
  copies never able to transform where the rules forbid it;
- serialization round-trips and replay reproduce the state; the same seed gives the same game;
- non-interference: two histories differing only in one player's hidden card give the other
  player byte-identical views and event streams at every step, and the hidden card's name never
  appears in what that player gets.

The number of histories per ruleset is fixed (``HISTORIES``; ``OBVERSE_FUZZ_SCALE`` multiplies
it for long local runs) and printed by ``test_report_budget``.
"""

from __future__ import annotations

import os

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obverse.fuzz import History, play_history, to_scenario, twin_history
from obverse.serialize import dumps

SCALE = int(os.environ.get("OBVERSE_FUZZ_SCALE", "1"))
HISTORIES = 100 * SCALE
STEPS = 40
RULESETS = ["mtg", "mtg@2025-06", "mtg@2020", "fab", "ga", "scp"]
SEEDS = st.integers(min_value=0, max_value=2**31)
SETTINGS = settings(max_examples=HISTORIES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _explain(hist: History) -> str:
    return f"{hist.error}\n--- replayable scenario ---\n{to_scenario(hist)}"


@pytest.mark.parametrize("alias", RULESETS)
@SETTINGS
@given(seed=SEEDS)
def test_random_play_keeps_invariants_and_replays(alias: str, seed: int) -> None:
    hist = play_history(alias, seed, STEPS)
    assert hist.error is None, _explain(hist)


@pytest.mark.parametrize("alias", RULESETS)
@SETTINGS
@given(seed=SEEDS)
def test_non_interference(alias: str, seed: int) -> None:
    hist = twin_history(alias, seed, STEPS // 2)
    assert hist.error is None, _explain(hist)


@pytest.mark.parametrize("alias", RULESETS)
def test_same_seed_same_game(alias: str) -> None:
    from obverse.play import replay

    a, b, c = (play_history(alias, s, STEPS) for s in (7, 7, 8))
    assert dumps(replay(a.initial, a.log)) == dumps(replay(b.initial, b.log))
    assert dumps(replay(a.initial, a.log)) != dumps(replay(c.initial, c.log))


@pytest.mark.parametrize("alias", RULESETS)
def test_history_exports_as_a_runnable_scenario(alias: str, tmp_path: object) -> None:
    from pathlib import Path

    from obverse.runner import run_scenario

    hist = play_history(alias, 3, 15)
    path = Path(str(tmp_path)) / "history.yaml"
    hist.error = "none (export check)"
    path.write_text(to_scenario(hist), encoding="utf-8")
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["ruleset"]
    result = run_scenario(path)
    assert result.status == "PASS", result.line()


def test_report_budget(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print(f"\nproperty tests: {HISTORIES} histories x {STEPS} steps per ruleset "
              f"({len(RULESETS)} rulesets), as many twin histories; "
              f"OBVERSE_FUZZ_SCALE={SCALE}")
