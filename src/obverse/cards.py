"""Printed cards: :class:`CardDef` (layout and ordered faces) and :class:`Face`.

Cards are pure data shared by every game; a face carries the union of the games' printed
fields (MTG, Flesh and Blood, Grand Archive, SCP-TCG-JP-J), each absent field ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from obverse.errors import InputError, quote, suggest
from obverse.registry import rulesets

Stat = int | str | None

#: The layouts of a game whose ruleset declares none (``Ruleset.layouts``): single-faced
#: cards.
OTHER_GAME_LAYOUTS: Final = frozenset({"normal"})
#: Layouts whose two faces are the two sides of one card (a double-faced card).
DOUBLE_FACED: Final = frozenset(
    {"transform", "modal_dfc", "double_faced", "twin", "transcend", "reversible_card"}
)

STAT_FIELDS: Final = (
    "power",
    "toughness",
    "loyalty",
    "defense",
    "pitch",
    "life",
    "intellect",
    "reserve_cost",
    "memory_cost",
    "durability",
    "element",
    "level",
    "securing_power",
    "object_class",
)
LIST_FIELDS: Final = ("types", "supertypes", "subtypes", "colors", "abilities", "tags")
FACE_FIELDS: Final = frozenset({"name", "cost", "text", "hybrid", *STAT_FIELDS, *LIST_FIELDS})
CARD_FIELDS: Final = frozenset({"name", "layout", "faces", "melds_from"})


class Face(msgspec.Struct, frozen=True, omit_defaults=True):
    """One printed face (or half) of a card, with its printed characteristics."""

    name: str | None = None
    cost: Stat = None
    types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    text: str = ""
    power: Stat = None
    toughness: Stat = None
    loyalty: Stat = None
    defense: Stat = None
    pitch: Stat = None
    life: Stat = None
    intellect: Stat = None
    reserve_cost: Stat = None
    memory_cost: Stat = None
    durability: Stat = None
    element: Stat = None
    level: Stat = None
    securing_power: Stat = None
    object_class: Stat = None
    #: FaB 2.14.1b: a hybrid card's two supertype sets as written ("Brute", "Warrior" for
    #: "Brute / Warrior"); ``supertypes`` holds all of them, the card-pool check either set.
    hybrid: tuple[str, ...] = ()


class CardDef(msgspec.Struct, frozen=True, omit_defaults=True):
    """A printed card: its full name, layout and faces in printed order (front/left first).

    A meld result (MTG 712.4) is a card of layout ``meld`` whose ``melds_from`` names its two
    halves; the halves themselves are single-faced (layout ``meld`` or ``normal``).
    """

    name: str
    layout: str = "normal"
    faces: tuple[Face, ...] = ()
    melds_from: tuple[str, ...] = ()

    @property
    def front(self) -> Face:
        """The front (or left, or only) face."""
        return self.faces[0]

    @property
    def back(self) -> Face | None:
        """The back (or right, or flipped) face, if the card has one."""
        return self.faces[1] if len(self.faces) > 1 else None

    @property
    def face_names(self) -> tuple[str, ...]:
        """Every face's name, in printed order."""
        return tuple(f.name for f in self.faces if f.name)

    @property
    def is_double_faced(self) -> bool:
        """True for a card with a face on each side (not split, flip, meld or adventure)."""
        return self.layout in DOUBLE_FACED and len(self.faces) > 1

    @property
    def is_meld_result(self) -> bool:
        """True for the back half of a meld pair (712.4)."""
        return self.layout == "meld" and bool(self.melds_from)


