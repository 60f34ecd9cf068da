"""Malformed scenarios: a clear one-line error naming the file, the place and the key, exit
code 2, no traceback, and nothing in the file is ever executed."""

from __future__ import annotations

from pathlib import Path

import pytest

from obverse.cli import main
from obverse.runner import run_scenario

GOOD_SETUP = "setup:\n  - {label: d, card: Delver of Secrets, zone: battlefield}\n"

CASES: list[tuple[str, str, str, str]] = [
    # (name, file text, expected place, expected key)
    ("invalid-yaml", "ruleset: mtg\nsteps: [\n", "line", ""),
    (
        "duplicate-key",
        "ruleset: mtg\nruleset: fab\nsteps: [{end_turn: null}]\n",
        "top level",
        "ruleset",
    ),
    (
        "duplicate-key-in-step",
        "ruleset: mtg\n"
        + GOOD_SETUP
        + "steps:\n  - end_turn: null\n  - expect:\n      object: d\n"
        + "      name: A\n      name: B\n",
        "step 2",
        "name",
    ),
    (
        "duplicate-key-in-setup",
        "ruleset: mtg\nsetup:\n  - {label: x, label: y, card: Clone,"
        " zone: hand}\nsteps: [{end_turn: null}]\n",
        "setup[1]",
        "label",
    ),
    ("not-a-mapping", "- 1\n- 2\n", "top level", ""),
    (
        "unknown-top-key",
        "ruleset: mtg\nsetpu: []\nsteps: [{end_turn: null}]\n",
        "top level",
        "setpu",
    ),
    ("unknown-ruleset", "ruleset: chess\nsteps: [{end_turn: null}]\n", "top level", "ruleset"),
    ("missing-steps", "ruleset: mtg\n", "top level", "steps"),
    ("empty-steps", "ruleset: mtg\nsteps: []\n", "top level", "steps"),
    (
        "unknown-card",
        "ruleset: mtg\nsetup:\n  - {label: x, card: No Such Card, zone: hand}\n"
        "steps: [{end_turn: null}]\n",
        "setup[1]",
        "card",
    ),
    (
        "unknown-zone",
        "ruleset: mtg\nsetup:\n  - {label: x, card: Delver of Secrets, zone: deck}\n"
        "steps: [{end_turn: null}]\n",
        "setup[1]",
        "zone",
    ),
    (
        "duplicate-label",
        "ruleset: mtg\nsetup:\n  - {label: x, card: Delver of Secrets, zone: hand}"
        "\n  - {label: x, card: Delver of Secrets, zone: hand}\nsteps: [{end_turn: null}]\n",
        "setup[2]",
        "label",
    ),
    (
        "forbidden-face",
        "ruleset: mtg\nsetup:\n  - {label: x, card: Delver of Secrets, zone: hand,"
        " face: back}\nsteps: [{end_turn: null}]\n",
        "setup[1]",
        "face",
    ),
    (
        "unknown-label",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - transform: nope\n",
        "step 1",
        "transform",
    ),
    (
        "unknown-action",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - explode: d\n",
        "step 1",
        "explode",
    ),
    (
        "wrong-game-action",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - awaken: d\n",
        "step 1",
        "awaken",
    ),
    (
        "two-keys-step",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - {transform: d, flip: d}\n",
        "step 1",
        "transform, flip",
    ),
    (
        "remember-extra",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - remember: {object: d, as: x, when: now}\n",
        "step 1",
        "when",
    ),
    (
        "bad-setup-face-value",
        "ruleset: mtg\nsetup:\n  - {label: x, card: Delver of Secrets,"
        " zone: hand, face: upside}\nsteps: [{end_turn: null}]\n",
        "setup[1]",
        "face",
    ),
    (
        "expect-wrong-type",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - expect: {object: d, exists: 'yes'}\n",
        "step 1",
        "exists",
    ),
    (
        "expect-unknown-zone",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - expect: {object: d, zone: battlefeld}\n",
        "step 1",
        "zone",
    ),
    (
        "expect-unknown-answer-label",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - search: {player: alice, zone: battlefield}\n"
        "  - expect: {answer: [d, zz]}\n",
        "step 2",
        "answer",
    ),
    (
        "unknown-expect-key",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - expect: {object: d, colour: [U]}\n",
        "step 1",
        "colour",
    ),
    (
        "wrong-type",
        "ruleset: mtg\n"
        + GOOD_SETUP
        + "steps:\n  - move: {object: d, to: hand, face_down: maybe}\n",
        "step 1",
        "face_down",
    ),
    (
        "unknown-move-zone",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - move: {object: d, to: arena}\n",
        "step 1",
        "to",
    ),
    (
        "resolve-not-on-stack",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - resolve: d\n",
        "step 1",
        "resolve",
    ),
    (
        "python-tag",
        "ruleset: !!python/object/apply:os.system ['echo pwned']\nsteps: [{end_turn: null}]\n",
        "line",
        "",
    ),
    (
        "unknown-face-field",
        "ruleset: mtg\ncards:\n  - {name: Foo, types: [Creature], pwr: 2}\n"
        "steps: [{end_turn: null}]\n",
        "cards[1]",
        "pwr",
    ),
    (
        "remember-unknown",
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - expect: {object: d, same_object_as: never}\n",
        "step 1",
        "same_object_as",
    ),
    (
        "deep-nesting",
        "ruleset: mtg\nsteps:\n  - expect: " + "[" * 200 + "]" * 200 + "\n",
        "top level",
        "",
    ),
]


