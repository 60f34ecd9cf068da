"""Importers read every sample file in tests/data: counts, layouts, DFC pairs and kinds."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from obverse import importers
from obverse.importers import Problem, fab, ga, iter_json_array, scryfall

DATA = Path(__file__).resolve().parent / "data"
FAB_CSV = DATA / "fab" / "csvs" / "english"
FAB_JSON = DATA / "fab" / "json" / "english"
MTG = DATA / "mtg"
GA = DATA / "ga" / "api-cards-search"


def _tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _expected_kind(front: str, back: str) -> str:
    if back == "Inner Chi":
        return "transcend"
    if {front, back} == {"Levia, Redeemed", "Blasmophet, Levia Consumed"}:
        return "twin"
    return "flip"


def _dfc_pairs() -> list[tuple[str, str, str, str]]:
    """(front card id, front name, back card id, back name) of every Is DFC row."""
    card_of = {p["Unique ID"]: p["Card Unique ID"] for p in _tsv(FAB_CSV / "card-printing.csv")}
    names = {c["Unique ID"]: c["Name"] for c in _tsv(FAB_CSV / "card.csv")}
    out = []
    for row in _tsv(FAB_CSV / "card-face-association.csv"):
        if row["Is DFC"] == "Yes":
            f = card_of[row["Front Card Printing Unique ID"]]
            b = card_of[row["Back Card Printing Unique ID"]]
            out.append((f, names[f], b, names[b]))
    return out


def test_fab_csv_every_card_and_every_dfc_pair() -> None:
    problems: list[Problem] = []
    records = list(fab.read(fab.card_files([FAB_CSV]), problems.append))
    assert problems == []
    by_source = {s: r.card for r in records for s in r.sources}
    rows = _tsv(FAB_CSV / "card.csv")
    assert len(rows) == 121  # the JSON subset's 120 cards and Absorb in Aether
    assert len(by_source) == 121
    for row in rows:  # every card is stored, as a card or as a face of its double-faced card
        assert row["Name"] in (
            by_source[row["Unique ID"]].name,
            *by_source[row["Unique ID"]].face_names,
        )
    pairs = _dfc_pairs()
    assert len(pairs) == 101
    kinds: Counter[str] = Counter()
    for front_id, front, back_id, back in pairs:
        card = by_source[front_id]
        kind = _expected_kind(front, back)
        kinds[kind] += 1
        assert card.layout == kind, (front, back, card.layout)
        assert len(card.faces) == 2
        if kind == "twin":
            assert set(card.face_names) == {front, back}
            assert by_source[back_id] is card
        else:
            assert card.face_names == (front, back)
    assert kinds == {"flip": 54, "transcend": 45, "twin": 2}
    layouts = Counter(r.card.layout for r in records)
    # The six Fabric constructs' equipment backs stay cards of their own (printed on their
    # own too); Construct Bank Breaker // Bank Breaker is one flip-card (9.1.3) though its
    # association row says "Is DFC: No".
    assert layouts == {"normal": 42, "flip": 30, "transcend": 12, "split": 11, "twin": 1}


def test_fab_faces_follow_the_printed_card() -> None:
    records = {r.card.name: r.card for r in fab.read([FAB_CSV / "card.csv"], importers.ignore)}
    tomeltai = records["Invoke Tomeltai // Tomeltai"]
    front, back = tomeltai.faces
    assert (front.cost, front.pitch, front.defense, front.colors) == (5, 1, 3, ("Red",))
    assert front.supertypes == ("Draconic", "Illusionist") and front.types == ("Action",)
    assert front.subtypes == ("Invocation",)
    assert (back.power, back.life, back.types, back.subtypes) == (5, 5, (), ("Dragon", "Ally"))
    comet = records["Comet Storm // Shock"]
    assert comet.layout == "split" and comet.face_names == ("Comet Storm", "Shock")
    assert comet.faces[0].types == ("Action",) and comet.faces[1].types == ("Instant",)
    assert comet.faces[1].supertypes == ("Lightning",)
    assert "Deal 1 arcane damage" in comet.faces[1].text
    assert records["Inner Chi"].layout == "normal"  # the back of twelve cards stays a card
    levia = records["Blasmophet, Levia Consumed // Levia, Redeemed"]
    assert (levia.faces[1].life, levia.faces[1].intellect) == (8, 4)


def test_fab_json_subset_pairs_from_the_association_file() -> None:
    problems: list[Problem] = []
    records = list(fab.read(fab.card_files([FAB_JSON]), problems.append))
    assert problems == []
    assert sum(len(r.sources) for r in records) == 120
    by_name = {r.card.name: r.card for r in records}
    assert by_name["Stir the Pot // Inner Chi"].layout == "transcend"
    assert by_name["Construct Nitro Mechanoid // Nitro Mechanoid"].layout == "flip"
    assert Counter(r.card.layout for r in records) == {
        "normal": 41,
        "flip": 30,
        "transcend": 12,
        "split": 11,
        "twin": 1,
    }


def test_fab_json_without_association_trusts_front_entries_only(tmp_path: Path) -> None:
    shutil.copy(FAB_JSON / "card.subset.json", tmp_path / "card.json")
    records = list(fab.read(fab.card_files([tmp_path]), importers.ignore))
    by_name = {r.card.name: r.card for r in records}
    # The back faces' other_face_unique_id points at themselves upstream: no self-pairs.
    assert by_name["Invoke Tomeltai // Tomeltai"].layout == "flip"
    assert "Tomeltai // Tomeltai" not in by_name
    assert Counter(r.card.layout for r in records)["flip"] == 30  # with Bank Breaker (9.1.3)


def test_fab_bad_row_is_reported_and_skipped(tmp_path: Path) -> None:
    rows = (FAB_CSV / "card.csv").read_text("utf-8").split("\n")
    header = rows[0]
    good = [r for r in rows[1:40] if r.startswith(("dTKDHwdcrLNPPb6ktczmR",))]
    bad = "\t".join(
        [
            "BADid123",
            "",
            "Red",
            "1",
            "1",
            "",
            "3",
            "",
            "",
            "",
            "Wizard, Action",
            *[""] * 7,
            "Text",
            "Wizard Action",
            *[""] * 5,
        ]
    )
    (tmp_path / "card.csv").write_text("\n".join([header, bad, *good]) + "\n", "utf-8")
    problems: list[Problem] = []
    records = list(fab.read([tmp_path / "card.csv"], problems.append))
    assert [r.card.name for r in records] == ["Absorb in Aether"]
    assert len(problems) == 1 and "BADid123" in str(problems[0]) and problems[0].key == "Name"


EXPECTED_MTG = {
    "scryfall-mtg_ssm-cards.json": {
        "normal": 79,  # the reversible Doubling Cube is one card
        "flip": 3,
        "transform": 2,
        "split": 2,
        "token": 2,
    },
    "scryfall-mtgjson-cassette-subset.json": {
        "transform": 24,
        "normal": 14,  # with the two reversible cards, each one card
        "modal_dfc": 3,
    },
    "scryfall-scryfall-client-fixtures.json": {"meld": 3, "flip": 1},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_MTG))
def test_mtg_every_sample_card_with_its_layout(name: str) -> None:
    problems: list[Problem] = []
    records = list(scryfall.read(MTG / name, problems.append))
    raw = json.loads((MTG / name).read_text("utf-8"))
    assert len(records) == len(raw)
    assert Counter(r.card.layout for r in records) == EXPECTED_MTG[name]
    for obj, record in zip(raw, records, strict=True):
        assert record.card.name == obj["name"]
        if obj["layout"] == "reversible_card":  # both sides one Oracle card: that card
            assert record.card.layout == "normal" and len(record.card.faces) == 1
        elif obj["layout"] in scryfall.DIRECT:
            assert record.card.layout == obj["layout"]
            assert len(record.card.faces) == len(obj.get("card_faces") or [obj])
    warnings = [p for p in problems if p.warning]
    assert len(problems) == len(warnings)
    assert len(warnings) == (6 if name == "scryfall-mtg_ssm-cards.json" else 0)
    assert all("planar" in str(w) or "scheme" in str(w) for w in warnings)


def test_mtg_faces() -> None:
    cards = {
        r.card.name: r.card for f in EXPECTED_MTG for r in scryfall.read(MTG / f, importers.ignore)
    }
    delver = cards["Delver of Secrets // Insectile Aberration"]
    assert delver.faces[0].cost == "{U}" and delver.faces[1].cost is None
    assert delver.faces[1].colors == ("U",) and delver.faces[1].power == 3
    who = cards["Who // What // When // Where // Why"]
    assert who.layout == "split" and who.face_names == ("Who", "What", "When", "Where", "Why")
    brisela = cards["Brisela, Voice of Nightmares"]
    assert brisela.is_meld_result
    assert set(brisela.melds_from) == {"Bruna, the Fading Light", "Gisela, the Broken Blade"}
    bruna = cards["Bruna, the Fading Light"]
    assert bruna.layout == "meld" and not bruna.is_meld_result and len(bruna.faces) == 1
    budoka = cards["Budoka Gardener // Dokai, Weaver of Life"]
    assert budoka.faces[1].supertypes == ("Legendary",) and budoka.faces[1].cost is None
    arlinn = cards["Arlinn, the Pack's Hope // Arlinn, the Moon's Fury"]
    assert arlinn.faces[1].types == ("Planeswalker",) and arlinn.faces[0].loyalty == 4
    goblin = cards["Goblin"]
    assert goblin.layout == "token" and goblin.front.colors == ("R",)
    assert goblin.front.types == ("Creature",)


def test_mtg_adventure_per_scryfall_docs() -> None:
    obj = {
        "object": "card",
        "id": "x1",
        "oracle_id": "o1",
        "layout": "adventure",
        "name": "Bonecrusher Giant // Stomp",
        "mana_cost": "{2}{R} // {1}{R}",
        "type_line": "Creature — Giant // Instant — Adventure",
        "keywords": [],
        "card_faces": [
            {
                "object": "card_face",
                "name": "Bonecrusher Giant",
                "mana_cost": "{2}{R}",
                "type_line": "Creature — Giant",
                "oracle_text": "Whenever ...",
                "power": "4",
                "toughness": "3",
            },
            {
                "object": "card_face",
                "name": "Stomp",
                "mana_cost": "{1}{R}",
                "type_line": "Instant — Adventure",
                "oracle_text": "Damage can't be prevented",
            },
        ],
    }
    record, warning = scryfall.convert(obj)
    assert warning is None
    assert record.card.layout == "adventure"
    assert record.card.face_names == ("Bonecrusher Giant", "Stomp")
    assert record.card.faces[1].subtypes == ("Adventure",) and record.card.faces[0].power == 4


def test_mtg_unknown_layout_imports_its_faces_with_a_warning() -> None:
    obj = {
        "object": "card",
        "id": "z9",
        "layout": "hologram",
        "name": "A // B",
        "card_faces": [
            {"name": "A", "type_line": "Artifact"},
            {"name": "B", "type_line": "Artifact"},
        ],
    }
    record, warning = scryfall.convert(obj)
    assert record.card.face_names == ("A", "B")
    assert warning is not None and "hologram" in warning


def test_mtg_bad_records_are_reported_and_skipped(tmp_path: Path) -> None:
    good = json.loads((MTG / "scryfall-scryfall-client-fixtures.json").read_text("utf-8"))
    bad = dict(good[0], id="bad-power-id", power={"x": 1})
    text = json.dumps([good[0], bad, good[1]], indent=1)
    path = tmp_path / "cards.json"
    path.write_text(
        text[:-1] + ',\n{"id": "broken", "name": }\n,\n' + json.dumps(good[3]) + "\n]", "utf-8"
    )
    problems: list[Problem] = []
    records = list(scryfall.read(path, problems.append))
    assert [r.card.name for r in records] == [good[0]["name"], good[1]["name"], good[3]["name"]]
    messages = [str(p) for p in problems]
    assert len(messages) == 2
    assert "bad-power-id" in messages[0] and ": power: " in messages[0]
    assert "invalid JSON" in messages[1] and str(path) in messages[1]


def test_streaming_matches_json_load_with_tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importers, "CHUNK_CHARS", 97)
    for path in sorted(MTG.glob("*.json")):
        text = path.read_text("utf-8")
        items = list(iter_json_array(io.StringIO(text), str(path), importers.ignore))
        assert items == json.loads(text)


def test_ga_every_sample_card_with_the_one_dfc() -> None:
    problems: list[Problem] = []
    records = list(ga.read(sorted(GA.glob("*.json")), problems.append))
    assert problems == []
    assert len(records) == 60
    assert Counter(r.card.layout for r in records) == {"normal": 59, "double_faced": 1}
    dfc = next(r for r in records if r.card.layout == "double_faced")
    assert dfc.card.name == "Fabled Azurite Fatestone // Seiryuu, Azure Dragon"
    front, back = dfc.card.faces
    assert front.supertypes == ("REGALIA",) and front.types == ("ITEM",)
    assert front.memory_cost == 10 and front.abilities == ("Immortality", "Spellshroud")
    assert (back.types, back.reserve_cost, back.power, back.life) == (("ALLY",), 10, 4, 12)
    assert set(dfc.sources) == {"6ce5rzrjd9", "fcfxhkqda6"}
    assert not any(r.card.name == "Seiryuu, Azure Dragon" for r in records)


def test_ga_back_listed_on_its_own_joins_its_front(tmp_path: Path) -> None:
    page = json.loads((GA / "MockResponsePage1.json").read_text("utf-8"))
    front = next(c for c in page["data"] if c["uuid"] == "6ce5rzrjd9")
    back = dict(front["editions"][0]["other_orientations"][0])
    back["editions"] = [back.pop("edition")]
    (tmp_path / "cards.json").write_text(json.dumps([back, front]), "utf-8")
    records = list(ga.read([tmp_path / "cards.json"], importers.ignore))
    assert [r.card.name for r in records] == ["Fabled Azurite Fatestone // Seiryuu, Azure Dragon"]


def test_mtg_reversible_card_is_one_card_whichever_side() -> None:
    raw = json.loads((MTG / "scryfall-mtgjson-cassette-subset.json").read_text("utf-8"))
    obj = next(c for c in raw if c["name"].startswith("Okaun, Eye of Chaos"))
    record, warning = scryfall.convert(obj)
    assert warning is None and record.card.layout == "normal"
    assert record.card.face_names == ("Okaun, Eye of Chaos",)
    assert record.card.front.power == 3 and record.card.front.cost == "{4}{R}"
    # Two different Oracle cards on the two sides stay two faces of a reversible card.
    other = json.loads(json.dumps(obj))
    other["card_faces"][1]["oracle_id"] = "another-card"
    other["card_faces"][1]["name"] = "Zndrsplt, Eye of Wisdom"
    record, _ = scryfall.convert(other)
    assert record.card.layout == "reversible_card" and len(record.card.faces) == 2


def test_mtg_prototype_card_gets_its_inset_frame() -> None:
    obj = {
        "object": "card",
        "id": "p1",
        "oracle_id": "o-p1",
        "name": "Blitz Automaton",
        "layout": "prototype",
        "mana_cost": "{7}",
        "type_line": "Artifact Creature — Construct",
        "oracle_text": "Prototype {2}{R} — 3/2 (You may cast this spell with different mana "
        "cost, color, and size. It keeps its abilities and types.)\nHaste",
        "power": "6",
        "toughness": "4",
        "colors": [],
        "keywords": ["Prototype", "Haste"],
    }
    record, warning = scryfall.convert(obj)
    assert warning is None and record.card.layout == "prototype"
    normal, inset = record.card.faces
    assert (normal.cost, normal.power, normal.toughness) == ("{7}", 6, 4)
    assert (inset.name, inset.cost, inset.power, inset.toughness) == (
        "Blitz Automaton",
        "{2}{R}",
        3,
        2,
    )
    obj["oracle_text"] = "Haste"
    with pytest.raises(importers.BadRecord) as err:
        scryfall.convert(obj)
    assert err.value.key == "oracle_text"


# --- vocabulary: a type word the game doesn't have refuses the whole import ---------------


def _sample_with(path: Path, tmp_path: Path, word: str, bad: str) -> Path:
    """A copy of sample file ``path`` with one record's type word ``word`` misspelt ``bad``."""
    items = json.loads(path.read_text("utf-8"))
    records = items["data"] if isinstance(items, dict) else items
    for record in records:
        if word in record.get("types", ()):  # GA: a list of words
            record["types"] = [bad if t == word else t for t in record["types"]]
            break
        if word in str(record.get("type_line", "")).split():  # Scryfall: a type line
            record["type_line"] = record["type_line"].replace(word, bad, 1)
            break
    else:
        raise AssertionError(f"no record of {path.name} has the type {word}")
    out = tmp_path / path.name
    out.write_text(json.dumps(items), "utf-8")
    return out


