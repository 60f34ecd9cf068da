#!/usr/bin/env python3
"""Trim the-fab-cube's English CSVs to the cards of the JSON subset, byte for byte.

Usage: python3 scripts/trim_fab_csv.py SRC_DIR DEST_DIR [EXTRA_CARD_ID ...]

SRC_DIR holds upstream's ``csvs/english`` and ``json/english`` (with ``card.subset.json``);
DEST_DIR receives ``csvs/english/card.csv`` and ``card-printing.csv`` keeping only the rows of
the subset's cards (plus EXTRA_CARD_ID cards), and ``card-face-association.csv`` whole. Rows are
copied as raw text, never re-serialized, so quoting and line endings stay exactly upstream's.
Stdlib only; used once to make tests/data, kept so the trim can be redone from a newer upstream.
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path


def raw_rows(path: Path) -> Iterator[tuple[list[str], str]]:
    """Each CSV record with the exact source text it came from (records may span lines)."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    reader = csv.reader(iter(lines), delimiter="\t", quotechar='"')
    start = 0
    for row in reader:
        yield row, "".join(lines[start : reader.line_num])
        start = reader.line_num


def keep(path: Path, dest: Path, column: str, wanted: set[str]) -> set[str]:
    """Copy the header and the rows whose ``column`` is in ``wanted``; return their first cells."""
    rows = raw_rows(path)
    header, text = next(rows)
    index = header.index(column)
    kept: set[str] = set()
    out = [text]
    for row, text in rows:
        if row and row[index] in wanted:
            out.append(text)
            kept.add(row[0])
    dest.write_text("".join(out), "utf-8")
    return kept


def main(argv: list[str]) -> int:
    """Trim SRC_DIR's CSVs into DEST_DIR; 2 on wrong usage."""
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src, dest = Path(argv[0]), Path(argv[1])
    subset = json.loads((src / "json" / "english" / "card.subset.json").read_text("utf-8"))
    cards = {card["unique_id"] for card in subset} | set(argv[2:])
    out = dest / "csvs" / "english"
    out.mkdir(parents=True, exist_ok=True)
    found = keep(src / "csvs" / "english" / "card.csv", out / "card.csv", "Unique ID", cards)
    missing = cards - found
    if missing:
        print(f"card ids not in card.csv: {sorted(missing)}", file=sys.stderr)
        return 2
    printing = src / "csvs" / "english" / "card-printing.csv"
    printings = keep(printing, out / "card-printing.csv", "Card Unique ID", cards)
    association = src / "csvs" / "english" / "card-face-association.csv"
    shutil.copyfile(association, out / "card-face-association.csv")
    print(f"{len(found)} cards, {len(printings)} printings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
