"""Shell completion for the ``obverse`` command, made from its argument parser:
``obverse completion bash|zsh|fish`` prints a script to source (no extra package: the words
are the parser's own subcommands, options and choices, so they can't drift from it)."""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "fish")


def _words(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Each subcommand's options and fixed choices; ``""`` the top level's words."""
    words: dict[str, list[str]] = {"": [o for a in parser._actions for o in a.option_strings]}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                words[""].append(name)
                found = words[name] = []
                for a in sub._actions:
                    found += a.option_strings
                    if not a.option_strings and a.choices:
                        found += [str(c) for c in a.choices]
    return words


def _bash(words: dict[str, list[str]]) -> str:
    cases = "\n".join(
        f'        {name}) opts="{" ".join(found)}" ;;' for name, found in words.items() if name
    )
    return f"""# obverse completion for bash: eval "$(obverse completion bash)"
_obverse() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" cmd="" opts="{" ".join(words[""])}" w
    for w in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
        case "$w" in -*) ;; *) cmd="$w"; break ;; esac
    done
    case "$cmd" in
{cases}
    esac
    if [[ -n "$cmd" && "$cur" != -* ]]; then
        COMPREPLY=($(compgen -f -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    fi
}}
complete -o filenames -F _obverse obverse
"""


def _fish(words: dict[str, list[str]]) -> str:
    subs = [w for w in words[""] if not w.startswith("-")]
    lines = ["# obverse completion for fish: obverse completion fish | source"]
    lines.append(f"complete -c obverse -n __fish_use_subcommand -f -a '{' '.join(subs)}'")
    for name, found in words.items():
        if not name:
            continue
        for word in found:
            cond = f"-n '__fish_seen_subcommand_from {name}'"
            if word.startswith("--"):
                lines.append(f"complete -c obverse {cond} -l {word[2:]}")
            elif word.startswith("-"):
                lines.append(f"complete -c obverse {cond} -s {word[1:]}")
            else:
                lines.append(f"complete -c obverse {cond} -a {word}")
    return "\n".join(lines) + "\n"


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    words = _words(parser)
    if shell == "fish":
        return _fish(words)
    text = _bash(words)
    if shell == "zsh":
        return "autoload -U +X bashcompinit && bashcompinit\n" + text.replace("bash", "zsh", 1)
    return text


__all__ = ["SHELLS", "script"]
