"""The ruleset registry: ``get_ruleset("mtg@2020")`` and the list of every ruleset."""

from __future__ import annotations

from functools import cache

from obverse.errors import InputError
from obverse.rulesets.base import Ruleset


@cache
def _registry() -> dict[str, type[Ruleset]]:
    # Imported here so the game modules can import the base freely.
    from obverse.rulesets import fab, ga, mtg, scp

    classes: list[type[Ruleset]] = [*mtg.RULESETS, *fab.RULESETS, *ga.RULESETS, *scp.RULESETS]
    return {alias.lower(): cls for cls in classes for alias in cls.aliases}


def rulesets() -> list[type[Ruleset]]:
    """Every registered ruleset class, each once, in registry order."""
    seen: list[type[Ruleset]] = []
    for cls in _registry().values():
        if cls not in seen:
            seen.append(cls)
    return seen


@cache
def get_ruleset(alias: str) -> Ruleset:
    """The ruleset for an alias such as ``mtg``, ``mtg@2020``, ``fab``, ``ga``, ``scp``."""
    cls = _registry().get(alias.lower())
    if cls is None:
        known = ", ".join(sorted(_registry()))
        raise InputError("top level", "ruleset", f"unknown ruleset {alias!r} (known: {known})")
    return cls()


__all__ = ["Ruleset", "get_ruleset", "rulesets"]
