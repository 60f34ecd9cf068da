"""The Flesh and Blood card database (the-fab-cube/flesh-and-blood-cards) to :class:`CardDef`.

Reads ``card.csv`` (tab-separated, with ``card-printing.csv`` and ``card-face-association.csv``
beside it) or ``card.json`` (with ``card-face-association.json`` beside it), or the
``@flesh-and-blood/cards`` npm package's ``cards`` array written out as JSON (``node -e
'process.stdout.write(JSON.stringify(require("@flesh-and-blood/cards").cards))'``), whose
cards name their other side in ``oppositeSideCardIdentifier(s)`` and mark a back-only card
``isCardBack``. One record per
card (name + pitch). Double-faced cards are paired through the face association (printing ids
mapped to cards), never through a back face's ``other_face_unique_id``, which upstream writes
as a self-reference; without an association file only front entries of
``double_sided_card_info`` are trusted. Kinds (CR 9.1): a front face with subtype Figment,
Invocation or Construct makes a ``flip`` card (9.1.3), a front with Transcend a ``transcend``
card (9.1.5), any other pair a ``twin`` card (9.1.4); a front with a flip subtype pairs even
where the source says the printing isn't double-faced (Construct Bank Breaker). A back card with
a single front is stored as part of that card; one shared by several fronts (Inner Chi), or
printed on its own too (a Fabric construct's equipment, Fyendal's Spring Tunic), also stays a
card of its own. A hybrid type box (``Brute / Warrior Action``, CR 2.14.1b) gives the face all
the supertypes and its two sets in ``hybrid``. Meld cards (``A // B``, one record upstream)
are ``split`` cards with both halves.

Faces follow the bundled curated data: supertypes are the class and talent words (``Generic``
means none), types the type keywords, subtypes the words after the dash; ``life`` is health,
``intellect`` intelligence; a ``*`` value stays the string ``*`` (defined by text; a copy of
it takes the original's value, CR 8.5.25e).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, NamedTuple

from obverse.cards import CardDef, Face
from obverse.errors import quote
from obverse.importers import (
    FORMATS,
    BadRecord,
    Problem,
    Record,
    Report,
    check_vocabulary,
    read_json_file,
    stat,
)
from obverse.rulesets.fab import FleshAndBlood

#: FaB type keywords (CR 2.15.6a, the ruleset's own list); the other words before the dash
#: are supertypes.
TYPES: Final = FleshAndBlood.type_words["types"]
MULTI_WORD: Final = ("Attack Reaction", "Defense Reaction", "High Seas", "Placeholder Card")
FLIP_SUBTYPES: Final = frozenset({"Figment", "Invocation", "Construct"})
PITCH_COLORS: Final = {"Red": 1, "Yellow": 2, "Blue": 3}
_DASH: Final = re.compile(r"\s+[-–—]\s+")
_SPLIT_TEXT: Final = re.compile(r"\n\s*//\s*\n")
#: Keywords the rules read from ``abilities`` (8.3.36, 8.3.38, 8.3.39, 8.3.42).
RULE_KEYWORDS: Final = ("Cloaked", "Meld", "Perched", "Suspense")
_BOLD: Final = re.compile(r"\*\*(.+?)\*\*")
_PARAMETER: Final = re.compile(r"\d+|X|of [A-Z].*")
_NAME_WORD: Final = re.compile(r"[A-Z][\w']*")
#: The slash between a hybrid card's two supertype sets (CR 2.14.1b); not a split's ``//``.
_HYBRID: Final = re.compile(r"\s+/\s+")
CSV_COLUMNS: Final = (
    "Unique ID",
    "Name",
    "Color",
    "Pitch",
    "Cost",
    "Power",
    "Defense",
    "Health",
    "Intelligence",
    "Types",
    "Card Keywords",
    "Functional Text",
    "Type Text",
)
csv.field_size_limit(16 * 1024 * 1024)


class Row(NamedTuple):
    """One card of the database in a neutral form (CSV and JSON alike)."""

    uid: str
    name: str
    color: str
    values: dict[str, Any]
    keywords: tuple[str, ...]
    text: str
    type_text: str


def _words(part: str) -> list[str]:
    out: list[str] = []
    rest = part.strip()
    while rest:
        for multi in MULTI_WORD:
            if rest.startswith(multi) and (len(rest) == len(multi) or rest[len(multi)] == " "):
                out.append(multi)
                rest = rest[len(multi) :].strip()
                break
        else:
            word, _, rest = rest.partition(" ")
            out.append(word)
            rest = rest.strip()
    return out


def parse_type_text(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(supertypes, types, subtypes)`` of a type box such as
    ``Draconic Illusionist Action - Invocation`` (``Generic`` is no supertype). A hybrid
    type box (``Brute / Warrior Action - Attack``, CR 2.14.1b) has all the supertypes of
    both sets; :func:`hybrid_sets` gives the sets."""
    parts = _DASH.split(text.strip(), maxsplit=1)
    head = _words(_HYBRID.sub(" ", parts[0]))
    sub = tuple(_words(parts[1])) if len(parts) > 1 else ()
    supertypes = tuple(dict.fromkeys(w for w in head if w not in TYPES and w != "Generic"))
    types = tuple(w for w in head if w in TYPES)
    return supertypes, types, sub


