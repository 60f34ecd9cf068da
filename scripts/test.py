#!/usr/bin/env python3
"""Set up and run the whole test suite: ``python3 scripts/test.py [PYTEST ARGS ...]``.

Stdlib only, so it runs on a fresh clone with nothing but Python 3.11:

1. creates ``.venv`` (if missing) and installs the project with its ``test`` extra;
2. installs Debian's ``chromium`` for the browser tests when it is missing and this machine
   allows it (root or passwordless sudo, and ``apt-get``); never ``playwright install`` and
   never a downloaded browser build. Otherwise it says why the browser tests will be skipped;
3. runs ``pytest -rs`` (skips and their reasons are listed) with any extra arguments.

The exit code is pytest's: 0 all passed, 1 failures, 5 no test ran (also a failure), ...
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
CHROMIUM = Path("/usr/bin/chromium")  # where tests/test_web_browser.py looks


def say(message: str) -> None:
    """A progress line, marked as this script's."""
    print(f"scripts/test.py: {message}", flush=True)


def run(cmd: list[str]) -> int:
    """Run ``cmd`` in the repository root; its exit code."""
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def setup_venv() -> int:
    """``.venv`` with the project installed editable, with its test extra."""
    if not PYTHON.exists():
        say("creating .venv")
        code = run([sys.executable, "-m", "venv", str(VENV)])
        if code:
            return code
    say("installing .[test] into .venv")
    return run([str(PYTHON), "-m", "pip", "install", "-q", "-e", ".[test]"])


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
    """Set up, then run pytest with ``args``; pytest's exit code."""
    code = setup_venv()
    if code:
        say(f"setting up .venv failed (exit {code})")
        return code
    ensure_chromium()
    code = run([str(PYTHON), "-m", "pytest", "-rs", *args])
    if code == 5:
        say("no test ran: that is a failure")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
