"""Malformed scenarios: a clear one-line error naming the file, the place and the key, exit
code 2, no traceback, and nothing in the file is ever executed."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from obverse.cli import main
from obverse.errors import InputError, quote, shorten
from obverse.loader import MAX_BYTES, load_file, load_text
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
        "line 3",
        "expect",
    ),
    (
        "fab-look-duration",
        "ruleset: fab\nsetup:\n  - {label: s, card: Snatch, owner: alice, zone: hand}\n"
        "steps:\n  - look: {player: bob, object: s, until: tomorrow}\n",
        "step 1",
        "until",
    ),
    (
        "fab-tapped-outside-the-arena",
        "ruleset: fab\nsetup:\n  - {label: s, card: Snatch, zone: hand, tapped: true}\n"
        "steps:\n  - tap: s\n",
        "setup[1]",
        "tapped",
    ),
    (
        "fab-hybrid-not-a-list",
        "ruleset: fab\ncards:\n  - {name: X, types: [Action], hybrid: 3}\n"
        "steps:\n  - end_turn: null\n",
        "cards[1]",
        "hybrid",
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
    assert lines[-1] == "0 passed, 0 failed, 1 error"


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
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed, 1 error"


def test_enormous_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as f:
        f.write("ruleset: mtg\nsteps:\n")
        line = "  - end_turn: null\n"
        f.write(line * (9 * 1024 * 1024 // len(line)))
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert result.error.message == "file too large (over 8 MiB)"


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


def _laughs(levels: int = 9) -> str:
    """A "billion laughs" document: each level nine aliases of the one before."""
    text = "a: &a [" + ", ".join(["lol"] * 9) + "]\n"
    prev = "a"
    for name in "bcdefghijk"[: levels - 1]:
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = name
    return text


def test_alias_bomb_is_refused_naming_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "laughs.yaml"
    path.write_text(_laughs(), encoding="utf-8")
    assert path.stat().st_size < 600
    with pytest.raises(InputError) as info:
        load_file(path)  # before the limit this took seconds; no timing asserted
    err = info.value
    assert (err.path, err.place, err.key) == (str(path), "line 4", "d")
    assert "aliases expand to more than 1000 nodes" in err.message


def test_self_referring_alias_is_refused() -> None:
    with pytest.raises(InputError) as info:
        load_text("steps: &s [*s]\n", "x.yaml")
    assert (info.value.place, info.value.key) == ("line 1", "steps")
    assert "refers to itself" in info.value.message


def test_a_few_aliases_still_load() -> None:
    data = load_text("steps:\n  - &p {pass: null}\n  - *p\n  - *p\n", "x.yaml")
    assert data == {"steps": [{"pass": None}] * 3}


@pytest.mark.parametrize("depth", [65, 100_000])
def test_deep_yaml_nesting_is_an_input_error_never_a_crash(depth: int) -> None:
    # libyaml's composer recurses in C: 100,000 levels crashed the interpreter.
    text = "ruleset: mtg\nsteps: " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(InputError) as info:
        load_text(text, "deep.yaml")
    assert (info.value.place, info.value.key) == ("line 2", "steps")
    assert info.value.message == "nested deeper than 64 levels"


def test_deep_json_nesting_is_an_input_error() -> None:
    for depth in (65, 100_000):
        with pytest.raises(InputError) as info:
            load_text('{"steps": ' + "[" * depth + "]" * depth + "}", "deep.json")
        assert info.value.message == "nested deeper than 64 levels"


@pytest.mark.parametrize(
    ("path", "kind"), [("/dev/zero", "a character device"), ("/", "a directory")]
)
def test_non_regular_files_are_refused(
    path: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if not Path(path).exists():
        pytest.skip(f"no {path} here")
    with pytest.raises(InputError) as info:
        load_file(path)
    assert info.value.message == f"not a regular file ({kind})"
    if kind != "a directory":  # run takes a directory's scenario files instead
        assert main(["run", path]) == 2
        out = capsys.readouterr()
        assert f"not a regular file ({kind})" in out.out and "Traceback" not in out.err


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # opening it would wait for a writer
    with pytest.raises(InputError) as info:
        load_file(fifo)
    assert info.value.message == "not a regular file (a pipe (FIFO))"


def test_stdin_is_read_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    big = io.BytesIO(b"#" * (MAX_BYTES + 10))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(big))
    with pytest.raises(InputError) as info:
        load_file("-")
    assert (info.value.path, info.value.message) == ("-", "file too large (over 8 MiB)")
    assert big.tell() == MAX_BYTES + 1  # never read beyond the cap
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ruleset: mtg\r\n")))
    assert load_file("-") == {"ruleset": "mtg"}


def test_load_text_is_capped_too() -> None:
    with pytest.raises(InputError) as info:
        load_text("a: " + "é" * (MAX_BYTES // 2), "upload")
    assert str(info.value) == "upload: top level: file too large (over 8 MiB)"


def test_not_utf8_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"ruleset: m\xe9g\n")
    with pytest.raises(InputError) as info:
        load_file(path)
    assert str(info.value) == f"{path}: top level: not UTF-8 text (byte 10)"


def test_long_values_are_quoted_at_most_80_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "X" * 1_000_000
    path = tmp_path / "long.yaml"
    path.write_text(
        f"ruleset: mtg\nsetup:\n  - {{label: x, card: {huge}, zone: hand}}\n"
        "steps: [{end_turn: null}]\n",
        encoding="utf-8",
    )
    assert main(["run", str(path)]) == 2
    line = capsys.readouterr().out.splitlines()[0]
    assert "unknown card 'XXXX" in line and "…" in line
    assert len(line) < len(str(path)) + 160
    path.write_text(f"ruleset: mtg\nsteps: {huge}\n", encoding="utf-8")
    result = run_scenario(path)
    assert result.error is not None and len(result.error.message) < 120


def test_quote_cuts_long_and_deep_values() -> None:
    assert quote("abc") == "'abc'"
    assert quote("a" * 200) == "'" + "a" * 78 + "…"
    assert len(quote(list(range(1000)))) == 80
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert quote(deep) == "<list nested too deeply to print>"
    assert shorten("x" * 10, 5) == "xxxx…" and shorten("short") == "short"


def test_an_unknown_actor_is_an_error_naming_the_step(tmp_path: Path) -> None:
    path = tmp_path / "actor.yaml"
    path.write_text(
        "ruleset: mtg\nsetup:\n  - {label: c, card: Clone, zone: battlefield}\n"
        "steps:\n  - transform: {object: c, actor: carol}\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert result.error.place == "step 1" and result.error.key == "actor"
    assert "carol" in result.error.message


@pytest.mark.parametrize("count", [0, -(10**30), 10**30, -1])
def test_a_counter_count_must_be_positive(tmp_path: Path, count: int) -> None:
    path = tmp_path / "count.yaml"
    path.write_text(
        "ruleset: mtg\nsetup:\n  - {label: c, card: Clone, zone: battlefield}\n"
        f"steps:\n  - add_counters: {{object: c, counter: +1/+1, count: {count}}}\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert (result.error.place, result.error.key) == ("step 1", "count")


def test_meld_halves_must_exist(tmp_path: Path) -> None:
    path = tmp_path / "meld.yaml"
    path.write_text(
        "ruleset: mtg\ncards:\n  - {name: Big, layout: meld, melds_from: [Nope, Nada],"
        " faces: [{name: Big, types: [Creature]}]}\n"
        "setup:\n  - {label: c, card: Clone, zone: battlefield}\nsteps: []\n",
        encoding="utf-8",
    )
    result = run_scenario(path)
    assert result.status == "ERROR" and result.error is not None
    assert (result.error.place, result.error.key) == ("cards[1]", "melds_from")
    assert "Nope" in result.error.message
