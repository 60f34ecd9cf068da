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
import random

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obverse import registry
from obverse.fuzz import History, play_history, to_scenario, twin_history
from obverse.serialize import dumps

SCALE = int(os.environ.get("OBVERSE_FUZZ_SCALE", "1"))
HISTORIES = 100 * SCALE
STEPS = 40
#: Every registered rules version (the registry's, not a list kept by hand).
RULESETS = sorted(alias for cls in registry.rulesets() for alias in cls.aliases[:1])
SEEDS = st.integers(min_value=0, max_value=2**31)
SETTINGS = settings(
    max_examples=HISTORIES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


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
        print(
            f"\nproperty tests: {HISTORIES} histories x {STEPS} steps per ruleset "
            f"({len(RULESETS)} rulesets), as many twin histories; "
            f"OBVERSE_FUZZ_SCALE={SCALE}"
        )


# --- a hypothesis stateful machine per ruleset -----------------------------------------------


def _machine(alias: str) -> type:
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

    from obverse import vocab as v
    from obverse.fuzz import check_invariants, random_deal, try_apply
    from obverse.rulesets import get_ruleset

    rs = get_ruleset(alias)
    zones = sorted(rs.zones)

    class Machine(RuleBasedStateMachine):
        """Random actions chosen by hypothesis; the invariants hold after every one."""

        def __init__(self) -> None:
            super().__init__()
            self.state = random_deal(alias, random.Random(0))
            self.cards = sum(1 for pc in self.state.cards.values() if not pc.token)

        @initialize(seed=SEEDS)
        def deal(self, seed: int) -> None:
            self.state = random_deal(alias, random.Random(seed))
            self.cards = sum(1 for pc in self.state.cards.values() if not pc.token)

        def _obj(self, pick: int) -> int | None:
            ids = sorted(self.state.objects.keys())
            return ids[pick % len(ids)] if ids else None

        def _do(self, action: v.Action) -> None:
            out = try_apply(self.state, action)
            if out is not None:
                self.state = out.state

        @rule(
            pick=st.integers(0, 50),
            zone=st.sampled_from(zones),
            face_down=st.sampled_from([None, True, False]),
        )
        def move(self, pick: int, zone: str, face_down: bool | None) -> None:
            oid = self._obj(pick)
            if oid is not None and zone != rs.stack_zone:
                self._do(v.Move(object=oid, to=zone, face_down=face_down))

        @rule(
            pick=st.integers(0, 50),
            verb=st.sampled_from(
                [
                    "cast",
                    "play",
                    "turn_face_down",
                    "turn_face_up",
                    *(["transform"] if rs.action_class("transform") else []),
                ]
            ),
        )
        def act(self, pick: int, verb: str) -> None:
            oid = self._obj(pick)
            if oid is not None:
                self._do(rs.action_class(verb)(object=oid))  # type: ignore[misc]

        @rule(pick=st.integers(0, 50), of=st.integers(0, 50))
        def copy(self, pick: int, of: int) -> None:
            a, b = self._obj(pick), self._obj(of)
            if a is not None and b is not None:
                self._do(v.BecomeCopy(object=a, of=b))

        @rule()
        def resolve_top(self) -> None:
            stack = self.state.zones.get(rs.stack_zone, ())
            if stack:
                self._do(v.Resolve(object=stack[0]))

        @rule(player=st.sampled_from(["alice", "bob"]), zone=st.sampled_from(zones))
        def shuffle(self, player: str, zone: str) -> None:
            self._do(v.Shuffle(player=player, zone=zone))

        @invariant()
        def rules_hold(self) -> None:
            check_invariants(self.state, self.cards)

    Machine.__name__ = f"Machine_{alias.replace('@', '_').replace('-', '_')}"
    return Machine


@pytest.mark.parametrize("alias", RULESETS)
def test_stateful_machine(alias: str) -> None:
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        _machine(alias),
        settings=settings(
            max_examples=max(10, HISTORIES // 5),
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
