"""The ``obverse`` command line: ``obverse run FILE|DIR ... [--explain] [--view P --json]
[--db PATH]``, ``obverse import mtg|fab|ga PATH...``, ``obverse card NAME``."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, NoReturn

from obverse import __version__, bench, bench_node, completion, engine
from obverse.bench import SIZES as BENCH_SIZES
from obverse.cardcli import add_card_commands, scenario_lookup
from obverse.cards import CardDef
from obverse.console import Progress, paint, plural, status_line
from obverse.errors import ObverseError, suggest
from obverse.fuzz import fuzz
from obverse.runner import Result, run_scenario
from obverse.schema import scenario_schema
from obverse.views import view

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
    """Run scenario files; exit 0 all passed, 1 some failed, 2 some errored or bad input."""
    if args.db is not None and not Path(args.db).is_file():
        print(f"obverse run: --db: {args.db}: no such card database", file=sys.stderr)
        return 2
    files = list(iter_scenarios(args.paths))
    if not files:
        print("obverse run: no scenario files found", file=sys.stderr)
        return 2
    results: list[Result] = []
    for path in files:
        result = run_scenario(path, explain=args.explain, extra_cards=_db_lookup(args, path))
        results.append(result)
        if not args.json:
            _print_result(result, args.explain)
        elif (code := _print_record(result, args)) != 0:
            return code
    passed = sum(r.status == "PASS" for r in results)
    failed = sum(r.status == "FAIL" for r in results)
    errors = sum(r.status == "ERROR" for r in results)
    # With --json, stdout carries only the JSON Lines; the summary goes to stderr.
    out = sys.stderr if args.json else sys.stdout
    if not args.json and (failed or errors) and len(results) > 1:
        _print_recap(results)
    summary = f"{passed} passed, {failed} failed" + (
        f", {plural(errors, 'error')}" if errors else ""
    )
    print(paint(summary, "red" if failed or errors else "green", out), file=out)
    return 2 if errors else 1 if failed else 0


def _print_result(result: Result, explain: bool) -> None:
    """The human report of one scenario: its line, the rulings if asked (the steps in
    order), then each failure with the rulings that decided its value."""
    print(status_line(result.line()))
    if explain:
        for line in result.log:
            print(line)
    for failure in result.failures:
        print(str(failure))


def _print_recap(results: list[Result]) -> None:
    """The scenarios that failed or errored again, after all the others: one line each, so
    a failure among hundreds of passes can't scroll away."""
    bad = [r for r in results if r.status != "PASS"]
    print(paint(f"\n{plural(len(bad), 'scenario')} did not pass:", "bold"))
    for r in bad:
        print(f"  {status_line(r.line())}" + (f" ({r.path})" if r.path != r.title else ""))


def _print_record(result: Result, args: argparse.Namespace) -> int:
    """Print one scenario's JSON Lines record; 2 (after a message) if --view names no player."""
    viewer = None if args.view in (None, "spectator") else args.view
    record: dict[str, Any] = {
        "file": result.path,
        "title": result.title,
        "result": result.status,
        "failures": [
            {
                "step": f.step,
                "key": f.key,
                "expected": f.expected,
                "actual": f.actual,
                "why": [str(r) for r in f.why],
            }
            for f in result.failures
        ],
        "error": None,
    }
    if result.error is not None:
        err = result.error
        record["error"] = {"place": err.place, "key": err.key, "message": err.message}
    if args.explain:
        record["explain"] = result.log
    if args.view is not None:
        state = result.state if result.status != "ERROR" else None
        if state is not None and viewer is not None and viewer not in state.players:
            print(f"obverse run: {result.path}: --view: unknown player {viewer!r}", file=sys.stderr)
            return 2
        record["view"] = None if state is None else view(state, viewer)
    # Canonical JSON (sorted keys, no spaces): equal views are equal bytes.
    print(
        json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    )
    return 0


def _db_lookup(args: argparse.Namespace, path: str) -> Callable[[str], CardDef | None] | None:
    """The card database lookup for one scenario file's game (None without a database)."""
    return scenario_lookup(args, path)


