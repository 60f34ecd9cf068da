"""Scryfall card objects (https://scryfall.com/docs/api/cards) to :class:`CardDef`.

Layouts: ``normal``, ``transform``, ``modal_dfc``, ``flip``, ``split`` (any number of halves,
aftermath included), ``adventure``, ``meld`` (each part a single-faced ``meld`` card; the
result a ``meld`` card whose ``melds_from`` names the parts, from ``all_parts``),
``reversible_card`` (one card, whichever side is chosen, when both sides are the same Oracle
card), ``prototype`` (the card and its inset frame, from its ``Prototype {cost} — P/T`` line),
``omen`` and ``token``. Single-faced layouts whose rules are a normal card's
(``leveler``, ``saga``, ``class`` ...) import as ``normal``; ``battle`` and
``double_faced_token`` as ``transform``; anything else imports as its faces with a warning.

A face's ``cost`` is its mana cost string (None when it has none), ``colors`` its color
indicator (a token's or costless card's own colors when it has no indicator: colors don't come
from a cost it lacks), ``abilities`` Scryfall's own ``keywords`` (:func:`face_keywords`: all
of them for a one-faced card; shared out by whole-word use in each face's text otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final

from obverse.cards import LAYOUTS, CardDef, Face
from obverse.errors import quote
from obverse.importers import (
    BadRecord,
    Problem,
    Record,
    Report,
    check_vocabulary,
    read_json_file,
    stat,
    str_list,
    str_or_none,
)
from obverse.rulesets.mtg import MTG_SUPERTYPES

#: Scryfall layouts kept as they are.
DIRECT: Final = LAYOUTS["mtg"]
#: Scryfall layouts that are, for faces, another obverse layout.
ALIASES: Final = {
    "leveler": "normal",
    "class": "normal",
    "case": "normal",
    "saga": "normal",
    "mutate": "normal",
    "host": "normal",
    "augment": "normal",
    "aftermath": "split",
    "battle": "transform",
    "double_faced_token": "transform",
}
_DASH: Final = re.compile(r"\s+[—–-]\s+")
#: 702.160a / 718.1: "Prototype {2}{R} — 3/2" in a prototype card's text.
_PROTOTYPE: Final = re.compile(r"^Prototype ((?:\{[^}]+\})+) [—–-] (\d+)/(\d+)", re.M)


def parse_type_line(line: str | None) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(supertypes, types, subtypes)`` of a type line such as
    ``Legendary Creature — Human Wizard`` (``Token`` is dropped: the layout says it)."""
    if not line:
        return (), (), ()
    parts = _DASH.split(line, maxsplit=1)
    head = parts[0]
    tail = parts[1] if len(parts) > 1 else ""
    words = [w for w in head.split() if w != "Token"]
    supertypes = tuple(w for w in words if w in MTG_SUPERTYPES)
    types = tuple(w for w in words if w not in MTG_SUPERTYPES)
    return supertypes, types, tuple(tail.split())


def _mentions(text: str, keyword: str) -> bool:
    """Whether ``text`` uses ``keyword`` as a word or phrase, inflected or not ("fights",
    "transformed"), but not inside another word ("Flash" in "Flashback", "Ward" in "toward")."""
    return _keyword_pattern(keyword).search(text) is not None


@cache
def _keyword_pattern(keyword: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(keyword)}(?:s|es|d|ed|ing)?(?![\w-])", re.I)


