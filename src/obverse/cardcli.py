"""The card-data commands of the CLI: ``obverse import mtg|fab|ga PATH... [--db PATH]`` and
``obverse card NAME [--game G] [--zone Z] [--face F] [--transformed] [--json] [--db PATH]``,
and the card database lookup ``obverse run --db`` uses."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from obverse import registry
from obverse.carddb import CardDB, default_path, open_db, plan_import
from obverse.cardinfo import CardNotFound, describe, find_card, render
from obverse.cards import CardDef
from obverse.console import Progress
from obverse.errors import InputError, ObverseError
from obverse.importers import GAMES, Problem
from obverse.importers.download import DownloadError, download, where_to_get
from obverse.loader import STDIN, load_file
from obverse.rulesets import get_ruleset

IMPORT_EPILOG = """\
exit status:
  0  every record was imported
  1  some records were skipped (each one reported on stderr); the rest were imported
  2  nothing was imported and the database is unchanged: a path is missing, is not a
     regular file or directory, or holds another game's or format's data; no record
     could be imported; the database can't be written; or --download failed (the
     source can't be reached, or its data is not what it promises)

--download fetches the game's current public data (mtg: the oracle_cards file of
https://api.scryfall.com/bulk-data; fab: json/english/ of the-fab-cube/flesh-and-blood-
cards on GitHub; ga: every page of https://api.gatcg.com/cards/search), checks it and
imports it; --url fetches from another address.

