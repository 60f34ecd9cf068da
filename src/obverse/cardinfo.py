"""``obverse card NAME``: a card's faces as printed, and the characteristics the kernel gives it
in a zone and state, with the rulings that decide them.

The answer is the kernel's own: the card is put into a fresh game (:func:`new_state`,
:meth:`Ruleset.add_card <obverse.rulesets.Ruleset.add_card>`) under the game's ruleset and read with
:func:`~obverse.characteristics.characteristics`. A face the zone doesn't allow is reached the
way the rules reach it (put onto the play zone with that face, then moved), so the move's
rulings say which face counts and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from obverse import registry
from obverse import vocab as v
from obverse.carddata import bundled, close_names
from obverse.carddb import CardDB
from obverse.cards import STAT_FIELDS, CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.engine import apply
from obverse.errors import InputError, ObverseError, quote
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Ruling
from obverse.state import GameObject, GameState, new_state

PLAYER: Final = "you"
#: Words that tie a query ruling to a layout (rulesets phrase them per layout).


class CardNotFound(ObverseError):
    """No card has this name; ``suggestions`` are the closest names."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no card named {quote(name)}{hint}")


def find_card(name: str, game: str | None, db: CardDB | None) -> tuple[str, CardDef, list[str]]:
    """The game and card named ``name`` (full or any face name; case-insensitive when no card
    has exactly that name), and the other games that also have it. The card database first,
    the bundled cards after. A name several cards of a game bear raises
    :class:`~obverse.carddata.AmbiguousName` listing them; an unknown one :class:`CardNotFound`
    with rapidfuzz suggestions."""
    games = [game] if game else registry.games()
    found: list[tuple[str, CardDef]] = []
    for g in games:
        index = bundled(g)
        # The database first: it holds the imported (newest) printing of a bundled card.
        card = db.get(g, name) if db is not None else None
        if card is None:
            card = index.get(name)
        if card is None and db is not None:
            hits = db.find(name, g)
            card = hits[0][1] if hits else None
        if card is None:
            low = name.casefold()
            folded = [n for n in index.names() if n.casefold() == low]
            card = index.get(folded[0]) if len(folded) == 1 else None
        if card is not None:
            found.append((g, card))
    if not found:
        extra = [n for g in games for n in bundled(g).names()]
        if db is not None:
            suggestions = db.suggest(name, game, extra=extra)
        else:
            suggestions = close_names(name, extra)
        raise CardNotFound(name, suggestions)
    return found[0][0], found[0][1], [g for g, _ in found[1:]]


