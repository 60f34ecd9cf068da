"""Fetching each game's public card data for ``obverse import GAME --download``.

- **mtg**: Scryfall's bulk data. The index ``https://api.scryfall.com/bulk-data`` lists the
  daily files (``bulk_data`` objects); the ``oracle_cards`` file (one card object per Oracle
  id; ``default_cards`` if the index has none) is downloaded from its ``download_uri`` and
  checked against the index's ``size`` (bytes) and, as every file, its JSON shape.
- **fab**: the-fab-cube/flesh-and-blood-cards on GitHub, ``json/english/card.json`` and
  ``card-face-association.json`` (the face pairs the importer needs), raw from ``develop``
  (the repository's default branch, the one updated first); checked against the
  Content-Length GitHub sends and the JSON shape (an array).
- **ga**: Grand Archive's index API, ``https://api.gatcg.com/cards/search?page=N``, every
  page until ``has_more`` is false; checked page by page (an object with a ``data`` list and
  the page number asked) and in total (as many cards as the first page's ``total_cards``).

``--url`` replaces the address (Scryfall's index or a card file itself, the FaB folder, the
GA search endpoint): tests and mirrors use it. Any failure is a :class:`DownloadError`, one
line naming the address and where to get the data by hand (:data:`MANUAL`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from obverse.errors import ObverseError

#: The address each game's data is fetched from by default.
SOURCES: Final = {
    "mtg": "https://api.scryfall.com/bulk-data",
    "fab": "https://raw.githubusercontent.com/the-fab-cube/flesh-and-blood-cards/develop/json/english/",
    "ga": "https://api.gatcg.com/cards/search",
}
#: Where a person gets the same data by hand, and what ``obverse import`` then reads.
MANUAL: Final = {
    "mtg": "the Oracle Cards file from https://scryfall.com/docs/api/bulk-data",
    "fab": "json/english/ (or csvs/english/) of https://github.com/the-fab-cube/flesh-and-blood-cards",
    "ga": "the pages of https://api.gatcg.com/cards/search?page=1 (then page=2 ...)",
}
#: Scryfall's bulk files, most wanted first.
BULK_TYPES: Final = ("oracle_cards", "default_cards")
FAB_FILES: Final = ("card.json", "card-face-association.json")
#: Bytes read at a time, and the most an index (or a page) may be.
CHUNK: Final = 1 << 20
INDEX_MAX: Final = 16 << 20
GA_PAGES_MAX: Final = 2000
TIMEOUT: Final = 60.0
HEADERS: Final = {"User-Agent": "obverse (card import)", "Accept": "application/json"}

#: ``progress(name, done_bytes, total_bytes_or_0)``.
Progress = Callable[[str, int, int], None]


class DownloadError(ObverseError):
    """A download failed or its data is not what the source promises (one line)."""


def where_to_get(game: str) -> str:
    """One sentence: where ``game``'s card data comes from, and the command that fetches it."""
    by_hand = f"get {MANUAL[game]} and run `obverse import {game} PATH`"
    return f"{by_hand}, or `obverse import {game} --download`"


def more_cards_hint(game: str) -> str:
    """What the sandbox adds to an unknown card's error: how to import every card of
    ``game`` (the sandbox reads the card database when it starts)."""
    if game not in SOURCES:
        return f" (the sandbox knows the bundled {game} cards only)"
    return (
        ". The sandbox knows the bundled cards and the card database: import every card with"
        f" `obverse import {game} --download`, then restart `obverse serve`"
    )


def _fail(game: str, url: str, why: str) -> DownloadError:
    return DownloadError(f"{url}: {why}; {where_to_get(game)}")


def fetch(
    game: str, url: str, dest: Path, progress: Progress | None = None, size: int | None = None
) -> int:
    """Stream ``url`` into ``dest``; the bytes written. Checks the length the server (or
    ``size``, the source's own figure) announced."""
    request = urllib.request.Request(url, headers=HEADERS)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response, dest.open("wb") as out:
            total = int(response.headers.get("Content-Length") or 0)
            # A file sent gzip-encoded (Scryfall's content_encoding) is written decoded.
            gzipped = response.headers.get("Content-Encoding", "").lower() == "gzip"
            unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
            got = done = 0
            while chunk := response.read(CHUNK):
                got += len(chunk)
                data = unzip.decompress(chunk) if unzip is not None else chunk
                out.write(data)
                done += len(data)
                if progress is not None:
                    progress(
                        dest.name, got if gzipped else done, total if gzipped else size or total
                    )
            if unzip is not None:
                tail = unzip.flush()
                out.write(tail)
                done += len(tail)
    except urllib.error.HTTPError as exc:
        raise _fail(game, url, f"the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError, zlib.error) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise _fail(game, url, f"can't download ({reason})") from None
    if total and got != total:
        raise _fail(game, url, f"incomplete: {got} of {total} bytes")
    if size is not None and done != size:
        raise _fail(game, url, f"{done} bytes, but the index says {size}")
    return done


def _json_file(game: str, url: str, path: Path) -> Any:
    """A small downloaded JSON document (an index, a page)."""
    if path.stat().st_size > INDEX_MAX:
        raise _fail(game, url, "too large for an index or a page")
    try:
        return json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError):
        raise _fail(game, url, "not JSON") from None