Input may be a JSON array, an API page ({"data": [...]}), one object, or JSON Lines.
A record is skipped, never stored half-right: a double-faced card whose other face is
missing from the files, an id given to two different cards, or a record that would
replace a stored card with one of fewer faces."""


def add_card_commands(sub: Any) -> None:
    """Add ``import`` and ``card`` to the CLI's subcommands."""
    imp = sub.add_parser(
        "import",
        help="import upstream card data into the card database",
        epilog=IMPORT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    imp.add_argument(
        "game",
        choices=GAMES,
        help="mtg: Scryfall JSON; fab: the FaB card "
        "database (csvs/english/ or json/english/); ga: Grand Archive API JSON",
    )
    imp.add_argument("paths", nargs="*", metavar="PATH", help="files or directories")
    imp.add_argument(
        "--download",
        action="store_true",
        help="fetch the game's current public card data first (mtg: Scryfall's bulk data; "
        "fab: the-fab-cube/flesh-and-blood-cards JSON; ga: the api.gatcg.com card index)",
    )
    imp.add_argument("--url", metavar="URL", help="with --download: fetch from URL instead")
    imp.add_argument("--db", metavar="PATH", help=f"card database (default: {default_path()})")
    imp.add_argument("--quiet", action="store_true", help="report only the counts")
    imp.set_defaults(func=cmd_import)
    card = sub.add_parser("card", help="show a card's faces and its characteristics in a zone")
    card.add_argument("name", metavar="NAME", help="the card's full name or any face's name")
    card.add_argument("--game", choices=registry.games())
    card.add_argument("--ruleset", metavar="ALIAS", help="rules version (e.g. mtg@2020)")
    card.add_argument("--zone", metavar="Z", help="zone (default: the play zone)")
    card.add_argument("--face", choices=("front", "back", "left", "right", "both"))
    card.add_argument("--transformed", action="store_true", help="back face up")
    card.add_argument("--json", action="store_true", help="print JSON")
    card.add_argument("--db", metavar="PATH", help=f"card database (default: {default_path()})")
    card.set_defaults(func=cmd_card)


def _mib(done: int, total: int) -> str:
    """Bytes as MiB (``12.0 of 30.0 MiB``)."""
    return f"{done / 2**20:.1f}" + (f" of {total / 2**20:.1f} MiB" if total else " MiB")


class _Files:
    """A progress callback ``(path, done, total)`` drawn as one :class:`Progress` line,
    ``VERB NAME: [####------] 40% 12.0 of 30.0 MiB``."""

    def __init__(self, verb: str = "importing") -> None:
        self.verb = verb
        self.bar = Progress(verb, amount=_mib)

    def __call__(self, path: str, done: int, total: int) -> None:
        self.bar.update(done, total, f"{self.verb} {Path(path).name}:")

    def clear(self) -> None:
        self.bar.close()


def _download(args: argparse.Namespace, into: Path) -> list[str]:
    """``--download``: the game's data fetched into ``into``; the paths to import."""
    bar = _Files("downloading") if sys.stderr.isatty() else None
    try:
        paths = download(args.game, into, args.url, bar)
    finally:
        if bar is not None:
            bar.clear()
    print(
        f"{args.game}: downloaded {', '.join(p.name for p in paths[:3])}"
        + (f" and {len(paths) - 3} more" if len(paths) > 3 else ""),
        file=sys.stderr,
    )
    return [str(p) for p in paths]


def cmd_import(args: argparse.Namespace) -> int:
    """Import files (``--download``: fetch them first); exit 0 if every record imported, 1 if
    some were skipped, 2 on failure (a failed download included: the database is unchanged)."""
    if args.url and not args.download:
        print("obverse import: --url needs --download", file=sys.stderr)
        return 2
    if not args.paths and not args.download:
        print(f"obverse import: no PATH given: {where_to_get(args.game)}", file=sys.stderr)
        return 2
    if not args.download:
        return _import(args, args.paths)
    with tempfile.TemporaryDirectory(prefix="obverse-download-") as tmp:
        try:
            paths = _download(args, Path(tmp))
        except DownloadError as exc:
            print(f"obverse import: {exc}", file=sys.stderr)
            return 2
        return _import(args, [*args.paths, *paths])


def _import(args: argparse.Namespace, paths: list[str]) -> int:
    """Import ``paths``; the exit status of :func:`cmd_import`."""
    progress = _Files() if sys.stderr.isatty() else None
    shown = 0

    def report(problem: Problem) -> None:
        nonlocal shown
        if progress is not None:
            progress.clear()
        if args.quiet and problem.warning:
            return
        shown += 1
        if shown <= 200:
            print(str(problem), file=sys.stderr)
        elif shown == 201:
            print("... (more problems not shown)", file=sys.stderr)

    target = Path(args.db) if args.db else default_path()
    fresh = not target.exists()
    try:
        plan_import(args.game, paths)  # refuse bad paths before creating a database
        with CardDB(target) as db:
            summary = db.import_files(args.game, paths, report, progress)
            total = db.count(args.game)
    except (ObverseError, OSError, sqlite3.Error) as exc:
        if progress is not None:
            progress.clear()
        missing = isinstance(exc, InputError) and exc.message == "no such file or directory"
        hint = f"; {where_to_get(args.game)}" if missing else ""
        print(f"obverse import: {exc}{hint}", file=sys.stderr)
        if fresh:
            target.unlink(missing_ok=True)  # leave no empty database behind
        return 2
    if progress is not None:
        progress.clear()
    if summary.failed:
        if fresh:
            target.unlink(missing_ok=True)
        print(summary.line())
        print(f"obverse import: no record could be imported; {target} unchanged", file=sys.stderr)
        return 2
    rate = summary.stored / summary.seconds if summary.seconds > 0 else 0.0
    print(summary.line())
    print(f"{args.game}: {total} cards in {target} ({rate:,.0f} records/s)")
    return 1 if summary.skipped else 0


def cmd_card(args: argparse.Namespace) -> int:
    """Show a card; exit 1 (with suggestions) when no card has the name, 2 on bad input."""
    try:
        db = open_db(args.db, must_exist=True)
        try:
            game, card, others = find_card(args.name, args.game, db)
        finally:
            if db is not None:
                db.close()
        if others:
            print(
                f"obverse card: {args.name!r} is also a card of {', '.join(others)} (use --game)",
                file=sys.stderr,
            )
        info = describe(
            game,
            card,
            zone=args.zone,
            face=args.face,
            transformed=args.transformed,
            ruleset=args.ruleset,
        )
    except CardNotFound as exc:
        print(f"obverse card: {exc}", file=sys.stderr)
        return 1
    except ObverseError as exc:
        print(f"obverse card: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(info.to_json(), ensure_ascii=False))
    else:
        print(render(info))
    return 0


def _peek_game(path: str) -> str | None:
    if path == STDIN:
        return None  # standard input can be read once: the scenario's own load reads it
    try:
        data = load_file(path)
        alias = data.get("ruleset") if isinstance(data, dict) else None
        return get_ruleset(alias).game if isinstance(alias, str) else None
    except (ObverseError, OSError, ValueError):
        return None


def scenario_lookup(args: argparse.Namespace, path: str) -> Callable[[str], CardDef | None] | None:
    """The card database lookup for the game of scenario ``path`` (``--db`` or the default
    database if it exists); ``None`` when there is no database."""
    db: CardDB | None = getattr(args, "_carddb", None)
    if db is None:
        try:
            db = open_db(getattr(args, "db", None), must_exist=True)
        except ObverseError as exc:
            print(f"obverse run: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        if db is None:
            return None
        args._carddb = db
    game = _peek_game(path)
    return None if game is None else db.lookup(game)