def cmd_bench(args: argparse.Namespace) -> int:
    """Print each benchmark figure beside its floor."""
    try:
        sizes = bench.parse_sizes(args.sizes)
        node_sizes = bench_node.parse_node_sizes(args.node_sizes)
    except ValueError as exc:
        print(f"obverse bench: {exc}", file=sys.stderr)
        return 2
    if not bench_node.chess_available():
        print(f"obverse bench: {bench_node.MISSING}", file=sys.stderr)
    # A bar per phase on a terminal (a full run takes minutes and prints only at the end).
    with Progress("benchmarking", bench.PHASES + 1) as bar:
        figures = bench.run(args.quick, sizes, lambda phase: bar.advance(1, phase))
        bar.advance(1, "the search-node figures (python-chess beside)")
        figures += bench_node.run(node_sizes, quick=args.quick)
    print(bench.report(figures, args.json))
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Fuzz a ruleset; exit 1 and write replayable scenarios if anything broke."""
    if args.histories < 1 or args.workers < 1 or args.steps < 1:
        print(
            "obverse fuzz: --histories, --workers and --steps must be at least 1", file=sys.stderr
        )
        return 2
    bar = Progress(f"fuzzing {args.ruleset}", args.histories)
    try:
        with bar:
            rep = fuzz(
                args.ruleset,
                args.histories,
                workers=args.workers,
                ray_address=args.ray,
                steps=args.steps,
                seed=args.seed,
                progress=lambda done: bar.advance(done - bar.done, "histories"),
            )
    except ObverseError as exc:
        print(f"obverse fuzz: {exc}", file=sys.stderr)
        return 2
    print(
        f"{rep.ruleset}: {rep.histories} histories (+{rep.histories} twins), {rep.steps} "
        f"actions in {rep.seconds:.2f} s: {rep.rate:.1f} histories/s, "
        f"{rep.steps / rep.seconds if rep.seconds else 0:.0f} actions/s"
    )
    if rep.scale_line():
        print(rep.scale_line())
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
    serve(args.host, args.port, args.db, args.store, tuple(args.allowed_host or ()))
    return 0


#: What each command's exit code means (shown in ``--help``).
EXIT_CODES = {
    "run": "0 all passed, 1 some failed, 2 some errored or bad input",
    "import": "0 every record imported, 1 some records skipped, 2 nothing imported or bad input",
    "card": "0 shown, 1 no card has that name (suggestions on stderr), 2 bad input",
    "bench": "0 (the figures are measurements, not pass or fail)",
    "fuzz": "0 no counterexample, 1 counterexamples written, 2 bad input",
    "serve": "0 stopped, 2 the web extra is not installed",
    "schema": "0 printed, 2 unknown ruleset",
    "completion": "0 printed",
}


def _version() -> str:
    """The installed distribution's version (the package's own when not installed)."""
    try:
        return metadata.version("obverse")
    except metadata.PackageNotFoundError:
        return __version__


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows each option's default (unless it is None or False) and keeps the epilog's lines."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or "default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose subcommands show their defaults too, and whose errors
    suggest the closest subcommand, option or choice to a mistyped one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.words: list[str] = []  # the arguments being parsed (to find the subcommand)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        super().error(message + self._hint(message))

    def _hint(self, message: str) -> str:
        """`` (did you mean '...'?)`` for a mistyped choice or option, else ``""``."""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            return suggest(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown and unknown.group(1).startswith("-"):
            return suggest(unknown.group(1).split("=")[0], self._options())
        return ""

    def _options(self) -> list[str]:
        """The option strings of this parser and of the subcommand named in the arguments."""
        parsers: list[argparse.ArgumentParser] = [self]
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += [p for name, p in action.choices.items() if name in self.words]
        return [o for p in parsers for a in p._actions for o in a.option_strings]


def _epilog(commands: list[str]) -> str:
    lines = [f"  {c:<7} {EXIT_CODES[c]}" for c in commands if c in EXIT_CODES]
    return "exit codes:\n" + "\n".join(lines) + "\n  any     2 bad arguments, 130 interrupted"


def _add_run(sub: Any) -> None:
    """Add ``run`` to the CLI's subcommands."""
    run = sub.add_parser("run", help="run scenario files and check their expectations")
    run.add_argument(
        "paths", nargs="+", metavar="FILE|DIR", help="scenario files, or directories to search"
    )
    run.add_argument(
        "--explain", action="store_true", help="print each action's rulings (rule id and reason)"
    )
    run.add_argument(
        "--view",
        metavar="PLAYER",
        help="add PLAYER's view of the final state to each JSON record ('spectator': a "
        "spectator's); implies --json",
    )
    run.add_argument(
        "--json",
        action="store_true",
        help="print one JSON record per scenario on stdout (JSON Lines), the summary on stderr",
    )
    run.add_argument(
        "--db",
        metavar="PATH",
        help="card database to resolve card names from "
        "(default: the user's data directory, if it exists)",
    )
    run.set_defaults(func=cmd_run)


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the scenario-file schema, or with ``--actions`` the typed actions' schema."""
    try:
        doc = engine.schema(args.ruleset) if args.actions else scenario_schema(args.ruleset)
    except ObverseError as exc:
        print(f"obverse schema: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(doc, indent=2, ensure_ascii=False))
    return 0


def _add_schema(sub: Any) -> None:
    """Add ``schema`` to the CLI's subcommands."""
    sch = sub.add_parser("schema", help="print the JSON Schema of scenario files")
    sch.add_argument("--ruleset", metavar="ALIAS", help="only this ruleset's verbs")
    sch.add_argument(
        "--actions", action="store_true", help="the typed actions' schema (engine.schema) instead"
    )
    sch.set_defaults(func=cmd_schema)


def cmd_completion(args: argparse.Namespace) -> int:
    """Print the shell completion script for ``args.shell``."""
    print(completion.script(build_parser(), args.shell), end="")
    return 0


def _add_completion(sub: Any) -> None:
    """Add ``completion`` to the CLI's subcommands."""
    comp = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description='Enable with: eval "$(obverse completion bash)" in ~/.bashrc (zsh the '
        "same with zsh), or obverse completion fish > ~/.config/fish/completions/obverse.fish",
    )
    comp.add_argument("shell", choices=completion.SHELLS)
    comp.set_defaults(func=cmd_completion)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (documents the CLI)."""
    parser = _Parser(
        prog="obverse",
        description="A rules kernel for multi-faced trading-card-game cards.",
        epilog=_epilog(list(EXIT_CODES)),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_run(sub)
    bench = sub.add_parser("bench", help="measure the kernel against plain-Python floors")
    bench.add_argument("--quick", action="store_true", help="shorter rounds")
    bench.add_argument("--json", action="store_true", help="one JSON object per figure")
    bench.add_argument(
        "--sizes",
        default=",".join(map(str, BENCH_SIZES)),
        help="object counts for the size-dependent figures (default: %(default)s)",
    )
    bench.add_argument(
        "--node-sizes",
        default=",".join(map(str, bench_node.NODE_SIZES)),
        help="numbers of permanents the search-node figures list offers at: the growth goal "
        "compares the second with the first (default: %(default)s)",
    )
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
    srv.add_argument(
        "--db",
        metavar="PATH",
        help="card database for card names and autocomplete "
        "(default: $OBVERSE_DB or the user's data directory, if it exists)",
    )
    srv.add_argument(
        "--tables",
        "--store",
        dest="store",
        metavar="PATH",
        help="SQLite file the tables are kept in "
        "(default: $XDG_DATA_HOME/obverse/tables.sqlite3, ~/.local/share/obverse/...)",
    )
    srv.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="a host name the sandbox answers besides loopback (localhost, 127.0.0.1, ::1) "
        "and --host; repeatable. Requests naming any other Host get 421 (DNS rebinding)",
    )
    srv.set_defaults(func=cmd_serve)
    add_card_commands(sub)
    _add_schema(sub)
    _add_completion(sub)
    for name, command in sub.choices.items():
        command.epilog = _epilog([name])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``obverse`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