def hybrid_sets(text: str) -> tuple[str, ...]:
    """CR 2.14.1b: the two supertype sets of a hybrid type box ``[SUPERTYPES-1] /
    [SUPERTYPES-2] ...``, each written as in the box (``("Brute", "Warrior")``); empty for
    any other type box."""
    sides = _HYBRID.split(_DASH.split(text.strip(), maxsplit=1)[0])
    if len(sides) != 2:
        return ()
    sets = tuple(
        " ".join(w for w in _words(side) if w not in TYPES and w != "Generic") for side in sides
    )
    return sets if all(sets) else ()


def _plain(text: str) -> str:
    return text.replace("**", "").strip()


def _stat(value: Any, key: str) -> int | str | None:
    return stat(value, key)


def _face(row: Row, name: str, type_text: str, text: str) -> Face:
    supertypes, types, subtypes = parse_type_text(type_text)
    v = row.values
    return Face(
        name=name,
        cost=_stat(v.get("cost"), "cost"),
        pitch=_stat(v.get("pitch"), "pitch"),
        power=_stat(v.get("power"), "power"),
        defense=_stat(v.get("defense"), "defense"),
        life=_stat(v.get("health"), "health"),
        intellect=_stat(v.get("intelligence"), "intelligence"),
        colors=(row.color,) if row.color else (),
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        abilities=row.keywords,
        text=text,
        hybrid=hybrid_sets(type_text),
    )


def faces_of(row: Row) -> tuple[str, tuple[Face, ...]]:
    """The layout (``normal`` or ``split``) and faces of one database card."""
    names = row.name.split(" // ")
    if len(names) == 2 and all(names):
        types = row.type_text.split(" // ")
        texts = _SPLIT_TEXT.split(row.text, maxsplit=1)
        if len(types) != 2:
            raise BadRecord(
                "type_text", f"a split card needs two type boxes, got {quote(row.type_text)}"
            )
        if len(texts) != 2:
            texts = [row.text, ""]
        return "split", tuple(
            _face(row, n, t, x.strip()) for n, t, x in zip(names, types, texts, strict=True)
        )
    return "normal", (_face(row, row.name, row.type_text, row.text),)


def _keywords(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, list):
        if not all(isinstance(x, str) for x in value):
            raise BadRecord(key, f"expected a list of strings, got {quote(value)}")
        return tuple(x for x in value if x)
    if isinstance(value, str):
        return tuple(x.strip() for x in value.split(",") if x.strip())
    if value is None:
        return ()
    raise BadRecord(key, f"expected a list of keywords, got {quote(value)}")


