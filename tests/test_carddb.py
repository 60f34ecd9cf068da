"""The SQLite card database: idempotent imports, name lookups, and scenarios run against it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obverse.carddata import AmbiguousName
from obverse.carddb import CardDB, default_path
from obverse.importers import Problem
from obverse.runner import run_scenario

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = Path(__file__).resolve().parent / "db_scenarios"


def _fill(db: CardDB) -> list[Problem]:
    problems: list[Problem] = []
    db.import_files("mtg", [DATA / "mtg"], problems.append)
    db.import_files("fab", [DATA / "fab" / "csvs" / "english"], problems.append)
    db.import_files("ga", [DATA / "ga" / "api-cards-search"], problems.append)
    return problems


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> CardDB:
    database = CardDB(tmp_path_factory.mktemp("db") / "cards.sqlite3")
    problems = _fill(database)
    assert [p for p in problems if not p.warning] == []
    return database


def test_upstream_ids_find_their_card(db: CardDB) -> None:
    front = db.by_source("fab", "pjpcnH9bKnGR6KFCFGz6Q")  # Stir the Pot's card id
    assert front is not None and front.layout == "transcend"
    assert front.face_names[0] == "Stir the Pot"
    assert db.by_source("fab", "no-such-id") is None


def test_counts_per_game(db: CardDB) -> None:
    assert db.source_count("fab") == 121  # every card.csv card is findable by its id
    # 25 back-only cards live inside their double-faced card (a Fabric construct's equipment
    # back is printed on its own too, so it is also a card of its own)
    assert db.count("fab") == 96
    assert db.layouts("fab") == {
        "normal": 42,
        "flip": 30,
        "transcend": 12,
        "split": 11,
        "twin": 1,
    }
    assert db.count("ga") == 60 and db.layouts("ga")["double_faced"] == 1
    assert db.count("mtg") == 95  # 133 card objects, prints of one card stored once


def test_import_is_idempotent(tmp_path: Path) -> None:
    database = CardDB(tmp_path / "x.sqlite3")
    _fill(database)
    before = (database.count(), len(database.names()))
    again = database.import_files("fab", [DATA / "fab" / "json" / "english"], print)
    _fill(database)
    assert again.stored == 95 and again.layouts["flip"] == 30
    assert (database.count(), len(database.names())) == before


def test_lookups(db: CardDB) -> None:
    assert db.get("mtg", "Insectile Aberration") == db.get(
        "mtg", "Delver of Secrets // Insectile Aberration"
    )
    tomeltai = db.get("fab", "Tomeltai")
    assert tomeltai is not None and tomeltai.name == "Invoke Tomeltai // Tomeltai"
    with pytest.raises(AmbiguousName) as info:  # three pitches: none is picked silently
        db.get("fab", "Snatch")
    assert info.value.choices == ["Snatch (red)", "Snatch (yellow)", "Snatch (blue)"]
    blue = db.get("fab", "Snatch (blue)")
    assert blue is not None and blue.front.pitch == 3
    with pytest.raises(AmbiguousName) as info:
        db.get("fab", "Inner Chi")
    chis = [db.get("fab", choice) for choice in info.value.choices]
    assert len({repr(c) for c in chis}) == 13  # each choice names a different card
    assert sum(c is not None and c.layout == "normal" for c in chis) == 1
    assert sum(c is not None and c.layout == "transcend" for c in chis) == 12
    with pytest.raises(AmbiguousName) as info:  # the equipment, and Fabric of Spring's back
        db.get("fab", "Fyendal's Spring Tunic")
    tunics = [db.get("fab", choice) for choice in info.value.choices]
    alone = [c for c in tunics if c is not None and c.layout == "normal"]
    assert len(alone) == 1 and alone[0].front.types == ("Equipment",)
    assert {c.layout for c in tunics if c is not None} == {"normal", "flip"}
    stir = db.get("fab", "Stir the Pot")
    assert stir is not None and stir.layout == "transcend"
    levia = db.get("fab", "Levia, Redeemed // Blasmophet, Levia Consumed")
    assert levia is not None and levia.layout == "twin"
    seiryuu = db.get("ga", "Seiryuu, Azure Dragon")
    assert seiryuu is not None and seiryuu.layout == "double_faced"
    assert db.get("mtg", "insectile aberration") is None  # exact names for scenarios
    assert db.find("insectile aberration")[0][0] == "mtg"
    assert db.get("mtg", "Tomeltai") is None
    assert "Delver of Secrets" in db.suggest("Delver of Secrts")
    assert [c.name for c in db.meld_results("mtg")] == ["Brisela, Voice of Nightmares"]


def test_default_location_is_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("OBVERSE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if default_path().parent.parent == tmp_path:
        assert default_path() == tmp_path / "obverse" / "cards.sqlite3"
    monkeypatch.setenv("OBVERSE_DB", str(tmp_path / "elsewhere.sqlite3"))
    assert default_path() == tmp_path / "elsewhere.sqlite3"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.name)
def test_scenarios_naming_imported_cards_run_against_the_db(db: CardDB, path: Path) -> None:
    game = "ga" if path.name.startswith("ga-") else "mtg"
    without = run_scenario(path)
    assert without.status == "ERROR" and "unknown card" in without.line() + "".join(
        map(str, without.failures)
    )
    result = run_scenario(path, extra_cards=db.lookup(game))
    assert result.status == "PASS", "\n".join([result.line(), *map(str, result.failures)])


def test_bad_database_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "notadb.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(Exception, match="not a card database"):
        CardDB(bad)


def _print_ids() -> list[tuple[str, str]]:
    """(print id, name) of every Scryfall card object in the MTG samples (133 prints of
    fewer Oracle cards: reprints share an Oracle id)."""
    out: list[tuple[str, str]] = []
    for path in sorted((DATA / "mtg").glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        for obj in data if isinstance(data, list) else data.get("data", [data]):
            if obj.get("layout") not in ("art_series", "emblem"):
                out.append((obj["id"], obj["name"]))
    return out


def test_every_print_id_finds_its_oracle_card(db: CardDB) -> None:
    """Each print id of a reprinted Oracle card is kept (not only the last one read)."""
    prints = _print_ids()
    assert len(prints) > db.count("mtg")  # the sample does reprint Oracle cards
    for ident, name in prints:
        card = db.by_source("mtg", ident)
        assert card is not None, f"{ident} ({name}) lost"
        assert card.name == name
        assert db.get("mtg", f"{name} [id {ident}]") == card  # named by any print id
    assert db.source_count("mtg") == len({i for i, _ in prints})


def test_print_ids_of_one_import_survive_a_reimport(tmp_path: Path) -> None:
    """Re-importing the samples (a refresh) keeps every print id: each import stores all the
    ids its records of an Oracle card name, however many batches they fall in."""
    prints = _print_ids()
    with CardDB(tmp_path / "cards.sqlite3") as fresh:
        for _ in range(2):
            fresh.import_files("mtg", [DATA / "mtg"], lambda p: None)
            assert fresh.source_count("mtg") == len({i for i, _ in prints})
            for ident, name in prints:
                card = fresh.by_source("mtg", ident)
                assert card is not None and card.name == name
