"""Rooms (709.5): split cards whose halves are permanent cards (doors). A Room permanent has
the name, mana cost and rules text of its unlocked doors only, and the shared type line
(709.5, 709.5a); it enters with the door that was cast unlocked, put onto the battlefield
otherwise with neither (709.5d); doors are unlocked (709.5f) and locked again (709.5g). A
rules version without these rule ids (``mtg@2020``, ``mtg@2008``) treats a Room as a plain
split card (its handler's :class:`~obverse.rulesets.mtg.layouts.split.Split` part)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.errors import InputError, RulesError, quote
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.layouts.split import Split
from obverse.rulesets.mtg.values import cost, is_room
from obverse.rulings import DONE, NOTHING, Decided, Event, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

replace = msgspec.structs.replace

#: A Room's two doors, in printed order (709.5c's "left half" and "right half").
DOORS: Final = ("left", "right")

__all__ = ["DOORS", "ROOM", "Lock", "Room", "Unlock", "is_room"]


class Unlock(v.Action, frozen=True, tag="unlock"):
    """Unlock a door of a Room permanent (709.5f): ``door`` is ``left``, ``right`` or the
    door's name."""

    refs = ("object",)
    object: int
    door: str


class Lock(v.Action, frozen=True, tag="lock"):
    """Lock a door of a Room permanent again (709.5g): ``door`` is ``left``, ``right`` or
    the door's name."""

    refs = ("object",)
    object: int
    door: str


