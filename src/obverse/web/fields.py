"""The sandbox's request fields: text fields, seat names (one rule for a new table and an
imported one) and an action's arguments, each refused with a 400 naming the key."""

from __future__ import annotations

from typing import Any

from obverse.errors import quote
from obverse.web.store import JUDGE, SPECTATOR
from obverse.web.table import TableError

PLAYER_NAME_MAX = 24
RESERVED = (JUDGE, SPECTATOR)


def text_field(data: dict[str, Any], key: str, limit: int, default: str | None = None) -> str:
    """A string field (400 naming the key if missing, not a string, or too long)."""
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > limit:
        raise TableError(400, f"{key}: expected a string of at most {limit} characters")
    return value


def name_problem(name: str) -> str | None:
    """Why ``name`` can't be a player's seat name, or ``None``: the one rule for a new table
    and an imported one. A reserved seat name in any case or with spaces around it
    (``JUDGE``, ``Spectator ``); otherwise a simple name (letters, digits, underscores, not
    starting with a digit: no spaces, markup or control characters) of at most
    :data:`PLAYER_NAME_MAX` characters."""
    if name.strip().casefold() in RESERVED:
        return f"{quote(name)} is a reserved seat name"
    if not name.isidentifier() or len(name) > PLAYER_NAME_MAX:
        return (
            f"{quote(name)}: expected a simple name (letters, digits, underscores) of "
            f"at most {PLAYER_NAME_MAX} characters"
        )
    return None


def players_field(value: Any, where: str = "players") -> list[str]:
    """1 to 4 distinct simple names, none of them a reserved seat name (:func:`name_problem`)."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise TableError(400, f"{where}: expected a list of 1 to 4 names")
    for name in value:
        problem = name_problem(name)
        if problem is not None:
            raise TableError(400, f"{where}: {problem}")
    if not 1 <= len(value) <= 4 or len(set(value)) != len(value):
        raise TableError(400, f"{where}: expected 1 to 4 distinct simple names")
    return list(value)


def scalar_args(args: Any) -> dict[str, Any]:
    """An action's ``args``: an object of JSON values no deeper than an effect's ``modify``
    (400 otherwise, before anything reaches the table)."""
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise TableError(400, "args: expected a JSON object")

    def flat(value: Any) -> bool:
        scalar = (str, int, float, bool, type(None))
        return isinstance(value, scalar) or (
            isinstance(value, list) and all(isinstance(x, scalar) for x in value)
        )

    for key, value in args.items():
        nested = isinstance(value, dict) and all(flat(v) for v in value.values())
        if not (flat(value) or nested):
            raise TableError(400, f"args.{key}: expected a value, a list or a flat object")
    return args


__all__ = [
    "PLAYER_NAME_MAX",
    "RESERVED",
    "name_problem",
    "players_field",
    "scalar_args",
    "text_field",
]
