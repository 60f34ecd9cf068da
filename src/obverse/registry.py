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
import pkgutil
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING, Any

from obverse import memo
from obverse.errors import InputError, quote, suggest

if TYPE_CHECKING:
    from obverse.rulesets.base import Ruleset

GROUP = "obverse.rulesets"
#: The package whose modules declaring ``RULESETS`` are the games that ship with obverse
#: (declared as entry points in pyproject.toml too; found here as well so that a source
#: checkout that is not installed has them). No game is named here.
BUILTIN_PACKAGE = "obverse.rulesets"
_EXTRA: dict[str, type[Ruleset]] = {}


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        value = getattr(value, part)
    return value


def _classes(value: Any) -> Iterable[type[Ruleset]]:
    return value if isinstance(value, list | tuple) else (value,)


def _builtin() -> list[str]:
    """The modules of :data:`BUILTIN_PACKAGE` that declare ``RULESETS``, sorted."""
    package = importlib.import_module(BUILTIN_PACKAGE)
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{BUILTIN_PACKAGE}.{info.name}")
        if hasattr(module, "RULESETS"):
            found.append(f"{module.__name__}:RULESETS")
    return found


@cache
def _registry() -> dict[str, type[Ruleset]]:
    # Entry points first (their order is the installed games' order), then built-ins an
    # uninstalled checkout has.
    targets = [ep.value for ep in metadata.entry_points(group=GROUP)]
    targets += [t for t in _builtin() if t not in targets]
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
    _listed.cache_clear()
    memo.clear()  # answers kept per alias (the engine's routes) may name the class it replaced
    return cls


def _all() -> dict[str, type[Ruleset]]:
    return {**_registry(), **_EXTRA}


def rulesets() -> list[type[Ruleset]]:
    """Every registered ruleset class, each once: by the games' own ``listed`` rank (the
    order they are listed in: a plug-in's after the built-ins), then in registry order."""
    return list(_listed())


@cache
def _listed() -> tuple[type[Ruleset], ...]:
    # Found once per registration (every parsed card asks for its game's layouts).
    return tuple(sorted(dict.fromkeys(_all().values()), key=lambda cls: cls.listed))


def games() -> list[str]:
    """Every registered game (``Ruleset.game``), each once, in registry order."""
    return list(dict.fromkeys(cls.game for cls in rulesets()))


def default_alias() -> str:
    """The ruleset :class:`~obverse.Game` and the web sandbox use when none is named: the
    first registered."""
    return rulesets()[0].aliases[0]


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


__all__ = ["GROUP", "default_alias", "games", "get_ruleset", "register", "rulesets"]