class Room(Split):
    """A Room: a split card of two doors (keyed ``room`` in the ruleset's table: its
    printed layout is ``split``)."""

    name: ClassVar[str] = "room"

    def characteristics(
        self, rs: MagicFaces, state: GameState, obj: GameObject, faces: tuple[Face, ...], face: str
    ) -> Characteristics:
        """709.5: a Room permanent has the name, mana cost and rules text of its unlocked
        doors only; 709.5a: its type line is the shared one whatever is locked."""
        if obj.zone != "battlefield" or not rs.has("room"):
            return super().characteristics(rs, state, obj, faces, face)
        doors = [f for side, f in zip(DOORS, faces, strict=True) if side in obj.unlocked]
        shared = faces[0]
        if doors:
            base = combine_faces(obj.face, doors)
        else:
            base = Characteristics(face=obj.face, names=(), props=Face())
        combined = mana.combine(*(cost(f) for f in doors)) if doors else None
        props = replace(
            base.props,
            cost=combined,
            types=shared.types,
            supertypes=shared.supertypes,
            subtypes=shared.subtypes,
        )
        chars = rs.with_colors(replace(base, props=props))
        names = " and ".join(f.name or "" for f in doors)
        if not doors:
            why = rs.cite(
                "room", "no door is unlocked: no name, no mana cost, no rules text"
            ) + rs.cite("mv_no_cost", "with no mana cost its mana value is 0")
        else:
            why = rs.cite("room", f"only its unlocked doors count: {names}")
        why += rs.cite("room_types", "it keeps the shared type line")
        return replace(chars, mana_value=mana.mana_value(combined), why=why)

    def copiable_values(
        self, rs: MagicFaces, state: GameState, of: GameObject, faces: tuple[Face, ...]
    ) -> Decided[CopyValues]:
        """709.5: the copy has both doors; the unlocked designations aren't copied."""
        values, rulings = super().copiable_values(rs, state, of, faces)
        if rs.has("room"):
            rulings += rs.cite(
                "room", "the copy has both doors: which door a characteristic is in is copied"
            ) + rs.cite("room_designation", "the unlocked designations aren't copied")
        return Decided(values, rulings)

    def resolve(self, rs: MagicFaces, state: GameState, obj: GameObject) -> Outcome | None:
        """709.5d: the Room enters with the unlocked designation of the half that was cast."""
        if obj.face not in DOORS or not rs.has("room"):
            return None
        door = obj.face
        why = f"its {door} half was cast: it enters with that door unlocked"
        out = rs._put(state, obj, "battlefield", "both", False, rs.cite("room_enters", why))
        new = out.state.object_of_card(obj.card)
        if new is None or new.zone != "battlefield":
            return out
        return replace(out, state=core.update(out.state, replace(new, unlocked=(door,))))

    def candidates(
        self, rs: MagicFaces, state: GameState, o: GameObject, verb: str
    ) -> list[v.Action]:
        """709.5f: unlocking a Room permanent's doors (in a hand: casting it fused)."""
        if o.zone != "battlefield":
            return super().candidates(rs, state, o, verb)
        return [Unlock(object=o.id, door=d) for d in DOORS] if verb != "cast" else []

    def moved(self, rs: MagicFaces, state: GameState, obj: GameObject, to: str) -> Rulings:
        """400.7, 709.5d: leaving the battlefield unlocked its designations end; put onto it
        without being cast it enters with neither door unlocked (``state``: after the move)."""
        if not rs.has("room"):
            return ()
        extra: Rulings = ()
        if obj.zone == "battlefield" and obj.unlocked and to != obj.zone:
            extra += rs.cite(
                "room_designation", "it leaves the battlefield: its unlocked designations end"
            )
        now = state.object_of_card(obj.card) if obj.zone != "battlefield" else None
        if now is not None and now.zone == "battlefield":
            extra += rs.cite(
                "room_enters",
                "put onto the battlefield without being cast, it enters with neither door "
                "unlocked: no name, no mana cost, mana value 0",
            )
        return extra

    def unlock(self, rs: MagicFaces, state: GameState, a: Unlock) -> Outcome:
        """``unlock`` (709.5f): the Room permanent gets the door's unlocked designation;
        unlocking an unlocked door does nothing; both unlocked, it is fully unlocked."""
        if not rs.has("room"):
            raise RulesError(f"Rooms aren't modelled under {rs.name}")
        o = state.objects[a.object]
        if o.face_down:
            why = "a face-down permanent has no doors; nothing happens"
            return Outcome(state, NOTHING, rs.cite("face_down_chars", why))
        layout, faces = rs.printed_faces(state, o)
        name = state.card_def(o).name
        if not is_room(layout, faces):
            why = f"{name} isn't a Room (a split permanent card); it has no doors to unlock"
            return Outcome(state, NOTHING, rs.cite("room", why))
        if o.zone != "battlefield":
            why = "only a Room permanent has locked doors; nothing happens"
            return Outcome(state, NOTHING, rs.cite("room_designation", why))
        door = _door(a.door, faces)
        half = faces[DOORS.index(door)].name
        if door in o.unlocked:
            why = f"{half} is already unlocked; nothing happens"
            return Outcome(state, NOTHING, rs.cite("room_unlock", why))
        unlocked = tuple(d for d in DOORS if d in o.unlocked or d == door)
        state = core.update(state, replace(o, unlocked=unlocked))
        gets = f"{half} unlocks: the permanent gets the '{door} half unlocked' designation"
        rulings = rs.cite("room_unlock", gets) + rs.cite(
            "room", f"it now has {half}'s name, mana cost and rules text"
        )
        if len(unlocked) == len(DOORS):
            rulings += rs.cite("room_fully", "both doors are unlocked: the Room is fully unlocked")
        return Outcome(
            state, DONE, rulings, (Event("unlock", o.id, o.card, o.controller, detail=door),)
        )

    def lock(self, rs: MagicFaces, state: GameState, a: Lock) -> Outcome:
        """``lock`` (709.5g): the player chooses an unlocked half and the Room permanent
        loses that unlocked designation; a locked door can't be chosen (nothing happens)."""
        if not rs.has("room_lock"):
            raise RulesError(f"locking a Room's door isn't modelled under {rs.name}")
        o = state.objects[a.object]
        layout, faces = rs.printed_faces(state, o)
        if o.face_down or not is_room(layout, faces) or o.zone != "battlefield":
            why = "only a Room permanent has doors to lock; nothing happens"
            return Outcome(state, NOTHING, rs.cite("room_designation", why))
        door = _door(a.door, faces)
        half = faces[DOORS.index(door)].name
        if door not in o.unlocked:
            why = f"{half} is locked: only an unlocked half can be chosen; nothing happens"
            return Outcome(state, NOTHING, rs.cite("room_lock", why))
        state = core.update(state, replace(o, unlocked=tuple(d for d in o.unlocked if d != door)))
        loses = f"{half} locks: the permanent loses the '{door} half unlocked' designation"
        rulings = rs.cite("room_lock", loses) + rs.cite(
            "room", f"it no longer has {half}'s name, mana cost and rules text"
        )
        event = Event("lock", o.id, o.card, o.controller, detail=door)
        return Outcome(state, DONE, rulings, (event,))

    def offer_lock(self, o: GameObject) -> list[v.Action]:
        """709.5g: locking each unlocked door of a Room permanent again."""
        if o.zone != "battlefield" or not o.unlocked or o.face_down:
            return []
        return [Lock(object=o.id, door=d) for d in o.unlocked]


def _door(door: str, faces: tuple[Face, ...]) -> str:
    """``left`` / ``right`` for a door given by side or by name (709.5j: a door is a half)."""
    if door in DOORS:
        return door
    for side, face in zip(DOORS, faces, strict=True):
        if face.name == door:
            return side
    names = ", ".join(quote(f.name or "") for f in faces)
    raise InputError("", "door", f"{quote(door)} is not a door: left, right, {names}")


#: The handler (``unlock`` and ``lock`` are its procedures).
ROOM = Room()
