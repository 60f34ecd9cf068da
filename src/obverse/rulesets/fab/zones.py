"""Flesh and Blood, zones and faces: which zones make up the arena (3.0.5), which faces a
double-faced or split-card has where (9.1, 9.2), moves and new objects (3.0.7b, 3.0.9, 3.0.11),
turning face up or down and copies (8.5.24, 8.5.25), and who may look at what (3.0.3, 3.0.4).
:class:`obverse.rulesets.fab.FleshAndBlood` lists this flat mixin in its bases.

Every card behaviour here is read from the card data (layout, types, subtypes, abilities);
no rule looks at a card's name.
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse.cards import CardDef, Face
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulings import DONE, NO, NOTHING, PLAIN, YES, Decided, Event, Outcome
from obverse.state import CopyValues, Effect, GameObject, GameState

if TYPE_CHECKING:  # for mypy only (at run time a flat mixin)
    _Base = Ruleset
else:
    _Base = object

replace = msgspec.structs.replace

#: 3.0.5: the zones that make up the arena (the contract's ``arena`` is the permanent zone).
ARENA_ZONES: Final = frozenset(
    {"arena", "hero", "arms", "chest", "head", "legs", "weapon", "combat_chain"}
)
#: 3.0.9: the zones entering which an object stays the same object (the arena, the stack).
SAME_OBJECT_ZONES: Final = ARENA_ZONES | {"stack"}
#: What a search or a filter for ``zone: arena`` finds: the permanent, hero and equipment zones.
ARENA_MATCHES: Final = ARENA_ZONES - {"combat_chain"}
#: 3.0.4a / 3.0.4b (and 4.1.6b: the inventory is private).
PUBLIC_ZONES: Final = frozenset(
    {
        "arms",
        "banished",
        "chest",
        "combat_chain",
        "graveyard",
        "head",
        "hero",
        "legs",
        "arena",
        "pitch",
        "stack",
        "sub_cards",
        "weapon",
    }
)
PRIVATE_ZONES: Final = frozenset({"arsenal", "deck", "hand", "inventory"})
#: 1.3.2c: the types that make a deck-card.
DECK_TYPES: Final = frozenset(
    {"Action", "Attack Reaction", "Block", "Defense Reaction", "Instant", "Mentor", "Resource"}
)
#: 1.3.3: deck-cards with one of these subtypes become permanents in the arena.
PERMANENT_SUBTYPES: Final = frozenset(
    {"Affliction", "Ally", "Ash", "Aura", "Construct", "Figment", "Invocation", "Item", "Landmark"}
)

#: Zones that hold only their owner's deck-cards, with the rule that says so.
DECK_CARD_ZONES: Final = {"hand": "3.9.2", "deck": "3.7.2", "pitch": "3.14.2", "arsenal": "3.3.2"}
#: Subtype rules that decide the face a flip-card resolves into the arena with:
#: subtype -> (face, rule id).
RESOLVE_FACE: Final = {
    "Construct": ("back", "8.2.14a"),
    "Invocation": ("back", "8.2.13a"),
    "Figment": ("front", "8.2.16a"),
}
#: The ability that lets a split-card be played with both sides (5.1.2c, 8.3.38).
MELD: Final = "Meld"
#: 8.3.16: "Essence of X" lets the card-pool hold X cards.
ESSENCE: Final = re.compile(r"^Essence of (.+)$")
#: The layouts whose two faces are the two sides of one card (9.1).
DFC_LAYOUTS: Final = frozenset({"flip", "twin", "transcend"})
#: Layout -> the rule that says which face(s) decide its category (9.1.3, 9.1.4, 9.1.5).
CATEGORY_RULE: Final = {"flip": "9.1.3", "twin": "9.1.4", "transcend": "9.1.5", "split": "9.2.2"}
#: A single-faced card's face after any move: its front (built once, a move's commonest).
_FRONT: Final = PLAIN["front"]
_TARGET: Final = operator.attrgetter("target")


def _bound(effects: tuple[Effect, ...], oid: int) -> bool:
    """Whether an effect is bound to object ``oid`` (a scan in C)."""
    return oid in map(_TARGET, effects)


def zone_name(zone: str) -> str:
    """A zone's name for a ruling's reason ("hand", "banished zone", "combat chain")."""
    if zone in ("hand", "deck", "stack", "arena", "inventory", "arsenal", "graveyard"):
        return zone
    return f"{zone.replace('_', ' ')} zone" if zone != "combat_chain" else "combat chain"


def article(word: str) -> str:
    """``word`` with its indefinite article."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def layout_category(layout: str, faces: tuple[Face, ...]) -> str:
    """1.3.2 for a card: the types of a flip- or transcend-card's front face decide (9.1.3,
    9.1.5), those of both faces of a twin-card (9.1.4) or both sides of a split-card (9.2.2)."""
    if layout in ("flip", "transcend"):
        faces = faces[:1]
    return category_of({t for face in faces for t in face.types})