def _check_str(value: Any, key: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRecord(key, f"expected a string, got {quote(value)}")
    return value


def _id_and_name(raw: dict[str, Any], id_key: str, name_key: str) -> tuple[str, str]:
    """A record's id and name, both required."""
    uid = _check_str(raw.get(id_key), id_key).strip()
    name = _check_str(raw.get(name_key), name_key).strip()
    if not uid:
        raise BadRecord(id_key, "missing")
    if not name:
        raise BadRecord(name_key, "missing")
    return uid, name


def row_from_csv(raw: dict[str, Any]) -> Row:
    """A :class:`Row` from a ``card.csv`` row (already read by :mod:`csv`)."""
    uid, name = _id_and_name(raw, "Unique ID", "Name")
    values = {
        "cost": raw.get("Cost"),
        "pitch": raw.get("Pitch"),
        "power": raw.get("Power"),
        "defense": raw.get("Defense"),
        "health": raw.get("Health"),
        "intelligence": raw.get("Intelligence"),
    }
    for key, value in values.items():
        _stat(value, key)
    return Row(
        uid,
        name,
        _check_str(raw.get("Color"), "Color").strip(),
        values,
        _keywords(raw.get("Card Keywords"), "Card Keywords"),
        _plain(_check_str(raw.get("Functional Text"), "Functional Text")),
        _check_str(raw.get("Type Text"), "Type Text"),
    )


def row_from_json(raw: Any) -> Row:
    """A :class:`Row` from a ``card.json`` card object."""
    if not isinstance(raw, dict):
        raise BadRecord("", f"expected a card object, got {type(raw).__name__}")
    uid, name = _id_and_name(raw, "unique_id", "name")
    values = {
        k: raw.get(k) for k in ("cost", "pitch", "power", "defense", "health", "intelligence")
    }
    for key, value in values.items():
        _stat(value, key)
    plain = raw.get("functional_text_plain")
    text = (
        _check_str(plain, "functional_text_plain")
        if plain is not None
        else _plain(_check_str(raw.get("functional_text"), "functional_text"))
    )
    return Row(
        uid,
        name,
        _check_str(raw.get("color"), "color").strip(),
        values,
        _keywords(raw.get("card_keywords"), "card_keywords"),
        text.strip(),
        _check_str(raw.get("type_text"), "type_text"),
    )


#: The color a ``@flesh-and-blood/cards`` identifier ends with (``sink-below-red``): the
#: package has no color field, its identifiers name the pitch variant.
NPM_COLORS: Final = {"-red": "Red", "-yellow": "Yellow", "-blue": "Blue"}


def is_npm_card(raw: Any) -> bool:
    """Whether ``raw`` is a card of the ``@flesh-and-blood/cards`` npm package (its
    ``cards`` array, written out as JSON) rather than a the-fab-cube ``card.json`` card."""
    return isinstance(raw, dict) and "cardIdentifier" in raw and "unique_id" not in raw


def _with_parameters(keywords: tuple[str, ...], text: str) -> tuple[str, ...]:
    """The npm package lists a keyword without what it is written with (``Essence`` for
    ``**Essence of Earth and Lightning**``, ``Ward`` for ``**Ward 10**``, ``Fusion`` for
    ``**Ice Fusion**``): each keyword as its first bold span in the text that starts or ends
    with it, as the-fab-cube lists them (8.3.16 reads ``Essence of ...``)."""
    spans = [s.strip() for s in _BOLD.findall(text)]

    def written(k: str, span: str) -> bool:
        if span.startswith(k + " "):  # Ward 10, Arcane Barrier 1, Essence of Ice
            return bool(_PARAMETER.fullmatch(span[len(k) + 1 :]))
        # Ice Fusion, Rhinar Specialization: one word before it
        return span.endswith(" " + k) and bool(_NAME_WORD.fullmatch(span[: -len(k) - 1]))

    out = tuple(next((s for s in spans if written(k, s)), k) for k in keywords)
    # a keyword the rules read, printed on a line of its own but not listed (Perched)
    lines = {line.strip() for line in text.splitlines()}
    return out + tuple(k for k in RULE_KEYWORDS if k not in out and f"**{k}**" in lines)


def row_from_npm(raw: dict[str, Any]) -> Row:
    """A :class:`Row` from an ``@flesh-and-blood/cards`` card object: ``cardIdentifier`` is
    its id, ``typeText`` its type box, ``functionalText`` its text; ``life`` and
    ``intellect`` are health and intelligence."""
    uid, name = _id_and_name(raw, "cardIdentifier", "name")
    values = {  # a special value ("*", "X") where the number isn't printed
        "cost": raw.get("cost", raw.get("specialCost")),
        "pitch": raw.get("pitch"),
        "power": raw.get("power", raw.get("specialPower")),
        "defense": raw.get("defense", raw.get("specialDefense")),
        "health": raw.get("life", raw.get("specialLife")),
        "intelligence": raw.get("intellect"),
    }
    for key, value in values.items():
        _stat(value, key)
    color = next((c for end, c in NPM_COLORS.items() if uid.endswith(end)), "")
    text = _check_str(raw.get("functionalText"), "functionalText")
    return Row(
        uid,
        name,
        color,
        values,
        _with_parameters(_keywords(raw.get("keywords"), "keywords"), text),
        _plain(text),
        _check_str(raw.get("typeText"), "typeText"),
    )


class Pairing(NamedTuple):
    """A printing-level face association: front printing, back printing, double-faced."""

    front: str
    back: str
    dfc: bool


def _read_csv(
    path: Path, report: Report, required: tuple[str, ...] = ()
) -> Iterator[dict[str, Any]]:
    if path.exists() and not path.is_file():  # a device or pipe: endless, or blocks
        report(Problem(str(path), "", "", "not a regular file"))
        return
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            reader = csv.DictReader(stream, delimiter="\t", quotechar='"')
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                report(Problem(str(path), "header", missing[0], "missing column"))
                return
            yield from reader
    except OSError as exc:
        report(Problem(str(path), "", "", f"can't read: {exc.strerror or exc}"))
    except (csv.Error, UnicodeDecodeError) as exc:
        report(Problem(str(path), "", "", f"bad CSV: {exc}"))


def csv_mismatch(path: Path) -> str | None:
    """Why ``path`` is not a FaB ``card.csv`` (its header lacks the card columns), or None."""
    problems: list[Problem] = []
    for _row in _read_csv(path, problems.append, CSV_COLUMNS):
        return None
    if not problems:
        return None  # a header and no rows: nothing to import, nothing wrong
    if problems[0].record == "header":
        return (
            f"not {FORMATS['fab']}: the header has no {problems[0].key!r} column"
            " (a tab-separated card.csv is expected)"
        )
    return problems[0].message


def _is_dfc(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in ("yes", "true"))


def read_pairings(path: Path, report: Report) -> list[Pairing]:
    """The face associations in ``card-face-association.csv`` or ``.json``."""
    out: list[Pairing] = []
    if path.suffix == ".csv":
        cols = ("Front Card Printing Unique ID", "Back Card Printing Unique ID", "Is DFC")
        for raw in _read_csv(path, report, cols):
            out.append(
                Pairing(str(raw[cols[0]]).strip(), str(raw[cols[1]]).strip(), _is_dfc(raw[cols[2]]))
            )
        return out
    for n, item in enumerate(read_json_file(path, report), 1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("front_unique_id"), str)
            or not isinstance(item.get("back_unique_id"), str)
        ):
            report(
                Problem(
                    str(path),
                    f"item {n}",
                    "front_unique_id",
                    "expected front_unique_id and back_unique_id strings",
                )
            )
            continue
        out.append(
            Pairing(item["front_unique_id"], item["back_unique_id"], _is_dfc(item.get("is_DFC")))
        )
    return out


