"""``obverse schema``: the committed scenario schema is current, every example validates, and
the structural mistakes of the bad-input corpus are rejected by it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from obverse import engine
from obverse.cli import main
from obverse.schema import scenario_schema
from test_bad_input import CASES

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "scenario.schema.json"
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))
#: The corpus's mistakes a schema can see: shape and types, not labels, cards or zones.
STRUCTURAL = {
    "not-a-mapping",
    "unknown-top-key",
    "missing-steps",
    "empty-steps",
    "unknown-action",
    "two-keys-step",
    "remember-extra",
    "bad-setup-face-value",
    "expect-wrong-type",
    "unknown-expect-key",
    "wrong-type",
    "unknown-face-field",
}
MORE_BAD = {
    "missing-required-argument": "steps:\n  - move: {object: d}\n",
    "null-verb-given-a-label": "steps:\n  - end_turn: d\n",
    "label-verb-given-a-mapping": "steps:\n  - transform: {object: d}\n",
    "unknown-argument": "steps:\n  - cast: {object: d, speed: 3}\n",
    "bad-modify-key": "steps:\n  - apply_effect: {label: e, to: d, modify: {powr: 2}}\n",
    "setup-missing-zone": "setup:\n  - {label: d, card: Clone}\nsteps: [{end_turn: null}]\n",
}


@cache
def _validator(ruleset: str | None = None) -> Any:
    """The validator of a ruleset's schema (built once: the examples share it)."""
    schema = scenario_schema(ruleset)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema)


def test_committed_schema_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == scenario_schema()
    assert json.loads(COMMITTED.read_text("utf-8")) == printed, (
        "docs/scenario.schema.json is stale: regenerate it with "
        "`obverse schema > docs/scenario.schema.json`"
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_validates(path: Path) -> None:
    data = yaml.safe_load(path.read_text("utf-8"))
    errors = list(_validator().iter_errors(data))
    assert not errors, [e.message for e in errors]
    # The ruleset's own schema accepts its examples too.
    assert not list(_validator(data["ruleset"]).iter_errors(data))


def test_examples_exist() -> None:
    assert len(EXAMPLES) > 100


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in STRUCTURAL], ids=lambda c: c[0])
def test_structural_bad_input_is_rejected(case: tuple[str, str, str, str]) -> None:
    data = yaml.safe_load(case[1])
    assert not _validator().is_valid(data)


def test_every_structural_case_is_in_the_corpus() -> None:
    assert {c[0] for c in CASES} >= STRUCTURAL


@pytest.mark.parametrize("name", sorted(MORE_BAD))
def test_more_structural_mistakes_are_rejected(name: str) -> None:
    setup = "setup:\n  - {label: d, card: Delver of Secrets, zone: battlefield}\n"
    text = MORE_BAD[name]
    data = yaml.safe_load("ruleset: mtg\n" + ("" if text.startswith("setup") else setup) + text)
    assert not _validator().is_valid(data)
    # The same file with the mistake removed is accepted: the rejection is the mistake's.
    good = yaml.safe_load("ruleset: mtg\n" + setup + "steps:\n  - end_turn: null\n")
    assert _validator().is_valid(good)


def test_a_ruleset_schema_rejects_another_games_verb() -> None:
    (case,) = [c for c in CASES if c[0] == "wrong-game-action"]
    data = yaml.safe_load(case[1])
    assert _validator().is_valid(data)  # awaken is a FaB verb
    assert not _validator("mtg").is_valid(data)
    assert _validator("fab").is_valid({**data, "ruleset": "fab"})


def test_actions_schema_and_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--actions", "--ruleset", "ga"]) == 0
    assert json.loads(capsys.readouterr().out) == engine.schema("ga")
    assert main(["schema", "--ruleset", "chess"]) == 2
    captured = capsys.readouterr()
    assert "unknown ruleset 'chess'" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""
