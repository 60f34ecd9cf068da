"""The code base stays typed (mypy --strict) and lint-clean (ruff)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_mypy_strict() -> None:
    done = _run("mypy", "--strict", "src/obverse", "tests", "plugins/netrunner/src")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff() -> None:
    done = _run("ruff", "check", "src", "tests", "benchmarks", "plugins")
    assert done.returncode == 0, done.stdout + done.stderr


def test_formatted() -> None:
    done = _run("ruff", "format", "--check", "src", "tests", "benchmarks", "plugins")
    assert done.returncode == 0, done.stdout + done.stderr
