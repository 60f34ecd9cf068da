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
from functools import partial
from pathlib import Path
from typing import Any, Final

import msgspec

from obverse import memo
from obverse.cards import CardDef, Face, game_layouts
from obverse.errors import quote
from obverse.importers import (
    BadRecord,
    Problem,
    Record,
    Report,
    check_vocabulary,
    stat,
    str_list,
    str_or_none,
)
from obverse.importers.jsonstream import OBJECT_BOUNDARY, read_records
from obverse.rulesets.mtg.faces import MTG_SUPERTYPES

#: Scryfall layouts kept as they are.
DIRECT: Final = game_layouts("mtg")
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


class ScryfallFace(msgspec.Struct, gc=False):
    """The fields of a Scryfall card face the importer reads (the others are skipped when
    decoding). Values are as in the JSON, unchecked: :func:`convert` checks them."""

    name: Any = None
    type_line: Any = None
    oracle_text: Any = None
    mana_cost: Any = None
    color_indicator: Any = None
    colors: Any = None
    power: Any = None
    toughness: Any = None
    loyalty: Any = None
    defense: Any = None
    oracle_id: Any = None


class ScryfallCard(ScryfallFace, gc=False):
    """The fields of a Scryfall card object the importer reads: a one-faced card's own face
    fields, and the card's. ``all_parts`` stays undecoded JSON until a meld card needs it."""

    object: Any = None
    id: Any = None
    layout: Any = None
    keywords: Any = None
    card_faces: list[ScryfallFace] | None = None
    all_parts: msgspec.Raw = msgspec.Raw()


_FACE_FIELDS: Final = ScryfallFace.__struct_fields__
_CARD_FIELDS: Final = ScryfallCard.__struct_fields__
#: Where one card object ends and the next begins in a bulk file (Scryfall writes ``object``
#: first; a card face's is ``card_face``): a run cut there is almost never inside a card.
CARD_BOUNDARY: Final = re.compile(rb'\}\s*,\s*\{\s*"object"\s*:\s*"card"\s*[,}]')


def as_card(obj: Any) -> Any:
    """A card object as a :class:`ScryfallCard` (a dict's known fields, its face objects as
    :class:`ScryfallFace`), unchecked; anything else as it is (:func:`convert` refuses it)."""
    if not isinstance(obj, dict):
        return obj
    fields = {k: obj[k] for k in _CARD_FIELDS if k in obj}
    faces = fields.get("card_faces")
    if isinstance(faces, list):
        fields["card_faces"] = [
            ScryfallFace(**{k: f[k] for k in _FACE_FIELDS if k in f}) if isinstance(f, dict) else f
            for f in faces
        ]
    return ScryfallCard(**fields)


@memo.per_value(kept=4096)  # type lines repeat: "Creature — Human Wizard"
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


#: The non-ASCII characters ``re.IGNORECASE`` matches to ASCII letters (İ ı ſ K).
_FOLD_TO_ASCII: Final = "\u0130\u0131\u017f\u212a"


def _mentions(text: str, keyword: str, folded: bytes | None = None) -> bool:
    """Whether ``text`` uses ``keyword`` as a word or phrase, inflected or not ("fights",
    "transformed"), but not inside another word ("Flash" in "Flashback", "Ward" in "toward").

    ``folded`` is :func:`_ascii_folded` ``(text)``: the pattern is then tried only where the
    keyword's letters are (a search from every position is slow), with the same answer."""
    pattern, needle = _keyword_pattern(keyword)
    if folded is None or needle is None:
        return pattern.search(text) is not None
    at = folded.find(needle)
    while at >= 0:
        if pattern.match(text, at):
            return True
        at = folded.find(needle, at + 1)
    return False


def _ascii_folded(text: str) -> bytes | None:
    """``text`` lower-cased, one byte a character (non-ASCII ones as ``?``): where an ASCII
    keyword can match it ignoring case; None when a character ignoring case turns ASCII."""
    if not text.isascii() and any(c in text for c in _FOLD_TO_ASCII):
        return None
    return text.encode("ascii", "replace").lower()


