"""``obverse import``, ``obverse card`` and ``obverse run --db`` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obverse.cli import main

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = Path(__file__).resolve().parent / "db_scenarios"


@pytest.fixture(scope="module")
def dbfile(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("cli") / "cards.sqlite3")
    assert main(["import", "mtg", str(DATA / "mtg"), "--db", path, "--quiet"]) == 0
    assert main(["import", "fab", str(DATA / "fab" / "csvs" / "english"), "--db", path]) == 0
    assert main(["import", "ga", str(DATA / "ga" / "api-cards-search"), "--db", path]) == 0
    return path


def test_import_reports_counts_per_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.sqlite3")
    assert main(["import", "fab", str(DATA / "fab" / "json" / "english"), "--db", db]) == 0
    out = capsys.readouterr().out
    # the Fabric constructs' equipment backs are cards of their own; Bank Breaker is a flip-card
    assert "fab: 95 records imported as 95 cards" in out
    assert "flip 30" in out and "transcend 12" in out and "split 11" in out and "twin 1" in out
    assert main(["import", "mtg", str(DATA / "mtg"), "--db", db]) == 0
    captured = capsys.readouterr()
    assert "mtg: 133 records imported as 95 cards" in captured.out
    assert "warning:" in captured.err and "'planar'" in captured.err


def test_import_bad_record_names_file_id_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = json.loads((DATA / "mtg" / "scryfall-scryfall-client-fixtures.json").read_text())
    cards[1]["layout"] = 7
    src = tmp_path / "bad.json"
    src.write_text(json.dumps(cards))
    code = main(["import", "mtg", str(src), "--db", str(tmp_path / "c.sqlite3")])
    captured = capsys.readouterr()
    assert code == 1
    assert (
        f"{src}: {cards[1]['id']} ({cards[1]['name']}): layout: expected a string" in captured.err
    )
    assert "Traceback" not in captured.err
    assert "3 records imported" in captured.out


def test_import_missing_path_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["import", "ga", str(tmp_path / "nope.json"), "--db", str(tmp_path / "c.db")])
    err = capsys.readouterr().err
    assert code == 2 and "nope.json: no such file or directory" in err


def test_card_shows_both_faces_and_the_zone_characteristics(
    dbfile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["card", "Moonrage Brute", "--db", dbfile]) == 0
    out = capsys.readouterr().out
    assert "Brutal Cathar // Moonrage Brute  [mtg, transform]" in out
    assert "Brutal Cathar" in out and "Moonrage Brute" in out
    assert "On the battlefield, face front" in out and "712.8d: front face up" in out
    assert (
        main(
            [
                "card",
                "Moonrage Brute",
                "--db",
                dbfile,
                "--zone",
                "graveyard",
                "--transformed",
                "--json",
            ]
        )
        == 0
    )
    info = json.loads(capsys.readouterr().out)
    assert info["face"] == "front" and info["characteristics"]["name"] == "Brutal Cathar"
    assert [f["name"] for f in info["faces"]] == ["Brutal Cathar", "Moonrage Brute"]
    assert "712.8a" in [r["rule"] for r in info["rulings"]]
    assert main(["card", "Moonrage Brute", "--db", dbfile, "--transformed", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["characteristics"]["name"] == "Moonrage Brute"
    assert info["characteristics"]["power"] == 3
    assert info["characteristics"]["mana_value"] == 3


def test_card_any_face_name_and_other_games(
    dbfile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["card", "Seiryuu, Azure Dragon", "--game", "ga", "--db", dbfile]) == 0
    assert "Fabled Azurite Fatestone // Seiryuu, Azure Dragon" in capsys.readouterr().out
    assert main(["card", "Why", "--db", dbfile, "--zone", "hand"]) == 0
    out = capsys.readouterr().out
    assert "Who // What // When // Where // Why" in out and "face both" in out


def test_card_misspelt_suggests(dbfile: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", "Moonrage Brut", "--db", dbfile]) == 1
    err = capsys.readouterr().err
    assert "no card named 'Moonrage Brut'" in err and "Moonrage Brute" in err


def test_card_bad_zone_is_one_line(dbfile: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", "Moonrage Brute", "--db", dbfile, "--zone", "moon"]) == 2
    err = capsys.readouterr().err
    assert "unknown zone 'moon'" in err and "Traceback" not in err


def test_run_with_db(dbfile: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SCENARIOS), "--db", dbfile]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
    assert main(["run", str(SCENARIOS), "--db", dbfile + ".missing"]) == 2
    assert "no such card database" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        (["Seiryuu, Azure Dragon", "--game", "ga", "--transformed"], "Double-faced Cards 4"),
        (["Seiryuu, Azure Dragon", "--game", "ga", "--zone", "hand"], "Double-faced Cards 4"),
        (["Construct Nitro Mechanoid", "--game", "fab"], "9.1.3"),
    ],
)
def test_card_prints_the_rules_behind_the_face_for_every_game(
    dbfile: str, capsys: pytest.CaptureFixture[str], args: list[str], rule: str
) -> None:
    assert main(["card", *args, "--db", dbfile, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert rule in [r["rule"] for r in info["rulings"]]
    assert main(["card", *args, "--db", dbfile]) == 0
    assert f"{rule}:" in capsys.readouterr().out