def kind_of(front: Face) -> str:
    """The double-faced kind decided by the front face (CR 9.1.3-9.1.5)."""
    if FLIP_SUBTYPES.intersection(front.subtypes):
        return "flip"
    if "Transcend" in front.abilities:
        return "transcend"
    return "twin"


class _Collected:
    """Rows read so far, their printings and face pairings, and duplicate Unique IDs."""

    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}
        self.order: list[str] = []
        self.where: dict[str, list[tuple[str, str]]] = {}  # uid -> (path, label) per row
        self.conflicted: set[str] = set()
        self.printing_card: dict[str, str] = {}
        self.pairings: list[Pairing] = []
        self.fallback: list[Pairing] = []
        self.have_association = False
        #: Cards that are cards of their own, not only another card's back (npm: no
        #: ``isCardBack``); the-fab-cube's are found from printings (:func:`_standalone`).
        self.standalone: set[str] = set()
        #: The npm package's own pairs (``oppositeSideCardIdentifier``, card level).
        self.npm_pairings: list[Pairing] = []

    def add(self, row: Row, path: str, label: str, report: Report) -> bool:
        """Keep ``row``; False for a repeated Unique ID (reported: an identical repeat as a
        warning, a different card under the same id as a conflict, skipped at the end)."""
        old = self.rows.get(row.uid)
        if old is None:
            self.rows[row.uid] = row
            self.order.append(row.uid)
            self.where[row.uid] = [(path, label)]
            return True
        self.where[row.uid].append((path, label))
        if old == row:
            report(Problem(path, label, "Unique ID", "repeats an identical row", warning=True))
        else:
            self.conflicted.add(row.uid)
        return False

    def drop_conflicts(self, report: Report) -> None:
        """Skip every row of a Unique ID that names different cards: which is right is
        unknown, so what a database holds under it is kept."""
        for uid in sorted(self.conflicted):
            rows = self.where[uid]
            for path, label in rows:
                others = ", ".join(lab for _p, lab in rows if lab != label)
                message = f"duplicate Unique ID, a different card than {others}; skipped"
                report(Problem(path, label, "Unique ID", message))
            del self.rows[uid]
            self.order.remove(uid)

    def read_csv(self, path: Path, report: Report) -> None:
        p = str(path)
        for n, raw in enumerate(_read_csv(path, report, CSV_COLUMNS), 1):
            label = f"{raw.get('Unique ID') or f'row {n + 1}'} ({raw.get('Name')})"
            try:
                row = row_from_csv(raw)
            except BadRecord as exc:
                report(Problem(p, label, exc.key, exc.message))
                continue
            self.add(row, p, f"{label}, row {n + 1}", report)
        sibling = path.with_name("card-printing.csv")
        if sibling.exists():
            for raw in _read_csv(sibling, report, ("Unique ID", "Card Unique ID")):
                self.printing_card[str(raw["Unique ID"]).strip()] = str(raw["Card Unique ID"])

    def read_json(self, path: Path, report: Report, progress: Callable[[int], None] | None) -> None:
        p = str(path)
        for n, raw in enumerate(read_json_file(path, report, progress), 1):
            ident = raw.get("unique_id") if isinstance(raw, dict) else None
            label = f"{ident or f'item {n}'}"
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                label += f" ({raw['name']})"
            npm = is_npm_card(raw)
            if npm:
                label = f"{raw.get('cardIdentifier') or f'item {n}'} ({raw.get('name')})"
            try:
                row = row_from_npm(raw) if npm else row_from_json(raw)
            except BadRecord as exc:
                report(Problem(p, label, exc.key, exc.message))
                continue
            if not self.add(row, p, f"{label}, item {n}", report):
                continue
            if npm:
                self.npm_card(row.uid, raw)
            else:
                self.printings_of(row.uid, raw.get("printings"))

    def npm_card(self, uid: str, raw: dict[str, Any]) -> None:
        """An npm card's pairing: a card that is not only a back (``isCardBack``) names its
        other side in ``oppositeSideCardIdentifier(s)``; ids are card ids, so each card is
        its own "printing" here."""
        self.printing_card[uid] = uid
        if raw.get("isCardBack") is True:
            return
        self.standalone.add(uid)
        others = raw.get("oppositeSideCardIdentifiers") or [raw.get("oppositeSideCardIdentifier")]
        for other in others if isinstance(others, list) else []:
            if isinstance(other, str) and other and other != uid:
                self.npm_pairings.append(Pairing(uid, other, True))

    def printings_of(self, uid: str, printings: Any) -> None:
        for printing in printings if isinstance(printings, list) else []:
            if not isinstance(printing, dict) or not isinstance(printing.get("unique_id"), str):
                continue
            self.printing_card[printing["unique_id"]] = uid
            for info in printing.get("double_sided_card_info") or []:
                other = info.get("other_face_unique_id") if isinstance(info, dict) else None
                # Only a front entry is trusted: upstream writes a back face's
                # other_face_unique_id as its own id.
                if (
                    isinstance(other, str)
                    and info.get("is_front") is True
                    and other != printing["unique_id"]
                ):
                    self.fallback.append(
                        Pairing(printing["unique_id"], other, _is_dfc(info.get("is_DFC")))
                    )