@dataclass
class CardInfo:
    """What ``obverse card`` shows."""

    game: str
    card: CardDef
    ruleset: str | None = None
    zone: str | None = None
    face: str | None = None
    transformed: bool = False
    chars: Characteristics | None = None
    rulings: list[Ruling] = field(default_factory=list)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready mapping (fixed key order)."""
        return {
            "game": self.game,
            "name": self.card.name,
            "layout": self.card.layout,
            "faces": [msgspec.to_builtins(f) for f in self.card.faces],
            **({"melds_from": list(self.card.melds_from)} if self.card.melds_from else {}),
            "ruleset": self.ruleset,
            "zone": self.zone,
            "face": self.face,
            "transformed": self.transformed,
            "characteristics": None if self.chars is None else chars_dict(self.chars),
            "rulings": [{"rule": r.rule, "reason": r.reason} for r in self.rulings],
            "note": self.note,
        }


def chars_dict(chars: Characteristics) -> dict[str, Any]:
    """The characteristics that have a value, as plain data."""
    out: dict[str, Any] = {"face": chars.face, "names": list(chars.names)}
    if chars.mana_value is not None:
        out["mana_value"] = chars.mana_value
    props = msgspec.to_builtins(chars.props)
    assert isinstance(props, dict)
    out.update(props)
    return out


def _face_label(card: CardDef, face: str) -> str:
    if face == "both" or len(card.faces) == 1:
        return card.name
    index = 1 if face in ("back", "right") else 0
    return card.faces[index].name or card.name


def describe(
    game: str,
    card: CardDef,
    zone: str | None = None,
    face: str | None = None,
    transformed: bool = False,
    ruleset: str | None = None,
) -> CardInfo:
    """The card's characteristics in ``zone`` (default: the play zone) with ``face`` up
    (default: the rules' default; ``transformed`` means the back face), under ``ruleset``
    (default: the game's newest)."""
    info = CardInfo(game=game, card=card, transformed=transformed)
    try:
        rs = get_ruleset(ruleset or game)
    except InputError:
        info.note = f"no ruleset for {game} is registered yet: printed faces only"
        return info
    if rs.game != game:
        raise InputError("", "--ruleset", f"{rs.name} is not a {game} ruleset")
    info.ruleset = rs.name
    where = zone or rs.play_zone
    if not rs.is_zone(where):
        raise InputError(
            "",
            "--zone",
            f"unknown zone {where!r} for {rs.name} (known: {', '.join(sorted(rs.zones))})",
        )
    where = rs.canonical_zone(where)
    info.zone = where
    wanted = face or ("back" if transformed else rs.default_face(card, where))
    allowed = rs.allowed_faces(card, where)
    if face is None and not transformed and wanted not in allowed and len(allowed) == 1:
        wanted = next(iter(allowed))  # e.g. a meld result is only ever back face up
    state = new_state(rs.name, (PLAYER,))
    if wanted in allowed:
        flipped = rs.is_flipped_on_setup(card, wanted)
        state, card_id = rs.add_card(state, card, where, owner=PLAYER, face=wanted, flipped=flipped)
        obj = state.object_of_card(card_id)
        assert obj is not None
        why = "the face asked for" if face or transformed else "the rules' default face there"
        info.note = (
            f"{_face_label(card, wanted)} ({wanted}) counts: {why} for a "
            f"{card.layout} card in the {where}"
        )
    else:
        state, obj = _reached_by_moving(info, rs, state, card, where, wanted)
    info.face = obj.face
    info.chars = characteristics(state, obj, rs)
    for ruling in explain(state, obj):
        if all(r.rule != ruling.rule for r in info.rulings):
            info.rulings.append(ruling)
    return info


def explain(state: GameState, obj: GameObject | int) -> tuple[Ruling, ...]:
    """The rulings behind ``obj``'s characteristics now: those of the ruleset's branch that
    picked its face(s) and values (``Characteristics.why``), never a second derivation."""
    return characteristics(state, obj).why


def _reached_by_moving(
    info: CardInfo, rs: Ruleset, state: GameState, card: CardDef, where: str, wanted: str
) -> tuple[GameState, GameObject]:
    """A face the zone doesn't allow, reached the way the rules reach it: put onto the play
    zone with that face, then moved (the move's rulings join ``info.rulings``)."""
    play_faces = rs.allowed_faces(card, rs.play_zone)
    if wanted not in play_faces or where == rs.play_zone:
        raise InputError(
            "",
            "--face",
            f"{card.name} can't be {wanted} face up in {where} "
            f"under {rs.name} (allowed: {', '.join(sorted(rs.allowed_faces(card, where)))})",
        )
    flipped = rs.is_flipped_on_setup(card, wanted)
    state, card_id = rs.add_card(
        state, card, rs.play_zone, owner=PLAYER, face=wanted, flipped=flipped
    )
    obj = state.object_of_card(card_id)
    assert obj is not None
    outcome = apply(state, v.Move(object=obj.id, to=where))
    state = outcome.state
    info.rulings.extend(outcome.rulings)
    moved = state.object_of_card(card_id)
    if moved is None:
        raise InputError("", "--zone", f"{card.name} doesn't stay in {where}")
    obj = moved
    info.note = (
        f"{_face_label(card, obj.face)} ({obj.face}) counts: a {card.layout} card "
        f"with its {wanted} face up, moved to the {where}, has its {obj.face} face "
        "up"
    )
    return state, obj


_PRINTED: Final = ("cost", "pitch", *(f for f in STAT_FIELDS if f != "pitch"))


def _type_line(face: Face) -> str:
    head = " ".join([*face.supertypes, *face.types])
    return head + (f" — {' '.join(face.subtypes)}" if face.subtypes else "")


def _face_lines(face: Face, indent: str = "  ") -> list[str]:
    lines = [f"{indent}{face.name or '(nameless)'}"]
    if face.supertypes or face.types or face.subtypes:
        lines.append(f"{indent}  type: {_type_line(face)}")
    stats = [f"{k} {getattr(face, k)}" for k in _PRINTED if getattr(face, k) is not None]
    if face.colors:
        stats.append(f"colors {' '.join(face.colors)}")
    if stats:
        lines.append(f"{indent}  {', '.join(stats)}")
    if face.abilities:
        lines.append(f"{indent}  abilities: {', '.join(face.abilities)}")
    if face.text:
        for line in face.text.splitlines():
            if line.strip():
                lines.append(f"{indent}  | {line.strip()}")
    return lines


#: Zones English puts things *on* ("on the battlefield", "on the stack"); the rest *in*.
_ON_ZONES = frozenset({"battlefield", "stack", "field", "combat_chain", "chain"})


def render(info: CardInfo) -> str:
    """The text ``obverse card`` prints."""
    card = info.card
    lines = [f"{card.name}  [{info.game}, {card.layout}]"]
    if card.melds_from:
        lines.append(f"  melds from: {' + '.join(card.melds_from)}")
    lines.append("Printed:")
    for face in card.faces:
        lines.extend(_face_lines(face))
    if info.chars is None:
        lines.append(info.note)
        return "\n".join(lines)
    state = " (put there transformed)" if info.transformed else ""
    where = "On" if info.zone in _ON_ZONES else "In"
    lines.append(f"{where} the {info.zone}{state}, face {info.face}, under {info.ruleset}:")
    chars = info.chars
    props = chars.props
    lines.append(f"  name: {props.name if props.name is not None else '(none)'}")
    if props.supertypes or props.types or props.subtypes:
        lines.append(f"  type: {_type_line(props)}")
    stats = [f"{k} {getattr(props, k)}" for k in _PRINTED if getattr(props, k) is not None]
    if chars.mana_value is not None:
        stats.append(f"mana value {chars.mana_value}")
    stats.append(f"colors {' '.join(props.colors) if props.colors else '(none)'}")
    lines.append(f"  {', '.join(stats)}")
    if props.abilities:
        lines.append(f"  abilities: {', '.join(props.abilities)}")
    if info.rulings:
        lines.append("Rulings:")
        lines.extend(f"  {r.rule}: {r.reason}" for r in info.rulings)
    else:
        lines.append(f"Why: {info.note}")
    return "\n".join(lines)
