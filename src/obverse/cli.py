"""The ``obverse`` command line: ``obverse run FILE|DIR ... [--explain] [--view P --json]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from obverse.scenario import Result, run_scenario, scenario_view

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


def iter_scenarios(paths: Sequence[str]) -> Iterator[str]:
    """Files named, and a directory's ``*.yaml``, ``*.yml``, ``*.json`` recursively, sorted."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(str(f) for f in p.rglob("*")
                           if f.is_file() and f.suffix in SCENARIO_SUFFIXES)
            yield from found
        else:
            yield raw


def cmd_run(args: argparse.Namespace) -> int:
    """Run scenario files; exit 0 all passed, 1 some failed, 2 some errored."""
    results: list[Result] = []
    out = sys.stdout
    report = sys.stderr if args.json else sys.stdout
    files = list(iter_scenarios(args.paths))
    if not files:
        print("obverse run: no scenario files found", file=sys.stderr)
        return 2
    for path in files:
        result = run_scenario(path, explain=args.explain)
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (documents the CLI)."""
    parser = argparse.ArgumentParser(prog="obverse", description="A rules kernel for "
                                     "multi-faced trading-card-game cards.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run scenario files and check their expectations")
    run.add_argument("paths", nargs="+", metavar="FILE|DIR")
    run.add_argument("--explain", action="store_true",
                     help="print each action's rulings (rule id and reason)")
    run.add_argument("--view", metavar="PLAYER",
                     help="with --json: print PLAYER's view of the final state")
    run.add_argument("--json", action="store_true", help="print the view as JSON on stdout")
    run.set_defaults(func=cmd_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``obverse`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run" and args.json and args.view is None:
        args.view = "spectator"
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
