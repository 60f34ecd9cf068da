"""Rulesets: :class:`Ruleset` (switches, hooks and the procedures built on them) and the
registry, ``get_ruleset("mtg@2020")``, which finds games through entry points."""

from __future__ import annotations

from obverse.registry import get_ruleset, register, rulesets
from obverse.rulesets.base import Ruleset

__all__ = ["Ruleset", "get_ruleset", "register", "rulesets"]