def read(
    paths: list[Path], report: Report, progress: Callable[[int], None] | None = None
) -> Iterator[Record]:
    """The cards of FaB database files (``card.csv`` / ``card.json`` and their siblings).

    A repeated Unique ID naming different cards skips all its rows; a double-faced card whose
    other face is missing from the files (or was skipped) is skipped too: storing it
    single-faced would downgrade the card a database holds. Both are reported per record."""
    got = _Collected()
    for path in paths:
        if path.suffix.lower() == ".csv":
            got.read_csv(path, report)
        else:
            got.read_json(path, report, progress)
        sibling = path.with_name("card-face-association" + path.suffix.lower())
        if sibling.exists():
            got.have_association = True
            got.pairings.extend(read_pairings(sibling, report))
    got.drop_conflicts(report)
    pairings = got.pairings if got.have_association else got.fallback
    yield from _records(got, [*pairings, *got.npm_pairings], report)


def _label(got: _Collected, uid: str) -> tuple[str, str]:
    path, label = got.where[uid][0]
    return path, label.rsplit(", ", 1)[0]


def _pair_up(
    got: _Collected, built: dict[str, Any], pairings: list[Pairing], report: Report
) -> tuple[Counter[tuple[str, str]], dict[tuple[str, str], int]]:
    """Card-level double-faced pairs (how often, first position); a card whose other face is
    missing is reported and removed from ``built``."""
    counts: Counter[tuple[str, str]] = Counter()
    first_seen: dict[tuple[str, str], int] = {}
    fronts: dict[str, set[str]] = {}
    lonely: dict[str, str] = {}  # present card -> why its pair is incomplete
    for i, pairing in enumerate(pairings):
        front = got.printing_card.get(pairing.front)
        back = got.printing_card.get(pairing.back)
        if front is not None and front == back:
            continue
        if not pairing.dfc:
            # CR 9.1.3: a front with a flip subtype makes a flip-card whatever the flag says
            # (Construct Bank Breaker); other double-sided printings (tokens) are no pair.
            if _flip_front(built, front) and back in built:
                counts[(front, back)] += 1  # type: ignore[index]
                first_seen.setdefault((front, back), i)  # type: ignore[arg-type]
            continue
        fronts.setdefault(back or pairing.back, set()).add(front or pairing.front)
        if front in built and back in built:
            counts[(front, back)] += 1
            first_seen.setdefault((front, back), i)
        elif front in built:
            lonely.setdefault(front, f"its back face ({back or 'printing ' + pairing.back})")
        elif back in built:
            lonely.setdefault(back, f"its front face ({front or 'printing ' + pairing.front})")
    paired = {uid for pair in counts for uid in pair}
    for uid, other in lonely.items():
        if uid in paired or (other.startswith("its front") and len(fronts.get(uid, ())) > 1):
            continue  # a back shared by several fronts (Inner Chi) is a card of its own too
        path, label = _label(got, uid)
        message = f"double-faced, but {other} is not among the cards read; skipped"
        report(Problem(path, label, "face association", message))
        del built[uid]
    return counts, first_seen


