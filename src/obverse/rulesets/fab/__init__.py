"""Flesh and Blood (Comprehensive Rules of February 2026): double-faced flip-, twin- and
transcend-cards (9.1), split-cards (9.2), the marked condition (9.3), and the zone rules
behind them: new objects (3.0.9), same-zone moves (3.0.7b), which zones may hold which card
categories (1.3.2, 3.0.11) and who may look at what (3.0.3, 3.0.4).

This module is the game: :class:`FleshAndBlood` declares it (zones, layouts, stats, verbs, type
words) and plays, resolves, awakens, transcends, marks and names; the rest of its rules are
the seams of this package, each a flat mixin listed once in its bases: :mod:`.zones` (zones,
faces, moves, facing, visibility), :mod:`.arena` (demi-heroes, afflictions, sub-cards and the
soul, the start of the game, look and play permissions), :mod:`.status` (tapped permanents,
suspense, landmarks, Return to the Brood, ``*`` copies), :mod:`.split` (restrictions on a
split-card's side, melded layers), :mod:`.equip` (equip, control, exchange) and :mod:`.look`
(continuous looks); :mod:`.pool` (card-pools) is plain functions the class asks.

Every card behaviour here is read from the card data (layout, types, subtypes, abilities);
no rule looks at a card's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import Characteristics
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.fab import pool
from obverse.rulesets.fab.arena import (
    ARENA_OFFERS,
    EQUIPMENT_ZONES,
    SUB_CARDS,
    TOP_ZONES,
    AllowPlay,
    Charge,
    FabArena,
    HasTranscended,
    Look,
    PutUnder,
)
from obverse.rulesets.fab.equip import (
    EQUIP_OFFERS,
    EQUIP_TARGETS,
    Equip,
    Exchange,
    FabEquip,
    Give,
    Steal,
)
from obverse.rulesets.fab.look import FabLook, LookAtTop
from obverse.rulesets.fab.split import FabSplit
from obverse.rulesets.fab.status import (
    STATUS_OFFERS,
    FabStatus,
    ReturnToTheBrood,
    Tap,
    Untap,
)
from obverse.rulesets.fab.zones import (
    ARENA_MATCHES,
    ARENA_ZONES,
    CATEGORY_RULE,
    DECK_CARD_ZONES,
    DECK_TYPES,
    DFC_LAYOUTS,
    ESSENCE,
    MELD,
    PERMANENT_SUBTYPES,
    PRIVATE_ZONES,
    PUBLIC_ZONES,
    RESOLVE_FACE,
    FabZones,
    article,
    category_of,
    layout_category,
    zone_name,
)
from obverse.rulesets.hooks import Sight
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState

__all__ = [
    "ARENA_MATCHES",
    "ARENA_ZONES",
    "CATEGORY_RULE",
    "DECK_CARD_ZONES",
    "DECK_TYPES",
    "DFC_LAYOUTS",
    "ESSENCE",
    "MELD",
    "PERMANENT_SUBTYPES",
    "PRIVATE_ZONES",
    "PUBLIC_ZONES",
    "RESOLVE_FACE",
    "RULESETS",
    "SUB_CARDS",
    "AllowPlay",
    "Awaken",
    "Charge",
    "Equip",
    "Exchange",
    "FleshAndBlood",
    "Give",
    "HasTranscended",
    "Hit",
    "Look",
    "LookAtTop",
    "Mark",
    "PutUnder",
    "ReturnToTheBrood",
    "Steal",
    "Tap",
    "Transcend",
    "Untap",
    "article",
    "category_of",
    "layout_category",
    "zone_name",
]

replace = msgspec.structs.replace


class Awaken(v.Action, frozen=True, tag="awaken"):
    """A double-faced permanent's back face becomes active (8.5.43)."""

    refs = ("object",)
    object: int


class Transcend(v.Action, frozen=True, tag="transcend"):
    """A transcend-card goes to its owner's hand back face active (8.5.48); ``player``
    controls the effect and has transcended (8.5.48a; default: the card's controller)."""

    refs = ("object",)
    player_fields = ("player",)
    object: int
    player: str | None = None


class Mark(v.Action, frozen=True, tag="mark"):
    """The hero becomes marked (8.5.50)."""

    refs = ("object",)
    object: int


