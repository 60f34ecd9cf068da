"""A game is a module: the toy game under tests/toy_game, outside the obverse package,
plugs in through the ``obverse.rulesets`` entry-point group or :func:`register`, and its
own verb goes through the kernel like the shared ones."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from obverse import engine, registry
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.errors import InputError
from obverse.rulesets import Ruleset
from obverse.rulings import DONE
from obverse.runner import run_scenario
from obverse.state import GameState, new_state
from toy_game import TAPPED, Tap, Toy

TESTS = Path(__file__).resolve().parent
SCENARIOS = sorted((TESTS / "toy_game" / "scenarios").glob("*.yaml"))
LANTERN = CardDef(name="Lantern", faces=(Face(name="Lantern", types=("Gadget",)),))


@pytest.fixture
def toy(register: Callable[[type[Ruleset]], Ruleset]) -> Ruleset:
    """The Toy ruleset registered in-process (see conftest's ``register``)."""
    return register(Toy)


def _fake_distribution(site: Path) -> None:
    """An installed distribution declaring the toy in the entry-point group, as pip leaves it."""
    info = site / "toy_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: toy-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{registry.GROUP}]\ntoy = toy_game:RULESETS\n", encoding="utf-8"
    )


def _run_cli(*args: str, pythonpath: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    code = "import sys; from obverse.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=TESTS.parent,
        check=False,
    )


def test_there_are_toy_scenarios() -> None:
    assert SCENARIOS


def test_entry_point_registers_the_toy(tmp_path: Path) -> None:
    _fake_distribution(tmp_path)
    done = _run_cli("run", *map(str, SCENARIOS), pythonpath=f"{tmp_path}{os.pathsep}{TESTS}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS ") == len(SCENARIOS), done.stdout
    assert f"{len(SCENARIOS)} passed, 0 failed" in done.stdout


def test_without_the_entry_point_the_toy_is_unknown() -> None:
    # The same run with the module importable but not declared: the entry point did the work.
    done = _run_cli("run", str(SCENARIOS[0]), pythonpath=str(TESTS))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "unknown ruleset 'toy'" in done.stdout


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_register_in_process_runs_the_scenario(toy: Ruleset, path: Path) -> None:
    result = run_scenario(path)
    assert result.status == "PASS", "\n".join([result.line(), *map(str, result.failures)])
    assert result.state is not None and result.state.ruleset == "toy"


def test_registered_toy_is_listed(toy: Ruleset) -> None:
    assert isinstance(toy, Toy)
    assert Toy in registry.rulesets()


def _table_state(toy: Ruleset) -> tuple[GameState, int, int]:
    """A toy game with a Lantern on alice's table and one in her hand."""
    state = new_state(toy.name, ("alice", "bob"))
    state, table_card = toy.add_card(state, LANTERN, "table", owner="alice")
    state, hand_card = toy.add_card(state, LANTERN, "hand", owner="alice")
    on_table, in_hand = state.object_of_card(table_card), state.object_of_card(hand_card)
    assert on_table is not None and in_hand is not None
    return state, on_table.id, in_hand.id


def test_schema_has_the_toy_verb(toy: Ruleset) -> None:
    schema = engine.schema("toy")
    assert "Tap" in schema["$defs"]
    assert schema["$defs"]["Tap"]["properties"]["verb"] == {"enum": ["tap"]}
    assert "Tap" not in engine.schema("mtg")["$defs"]


def test_decode_and_apply_the_toy_verb(toy: Ruleset) -> None:
    state, on_table, _ = _table_state(toy)
    action = engine.decode({"verb": "tap", "object": on_table}, state)
    assert action == Tap(object=on_table)
    out = engine.apply(state, action, "alice")
    assert out.result == DONE
    assert dict(out.state.objects[on_table].counters) == {TAPPED: 1}
    assert [r.rule for r in out.rulings] == ["T2"]


def test_legal_actions_list_the_toy_verb(toy: Ruleset) -> None:
    state, on_table, in_hand = _table_state(toy)
    legal = {x.action for x in engine.legal_actions(state, "alice")}
    assert Tap(object=on_table) in legal
    assert Tap(object=in_hand) not in legal  # a card in hand doesn't tap: apply says illegal
    tapped = engine.apply(state, Tap(object=on_table)).state
    assert Tap(object=on_table) not in {x.action for x in engine.legal_actions(tapped, "alice")}


def test_legal_tap_carries_its_rulings(toy: Ruleset) -> None:
    state, on_table, _ = _table_state(toy)
    (found,) = [x for x in engine.legal_actions(state, "alice") if x.action.verb == "tap"]
    assert found.action == Tap(object=on_table)
    assert [r.rule for r in found.rulings] == ["T2"]


def test_unknown_verb_suggests_the_toy_verb(toy: Ruleset) -> None:
    state, on_table, _ = _table_state(toy)
    with pytest.raises(InputError, match=r"not an action of toy \(did you mean 'tap'\?\)"):
        engine.decode({"verb": "tapp", "object": on_table}, state)


def test_toy_verb_is_not_an_action_of_other_games(toy: Ruleset) -> None:
    state = new_state("mtg", ("alice", "bob"))
    with pytest.raises(InputError, match="not an action of mtg"):
        engine.apply(state, Tap(object=1))
    assert all(c is not Tap for c in registry.get_ruleset("mtg").vocabulary())
    assert Tap not in v.SHARED


def test_hidden_toy_card_is_refused_to_the_opponent(toy: Ruleset) -> None:
    state, _, in_hand = _table_state(toy)
    out = engine.apply(state, Tap(object=in_hand), "bob")
    assert out.result == "illegal"
    assert [r.rule for r in out.rulings] == ["T4"]
    assert out.state is state


def test_unknown_toy_step_is_an_error_naming_the_step(toy: Ruleset, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "ruleset: toy\ncards: [{name: Lantern}]\n"
        "setup: [{label: l, card: Lantern, zone: table}]\nsteps: [{tapp: l}]\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR"
    assert "step 1: tapp:" in result.line()
