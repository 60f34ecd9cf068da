"""Every scenario under examples/ runs through the runner and passes (the conformance suite),
and every rule in each game's coverage index is cited by at least one scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from obverse.cli import iter_scenarios
from obverse.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
COVERAGE = Path(__file__).resolve().parent / "coverage"
FILES = list(iter_scenarios([str(EXAMPLES)]))


def test_examples_exist() -> None:
    games = {Path(f).relative_to(EXAMPLES).parts[0] for f in FILES}
    assert {"mtg", "fab", "ga", "scp"} <= games


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(EXAMPLES)))
def test_example_passes(path: str) -> None:
    result = run_scenario(path)
    detail = "\n".join([result.line(), *map(str, result.failures)])
    assert result.status == "PASS", detail


def _cited(game: str) -> set[str]:
    cited: set[str] = set()
    for path in (EXAMPLES / game).rglob("*.y*ml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        title = str(data.get("title", ""))
        head = title.split(":")[0]
        cited.update(part.strip() for part in head.split(","))
        for step in data.get("steps", []):
            expect = step.get("expect") if isinstance(step, dict) else None
            if isinstance(expect, dict):
                cited.update(str(c) for c in expect.get("cites", []))
    return cited


@pytest.mark.parametrize("index", sorted(COVERAGE.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_indexed_rule_is_exercised(index: Path) -> None:
    rules = [str(entry["rule"]) for entry in yaml.safe_load(index.read_text(encoding="utf-8"))]
    assert rules
    cited = _cited(index.stem)
    missing = [r for r in rules if r not in cited]
    assert not missing, f"rules without a scenario: {missing}"
