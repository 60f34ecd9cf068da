#!/usr/bin/env python3
"""Set up and run the whole test suite: ``python3 scripts/test.py [PYTEST ARGS ...]``.

Stdlib only, so it runs on a fresh clone with nothing but Python 3.11:

1. creates ``.venv`` (if missing) and installs the project with its ``test`` extra, every
   package at the version ``requirements/test.lock`` pins (pip constraints), so a clean clone
   tests exactly what CI tested and a new release of a dependency can't turn it red;
2. installs Debian's ``chromium`` for the browser tests when it is missing and this machine
   allows it (root or passwordless sudo, and ``apt-get``); never ``playwright install`` and
   never a downloaded browser build. Otherwise it says why the browser tests will be skipped;
3. runs ``pytest -rs`` (skips and their reasons are listed) with any extra arguments.

The exit code is pytest's: 0 all passed, 1 failures, 5 no test ran (also a failure), ...

``python3 scripts/test.py --newest [PYTEST ARGS ...]`` is the optional job against the newest
releases: the same steps in ``.venv-newest``, installed without the lock (run it before
regenerating the lock: ``.venv-newest/bin/pip freeze --exclude-editable``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
LOCK = ROOT / "requirements" / "test.lock"
CHROMIUM = Path("/usr/bin/chromium")  # where tests/test_web_browser.py looks


def say(message: str) -> None:
    """A progress line, marked as this script's."""
    print(f"scripts/test.py: {message}", flush=True)


def run(cmd: list[str]) -> int:
    """Run ``cmd`` in the repository root; its exit code."""
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def setup_venv(venv: Path = VENV, locked: bool = True) -> int:
    """``venv`` with the project installed editable, with its test extra (at the locked
    versions unless ``locked`` is false)."""
    python = venv / "bin" / "python"
    if not python.exists():
        say(f"creating {venv.name}")
        code = run([sys.executable, "-m", "venv", str(venv)])
        if code:
            return code
    pins = ["-c", str(LOCK)] if locked else ["--upgrade", "--upgrade-strategy", "eager"]
    say(f"installing .[test] into {venv.name}" + (f" ({LOCK.name})" if locked else " (newest)"))
    return run([str(python), "-m", "pip", "install", "-q", *pins, "-e", ".[test]"])


def apt_prefix() -> tuple[list[str] | None, str]:
    """How to run apt-get as root here (``[]`` when root, ``["sudo", "-n"]``), or why not."""
    if shutil.which("apt-get") is None:
        return None, "apt-get is not available"
    if os.geteuid() == 0:
        return [], ""
    if shutil.which("sudo") is None:
        return None, "not root and sudo is not available"
    check = subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False)
    if check.returncode != 0:
        return None, "not root and sudo needs a password"
    return ["sudo", "-n"], ""


def ensure_chromium() -> None:
    """Install Debian's chromium when missing and allowed; else say why browser tests skip."""
    if CHROMIUM.exists():
        return
    prefix, why = apt_prefix()
    if prefix is None:
        say(f"browser tests will be skipped: no {CHROMIUM}, and {why} to install chromium")
        return
    say("installing Debian's chromium for the browser tests")
    # env inside sudo: sudo drops the caller's environment.
    apt = [*prefix, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    if run([*apt, "update", "-qq"]) or run([*apt, "install", "-y", "-qq", "chromium"]):
        say("browser tests will be skipped: apt-get could not install chromium")
    elif not CHROMIUM.exists():
        say(f"browser tests will be skipped: chromium installed but {CHROMIUM} is missing")


def main(args: list[str]) -> int:
    """Set up, then run pytest with ``args``; pytest's exit code. ``--newest`` first: the
    optional job against the newest releases, in ``.venv-newest``."""
    newest = bool(args) and args[0] == "--newest"
    venv = ROOT / ".venv-newest" if newest else VENV
    code = setup_venv(venv, locked=not newest)
    if code:
        say(f"setting up {venv.name} failed (exit {code})")
        return code
    ensure_chromium()
    code = run([str(venv / "bin" / "python"), "-m", "pytest", "-rs", *args[newest:]])
    if code == 5:
        say("no test ran: that is a failure")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
