"""The ruleset registry: aliases to ruleset classes, found by name.

The built-in games and any third party's register through the ``obverse.rulesets``
packaging entry-point group: an entry point names a :class:`~obverse.rulesets.Ruleset`
subclass or a sequence of them (a game and its rules versions), e.g. in pyproject.toml::

    [project.entry-points."obverse.rulesets"]
    toy = "toy_game:RULESETS"

:func:`register` adds one at run time. The registry imports game modules by name only when
first asked, so the rules layer can use it without an import cycle.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING, Any

from obverse.errors import InputError, quote, suggest

if TYPE_CHECKING:
    from obverse.rulesets.base import Ruleset

GROUP = "obverse.rulesets"
#: The games that ship with obverse (also declared as entry points in pyproject.toml, so a
#: source checkout that is not installed still finds them).
BUILTIN = (
    "obverse.rulesets.mtg:RULESETS",
    "obverse.rulesets.fab:RULESETS",
    "obverse.rulesets.ga:RULESETS",
    "obverse.rulesets.scp:RULESETS",
)
_EXTRA: dict[str, type[Ruleset]] = {}


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        value = getattr(value, part)
    return value


def _classes(value: Any) -> Iterable[type[Ruleset]]:
    return value if isinstance(value, list | tuple) else (value,)


@cache
def _registry() -> dict[str, type[Ruleset]]:
    targets = list(BUILTIN)
    for ep in metadata.entry_points(group=GROUP):
        if ep.value not in targets:
            targets.append(ep.value)
    found: dict[str, type[Ruleset]] = {}
    for target in targets:
        for cls in _classes(_load(target)):
            for alias in cls.aliases:
                found.setdefault(alias.lower(), cls)
    return found


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Register a ruleset class under its aliases (usable as a class decorator)."""
    for alias in cls.aliases:
        _EXTRA[alias.lower()] = cls
    get_ruleset.cache_clear()
    return cls


def _all() -> dict[str, type[Ruleset]]:
    return {**_registry(), **_EXTRA}


def rulesets() -> list[type[Ruleset]]:
    """Every registered ruleset class, each once, in registry order."""
    seen: list[type[Ruleset]] = []
    for cls in _all().values():
        if cls not in seen:
            seen.append(cls)
    return seen


@cache
def get_ruleset(alias: str) -> Ruleset:
    """The ruleset for an alias such as ``mtg``, ``mtg@2020``, ``fab``, ``ga``, ``scp``."""
    cls = _all().get(alias.lower())
    if cls is None:
        known = sorted(_all())
        raise InputError(
            "top level",
            "ruleset",
            f"unknown ruleset {quote(alias)}{suggest(alias, known)} (known: {', '.join(known)})",
        )
    return cls()


__all__ = ["GROUP", "get_ruleset", "register", "rulesets"]