def _flip_front(built: dict[str, Any], uid: str | None) -> bool:
    """Whether card ``uid`` is single-sided as read and has a flip subtype (CR 9.1.3)."""
    if uid is None or uid not in built or built[uid][0] != "normal":
        return False
    return bool(FLIP_SUBTYPES.intersection(built[uid][1][0].subtypes))


def _standalone(got: _Collected, pairings: list[Pairing]) -> set[str]:
    """The cards that are cards of their own: the npm ones not only a back, and the
    the-fab-cube ones with a printing on no double-sided printing (Fyendal's Spring Tunic,
    the back of Fabric of Spring, is printed on its own too; Levia, Redeemed only on the
    two sides of its twin-card)."""
    sided = {uid for p in pairings for uid in (p.front, p.back)}
    own = {card for printing, card in got.printing_card.items() if printing not in sided}
    return got.standalone | own


def _records(got: _Collected, pairings: list[Pairing], report: Report) -> Iterator[Record]:
    rows = got.rows
    built: dict[str, tuple[str, tuple[Face, ...]]] = {}
    for uid in got.order:
        try:
            built[uid] = faces_of(rows[uid])
        except BadRecord as exc:
            path, label = _label(got, uid)
            report(Problem(path, label, exc.key, exc.message))
    counts, first_seen = _pair_up(got, built, pairings, report)
    chosen: dict[str, str] = {}
    for (front, back), n in sorted(counts.items(), key=lambda kv: first_seen[kv[0]]):
        other = counts.get((back, front), 0)
        if other > n or (other == n and first_seen[(back, front)] < first_seen[(front, back)]):
            continue  # the reverse orientation is the card's
        chosen.setdefault(front, back)
    fronts_of: dict[str, list[str]] = {}
    for front, back in chosen.items():
        fronts_of.setdefault(back, []).append(front)
    standalone = _standalone(got, pairings)
    merged = {
        back
        for back, fronts in fronts_of.items()
        if len(fronts) == 1 and back not in chosen and back not in standalone
    }
    twin_reverse = {
        front: back
        for front, back in chosen.items()
        if chosen.get(back) is None and (back, front) in counts
    }
    for uid in got.order:
        if uid in merged or uid not in built:
            continue
        record = _record(rows[uid], built, chosen.get(uid), merged, uid in twin_reverse)
        check_vocabulary("fab", *_label(got, uid), record.card)
        yield record