@pytest.mark.parametrize(
    ("game", "sample", "word", "bad"),
    [
        ("ga", GA / "MockResponsePage1.json", "CHAMPION", "CHAMPOIN"),
        ("mtg", MTG / "scryfall-mtg_ssm-cards.json", "Creature", "Creatrue"),
    ],
)
def test_unknown_type_word_refuses_the_import_naming_file_record_and_word(
    tmp_path: Path,
    game: str,
    sample: Path,
    word: str,
    bad: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from obverse.cli import main

    source = _sample_with(sample, tmp_path, word, bad)
    db = tmp_path / "cards.sqlite3"
    assert main(["import", game, str(source), "--db", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert str(source) in err and "record " in err and repr(bad) in err
    assert "Traceback" not in err
    assert not db.exists()  # a fresh database is not left behind
    # An existing database keeps its bytes: the good sample imports, the bad one changes nothing.
    assert main(["import", game, str(sample), "--db", str(db), "--quiet"]) in (0, 1)
    before = db.read_bytes()
    assert main(["import", game, str(source), "--db", str(db), "--quiet"]) == 2
    assert db.read_bytes() == before


def test_every_importer_checks_the_vocabulary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each importer hands every record it yields to the game's vocabulary check."""
    seen: Counter[str] = Counter()
    real = importers.check_vocabulary

    def counting(game: str, path: str, record: str, card: object) -> None:
        seen[game] += 1
        real(game, path, record, card)  # type: ignore[arg-type]

    for module in (scryfall, ga, fab):
        monkeypatch.setattr(module, "check_vocabulary", counting)
    mtg_n = sum(1 for _ in scryfall.read(MTG / "scryfall-mtg_ssm-cards.json", importers.ignore))
    ga_n = len(list(ga.read(sorted(GA.glob("*.json")), importers.ignore)))
    fab_n = len(list(fab.read([FAB_CSV / "card.csv"], importers.ignore)))
    assert seen == Counter({"mtg": mtg_n, "ga": ga_n, "fab": fab_n})
    assert min(mtg_n, ga_n, fab_n) > 0


def test_ga_unique_is_a_supertype_word() -> None:
    """Card Types - Supertypes, Unique: the index's UNIQUE is a supertype, and accepted."""
    record = ga.convert({"uuid": "u1", "name": "Solo", "types": ["UNIQUE", "ALLY"]})
    assert record.card.front.supertypes == ("UNIQUE",)
    assert record.card.front.types == ("ALLY",)
    importers.check_vocabulary("ga", "f.json", "u1", record.card)  # no error


def test_scryfall_objects_that_are_not_cards_are_skipped_with_a_warning(tmp_path: Path) -> None:
    """Art series cards ("Card") and emblems ("Emblem") aren't game cards: a real bulk file
    with them imports its cards, and each skipped object is reported by id and key."""
    raw = json.loads((MTG / "scryfall-mtgjson-cassette-subset.json").read_text("utf-8"))
    art = {
        "object": "card",
        "id": "art-1",
        "name": "Some Art // Some Art",
        "layout": "art_series",
        "type_line": "Card // Card",
        "card_faces": [{"name": "Some Art", "type_line": "Card"}],
    }
    emblem = {
        "object": "card",
        "id": "em-1",
        "name": "Ajani, Adversary of Tyrants Emblem",
        "layout": "emblem",
        "type_line": "Emblem — Ajani",
        "oracle_text": "At the end",
    }
    source = tmp_path / "bulk.json"
    source.write_text(json.dumps([art, *raw, emblem]), "utf-8")
    problems: list[Problem] = []
    names = [r.card.name for r in scryfall.read(source, problems.append)]
    assert names == [
        r.card.name
        for r in scryfall.read(MTG / "scryfall-mtgjson-cassette-subset.json", lambda p: None)
    ]
    skipped = [(p.record.split()[0], p.key, p.warning) for p in problems]
    assert skipped == [("art-1", "layout", True), ("em-1", "layout", True)]
    assert "114.5" in problems[1].message
