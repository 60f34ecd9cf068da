"""SCP-TCG-JP-J: face up / face down in every zone (seed 001, 表向き/裏向き).

Rule ids are the seed's section headings, cited exactly as written there (``概要``,
``領域移動``, ``サイト上`` ...); the few decisions the seed leaves to the community rules cite
the 購買部版 numbering (research/rules-other-games.md §3).

Model: one sandbox per player (``sandbox``); the public zones keep cards face up and the hidden
zones (sandbox, Anomalousロッカー) face down unless an instruction says otherwise; a face-down
card's characteristics and who may look at it depend on its zone only (tables below, data).
Breaches and the sandbox deck are :mod:`.sandbox`, a flat mixin listed once in :class:`SCP`'s
bases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.hooks import Sight
from obverse.rulesets.offers import OfferContext, Targets
from obverse.rulesets.scp.sandbox import ACTIONS as SANDBOX_ACTIONS
from obverse.rulesets.scp.sandbox import Breach, Sandboxes, designated_sandbox
from obverse.rulings import DONE, ILLEGAL, Decided, Event, Outcome
from obverse.state import GameObject, GameState

# --- rule ids: the seed's section headings ------------------------------------------------
OVERVIEW: Final = "概要"
ZONE_MOVE: Final = "領域移動"
PREGAME: Final = "ゲーム開始前の表裏の扱い"
SELECT_SEARCH: Final = "選択と探索"
SITE: Final = "サイト上"
SANDBOX_LOCKER: Final = "サンドボックス・Anomalousロッカー"
TALE_INCIDENT: Final = "Tale・Incident置き場"
PERSONNEL: Final = "人事ファイル"
DECOMMISSIONED_ETC: Final = "decommissioned、ゲーム外、内部"
CANON_HUB: Final = "カノンハブ"
#: 購買部版 600.1a: actions (a cross test among them) can be forbidden by effects.
ACTION_FORBIDDEN: Final = "600.1a"
#: 購買部版 601.2a: a cross test is declared with an object against an opponent's object.
CROSS_TEST_DECLARE: Final = "601.2a"
#: 購買部版 601.1: a player cross tests in their own (main phase of their) turn.
CROSS_TEST_TURN: Final = "601.1"
#: 購買部版 601.1c: a cross test is taken only while the chain (連鎖) is empty.
CROSS_TEST_CHAIN: Final = "601.1c"
#: 購買部版 600.1: an action (a cross test, activating an object's or personnel's effect,
#: manifesting a Tale or Incident) is a player's, taken with their own objects.
ACTIONS: Final = "600.1"
#: 購買部版 301.1: object cards are in the sandbox matching their object class; 301.1a: a
#: class other than Safe, Euclid and Keter says by its own text which sandbox.
CLASS_SANDBOX: Final = "301.1"
OTHER_CLASS_SANDBOX: Final = "301.1a"

SANDBOX: Final = "sandbox"
#: 301.1: one sandbox per object class (``sandbox`` stays the class-less sandbox of a
#: scenario that keeps one).
CLASS_SANDBOXES: Final = {
    "sandbox_safe": "Safe",
    "sandbox_euclid": "Euclid",
    "sandbox_keter": "Keter",
}
#: The chain (連鎖) is what the kernel calls the stack; ``chain`` names it too.
CHAIN: Final = "chain"
SITE_ZONE: Final = "site"
TALE_ZONE: Final = "tale_incident"

#: 概要: hidden zones keep their cards face down; every other zone keeps them face up
#: (the seed names the sandbox and the Anomalousロッカー 非公開領域; the contract agrees).
HIDDEN_ZONES: Final = frozenset({SANDBOX, *CLASS_SANDBOXES, "anomalous_locker"})
ALL_ZONES: Final = frozenset(
    {
        SITE_ZONE,
        SANDBOX,
        *CLASS_SANDBOXES,
        "anomalous_locker",
        TALE_ZONE,
        "personnel_file",
        "decommissioned",
        "canon_hub",
        "out_of_game",
        "internal",
        "stack",
    }
)


class ZoneRule(msgspec.Struct, frozen=True):
    """How a zone treats its face-down cards (the seed's 各領域での裏向きのカードの扱い)."""

    rule: str
    #: The only characteristics a face-down card there has: its card types.
    types: tuple[str, ...]
    #: The cards must be kept distinguishable from one another.
    distinguishable: bool
    #: Their controller may look at their fronts at any time.
    controller_may_look: bool


ZONE_RULES: Final[dict[str, ZoneRule]] = {
    SITE_ZONE: ZoneRule(SITE, ("Object",), True, True),
    SANDBOX: ZoneRule(SANDBOX_LOCKER, ("Object",), False, False),
    **{z: ZoneRule(SANDBOX_LOCKER, ("Object",), False, False) for z in CLASS_SANDBOXES},
    "anomalous_locker": ZoneRule(SANDBOX_LOCKER, ("Object",), False, False),
    TALE_ZONE: ZoneRule(TALE_INCIDENT, ("Tale", "Incident"), False, True),
    "personnel_file": ZoneRule(PERSONNEL, ("Personnel",), True, True),
    "decommissioned": ZoneRule(DECOMMISSIONED_ETC, (), True, True),
    "out_of_game": ZoneRule(DECOMMISSIONED_ETC, (), True, True),
    "internal": ZoneRule(DECOMMISSIONED_ETC, (), True, True),
    "canon_hub": ZoneRule(CANON_HUB, ("Canon",), True, False),
    # The seed says nothing of face-down spells; like a public zone whose controller cast it.
    "stack": ZoneRule(OVERVIEW, (), True, True),
}

#: Label of the rule-made marker that ends the owner's pre-game reference to the cards of a
#: sandbox once it is shuffled (ゲーム開始前の表裏の扱い); it changes no characteristic.
SEALED: Final = PREGAME


class CrossTest(v.Action, frozen=True, tag="cross_test"):
    """Declare a cross test with ``object`` (against ``target``, an object on the site)."""

    refs = ("object", "target")
    object: int
    target: int | None = None


class SCP(Sandboxes, Ruleset):
    """SCP-TCG-JP-J (fan-made): zone-dependent facing, face-down characteristics and looks."""

    aliases: ClassVar[tuple[str, ...]] = ("scp",)
    listed: ClassVar[int] = 3
    stats: ClassVar[tuple[str, ...]] = ("securing_power", "object_class")
    game: ClassVar[str] = "scp"
    version: ClassVar[str] = "seed-001"
    title: ClassVar[str] = "SCP-TCG-JP-J (表向き/裏向き)"
    zones: ClassVar[frozenset[str]] = ALL_ZONES
    shared_zones: ClassVar[frozenset[str]] = frozenset({"stack"})
    public_zones: ClassVar[frozenset[str]] = ALL_ZONES - HIDDEN_ZONES
    #: 301.2c: a sandbox breach takes its top card, so the sandbox has an order.
    ordered_zones: ClassVar[frozenset[str]] = frozenset({SANDBOX, *CLASS_SANDBOXES, "stack"})
    play_zone: ClassVar[str] = SITE_ZONE
    discard_zone: ClassVar[str] = "decommissioned"
    actions: ClassVar[tuple[type[v.Action], ...]] = (CrossTest, *SANDBOX_ACTIONS)
    #: Facing and faces decided by the zone, the object and its printed card alone.
    plans_per_object: ClassVar[bool] = True
    #: The offers read beyond the object only on the site (601.1c).
    empty_inputs_stay: ClassVar[bool] = True
    sandbox_zones: ClassVar[frozenset[str]] = frozenset({SANDBOX, *CLASS_SANDBOXES})
    site_zone: ClassVar[str] = SITE_ZONE
    #: 概要: a face-down card is seen only by whom its zone allows (else: no reference).
    hidden_rule: ClassVar[str] = OVERVIEW
    #: 領域移動: a card that changes zones is a new object.
    new_object_rule: ClassVar[str] = ZONE_MOVE
    # 購買部版 300.1 card kinds (and the canon cards of the カノンハブ), in English or as printed.
    type_words: ClassVar[Mapping[str, frozenset[str]]] = {
        "types": frozenset(
            {"Object", "Personnel", "Tale", "Incident", "Canon", "オブジェクト", "人事", "カノン"}
        )
    }
    forbid_rule: ClassVar[str] = ACTION_FORBIDDEN
    checks_forbid: ClassVar[frozenset[str]] = frozenset({"cross_test"})
    #: Looking at a card one controls is a right while the rules grant it, not kept knowledge.
    examine_records_knowledge: ClassVar[bool] = False

    # --- who acts (600.1, 601.2a) ------------------------------------------------------------

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """600.1: a player acts with their own objects only: 601.2a a cross test is declared
        by the object's controller; Tale・Incident置き場 a face-down Tale or Incident is
        manifested by its controller (who alone may look at it); any other verb a player takes
        (a move, turning over, a reveal, a shuffle of a zone) is on what they control. Another
        player's objects change only by an effect's instruction (no acting player). The
        refusal reads only the object's controller (public), the same whatever card it is.
        Looking (examine) and queries are the kernel's viewer checks."""
        cls = type(action)
        if cls.is_query or isinstance(action, v.Examine):
            return None
        if isinstance(action, v.Shuffle):
            if action.player == actor:
                return None
            why = f"{actor} may shuffle only their own zones, not {action.player}'s"
            return Outcome(state, ILLEGAL, self.cite(ACTIONS, why))
        if isinstance(action, Breach) and action.sandbox is not None:
            if (action.player or state.active_player) == actor:
                return None
            why = f"{actor} may breach only their own sandboxes"
            return Outcome(state, ILLEGAL, self.cite(ACTIONS, why))
        if isinstance(action, v.Cast) and action.controller not in (None, actor):
            why = f"{actor} takes an action for themself, not for {action.controller}"
            return Outcome(state, ILLEGAL, self.cite(ACTIONS, why))
        field = "object" if isinstance(action, Breach) else cls.subject
        oid = getattr(action, field, None) if field is not None else None
        obj = state.objects.get(oid) if isinstance(oid, int) else None
        if obj is None or obj.controller == actor:
            return None
        return Outcome(state, ILLEGAL, self._not_theirs(obj, action, actor))

    def _not_theirs(self, obj: GameObject, action: v.Action, actor: str) -> Rulings:
        """The rulings refusing ``actor`` an action with ``obj``, another player's object
        (the verb's own rule first, then 600.1)."""
        whose = f"it is {obj.controller}'s object, not {actor}'s"
        if isinstance(action, CrossTest):
            first = self.cite(
                CROSS_TEST_DECLARE, f"a cross test is declared by its controller: {whose}"
            )
        elif isinstance(action, v.Cast) and obj.zone == TALE_ZONE:
            why = f"a Tale or Incident is manifested by its controller: {whose}"
            first = self.cite(TALE_INCIDENT, why)
        else:
            first = self.cite(ACTIONS, f"a player acts only with their own objects: {whose}")
        why = "another player's objects change only by an effect's instruction"
        return first + self.cite(ACTIONS, why)

    # --- zones and facing (概要, 領域移動) ---------------------------------------------------

    def is_zone(self, zone: str) -> bool:
        """The zones, and ``chain`` for the stack (連鎖)."""
        return zone in self.zones or zone == CHAIN

    def canonical_zone(self, zone: str) -> str:
        """``chain`` is the stack; every other name is itself."""
        return "stack" if zone == CHAIN else zone

    def is_in_play(self, zone: str) -> bool:
        """サイト上: objects in play are on the site (:meth:`zone_matches` of the play zone,
        which is neither ``sandbox`` nor ``chain``, asked directly: every move asks it)."""
        return zone == SITE_ZONE

    def zone_matches(self, actual: str, asked: str) -> bool:
        """``sandbox`` asks for any sandbox (one per object class, 301.1); ``chain`` is the
        stack."""
        if asked == SANDBOX and actual in CLASS_SANDBOXES:
            return True
        return actual == self.canonical_zone(asked)

    def class_sandbox_refused(self, front: Face, zone: str) -> Rulings:
        """301.1: an object card goes only into the sandbox of its object class (301.1a:
        another class's own text says which, which the kernel can't read); ``front``: the
        characteristics deciding it. Empty: it may."""
        want = CLASS_SANDBOXES.get(zone)
        if want is None:
            return ()
        got, name = front.object_class, front.name or "it"
        if "Object" not in front.types and "オブジェクト" not in front.types:
            why = f"only object cards go into a sandbox; {name} is not one"
            return self.cite(CLASS_SANDBOX, why)
        if got == want:
            return ()
        if got is None:
            why = f"{name} has no object class: it matches no class's sandbox"
            return self.cite(CLASS_SANDBOX, why)
        why = f"{name} is a {got} object: it goes into the {got} sandbox, not the {want} one"
        if got not in CLASS_SANDBOXES.values():
            named = designated_sandbox(front)
            if named == want:
                return ()
            why = (
                f"{name} is a {got} object: its own text names the {named} sandbox"
                if named
                else f"{name} is a {got} object whose own text names no sandbox"
            )
            return self.cite(CLASS_SANDBOX, why) + self.cite(OTHER_CLASS_SANDBOX, why)
        return self.cite(CLASS_SANDBOX, why)

    def move(self, state: GameState, a: v.Move) -> Outcome:
        """301.1: a move into a sandbox of another object class is refused. The class is the
        one the object has now: a face-down object has none (サイト上 and the other zones'
        sections), so it matches no class's sandbox and the refusal tells nobody its front."""
        obj = state.objects[a.object]
        if a.to not in CLASS_SANDBOXES:  # only a sandbox refuses by class: nothing to read
            return self._onto_site(state, a, obj, super().move(state, a))
        chars = characteristics(state, obj, self)
        props = msgspec.structs.replace(chars.props, name=chars.names[0] if chars.names else None)
        refused = self.class_sandbox_refused(props, a.to)
        if refused:
            if obj.face_down:
                why = "face down it has no object class"
                refused += self.cite(self.zone_rule(obj.zone).rule, why)
            return Outcome(state, ILLEGAL, refused)
        return self._onto_site(state, a, obj, super().move(state, a))

    def _onto_site(self, state: GameState, a: v.Move, obj: GameObject, out: Outcome) -> Outcome:
        """301.2e: an object an effect moved onto the site (not a breach) is not breached."""
        if out.result == DONE and a.to == SITE_ZONE and obj.zone != SITE_ZONE:
            out = msgspec.structs.replace(out, rulings=(*out.rulings, *self.not_breached()))
        return out

    def zone_rule(self, zone: str) -> ZoneRule:
        """The face-down treatment of ``zone`` (the seed's per-zone sections)."""
        return ZONE_RULES[zone]

    def is_hidden(self, zone: str) -> bool:
        """概要: whether ``zone`` is a hidden zone (cards face down by default)."""
        return zone in HIDDEN_ZONES

    def face_down_on_setup(self, zone: str, face_down: bool | None) -> bool:
        """概要: without an instruction a card is face up in a public zone, face down in a
        hidden one; サンドボックス・Anomalousロッカー: a card whose effect works there may be
        put there face up before the game (``face_down: false``)."""
        return self.is_hidden(zone) if face_down is None else face_down

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> Decided[bool]:
        """領域移動: a card ends up with its destination's default facing (face up in a public
        zone, face down in a hidden one), whatever it had; 概要: an instruction overrides."""
        default = self.is_hidden(zone)
        if face_down is not None and face_down != default:
            return Decided(
                face_down,
                self.cite(
                    OVERVIEW,
                    (
                        f"an instruction puts it into the {zone} face "
                        f"{'down' if face_down else 'up'}, overriding the zone's default"
                    ),
                ),
            )
        return self._default_facing(obj.face_down, zone)

    @memo.per_value  # the zone's default facing: the same decision every time
    def _default_facing(self, was_down: bool, zone: str) -> Decided[bool]:
        """:meth:`face_down_on_move` with no instruction overriding ``zone``'s default."""
        default = self.is_hidden(zone)
        if was_down == default:
            reason = (
                f"a face-{'down' if default else 'up'} card moving to the "
                f"{'hidden' if default else 'public'} {zone} keeps its facing"
            )
        elif default:
            reason = (
                f"a face-up card sent to the hidden {zone} travels face up and turns "
                "face down there"
            )
        else:
            reason = (
                f"a face-down card sent to the public {zone} travels face down and "
                "turns face up there"
            )
        return Decided(default, self.cite(ZONE_MOVE, reason))

    # --- characteristics (per-zone face-down characteristics) -------------------------------

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """サイト上, サンドボックス・Anomalousロッカー, Tale・Incident置き場, 人事ファイル,
        decommissioned、ゲーム外、内部, カノンハブ: a face-down card has no name, cost, 確保力,
        object class, effects or tags; its only characteristics are its zone's card types."""
        zone = self.zone_rule(obj.zone)
        why = f"face down here it has no name, cost or effects; only the types {zone.types}"
        return Characteristics(
            face="none",
            names=(),
            props=Face(types=zone.types),
            why=self.cite(zone.rule, why),
        )

    # --- turning over (領域移動, per-zone sections) -----------------------------------------

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """サイト上: a face-up site card turns face down only when instructed (this is the
        instruction); 領域移動: the controller does not change."""
        if obj.face_down:
            return Decided(False, self.cite(OVERVIEW, "it is already face down; nothing happens"))
        rule = self.zone_rule(obj.zone).rule
        return Decided(
            True,
            (
                self.cite(rule, f"turned face down by an instruction in the {obj.zone}")
                + self.cite(ZONE_MOVE, "changing its facing never changes its controller")
            ),
        )

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """サンドボックス・Anomalousロッカー: a face-down card there turns face up only when
        instructed (this is the instruction); 領域移動: the controller does not change."""
        if not obj.face_down:
            return Decided(False, self.cite(OVERVIEW, "it is already face up; nothing happens"))
        rule = self.zone_rule(obj.zone).rule
        return Decided(
            True,
            (
                self.cite(rule, f"turned face up by an instruction in the {obj.zone}")
                + self.cite(ZONE_MOVE, "changing its facing never changes its controller")
            ),
        )

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """Single-faced cards: the front."""
        return "front"

    # --- the stack (Tale・Incident置き場: manifesting) --------------------------------------

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        """Tale・Incident置き場: a card there is manifested (発現) from face down by the effect
        on its front; put onto the stack, it is face up (a public zone)."""
        result, zone, new_face, rulings = super().plan_cast(state, obj, a)
        if result == DONE and obj.zone == TALE_ZONE:
            rulings += self.cite(
                TALE_INCIDENT,
                "a card in the Tale・Incident置き場 is "
                "manifested by the effect written on its front",
            )
        return result, zone, new_face, rulings

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        """Objects resolve onto the site; Tales, Incidents and the rest do not."""
        return "Object" in self.searchable(state, obj).props.types

    # --- select and search (選択と探索) -----------------------------------------------------

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """選択と探索: selecting sees a face-down card's back-face characteristics only;
        referring to its front takes a search."""
        sight = super().query_sight(verb, zone).value
        where = f" in the {zone}" if zone else ""
        if verb == "search":
            why = f"searching{where} refers to the fronts of face-down cards"
        else:
            why = (
                f"selecting face-down cards{where} sees only "
                "the characteristics they have face down"
            )
        return Decided(sight, self.cite(SELECT_SEARCH, why))

    # --- who may look (per-zone sections, ゲーム開始前の表裏の扱い) --------------------------

    def _sealed(self, state: GameState, obj: GameObject) -> bool:
        return (SEALED, obj.id) in state.designations

    def pregame_reference(
        self, state: GameState, viewer: str | None, obj: GameObject
    ) -> bool | None:
        """ゲーム開始前の表裏の扱い: before the game the owner may refer to the front of a
        face-down card (a sandbox's cards only until it is shuffled); ``None``: the rule does
        not apply (the game has begun, or ``viewer`` is not the owner)."""
        if not state.pregame or viewer is None or viewer != obj.owner or not obj.face_down:
            return None
        return not self._sealed(state, obj)

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """概要: a face-up card is seen by all. A face-down one: by its controller where its
        zone's section says so (サイト上, Tale・Incident置き場, 人事ファイル,
        decommissioned、ゲーム外、内部), by no one in the sandbox, Anomalousロッカー and カノンハブ;
        before the game by its owner (ゲーム開始前の表裏の扱い)."""
        if not obj.face_down:
            return True
        if viewer is None:
            return False
        if self.pregame_reference(state, viewer, obj):
            return True
        return self.zone_rule(obj.zone).controller_may_look and viewer == obj.controller

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """Examining is allowed exactly when ``player`` may look (see :meth:`may_look`); the
        ruling names the zone's section and, before the game, ゲーム開始前の表裏の扱い."""
        if not obj.face_down:
            return Decided(True, self.cite(OVERVIEW, f"the card is face up in the {obj.zone}"))
        pre = self.pregame_reference(state, player, obj)
        if pre:
            return Decided(
                True,
                self.cite(
                    PREGAME,
                    "before the game the owner may refer to the front of a face-down card",
                ),
            )
        rulings: Rulings = ()
        if pre is not None:
            rulings += self.cite(
                PREGAME,
                "the sandbox was shuffled before the game: its "
                "owner may no longer refer to its cards",
            )
        zr = self.zone_rule(obj.zone)
        by_zone = zr.controller_may_look and player == obj.controller
        if zr.controller_may_look:
            why = (
                "its controller may look at it at any time"
                if by_zone
                else "only its controller may look at it"
            )
        else:
            why = f"no one may refer to the front of a face-down card in the {obj.zone}"
        rulings += self.cite(zr.rule, why)
        return Decided(by_zone, rulings)

    def public_characteristics(
        self, state: GameState, viewer: str | None, obj: GameObject
    ) -> Characteristics | None:
        """Everyone sees a face-down card's zone characteristics (per-zone sections)."""
        if obj.face_down:
            return self.face_down_characteristics(state, obj)
        return None

    def is_distinguishable(
        self, state: GameState, viewer: str | None, zone: str, owner: str
    ) -> bool:
        """サイト上, 人事ファイル, decommissioned、ゲーム外、内部, カノンハブ: face-down cards
        are kept distinguishable; in the sandbox, Anomalousロッカー and Tale・Incident置き場 they
        are not, unless the viewer can identify every one of them."""
        if self.zone_rule(zone).distinguishable:
            return True
        return all(
            self.may_look(state, viewer, state.objects[o])
            or (viewer is not None and self.knows(state, viewer, state.objects[o]))
            for o in state.zone_contents(self.zone_key(zone, owner))
        )

    def can_reveal(
        self, state: GameState, obj: GameObject, players: tuple[str, ...]
    ) -> Decided[bool]:
        """A reveal shows the card without turning it face up (an effect's instruction)."""
        if not super().can_reveal(state, obj, players).value:
            return Decided(False)
        why = "revealed by an effect; the card keeps its facing"
        return Decided(True, self.cite(self.zone_rule(obj.zone).rule, why))

    def after_shuffle(self, state: GameState, player: str, zone: str) -> GameState:
        """ゲーム開始前の表裏の扱い: once a player shuffles their sandbox before the game (the
        partner taken out), they may no longer refer to the cards in it. Shuffling another
        zone ends nothing: those cards stay referable until the game starts."""
        if not state.pregame or not (zone == SANDBOX or zone in CLASS_SANDBOXES):
            return state
        ids = tuple(
            o
            for o in state.zone_contents(self.zone_key(zone, player))
            if state.objects[o].face_down
        )
        sealed = tuple((SEALED, o) for o in ids if (SEALED, o) not in state.designations)
        return msgspec.structs.replace(state, designations=(*state.designations, *sealed))

    def on_end_turn(self, state: GameState) -> GameState:
        """サイト上 with 購買部版 601.1: each object may declare a cross test once per turn;
        a declaration found impossible still counts for that turn (the seed)."""
        for o in list(state.objects.values()):
            if o.cross_tested:
                state = core.update(state, msgspec.structs.replace(o, cross_tested=False))
        return state

    def on_start_game(self, state: GameState) -> GameState:
        """ゲーム開始前の表裏の扱い: the owner's pre-game reference ends when the game starts."""
        kept = tuple(d for d in state.designations if d[0] != SEALED)
        return msgspec.structs.replace(state, designations=kept)

    # --- cross test (サイト上) ---------------------------------------------------------------

    #: Also a cross test declared by each object on the site: against nothing, an offer of
    #: its own; against an opponent's object (601.2a), one offer carrying its targets.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("cross_test", "_offer_cross_test"),)
    target_offers: ClassVar[tuple[tuple[str, str], ...]] = (("cross_test", "_targets_cross_test"),)
    untargeted_forms: ClassVar[Mapping[str, str]] = {"cross_test": "target"}

    def offer_inputs(self, state: GameState, o: GameObject) -> tuple[object, ...]:
        """An object on the site: also whether its controller's chain is empty (601.1c).
        A cross test's targets are a shared set (:meth:`_targets_cross_test`)."""
        if o.zone != SITE_ZONE:
            return ()
        return (bool(state.zones.get(self.zone_key(self.stack_zone, o.controller))),)

    def _offer_cross_test(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if o.zone != SITE_ZONE:
            return []
        # Against nothing, or each other object on the site (a few: the kernel decides):
        # random play draws from these; the offers make the targeted ones as a free target.
        site = [x for x in state.iter_objects() if x.zone == SITE_ZONE and x.id != o.id]
        return [CrossTest(object=o.id), *(CrossTest(object=o.id, target=x.id) for x in site)]

    def _targets_cross_test(
        self, state: GameState, seat: str | None, o: GameObject, ctx: OfferContext
    ) -> Targets | None:
        """601.2a: ``o`` on the site declaring a cross test against each object on the site
        an opponent of its controller controls (that the seat may refer to). The first
        decides for all: the procedure reads of the target only that it is such an object."""
        if o.zone != SITE_ZONE:
            return None
        objects, controller = state.objects, o.controller
        ids = ctx.subset(
            ("cross_test", controller),
            "referable",
            lambda ids: [
                x
                for x in ids
                if (found := objects[x]).zone == SITE_ZONE and found.controller != controller
            ],
        )
        if not ids:
            return None
        return Targets(CrossTest(object=o.id, target=ids[0]), "target", ids)

    def cross_test(self, state: GameState, a: CrossTest) -> Outcome:
        """``cross_test`` (サイト上): the declaration turns a face-down site object face up;
        a cross test then found impossible is not stacked but counts as declared, so the
        same object can't declare again."""
        o = state.objects[a.object]
        refused = self._cross_test_refused(state, o, a.target)
        if refused:
            return Outcome(state, ILLEGAL, refused)
        event = Event("cross_test", o.id, o.card, o.controller)
        if not o.face_down:
            if self.is_forbidden(state, o, "cross_test"):
                return Outcome(
                    state,
                    ILLEGAL,
                    (
                        self.cite(ACTION_FORBIDDEN, "an effect says it can't cross test")
                        + self.cite(
                            SITE,
                            "it is already known that it can't cross test: it can't declare one",
                        )
                    ),
                )
            state, ts = core.tick(state)
            state = core.update(state, msgspec.structs.replace(o, cross_tested=True, timestamp=ts))
            return Outcome(
                state,
                DONE,
                self.cite(SITE, "the cross test is declared and put on the stack"),
                (event,),
            )
        state, ts = core.tick(state)
        up = msgspec.structs.replace(
            o, face_down=False, set_face_down=False, face="front", cross_tested=True, timestamp=ts
        )
        state = core.update(state, up)
        rulings: Rulings = self.cite(
            SITE, "declaring a cross test turns the face-down object face up"
        ) + self.cite(ZONE_MOVE, "turning face up never changes its controller")
        reveal = Event("turn_face_up", o.id, o.card, o.controller)
        if self.is_forbidden(state, up, "cross_test"):
            return Outcome(
                state,
                DONE,
                (
                    *rulings,
                    *self.cite(
                        SITE,
                        "face up, it turns out it can't cross test: the cross test is not put on "
                        "the stack, but it counts as declared",
                    ),
                    *self.cite(ACTION_FORBIDDEN, "an effect says it can't cross test"),
                ),
                (reveal, msgspec.structs.replace(event, detail="not stacked")),
            )
        return Outcome(
            state,
            DONE,
            (*rulings, *self.cite(SITE, "the cross test is declared and put on the stack")),
            (reveal, event),
        )

    def _cross_test_refused(self, state: GameState, o: GameObject, target: int | None) -> Rulings:
        """サイト上: why ``o`` can't declare a cross test (against ``target``); empty: it can."""
        if o.zone != SITE_ZONE:
            return self.cite(SITE, "only an object on the site declares a cross test")
        if o.cross_tested:
            why = "this object has already declared a cross test; it can't declare again"
            return self.cite(SITE, why)
        timing = self._cross_test_timing(state, o)
        if timing:
            return timing
        if target is not None:
            t = state.objects[target]
            if t.zone != SITE_ZONE or t.controller == o.controller:
                why = "a cross test is declared against an opponent's object on the site"
                return self.cite(CROSS_TEST_DECLARE, why)
        return ()

    def _cross_test_timing(self, state: GameState, o: GameObject) -> Rulings:
        """601.1: a cross test is taken in its controller's own turn; 601.1c: only while the
        chain is empty. Empty: the timing allows it."""
        if state.active_player != o.controller:
            why = (
                f"it is {state.active_player}'s turn: {o.controller} may cross test only in "
                "their own turn"
            )
            return self.cite(CROSS_TEST_TURN, why)
        if state.zone_contents(self.zone_key(self.stack_zone, o.controller)):
            why = "the chain is not empty: a cross test is taken only while the chain is empty"
            return self.cite(CROSS_TEST_CHAIN, why)
        return ()

    # --- cards --------------------------------------------------------------------------------

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        """SCP cards are single-faced (layout normal): the front only."""
        return frozenset({"front"})


RULESETS: list[type[Ruleset]] = [SCP]
