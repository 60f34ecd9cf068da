"""Grand Archive index API JSON (``api.gatcg.com`` ``/cards/search`` pages, card lists or single
card objects) to :class:`CardDef`.

A card whose editions have ``configuration: "flip"`` and an ``other_orientations`` entry is a
``double_faced`` card: its own face first (the default side), the other orientation's card
second. A back face that also appears as a top-level card (orientation ``back``) is folded into
its front. Types follow the bundled curated data: ``REGALIA`` and ``UNIQUE`` are supertypes,
the other words of ``types`` are types, ``subtypes`` as the index lists them; ``abilities``
are the keywords the effect's first paragraph lists in bold (``**Immortality**``).
Every card is checked against the game's type words (:func:`check_vocabulary`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from obverse.cards import CardDef, Face
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

#: Card Types - Supertypes: Regalia and Unique (the index lists them among ``types``).
SUPERTYPES: Final = frozenset({"REGALIA", "UNIQUE"})
_BOLD_LIST: Final = re.compile(r"^\*\*([^*]+)\*\*(?:\s*,\s*\*\*([^*]+)\*\*)*\s*$")
_BOLD: Final = re.compile(r"\*\*([^*]+)\*\*")


def _abilities(effect: str | None) -> tuple[str, ...]:
    if not effect:
        return ()
    first = effect.strip().split("\n\n", 1)[0].strip()
    if not _BOLD_LIST.match(first):
        return ()
    return tuple(m.strip() for m in _BOLD.findall(first))


def face_of(data: dict[str, Any], where: str = "") -> Face:
    """One GA card object as a face."""
    pre = f"{where}." if where else ""
    name = str_or_none(data.get("name"), f"{pre}name")
    if name is None:
        raise BadRecord(f"{pre}name", "a card needs a name")
    types = str_list(data.get("types"), f"{pre}types")
    element = str_or_none(data.get("element"), f"{pre}element")
    effect = str_or_none(data.get("effect"), f"{pre}effect")
    raw = str_or_none(data.get("effect_raw"), f"{pre}effect_raw")
    return Face(
        name=name,
        supertypes=tuple(t for t in types if t in SUPERTYPES),
        types=tuple(t for t in types if t not in SUPERTYPES),
        subtypes=str_list(data.get("subtypes"), f"{pre}subtypes"),
        element=element,
        abilities=_abilities(effect),
        text=(raw or effect or "").replace("CARDNAME", name),
        reserve_cost=stat(data.get("cost_reserve"), f"{pre}cost_reserve"),
        memory_cost=stat(data.get("cost_memory"), f"{pre}cost_memory"),
        power=stat(data.get("power"), f"{pre}power"),
        life=stat(data.get("life"), f"{pre}life"),
        durability=stat(data.get("durability"), f"{pre}durability"),
        level=stat(data.get("level"), f"{pre}level"),
    )


def _back_of(data: dict[str, Any]) -> dict[str, Any] | None:
    editions = data.get("editions") or []
    if not isinstance(editions, list):
        raise BadRecord("editions", "expected a list")
    for i, edition in enumerate(editions):
        if not isinstance(edition, dict):
            raise BadRecord(f"editions[{i}]", "expected an edition object")
        others = edition.get("other_orientations") or []
        if not isinstance(others, list):
            raise BadRecord(f"editions[{i}].other_orientations", "expected a list")
        if edition.get("configuration") == "flip" and edition.get("orientation") != "back":
            for j, other in enumerate(others):
                if not isinstance(other, dict):
                    raise BadRecord(
                        f"editions[{i}].other_orientations[{j}]", "expected a card object"
                    )
                return other
    return None


def _is_back(data: dict[str, Any]) -> bool:
    editions = data.get("editions") or []
    return (
        isinstance(editions, list)
        and bool(editions)
        and all(
            isinstance(e, dict)
            and e.get("configuration") == "flip"
            and e.get("orientation") == "back"
            for e in editions
        )
    )


def convert(data: Any) -> Record:
    """One GA card object as a :class:`Record` (double-faced with its other orientation)."""
    if not isinstance(data, dict):
        raise BadRecord("", f"expected a card object, got {type(data).__name__}")
    uuid = str_or_none(data.get("uuid"), "uuid")
    if uuid is None:
        raise BadRecord("uuid", "missing")
    front = face_of(data)
    back_data = _back_of(data)
    if back_data is None:
        return Record(
            key=uuid, card=CardDef(name=front.name or "", faces=(front,)), sources=(uuid,)
        )
    back = face_of(back_data, "other_orientations[0]")
    sources = (uuid, back_data["uuid"]) if isinstance(back_data.get("uuid"), str) else (uuid,)
    return Record(
        key=uuid,
        card=CardDef(
            name=f"{front.name} // {back.name}", layout="double_faced", faces=(front, back)
        ),
        sources=sources,
    )


def _ident(data: Any, n: int) -> str:
    if isinstance(data, dict):
        uuid = data.get("uuid") if isinstance(data.get("uuid"), str) else f"item {n}"
        name = data.get("name")
        return f"{uuid} ({name})" if isinstance(name, str) else str(uuid)
    return f"item {n}"


def read(
    paths: list[Path], report: Report, progress: Callable[[int], None] | None = None
) -> Iterator[Record]:
    """The cards of GA API files; back faces listed on their own join their front card."""
    backs: list[tuple[str, Any, int]] = []
    fronts_seen: set[str] = set()
    for path in paths:
        p = str(path)
        for n, data in enumerate(read_json_file(path, report, progress), 1):
            if isinstance(data, dict) and _is_back(data):
                backs.append((p, data, n))
                continue
            try:
                record = convert(data)
            except BadRecord as exc:
                report(Problem(p, _ident(data, n), exc.key, exc.message))
                continue
            check_vocabulary("ga", p, _ident(data, n), record.card)
            fronts_seen.update(record.sources)
            yield record
    for p, data, n in backs:
        if data.get("uuid") in fronts_seen:
            continue  # already part of its front card
        try:
            record = convert(data)
        except BadRecord as exc:
            report(Problem(p, _ident(data, n), exc.key, exc.message))
            continue
        check_vocabulary("ga", p, _ident(data, n), record.card)
        report(
            Problem(
                p,
                _ident(data, n),
                "editions",
                "a back face whose front card is not in these files; imported alone",
                warning=True,
            )
        )
        yield record