@memo.per_value
def _keyword_pattern(keyword: str) -> tuple[re.Pattern[str], bytes | None]:
    """The pattern of a keyword in use, and (if ASCII) the keyword as :func:`_ascii_folded`
    text has it."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(keyword)}(?:s|es|d|ed|ing)?(?![\w-])", re.I)
    return pattern, keyword.lower().encode() if keyword.isascii() else None


def face_keywords(texts: list[str], keywords: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Scryfall's card-level ``keywords`` shared out to the faces, in Scryfall's order: a
    one-faced card has them all; a face has those its text uses as a word (:func:`_mentions`),
    and one no face's text uses goes to the front face. Each keyword is Scryfall's, exactly."""
    if len(texts) <= 1:
        return [keywords] * len(texts)
    out: list[list[str]] = [[] for _ in texts]
    folded = [(text, _ascii_folded(text)) for text in texts]
    for keyword in keywords:
        used = False
        for i, (text, f) in enumerate(folded):
            if _mentions(text, keyword, f):
                out[i].append(keyword)
                used = True
        if not used:
            out[0].append(keyword)
    return [tuple(k) for k in out]


def _face(
    data: Any,
    keywords: tuple[str, ...],
    index: int | None,
    fallback_colors: tuple[str, ...] = (),
) -> Face:
    """The face ``card_faces[index]`` (the card itself when ``index`` is None)."""
    if not isinstance(data, ScryfallFace):
        raise BadRecord(f"card_faces[{index}]", f"expected a card face object, got {quote(data)}")
    try:
        return _face_fields(data, keywords, fallback_colors)
    except BadRecord as exc:  # the key named within the face: card_faces[1].power
        if index is None:
            raise
        raise BadRecord(f"card_faces[{index}].{exc.key}", exc.message) from None


def _face_fields(data: ScryfallFace, keywords: tuple[str, ...], fallback: tuple[str, ...]) -> Face:
    name = str_or_none(data.name, "name")
    if name is None:
        raise BadRecord("name", "a face needs a name")
    supertypes, types, subtypes = parse_type_line(str_or_none(data.type_line, "type_line"))
    text = str_or_none(data.oracle_text, "oracle_text") or ""
    cost = str_or_none(data.mana_cost, "mana_cost")
    colors = str_list(data.color_indicator, "color_indicator")
    if not colors and cost is None:
        colors = str_list(data.colors, "colors") or fallback
    return Face(
        name=name,
        cost=cost,
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        colors=colors,
        abilities=keywords,
        text=text,
        power=stat(data.power, "power"),
        toughness=stat(data.toughness, "toughness"),
        loyalty=stat(data.loyalty, "loyalty"),
        defense=stat(data.defense, "defense"),
    )


def record_id(obj: Any) -> str:
    """How a card object is named in messages: ``id`` (and name when it has one)."""
    if isinstance(obj, dict):
        ident, name = obj.get("id"), obj.get("name")
    elif isinstance(obj, ScryfallCard):
        ident, name = obj.id, obj.name
    else:
        return "?"
    ident = ident if isinstance(ident, str) else "?"
    return f"{ident} ({name})" if isinstance(name, str) else str(ident)


def _melds_from(obj: ScryfallCard, name: str) -> tuple[str, ...]:
    """A meld result's two parts (from ``all_parts``); ``()`` for a meld part."""
    parts: Any = obj.all_parts
    if isinstance(parts, msgspec.Raw):  # read from a file: decoded only now, for a meld card
        parts = msgspec.json.decode(parts) if parts else None
    parts = parts or []
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
    ids = {f.oracle_id if isinstance(f, ScryfallFace) else None for f in raw_faces}
    return len(ids) == 1 and isinstance(next(iter(ids)), str)


def _layout(raw_layout: Any, has_faces: bool) -> tuple[str, str | None]:
    """The obverse layout of a Scryfall layout, and a warning for one obverse doesn't have."""
    if raw_layout is None:
        raise BadRecord("layout", "missing (every Scryfall card object has one)")
    if not isinstance(raw_layout, str):
        raise BadRecord("layout", f"expected a string, got {quote(raw_layout)}")
    if raw_layout in DIRECT:
        return raw_layout, None
    if raw_layout in ALIASES:
        return ALIASES[raw_layout], None
    warning = (
        f"layout {quote(raw_layout)} is not an obverse layout; imported as its faces"
        f" ({'reversible_card' if has_faces else 'normal'})"
    )
    return "normal", warning