@pytest.mark.parametrize(("name", "text", "place", "key"), CASES, ids=[c[0] for c in CASES])
def test_bad_scenario_is_a_clear_error(
    tmp_path: Path, name: str, text: str, place: str, key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_scenario(path)
    assert result.status == "ERROR"
    assert result.error is not None
    assert result.error.path == str(path)
    assert result.error.place.startswith(place)
    if key:
        assert result.error.key == key
    code = main(["run", str(path)])
    out = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out.out + out.err
    lines = out.out.strip().splitlines()
    assert lines[0].startswith("ERROR ") and str(path) in lines[0]
    assert lines[-1] == "0 passed, 0 failed, 1 errors"


def test_failure_and_error_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "a.yaml"
    good.write_text(
        "ruleset: mtg\n" + GOOD_SETUP + "steps:\n  - expect: {object: d, name: Delver of Secrets}\n"
    )
    bad = tmp_path / "b.yaml"
    bad.write_text(
        "ruleset: mtg\n"
        + GOOD_SETUP
        + "steps:\n  - expect: {object: d, name: Insectile Aberration, power: 1}\n"
    )
    assert main(["run", str(good)]) == 0
    assert main(["run", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert '  step 1: name: expected "Insectile Aberration", got "Delver of Secrets"' in out
    assert out[-1] == "1 passed, 1 failed"
    broken = tmp_path / "c.json"
    broken.write_text('{"ruleset": "mtg", "ruleset": "mtg"}')
    assert main(["run", str(tmp_path)]) == 2
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed, 1 errors"


def test_enormous_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as f:
        f.write("ruleset: mtg\nsteps:\n")
        line = "  - end_turn: null\n"
        f.write(line * (9 * 1024 * 1024 // len(line)))
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert "larger than" in result.error.message


def test_a_wrong_zone_action_is_an_error_naming_the_step(tmp_path: Path) -> None:
    path = tmp_path / "wrong-zone.yaml"
    path.write_text(
        "ruleset: fab\nsetup:\n  - {label: s, card: Snatch, zone: hand}\n"
        "steps:\n  - move: {object: s, to: stack}\n  - resolve: s\n"
        "  - resolve: s\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert result.error.place == "step 3" and result.error.key == "resolve"
