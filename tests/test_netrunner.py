"""The fifth game, Netrunner, is a plug-in outside the obverse package (``plugins/netrunner``):
it registers through a real ``obverse.rulesets`` entry point, its scenarios cite the Netrunner
Comprehensive Rules and pass, it passes the conformance kit, the Runner's view of twin
scenarios that differ only in a facedown Corp card is byte-identical, and nothing in ``src/``
names it."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from obverse_netrunner import Expose, Install, Netrunner, Rez

from obverse import engine, registry
from obverse.rulesets import Ruleset
from obverse.runner import run_scenario, scenario_view
from obverse.state import new_state
from obverse.testing import assert_conforms

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugins" / "netrunner"
EXAMPLES = sorted((PLUGIN / "examples").glob("*.yaml"))


@pytest.fixture
def netrunner(register: Callable[[type[Ruleset]], Ruleset]) -> Ruleset:
    return register(Netrunner)


def _installed(site: Path) -> None:
    """The plug-in as pip leaves it installed: its distribution's entry point (the package
    itself is importable from ``plugins/netrunner/src``)."""
    info = site / "obverse_netrunner-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: obverse-netrunner\nVersion: 0.1.0\n", encoding="utf-8"
    )
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    entry = project["entry-points"][registry.GROUP]["netrunner"]
    (info / "entry_points.txt").write_text(
        f"[{registry.GROUP}]\nnetrunner = {entry}\n", encoding="utf-8"
    )


def test_the_entry_point_registers_netrunner_and_its_scenarios_pass(tmp_path: Path) -> None:
    _installed(tmp_path)
    paths = [str(tmp_path), str(PLUGIN / "src"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    code = "import sys; from obverse.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, "run", str(PLUGIN / "examples")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(EXAMPLES)} passed, 0 failed" in done.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_scenario_passes(netrunner: Ruleset, path: Path) -> None:
    result = run_scenario(path)
    assert result.status == "PASS", "\n".join([result.line(), *map(str, result.failures)])


def test_every_scenario_cites_an_indexed_rule_and_every_indexed_rule_is_cited() -> None:
    index = {str(e["rule"]) for e in yaml.safe_load((PLUGIN / "coverage.yaml").read_text())}
    cited: set[str] = set()
    for path in EXAMPLES:
        title = str(yaml.safe_load(path.read_text(encoding="utf-8"))["title"])
        cited |= {part.strip() for part in title.split(":")[0].split(",")}
    assert cited == index


def test_netrunner_conforms(netrunner: Ruleset) -> None:
    assert_conforms("netrunner", histories=12, steps=30)


def test_twin_scenarios_look_the_same_to_the_runner(netrunner: Ruleset) -> None:
    a, b = (run_scenario(PLUGIN / "examples" / f"900-twin-{x}.yaml") for x in "ab")
    assert a.status == b.status == "PASS"
    assert scenario_view(a, "runner") == scenario_view(b, "runner")
    assert scenario_view(a, "corp") != scenario_view(b, "corp")  # the Corp sees its card


def test_refusals_and_offers_say_nothing_of_the_facedown_card(netrunner: Ruleset) -> None:
    """The Runner's attempt to rez, and the offers the Runner gets, are the same whether the
    Corp's facedown card is an agenda or an asset."""
    outcomes, offers = [], []
    for name in ("Hostile Takeover", "PAD Campaign"):
        result = run_scenario(PLUGIN / "examples" / "001-corp-installs-facedown-unrezzed.yaml")
        assert result.state is not None
        state = result.state
        card = next(c for c in Netrunner.sample_cards() if c.name == name)
        state, _ = netrunner.add_card(state, card, "play_area", owner="corp", face_down=True)
        new = max(state.objects)
        out = engine.apply(state, Rez(object=new), "runner")
        outcomes.append((out.result, [str(r) for r in out.rulings]))
        offers.append(sorted(str(x.action) for x in engine.legal_actions(state, "runner")))
    assert (
        outcomes[0] == outcomes[1] == ("illegal", ["8.1.2a: only the card's controller may rez it"])
    )
    assert offers[0] == offers[1]


def test_the_corp_rezzes_an_asset_but_not_an_agenda(netrunner: Ruleset) -> None:
    cards = {c.name: c for c in Netrunner.sample_cards()}
    state = new_state("netrunner", ("corp", "runner"))
    for name in ("PAD Campaign", "Project Atlas"):
        state, _ = netrunner.add_card(state, cards[name], "hq", owner="corp")
    for oid in sorted(state.objects):
        state = engine.apply(state, Install(object=oid), "corp").state
    pad, atlas = sorted(o.id for o in state.objects.values() if o.zone == "play_area")
    assert state.objects[pad].face_down and state.objects[atlas].face_down  # 8.2.1
    assert engine.apply(state, Rez(object=pad), "corp").result == "done"
    assert engine.apply(state, Rez(object=atlas), "corp").result == "nothing_happened"
    assert engine.apply(state, Expose(object=atlas), "runner").result == "done"


def test_nothing_in_src_names_the_fifth_game() -> None:
    for path in (ROOT / "src").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".yaml", ".json", ".html", ".js", ".md"):
            assert "netrunner" not in path.read_text(encoding="utf-8").casefold(), path