def category_of(types: tuple[str, ...] | set[str] | frozenset[str]) -> str:
    """1.3.2: ``hero``, ``token``, ``deck`` or ``arena`` card, from types."""
    if "Hero" in types:
        return "hero"
    if "Token" in types:
        return "token"
    if DECK_TYPES.intersection(types):
        return "deck"
    return "arena"


class FabZones(_Base):
    """FaB's zones, faces, moves, facing, copies and visibility (Comprehensive Rules,
    February 2026)."""

    # --- zones (3.0.2, 3.0.4, 3.0.5) --------------------------------------------------------

    def zone_matches(self, actual: str, asked: str) -> bool:
        """The contract's ``arena`` also matches the hero and equipment zones (3.0.5)."""
        if asked == "arena":
            return actual in ARENA_MATCHES
        return actual == asked

    def is_in_play(self, zone: str) -> bool:
        """3.0.5: the arena is the arms, chest, combat chain, head, hero, legs, permanent and
        weapon zones."""
        return zone in ARENA_ZONES

    def stays_same_object(self, zone: str) -> bool:
        """3.0.9: entering the arena or the stack does not reset an object."""
        return zone in SAME_OBJECT_ZONES

    # --- cards and faces (9.1, 9.2) ----------------------------------------------------------

    def is_double_faced(self, card: CardDef) -> bool:
        """9.1.3-9.1.5: flip-, twin- and transcend-cards are double-faced."""
        return card.layout in DFC_LAYOUTS and len(card.faces) > 1

    def is_transcended(self, state: GameState, obj: GameObject) -> bool:
        """9.1.5b: once a transcend-card transcends, its back face stays active."""
        card = state.card_def(obj)
        return (
            card.layout == "transcend"
            and len(card.faces) > 1
            and (state.cards[obj.card].transcended or obj.face == "back")
        )

    def default_face(self, card: CardDef, zone: str) -> str:
        """9.1.3a/b, 9.1.5a/b: front; 9.1.4a/b: a twin-card has both faces outside the arena
        and the stack, its front by default there; 9.2.2/9.2.3: a split-card has both sides
        off the stack, its left side by default on it."""
        if len(card.faces) < 2:
            return "front"
        if card.layout == "split":
            return "left" if zone == self.stack_zone else "both"
        if card.layout == "twin":
            return "front" if self.stays_same_object(zone) else "both"
        return "front"

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        """The faces a card may have in ``zone`` (setup): see :meth:`default_face`; a flip-card
        may be back face up in the arena (8.2.13a, 8.2.14a, 8.5.43), a transcend-card anywhere
        once transcended (9.1.5b); a split-card keeps its chosen side on the combat chain."""
        if len(card.faces) < 2:
            return frozenset({"front"})
        if card.layout == "split":
            if zone in (self.stack_zone, "combat_chain"):
                return frozenset(
                    {"left", "right", "both"} if self.has_meld(card) else {"left", "right"}
                )
            return frozenset({"both"})
        if card.layout == "twin":
            return frozenset({"front", "back"} if self.stays_same_object(zone) else {"both"})
        if card.layout == "transcend":
            return frozenset({"front", "back"})
        if card.layout == "flip":
            return frozenset({"front", "back"} if zone in ARENA_ZONES else {"front"})
        return frozenset({"front"})

    def has_meld(self, card: CardDef) -> bool:
        """5.1.2c: a split-card with meld may be played with both sides."""
        return any(MELD in f.abilities for f in card.faces)

    def category(self, state: GameState, obj: GameObject) -> str:
        """1.3.2: hero-, token-, deck- or arena-card (of the copy values for a copy)."""
        return layout_category(*self.printed_faces(state, obj))

    # --- moves (3.0.7b, 3.0.9, 3.0.11, 9.1.3b, 9.1.4, 9.1.5b, 9.2.3) -------------------------

    def face_on_move(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str | None,
        transformed: bool | None,
    ) -> Decided[str | None]:
        """The active face(s) after a move, by layout, or ``None`` when the destination can't
        hold the card (3.0.11: an effect's move fails)."""
        if zone in DECK_CARD_ZONES:  # the only zones :meth:`cannot_contain` refuses
            refused = self.cannot_contain(state, obj, zone)
            if refused:
                return Decided(None, refused)
        card = state.card_def(obj)
        layout = card.layout
        after: Decided[str]
        if len(card.faces) < 2:
            after = _FRONT
        elif zone in SAME_OBJECT_ZONES:  # ``same``: it stays the same object (3.0.9), public
            by_layout = _AFTER_MOVE.get(layout, FabZones._flip_after_move)
            after = by_layout(self, state, obj, zone, face, not obj.face_down)
        elif layout in _AFTER_MOVE:  # it becomes a new card (3.0.9)
            after = _AFTER_MOVE[layout](self, state, obj, zone, face, False)
        else:  # a flip-card (or any other double-faced layout) becoming a new card
            after = self._flip_new_card()
        return after  # type: ignore[return-value]  # (Decided is invariant in its value)

    def _face_after_move(
        self, state: GameState, obj: GameObject, zone: str, face: str | None
    ) -> Decided[str]:
        """:meth:`face_on_move` to a zone that holds any card (none of
        :data:`DECK_CARD_ZONES`): never ``None``."""
        return self.face_on_move(state, obj, zone, face, None)  # type: ignore[return-value]

    @memo.last("self")  # a fixed ruling: the same every time
    def _flip_new_card(self) -> Decided[str]:
        """9.1.3b: a flip-card that becomes a new card has its front face active."""
        return Decided(
            "front",
            self.cite("9.1.3b", "it becomes a new card, so its front face is active again"),
        )

    def _split_after_move(
        self, state: GameState, obj: GameObject, zone: str, face: str | None, same: bool
    ) -> Decided[str]:
        """9.2.2, 9.2.3: both sides off the stack, the chosen side on it for good."""
        card = state.card_def(obj)
        if (
            same
            and obj.face in ("left", "right", "both")
            and (obj.zone == self.stack_zone or obj.zone in ARENA_ZONES)
        ):
            if obj.face == "both":
                return Decided("both", ())
            return Decided(
                obj.face,
                self.cite(
                    "9.2.3",
                    "it keeps the side chosen as it went onto the "
                    "stack for the rest of its existence",
                ),
            )
        if zone == self.stack_zone:
            chosen = (
                face
                if face in ("left", "right") or (face == "both" and self.has_meld(card))
                else "left"
            )
            return Decided(
                chosen,
                self.cite(
                    "9.2.3",
                    "put onto the stack, it has only the chosen side"
                    if chosen != "both"
                    else "it has both sides",
                ),
            )
        return Decided(
            "both", self.cite("9.2.2", "off the stack a split-card has both sides' properties")
        )

    def _twin_after_move(
        self, state: GameState, obj: GameObject, zone: str, face: str | None, same: bool
    ) -> Decided[str]:
        """9.1.4a/b: both faces outside the arena and stack, one face in them."""
        if not self.stays_same_object(zone):
            return Decided(
                "both",
                self.cite(
                    "9.1.4a",
                    "outside the arena and the stack both faces of a twin-card are active",
                ),
            )
        if same and obj.face in ("front", "back") and self.stays_same_object(obj.zone):
            return Decided(obj.face, ())
        chosen = face if face in ("front", "back") else "front"
        return Decided(
            chosen,
            self.cite(
                "9.1.4b",
                f"in the {zone_name(zone)} only one face is "
                f"active: the {chosen} face, chosen by the effect that "
                "put it there",
            ),
        )

    def _transcend_after_move(
        self, state: GameState, obj: GameObject, zone: str, face: str | None, same: bool
    ) -> Decided[str]:
        """9.1.5b: once transcended, the back face stays active."""
        if self.is_transcended(state, obj):
            return Decided(
                "back",
                (
                    self.cite(
                        "9.1.5b",
                        "it has transcended: its back face stays active even as a new object",
                    )
                    if not self.stays_same_object(zone)
                    else ()
                ),
            )
        return Decided("front", ())

    def _flip_after_move(
        self, state: GameState, obj: GameObject, zone: str, face: str | None, same: bool
    ) -> Decided[str]:
        """9.1.3b: entering the arena or the stack (elsewhere it is a new card, its front
        face active: :meth:`_flip_new_card`), only resolving may turn it."""
        if same and self.stays_same_object(obj.zone):
            # stack -> arena keeps the face: resolving, the subtype rule decides (resolve)
            return Decided(obj.face, ())
        if zone in ARENA_ZONES:
            return Decided(
                "front",
                self.cite(
                    "9.1.3b",
                    "put into the arena without resolving, its front "
                    "face stays active: no rule makes its back face active",
                ),
            )
        return Decided("front", ())

    def cannot_contain(self, state: GameState, obj: GameObject, zone: str) -> Rulings:
        """3.0.11 with 3.9.2, 3.7.2, 3.14.2, 3.3.2: a hand, deck, pitch or arsenal holds only
        its owner's deck-cards (the category from 1.3.2, 9.1.3-9.1.5). Empty: the zone may hold
        the object (always, outside :data:`DECK_CARD_ZONES`). A token leaving the arena ceases
        to exist instead (8.1.8a). (Whether an arsenal holds a card already is
        :meth:`refuses_entry`'s: it reads the zone.)"""
        if obj.token and not self.is_in_play(zone):
            return ()
        rule = DECK_CARD_ZONES.get(zone)
        if rule is None:
            return ()
        kind = self.category(state, obj)
        if kind != "deck":
            layout, _ = self.printed_faces(state, obj)
            out = (
                self.cite(
                    rule,
                    f"the {zone_name(zone)} can only contain its owner's "
                    f"deck-cards; this is {article(kind)}-card, so the move fails",
                )
                + self.cite(
                    "3.0.11", "an effect's move to a zone that can't contain the object fails"
                )
                + self.cite("1.3.2", f"its types make it {article(kind)}-card")
            )
            if layout in CATEGORY_RULE:
                which = "both faces" if layout in ("twin", "split") else "its front face"
                out += self.cite(CATEGORY_RULE[layout], f"the types of {which} decide its category")
            return out
        return ()

    def refuses_entry(self, state: GameState, obj: GameObject, zone: str) -> Rulings:
        """3.3.2a: an arsenal that isn't empty takes no card (a deck-card: any other one the
        arsenal can't contain, :meth:`cannot_contain`; a token ceases to exist instead)."""
        if zone != "arsenal" or (obj.token and not self.is_in_play(zone)):
            return ()
        if state.zones.get(self.zone_key(zone, obj.owner)):
            return self.cite("3.3.2a", "the arsenal is not empty, so the move fails")
        return ()

    def is_new_object(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """3.0.9: entering a zone outside the arena other than the stack makes a new object
        with no relation to the old one (1.2.3b: only last known information remains); the
        marked condition ends with the old object (9.3.2b)."""
        if obj.token and not self.is_in_play(zone):
            return YES
        entering = self._entering(zone)
        if not entering.value:
            return entering
        bound = bool(state.effects) and _bound(state.effects, obj.id)
        if not (bound or obj.marked):
            return entering
        out = entering.rulings
        if bound:
            out += self.cite(
                "1.2.3b",
                "effects on the old object don't apply to the new one; "
                "they remain only in its last known information",
            )
            if self.is_double_faced(state.card_def(obj)):
                out += self.cite(
                    "9.1.2c",
                    "an effect on a double-faced card stops applying once the card ceases to exist",
                )
        if obj.marked:
            out += self.cite(
                "9.3.2b", "the marked hero ceased to exist: the new object is not marked"
            )
        return Decided(True, out)

    @memo.last("self", per="zone")  # what entering ``zone`` makes of an object: nothing else
    def _entering(self, zone: str) -> Decided[bool]:
        """3.0.9: whether entering ``zone`` makes a new object (not yet the rulings for the
        effects bound to it or its mark)."""
        if self.stays_same_object(zone):
            where = (
                "onto the stack"
                if zone == self.stack_zone
                else "into the arena"
                if zone == self.play_zone
                else f"into the {zone_name(zone)} (in the arena)"
            )
            return Decided(False, self.cite("3.0.9", f"put {where} it stays the same object"))
        return Decided(
            True,
            self.cite(
                "3.0.9",
                f"entering the {zone_name(zone)}, outside the arena and not the "
                "stack, it becomes a new object with no relation to its previous existence",
            ),
        )

    def move_within_zone(
        self, state: GameState, obj: GameObject, face_down: bool | None, position: str | None
    ) -> Outcome | None:
        """3.0.7b: a move to the zone the object is in does not occur; only its visibility
        changes, to the destination's (face up unless moved face down). Becoming private
        makes a new object (3.0.9)."""
        want = bool(face_down)
        if want == obj.face_down or obj.zone in PRIVATE_ZONES:
            return Outcome(
                state,
                NOTHING,
                self.cite(
                    "3.0.7b", f"origin and destination are both the {obj.zone}: no move occurs"
                ),
            )
        state, ts = core.tick(state)
        state = core.update(state, replace(obj, face_down=want, set_face_down=want, timestamp=ts))
        if want:
            state = self.renew(state, obj.id)
            return Outcome(
                state,
                DONE,
                (
                    self.cite("3.0.7b", "the move does not occur: the card just becomes private")
                    + self.cite(
                        "3.0.9", "a public object that becomes private becomes a new object"
                    )
                ),
                (Event("turn_face_down", obj.id, None, obj.controller),),
            )
        return Outcome(
            state,
            DONE,
            self.cite(
                "3.0.7b", "the move does not occur: the card just becomes public, the same object"
            ),
            (Event("turn_face_up", obj.id, obj.card, obj.controller),),
        )

    def renew(self, state: GameState, obj_id: int) -> GameState:
        """3.0.9: the object in place becomes a new object (same zone and position): no
        effects, counters, copy effects or conditions carry over."""
        cur = state.objects[obj_id]
        state, oid = core.new_object_id(state)
        state, ts = core.tick(state)
        new = replace(
            cur,
            id=oid,
            copies=(),
            counters=(),
            marked=False,
            timestamp=ts,
            face=self._fresh_face(state, cur),
        )
        return core.forget(core.replace_object(state, cur, new), cur.id)

    def _fresh_face(self, state: GameState, obj: GameObject) -> str:
        """The face a card has as a new object where it is (9.1.3b, 9.1.4, 9.1.5b, 9.2.2)."""
        card = state.card_def(obj)
        if self.is_transcended(state, obj):
            return "back"
        if card.layout == "twin" and obj.face in ("front", "back") and obj.zone in ARENA_ZONES:
            return obj.face
        if card.layout == "split" and obj.zone == self.stack_zone:
            return obj.face
        return self.default_face(card, obj.zone)

    def token_ceases(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """8.1.8a, 3.0.12a: a token that leaves the arena ceases to exist."""
        if not (obj.token and not self.is_in_play(zone)):
            return NO
        return Decided(
            True,
            (
                self.cite(
                    "8.1.8a", "a token exists only in the arena: leaving it, it ceases to exist"
                )
                + self.cite("3.0.12a", "a token leaving its zone simply ceases to exist")
            ),
        )

    # --- turning face up/down, copies (8.5.24, 8.5.25) ---------------------------------------

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """8.5.24: turning a card face down makes it private, a new object (3.0.9); 8.5.24a:
        it fails if the card already is private."""
        if obj.face_down or (obj.zone in PRIVATE_ZONES and not obj.shown):
            return Decided(
                False, self.cite("8.5.24a", "it is already private: turning it face down fails")
            )
        return Decided(
            True,
            (
                self.cite("8.5.24", "turned face down, it becomes private")
                + self.cite("3.0.9", "a public object that becomes private becomes a new object")
            ),
        )

    def after_turn_face_down(self, state: GameState, obj: GameObject) -> GameState:
        """3.0.9: the public object that became private is a new object."""
        return self.renew(state, obj.id)

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """8.5.24: turned face up it becomes public, the same object; 8.5.24a: fails if it
        already is public."""
        if not obj.face_down and (obj.shown or obj.zone not in PRIVATE_ZONES):
            return Decided(
                False, self.cite("8.5.24a", "it is already public: turning it face up fails")
            )
        if not obj.face_down:
            return Decided(
                True,
                self.cite(
                    "3.0.4d", "turned face up in a private zone, it becomes a public object there"
                ),
            )
        return Decided(
            True,
            self.cite(
                "8.5.24", "turned face up it becomes public; private to public is not a new object"
            ),
        )

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """The face it had, which :meth:`renew` set for where it is."""
        return obj.face

    def copy_effect(self, state: GameState, obj: GameObject, of: GameObject) -> Decided[CopyValues]:
        """8.5.25: it gets the copyable properties; it doesn't cease to exist (9.3.2b)."""
        values, out = self.copiable_values(state, of)
        out += self.cite(
            "8.5.25",
            "it becomes a copy: it gets the reference's copyable "
            "properties and stays the same object",
        )
        if obj.marked:
            out += self.cite("9.3.2b", "it did not cease to exist, so it stays marked")
        return Decided(values, out)

    # --- visibility (3.0.3a, 3.0.4, 3.7.4, 4.1.6b, 8.5.17, 9.1.2a) ----------------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """3.0.4: public zones are seen by all; 3.0.3a: a player may look at private objects
        they own or in zones they own, except in the deck (3.7.4); 4.1.6b the inventory."""
        if obj.shown and not obj.face_down:
            return True  # 3.0.4d: a public object in a private zone
        if obj.zone == "deck":
            return False
        if obj.face_down:
            return viewer is not None and viewer == obj.owner
        if obj.zone in PUBLIC_ZONES:
            return True
        return viewer is not None and viewer == obj.owner

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """9.1.2a: whoever may look at a double-faced card may look at both faces (3.0.3a)."""
        if not self.may_look(state, player, obj) and not self.knows(state, player, obj):
            return Decided(
                False,
                self.cite(
                    "3.0.3a",
                    "a player may look only at public objects and the "
                    "private ones they own outside their deck",
                ),
            )
        return Decided(
            True,
            self.cite(
                "9.1.2a",
                "a player who may look at a card may look at both its faces; "
                "looking changes nothing",
            ),
        )

    def can_reveal(
        self, state: GameState, obj: GameObject, players: tuple[str, ...]
    ) -> Decided[bool]:
        """8.5.17: revealing makes a private object public for a moment, seen until it moves
        (a new object, 3.0.9); 8.5.17d: revealing a public object fails."""
        if obj.zone in PUBLIC_ZONES and not obj.face_down:
            return Decided(False, self.cite("8.5.17d", "it is already public: revealing it fails"))
        if not super().can_reveal(state, obj, players).value:
            return Decided(False)  # each of them may already see it
        return Decided(
            True,
            self.cite(
                "8.5.17", "the private card is revealed: those players see it until it moves"
            ),
        )


#: The face after a move by layout (a flip-card's rule for any other double-faced card).
_AFTER_MOVE: Final = {
    "split": FabZones._split_after_move,
    "twin": FabZones._twin_after_move,
    "transcend": FabZones._transcend_after_move,
}
