"""The Scryfall bulk reader (msgspec runs, one item at a time where a run doesn't decode) gives
what converting each object of ``json.load`` gives, whatever the layout of the JSON text and
the chunk size, and names the item, byte and key of bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from obverse.importers import BadRecord, Problem, Record, jsonstream, scryfall

DATA = Path(__file__).resolve().parent / "data"
SAMPLES = [*sorted((DATA / "mtg").glob("*.json")), DATA / "harden" / "scryfall-keywords.json"]


def _cards() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in SAMPLES:
        out.extend(json.loads(path.read_text("utf-8")))
    return out


def _expected(items: list[Any]) -> tuple[list[Record], list[tuple[str, str]]]:
    """What the importer makes of each object on its own: records, and (record, key) of the
    problems, in order."""
    records: list[Record] = []
    problems: list[tuple[str, str]] = []
    for obj in items:
        layout = obj.get("layout") if isinstance(obj, dict) else None
        if layout in scryfall.NOT_CARDS:
            problems.append((scryfall.record_id(obj), "layout"))
            continue
        try:
            record, warning = scryfall.convert(obj)
        except BadRecord as exc:
            problems.append((scryfall.record_id(obj), exc.key))
            continue
        if warning:
            problems.append((scryfall.record_id(obj), "layout"))
        records.append(record)
    return records, problems


def _read(path: Path) -> tuple[list[Record], list[Problem]]:
    problems: list[Problem] = []
    return list(scryfall.read(path, problems.append)), problems


FORMS: dict[str, Callable[[list[Any]], str]] = {
    "compact": json.dumps,
    "indented": lambda cards: json.dumps(cards, indent=1, ensure_ascii=False),
    # Keys sorted: no card starts with "object", so runs are cut at any "}, {", often
    # inside a card (card_faces, all_parts): such a run never decodes and is read item by item.
    "sorted keys": lambda cards: json.dumps(cards, sort_keys=True, ensure_ascii=False),
    "bulk lines": lambda cards: (
        "[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cards) + "\n]\n"
    ),
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("chunk", [97, 4096, 1 << 20])
def test_bulk_reader_gives_what_each_object_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str, chunk: int
) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK_BYTES", chunk)
    monkeypatch.setattr(jsonstream, "_WINDOW", min(chunk, 1 << 16))
    cards = _cards()
    path = tmp_path / "bulk.json"
    path.write_text(FORMS[form](cards), "utf-8")
    records, problems = _read(path)
    want_records, want_problems = _expected(cards)
    assert records == want_records
    assert [(p.record, p.key) for p in problems] == want_problems
    assert len(records) == len(cards) - sum(not p.warning for p in problems)


def test_bad_items_are_reported_by_number_and_byte_and_the_rest_imported(tmp_path: Path) -> None:
    cards = _cards()[:12]
    good = [json.dumps(c) for c in cards]
    broken = '{"object": "card", "id": "broken", "name": }'
    text = "[" + ", ".join([*good[:5], broken, *good[5:]]) + "]"
    path = tmp_path / "bulk.json"
    path.write_text(text, "utf-8")
    records, problems = _read(path)
    assert [r.card for r in records] == [r.card for r in _expected(cards)[0]]
    assert [p.record for p in problems if not p.warning] == ["item 6"]
    bad = next(p for p in problems if not p.warning)
    offset = int(bad.message.split("byte ")[-1].split()[0])
    assert text.index(broken) <= offset < text.index(broken) + len(broken)
    assert "invalid JSON" in str(bad) and str(path) in str(bad)


@pytest.mark.parametrize(
    ("field", "value", "key", "message"),
    [
        ("power", {"x": 1}, "card_faces[1].power", "expected a number"),
        ("card_faces", "two", "card_faces", "expected a non-empty list of faces"),
        ("keywords", [1], "keywords", "expected a list of strings"),
        ("layout", 7, "layout", "expected a string"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_card_and_key(
    tmp_path: Path, field: str, value: Any, key: str, message: str
) -> None:
    cards = _cards()
    dfc = next(i for i, c in enumerate(cards) if c.get("layout") == "transform")
    bad = dict(cards[dfc])
    if field == "power":
        bad["card_faces"] = [bad["card_faces"][0], dict(bad["card_faces"][1], power=value)]
    else:
        bad[field] = value
    cards[dfc] = bad
    path = tmp_path / "bulk.json"
    path.write_text(json.dumps(cards), "utf-8")
    records, problems = _read(path)
    errors = [p for p in problems if not p.warning]
    assert [(p.record, p.key) for p in errors] == [(scryfall.record_id(bad), key)]
    assert message in errors[0].message
    assert len(records) == len(cards) - 1


def test_text_that_is_not_utf8_is_reported_even_in_a_field_never_read(tmp_path: Path) -> None:
    cards = _cards()
    cards[3] = dict(cards[3], flavor_text="MARK")  # a field the importer skips
    path = tmp_path / "bulk.json"
    path.write_bytes(json.dumps(cards).encode().replace(b"MARK", b"caf\xe9"))
    _records, problems = _read(path)
    assert [str(p) for p in problems if not p.warning] == [
        f"{path}: not UTF-8 text (invalid continuation byte)"
    ]


def test_a_cut_short_bulk_file_keeps_the_cards_before_the_cut(tmp_path: Path) -> None:
    cards = _cards()[:10]
    text = json.dumps(cards)
    cut = text.index(json.dumps(cards[7])) + 100  # inside the eighth card
    path = tmp_path / "bulk.json"
    path.write_text(text[:cut], "utf-8")
    records, problems = _read(path)
    assert [r.card for r in records] == [r.card for r in _expected(cards[:7])[0]]
    errors = [p for p in problems if not p.warning]
    assert [p.record for p in errors] == ["item 8"] and "invalid JSON" in errors[0].message


def test_progress_counts_the_bytes_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK_BYTES", 4096)
    path = tmp_path / "bulk.json"
    path.write_text(json.dumps(_cards()), "utf-8")
    seen: list[int] = []
    list(scryfall.read(path, lambda p: None, seen.append))
    assert seen == sorted(seen) and seen[-1] == path.stat().st_size and len(seen) > 2


def test_a_page_and_json_lines_are_still_read(tmp_path: Path) -> None:
    cards = _cards()[:6]
    page = tmp_path / "page.json"
    page.write_text(json.dumps({"object": "list", "data": cards}), "utf-8")
    lines = tmp_path / "cards.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in cards), "utf-8")
    want = _expected(cards)[0]
    assert _read(page)[0] == want
    assert _read(lines)[0] == want


def test_reimporting_a_card_replaces_its_names_and_sources(tmp_path: Path) -> None:
    from obverse.carddb import CardDB

    cards = [c for c in _cards() if c.get("layout") == "transform"][:3]
    first = tmp_path / "first.json"
    first.write_text(json.dumps(cards), "utf-8")
    renamed = dict(cards[0], id="new-printing-id", name="Renamed Front // Renamed Back")
    renamed["card_faces"] = [
        dict(cards[0]["card_faces"][0], name="Renamed Front"),
        dict(cards[0]["card_faces"][1], name="Renamed Back"),
    ]
    second = tmp_path / "second.json"
    second.write_text(json.dumps([renamed]), "utf-8")
    with CardDB(tmp_path / "cards.sqlite3") as db:
        db.import_files("mtg", [first], lambda p: None)
        old_face = cards[0]["card_faces"][1]["name"]
        assert db.get("mtg", old_face) is not None
        db.import_files("mtg", [second], lambda p: None)
        assert db.get("mtg", old_face) is None  # the stored card's old names are gone
        assert db.by_source("mtg", cards[0]["id"]) is None
        found = db.get("mtg", "Renamed Back")
        assert found is not None and found.name == "Renamed Front // Renamed Back"
        assert db.by_source("mtg", "new-printing-id") == found
        assert db.get("mtg", cards[1]["card_faces"][1]["name"]) is not None
