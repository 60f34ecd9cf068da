"""MTG mana costs: parsing ``{2}{U}{U}`` strings, mana value (202.3) and colors (202.2)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

_SYMBOL: Final = re.compile(r"\{([^{}]+)\}")
COLORS: Final = ("W", "U", "B", "R", "G")


@lru_cache(maxsize=4096)
def symbols(cost: str) -> tuple[str, ...]:
    """The symbols of a mana cost, e.g. ``("2", "U")`` for ``{2}{U}``."""
    found = tuple(_SYMBOL.findall(cost))
    if "".join("{" + s + "}" for s in found) != cost.replace(" ", ""):
        raise ValueError(f"not a mana cost: {cost!r}")
    return found


def mana_value(cost: str | None) -> int:
    """Mana value of a cost (202.3): generic numbers, 1 per other symbol, X counts 0."""
    if not cost:
        return 0
    total = 0
    for sym in symbols(cost):
        if sym.isdigit():
            total += int(sym)
        elif sym in ("X", "Y", "Z"):
            continue
        elif "/" in sym and sym.split("/")[0].isdigit():
            total += int(sym.split("/")[0])  # {2/W} counts 2
        else:
            total += 1
    return total


def colors_of(cost: str | None) -> tuple[str, ...]:
    """The colors of the mana symbols in a cost (202.2), in WUBRG order."""
    if not cost:
        return ()
    found = {c for sym in symbols(cost) for c in sym.split("/") if c in COLORS}
    return tuple(c for c in COLORS if c in found)


def normalize(cost: str | None) -> tuple[int, tuple[str, ...]] | None:
    """A comparable form: generic numbers summed, other symbols sorted (``{3}{R}{G}`` =
    ``{R}{3}{G}``)."""
    if cost is None:
        return None
    generic = 0
    rest: list[str] = []
    for sym in symbols(cost):
        if sym.isdigit():
            generic += int(sym)
        else:
            rest.append(sym)
    return generic, tuple(sorted(rest))


def combine(*costs: str | None) -> str | None:
    """The combined cost of split halves (709.4b): generic summed, symbols in order."""
    present = [c for c in costs if c]
    if not present:
        return None
    generic = 0
    rest: list[str] = []
    for cost in present:
        for sym in symbols(cost):
            if sym.isdigit():
                generic += int(sym)
            else:
                rest.append(sym)
    head = f"{{{generic}}}" if generic else ""
    return head + "".join("{" + s + "}" for s in rest)
