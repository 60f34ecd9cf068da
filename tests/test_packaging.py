"""Packaging conventions: ``--version``, ``python -m obverse``, help with defaults and exit codes,
``obverse run --json`` records, and the test script's browser decision."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

import obverse
import obverse.cli
from obverse.cli import main

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """\
ruleset: mtg
title: {title}
setup:
  - {{label: d, card: Delver of Secrets, owner: alice, zone: battlefield}}
  - {{label: h, card: Huntmaster of the Fells, owner: alice, zone: hand}}
steps:
  - transform: d
  - expect: {{object: d, name: {name}}}
"""


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    """A directory with one passing, one failing and one erroring scenario."""
    (tmp_path / "a-pass.yaml").write_text(
        SCENARIO.format(title="passes", name="Insectile Aberration")
    )
    (tmp_path / "b-fail.yaml").write_text(SCENARIO.format(title="fails", name="Delver of Secrets"))
    (tmp_path / "c-error.yaml").write_text(
        SCENARIO.format(title="errs", name="Insectile Aberration") + "bogus: 1\n"
    )
    return tmp_path


def _records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_version_comes_from_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"obverse {metadata.version('obverse')}\n"
    assert metadata.version("obverse") == obverse.__version__


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "obverse", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout == f"obverse {obverse.__version__}\n"
    scenario = sorted((ROOT / "examples" / "mtg").glob("*.yaml"))[0]
    done = subprocess.run(
        [sys.executable, "-m", "obverse", "run", str(scenario)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("PASS ") and done.stdout.endswith("1 passed, 0 failed\n")


def test_help_shows_defaults_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["fuzz", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # help wraps to the terminal's width
    assert "(default: 1000)" in out and "(default: fuzz-counterexamples)" in out
    assert "(default: None)" not in out and "(default: False)" not in out
    assert "exit codes:" in out and "1 counterexamples written" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    codes = out[out.index("exit codes:") :].splitlines()
    assert {line.split()[0] for line in codes[1:]} == {*obverse.cli.EXIT_CODES, "any"}


def test_run_json_prints_one_record_per_scenario(
    scenarios: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(scenarios), "--json"]) == 2
    captured = capsys.readouterr()
    passed, failed, errored = _records(captured.out)
    assert captured.err == "1 passed, 1 failed, 1 errors\n"
    assert passed == {
        "file": str(scenarios / "a-pass.yaml"),
        "title": "passes",
        "result": "PASS",
        "failures": [],
        "error": None,
    }
    assert failed["result"] == "FAIL" and failed["error"] is None
    assert failed["failures"] == [
        {
            "step": 2,
            "key": "name",
            "expected": "Delver of Secrets",
            "actual": "Insectile Aberration",
        }
    ]
    assert errored["result"] == "ERROR" and errored["failures"] == []
    assert errored["error"] == {
        "place": "top level",
        "key": "bogus",
        "message": errored["error"]["message"],  # type: ignore[index]
    }
    assert "view" not in passed and "explain" not in passed


def test_run_view_adds_the_players_view(
    scenarios: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "run",
                str(scenarios / "a-pass.yaml"),
                str(scenarios / "c-error.yaml"),
                "--view",
                "bob",
            ]
        )
        == 2
    )
    passed, errored = _records(capsys.readouterr().out)
    view = passed["view"]
    assert isinstance(view, dict) and view["viewer"] == "bob"
    assert "Insectile Aberration" in json.dumps(view)
    assert "Huntmaster" not in json.dumps(view)  # alice's hand card is hidden from bob
    assert errored["view"] is None
    assert main(["run", str(scenarios / "a-pass.yaml"), "--view", "alice", "--explain"]) == 0
    (record,) = _records(capsys.readouterr().out)
    assert "Huntmaster of the Fells" in json.dumps(record["view"])
    assert any("701.27a" in line for line in record["explain"])  # type: ignore[attr-defined]


def test_run_view_of_an_unknown_player_is_bad_input(
    scenarios: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(scenarios / "a-pass.yaml"), "--view", "carol"]) == 2
    captured = capsys.readouterr()
    assert "--view: unknown player 'carol'" in captured.err and captured.out == ""


def _test_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scripts_test", ROOT / "scripts" / "test.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_test_script_says_why_browser_tests_will_be_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _test_script()
    monkeypatch.setattr(script, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setattr(script.shutil, "which", lambda name: None)
    script.ensure_chromium()
    out = capsys.readouterr().out
    assert "browser tests will be skipped" in out and "apt-get is not available" in out
    monkeypatch.setattr(script, "CHROMIUM", tmp_path)  # present: nothing to do, nothing said
    script.ensure_chromium()
    assert capsys.readouterr().out == ""


def test_distribution_metadata() -> None:
    meta = metadata.metadata("obverse")
    assert "License :: OSI Approved :: MIT License" in meta.get_all("Classifier", [])
    # No invented addresses: project URLs wait for the public repository's real one.
    assert not any("obverse-tcg" in u for u in meta.get_all("Project-URL") or [])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_test_script_installs_the_locked_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    script = _test_script()
    calls: list[list[str]] = []

    def run(cmd: list[str]) -> int:
        calls.append(cmd)
        return 0

    monkeypatch.setattr(script, "run", run)
    assert script.setup_venv(ROOT / ".venv") == 0
    assert calls[-1][-4:] == ["-c", str(script.LOCK), "-e", ".[test]"]
    pins = script.LOCK.read_text(encoding="utf-8").splitlines()
    for name in ("msgspec", "immutables", "PyYAML", "RapidFuzz", "pytest", "mypy", "ruff"):
        assert any(line.startswith(f"{name}==") for line in pins), name
    assert script.setup_venv(ROOT / ".venv", locked=False) == 0
    assert "-c" not in calls[-1] and "--upgrade" in calls[-1]  # the --newest job
