"""Benchmark: importing a generated 100,000-card Scryfall-format bulk file into the card database.

Prints import throughput (cards/s) and peak Python memory (tracemalloc), each also as a ratio
against a baseline measured in the same run on the same file: ``json.load`` of the whole file
(what a non-streaming importer would at least cost). Usage::

    python benchmarks/bench_import.py [--cards N]
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from obverse.carddb import CardDB
from obverse.importers import Problem

#: The real sample cards: the checkout's own copy (tests/data/mtg), else the shared data.
_ROOT = Path(__file__).resolve().parents[1]
DATA = next(
    (
        d
        for d in (_ROOT / "tests" / "data" / "mtg", _ROOT.parent / "shared" / "data" / "mtg")
        if d.is_dir()
    ),
    _ROOT / "tests" / "data" / "mtg",
)


def generate(path: Path, n: int) -> int:
    """Write ``n`` Scryfall card objects (the real samples, renamed) as a bulk-style array,
    one object per line as Scryfall's bulk files are; returns the file size."""
    samples: list[dict[str, Any]] = []
    for f in sorted(DATA.glob("*.json")):
        samples.extend(json.loads(f.read_text("utf-8")))
    with open(path, "w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(n):
            card = dict(samples[i % len(samples)])
            suffix = f" #{i}"
            card["id"] = f"bench-{i}"
            card["oracle_id"] = f"bench-oracle-{i}"
            card["name"] = card["name"] + suffix
            if "card_faces" in card:
                card["card_faces"] = [
                    dict(face, name=face["name"] + suffix) for face in card["card_faces"]
                ]
            if card.get("all_parts"):
                card["all_parts"] = [dict(p, name=p["name"] + suffix) for p in card["all_parts"]]
            out.write(json.dumps(card, ensure_ascii=False))
            out.write(",\n" if i < n - 1 else "\n")
        out.write("]\n")
    return path.stat().st_size


def measure(fn: Callable[[], int]) -> tuple[float, int, int]:
    """(seconds without tracing, peak traced bytes, result)."""
    gc.collect()
    start = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - start
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak, result


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bulk = Path(tmp) / "default-cards.json"
        size = generate(bulk, args.cards)

        def baseline() -> int:
            with open(bulk, encoding="utf-8") as f:
                return len(json.load(f))

        runs = 0

        def importing() -> int:
            nonlocal runs
            runs += 1
            problems: list[Problem] = []
            with CardDB(Path(tmp) / f"cards{runs}.sqlite3") as db:
                summary = db.import_files("mtg", [bulk], problems.append)
            return summary.stored

        b_sec, b_peak, b_n = measure(baseline)
        i_sec, i_peak, i_n = measure(importing)
    mib = 1024 * 1024
    print(f"file: {args.cards:,} Scryfall card objects, {size / mib:.1f} MiB")
    print(f"baseline json.load: {b_n / b_sec:,.0f} cards/s, peak memory {b_peak / mib:.1f} MiB")
    print(
        f"obverse import:     {i_n / i_sec:,.0f} cards/s ({i_sec:.2f} s), "
        f"peak memory {i_peak / mib:.1f} MiB"
    )
    print(
        f"ratios (import / baseline): throughput {(i_n / i_sec) / (b_n / b_sec):.2f}x, "
        f"peak memory {i_peak / b_peak:.3f}x"
    )


if __name__ == "__main__":
    main()
