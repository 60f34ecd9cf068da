"""The ``obverse`` command line: ``obverse run FILE|DIR ... [--explain] [--view P --json]
[--db PATH]``, ``obverse import mtg|fab|ga PATH...``, ``obverse card NAME``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from obverse import bench
from obverse.cardcli import add_card_commands, scenario_lookup
from obverse.cards import CardDef
from obverse.errors import ObverseError
from obverse.fuzz import fuzz
from obverse.runner import Result, run_scenario, scenario_view

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


def iter_scenarios(paths: Sequence[str]) -> Iterator[str]:
    """Files named, and a directory's ``*.yaml``, ``*.yml``, ``*.json`` recursively, sorted."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(
                str(f) for f in p.rglob("*") if f.is_file() and f.suffix in SCENARIO_SUFFIXES
            )
            yield from found
        else:
            yield raw


def cmd_run(args: argparse.Namespace) -> int:
    """Run scenario files; exit 0 all passed, 1 some failed, 2 some errored."""
    results: list[Result] = []
    out = sys.stdout
    report = sys.stderr if args.json else sys.stdout
    if args.db is not None and not Path(args.db).is_file():
        print(f"obverse run: --db: {args.db}: no such card database", file=sys.stderr)
        return 2
    files = list(iter_scenarios(args.paths))
    if not files:
        print("obverse run: no scenario files found", file=sys.stderr)
        return 2
    for path in files:
        result = run_scenario(path, explain=args.explain, extra_cards=_db_lookup(args, path))
        results.append(result)
        print(result.line(), file=report)
        for failure in result.failures:
            print(str(failure), file=report)
        if args.explain:
            for line in result.log:
                print(line, file=report)
        if args.json and result.state is not None and result.status != "ERROR":
            viewer = None if args.view in (None, "spectator") else args.view
            if viewer is not None and viewer not in result.state.players:
                print(f"obverse run: {path}: --view: unknown player {viewer!r}", file=sys.stderr)
                return 2
            print(scenario_view(result, viewer), file=out)
    passed = sum(r.status == "PASS" for r in results)
    failed = sum(r.status == "FAIL" for r in results)
    errors = sum(r.status == "ERROR" for r in results)
    summary = f"{passed} passed, {failed} failed" + (f", {errors} errors" if errors else "")
    print(summary, file=report)
    return 2 if errors else 1 if failed else 0


def _db_lookup(args: argparse.Namespace, path: str) -> Callable[[str], CardDef | None] | None:
    """The card database lookup for one scenario file's game (None without a database)."""
    return scenario_lookup(args, path)


def cmd_bench(args: argparse.Namespace) -> int:
    """Print each benchmark figure beside its floor."""
    print(bench.report(bench.run(quick=args.quick), args.json))
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Fuzz a ruleset; exit 1 and write replayable scenarios if anything broke."""
    if args.histories < 1 or args.workers < 1 or args.steps < 1:
        print(
            "obverse fuzz: --histories, --workers and --steps must be at least 1", file=sys.stderr
        )
        return 2
    try:
        rep = fuzz(
            args.ruleset,
            args.histories,
            workers=args.workers,
            ray_address=args.ray,
            steps=args.steps,
            seed=args.seed,
        )
    except ObverseError as exc:
        print(f"obverse fuzz: {exc}", file=sys.stderr)
        return 2
    print(
        f"{rep.ruleset}: {rep.histories} histories (+{rep.histories} twins), {rep.steps} "
        f"actions in {rep.seconds:.2f} s: {rep.rate:.1f} histories/s, "
        f"{rep.steps / rep.seconds if rep.seconds else 0:.0f} actions/s"
    )
    if not rep.failures:
        print("no counterexample")
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for kind, seed, error, text in rep.failures:
        path = out / f"{rep.ruleset.replace('@', '-')}-{kind}-{seed}.yaml"
        path.write_text(text, encoding="utf-8")
        print(f"COUNTEREXAMPLE {kind} seed {seed}: {error} -> {path}")
    return 1


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web sandbox (needs the ``web`` extra)."""
    try:
        from obverse.web.app import serve
    except ImportError as exc:
        print(
            f"obverse serve: the web sandbox needs the web extra ({exc.name} is missing): "
            "pip install 'obverse[web]'",
            file=sys.stderr,
        )
        return 2
    serve(args.host, args.port, args.db, args.store)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (documents the CLI)."""
    parser = argparse.ArgumentParser(
        prog="obverse", description="A rules kernel for multi-faced trading-card-game cards."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run scenario files and check their expectations")
    run.add_argument("paths", nargs="+", metavar="FILE|DIR")
    run.add_argument(
        "--explain", action="store_true", help="print each action's rulings (rule id and reason)"
    )
    run.add_argument(
        "--view", metavar="PLAYER", help="with --json: print PLAYER's view of the final state"
    )
    run.add_argument("--json", action="store_true", help="print the view as JSON on stdout")
    run.add_argument(
        "--db",
        metavar="PATH",
        help="card database to resolve card names from "
        "(default: the user's data directory, if it exists)",
    )
    run.set_defaults(func=cmd_run)
    bench = sub.add_parser("bench", help="measure the kernel against plain-Python floors")
    bench.add_argument("--quick", action="store_true", help="shorter rounds")
    bench.add_argument("--json", action="store_true", help="one JSON object per figure")
    bench.set_defaults(func=cmd_bench)
    fz = sub.add_parser("fuzz", help="random play: invariants and non-interference")
    fz.add_argument("--ruleset", required=True, help="ruleset alias, e.g. mtg, fab, ga, scp")
    fz.add_argument("--histories", type=int, default=1000, help="seeded histories to play")
    fz.add_argument("--workers", type=int, default=1, help="processes (or Ray CPUs)")
    fz.add_argument("--ray", metavar="ADDRESS", help="run on Ray: a cluster address or 'local'")
    fz.add_argument("--steps", type=int, default=40, help="actions per history")
    fz.add_argument("--seed", type=int, default=0, help="first seed")
    fz.add_argument(
        "--out", default="fuzz-counterexamples", help="directory for counterexample scenario files"
    )
    fz.set_defaults(func=cmd_fuzz)
    srv = sub.add_parser("serve", help="the web sandbox: build a board, see each seat's view")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on")
    srv.add_argument("--port", type=int, default=8000, help="port to listen on")
    srv.add_argument("--db", metavar="PATH", help="card database for card names and autocomplete")
    srv.add_argument(
        "--store",
        metavar="PATH",
        default="obverse-web.sqlite3",
        help="SQLite file the tables are kept in",
    )
    srv.set_defaults(func=cmd_serve)
    add_card_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``obverse`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run" and args.json and args.view is None:
        args.view = "spectator"
    if args.command == "run" and args.view is not None:
        args.json = True  # a view is always printed as JSON
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
