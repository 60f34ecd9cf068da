"""Magic: The Gathering layouts beyond the double-faced ones: Rooms (709.5), fused split
spells (702.102, 709.4d), prototype cards (718) and Omen cards (720).

:class:`MagicLayouts` sits between :class:`~obverse.rulesets.mtg.faces.MagicFaces` and
:class:`~obverse.rulesets.mtg.Magic`: it computes these cards' characteristics, their copies,
casting them (fuse, a prototyped or Omen face), resolving them (a Room's cast door unlocks, an
Omen is shuffled away) and the ``unlock`` verb (:class:`Unlock`). A rules version without a
topic's rule ids (``mtg@2020``, ``mtg@2008``) treats these cards as their plain layouts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, combine_faces
from obverse.errors import InputError, RulesError, quote
from obverse.rulesets.base import Rulings
from obverse.rulesets.mtg.faces import MagicFaces, is_permanent_face
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import CopyValues, GameObject, GameState

replace = msgspec.structs.replace

#: A Room's two doors, in printed order (709.5c's "left half" and "right half").
DOORS: Final = ("left", "right")

__all__ = ["DOORS", "Lock", "MagicLayouts", "Unlock", "is_room"]


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


def is_room(layout: str, faces: tuple[Face, ...]) -> bool:
    """709.5: a split card whose halves are permanent cards (a single shared type line)."""
    return layout == "split" and len(faces) == 2 and all(is_permanent_face(f) for f in faces)


def _cost(face: Face) -> str | None:
    return face.cost if isinstance(face.cost, str) and face.cost else None


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaces
else:
    _Base = object


class MagicLayouts(_Base):
    """Rooms, fuse, prototype and Omen cards on top of MTG's face rules."""

    def has(self, topic: str) -> bool:
        """Whether this rules version has the rule of ``topic`` (Rooms arrived in 2024 ...)."""
        return topic in self.rule_ids

    # --- characteristics (709.5, 709.4d, 718.3b, 718.4, 720.3b, 720.4) ----------------------

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        if obj.face_down or obj.meld is not None:
            return super().base_characteristics(state, obj)
        layout, faces = self.printed_faces(state, obj)
        chars = self._layout_characteristics(obj, layout, faces)
        if chars is None:
            return super().base_characteristics(state, obj)
        if obj.copies:
            copied = self.rule("copiable_values", "its values are the copied ones")
            chars = replace(chars, why=copied + chars.why)
        return chars

    def _layout_characteristics(
        self, obj: GameObject, layout: str, faces: tuple[Face, ...]
    ) -> Characteristics | None:
        """The characteristics this module decides, or ``None`` for the face rules'."""
        if is_room(layout, faces) and obj.zone == "battlefield" and self.has("room"):
            return self._room(obj, faces)
        if layout == "split" and obj.zone == "stack" and obj.face == "both" and self.has("fuse"):
            chars = self._split("both", faces)
            why = self.ruling_list(
                ("fuse_chars", "a fused split spell has both halves' characteristics"),
                ("split_fused", "on the stack too, its values are the halves combined"),
            )
            return replace(chars, why=why)
        if layout == "prototype" and len(faces) > 1 and self.has("prototype_alt"):
            return self._prototype(obj, faces)
        if layout == "omen" and len(faces) > 1 and self.has("omen_alt"):
            return self._omen(obj, faces)
        return None

    def _room(self, obj: GameObject, faces: tuple[Face, ...]) -> Characteristics:
        """709.5: a Room permanent has the name, mana cost and rules text of its unlocked
        doors only; 709.5a: its type line is the shared one whatever is locked."""
        doors = [f for side, f in zip(DOORS, faces, strict=True) if side in obj.unlocked]
        shared = faces[0]
        if doors:
            base = combine_faces(obj.face, doors)
        else:
            base = Characteristics(face=obj.face, names=(), props=Face())
        cost = mana.combine(*(_cost(f) for f in doors)) if doors else None
        props = replace(
            base.props,
            cost=cost,
            types=shared.types,
            supertypes=shared.supertypes,
            subtypes=shared.subtypes,
        )
        chars = self._with_colors(replace(base, props=props))
        names = " and ".join(f.name or "" for f in doors)
        if not doors:
            why = self.ruling_list(
                ("room", "no door is unlocked: no name, no mana cost, no rules text"),
                ("mv_no_cost", "with no mana cost its mana value is 0"),
            )
        else:
            why = self.rule("room", f"only its unlocked doors count: {names}")
        why += self.rule("room_types", "it keeps the shared type line")
        return replace(chars, mana_value=mana.mana_value(cost), why=why)

    def _prototype(self, obj: GameObject, faces: tuple[Face, ...]) -> Characteristics:
        """718.3b: prototyped on the stack or battlefield, the inset power, toughness and mana
        cost (and the cost's colors); 718.4: its normal characteristics everywhere else."""
        normal, alt = faces[0], faces[1]
        if obj.zone in ("stack", "battlefield") and obj.face == "back":
            merged = replace(
                normal, cost=alt.cost, power=alt.power, toughness=alt.toughness, colors=alt.colors
            )
            chars = self._with_colors(combine_faces("back", (merged,)))
            why = self.ruling_list(
                ("prototype_chars", "prototyped: its prototype power, toughness and mana cost"),
                ("prototype_same", "its other characteristics are the card's own"),
            )
            return replace(chars, mana_value=mana.mana_value(_cost(alt)), why=why)
        chars = self._with_colors(combine_faces("front", (normal,)))
        why = self.rule("prototype_normal", f"in the {obj.zone}: its normal characteristics")
        return replace(chars, mana_value=mana.mana_value(_cost(normal)), why=why)

    def _omen(self, obj: GameObject, faces: tuple[Face, ...]) -> Characteristics:
        """720.3b: on the stack as an Omen, only the alternative characteristics; 720.4:
        its normal characteristics everywhere else."""
        if obj.zone == "stack" and obj.face == "back":
            face, topic, why = "back", "omen_stack", "on the stack as an Omen: its Omen values"
        else:
            face, topic, why = "front", "omen_normal", f"in the {obj.zone}: its normal values"
        chosen = faces[1] if face == "back" else faces[0]
        chars = self._with_colors(combine_faces(face, (chosen,)))
        return replace(chars, mana_value=mana.mana_value(_cost(chosen)), why=self.rule(topic, why))

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        if card.layout in ("prototype", "omen") and len(card.faces) > 1:
            alt = zone == "stack" or (zone == "battlefield" and card.layout == "prototype")
            alt = alt and self.has(f"{card.layout}_alt")  # a version before 718 / 720: one face
            return frozenset({"front", "back"} if alt else {"front"})
        return super().allowed_faces(card, zone)

    # --- copies (709.5, 718.2a, 718.3d) ------------------------------------------------------

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        values, rulings = super().copiable_values(state, of)
        if of.face_down or of.meld is not None:
            return Decided(values, rulings)
        layout, faces = self.printed_faces(state, of)
        if is_room(layout, faces) and self.has("room"):
            rulings += self.ruling_list(
                ("room", "the copy has both doors: which door a characteristic is in is copied"),
                ("room_designation", "the unlocked designations aren't copied"),
            )
        elif layout == "prototype" and len(faces) > 1 and self.has("prototype_alt"):
            props = self._prototype(of, faces).props
            values = CopyValues(
                layout="normal", faces=(props,), name=props.name or "", source_face="front"
            )
            rulings = self.rule(
                "prototype_copiable", "the alternative characteristics are copiable values"
            )
            if of.face == "back" and of.zone in ("stack", "battlefield"):
                rulings += self.rule(
                    "prototype_copy", "a copy of a prototyped permanent has the prototype values"
                )
        return Decided(values, rulings)

    # --- moving: a Room enters locked, leaves relocked (709.5d, 400.7) ----------------------

    def room_moved(self, state: GameState, obj: GameObject, to: str, out: Outcome) -> Outcome:
        """``out``, a done move of ``obj`` to ``to``, with what a Room adds: leaving the
        battlefield unlocked its designations end; put onto it without being cast it enters
        with neither door unlocked (709.5d)."""
        if obj.face_down:
            return out
        # A Room has something to say only leaving the battlefield unlocked or entering it.
        leaves_unlocked = obj.zone == "battlefield" and bool(obj.unlocked) and to != obj.zone
        may_enter = obj.zone != "battlefield"
        if not (leaves_unlocked or may_enter):
            return out
        layout, faces = self.printed_faces(state, obj)
        if not (is_room(layout, faces) and self.has("room")):
            return out
        extra: Rulings = ()
        if leaves_unlocked:
            extra += self.rule(
                "room_designation", "it leaves the battlefield: its unlocked designations end"
            )
        now = out.state.object_of_card(obj.card) if may_enter else None
        if now is not None and now.zone == "battlefield":
            extra += self.rule(
                "room_enters",
                "put onto the battlefield without being cast, it enters with neither door "
                "unlocked: no name, no mana cost, mana value 0",
            )
        return replace(out, rulings=out.rulings + extra) if extra else out

    # --- casting: fuse (702.102), prototype (718.3), Omen (720.3) ---------------------------

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        if not a.fuse:
            return super().cast(state, a)
        if not self.has("fuse"):
            raise RulesError(f"fused split spells aren't modelled under {self.name}")
        obj = state.objects[a.object]
        card = state.card_def(obj)
        refused = self._fuse_refused(obj, card, a)
        if refused:
            return Outcome(state, ILLEGAL, refused)
        rulings = self.ruling_list(
            ("fuse", f"cast from hand, both halves of {card.name} are cast"),
            ("fuse_chars", "the fused split spell has both halves' characteristics"),
            ("split_fused", "on the stack it has the combined characteristics"),
        )
        return self._put(state, obj, "stack", "both", False, rulings)

    def _fuse_refused(self, obj: GameObject, card: CardDef, a: v.Cast | v.Play) -> Rulings:
        """702.102a: why this can't be cast fused, or ``()`` when it can."""
        fuse = any(x.casefold() == "fuse" for f in card.faces for x in f.abilities)
        if card.layout != "split" or not fuse:
            return self.rule("fuse", f"{card.name} isn't a split card with fuse")
        if a.verb != "cast" or a.face_down or a.transformed or a.face not in (None, "both"):
            return self.rule("fuse", "a fused split spell is both halves, cast face up")
        if obj.zone != "hand":
            return self.rule(
                "fuse", f"fuse applies only while the card is in a hand, not {obj.zone}"
            )
        return ()

    def plan_layout_cast(
        self, obj: GameObject, card: CardDef, chosen: str
    ) -> tuple[str, str, str, Rulings] | None:
        """718.3, 720.3: a prototype or Omen card is cast normally or with its inset face
        (``face: back``); ``None`` for other cards."""
        kinds = {"prototype": "prototyped", "omen": "as an Omen"}
        if card.layout not in kinds or len(card.faces) < 2:
            return None
        if not self.has(f"{card.layout}_alt"):
            why = f"{card.name} can only be cast normally under these rules"
            if chosen == "back":
                return "illegal", obj.zone, obj.face, self.rule("cast_front", why)
            return None
        how = kinds[card.layout]
        if chosen != "back":
            return "done", "stack", "front", self.rule(f"{card.layout}_cast", "cast normally")
        rulings = self.ruling_list(
            (f"{card.layout}_cast", f"the player chose to cast it {how}"),
            (f"{card.layout}_eval", "only its alternative characteristics are evaluated"),
        )
        return "done", "stack", "back", rulings

    # --- resolving: a cast door unlocks (709.5d), an Omen is shuffled away (720.3d) ---------

    def resolve(self, state: GameState, a: v.Resolve) -> Outcome:
        obj = state.objects[a.object]
        if obj.zone != self.stack_zone or obj.face_down:
            return super().resolve(state, a)
        layout, faces = self.printed_faces(state, obj)
        if is_room(layout, faces) and obj.face in DOORS and self.has("room"):
            return self._resolve_room(state, obj)
        if layout == "omen" and obj.face == "back" and self.has("omen_alt"):
            why = "an Omen spell is shuffled into its owner's library as it resolves"
            out = self._put(state, obj, "library", "front", False, self.rule("omen_shuffle", why))
            mixed = self.shuffle(out.state, v.Shuffle(player=obj.owner, zone="library"))
            return Outcome(mixed.state, DONE, out.rulings, out.events + mixed.events)
        if layout == "prototype" and obj.face == "back" and self.has("prototype_alt"):
            why = "the permanent a prototyped spell becomes is prototyped too"
            return self._put(
                state, obj, "battlefield", "back", False, self.rule("prototype_chars", why)
            )
        return super().resolve(state, a)

    def _resolve_room(self, state: GameState, obj: GameObject) -> Outcome:
        """709.5d: the Room enters with the unlocked designation of the half that was cast."""
        door = obj.face
        why = f"its {door} half was cast: it enters with that door unlocked"
        out = self._put(state, obj, "battlefield", "both", False, self.rule("room_enters", why))
        new = out.state.object_of_card(obj.card)
        if new is None or new.zone != "battlefield":
            return out
        return replace(out, state=core.update(out.state, replace(new, unlocked=(door,))))

    # --- unlocking (709.5c, 709.5f, 709.5i) -------------------------------------------------

    def unlock(self, state: GameState, a: Unlock) -> Outcome:
        """``unlock`` (709.5f): the Room permanent gets the door's unlocked designation;
        unlocking an unlocked door does nothing; both unlocked, it is fully unlocked."""
        if not self.has("room"):
            raise RulesError(f"Rooms aren't modelled under {self.name}")
        o = state.objects[a.object]
        if o.face_down:
            why = "a face-down permanent has no doors; nothing happens"
            return Outcome(state, NOTHING, self.rule("face_down_chars", why))
        layout, faces = self.printed_faces(state, o)
        name = state.card_def(o).name
        if not is_room(layout, faces):
            why = f"{name} isn't a Room (a split permanent card); it has no doors to unlock"
            return Outcome(state, NOTHING, self.rule("room", why))
        if o.zone != "battlefield":
            why = "only a Room permanent has locked doors; nothing happens"
            return Outcome(state, NOTHING, self.rule("room_designation", why))
        door = _door(a.door, faces)
        half = faces[DOORS.index(door)].name
        if door in o.unlocked:
            why = f"{half} is already unlocked; nothing happens"
            return Outcome(state, NOTHING, self.rule("room_unlock", why))
        unlocked = tuple(d for d in DOORS if d in o.unlocked or d == door)
        state = core.update(state, replace(o, unlocked=unlocked))
        rulings = self.ruling_list(
            (
                "room_unlock",
                f"{half} unlocks: the permanent gets the '{door} half unlocked' designation",
            ),
            ("room", f"it now has {half}'s name, mana cost and rules text"),
        )
        if len(unlocked) == len(DOORS):
            rulings += self.rule(
                "room_fully", "both doors are unlocked: the Room is fully unlocked"
            )
        return Outcome(
            state, DONE, rulings, (Event("unlock", o.id, o.card, o.controller, detail=door),)
        )

    def lock(self, state: GameState, a: Lock) -> Outcome:
        """``lock`` (709.5g): the player chooses an unlocked half and the Room permanent
        loses that unlocked designation; a locked door can't be chosen (nothing happens)."""
        if not self.has("room_lock"):
            raise RulesError(f"locking a Room's door isn't modelled under {self.name}")
        o = state.objects[a.object]
        layout, faces = self.printed_faces(state, o)
        if o.face_down or not is_room(layout, faces) or o.zone != "battlefield":
            why = "only a Room permanent has doors to lock; nothing happens"
            return Outcome(state, NOTHING, self.rule("room_designation", why))
        door = _door(a.door, faces)
        half = faces[DOORS.index(door)].name
        if door not in o.unlocked:
            why = f"{half} is locked: only an unlocked half can be chosen; nothing happens"
            return Outcome(state, NOTHING, self.rule("room_lock", why))
        state = core.update(state, replace(o, unlocked=tuple(d for d in o.unlocked if d != door)))
        rulings = self.ruling_list(
            (
                "room_lock",
                f"{half} locks: the permanent loses the '{door} half unlocked' designation",
            ),
            ("room", f"it no longer has {half}'s name, mana cost and rules text"),
        )
        event = Event("lock", o.id, o.card, o.controller, detail=door)
        return Outcome(state, DONE, rulings, (event,))

    #: Locking a Room's unlocked doors again (709.5g).
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("lock", "_offer_lock"),)

    def _offer_lock(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone != "battlefield" or not o.unlocked or o.face_down:
            return []
        return [Lock(object=o.id, door=d) for d in o.unlocked]

    def layout_candidates(
        self, state: GameState, o: GameObject, verb: str | None = None
    ) -> list[v.Action]:
        """Unlocking a Room's doors, casting a split card fused: the choices to offer
        (``verb``: only that verb's)."""
        if o.face_down:
            return []
        layout, faces = self.printed_faces(state, o)
        if is_room(layout, faces) and o.zone == "battlefield":
            return [Unlock(object=o.id, door=d) for d in DOORS] if verb != "cast" else []
        if layout == "split" and o.zone == "hand" and self.has("fuse") and verb != "unlock":
            return [v.Cast(object=o.id, fuse=True)]
        return []

    # --- naming (201.4, 720.2) --------------------------------------------------------------

    def can_name_layout(self, name: str, card: CardDef) -> Decided[bool] | None:
        """A prototype card has one name (718.5); an Omen card's alternative name may be
        chosen (720.2), not both; ``None`` for other cards."""
        if card.layout == "prototype" and name == card.faces[0].name:
            return Decided(True, self.rule("naming", "a prototype card has its one name"))
        if card.layout != "omen" or len(card.faces) < 2 or not self.has("omen_alt"):
            return None
        if name == card.faces[1].name:
            return Decided(
                True,
                self.ruling_list(
                    ("naming", "the name of a card may be chosen"),
                    ("omen_alt", f"{name} names its Omen characteristics"),
                ),
            )
        if name == card.faces[0].name:
            return Decided(True, self.rule("naming", "the name of a card may be chosen"))
        return Decided(False, self.rule("naming", f"one name may be chosen, not {name}"))


def _door(door: str, faces: tuple[Face, ...]) -> str:
    """``left`` / ``right`` for a door given by side or by name (709.5j: a door is a half)."""
    if door in DOORS:
        return door
    for side, face in zip(DOORS, faces, strict=True):
        if face.name == door:
            return side
    names = ", ".join(quote(f.name or "") for f in faces)
    raise InputError("", "door", f"{quote(door)} is not a door: left, right, {names}")