class Hit(v.Action, frozen=True, tag="hit"):
    """``source`` hits ``hero`` (7.5.5, 9.3.3)."""

    refs = ("hero", "source")
    subject = "hero"
    hero: int
    source: int


class FleshAndBlood(FabLook, FabEquip, FabSplit, FabStatus, FabArena, FabZones, Ruleset):
    """Flesh and Blood, the Comprehensive Rules published February 2026 (chapter 9 as in the
    seed, and the newer rules: 1.3.3b, 2.14.1b, 8.2.9b, 8.3.42, 8.5.25e, 8.5.52, 8.5.55,
    8.5.56).

    Its bases are the package's seams (see the module), each listed once. Where two seams
    define one hook, the one listed first extends the later one through ``super()`` (e.g.
    ``may_look``: look, equip, arena, then zones)."""

    aliases: ClassVar[tuple[str, ...]] = ("fab", "fab@2026-02")
    game: ClassVar[str] = "fab"
    version: ClassVar[str] = "2026-02"
    title: ClassVar[str] = "Flesh and Blood (Comprehensive Rules, February 2026)"
    listed: ClassVar[int] = 1
    #: The move hooks read the object, its printed card and its characteristics alone; an
    #: arsenal's contents (3.3.2a) are asked after the plan (:meth:`refuses_entry`).
    plans_per_object: ClassVar[bool] = True
    entry_checked: ClassVar[frozenset[str]] = frozenset({"arsenal"})
    layouts: ClassVar[frozenset[str]] = frozenset(
        {"normal", "flip", "twin", "transcend", "split", "meld"}
    )
    stats: ClassVar[tuple[str, ...]] = ("pitch", "power", "defense", "life", "intellect")
    zones: ClassVar[frozenset[str]] = frozenset(
        {
            "deck",
            "hand",
            "arsenal",
            "pitch",
            "arena",
            "graveyard",
            "banished",
            "stack",
            "inventory",
            "hero",
            "arms",
            "chest",
            "head",
            "legs",
            "weapon",
            "combat_chain",
            "sub_cards",
        }
    )
    #: 3.0.2: the stack, permanent and combat chain zones are shared.
    shared_zones: ClassVar[frozenset[str]] = frozenset({"arena", "stack", "combat_chain"})
    public_zones: ClassVar[frozenset[str]] = PUBLIC_ZONES
    #: 3.7.5 the deck is an ordered pile; 3.15.3 the stack is ordered.
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"deck", "stack"})
    play_zone: ClassVar[str] = "arena"
    public_objects_in_private_zones: ClassVar[bool] = True
    forbid_rule: ClassVar[str] = "1.0.2"
    actions: ClassVar[tuple[type[v.Action], ...]] = (
        Awaken,
        Transcend,
        Mark,
        Hit,
        PutUnder,
        Charge,
        Look,
        AllowPlay,
        HasTranscended,
        Tap,
        Untap,
        ReturnToTheBrood,
        Equip,
        Give,
        Steal,
        Exchange,
        LookAtTop,
    )
    #: 3.0.3a: a player may look only at private objects they own (else: no reference).
    hidden_rule: ClassVar[str] = "3.0.3a"
    #: 3.0.9: an object that moves between zones becomes a new object.
    new_object_rule: ClassVar[str] = "3.0.9"
    # 2.15.6a type keywords (class and talent supertypes, and subtypes, stay open).
    type_words: ClassVar[Mapping[str, frozenset[str]]] = {
        "types": frozenset(
            {
                "Action",
                "Attack Reaction",
                "Block",
                "Companion",
                "Defense Reaction",
                "Demi-Hero",
                "Equipment",
                "Event",
                "Hero",
                "Instant",
                "Macro",
                "Mentor",
                "Resource",
                "Token",
                "Weapon",
            }
        )
    }

    # --- playing and resolving (5.1.2c, 9.1.3b, 9.1.4b, 9.1.5b, 9.2.3, 8.2.13a-8.2.16b) ------

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        """Playing a card puts it onto the stack: a flip-card front face up (9.1.3b), a
        transcend-card front face up until it has transcended (9.1.5b), a twin-card with one
        face (9.1.4b), a split-card with the declared side, or both with meld (5.1.2c,
        9.2.3)."""
        face, transformed, face_down = a.face, a.transformed, a.face_down
        card = state.card_def(obj)
        refused = self.play_refusal(state, obj)
        if refused:
            return ILLEGAL, obj.zone, obj.face, refused
        chosen, unmelded = self.meld_on_other_card(card, "back" if transformed else face)
        if face_down or len(card.faces) < 2:
            played = self._play_single(card, chosen)
        elif card.layout == "split":
            played = self._play_split(card, chosen)
        elif card.layout == "twin":
            played = self._play_twin(card, chosen)
        elif card.layout == "transcend":
            played = self._play_transcend(state, obj, chosen)
        else:
            played = self._play_flip(chosen)
        side, rulings = played
        if side is None:
            return ILLEGAL, obj.zone, obj.face, rulings
        resource = self._resource_refusal(card, side, face_down)
        if resource:
            return ILLEGAL, obj.zone, obj.face, resource
        forbidden = self.play_forbidden(state, obj, side)
        if forbidden:
            return ILLEGAL, obj.zone, obj.face, forbidden
        rulings = (*unmelded, *rulings, *self.allowed_side_note(state, obj, side))
        return DONE, self.stack_zone, side, rulings

    def _resource_refusal(self, card: CardDef, side: str, face_down: bool) -> Rulings:
        """8.1.7a: a resource card can't be played (a transcended Inner Chi); empty: it
        isn't one."""
        index = {"front": 0, "left": 0, "back": 1, "right": 1}.get(side)
        if face_down or index is None or index >= len(card.faces):
            return ()
        played = card.faces[index]
        if "Resource" not in played.types:
            return ()
        return self.cite("8.1.7a", f"{played.name} is a resource card: it can't be played")

    # Each ``_play_*`` decides the face(s) a card is played with; ``None``: it can't be.

    def _play_single(self, card: CardDef, chosen: str | None) -> Decided[str | None]:
        """2.0.2: a single-faced (or face-down) card has only its front."""
        if chosen not in (None, "front"):
            return Decided(None, self.cite("2.0.2", f"{card.name} has no {chosen} face to play"))
        return Decided("front")

    def _play_split(self, card: CardDef, chosen: str | None) -> Decided[str | None]:
        """5.1.2c, 9.2.3: the declared side (left by default), or both with meld."""
        side = chosen or "left"
        if side == "both":
            if not self.has_meld(card):
                why = "only a split-card with meld may be played with both sides"
                return Decided(None, self.cite("5.1.2c", why))
            return Decided(
                "both",
                (
                    self.cite("5.1.2c", "with meld the player declared both sides")
                    + self.cite("9.2.3", "it has both sides' names and typeboxes on the stack")
                ),
            )
        if side not in ("left", "right"):
            why = "a split-card is played with its left or right side"
            return Decided(None, self.cite("5.1.2c", why))
        half = card.faces[0 if side == "left" else 1]
        return Decided(
            side,
            (
                self.cite(
                    "5.1.2c",
                    f"the player declared the {side} side, {half.name}"
                    + ("" if chosen else " (no declaration: the left side)"),
                )
                + self.cite(
                    "9.2.3",
                    f"for the rest of its existence it has only {half.name}'s "
                    "name, typebox and textbox",
                )
            ),
        )

    def _play_twin(self, card: CardDef, chosen: str | None) -> Decided[str | None]:
        """9.1.4b: a twin-card is played with one face, the player's choice."""
        pick = chosen or "front"
        if pick not in ("front", "back"):
            why = "on the stack only one face of a twin-card is active"
            return Decided(None, self.cite("9.1.4b", why))
        name = card.faces[0 if pick == "front" else 1].name
        why = f"the player chose the {pick} face, {name}: only it is active on the stack"
        return Decided(pick, self.cite("9.1.4b", why))

    def _play_transcend(
        self, state: GameState, obj: GameObject, chosen: str | None
    ) -> Decided[str | None]:
        """9.1.5b: front face up until it has transcended, back face up after."""
        active = "back" if self.is_transcended(state, obj) else "front"
        if chosen not in (None, active):
            why = f"its {active} face is active; it can't be played with its {chosen} face"
            return Decided(None, self.cite("9.1.5b", why))
        return Decided(active)

    def _play_flip(self, chosen: str | None) -> Decided[str | None]:
        """9.1.3b: a flip-card is played with its front face active."""
        if chosen not in (None, "front"):
            why = (
                "a flip-card is played with its front face active; only a rule or "
                "effect makes its back face active"
            )
            return Decided(None, self.cite("9.1.3b", why))
        return Decided(
            "front", self.cite("9.1.3b", "a flip-card is played with its front face active")
        )

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        """1.3.3: hero-, arena- and token-cards, and deck-cards with a permanent subtype."""
        if self.category(state, obj) != "deck":
            return True
        subtypes = set(self.base_characteristics(state, obj).props.subtypes)
        return bool(PERMANENT_SUBTYPES.intersection(subtypes))

    def plan_resolve(self, state: GameState, obj: GameObject) -> tuple[str, str, Rulings]:
        """A resolving permanent enters the arena (1.3.3): a construct or an invocation with
        its back face active (8.2.14a, 8.2.13a), a figment front face up (8.2.16a, 8.2.16b,
        9.1.3b), a twin-card with its face (9.1.4b); anything else is cleared to the
        graveyard (5.3.7)."""
        card = state.card_def(obj)
        carried = any(e.target == obj.id for e in state.effects)
        if card.layout == "flip" and len(card.faces) > 1 and not obj.face_down:
            subtypes = self.base_characteristics(state, obj).props.subtypes
            for subtype, (face, rule) in RESOLVE_FACE.items():
                if subtype not in subtypes:
                    continue
                rulings = self.cite(
                    rule,
                    f"{article(subtype.lower())} resolving enters the "
                    + (
                        f"arena with its {face} face active"
                        if face == "back"
                        else "arena; no rule makes its back face active, so its "
                        "front face stays active (9.1.3b)"
                    ),
                ) + self.cite(
                    "1.3.3",
                    f"a deck-card with the {subtype} subtype becomes a permanent in the arena",
                )
                if subtype == "Figment":
                    rulings += self.cite(
                        "8.2.16b", "a figment entering the arena becomes a permanent"
                    )
                if face != obj.face:
                    rulings += self.cite("9.1.3b", "a rule makes its back face active")
                    if carried:
                        rulings += self.cite(
                            "9.1.2c",
                            "effects on it keep applying: it did not "
                            "cease to exist between its faces",
                        )
                return self.play_zone, face, rulings
        if self.is_permanent(state, obj):
            rulings = self.cite("1.3.3", "it becomes a permanent in the arena")
            if card.layout == "twin":
                rulings += self.cite(
                    "9.1.4b", "it enters the arena with the face it was played with"
                )
            return self.play_zone, obj.face, rulings
        dest = self.discard_zone
        face, rulings = self._face_after_move(state, obj, dest, None)
        return (
            dest,
            face,
            (
                *self.cite(
                    "5.3.7",
                    "it is not a permanent (1.3.3), so it is still "
                    "on the stack after resolving and is cleared to its "
                    "owner's graveyard",
                ),
                *rulings,
            ),
        )

    # --- awaken, transcend, mark, hit (8.5.43, 8.5.48, 9.3) ----------------------------------

    def awaken(self, state: GameState, a: Awaken) -> Outcome:
        """8.5.43: a double-faced card's back face becomes active, the same object (9.1.2c);
        8.5.43a: it fails on a card that isn't double-faced, whose back face is already
        active, or that isn't a permanent."""
        obj = state.objects[a.object]
        card = state.card_def(obj)
        if not self.is_double_faced(card) or obj.copies:
            return Outcome(
                state,
                NOTHING,
                self.cite("8.5.43a", f"{card.name} is not a double-faced card: awaken fails"),
            )
        if obj.face == "back":
            return Outcome(
                state,
                NOTHING,
                self.cite("8.5.43a", "its back face is already active: awaken fails"),
            )
        if not self.is_in_play(obj.zone) or obj.face_down:
            return Outcome(
                state,
                NOTHING,
                self.cite("8.5.43a", "only a public permanent in the arena awakens: awaken fails"),
            )
        state, ts = core.tick(state)
        state = core.update(state, replace(obj, face="back", timestamp=ts))
        rulings = self.cite(
            "8.5.43",
            f"{card.faces[1].name}, its back face, becomes its active face; it is the same object",
        )
        if any(e.target == obj.id for e in state.effects):
            rulings += self.cite("9.1.2c", "effects on it keep applying to its new face")
        return Outcome(state, DONE, rulings, (Event("awaken", obj.id, obj.card, obj.controller),))

    def transcend(self, state: GameState, a: Transcend) -> Outcome:
        """8.5.48: the transcend-card is put into its owner's hand with its back face active,
        for the rest of the game (9.1.5b); entering the hand it is a new object (3.0.9), so
        effects on the old one end (9.1.2c)."""
        obj_id = a.object
        obj = state.objects[obj_id]
        card = state.card_def(obj)
        if card.layout != "transcend" or len(card.faces) < 2 or obj.copies:
            return Outcome(
                state,
                NOTHING,
                self.cite("9.1.5", f"{card.name} is not a transcend-card: it can't transcend"),
            )
        before = state
        physical = replace(state.cards[obj.card], transcended=True)
        state = replace(state, cards=state.cards.set(obj.card, physical))
        out = self.move_object(state, v.Move(object=obj_id, to="hand"))
        if out.result != DONE:
            return Outcome(before, out.result, out.rulings)
        moved = out.state.object_of_card(obj.card)
        state = self.note_transcended(out.state, a.player or obj.controller)
        if moved is not None and moved.face != "back":
            state = core.update(state, replace(moved, face="back"))
        return Outcome(
            state,
            DONE,
            (
                *self.cite(
                    "8.5.48",
                    f"it transcends: into its owner's hand as {card.faces[1].name}, its back face",
                ),
                *out.rulings,
                *self.cite(
                    "9.1.2c",
                    "it ceased to exist between its faces: effects on the old object don't apply",
                ),
                *self.cite("8.5.48a", f"{a.player or obj.controller} has transcended"),
            ),
            out.events,
        )

    #: Also FaB's own verbs: awaken, transcend, mark, the arena's (look, allow play, charge,
    #: put under), tap and untap, and a hit on a hero by each object in the arena.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("awaken", "_offer_awaken"),
        ("transcend", "_offer_transcend"),
        ("mark", "_offer_mark"),
        *ARENA_OFFERS,
        *STATUS_OFFERS,
        *EQUIP_OFFERS,
        ("hit", "_offer_hits"),
    )

    #: A hit's source (9.3.3: one an opponent controls) and what a card is put under
    #: (8.5.36: the hero, a permanent or a card on the stack): free targets.
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("hit", "_targets_hit"),
        ("put_under", "_targets_put_under"),
        *EQUIP_TARGETS,
    )

    def _targets_hit(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """A hit on the hero ``o`` by each object an opponent of its controller controls
        (9.3.2b: its own player's source leaves the mark)."""
        # Any marked object: the kernel decides whether it is a marked hero (9.3.1); a hit on
        # an unmarked object removes nothing, so it is never carried out (9.3.3).
        if not o.marked:
            return None
        objects, controller = state.objects, o.controller
        ids = ctx.subset(
            ("hit", controller),
            "referable",
            lambda ids: [x for x in ids if objects[x].controller != controller],
        )
        first = next((x for x in ids if x != o.id), None)
        if first is None:
            return None
        return Targets(Hit(hero=o.id, source=first), "source", ids, frozenset({o.id}))

    def _targets_put_under(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """Putting ``o`` under a permanent or a card on the stack (3.0.14) the seat may
        refer to."""
        objects = state.objects
        ids = ctx.subset(
            "put_under", "referable", lambda ids: [x for x in ids if objects[x].zone in TOP_ZONES]
        )
        excluded = frozenset({o.id} if o.under is None else {o.id, o.under})
        first = next((x for x in ids if x not in excluded), None)
        if first is None:
            return None
        return Targets(PutUnder(object=o.id, top=first), "top", ids, excluded)

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[object, ...]:
        """Also the sub-cards under ``o`` and the card it is under (3.0.14c: they go along),
        whether its owner's arsenal holds a card (3.3.2a: a move there fails) and, for a card
        in hand or a demi-hero outside the arena, the players' heroes (8.5.29: a charged card
        goes into its owner's hero's soul; 8.1.11b: entering, a demi-hero is its controller's
        hero or is cleared), and every player's equipment zones."""
        arsenals, subs, equipment = _arena_index(state)
        top = state.objects.get(o.under) if o.under is not None else None
        heroes: object = ()
        if o.zone == "hand" or (o.zone not in ARENA_ZONES and _demi_hero(state.card_def(o))):
            heroes = self._heroes(state)
        # 8.5.41, 8.5.35a: equipping it (or equipped by a new controller) reads the zones
        return (o.owner in arsenals, top, subs.get(o.id, ()), heroes, equipment)

    @memo.last("self, state.objects, state.effects, state.designations")
    def _heroes(self, state: GameState) -> tuple[GameObject, ...]:
        """Every hero (:meth:`is_hero`)."""
        return tuple(o for o in state.iter_objects() if self.is_hero(state, o))

    def copy_excluded(
        self, state: GameState, o: GameObject, ids: tuple[int, ...]
    ) -> frozenset[int]:
        """8.5.25d: the references ``o`` has already become."""
        if not o.copies:
            return frozenset()
        last = o.copies[-1]
        return frozenset(x for x in ids if self.copiable_values(state, state.objects[x])[0] == last)

    def _offer_awaken(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Awaken(object=o.id)]

    def _offer_transcend(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Transcend(object=o.id)]

    def _offer_mark(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Mark(object=o.id)]

    def _offer_hits(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone != "hero":
            return []
        return [
            Hit(hero=o.id, source=x.id)
            for x in state.iter_objects()
            if x.id != o.id and self.is_in_play(x.zone)
        ]

    def mark(self, state: GameState, a: Mark) -> Outcome:
        """8.5.50, 9.3.2: the hero becomes marked; 9.3.2a: a marked hero stays marked;
        9.3.1: only a hero can be marked."""
        obj = state.objects[a.object]
        if not self.is_hero(state, obj):
            return Outcome(
                state,
                NOTHING,
                self.cite("9.3.1", "marked is a condition only a hero may have: nothing happens"),
            )
        if obj.marked:
            return Outcome(
                state,
                NOTHING,
                self.cite("9.3.2a", "it is already marked and continues to be marked"),
            )
        state = core.update(state, replace(obj, marked=True))
        return Outcome(
            state,
            DONE,
            (
                self.cite("9.3.2", "an effect marks the hero")
                + self.cite("8.5.50", "mark: the hero gets the marked condition")
            ),
            (Event("mark", obj.id, obj.card, obj.controller),),
        )

    def hit(self, state: GameState, a: Hit) -> Outcome:
        """9.3.3: a marked hero hit by a source an opponent controls loses the marked
        condition as part of the hit event; any other hit leaves it as it is (9.3.2b)."""
        hero = state.objects[a.hero]
        source = state.objects[a.source]
        if not self.is_hero(state, hero):
            return Outcome(state, NOTHING, self.cite("9.3.1", "only a hero can be marked"))
        if not hero.marked:
            return Outcome(
                state,
                NOTHING,
                self.cite(
                    "9.3.3",
                    "a hit removes the marked "
                    "condition only from a marked hero: this "
                    "hero is not marked, nothing is removed",
                ),
            )
        if source.controller == hero.controller:
            return Outcome(
                state,
                NOTHING,
                self.cite(
                    "9.3.2b",
                    "the source is controlled by the hero's own player, not an opponent: "
                    "the hero stays marked",
                ),
            )
        state = core.update(state, replace(hero, marked=False))
        return Outcome(
            state,
            DONE,
            (
                self.cite(
                    "9.3.3",
                    "hit by a source an opponent controls, the marked condition is "
                    "removed as part of the hit event",
                )
                + self.cite("7.5.5", "the attack hits its hero")
                + self.cite(
                    "9.3.2b", "a marked hero stays marked only until hit by an opponent's source"
                )
            ),
            (Event("hit", hero.id, hero.card, source.controller),),
        )

    # --- naming, searching, card-pools (8.5.21, 9.1.2b, 9.2.2b, 1.1.3) --------------------------

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> Decided[bool]:
        """8.5.21: name a card; 9.1.2b one side of a double-faced card, 9.2.2b one of the two
        names of a split-card, never both."""
        for card in cards:
            if len(card.faces) < 2:
                continue
            rule = "9.2.2b" if card.layout == "split" else "9.1.2b"
            if name == card.name and name not in card.face_names:
                return Decided(
                    False,
                    (
                        self.cite(rule, f"one name of {card.name} may be named, not both")
                        + self.cite("8.5.21", "a name is declared")
                    ),
                )
            if name in card.face_names:
                return Decided(
                    True,
                    (
                        self.cite(rule, f"{name} is one side of {card.name}")
                        + self.cite("8.5.21", "a name is declared")
                    ),
                )
        return Decided(True, self.cite("8.5.21", f"{name} is a card's name"))

    def can_be_in_pool(
        self, state: GameState, hero: GameObject, cards: list[CardDef]
    ) -> Decided[bool]:
        """1.1.3, 2.14.1b, 8.3.16, 9.1.3a-9.2.2a: :func:`.pool.can_be_in_pool`."""
        return pool.can_be_in_pool(self, state, hero, cards)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """The base values with the rulings of the branch that picked the face(s): 9.1.3 a
        flip-card's active face, 9.1.4a/b a twin-card's faces, 9.2.2/9.2.3 a split-card's
        sides, 9.1.5b a transcended card's back face."""
        chars = super().base_characteristics(state, obj)
        layout, faces = self.printed_faces(state, obj)
        if obj.face_down or len(faces) < 2:
            return chars
        both = chars.face == "both"
        side = "both faces" if both else f"its {chars.face} face"
        rule = {
            "flip": "9.1.3",
            "twin": "9.1.4a" if both else "9.1.4b",
            "split": "9.2.2" if both else "9.2.3",
            "transcend": "9.1.5b" if obj.face == "back" else None,
        }.get(layout)
        if rule is None:
            return chars
        why = self.cite(rule, f"a {layout}-card in the {obj.zone}: {side} count")
        return msgspec.structs.replace(chars, why=why + chars.why)

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """What a search sees where: 9.2.2 / 9.1.4a both sides off the stack and arena, 9.2.3
        the chosen side on the stack, 9.1.3 one active face in the arena."""
        sight = super().query_sight(verb, zone).value
        if zone == self.stack_zone:
            return Decided(
                sight,
                (
                    self.cite("9.2.3", "on the stack a split-card has only its chosen side")
                    + self.cite("9.1.4b", "on the stack a twin-card has one active face")
                ),
            )
        if zone in ARENA_ZONES:
            return Decided(
                sight,
                (
                    self.cite("9.1.3", "a flip-card's active face alone defines its properties")
                    + self.cite("9.1.4b", "in the arena a twin-card has one active face")
                ),
            )
        return Decided(
            sight,
            (
                self.cite("9.2.2", "off the stack a split-card has both sides' properties")
                + self.cite("9.1.4a", "outside the arena and the stack a twin-card has both faces")
                + self.cite("9.1.3b", "a flip-card there has its front face active")
            ),
        )


RULESETS: list[type[Ruleset]] = [FleshAndBlood]


@memo.last("state.zones, state.objects")
def _arena_index(
    state: GameState,
) -> tuple[frozenset[str], dict[int, tuple[GameObject, ...]], tuple[GameObject, ...]]:
    """What :meth:`FleshAndBlood.offer_inputs` reads of the zones: the owners whose arsenal
    holds a card, the sub-cards under each top-card, and the objects in every player's
    equipment zones, zone by zone (what equipping reads of the zones and of what is in them:
    8.5.41c, 8.2.x; an object names its zone, so equal tuples are equal zones' contents)."""
    zones, objects = state.zones, state.objects
    arsenal_keys, sub_keys, equipment_keys = _index_keys(state.players)
    arsenals = frozenset([p for p, key in arsenal_keys if zones.get(key)])
    subs: dict[int, tuple[GameObject, ...]] = {}
    for key in sub_keys:
        for i in zones.get(key) or ():
            x = objects[i]
            if x.under is not None:
                subs[x.under] = (*subs.get(x.under, ()), x)
    equipment = tuple([objects[i] for key in equipment_keys for i in zones.get(key) or ()])
    return arsenals, subs, equipment


@memo.per_value
def _index_keys(
    players: tuple[str, ...],
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]]:
    """The keys :func:`_arena_index` reads: each player's arsenal (with the player), sub-card
    zone and equipment zones (sorted)."""
    return (
        tuple((p, f"{p}:arsenal") for p in players),
        tuple(f"{p}:{SUB_CARDS}" for p in players),
        tuple(f"{p}:{z}" for p in players for z in sorted(EQUIPMENT_ZONES)),
    )


@memo.per_identity("card")
def _demi_hero(card: CardDef) -> bool:
    """Whether a face of ``card`` is a demi-hero (8.1.11b)."""
    return any("Demi-Hero" in f.types for f in card.faces)