def face_keywords(texts: list[str], keywords: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Scryfall's card-level ``keywords`` shared out to the faces, in Scryfall's order: a
    one-faced card has them all; a face has those its text uses as a word (:func:`_mentions`),
    and one no face's text uses goes to the front face. Each keyword is Scryfall's, exactly."""
    if len(texts) <= 1:
        return [keywords] * len(texts)
    out: list[list[str]] = [[] for _ in texts]
    for keyword in keywords:
        users = [i for i, text in enumerate(texts) if _mentions(text, keyword)] or [0]
        for i in users:
            out[i].append(keyword)
    return [tuple(k) for k in out]


def _face(
    data: dict[str, Any],
    keywords: tuple[str, ...],
    where: str,
    fallback_colors: tuple[str, ...] = (),
) -> Face:
    if not isinstance(data, dict):
        raise BadRecord(where, f"expected a card face object, got {quote(data)}")
    where = f"{where}." if where else ""
    name = str_or_none(data.get("name"), f"{where}name")
    if name is None:
        raise BadRecord(f"{where}name", "a face needs a name")
    supertypes, types, subtypes = parse_type_line(
        str_or_none(data.get("type_line"), f"{where}type_line")
    )
    text = str_or_none(data.get("oracle_text"), f"{where}oracle_text") or ""
    cost = str_or_none(data.get("mana_cost"), f"{where}mana_cost")
    colors = str_list(data.get("color_indicator"), f"{where}color_indicator")
    if not colors and cost is None:
        colors = str_list(data.get("colors"), f"{where}colors") or fallback_colors
    return Face(
        name=name,
        cost=cost,
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        colors=colors,
        abilities=keywords,
        text=text,
        power=stat(data.get("power"), f"{where}power"),
        toughness=stat(data.get("toughness"), f"{where}toughness"),
        loyalty=stat(data.get("loyalty"), f"{where}loyalty"),
        defense=stat(data.get("defense"), f"{where}defense"),
    )


def record_id(obj: Any) -> str:
    """How a card object is named in messages: ``id`` (and name when it has one)."""
    if not isinstance(obj, dict):
        return "?"
    ident = obj.get("id") if isinstance(obj.get("id"), str) else "?"
    name = obj.get("name")
    return f"{ident} ({name})" if isinstance(name, str) else str(ident)


def _melds_from(obj: dict[str, Any], name: str) -> tuple[str, ...]:
    """A meld result's two parts (from ``all_parts``); ``()`` for a meld part."""
    parts = obj.get("all_parts") or []
    if not isinstance(parts, list):
        raise BadRecord("all_parts", "expected a list")
    result = [
        p.get("name") for p in parts if isinstance(p, dict) and p.get("component") == "meld_result"
    ]
    if name not in result:
        return ()
    melds_from = tuple(
        str(p.get("name"))
        for p in parts
        if isinstance(p, dict) and p.get("component") == "meld_part"
    )
    if len(melds_from) != 2:
        raise BadRecord(
            "all_parts", f"a meld result needs two meld_part entries, got {len(melds_from)}"
        )
    return melds_from


def _prototype_faces(faces: tuple[Face, ...]) -> tuple[Face, ...]:
    """718.1: the card's face and its inset frame (``Prototype {cost} — P/T`` in its text)."""
    found = _PROTOTYPE.search(faces[0].text)
    if found is None:
        raise BadRecord("oracle_text", "a prototype card needs its Prototype {cost} — P/T line")
    inset = Face(name=faces[0].name, cost=found[1], power=int(found[2]), toughness=int(found[3]))
    return (faces[0], inset)


def _one_oracle_card(raw_faces: Any) -> bool:
    """Whether a reversible card's sides are one Oracle card (the same ``oracle_id``)."""
    if not isinstance(raw_faces, list):
        return False
    ids = {f.get("oracle_id") if isinstance(f, dict) else None for f in raw_faces}
    return len(ids) == 1 and isinstance(next(iter(ids)), str)


def convert(obj: Any) -> tuple[Record, str | None]:
    """One Scryfall card object as a :class:`Record`, and a warning (or ``None``).

    Raises :class:`BadRecord` for an object that can't be a card.
    """
    if not isinstance(obj, dict):
        raise BadRecord("", f"expected a card object, got {type(obj).__name__}")
    if obj.get("object") != "card":
        raise BadRecord("object", f"not a Scryfall card object: {quote(obj.get('object'))}")
    name = str_or_none(obj.get("name"), "name")
    if name is None:
        raise BadRecord("name", "a card needs a name")
    raw_layout = obj.get("layout")
    if raw_layout is None:
        raise BadRecord("layout", "missing (every Scryfall card object has one)")
    if not isinstance(raw_layout, str):
        raise BadRecord("layout", f"expected a string, got {quote(raw_layout)}")
    keywords = str_list(obj.get("keywords"), "keywords")
    raw_faces = obj.get("card_faces")
    warning = None
    if raw_layout in DIRECT:
        layout = raw_layout
    elif raw_layout in ALIASES:
        layout = ALIASES[raw_layout]
    else:
        layout = "normal"
        warning = (
            f"layout {quote(raw_layout)} is not an obverse layout; imported as its faces"
            f" ({'normal' if not raw_faces else 'reversible_card'})"
        )
    colors = str_list(obj.get("colors"), "colors")
    if raw_faces is not None:
        if not isinstance(raw_faces, list) or not raw_faces:
            raise BadRecord("card_faces", "expected a non-empty list of faces")
        texts = [str(f.get("oracle_text") or "") if isinstance(f, dict) else "" for f in raw_faces]
        shares = face_keywords(texts, keywords)
        faces = tuple(
            _face(f, shares[i], f"card_faces[{i}]", colors) for i, f in enumerate(raw_faces)
        )
        if len(faces) == 1:
            layout = "normal" if layout not in ("token", "meld") else layout
        elif layout == "normal":
            layout = "reversible_card" if warning else "normal"
        if layout == "normal" and len(faces) > 1:
            raise BadRecord("card_faces", f"a {raw_layout} card has one face, got {len(faces)}")
    else:
        faces = (_face(obj, keywords, "", colors),)
        if layout not in ("normal", "token", "meld", "prototype"):
            raise BadRecord("card_faces", f"a {raw_layout} card needs card_faces")
    if layout == "prototype":
        faces = _prototype_faces(faces)
    if raw_layout == "reversible_card" and _one_oracle_card(raw_faces):
        # Both sides are the same Oracle card: whichever side is chosen, it is that card.
        layout, faces = "normal", faces[:1]
    melds_from = _melds_from(obj, name) if layout == "meld" else ()
    oracle = obj.get("oracle_id")
    if not isinstance(oracle, str) and raw_faces and isinstance(raw_faces[0], dict):
        oracle = raw_faces[0].get("oracle_id")
    key = f"oracle:{oracle}" if isinstance(oracle, str) and oracle else f"name:{name}"
    if layout == "reversible_card":
        key = f"name:{name}"
    card = CardDef(name=name, layout=layout, faces=faces, melds_from=melds_from)
    ident = obj.get("id")
    return Record(key=key, card=card, sources=(ident,) if isinstance(ident, str) else ()), warning


#: Scryfall objects that aren't game cards: skipped with a warning (their type lines, "Card"
#: and "Emblem", aren't type words of the game).
NOT_CARDS: Final = {
    "art_series": "an art series card is not a game card: skipped",
    "emblem": "an emblem is neither a card nor a permanent (114.5): skipped",
}


def read(
    path: str | Path, report: Report, progress: Callable[[int], None] | None = None
) -> Iterator[Record]:
    """The cards of a Scryfall file (a JSON array, a list page ``{"data": [...]}`` or one card
    object), streamed; bad records are reported and skipped."""
    p = str(path)
    for obj in read_json_file(path, report, progress):
        layout = obj.get("layout") if isinstance(obj, dict) else None
        if isinstance(layout, str) and layout in NOT_CARDS:  # reported, not imported
            report(Problem(p, record_id(obj), "layout", NOT_CARDS[layout], warning=True))
            continue
        try:
            record, warning = convert(obj)
        except BadRecord as exc:
            report(Problem(p, record_id(obj), exc.key, exc.message))
            continue
        check_vocabulary("mtg", p, record_id(obj), record.card)
        if warning:
            report(Problem(p, record_id(obj), "layout", warning, warning=True))
        yield record
