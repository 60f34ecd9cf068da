"""Generate one Markdown page per game: every indexed rule id and the scenarios that exercise it.

Inputs (relative to the repository root):

- ``tests/coverage/<game>.yaml``: the game's rule index, a list of ``{rule, text}`` mappings;
- ``examples/<game>/**/*.yaml``: scenarios. A scenario cites a rule in its title (the ids before
  the first ``:``, comma-separated, as ``tests/test_examples.py`` reads them) or in any
  ``cites:`` list of its steps.

The mkdocs hook (``docs/hooks.py``) calls :func:`render_all` at every build, so the pages never
go stale. Run by hand, ``python docs/gen_rules_pages.py OUT_DIR`` writes the pages to OUT_DIR.
Bad input raises :class:`GenError` with the file, the place and the key.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent

#: Display names of the games; a game not listed here is titled by its directory name.
GAME_NAMES = {
    "mtg": "Magic: The Gathering",
    "fab": "Flesh and Blood",
    "ga": "Grand Archive",
    "scp": "SCP-TCG-JP-J",
}

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")

#: The safe loader, in C where PyYAML was built with libyaml (several times faster).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class GenError(Exception):
    """Bad input: the message names the file, the place and the key."""


@dataclass(frozen=True)
class Scenario:
    """One scenario file: its path relative to the repository root and its title."""

    path: str
    title: str


@dataclass
class GamePage:
    """What one game's page lists: the index in file order and who cites each rule."""

    game: str
    rules: list[tuple[str, str]]
    cited_by: dict[str, list[Scenario]] = field(default_factory=dict)
    unindexed: list[str] = field(default_factory=list)
    scenarios: int = 0


def _load_yaml(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "top level"
        raise GenError(f"{path}: {where}: not valid YAML") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GenError(f"{path}: top level: cannot read ({exc})") from None


def load_index(path: Path) -> list[tuple[str, str]]:
    """The rule index at ``path`` as ``(rule id, text)`` pairs, in file order."""
    data = _load_yaml(path)
    if not isinstance(data, list) or not data:
        raise GenError(f"{path}: top level: expected a non-empty list of {{rule, text}}")
    rules: list[tuple[str, str]] = []
    for number, entry in enumerate(data, start=1):
        if not isinstance(entry, dict):
            raise GenError(f"{path}: entry {number}: expected a mapping with key 'rule'")
        unknown = sorted(set(entry) - {"rule", "text"})
        if unknown:
            raise GenError(f"{path}: entry {number}: unknown key {unknown[0]!r}")
        if entry.get("rule") in (None, ""):
            raise GenError(f"{path}: entry {number}: missing key 'rule'")
        rules.append((str(entry["rule"]), str(entry.get("text") or "")))
    return rules


def _cites_in(value: Any) -> Iterator[str]:
    """Every id under a ``cites`` key anywhere in ``value`` (steps nest expectations)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "cites" and isinstance(item, list):
                yield from (str(c) for c in item)
            else:
                yield from _cites_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cites_in(item)


def scenario_citations(path: Path) -> tuple[str, set[str]]:
    """The scenario's title and the rule ids it cites (title head and ``cites:`` lists)."""
    data = _load_yaml(path)
    if not isinstance(data, dict):
        raise GenError(f"{path}: top level: expected a mapping")
    title = str(data.get("title") or "")
    cited = set(_cites_in(data.get("steps", [])))
    if ":" in title:
        cited.update(part.strip() for part in title.split(":")[0].split(","))
    return title, cited


def _scenario_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix in SCENARIO_SUFFIXES)


def collect(root: Path, game: str) -> GamePage:
    """Read ``game``'s index and scenarios under ``root``."""
    page = GamePage(game, load_index(root / "tests" / "coverage" / f"{game}.yaml"))
    indexed = {rule for rule, _ in page.rules}
    for path in _scenario_files(root / "examples" / game):
        title, cited = scenario_citations(path)
        page.scenarios += 1
        scenario = Scenario(path.relative_to(root).as_posix(), title)
        for rule in cited:
            page.cited_by.setdefault(rule, []).append(scenario)
    page.unindexed = sorted(set(page.cited_by) - indexed, key=_natural)
    return page


