"""The README's Python tour and the package docstring's examples run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import obverse

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_tour_runs(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), str(README), "exec"), namespace)  # the README is ours
    out = capsys.readouterr().out
    assert "Insectile Aberration" in out and "712.18" in out
    assert "Delver of Secrets" not in out.split("'viewer': 'bob'")[1]


def test_package_doctests() -> None:
    result = doctest.testmod(obverse)
    assert result.attempted > 0 and result.failed == 0


def test_readme_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    commands = [line.strip() for line in text.splitlines() if line.startswith("    python3 ")]
    assert commands[0].startswith("python3 -m venv")
    assert commands[0].endswith("obverse run examples/")
    assert commands[1] == "python3 scripts/test.py"
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()
