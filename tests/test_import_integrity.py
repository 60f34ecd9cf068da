"""Hostile or mistaken import input: another game's data, JSON Lines, half a FaB database,
duplicate ids, deep nesting, devices. A failed import writes nothing (the database file's
bytes are unchanged, a new one is not left behind); the exit status says what happened."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from obverse.carddb import CardDB
from obverse.cli import main
from obverse.importers import Problem, scryfall

DATA = Path(__file__).parent / "data" / "harden"
SCRYFALL = DATA / "scryfall-keywords.json"
GA = DATA / "ga-cards.json"
FAB = DATA / "fab"
TOMELTAI = "Invoke Tomeltai // Tomeltai"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fab_copy(tmp_path: Path, drop: str = "", edit: tuple[str, str] = ("", "")) -> Path:
    """The FaB sample in a new directory; ``drop`` removes the rows naming that card, ``edit``
    replaces text in card.csv."""
    out = tmp_path / "fab"
    shutil.copytree(FAB, out)
    card = out / "card.csv"
    lines = card.read_text("utf-8").split("\n")
    kept = [ln for ln in lines if not (drop and f"\t{drop}\t" in ln)]
    card.write_text("\n".join(kept).replace(*edit) if edit[0] else "\n".join(kept), "utf-8")
    return out


@pytest.fixture
def fab_db(tmp_path: Path) -> Path:
    db = tmp_path / "cards.sqlite3"
    assert main(["import", "fab", str(FAB), "--db", str(db), "--quiet"]) == 0
    return db


@pytest.mark.parametrize(
    ("game", "source", "looks"),
    [
        ("mtg", GA, "Grand Archive"),
        ("mtg", FAB / "card.csv", ""),
        ("ga", SCRYFALL, "Scryfall"),
        ("fab", SCRYFALL, "Scryfall"),
        ("fab", GA, "Grand Archive"),
    ],
)
def test_another_games_data_is_refused_and_nothing_written(
    tmp_path: Path, game: str, source: Path, looks: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "new.sqlite3"
    assert main(["import", game, str(source), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert str(source) in err and "nothing imported" in err and "Traceback" not in err
    if looks:
        assert f"it looks like {looks}" in err
    assert not db.exists()


def test_refused_import_leaves_an_existing_database_byte_for_byte(
    fab_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _digest(fab_db)
    assert main(["import", "mtg", str(GA), "--db", str(fab_db)]) == 2
    assert main(["import", "fab", str(SCRYFALL), "--db", str(fab_db)]) == 2
    assert _digest(fab_db) == before


def test_json_lines_are_read_one_record_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = json.loads(SCRYFALL.read_text("utf-8"))
    lines = tmp_path / "cards.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in cards), "utf-8")
    db = tmp_path / "c.sqlite3"
    assert main(["import", "mtg", str(lines), "--db", str(db)]) == 0
    assert f"mtg: {len(cards)} records imported as {len(cards)} cards" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(cards[0]) + "\n{oops\n" + json.dumps(cards[1]) + "\n", "utf-8")
    problems: list[Problem] = []
    names = [r.card.name for r in scryfall.read(bad, problems.append)]
    assert names == [cards[0]["name"], cards[1]["name"]]
    assert [(p.record, p.message.split(":")[0]) for p in problems] == [("line 2", "invalid JSON")]


def test_half_a_fab_database_never_downgrades_a_stored_double_faced_card(
    fab_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    half = _fab_copy(tmp_path, drop="Tomeltai")  # the back face's row is gone
    before = _digest(fab_db)
    assert main(["import", "fab", str(half), "--db", str(fab_db)]) == 1  # some skipped
    err = capsys.readouterr().err
    assert "(Invoke Tomeltai): face association: double-faced, but its back face" in err
    with CardDB(fab_db) as db:
        card = db.get("fab", TOMELTAI)
        assert card is not None and card.layout == "flip" and len(card.faces) == 2
    assert _digest(fab_db) != before  # the other cards were imported


def test_a_card_csv_without_its_association_file_cant_replace_faces(
    fab_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(FAB / "card.csv", alone / "card.csv")  # no pairing: every card single-faced
    assert main(["import", "fab", str(alone), "--db", str(fab_db)]) == 1
    err = capsys.readouterr().err
    assert "the database holds it as a flip card ('Invoke Tomeltai // Tomeltai')" in err
    with CardDB(fab_db) as db:
        card = db.get("fab", "Invoke Tomeltai")
        assert card is not None and card.name == TOMELTAI


def test_duplicate_unique_id_never_renames_a_card(
    fab_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = (FAB / "card.csv").read_text("utf-8").split("\n")
    snatch = next(r for r in rows if "\tSnatch\t" in r)
    uid = snatch.split("\t")[0]
    changed = _fab_copy(tmp_path)
    (changed / "card.csv").write_text(
        "\n".join([*rows, snatch.replace("\tSnatch\t", "\tSnitch\t")]), "utf-8"
    )
    assert main(["import", "fab", str(changed), "--db", str(fab_db)]) == 1
    err = capsys.readouterr().err.splitlines()
    dupes = [line for line in err if f": {uid} (" in line]
    assert len(dupes) == 2 and all("duplicate Unique ID" in line for line in dupes)
    with CardDB(fab_db) as db:
        assert db.by_source("fab", uid) is not None
        assert db.by_source("fab", uid).name == "Snatch"  # type: ignore[union-attr]
        assert db.get("fab", "Snitch") is None
    same = _fab_copy(tmp_path / "same")
    (same / "card.csv").write_text("\n".join([*rows, snatch]), "utf-8")
    assert main(["import", "fab", str(same), "--db", str(fab_db)]) == 0  # a warning only
    assert "warning: " in capsys.readouterr().err


def test_missing_path_creates_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sub" / "c.sqlite3"
    assert main(["import", "mtg", str(SCRYFALL), str(tmp_path / "nope.json"), "--db", str(db)])
    assert "nope.json: no such file or directory" in capsys.readouterr().err
    assert not db.exists() and not db.parent.exists()


def test_devices_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    assert main(["import", "mtg", "/dev/zero", "--db", str(tmp_path / "c.db")]) == 2
    assert "/dev/zero: not a regular file or a directory" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"data": ' + "[" * 100_000 + "]" * 100_000 + "}"],
    ids=["array", "page"],
)
def test_deeply_nested_json_is_a_clear_error(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text, "utf-8")
    db = tmp_path / "c.sqlite3"
    assert main(["import", "mtg", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err
    assert not db.exists()


def test_no_importable_record_writes_nothing(
    fab_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = json.loads(SCRYFALL.read_text("utf-8"))
    for card in cards:
        card["layout"] = {"x": [1] * 1000}  # a bad record each; the value is quoted cut short
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(cards), "utf-8")
    before = _digest(fab_db)
    assert main(["import", "mtg", str(path), "--db", str(fab_db)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(cards) + 1 and "unchanged" in err[-1]
    assert all("layout: expected a string" in line and len(line) < 300 for line in err[:-1])
    assert _digest(fab_db) == before


def test_an_interrupted_import_is_rolled_back(
    fab_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = scryfall.convert
    calls = 0

    def convert(obj: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return real(obj)

    monkeypatch.setattr(scryfall, "convert", convert)
    before = _digest(fab_db)
    assert main(["import", "mtg", str(SCRYFALL), "--db", str(fab_db)]) == 130
    assert calls == 3 and _digest(fab_db) == before


def test_exit_status_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    out = capsys.readouterr().out
    assert "exit codes:" in out and "1 some records skipped" in out


def test_scryfall_keywords_are_scryfalls_own() -> None:
    raw = {c["name"]: c for c in json.loads(SCRYFALL.read_text("utf-8"))}
    cards = {r.card.name: r.card for r in scryfall.read(SCRYFALL, lambda p: None)}
    assert cards.keys() == raw.keys()
    for name, card in cards.items():
        keywords = raw[name]["keywords"]
        on_faces = {k for face in card.faces for k in face.abilities}
        assert on_faces == set(keywords), name  # nothing added, nothing lost
        for face in card.faces:
            assert [k for k in keywords if k in face.abilities] == list(face.abilities)
    zndrsplt = cards["Zndrsplt, Eye of Wisdom // Zndrsplt, Eye of Wisdom"]
    assert zndrsplt.faces[0].abilities == ("Partner with", "Partner")  # as Scryfall lists them
    delver = cards["Delver of Secrets // Insectile Aberration"]
    assert [f.abilities for f in delver.faces] == [("Transform",), ("Flying",)]
    # Keyword actions are found inflected: the back face "fights".
    tovolar = cards["Tovolar's Huntmaster // Tovolar's Packleader"]
    assert [f.abilities for f in tovolar.faces] == [("Daybound",), ("Fight", "Nightbound")]
    assert cards["Very Cryptic Command"].faces[0].abilities == tuple(
        raw["Very Cryptic Command"]["keywords"]
    )


def test_scryfall_keywords_are_not_matched_inside_other_words() -> None:
    delver = next(
        c
        for c in json.loads(SCRYFALL.read_text("utf-8"))
        if c["name"].startswith("Delver of Secrets")
    )
    delver["keywords"] = ["Flash", "Ward", *delver["keywords"]]
    delver["card_faces"][1]["oracle_text"] += "\nFlashback {U}. It flies toward you."
    record, _warning = scryfall.convert(delver)
    front, back = record.card.faces
    assert back.abilities == ("Flying",)  # not "Flash" (Flashback) nor "Ward" (toward)
    assert front.abilities == ("Flash", "Ward", "Transform")  # used by no face: the front's


def test_an_id_given_to_two_cards_in_one_import_keeps_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = json.loads(GA.read_text("utf-8"))
    twin = dict(cards[1], name="Renamed Rite")  # same uuid, another name
    path = tmp_path / "ga.json"
    path.write_text(json.dumps([*cards, twin]), "utf-8")
    db = tmp_path / "c.sqlite3"
    assert main(["import", "ga", str(path), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert f"{cards[1]['uuid']} (Renamed Rite): id: same upstream id as" in err
    with CardDB(db) as database:
        assert database.get("ga", "Renamed Rite") is None
        assert database.get("ga", cards[1]["name"]) is not None