def _natural(rule: str) -> list[tuple[int, str]]:
    """Sort key: ``712.9`` before ``712.10``, text after numbers."""
    return [(0, f"{int(p):09d}") if p.isdigit() else (1, p) for p in re.split(r"(\d+)", rule)]


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell: no HTML, no emphasis, no column breaks."""
    text = html.escape(text, quote=False).replace("|", "&#124;")
    return re.sub(r"([\\`*_\[\]])", r"\\\1", text)


def render(page: GamePage) -> str:
    """The Markdown page for one game."""
    name = GAME_NAMES.get(page.game, page.game)
    exercised = sum(1 for rule, _ in page.rules if page.cited_by.get(rule))
    lines = [
        f"# {name} — rules and scenarios",
        "",
        f"Generated at build time from `tests/coverage/{page.game}.yaml` and "
        f"`examples/{page.game}/`: {len(page.rules)} indexed rules, {exercised} of them "
        f"exercised, {page.scenarios} scenario files. A scenario exercises a rule when its "
        "title starts with the rule id or one of its `expect` steps `cites:` it. Run one with "
        "`obverse run FILE --explain`.",
        "",
        "| Rule | Text | Scenarios |",
        "| --- | --- | --- |",
    ]
    for rule, text in page.rules:
        lines.append(f"| {_cell(rule)} | {_cell(text)} | {_scenarios_cell(page, rule)} |")
    if page.unindexed:
        lines += [
            "",
            "## Cited, but not in the index",
            "",
            "Ids that scenario titles or `cites:` name but the coverage index does not list "
            "(the tests do not require a scenario for these).",
            "",
            "| Id | Scenarios |",
            "| --- | --- |",
        ]
        lines += [f"| {_cell(r)} | {_scenarios_cell(page, r)} |" for r in page.unindexed]
    return "\n".join(lines) + "\n"


def _scenarios_cell(page: GamePage, rule: str) -> str:
    scenarios = page.cited_by.get(rule, [])
    cell = "<br>".join(
        f"`{s.path}`" + (f" — {_cell(s.title)}" if s.title else "") for s in scenarios
    )
    return cell or "*none*"


def games(root: Path) -> list[str]:
    """Games that have both a coverage index and an examples directory: those of
    :data:`GAME_NAMES` in its order, then any other alphabetically."""
    indexed = {p.stem for p in (root / "tests" / "coverage").glob("*.yaml")}
    order = list(GAME_NAMES)
    found = [g for g in indexed if (root / "examples" / g).is_dir()]
    return sorted(found, key=lambda g: (order.index(g) if g in order else len(order), g))


def render_index(pages: list[GamePage]) -> str:
    """The overview page: one row per game, linking to its page."""
    lines = [
        "# Rules by game",
        "",
        "Each game's page lists every rule id of its coverage index (`tests/coverage/<game>.yaml`)"
        " with the scenarios under `examples/<game>/` that exercise it. The test suite requires"
        " at least one scenario per indexed rule; these pages are generated at every build.",
        "",
        "| Game | Indexed rules | Exercised | Scenario files |",
        "| --- | --- | --- | --- |",
    ]
    for page in pages:
        exercised = sum(1 for rule, _ in page.rules if page.cited_by.get(rule))
        name = GAME_NAMES.get(page.game, page.game)
        lines.append(
            f"| [{name}]({page.game}.md) | {len(page.rules)} | {exercised} | {page.scenarios} |"
        )
    return "\n".join(lines) + "\n"


def render_all(root: Path = ROOT) -> dict[str, str]:
    """Every generated page keyed by its path under ``docs/``: ``rules/index.md`` and
    ``rules/<game>.md``."""
    collected = [collect(root, game) for game in games(root)]
    pages = {"rules/index.md": render_index(collected)}
    pages.update({f"rules/{page.game}.md": render(page) for page in collected})
    return pages


def main(argv: list[str]) -> int:
    """Write the pages under the directory given as the only argument."""
    if len(argv) != 1:
        print("usage: gen_rules_pages.py OUT_DIR", file=sys.stderr)
        return 2
    try:
        pages = render_all()
    except GenError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for rel, text in pages.items():
        out = Path(argv[0]) / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