def _record(
    row: Row,
    built: dict[str, tuple[str, tuple[Face, ...]]],
    back: str | None,
    merged: set[str],
    twin_reverse: bool,
) -> Record:
    layout, faces = built[row.uid]
    aliases: tuple[str, ...] = (f"{row.name} ({row.color.lower()})",) if row.color else ()
    sources: tuple[str, ...] = (row.uid,)
    name = row.name
    if back is not None:
        back_face = built[back][1][0]
        faces = (faces[0], back_face)
        layout = kind_of(faces[0])
        name = f"{row.name} // {back_face.name}"
        if back in merged:
            sources = (row.uid, back)
        if twin_reverse:
            aliases += (f"{back_face.name} // {row.name}",)
    return Record(
        key=row.uid,
        card=CardDef(name=name, layout=layout, faces=faces),
        aliases=aliases,
        rank=PITCH_COLORS.get(row.color, 0),
        sources=sources,
    )


def card_files(paths: list[Path]) -> list[Path]:
    """The card files among ``paths`` (a directory's ``card*.csv`` / ``card*.json``, not the
    association, printing, flattened or schema files)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            for f in sorted(path.iterdir()):
                if f.suffix.lower() in (".csv", ".json") and _is_card_file(f.name):
                    out.append(f)
        else:
            out.append(path)
    return out


def _is_card_file(name: str) -> bool:
    low = name.lower()
    return low.startswith("card") and not any(
        x in low for x in ("association", "printing", "reference", "flattened", "schema")
    )
