"""What the command line prints for a person: failures citing the rule that decided the
value, a recap after the results, colour only where it belongs, progress bars only on a
terminal, suggestions for mistyped words, shell completion, plurals, a clear undo error."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from obverse import Game
from obverse.cli import build_parser, main
from obverse.console import Progress, paint, plural, use_colour
from obverse.errors import NothingToUndo

ROOT = Path(__file__).resolve().parent.parent
PASSING = ROOT / "examples" / "mtg" / "001-delver-transforms-same-object.yaml"

FAILING = """\
ruleset: mtg
title: "712.8e: expects the front face's name"
setup:
  - {label: d, card: Delver of Secrets, owner: alice, zone: battlefield}
steps:
  - transform: d
  - expect: {object: d, name: Delver of Secrets}
  - expect: {last_result: nothing_happened}
"""


@pytest.fixture
def failing(tmp_path: Path) -> Path:
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_a_failure_cites_the_rule_that_decided_the_value(
    failing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(failing)]) == 1
    out = capsys.readouterr().out.splitlines()
    name = out.index('  step 2: name: expected "Delver of Secrets", got "Insectile Aberration"')
    assert out[name + 1].startswith("    decided by 712.8e: back face up")
    result = out.index('  step 3: last_result: expected "nothing_happened", got "done"')
    assert out[result + 1].startswith("    decided by 701.27a: it turns over")


def test_explain_prints_the_steps_before_the_failures(
    failing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["run", str(failing), "--explain"])
    out = capsys.readouterr().out
    assert out.index("step 1: transform -> done") < out.index("step 2: name: expected")


def test_a_recap_lists_what_did_not_pass_after_the_rest(
    failing: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: mtg\nsteps: [{nope: 1}]\n", encoding="utf-8")
    assert main(["run", str(failing), str(PASSING), str(bad)]) == 2
    out = capsys.readouterr().out.splitlines()
    recap = out.index("2 scenarios did not pass:")
    assert out[recap + 1].startswith("  FAIL 712.8e: expects the front face's name (")
    assert out[recap + 2].startswith(f"  ERROR {bad}: step 1: nope: unknown action")
    assert out[-1] == "1 passed, 1 failed, 1 error"  # one error: no "1 errors"
    assert "\x1b[" not in "\n".join(out)  # not a terminal: no colour


def test_no_recap_when_everything_passed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(PASSING), str(PASSING)]) == 0
    assert "did not pass" not in capsys.readouterr().out


def test_colour_follows_force_color_and_no_color(
    failing: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    main(["run", str(failing)])
    out = capsys.readouterr().out
    assert "\x1b[31mFAIL\x1b[0m 712.8e" in out and "\x1b[31m0 passed, 1 failed\x1b[0m" in out
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setenv("NO_COLOR", "")

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert not use_colour(Tty())  # NO_COLOR, even empty, wins over a terminal
    monkeypatch.delenv("NO_COLOR")
    assert use_colour(Tty()) and paint("x", "red", Tty()) == "\x1b[31mx\x1b[0m"
    assert not use_colour(io.StringIO())


def test_progress_is_drawn_on_a_terminal_only() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        with Progress("fuzzing mtg", 4, stream) as bar:
            for _ in range(4):
                bar.advance()
    assert pipe.getvalue() == ""
    assert "fuzzing mtg [####################] 100% 4/4" in tty.getvalue()
    assert tty.getvalue().endswith("\r")  # cleared for what is printed next


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["rn", "x"], "(did you mean 'run'?)"),
        (["run", "--explian", "x"], "(did you mean '--explain'?)"),
        (["card", "X", "--zoen", "hand"], "(did you mean '--zone'?)"),
        (["completion", "bsh"], "(did you mean 'bash'?)"),
    ],
)
def test_mistyped_words_get_a_suggestion(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(hint)


def test_mistyped_zones_and_keys_get_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typo.yaml"
    path.write_text(
        "ruleset: mtg\nsetup:\n"
        "  - {label: d, card: Delver of Secrets, owner: alice, zone: battlefeld}\n",
        encoding="utf-8",
    )
    assert main(["run", str(path)]) == 2
    assert "unknown zone 'battlefeld' for mtg (did you mean 'battlefield'?)" in (
        capsys.readouterr().out
    )
    path.write_text(
        "ruleset: mtg\nsetup:\n"
        "  - {label: d, card: Delver of Secrets, owner: alice, zone: battlefield}\n"
        "steps:\n  - expect: {object: d, nmae: x}\n",
        encoding="utf-8",
    )
    main(["run", str(path)])
    assert "nmae: unknown expectation key (did you mean 'name'?)" in capsys.readouterr().out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_name_every_subcommand_and_option(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for word in ("run", "import", "card", "--explain", "--zone", "--histories"):
        assert word.lstrip("-") in script
    if shell != "fish" and shutil.which("bash"):
        # The script is valid bash and completes a subcommand's options.
        probe = (
            f"{script.replace('autoload -U +X bashcompinit && bashcompinit', '')}\n"
            "COMP_WORDS=(obverse run --exp); COMP_CWORD=2; _obverse; echo ${COMPREPLY[@]}"
        )
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
        assert done.stdout.split() == ["--explain"]


def test_plural() -> None:
    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]


def test_undo_with_nothing_to_undo_is_a_clear_error() -> None:
    game = Game("mtg")
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        game.undo()
    with pytest.raises(IndexError):  # what callers caught before
        game.undo()


def test_the_parser_documents_completion() -> None:
    assert "completion" in build_parser().format_help()