def _tuple_of_str(value: Any, place: str, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InputError(place, key, f"expected a list of strings, got {quote(value)}")


#: The largest printed or modified power, toughness, defence ... (in either sign): any
#: real card's is tiny, and sums of many effects stay far inside 64 bits.
MAX_STAT: Final = 10**9


def _stat(value: Any, place: str, key: str) -> Stat:
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_STAT:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_STAT:
        raise InputError(place, key, f"expected a number from -{MAX_STAT:,} to {MAX_STAT:,}")
    if value is None or (isinstance(value, int | str) and not isinstance(value, bool)):
        return value
    raise InputError(place, key, f"expected a number or string, got {quote(value)}")


def parse_face(data: Mapping[str, Any], place: str) -> Face:
    """A :class:`Face` from the scenario contract's face mapping; unknown keys are errors."""
    if not isinstance(data, Mapping):
        raise InputError(place, "faces", f"a face must be a mapping, got {quote(data)}")
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key not in FACE_FIELDS:
            raise InputError(place, str(key), "unknown face field")
        if key == "name":
            if not isinstance(value, str) or not value:
                raise InputError(
                    place, key, f"a face name must be a non-empty string, got {quote(value)}"
                )
            fields[key] = value
        elif key == "text":
            if not isinstance(value, str):
                raise InputError(place, key, f"text must be a string, got {quote(value)}")
            fields[key] = value
        elif key in LIST_FIELDS or key == "hybrid":
            fields[key] = _tuple_of_str(value, place, key)
        else:
            fields[key] = _stat(value, place, key)
    return Face(**fields)


def game_layouts(game: str | None) -> frozenset[str]:
    """The layouts ``game``'s cards may have, as its ruleset declares them (``layouts``;
    ``normal`` for a game no ruleset declares); ``None``: any game's."""
    classes = rulesets()
    if game is None:
        return frozenset().union(*(cls.layouts for cls in classes))
    cls = next((c for c in classes if c.game == game), None)
    return OTHER_GAME_LAYOUTS if cls is None else cls.layouts


def parse_card(data: Any, place: str, game: str | None = None) -> CardDef:
    """A :class:`CardDef` from the contract's inline card definition.

    Single-faced cards may put face fields at the top level instead of ``faces:``.
    """
    if not isinstance(data, Mapping):
        raise InputError(place, "", f"a card definition must be a mapping, got {quote(data)}")
    layout = data.get("layout", "normal")
    if not isinstance(layout, str):
        raise InputError(place, "layout", f"layout must be a string, got {quote(layout)}")
    known = game_layouts(game)
    if layout not in known:
        raise InputError(
            place,
            "layout",
            f"unknown layout {quote(layout)} for {game or 'any game'}"
            f" (known: {', '.join(sorted(known))})",
        )
    top_face = {k: v for k, v in data.items() if k not in CARD_FIELDS or k == "name"}
    for key in data:
        if key not in CARD_FIELDS and key not in FACE_FIELDS:
            raise InputError(place, str(key), "unknown card field")
    if "faces" in data:
        stray = [k for k in top_face if k != "name"]
        if stray:
            raise InputError(place, stray[0], "face fields go inside faces: when faces: is given")
        raw_faces = data["faces"]
        if not isinstance(raw_faces, list) or not raw_faces:
            raise InputError(place, "faces", "faces must be a non-empty list")
        faces = tuple(parse_face(f, f"{place}.faces[{i + 1}]") for i, f in enumerate(raw_faces))
    else:
        faces = (parse_face(top_face, place),)
    name = data.get("name")
    if name is None:
        name = " // ".join(f.name for f in faces if f.name)
    if not isinstance(name, str) or not name:
        raise InputError(place, "name", "a card needs a name")
    if len(faces) == 1 and faces[0].name is None:
        faces = (msgspec.structs.replace(faces[0], name=name),)
    melds_from = _tuple_of_str(data.get("melds_from"), place, "melds_from")
    if melds_from and (layout != "meld" or len(melds_from) != 2):
        raise InputError(
            place, "melds_from", "melds_from takes two names, on a card of layout meld"
        )
    two_faced = {"transform", "modal_dfc", "flip", "split", "double_faced", "twin", "transcend"}
    two_faced |= {"prototype", "omen"}  # MTG 718.1, 720.1: a normal and an inset frame
    if layout in two_faced and len(faces) < 2:
        raise InputError(place, "faces", f"a {layout} card needs at least two faces")
    card = CardDef(name=name, layout=layout, faces=faces, melds_from=melds_from)
    if game is not None:
        check_type_words(card, place, game)
    return card


def check_type_words(card: CardDef, place: str, game: str) -> None:
    """Raise :class:`InputError` for a type word ``game`` doesn't have (its ruleset's
    ``type_words``), naming the card, the field and the word, so that a misspelt type is
    never silently a card of no type."""
    cls = next((c for c in rulesets() if c.game == game), None)
    if cls is None or not cls.type_words:
        return
    fold = cls.type_words_fold_case
    for i, face in enumerate(card.faces, 1):
        where = place if len(card.faces) == 1 else f"{place}.faces[{i}]"
        for field, known in cls.type_words.items():
            words = {w.casefold(): w for w in known} if fold else {w: w for w in known}
            for word in getattr(face, field):
                if (word.casefold() if fold else word) in words:
                    continue
                hint = suggest(word.casefold(), words) if fold else suggest(word, known)
                raise InputError(
                    where,
                    field,
                    f"{quote(card.name)}: {quote(word)} is not a {field[:-1]} of {game}{hint}",
                )