def _faces(
    obj: ScryfallCard, layout: str, warning: str | None, keywords: tuple[str, ...]
) -> tuple[str, tuple[Face, ...]]:
    """The card's faces (its ``card_faces``, or the card itself) and its layout as they say."""
    raw_layout, raw_faces = obj.layout, obj.card_faces
    colors = str_list(obj.colors, "colors")
    if raw_faces is None:
        if layout not in ("normal", "token", "meld", "prototype"):
            raise BadRecord("card_faces", f"a {raw_layout} card needs card_faces")
        return layout, (_face(obj, keywords, None, colors),)
    if not isinstance(raw_faces, list) or not raw_faces:
        raise BadRecord("card_faces", "expected a non-empty list of faces")
    if len(raw_faces) == 1:
        shares = [keywords]
    else:
        texts = [str(f.oracle_text or "") if isinstance(f, ScryfallFace) else "" for f in raw_faces]
        shares = face_keywords(texts, keywords)
    faces = tuple([_face(f, shares[i], i, colors) for i, f in enumerate(raw_faces)])
    if len(faces) == 1:
        layout = "normal" if layout not in ("token", "meld") else layout
    elif layout == "normal":
        layout = "reversible_card" if warning else "normal"
    if layout == "normal" and len(faces) > 1:
        raise BadRecord("card_faces", f"a {raw_layout} card has one face, got {len(faces)}")
    return layout, faces


def convert(obj: Any) -> tuple[Record, str | None]:
    """One Scryfall card object (a dict, or a :class:`ScryfallCard` as read from a file) as a
    :class:`Record`, and a warning (or ``None``).

    Raises :class:`BadRecord` for an object that can't be a card.
    """
    obj = as_card(obj)
    if not isinstance(obj, ScryfallCard):
        raise BadRecord("", f"expected a card object, got {type(obj).__name__}")
    if obj.object != "card":
        raise BadRecord("object", f"not a Scryfall card object: {quote(obj.object)}")
    name = str_or_none(obj.name, "name")
    if name is None:
        raise BadRecord("name", "a card needs a name")
    raw_faces = obj.card_faces
    layout, warning = _layout(obj.layout, bool(raw_faces))
    keywords = str_list(obj.keywords, "keywords")
    layout, faces = _faces(obj, layout, warning, keywords)
    if layout == "prototype":
        faces = _prototype_faces(faces)
    if obj.layout == "reversible_card" and _one_oracle_card(raw_faces):
        # Both sides are the same Oracle card: whichever side is chosen, it is that card.
        layout, faces = "normal", faces[:1]
    melds_from = _melds_from(obj, name) if layout == "meld" else ()
    oracle = obj.oracle_id
    if not isinstance(oracle, str) and raw_faces and isinstance(raw_faces[0], ScryfallFace):
        oracle = raw_faces[0].oracle_id
    key = f"oracle:{oracle}" if isinstance(oracle, str) and oracle else f"name:{name}"
    if layout == "reversible_card":
        key = f"name:{name}"
    card = CardDef(name=name, layout=layout, faces=faces, melds_from=melds_from)
    ident = obj.id
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
    boundaries = (CARD_BOUNDARY, OBJECT_BOUNDARY)
    for item in read_records(path, report, ScryfallCard, progress, boundaries):
        obj = as_card(item)
        layout = obj.layout if isinstance(obj, ScryfallCard) else None
        if isinstance(layout, str) and layout in NOT_CARDS:  # reported, not imported
            report(Problem(p, record_id(obj), "layout", NOT_CARDS[layout], warning=True))
            continue
        try:
            record, warning = convert(obj)
        except BadRecord as exc:
            report(Problem(p, record_id(obj), exc.key, exc.message))
            continue
        check_vocabulary("mtg", p, partial(record_id, obj), record.card)
        if warning:
            report(Problem(p, record_id(obj), "layout", warning, warning=True))
        yield record