def _starts_with(path: Path, chars: str) -> bool:
    """Whether the file's first non-blank character is one of ``chars``."""
    with path.open("rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return bool(head) and chr(head[0]) in chars


def _bulk_entry(game: str, url: str, index: Any) -> dict[str, Any] | None:
    """The bulk file to fetch from a Scryfall ``bulk-data`` list (``None``: not an index)."""
    if not (isinstance(index, dict) and index.get("object") == "list"):
        return None
    items = [x for x in index.get("data") or [] if isinstance(x, dict)]
    by_type = {x.get("type"): x for x in items if x.get("object") == "bulk_data"}
    for kind in BULK_TYPES:
        entry = by_type.get(kind)
        if entry is not None and isinstance(entry.get("download_uri"), str):
            return entry
    raise _fail(game, url, f"the bulk-data index lists no {' or '.join(BULK_TYPES)} file")


def download_mtg(url: str, into: Path, progress: Progress | None = None) -> list[Path]:
    """Scryfall: the index, then the file it names (or ``url`` itself when it is a file)."""
    first = into / "scryfall-index.json"
    fetch("mtg", url, first, progress)
    entry = None
    if first.stat().st_size <= INDEX_MAX and _starts_with(first, "{"):
        found = _json_file("mtg", url, first)
        entry = _bulk_entry("mtg", url, found)
        if entry is None and found.get("object") != "card":
            what = found.get("details") or found.get("object") if isinstance(found, dict) else None
            raise _fail("mtg", url, f"not Scryfall card JSON ({what or 'an object'})")
    if entry is None:
        data = first.rename(into / "scryfall-cards.json")
    else:
        file_url = urllib.parse.urljoin(url, entry["download_uri"])
        size = entry.get("size")
        data = into / f"scryfall-{entry['type']}.json"
        fetch("mtg", file_url, data, progress, size if isinstance(size, int) else None)
        first.unlink()
        url = file_url
    if not _starts_with(data, "[{"):
        raise _fail("mtg", url, "not Scryfall card JSON (an array of card objects)")
    return [data]


def download_fab(url: str, into: Path, progress: Progress | None = None) -> list[Path]:
    """The FaB card list and its face associations, side by side as the importer reads them."""
    base = url if url.endswith("/") else url + "/"
    for name in FAB_FILES:
        dest = into / name
        fetch("fab", base + name, dest, progress)
        if not _starts_with(dest, "["):
            raise _fail("fab", base + name, "not a JSON array of the FaB card database")
    return [into / FAB_FILES[0]]


def download_ga(url: str, into: Path, progress: Progress | None = None) -> list[Path]:
    """Every page of GA's card search; the number of cards checked against the index's."""
    pages: list[Path] = []
    cards, expected = 0, None
    for number in range(1, GA_PAGES_MAX + 1):
        sep = "&" if "?" in url else "?"
        page_url = f"{url}{sep}page={number}"
        dest = into / f"ga-cards-{number:04d}.json"
        fetch("ga", page_url, dest, progress)
        page = _json_file("ga", page_url, dest)
        if not (isinstance(page, dict) and isinstance(page.get("data"), list)):
            raise _fail("ga", page_url, "not a page of the card index (no data list)")
        if page.get("page", number) != number:
            raise _fail("ga", page_url, f"answered page {page.get('page')}")
        if expected is None and isinstance(page.get("total_cards"), int):
            expected = page["total_cards"]
        cards += len(page["data"])
        pages.append(dest)
        last = page.get("total_pages")
        if not page.get("has_more") or (isinstance(last, int) and number >= last):
            break
    else:
        raise _fail("ga", url, f"more than {GA_PAGES_MAX} pages")
    if expected is not None and cards != expected:
        raise _fail(
            "ga", url, f"{cards} cards in {len(pages)} pages, but the index says {expected}"
        )
    return pages


DOWNLOADERS: Final[dict[str, Callable[[str, Path, Progress | None], list[Path]]]] = {
    "mtg": download_mtg,
    "fab": download_fab,
    "ga": download_ga,
}


def download(
    game: str, into: Path, url: str | None = None, progress: Progress | None = None
) -> list[Path]:
    """Fetch ``game``'s card data (from ``url``, else :data:`SOURCES`) into the directory
    ``into``; the paths ``obverse import`` then reads. Raises :class:`DownloadError`."""
    return DOWNLOADERS[game](url or SOURCES[game], into, progress)


__all__ = [
    "MANUAL",
    "SOURCES",
    "DownloadError",
    "download",
    "download_fab",
    "download_ga",
    "download_mtg",
    "fetch",
    "more_cards_hint",
    "where_to_get",
]
