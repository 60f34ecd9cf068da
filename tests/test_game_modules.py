"""A game is one module: what a game is (its layouts, stats, zones, type words, verbs, sample
cards, its place in lists) is declared on its ruleset, and no module outside the games' own
packages and their importers names a game (issue 27). Read from the source with ``ast``:
string constants that are a game's name or a rules version's alias."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from obverse import Game, registry
from obverse.cards import game_layouts, parse_card
from obverse.characteristics import exception_keys
from obverse.errors import InputError
from obverse.rulesets import Ruleset

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "obverse"
#: A game's own package: its rules and its importer (``importers``, ``carddb``: the card data
#: of the games that have an importer).
OWN = ("rulesets", "importers", "carddb.py", "data")


def _names() -> set[str]:
    return {alias for cls in registry.rulesets() for alias in (cls.game, *cls.aliases)}


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


# The benches' figures are defined on named games (the goals are MTG's and FaB's boards).
LEFT: frozenset[str] = frozenset({"bench.py", "bench_node.py"})


def test_no_module_outside_a_game_names_it() -> None:
    names = _names()
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in OWN or rel.name in LEFT:
            continue
        for line, value in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if value.casefold() in names:
                offenders.append(f"{rel}:{line}: {value!r}")
    assert not offenders, "\n".join(offenders)


def test_each_game_declares_its_layouts_and_stats() -> None:
    for cls in registry.rulesets():
        assert "normal" in cls.layouts, cls
    assert "meld" in game_layouts("mtg") and "twin" in game_layouts("fab")
    assert game_layouts("ga") == {"normal", "double_faced"}
    assert "twin" in game_layouts(None)  # any game's
    assert "defense" in exception_keys(registry.get_ruleset("mtg").stats)
    assert "level" not in exception_keys(registry.get_ruleset("mtg").stats)
    with pytest.raises(InputError, match="unknown layout 'twin' for mtg"):
        parse_card({"name": "X", "layout": "twin", "faces": [{}, {}]}, "cards[1]", "mtg")


def test_games_are_listed_in_their_declared_order_and_the_first_is_the_default() -> None:
    assert registry.games()[:4] == ["mtg", "fab", "ga", "scp"]  # listed = 0, 1, 2, 3
    assert Game().ruleset.name == registry.default_alias() == "mtg"


def _steps_to(cls: type, root: type) -> int:
    """The longest inheritance path from ``cls`` to ``root`` (-1: ``root`` is no base)."""
    if cls is root:
        return 0
    steps = [_steps_to(base, root) for base in cls.__bases__]
    return max((s + 1 for s in steps if s >= 0), default=-1)


@pytest.mark.parametrize("alias", ["fab", "ga", "scp"])
def test_a_game_class_is_its_seams_listed_once_not_a_chain(alias: str) -> None:
    """Issue 27: a game's seams (zones, arena, status ...; objects, keywords ...) are flat
    mixins with no base of their own, from the game's own package, each listed once in the
    game class's bases: the class is one step from ``Ruleset``, never a chain."""
    cls = type(registry.get_ruleset(alias))
    assert _steps_to(cls, Ruleset) == 1
    seams = [base for base in cls.__bases__ if base is not Ruleset]
    assert seams, cls
    for seam in seams:
        assert seam.__bases__ == (object,), seam
        assert seam.__module__.startswith(f"{cls.__module__}."), seam
