"""Netrunner for obverse: a fifth game, as a plug-in outside the obverse package.

Face-down cards are the game. The Corp installs its cards face down, unrezzed (8.2.1): it may
look at them, the Runner may not (1.20.2, 4.7.3); rezzing turns one face up (8.1.2a),
derezzing face down again (8.1.2b). Exposing reveals an installed, unrezzed card (1.20.4);
accessing shows a card to the Runner (7), and accessing Archives first turns its face-down
cards face up (7.4.1). A Corp card trashed while the Runner can't see it goes to Archives face
down, where only the Corp may look (4.5.5b, 4.5.5c); a Runner card is face up in the heap
(8.4.4). Double-sided identities (Hoshiko Shiro, SYNC) start front side up (1.5.4d) and flip
without becoming new objects; only the side face up is active (3.1.1a).

The game declares itself here and nothing in obverse names it: zones, visibility, verbs
(typed actions with a procedure and an offer generator each), type words, layouts and the
sample cards random play deals. It registers through the ``obverse.rulesets`` entry point::

    [project.entry-points."obverse.rulesets"]
    netrunner = "obverse_netrunner:RULESETS"

Rule ids are those of the Netrunner Comprehensive Rules (NISEI, v1.4). The text this plug-in
was written from lost its rule numbers in export; each id is the section number the text's
own cross-references give ("section 8.2", "4.7.6", "1.20") and the rule's place within it.

Players: the first is the Corp, the second the Runner (the Corp takes the first turn, 1.5).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, ClassVar, Final

from msgspec.structs import replace

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, parse_card
from obverse.loader import load_text
from obverse.rulesets import Ruleset
from obverse.rulesets.hooks import Rulings
from obverse.rulings import DONE, ILLEGAL, NO, NOTHING, YES, Decided, Event, Outcome
from obverse.state import GameObject, GameState, Knowledge

# --- the rules this game cites ------------------------------------------------------------

VISIBILITY: Final = "1.20.1"  # cards in public zones are faceup or facedown
HIDDEN_ZONES: Final = "1.20.1a"  # cards in hidden zones are neither
LOOK: Final = "1.20.2"  # a player may look at facedown cards they control at any time
REVEAL: Final = "1.20.3"
EXPOSE: Final = "1.20.4"  # only installed, unrezzed cards can be exposed
SETUP_DOUBLE_SIDED: Final = "1.5.4d"  # a double-sided identity begins front side faceup
ACTIVE_SIDE: Final = "3.1.1a"  # only the faceup side of a double-sided identity is active
IDENTITY_NOT_INSTALLED: Final = "3.1.1b"
DECK: Final = "4.3.2"  # decks are facedown, hidden from both players
HAND: Final = "4.4.2"  # a hand is secret from the opponent
ARCHIVES_FACING: Final = "4.5.5b"  # trashed unseen: facedown in Archives
ARCHIVES_SIGHT: Final = "4.5.5c"  # facedown cards in Archives: only the Corp
PLAY_AREA_SIGHT: Final = "4.7.3"  # faceup: open; facedown: only the controller
NEW_OBJECT: Final = "4.1"  # zones: a moved card is in its new zone alone
ACCESS_ARCHIVES: Final = "7.4.1"  # facedown cards in Archives are turned faceup first
ACCESS: Final = "7.7.1"  # each card is accessed one at a time
INSTALLING: Final = "8.1.1"  # events and operations are never installed
UNREZZED: Final = "8.1.2"  # only agendas, assets, upgrades and ice are unrezzed/rezzed
REZ: Final = "8.1.2a"
DEREZ: Final = "8.1.2b"
CORP_INSTALL: Final = "8.2.1"  # Corp cards are installed facedown, unrezzed
RUNNER_INSTALL: Final = "8.2.3"  # Runner cards are installed faceup
FACEDOWN_RUNNER_CARD: Final = "8.4.2"  # no name, type or subtypes
HEAP_FACEUP: Final = "8.4.4"  # a facedown Runner card entering the heap turns faceup
EFFECT: Final = "9.1"  # an ability forbids it

#: The card types of each side (2.15: card type).
CORP_TYPES: Final = frozenset({"Agenda", "Asset", "Ice", "Operation", "Upgrade"})
RUNNER_TYPES: Final = frozenset({"Event", "Hardware", "Program", "Resource"})
#: What can be rezzed (8.1.2: an agenda is never rezzed; it is scored).
REZZABLE: Final = frozenset({"Asset", "Ice", "Upgrade"})
#: Never installed (8.1.1): played (events, operations); identities start in play (3.1.2).
NOT_INSTALLED: Final = frozenset({"Event", "Operation", "Identity"})

#: The zone types (4.1: deck, hand, discard pile, score area, play area, set aside, removed
#: from the game), and each side's names for its own (4.3-4.5).
ZONES: Final = frozenset(
    {"deck", "hand", "discard", "score_area", "play_area", "set_aside", "removed_from_game"}
)
ALIASES: Final = {
    "rd": "deck",
    "r&d": "deck",
    "stack": "deck",
    "hq": "hand",
    "grip": "hand",
    "archives": "discard",
    "heap": "discard",
}


# --- the game's own verbs ------------------------------------------------------------------


class Install(v.Action, frozen=True, tag="install"):
    """8.2: put a card into the play area: a Corp card face down and unrezzed, a Runner card
    face up."""

    refs = ("object",)
    object: int


class Rez(v.Action, frozen=True, tag="rez"):
    """8.1.2a: turn an unrezzed card face up."""

    refs = ("object",)
    object: int


class Derez(v.Action, frozen=True, tag="derez"):
    """8.1.2b: turn a rezzed card face down."""

    refs = ("object",)
    object: int


class Expose(v.Action, frozen=True, tag="expose"):
    """1.20.4: reveal an installed, unrezzed card."""

    refs = ("object",)
    object: int


class Access(v.Action, frozen=True, tag="access"):
    """7: the Runner accesses a card (sees it); in Archives, the facedown cards turn faceup
    first (7.4.1)."""

    refs = ("object",)
    object: int


class Flip(v.Action, frozen=True, tag="flip"):
    """3.1.1a: a double-sided identity turns to its other side (not a new object)."""

    refs = ("object",)
    object: int


#: The verbs only the card's controller takes (the Corp rezzes its own cards ...).
_CONTROLLER_VERBS: Final = (Install, Rez, Derez, Flip)
_CONTROLLER_RULES: Final = {Install: INSTALLING, Rez: REZ, Derez: DEREZ, Flip: ACTIVE_SIDE}


class Netrunner(Ruleset):
    """Netrunner (NISEI Comprehensive Rules v1.4): installing, rezzing, exposing, accessing,
    Archives, and double-sided identities."""

    aliases: ClassVar[tuple[str, ...]] = ("netrunner", "android-netrunner")
    game: ClassVar[str] = "netrunner"
    version: ClassVar[str] = "NISEI CR 1.4"
    title: ClassVar[str] = "Netrunner (NISEI Comprehensive Rules)"
    zones: ClassVar[frozenset[str]] = ZONES
    shared_zones: ClassVar[frozenset[str]] = frozenset(
        {"play_area", "set_aside", "removed_from_game"}
    )
    public_zones: ClassVar[frozenset[str]] = frozenset(
        {"discard", "score_area", "play_area", "set_aside", "removed_from_game"}
    )
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"deck"})
    play_zone: ClassVar[str] = "play_area"
    stack_zone: ClassVar[str] = "set_aside"  # events and operations resolve set aside (8.5)
    discard_zone: ClassVar[str] = "discard"
    actions: ClassVar[tuple[type[v.Action], ...]] = (Install, Rez, Derez, Expose, Access, Flip)
    layouts: ClassVar[frozenset[str]] = frozenset({"normal", "double_faced"})
    type_words: ClassVar[dict[str, frozenset[str]]] = {
        "types": CORP_TYPES | RUNNER_TYPES | {"Identity"}
    }
    hidden_rule: ClassVar[str] = VISIBILITY
    new_object_rule: ClassVar[str] = NEW_OBJECT
    forbid_rule: ClassVar[str] = EFFECT
    #: Seeing a card one controls is a right while it lasts (1.20.2), not kept knowledge.
    examine_records_knowledge: ClassVar[bool] = False

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("install", "_offer_install"),
        ("rez", "_offer_rez"),
        ("derez", "_offer_derez"),
        ("expose", "_offer_expose"),
        ("access", "_offer_access"),
        ("flip", "_offer_flip"),
    )

    @classmethod
    def sample_cards(cls) -> tuple[CardDef, ...]:
        """The cards random play deals: a few real cards of each side (``cards.yaml``)."""
        text = resources.files(__name__).joinpath("cards.yaml").read_text("utf-8")
        data = load_text(text, "obverse_netrunner/cards.yaml")
        return tuple(parse_card(c, f"cards[{i}]", cls.game) for i, c in enumerate(data["cards"], 1))

    # --- zones and sides -------------------------------------------------------------------

    def is_zone(self, zone: str) -> bool:
        return zone in ZONES or zone.casefold() in ALIASES

    def canonical_zone(self, zone: str) -> str:
        """4.3-4.5: R&D and the stack are decks, HQ and the grip hands, Archives and the heap
        discard piles."""
        return zone if zone in ZONES else ALIASES.get(zone.casefold(), zone)

    def add_card(self, state: GameState, card: CardDef, zone: str, **kw: Any) -> Any:
        """Set up a card in ``zone`` (a side's own name for it: HQ, the grip ...)."""
        return super().add_card(state, card, self.canonical_zone(zone), **kw)

    def corp(self, state: GameState) -> str:
        """The Corp: the first player (the Corp takes the first turn, 1.5)."""
        return state.players[0]

    def types_of(self, state: GameState, obj: GameObject) -> frozenset[str]:
        """The printed types of the card (a facedown card's are known to the rules)."""
        return frozenset(t for face in state.card_def(obj).faces for t in face.types)

    def is_unrezzed(self, state: GameState, obj: GameObject) -> bool:
        """8.1.2: installed and facedown, under the Corp's control (whose facedown cards are
        the unrezzed ones: a facedown Runner card is neither rezzed nor unrezzed)."""
        return obj.zone == "play_area" and obj.face_down and obj.controller == self.corp(state)

    # --- who sees what ---------------------------------------------------------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """1.20.1: faceup cards in public zones are seen by all; facedown ones in the play
        area by their controller (1.20.2, 4.7.3), in a discard pile (Archives) by its owner
        (4.5.5c); a hand by its owner (4.4.2); a deck by no one (4.3.2)."""
        if obj.zone == "deck":
            return False
        if obj.zone == "hand":
            return viewer is not None and viewer == obj.owner
        if not obj.face_down:
            return True
        if viewer is None:
            return False
        return viewer == (obj.owner if obj.zone == "discard" else obj.controller)

    def face_down_on_setup(self, zone: str, face_down: bool | None) -> bool:
        """1.20.1a: cards in hidden zones are neither faceup nor facedown."""
        return bool(face_down) and zone not in ("deck", "hand")

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> Decided[bool]:
        """Facing on arrival: in a hidden zone none (1.20.1a); in a discard pile, a Corp card
        the Runner can't see goes facedown (4.5.5b), a Runner card faceup (8.4.4)."""
        if zone in ("deck", "hand"):
            return NO
        if zone == "discard":
            return self._discard_facing(state, obj)
        return YES if face_down else NO

    def _discard_facing(self, state: GameState, obj: GameObject) -> Decided[bool]:
        if obj.owner != self.corp(state):
            why = "a Runner card is put into the heap faceup"
            return Decided(False, self.cite(HEAP_FACEUP, why))
        runner = [p for p in state.players if p != obj.owner]
        seen = all(self.may_look(state, p, obj) or self.knows(state, p, obj) for p in runner)
        if seen:
            why = "the Runner could see the card as it was trashed: it goes to Archives faceup"
            return Decided(False, self.cite(ARCHIVES_FACING, why))
        why = "the Runner could not see the card as it was trashed: it goes to Archives facedown"
        return Decided(True, self.cite(ARCHIVES_FACING, why))

    # --- the controller's verbs -------------------------------------------------------------

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """Only a card's controller installs, rezzes, derezzes or flips it; only the Runner
        accesses. The same refusal whatever the card is."""
        if isinstance(action, _CONTROLLER_VERBS):
            obj = state.objects[action.object]
            if obj.controller != actor:
                rule = _CONTROLLER_RULES[type(action)]
                reason = f"only the card's controller may {action.verb} it"
                return Outcome(state, ILLEGAL, self.cite(rule, reason))
        if isinstance(action, Access) and actor == self.corp(state):
            reason = "only the Runner accesses cards"
            return Outcome(state, ILLEGAL, self.cite(ACCESS, reason))
        return None

    def install(self, state: GameState, a: Install) -> Outcome:
        """8.2.1: a Corp card is installed facedown, unrezzed; 8.2.3: a Runner card faceup.
        Events and operations are never installed (8.1.1), nor identities (3.1.2)."""
        obj = state.objects[a.object]
        types = self.types_of(state, obj)
        if types & NOT_INSTALLED:
            rule = IDENTITY_NOT_INSTALLED if "Identity" in types else INSTALLING
            reason = (
                "identities are not installed"
                if rule != INSTALLING
                else ("events and operations are played, never installed")
            )
            return Outcome(state, NOTHING, self.cite(rule, reason))
        if obj.zone == "play_area":
            return Outcome(state, NOTHING, self.cite(INSTALLING, "it is installed already"))
        corp = obj.owner == self.corp(state)
        out = self.move_object(state, v.Move(object=obj.id, to="play_area", face_down=corp))
        why = (
            self.cite(CORP_INSTALL, "a Corp card is installed facedown and unrezzed")
            if corp
            else self.cite(RUNNER_INSTALL, "a Runner card is installed faceup")
        )
        return replace(out, rulings=why + out.rulings)

    def rez(self, state: GameState, a: Rez) -> Outcome:
        """8.1.2a: turn an unrezzed asset, upgrade or piece of ice faceup (not a new object);
        an agenda is never rezzed (8.1.2)."""
        obj = state.objects[a.object]
        if not self.is_unrezzed(state, obj):
            return Outcome(state, NOTHING, self.cite(REZ, "only an unrezzed card rezzes"))
        if not self.types_of(state, obj) & REZZABLE:
            reason = "only assets, upgrades and ice are rezzed (an agenda is scored)"
            return Outcome(state, NOTHING, self.cite(UNREZZED, reason))
        up = self.turn_face_up(state, v.TurnFaceUp(object=obj.id))
        rezzed = self.cite(REZ, "the card is rezzed: turned faceup, now active")
        event = Event("rez", obj.id, obj.card, obj.controller)
        return replace(up, rulings=rezzed, events=(event,))

    def derez(self, state: GameState, a: Derez) -> Outcome:
        """8.1.2b: turn a rezzed card facedown (not a new object)."""
        obj = state.objects[a.object]
        rezzed = obj.zone == "play_area" and not obj.face_down
        if not rezzed or not self.types_of(state, obj) & REZZABLE:
            return Outcome(state, NOTHING, self.cite(DEREZ, "only a rezzed card derezzes"))
        down = self.turn_face_down(state, v.TurnFaceDown(object=obj.id))
        why = self.cite(DEREZ, "the card is derezzed: turned facedown, now inactive")
        return replace(down, rulings=why, events=(Event("derez", obj.id, None, obj.controller),))

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        return Decided(obj.face_down, self.cite(VISIBILITY, "the card turns faceup"))

    # --- seeing cards -----------------------------------------------------------------------

    def expose(self, state: GameState, a: Expose) -> Outcome:
        """1.20.4: expose = reveal (1.20.3), but only an installed, unrezzed card."""
        obj = state.objects[a.object]
        if not self.is_unrezzed(state, obj):
            reason = "only an installed, unrezzed card can be exposed"
            return Outcome(state, NOTHING, self.cite(EXPOSE, reason))
        out = self.reveal(state, v.Reveal(object=obj.id))
        if out.result != DONE:
            return out
        why = self.cite(EXPOSE, "the card is exposed: revealed, and stays facedown")
        event = Event("expose", obj.id, obj.card, obj.controller)
        return replace(out, rulings=why, events=(event,))

    def access(self, state: GameState, a: Access) -> Outcome:
        """7: the Runner accesses a card and sees it (7.7.1); accessing Archives turns its
        facedown cards faceup first (7.4.1). A card accessed from R&D stays unseen by the
        Corp (it is seen by the Runner alone)."""
        obj = state.objects[a.object]
        runner = next((p for p in state.players if p != self.corp(state)), obj.owner)
        rulings: Rulings = ()
        if obj.zone == "discard" and obj.owner == self.corp(state):
            state, turned = self._turn_archives_faceup(state, obj.owner)
            if turned:
                why = "accessing Archives turns its facedown cards faceup first"
                rulings += self.cite(ACCESS_ARCHIVES, why)
            obj = state.objects[obj.id]
        if not self.may_look(state, runner, obj) and not self.knows(state, runner, obj):
            seen = Knowledge(player=runner, card=obj.card, obj=obj.id, since=state.clock)
            state = replace(state, knowledge=core.adding(state.knowledge, seen))
        rulings += self.cite(ACCESS, "the Runner accesses the card and sees it")
        event = Event("access", obj.id, obj.card, runner)
        return Outcome(state, DONE, rulings, (event,))

    def _turn_archives_faceup(self, state: GameState, corp: str) -> tuple[GameState, bool]:
        """7.4.1: every facedown card in the Corp's Archives turned faceup."""
        turned = False
        for oid in state.zone_contents(self.zone_key("discard", corp)):
            obj = state.objects[oid]
            if obj.face_down:
                state, ts = core.tick(state)
                state = core.update(
                    state, replace(obj, face_down=False, set_face_down=False, timestamp=ts)
                )
                turned = True
        return state, turned

    # --- double-sided identities ------------------------------------------------------------

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """3.1.1a: a double-sided identity in play turns to its other side; only the side
        faceup is active (it is not a new object)."""
        card = state.card_def(obj)
        if obj.zone != "play_area" or not card.is_double_faced or obj.face_down:
            reason = "only a double-sided identity in play flips"
            return Decided(False, self.cite(ACTIVE_SIDE, reason))
        side = "back" if obj.face == "front" else "front"
        return Decided(True, self.cite(ACTIVE_SIDE, f"it flips: its {side} side is active"))

    def flip(self, state: GameState, a: Flip) -> Outcome:
        """3.1.1a: the identity turns over (:meth:`can_transform`)."""
        out = self.transform(state, v.Transform(object=a.object))
        if out.result != DONE:
            return out
        obj = state.objects[a.object]
        return replace(out, events=(Event("flip", obj.id, obj.card, obj.controller),))

    # --- offers ------------------------------------------------------------------------------

    def _offer_install(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Install(object=o.id)] if o.zone == "hand" else []

    def _offer_rez(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Rez(object=o.id)] if self.is_unrezzed(state, o) else []

    def _offer_derez(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        rezzed = o.zone == "play_area" and not o.face_down and o.owner == self.corp(state)
        return [Derez(object=o.id)] if rezzed else []

    def _offer_expose(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Expose(object=o.id)] if self.is_unrezzed(state, o) else []

    def _offer_access(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Access(object=o.id)] if o.owner == self.corp(state) else []

    def _offer_flip(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Flip(object=o.id)] if o.zone == "play_area" else []


RULESETS: tuple[type[Ruleset], ...] = (Netrunner,)

__all__ = [
    "RULESETS",
    "Access",
    "Derez",
    "Expose",
    "Flip",
    "Install",
    "Netrunner",
    "Rez",
]
