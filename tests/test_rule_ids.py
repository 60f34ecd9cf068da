"""Every rule id an MTG ruling cites exists in the Comprehensive Rules text of that ruleset
version: the rule-id tables, every scenario's cited ids and every ruling the scenarios
produce, checked against the shipped index of each text (src/obverse/data/rules/; the
newest and 2025-06 numbering against the text of September 2025; mtg@2020 and mtg@2008
only within the sections their seeds hold, see docs/decisions.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

import obverse.engine
import obverse.runner
from obverse.cli import iter_scenarios
from obverse.registry import get_ruleset
from obverse.rulesets.mtg import Magic
from obverse.rulesets.mtg import rules_ids as mtg_rules
from obverse.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "mtg"
RULE_ID = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")
#: The index per ruleset name, and the sections it covers (``None``: every section).
INDEXES = {
    "mtg": ("mtg-2025-09.txt", None),
    "mtg@2025-06": ("mtg-2025-09.txt", None),
    "mtg@2020": ("mtg-2020-seed.txt", {"711"}),
    "mtg@2008": ("mtg-2008-seed.txt", {"508"}),
}


def _index(name: str) -> set[str]:
    text = resources.files("obverse.data").joinpath("rules", name).read_text(encoding="utf-8")
    return {line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"}


def _unknown(alias: str, ids: set[str]) -> list[str]:
    name, sections = INDEXES[alias]
    known = _index(name)
    checked = {i for i in ids if RULE_ID.match(i)}
    if alias == "mtg@2025-06":  # merging was 728 before station cards (721) came in
        checked = {"729" + i[3:] if i.startswith("728.") else i for i in checked}
    if sections is not None:
        checked = {i for i in checked if i.split(".")[0] in sections}
    return sorted(checked - known)


def test_the_index_is_sorted_and_complete_enough() -> None:
    known = _index("mtg-2025-09.txt")
    assert len(known) > 3000
    # 730 is day and night in the current text (729 is merging with permanents).
    assert {"730.1", "730.1a", "729.1", "310.4b", "608.2n", "702.145b"} <= known
    assert "730.3" not in known


@pytest.mark.parametrize("alias", sorted(INDEXES))
def test_every_id_of_the_rule_tables_exists(alias: str) -> None:
    rs = get_ruleset(alias)
    assert isinstance(rs, Magic)
    assert not _unknown(alias, set(rs.rule_ids.values()))


def test_the_tables_know_day_and_night_at_730() -> None:
    assert mtg_rules.NEWEST["day_night"] == "730.1"
    assert "day_night" not in mtg_rules.V2020


def _scenarios() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in iter_scenarios([str(EXAMPLES)]):
        yield path, yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def test_every_id_the_scenarios_cite_exists() -> None:
    bad = []
    for path, data in _scenarios():
        head = str(data.get("title", "")).split(":")[0]
        ids = {p.strip() for p in head.split(",")}
        for step in data.get("steps", []):
            expect = step.get("expect") if isinstance(step, dict) else None
            if isinstance(expect, dict):
                ids |= {str(c) for c in expect.get("cites", [])}
        unknown = _unknown(data["ruleset"], ids)
        if unknown:
            bad.append((Path(path).name, unknown))
    assert not bad


def test_every_ruling_the_scenarios_produce_cites_an_existing_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each scenario run with the kernel's entry point wrapped: every ruling of every
    action and query, in each ruleset version's numbering."""
    cited: dict[str, set[str]] = {}
    real = obverse.engine.apply

    def traced(state: Any, action: Any, actor: Any = None, **kw: Any) -> Any:
        out = real(state, action, actor, **kw)
        cited.setdefault(state.ruleset, set()).update(r.rule for r in out.rulings)
        return out

    monkeypatch.setattr(obverse.runner, "apply", traced)
    for path, _ in _scenarios():
        run_scenario(path)
    assert {"mtg", "mtg@2025-06", "mtg@2020", "mtg@2008"} <= {get_ruleset(a).name for a in cited}
    bad = {alias: _unknown(get_ruleset(alias).name, ids) for alias, ids in cited.items()}
    assert not any(bad.values()), bad
