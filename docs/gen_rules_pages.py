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


#: MTG sections by rule number (the Comprehensive Rules' headings; 508 and 711 hold the
#: older numberings the versioned rulesets cite).
MTG_SECTIONS = {
    "105": "Colors",
    "112": "Spells",
    "116": "Special Actions",
    "122": "Counters",
    "201": "Name",
    "202": "Mana Cost and Color",
    "304": "Instants",
    "305": "Lands",
    "307": "Sorceries",
    "400": "Zones: General",
    "508": "Flip cards (mtg@2008 numbering)",
    "608": "Resolving Spells and Abilities",
    "611": "Continuous Effects",
    "613": "Interaction of Continuous Effects",
    "701": "Keyword Actions",
    "702": "Keyword Abilities",
    "704": "State-Based Actions",
    "706": "Rolling a Die",
    "707": "Copying Objects",
    "708": "Face-Down Spells and Permanents",
    "709": "Split Cards",
    "710": "Flip Cards",
    "711": "Double-Faced Cards (mtg@2020 numbering)",
    "712": "Double-Faced Cards",
    "715": "Adventurer Cards",
    "718": "Prototype Cards",
    "720": "Omen Cards",
}


def section_of(game: str, rule: str) -> str:
    """The section a rule's page is: MTG's rule number (``712`` of ``712.8e``), another
    numbered game's first number (FaB ``9`` of ``9.1.3b``), a named rule's words (GA
    ``Double-faced Cards`` of ``Double-faced Cards 4.1``); ids with no number share one."""
    numbered = re.match(r"^(\d+)", rule)
    if numbered:
        return numbered.group(1)
    words = re.match(r"^(\D*?)\s*\d", rule)
    return words.group(1).strip() if words and words.group(1).strip() else "general"


def anchor(rule: str) -> str:
    """The rule's anchor: its id, spaces as hyphens (``712.8e``, ``Double-faced-Cards-1``)."""
    return re.sub(r"\s+", "-", rule.strip())


def slug(section: str) -> str:
    """A section's page name: ``712``, ``double-faced-cards``."""
    return re.sub(r"[^\w]+", "-", section.lower()).strip("-") or "general"


def section_title(game: str, section: str) -> str:
    """A section's heading."""
    if game == "mtg" and section in MTG_SECTIONS:
        return f"{section}. {MTG_SECTIONS[section]}"
    if section.isdigit():
        return f"Section {section}"
    return "Other rules" if section == "general" else section


def sections(page: GamePage) -> dict[str, list[tuple[str, str]]]:
    """The indexed rules by section, sections in index order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for rule, text in page.rules:
        out.setdefault(section_of(page.game, rule), []).append((rule, text))
    return out


def render(page: GamePage) -> str:
    """The game's page: every indexed rule, one anchored line each (``#712.8e``), linking to
    its section's page; then the ids cited but not indexed."""
    name = GAME_NAMES.get(page.game, page.game)
    exercised = sum(1 for rule, _ in page.rules if page.cited_by.get(rule))
    lines = [
        f"# {name} — rules and scenarios",
        "",
        f"Generated at build time from `tests/coverage/{page.game}.yaml` and "
        f"`examples/{page.game}/`: {len(page.rules)} indexed rules, {exercised} of them "
        f"exercised, {page.scenarios} scenario files. A scenario exercises a rule when its "
        "title starts with the rule id or one of its `expect` steps `cites:` it. Run one with "
        "`obverse run FILE --explain`. Link a rule as `#<id>` on this page "
        "(`#712.8e`): each one below links on to its section's page, with its scenarios.",
        "",
    ]
    for section, rules in sections(page).items():
        link = f"{slug(section)}.md"
        lines += [f"## [{_cell(section_title(page.game, section))}]({link})", ""]
        for rule, text in rules:
            n = len(page.cited_by.get(rule, []))
            count = f"{n} scenario{'s' if n != 1 else ''}" if n else "*no scenario*"
            lines.append(
                f'- <a id="{html.escape(anchor(rule))}"></a>[**{_cell(rule)}**]'
                f"({link}#{anchor(rule)}) {_cell(text)} ({count})"
            )
        lines.append("")
    if page.unindexed:
        lines += [
            "## Cited, but not in the index",
            "",
            "Ids that scenario titles or `cites:` name but the coverage index does not list "
            "(the tests do not require a scenario for these).",
            "",
            "| Id | Scenarios |",
            "| --- | --- |",
        ]
        for r in page.unindexed:
            cell = _scenarios_cell(page, r, "../../")
            lines.append(f'| <a id="{html.escape(anchor(r))}"></a>{_cell(r)} | {cell} |')
    return "\n".join(lines) + "\n"


def render_section(page: GamePage, section: str, rules: list[tuple[str, str]]) -> str:
    """One section's page: each rule anchored by its id, its text and its scenarios, each
    scenario a link to its own page."""
    name = GAME_NAMES.get(page.game, page.game)
    lines = [
        f"# {section_title(page.game, section)}",
        "",
        f"{name}: {len(rules)} indexed rules of this section, with the scenarios that "
        f"exercise them ([all {name} rules](index.md)).",
        "",
        "| Rule | Text | Scenarios |",
        "| --- | --- | --- |",
    ]
    for rule, text in rules:
        lines.append(
            f'| <a id="{html.escape(anchor(rule))}"></a>{_cell(rule)} | {_cell(text)} | '
            f"{_scenarios_cell(page, rule, '../../')} |"
        )
    return "\n".join(lines) + "\n"


def scenario_page(root: Path, path: str, title: str, cites: list[str]) -> str:
    """A scenario file's page: its title, how to run it, the rules it cites and the file."""
    text = (root / path).read_text(encoding="utf-8")
    fence = "````" if "```" in text else "```"
    lines = [f"# {_cell(title or path)}", "", f"`{path}`", "", "Run it with its rulings:", ""]
    lines += ["```sh", f"obverse run {path} --explain", "```", ""]
    if cites:
        lines += ["Cites: " + ", ".join(cites), ""]
    lines += [f"{fence}yaml", text.rstrip("\n"), fence]
    return "\n".join(lines) + "\n"


def _scenarios_cell(page: GamePage, rule: str, up: str = "") -> str:
    scenarios = page.cited_by.get(rule, [])
    cell = "<br>".join(
        f"[`{s.path}`]({up}{s.path}.md)" + (f" — {_cell(s.title)}" if s.title else "")
        for s in scenarios
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
        counts = f"{len(page.rules)} | {exercised} | {page.scenarios}"
        lines.append(f"| [{name}]({page.game}/index.md) | {counts} |")
    return "\n".join(lines) + "\n"


def render_all(root: Path = ROOT) -> dict[str, str]:
    """Every generated page keyed by its path under ``docs/``: ``rules/index.md``, each
    game's ``rules/<game>/index.md`` and its sections' ``rules/<game>/<section>.md``, and a
    page per scenario file ``examples/<game>/<file>.md``."""
    collected = [collect(root, game) for game in games(root)]
    pages = {"rules/index.md": render_index(collected)}
    for page in collected:
        pages[f"rules/{page.game}/index.md"] = render(page)
        for section, rules in sections(page).items():
            pages[f"rules/{page.game}/{slug(section)}.md"] = render_section(page, section, rules)
        cites: dict[str, tuple[str, list[str]]] = {}
        for rule, scenarios in page.cited_by.items():
            for sc in scenarios:
                cites.setdefault(sc.path, (sc.title, []))[1].append(rule)
        for path, (title, ids) in sorted(cites.items()):
            pages[f"{path}.md"] = scenario_page(root, path, title, sorted(ids, key=_natural))
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
