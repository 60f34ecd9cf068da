"""ga ruleset (placeholder until implemented)."""

from __future__ import annotations

from obverse.rulesets.base import Ruleset

RULESETS: list[type[Ruleset]] = []
