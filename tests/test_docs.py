"""The documentation site builds in strict mode, its generated rules pages list the scenarios
that exercise each rule, and the tutorial's code and scenario run as written."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from obverse.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TUTORIAL = DOCS / "tutorial.md"
HAS_MKDOCS = importlib.util.find_spec("mkdocs") is not None
needs_mkdocs = pytest.mark.skipif(
    not HAS_MKDOCS, reason="mkdocs is not installed (pip install -e '.[docs]')"
)


def _load(name: str) -> ModuleType:
    """A module from docs/ (they are build scripts, not part of the package)."""
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


gen = _load("gen_rules_pages")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with ``mkdocs build --strict`` into a temporary directory."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's banner, not a problem
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _row(html: str, rule: str) -> str:
    """The table row of a rules page whose first cell is ``rule`` (after its anchor)."""
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        first = re.search(r"<td>(.*?)</td>", row, re.S)
        if first is not None and re.sub(r"<a id=[^>]*></a>", "", first.group(1)).strip() == rule:
            return str(row)
    raise AssertionError(f"no row for {rule}")


@needs_mkdocs
def test_rules_page_lists_the_scenarios_of_a_rule(site: Path) -> None:
    page = (site / "rules" / "mtg" / "712" / "index.html").read_text(encoding="utf-8")
    row = _row(page, "712.18")
    assert "examples/mtg/025-village-ironsmith-effect-continues.yaml" in row
    assert "Village Ironsmith gets +2/+2" in row  # the scenario's title
    assert "examples/mtg/001-delver-transforms-same-object.yaml" in row
    # each scenario is a link to its own page, which shows the file and how to run it
    link = 'href="../../../examples/mtg/025-village-ironsmith-effect-continues.yaml/"'
    assert link in row
    scenario = site / "examples" / "mtg" / "025-village-ironsmith-effect-continues.yaml"
    shown = (scenario / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", shown)  # the code blocks' highlighting split into spans
    assert "obverse run examples/mtg/025-village-ironsmith-effect-continues.yaml" in text
    assert "apply_effect" in text


@needs_mkdocs
def test_every_rule_has_an_anchor_a_judge_can_link(site: Path) -> None:
    game = (site / "rules" / "mtg" / "index.html").read_text(encoding="utf-8")
    section = (site / "rules" / "mtg" / "712" / "index.html").read_text(encoding="utf-8")
    for rule, _ in gen.load_index(ROOT / "tests" / "coverage" / "mtg.yaml"):
        assert f'id="{rule}"' in game, rule  # .../rules/mtg/#712.8e
    assert 'id="712.8e"' in section and 'href="712/#712.8e"' in game
    ga = (site / "rules" / "ga" / "index.html").read_text(encoding="utf-8")
    assert 'id="Double-faced-Cards-4.1"' in ga
    # the page a rule id lands on is a section's, not one table of every rule
    assert len(section) < len(game) * 2 and game.count("<tr>") < 20


@needs_mkdocs
def test_the_site_asks_for_no_outside_fonts_or_scripts(site: Path) -> None:
    for page in (site / "index.html", site / "sandbox" / "index.html"):
        html = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        outside = re.findall(r'<(?:link|script)[^>]*(?:href|src)="(https?://[^"]*)"', html)
        assert not outside, outside
    sandbox = (site / "sandbox" / "index.html").read_text(encoding="utf-8")
    assert "obverse serve" in sandbox and 'src="../sandbox-phone.png"' in sandbox


@needs_mkdocs
def test_every_game_and_module_has_a_page(site: Path) -> None:
    for game in ("mtg", "fab", "ga", "scp"):
        assert (site / "rules" / game / "index.html").is_file()
    ga = (site / "rules" / "ga" / "double-faced-cards" / "index.html").read_text(encoding="utf-8")
    assert "examples/ga/002-transform-player-action.yaml" in _row(ga, "Double-faced Cards 2")
    documented = {  # a module page -> an anchor mkdocstrings renders from the docstrings
        "obverse.game": "obverse.game.Game.transform",
        "obverse.state": "obverse.state.GameState",
        "obverse.views": "obverse.views.view",
        "obverse.rulings": "obverse.rulings.Outcome",
    }
    for module, anchor in documented.items():
        page = (site / "api" / module / "index.html").read_text(encoding="utf-8")
        assert f'id="{anchor}"' in page, module
    package = (site / "api" / "obverse" / "index.html").read_text(encoding="utf-8")
    assert "rules kernel for multi-faced" in package  # the package docstring
    assert 'href="../obverse.game/#obverse.game.Game"' in package  # its exports link home


@needs_mkdocs
def test_api_pages_leave_out_modules_that_do_not_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = _load("hooks")
    monkeypatch.setattr(hooks, "API_MODULES", ("obverse.game", "obverse.no_such_module"))
    assert hooks.api_modules() == ["obverse.game"]
    pages = hooks.generated_pages()
    assert {"api/index.md", "api/obverse.game.md", "rules/mtg/index.md"} <= set(pages)
    assert "api/obverse.no_such_module.md" not in pages
    assert "obverse.no_such_module" not in pages["api/index.md"]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_generator_reads_titles_and_cites(tmp_path: Path) -> None:
    _write(tmp_path / "tests/coverage/x.yaml", '- {rule: "1.1", text: "One"}\n- rule: "1.2"\n')
    _write(
        tmp_path / "examples/x/a.yaml",
        'title: "1.1, 9.9: a | b"\nsteps:\n  - expect: {cites: ["1.2"]}\n',
    )
    _write(tmp_path / "examples/x/b.yaml", "title: untitled rules\nsteps: []\n")
    pages = gen.render_all(tmp_path)
    assert set(pages) == {
        "rules/index.md",
        "rules/x/index.md",
        "rules/x/1.md",
        "examples/x/a.yaml.md",
    }
    rows = {line.split(" | ")[0]: line for line in pages["rules/x/1.md"].splitlines()}
    assert (
        "examples/x/a.yaml" in rows['| <a id="1.1"></a>1.1']
        and "One" in rows['| <a id="1.1"></a>1.1']
    )
    assert "(../../examples/x/a.yaml.md)" in rows['| <a id="1.2"></a>1.2']  # cited by an expect
    assert "a &#124; b" in rows['| <a id="1.1"></a>1.1']  # a title's bar does not split the table
    game = pages["rules/x/index.md"]
    assert '<a id="1.2"></a>[**1.2**](1.md#1.2)' in game
    assert '<a id="9.9"></a>9.9' in game and "examples/x/a.yaml" in game  # cited, not indexed
    assert "examples/x/b.yaml" not in game
    assert "obverse run examples/x/a.yaml --explain" in pages["examples/x/a.yaml.md"]
    assert "| 2 | 2 | 2 |" in pages["rules/index.md"]  # rules, exercised, scenario files


def test_sections_follow_each_games_numbering() -> None:
    assert gen.section_of("mtg", "712.8e") == "712"
    assert gen.section_of("fab", "9.1.3b") == "9"
    assert gen.section_of("ga", "Double-faced Cards 4.1") == "Double-faced Cards"
    assert gen.section_of("scp", "概要") == "general"
    assert gen.anchor("Double-faced Cards 4.1") == "Double-faced-Cards-4.1"
    assert gen.section_title("mtg", "712") == "712. Double-Faced Cards"


@pytest.mark.parametrize(
    ("index", "message"),
    [
        ("- {text: no rule}\n", "x.yaml: entry 1: missing key 'rule'"),
        ('- {rule: "1", txt: typo}\n', "x.yaml: entry 1: unknown key 'txt'"),
        ("rule: 1\n", "x.yaml: top level: expected a non-empty list"),
        ("- [1\n", "x.yaml: line 2: not valid YAML"),
    ],
)
def test_generator_rejects_a_bad_index(tmp_path: Path, index: str, message: str) -> None:
    _write(tmp_path / "tests/coverage/x.yaml", index)
    (tmp_path / "examples/x").mkdir(parents=True)
    with pytest.raises(gen.GenError, match=re.escape(message)):
        gen.render_all(tmp_path)


def _expected_outputs(block: str) -> list[str]:
    """The outputs a tutorial block promises: ``print(...)  # OUT[: note]`` and the comment
    lines that follow a print."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            expected.append(stripped[2:])
        elif "print(" in line and "  # " in line:
            expected.append(line.split("  # ", 1)[1].split(": ")[0])
        after_print = "print(" in line or (after_print and stripped.startswith("# "))
    return expected


def test_tutorial_python_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(TUTORIAL), "exec"), namespace)  # the tutorial is ours
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    expected = [out for block in blocks for out in _expected_outputs(block)]
    assert len(expected) >= 15
    at = 0
    for want in expected:  # in order, each an exact line of the output
        assert want in printed[at:], f"tutorial promises {want!r}; printed {printed[at:]}"
        at = printed.index(want, at) + 1


def test_tutorial_scenario_passes(tmp_path: Path) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    scenarios = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "ruleset:" in b]
    assert scenarios
    for number, scenario in enumerate(scenarios):
        path = tmp_path / f"tutorial-{number}.yaml"
        path.write_text(scenario, encoding="utf-8")
        result = run_scenario(path)
        assert result.status == "PASS", "\n".join([result.line(), *map(str, result.failures)])


@needs_mkdocs
def test_doctest_examples_render_as_code() -> None:
    fence = _load("griffe_doctests").fence_doctests
    text = "Summary.\n\n>>> 1 + 1\n2\n\nAfter.\n\n```\n>>> kept\n```"
    assert fence(text) == (
        "Summary.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter.\n\n```\n>>> kept\n```"
    )
