"""Issue 25, item 5: validation never crashes. Every expectation key and every field of
every action of every game, given values of the wrong shape, is an InputError naming the
step and key (or a value the step accepts): never a TypeError, a ValueError or a crash
when the step runs. Integers past 64 bits are errors at the line that holds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from obverse.carddata import bundled
from obverse.cli import main
from obverse.errors import InputError
from obverse.rulesets import get_ruleset
from obverse.runner import Runner
from obverse.scenario import EXPECT_KEYS, STRING_KEYS, _validate, step_shape
from obverse.vocab import verb_of

WRONG: list[Any] = [[1], {"a": 1}, [[1]], {"a": [1]}, [{"a": 1}], 10**30, -1, 1.5, True, None, ""]
ZONES = {"mtg": "battlefield", "fab": "arena", "ga": "field", "scp": "site"}


def base(alias: str) -> dict[str, Any]:
    card = bundled(get_ruleset(alias).game).cards[0].name
    entry = {"label": "v", "card": card, "owner": "alice", "zone": ZONES[alias]}
    return {"ruleset": alias, "players": ["alice", "bob"], "setup": [entry]}


def outcome(data: dict[str, Any]) -> str:
    """``error`` (an InputError, validating or running) or ``ran``; anything else raised
    fails the test."""
    try:
        scn = _validate("fuzz.yaml", data, None)
    except InputError as exc:
        assert exc.place and exc.message, exc
        return "error"
    try:
        Runner(scn).run()
    except InputError as exc:  # refused when it runs: still one line naming the step
        assert exc.place.startswith("step"), exc
        return "error"
    return "ran"


@pytest.mark.parametrize("alias", sorted(ZONES))
def test_wrong_shapes_for_every_expectation_key(alias: str) -> None:
    for key in sorted(EXPECT_KEYS):
        for value in WRONG:
            exp = {key: value} if key == "object" else {"object": "v", key: value}
            got = outcome({**base(alias), "steps": [{"end_turn": None}, {"expect": exp}]})
            if isinstance(value, list | dict) and key in STRING_KEYS:
                assert got == "error", (key, value)


@pytest.mark.parametrize("alias", sorted(ZONES))
def test_wrong_shapes_for_every_field_of_every_action(alias: str) -> None:
    for cls in get_ruleset(alias).vocabulary():
        verb = verb_of(cls)
        keys, required, _ = step_shape(cls)
        for value in WRONG:
            outcome({**base(alias), "steps": [{verb: value}]})
            for key in sorted(keys):
                arg: dict[str, Any] = {k: "v" if k == "object" else None for k in required}
                arg[key] = value
                outcome({**base(alias), "steps": [{verb: arg}]})


def test_wrong_shapes_in_setup_and_top_level() -> None:
    for alias in sorted(ZONES):
        for key in ("label", "card", "owner", "zone", "face", "face_down", "position", "as"):
            for value in WRONG:
                entry = {**base(alias)["setup"][0], key: value}
                outcome({**base(alias), "setup": [entry], "steps": [{"end_turn": None}]})
        for key in ("seed", "turn", "pregame", "title", "players", "cards"):
            for value in [*WRONG, 2**63]:
                outcome({**base(alias), key: value, "steps": [{"end_turn": None}]})


def test_a_wrong_type_is_an_error_naming_the_step_and_key() -> None:
    data = {**base("mtg"), "steps": [{"end_turn": None}, {"cast": {"object": "v", "fuse": [1]}}]}
    with pytest.raises(InputError) as info:
        _validate("f.yaml", data, None)
    assert (info.value.place, info.value.key) == ("step 2", "fuse")


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("seed: " + "9" * 5000, "line 2"),
        (f"seed: {2**63}", "seed"),
        ("seed: -1", "seed"),
    ],
)
def test_huge_numbers_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str
) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(f"ruleset: mtg\n{line}\nsteps:\n  - end_turn: null\n", encoding="utf-8")
    assert main(["run", str(path)]) == 2
    out = capsys.readouterr()
    assert where in out.out and "Traceback" not in out.out + out.err


def test_stats_past_the_bound_are_errors() -> None:
    card = {"name": "Huge", "types": ["Creature"], "power": 10**12, "toughness": 1}
    data = {**base("mtg"), "cards": [card], "steps": [{"end_turn": None}]}
    with pytest.raises(InputError, match="power"):
        _validate("f.yaml", data, None)
    modify = {"label": "e", "to": "v", "modify": {"power": 10**12}}
    data = {**base("mtg"), "steps": [{"apply_effect": modify}]}
    with pytest.raises(InputError, match=r"modify\.power"):
        _validate("f.yaml", data, None)


def test_a_scryfall_power_of_5000_digits_is_one_skipped_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {
        "object": "card",
        "id": "x1",
        "name": "Big",
        "layout": "normal",
        "type_line": "Creature",
        "toughness": "1",
        "mana_cost": "{1}",
    }
    for power in (json.dumps("9" * 5000), "9" * 5000):  # a string, then a JSON number
        path = tmp_path / "cards.json"
        text = json.dumps([{**record, "power": 0}]).replace('"power": 0', f'"power": {power}')
        path.write_text(text, encoding="utf-8")
        db = tmp_path / "cards.sqlite3"
        assert main(["import", "mtg", str(path), "--db", str(db)]) == 2
        out = capsys.readouterr()
        assert "Traceback" not in out.out + out.err and "1 skipped" in out.out + out.err
