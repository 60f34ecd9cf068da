"""Card names: rapidfuzz suggestions for unknown names, and ambiguous names (FaB pitches, a
back face shared by several cards) refused with their choices instead of silently picked."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from obverse.carddata import (
    AmbiguousName,
    CardIndex,
    CardResolver,
    bundled,
    close_names,
    unknown_card_error,
)
from obverse.carddb import CardDB
from obverse.cards import CardDef, Face
from obverse.cli import main
from obverse.importers import ignore

FAB = Path(__file__).parent / "data" / "harden" / "fab"


def _rows() -> list[dict[str, str]]:
    with open(FAB / "card.csv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> CardDB:
    database = CardDB(tmp_path_factory.mktemp("names") / "cards.sqlite3")
    database.import_files("fab", [FAB], ignore)
    return database


def test_delver_suggests_delver_of_secrets() -> None:
    assert bundled("mtg").suggest("delver")[0] == "Delver of Secrets"
    assert close_names("Delvr of Secrts", bundled("mtg").names()) == ["Delver of Secrets"]
    assert close_names("qqqqzzzz", bundled("mtg").names()) == []


def test_unknown_card_error_names_the_card_and_suggests() -> None:
    err = unknown_card_error("delver of secret", bundled("mtg"))
    assert (err.place, err.key) == ("", "card")
    assert err.message.startswith("unknown card 'delver of secret'; did you mean: Delver of")
    resolver = CardResolver("mtg")
    assert "did you mean" not in unknown_card_error("qqqqzzzz", resolver).message
    assert len(unknown_card_error("x" * 10_000, resolver).message) < 120


def _pitched(name: str, pitch: int) -> CardDef:
    return CardDef(name=name, faces=(Face(name=name, pitch=pitch),))


def test_an_index_refuses_an_ambiguous_name_and_takes_a_pitch() -> None:
    index = CardIndex([_pitched("Sink Below", p) for p in (1, 2, 3)])
    assert len(index.candidates("Sink Below")) == 3
    with pytest.raises(AmbiguousName) as info:
        index.get("Sink Below")
    assert info.value.choices == ["Sink Below (red)", "Sink Below (yellow)", "Sink Below (blue)"]
    assert "'Sink Below' names 3 cards; choose one: Sink Below (red);" in str(info.value)
    blue = index.get("Sink Below (blue)")
    assert blue is not None and blue.front.pitch == 3
    assert index.get("Sink Below (green)") is None


def test_database_pitches_are_choices(db: CardDB) -> None:
    pitches = sorted(int(r["Pitch"]) for r in _rows() if r["Name"] == "Sink Below")
    assert pitches == [1, 2, 3]
    assert len(db.candidates("fab", "Sink Below")) == 3
    with pytest.raises(AmbiguousName) as info:
        db.get("fab", "Sink Below")
    assert info.value.choices == ["Sink Below (red)", "Sink Below (yellow)", "Sink Below (blue)"]
    for pitch, choice in zip(pitches, info.value.choices, strict=True):
        card = db.get("fab", choice)
        assert card is not None and card.front.pitch == pitch


def test_a_shared_back_face_is_ambiguous(db: CardDB) -> None:
    rows = _rows()
    standalone = next(r["Unique ID"] for r in rows if r["Name"] == "Inner Chi")
    bearing = db.candidates("fab", "Inner Chi")
    assert len(bearing) == 3  # itself, and the back of Stir the Pot and Mistcloak Gully
    with pytest.raises(AmbiguousName) as info:
        db.get("fab", "Inner Chi")
    picked = [db.get("fab", choice) for choice in info.value.choices]
    assert sorted(c.name for c in picked if c is not None) == [
        "Inner Chi",
        "Mistcloak Gully // Inner Chi",
        "Stir the Pot // Inner Chi",
    ]
    by_id = db.get("fab", f"Inner Chi [id {standalone}]")
    assert by_id is not None and by_id.layout == "normal"
    assert db.get("fab", "Inner Chi [id nope]") is None


def test_a_scenario_lookup_raises_for_an_ambiguous_name(db: CardDB) -> None:
    # Bundled curated cards come first (Sink Below, Inner Chi are bundled): ambiguity is
    # within the first level that knows the name, here the database.
    resolver = CardResolver("fab", extra=db.lookup("fab"))
    with pytest.raises(AmbiguousName) as info:
        resolver.get("Absorb in Aether")
    assert len(info.value.choices) == 3 == len(resolver.candidates("Absorb in Aether"))
    assert "Absorb in Aether" in resolver.suggest("absorb aether")
    blue = resolver.get("Absorb in Aether (blue)")
    assert blue is not None and blue.front.pitch == 3


def test_card_command_lists_the_choices(db: CardDB, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(db.path)
    assert main(["card", "Absorb in Aether", "--game", "fab", "--db", path]) == 2
    err = capsys.readouterr().err
    assert "names 3 cards; choose one: Absorb in Aether (red); Absorb in Aether (yellow)" in err
    assert main(["card", "absorb in aether (yellow)", "--game", "fab", "--db", path]) == 0
    assert "pitch 2" in capsys.readouterr().out
    assert main(["card", "delver"]) == 1
    assert "did you mean: Delver of Secrets" in capsys.readouterr().err
