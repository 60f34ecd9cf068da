"""MTG's card values shared by the face rules and the layouts: the permanent and spell card
types (205.2a), a face-down object's values (708.2a), a face's colors (202.2) and cost."""

from __future__ import annotations

from typing import Final

from obverse import mana, memo
from obverse.cards import Face

__all__ = [
    "FACE_DOWN",
    "PERMANENT_TYPES",
    "SPELL_ONLY",
    "colors",
    "cost",
    "is_permanent_face",
    "is_room",
]

PERMANENT_TYPES: Final = frozenset(
    {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}
)
SPELL_ONLY: Final = frozenset({"Instant", "Sorcery"})
FACE_DOWN: Final = Face(types=("Creature",), power=2, toughness=2)


def is_permanent_face(face: Face) -> bool:
    """A face whose card type makes a permanent."""
    return bool(PERMANENT_TYPES.intersection(face.types))


def cost(face: Face) -> str | None:
    """A face's mana cost, ``None`` when it has none."""
    return face.cost if isinstance(face.cost, str) and face.cost else None


@memo.per_identity(lambda face: (face,))
def colors(face: Face) -> tuple[str, ...]:
    """202.2: a face's colors, its mana symbols' and its color indicator's."""
    of_cost = mana.colors_of(cost(face))
    extra = tuple(c for c in face.colors if c not in of_cost)
    merged: tuple[str, ...] = tuple(c for c in mana.COLORS if c in of_cost or c in extra)
    return merged + tuple(c for c in extra if c not in mana.COLORS)


def is_room(layout: str, faces: tuple[Face, ...]) -> bool:
    """709.5: a split card whose halves are permanent cards (a single shared type line)."""
    return layout == "split" and len(faces) == 2 and all(is_permanent_face(f) for f in faces)
