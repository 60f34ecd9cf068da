"""The :class:`Ruleset` base: rule switches as class attributes and small hooks.

A game (and a rules version of it) is a subclass that sets switches and overrides hooks, as
python-chess's variants do. The generic procedures in :mod:`obverse.rulesets.base` call the hooks;
every decision a hook makes comes back with the :class:`~obverse.rulings.Ruling` behind it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

import msgspec

from obverse import vocab as v
from obverse.carddata import bundled
from obverse.cards import CardDef, Face
from obverse.characteristics import (
    Characteristics,
    applies_to,
    apply_effects,
    characteristics,
    combine_faces,
)
from obverse.rulesets import labels
from obverse.rulings import NO, NOTHING, PLAIN, YES, Decided, Outcome, Ruling
from obverse.state import (
    KNOWN_CARD,
    KNOWN_OBJ,
    CopyValues,
    Effect,
    GameObject,
    GameState,
    mentions,
)

replace = msgspec.structs.replace

Rulings = tuple[Ruling, ...]
#: How a query sees an object: its characteristics as the query evaluates them.
Sight = Callable[[GameState, GameObject], Characteristics]


#: How many distinct rulings (per ruleset, rule and reason) are kept built.
_RULINGS_KEPT: Final = 8192


def _ruling(self: Hooks, rule: str, reason: str) -> Ruling:
    """A ruling citing ``rule`` (an id in this version's numbering)."""
    return Ruling(rule=rule, game=self.game, version=self.version or "current", reason=reason)


#: How many zone keys (per ruleset, zone and owner) are kept found.
_ZONE_KEYS_KEPT: Final = 4096


def _zone_key(self: Hooks, zone: str, owner: str) -> str:
    """The key of ``zone`` for an object owned by ``owner``."""
    return zone if self.is_shared(zone) else f"{owner}:{zone}"


class Hooks:
    """A game's rules for faces, zones and visibility: switches and small hooks. The
    procedures built on them are :class:`obverse.rulesets.base.Ruleset`'s."""

    #: What a view calls an object turned sideways (``GameObject.rested``), shown only when
    #: it is: GA ``rested``, FaB ``tapped`` (1.3.3b).
    sideways_status: ClassVar[str] = "rested"
    #: Registry names; the first is canonical (``mtg``, ``mtg@2020`` ...).
    aliases: ClassVar[tuple[str, ...]] = ()
    game: ClassVar[str] = "core"
    version: ClassVar[str] = ""
    #: Counters that change power and toughness, by name: (power, toughness) per counter.
    pt_counters: ClassVar[Mapping[str, tuple[int, int]]] = {}
    #: The game has type-setting effects (``modify: {set_types, set_supertypes}``: GA
    #: Type-Overwriting); elsewhere those keys are refused.
    type_setting: ClassVar[bool] = False
    #: The two stats :attr:`pt_counters` change (GA Buff Counters 1: power and life).
    pt_counter_stats: ClassVar[tuple[str, str]] = ("power", "toughness")
    title: ClassVar[str] = ""
    #: Zone names, and which are shared (unowned), public, and ordered.
    zones: ClassVar[frozenset[str]] = frozenset()
    shared_zones: ClassVar[frozenset[str]] = frozenset({"stack"})
    public_zones: ClassVar[frozenset[str]] = frozenset()
    ordered_zones: ClassVar[frozenset[str]] = frozenset({"stack"})
    #: The zone where permanents are (battlefield, arena, field, site).
    play_zone: ClassVar[str] = "battlefield"
    stack_zone: ClassVar[str] = "stack"
    #: Where a card goes when it resolves and does not stay in play.
    discard_zone: ClassVar[str] = "graveyard"
    #: The zones an object leaves that :meth:`after_move` has something to say about
    #: (``None``: every zone). Each class defining ``after_move`` may state its own
    #: ``after_move_zones``; a ruleset's is the union of its classes' (found once, at class
    #: creation), every zone if one of them states none, no zone if only the default here
    #: answers (the move then skips the call).
    after_move_from: ClassVar[frozenset[str] | None] = frozenset()
    #: The zones :meth:`refuses_entry` may refuse an object by what they hold.
    entry_checked: ClassVar[frozenset[str]] = frozenset()
    #: Characteristics depend only on the object, the effects and the cards (cacheable).
    cacheable_characteristics: ClassVar[bool] = True

    #: A private zone may hold public objects: a card moved there with ``face_down: false``
    #: or turned face up there stays public (FaB 3.0.4d).
    public_objects_in_private_zones: ClassVar[bool] = False
    #: The game's type words per card field (``types``, ``supertypes``, ``subtypes``): a card
    #: definition using another word in a listed field is an input error (an unlisted field
    #: is open). Empty: the game declares no vocabulary and nothing is checked.
    type_words: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: The layouts the game's cards may have (the scenario contract's ``layout``;
    #: ``double_faced``: a face on each side).
    layouts: ClassVar[frozenset[str]] = frozenset({"normal"})
    #: The stats the game's cards print (copy exceptions may set these); empty: every
    #: stat field (:data:`obverse.cards.STAT_FIELDS`).
    stats: ClassVar[tuple[str, ...]] = ()
    #: Costs are mana costs with a mana value (MTG 202): views show ``mana_cost`` and
    #: ``mana_value``, and expectations compare costs as mana.
    mana_costs: ClassVar[bool] = False
    #: Where the game comes in lists of games (lowest first; the first is the default ruleset
    #: of :class:`~obverse.Game` and the web sandbox); a plug-in's comes after the built-ins.
    listed: ClassVar[int] = 100
    #: Type words compare case-insensitively (GA's index prints REGALIA, its rules Regalia).
    type_words_fold_case: ClassVar[bool] = False

    # --- rulings ----------------------------------------------------------------------------

    #: A ruling citing ``rule`` (an id in this version's numbering): built once per ruleset,
    #: rule and reason (rulings are immutable), so a hot procedure doesn't rebuild its own.
    ruling = functools.lru_cache(maxsize=_RULINGS_KEPT)(_ruling)
    #: Rule topics and the ids this version numbers them with (MTG renumbers between
    #: versions); :meth:`cite` looks a topic up here, an id passes through.
    rule_ids: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Gathers :attr:`after_move_from` over the class's bases (each ``after_move_zones``)."""
        super().__init_subclass__(**kwargs)
        zones: frozenset[str] | None = frozenset()
        for klass in cls.__mro__:
            if klass is not Hooks and "after_move" in vars(klass):
                own = vars(klass).get("after_move_zones")
                zones = None if own is None or zones is None else zones | own
        cls.after_move_from = zones

    def cite(self, rule: str, reason: str) -> Rulings:
        """The one way a rule procedure cites: a one-ruling tuple for ``rule`` (a topic of
        :attr:`rule_ids`, or a rule id in this version's numbering) and its ``reason``."""
        return (self.ruling(self.rule_ids.get(rule, rule), reason),)

    @property
    def name(self) -> str:
        """The canonical alias (``mtg@2020``)."""
        return self.aliases[0]

    # --- zones ------------------------------------------------------------------------------

    def is_zone(self, zone: str) -> bool:
        """True if ``zone`` is a zone name of this game (or an accepted alias of one)."""
        return zone in self.zones

    def canonical_zone(self, zone: str) -> str:
        """The zone an accepted name stands for (e.g. scp ``sandbox_safe`` stays itself)."""
        return zone

    def zone_matches(self, actual: str, asked: str) -> bool:
        """Whether an object in ``actual`` is "in" zone ``asked`` (fab arena, scp sandbox)."""
        return actual == asked

    def is_shared(self, zone: str) -> bool:
        """Whether ``zone`` is one zone for all players."""
        return zone in self.shared_zones

    def is_public(self, zone: str) -> bool:
        """Whether cards in ``zone`` are public by default."""
        return zone in self.public_zones

    def is_in_play(self, zone: str) -> bool:
        """Whether ``zone`` holds permanents."""
        return self.zone_matches(zone, self.play_zone)

    #: The key of ``zone`` for an object owned by ``owner`` (found once per ruleset, zone and
    #: owner: every move asks it twice).
    zone_key = functools.lru_cache(maxsize=_ZONE_KEYS_KEPT)(_zone_key)

    # --- cards and faces --------------------------------------------------------------------

    def is_double_faced(self, card: CardDef) -> bool:
        """A card with a face on each side (MTG 712, FaB 9.1, GA DFC)."""
        return card.is_double_faced

    def default_face(self, card: CardDef, zone: str) -> str:
        """The face up by default for ``card`` entering ``zone``."""
        if card.layout == "split":
            return "both"
        return "front"

    def allowed_faces(self, card: CardDef, zone: str) -> frozenset[str]:
        """Faces a card may be set up with in ``zone``."""
        if len(card.faces) < 2:
            return frozenset({"front"})
        if card.layout == "split":
            return frozenset({"left", "right"} if zone == self.stack_zone else {"both"})
        if zone in (self.play_zone, self.stack_zone) or self.is_in_play(zone):
            return frozenset({"front", "back"})
        return frozenset({"front"})

    def printed_faces(self, state: GameState, obj: GameObject) -> tuple[str, tuple[Face, ...]]:
        """The layout and faces the object's characteristics come from: the top copy
        effect's copiable values, else the printed card."""
        if obj.copies:
            top = obj.copies[-1]
            return top.layout, top.faces
        card = state.card_def(obj)
        return card.layout, card.faces

    def active_faces(
        self, state: GameState, obj: GameObject, layout: str, faces: tuple[Face, ...]
    ) -> tuple[Face, ...]:
        """The face(s) that count for ``obj`` with status ``obj.face``."""
        if len(faces) == 1:
            return faces
        if obj.face == "both" or (obj.copies and obj.copies[-1].source_face == "both"):
            return faces
        if obj.face in ("back", "right"):
            return (faces[1],)
        return (faces[0],)

    def base_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """Copiable values before continuous effects (layer 1 included), with ``why``: the
        rulings of the branch that picked the face(s) and values."""
        if obj.face_down:
            return self.face_down_characteristics(state, obj)
        layout, faces = self.printed_faces(state, obj)
        active = self.active_faces(state, obj, layout, faces)
        return combine_faces("both" if len(active) > 1 else obj.face, active)

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """A face-down object's characteristics: by default none but being a card."""
        return Characteristics(face="none", names=(), props=Face())

    # --- status -----------------------------------------------------------------------------

    def is_transformed(self, state: GameState, obj: GameObject) -> bool:
        """Whether the object has the "transformed" status."""
        return False

    def is_copy(self, obj: GameObject) -> bool:
        """Whether the object is a copy of something."""
        return bool(obj.copies)

    # --- hooks the generic actions call (defaults: plain cards) ----------------------------

    def destination(
        self, state: GameState, obj: GameObject, zone: str, transformed: bool | None = None
    ) -> Decided[str]:
        """The zone a move to ``zone`` really reaches (GA 4.2 regalia, MTG 712.13a)."""
        return PLAIN[zone]

    def is_new_object(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """Whether moving ``obj`` to ``zone`` makes a new object (its rulings also say what
        leaving its zone does to it, e.g. a face-down permanent is revealed)."""
        return YES

    def token_ceases(self, state: GameState, obj: GameObject, zone: str) -> Decided[bool]:
        """Whether ``obj`` moving to ``zone`` ceases to exist: a token leaving the play zone
        (``state`` is the state before the move, as for the other move hooks)."""
        return YES if obj.token and not self.is_in_play(zone) else NO

    def face_on_move(
        self,
        state: GameState,
        obj: GameObject,
        zone: str,
        face: str | None,
        transformed: bool | None,
    ) -> Decided[str | None]:
        """The face up after moving to ``zone``; ``None``: the card stays where it is."""
        card = state.card_def(obj)
        if face is not None and face in self.allowed_faces(card, zone):
            return PLAIN[face]
        return PLAIN[self.default_face(card, zone)]

    def face_down_on_move(
        self, state: GameState, obj: GameObject, zone: str, face_down: bool | None
    ) -> Decided[bool]:
        """Whether the card is face down after moving to ``zone``."""
        return YES if face_down else NO

    def can_transform(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """Whether a ``transform`` now would turn the object over (its rulings also say what
        a transform that happens does, e.g. it is not a new object)."""
        return NO

    def can_turn_face_down(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """Whether the object can be turned face down now."""
        return Decided(not obj.face_down)

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """Whether the object can be turned face up now."""
        return Decided(obj.face_down)

    def face_after_face_up(self, state: GameState, obj: GameObject) -> str:
        """The face up once a face-down object is turned face up."""
        return self.default_face(state.card_def(obj), obj.zone)

    def plan_cast(
        self, state: GameState, obj: GameObject, a: v.Cast | v.Play
    ) -> tuple[str, str, str, Rulings]:
        """Casting/playing ``a`` (its face, transformed and face-down choices): ``(result,
        zone, face, rulings)``; result ``illegal`` refuses."""
        face = a.face
        card = state.card_def(obj)
        if face is not None and face not in self.allowed_faces(card, self.stack_zone):
            return "illegal", obj.zone, obj.face, ()
        return "done", self.stack_zone, face or self.default_face(card, self.stack_zone), ()

    def plan_resolve(self, state: GameState, obj: GameObject) -> tuple[str, str, Rulings]:
        """Where a resolving object goes and with which face: ``(zone, face, rulings)``."""
        if self.is_permanent(state, obj):
            return self.play_zone, obj.face, ()
        return self.discard_zone, self.default_face(state.card_def(obj), self.discard_zone), ()

    def is_permanent(self, state: GameState, obj: GameObject) -> bool:
        """Whether the object, resolving, becomes a permanent."""
        return False

    def can_name(self, state: GameState, name: str, cards: list[CardDef]) -> Decided[bool]:
        """Whether ``name`` may be chosen when naming a card; ``cards`` bear that name."""
        ok = all(name in c.face_names or (name == c.name and len(c.faces) == 1) for c in cards)
        return Decided(ok)

    def searchable(self, state: GameState, obj: GameObject) -> Characteristics:
        """Characteristics a search sees: the card as if face up in its zone."""
        up = msgspec.structs.replace(obj, face_down=False)
        return apply_effects(state, up, self.base_characteristics(state, up), self)

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """How a query (``search`` or ``select``) sees the objects in ``zone``: a search
        sees face-down cards by their fronts (:meth:`searchable`), a selection as they are."""
        if verb == "search":
            return Decided(self.searchable)
        return Decided(self._as_they_are)

    def _as_they_are(self, state: GameState, obj: GameObject) -> Characteristics:
        return characteristics(state, obj, self)

    # --- visibility (views) -----------------------------------------------------------------

    def may_look(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """Whether ``viewer`` may look at (identify) the object under the rules alone."""
        if viewer is None:
            return self.is_public(obj.zone) and not obj.face_down
        if obj.face_down:
            return False
        if self.is_public(obj.zone):
            return True
        return obj.owner == viewer

    def is_distinguishable(
        self, state: GameState, viewer: str | None, zone: str, owner: str
    ) -> bool:
        """Whether ``viewer`` can tell apart the cards ``owner`` has in ``zone``."""
        key = self.zone_key(zone, owner)
        return all(self.may_look(state, viewer, state.objects[o]) for o in state.zone_contents(key))

    # --- more hooks: copies, rulings of the generic procedures, knowledge -------------------

    #: The rule cited when an effect forbids an action.
    forbid_rule: ClassVar[str] = "effect"
    #: The rule cited when an action names an object that ceased to exist.
    new_object_rule: ClassVar[str] = "-"
    #: The rule cited when an actor names an object they can't identify (hidden zones).
    hidden_rule: ClassVar[str] = "hidden"
    #: The rule cited when something not on the stack is told to resolve.
    stack_rule: ClassVar[str] = "stack"
    #: Actions whose own procedure applies ``forbid`` (e.g. scp cross_test still counts as
    #: declared); the kernel checks the others before any procedure runs.
    checks_forbid: ClassVar[frozenset[str]] = frozenset()
    #: Knowledge from examining a card lasts after it turns face down (GA #6.1.1).
    knowledge_lasts: ClassVar[bool] = False
    #: Knowledge from a reveal lasts after the card moves or turns face down (GA #6.1.1).
    reveal_knowledge_lasts: ClassVar[bool] = False
    #: Examining records knowledge of the card; False where looking is only a right that
    #: lasts while the rules grant it (SCP: the controller of a face-down site card).
    examine_records_knowledge: ClassVar[bool] = True

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        """What copying ``of`` copies: the face(s) that count now (a copy of a copy copies
        its copiable values; a face-down object copies as its face-down characteristics)."""
        if of.face_down:
            chars = self.face_down_characteristics(state, of)
            return Decided(
                CopyValues(layout="normal", faces=(chars.props,), name="", source_face="none")
            )
        layout, faces = self.printed_faces(state, of)
        active = self.active_faces(state, of, layout, faces)
        if len(active) > 1:  # both faces count (split off the stack, twin outside the arena)
            name = " // ".join(f.name or "" for f in active)
            return Decided(CopyValues(layout=layout, faces=active, name=name, source_face="both"))
        # One face counts, e.g. the side chosen for a split card on the stack (FaB 8.5.25b).
        face = active[0]
        return Decided(
            CopyValues(layout="normal", faces=(face,), name=face.name or "", source_face=of.face)
        )

    def copy_effect(self, state: GameState, obj: GameObject, of: GameObject) -> Decided[CopyValues]:
        """The copy effect ``obj`` gets becoming a copy of ``of``: ``of``'s copiable values
        (games add what the object's own status still does)."""
        return self.copiable_values(state, of)

    def token_copy(
        self, state: GameState, of: GameObject
    ) -> tuple[CardDef, str, CopyValues, Rulings]:
        """The token a "create a token that's a copy" makes: its card, face and copy values."""
        values, rulings = self.copiable_values(state, of)
        card = CardDef(name=values.name or "Token", layout=values.layout, faces=values.faces)
        face = "both" if values.layout == "split" else "front"
        return card, face, values, rulings

    def refuses_entry(self, state: GameState, obj: GameObject, zone: str) -> Rulings:
        """Why ``zone``, by what it holds now, can't take ``obj`` (FaB 3.3.2a: an arsenal
        holding a card); empty: it can. Asked, after the move's plan, only of the zones in
        :attr:`entry_checked` (the one part of a move's decision that reads the zones)."""
        return ()

    def move_within_zone(
        self, state: GameState, obj: GameObject, face_down: bool | None, position: str | None
    ) -> Outcome | None:
        """A move to the zone the object is already in; ``None``: the generic handling (FaB
        3.0.7b: no move occurs, only the visibility changes). By default nothing happens
        unless the facing changes or a position is given."""
        if (face_down is None or face_down == obj.face_down) and not position:
            return Outcome(state, NOTHING)
        return None

    def can_reveal(
        self, state: GameState, obj: GameObject, players: tuple[str, ...]
    ) -> Decided[bool]:
        """Whether revealing the object to ``players`` does anything: not if each of them
        may already see or knows it."""
        return Decided(not all(self.may_identify(state, p, obj) for p in players))

    def view_dependents(self, state: GameState, changed: set[int]) -> set[int]:
        """Objects whose view entries follow those of ``changed`` objects without being
        changed themselves (FaB 3.0.14: a sub-card is as visible as its top-card)."""
        return set()

    def after_move(self, state: GameState, old: GameObject, new: GameObject) -> GameState:
        """Adjust the state after an object moved (knowledge, conditions)."""
        return state

    def effect_scope(self, state: GameState, effect: Effect, fixed: bool) -> Decided[Effect]:
        """What a starting effect applies to: its target or filter, or with ``fixed`` the
        objects its filter matches now (the set doesn't change later)."""
        if not fixed or effect.filter is None:
            return Decided(effect)
        found = tuple(
            o.id
            for o in state.iter_objects()
            if applies_to(state, effect, o, characteristics(state, o, self), self)
        )
        return Decided(replace(effect, fixed=found))

    def after_turn_face_down(self, state: GameState, obj: GameObject) -> GameState:
        """Adjust the state after ``obj`` (as it was face up) turned face down (GA #6.1.1)."""
        return state

    def after_control_change(self, state: GameState, obj: GameObject, player: str) -> GameState:
        """Adjust knowledge after a control change (GA #7)."""
        return state

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """Whether ``player`` may look at the card (and both its faces)."""
        return Decided(self.may_look(state, player, obj))

    def after_shuffle(self, state: GameState, player: str, zone: str) -> GameState:
        """Adjust the state after a shuffle."""
        return state

    def on_end_turn(self, state: GameState) -> GameState:
        """Adjust the state as a turn ends (after "until end of turn" effects end)."""
        return state

    #: The game has something that ends at the next action taken (GA Reveal 3): the
    #: kernel then calls :meth:`after_action` after every action.
    ends_on_action: ClassVar[bool] = False

    def after_action(self, before: GameState, action: v.Action, out: Outcome) -> Outcome:
        """What ends once an action is taken (``before``: the state it was taken in; only
        called where :attr:`ends_on_action` is set). Default: nothing."""
        return out

    def on_start_game(self, state: GameState) -> GameState:
        """Adjust the state when the game begins."""
        return state

    def may_identify(self, state: GameState, seat: str | None, obj: GameObject) -> bool:
        """Whether ``seat`` can tell ``obj``'s card (the rules or kept knowledge); the judge,
        any. An offer's main object is one (:meth:`~obverse.rulesets.offers.Offers.may_act`),
        and so is the choice of a verb whose procedure reads the chosen card
        (:attr:`~obverse.vocab.Action.reads_choice`: exchanging with a face-down card equips
        it, or fails, by its subtypes): an offer naming a card the seat can't tell would say
        what it is. The seat may still name it in an action it composes (it may refer to
        it)."""
        if seat is None:
            return True
        return self.may_look(state, seat, obj) or self.knows(state, seat, obj)

    def knows(self, state: GameState, viewer: str, obj: GameObject) -> bool:
        """Whether ``viewer`` keeps knowledge of the card (revealed, examined)."""
        known = state.knowledge
        # Scanned in C first: most objects have no entry naming them or their card.
        if not mentions(known, KNOWN_OBJ, obj.id) and not mentions(known, KNOWN_CARD, obj.card):
            return False
        return any(
            k.player == viewer and (k.obj == obj.id or (k.lasting and k.card == obj.card))
            for k in state.knowledge
        )

    def public_characteristics(
        self, state: GameState, viewer: str | None, obj: GameObject
    ) -> Characteristics | None:
        """What everyone may see of an object the viewer can't identify (MTG 708.2a: the
        face-down 2/2 on the battlefield); ``None``: nothing but being a card."""
        if obj.face_down and (self.is_public(obj.zone) or self.is_in_play(obj.zone)):
            return self.face_down_characteristics(state, obj)
        return None

    # --- offers in words (obverse.rulesets.labels) -----------------------------------------

    def describe(self, state: GameState, action: v.Action, player: str | None) -> str:
        """A short label for ``action`` as ``player`` (``None``: a judge) may read it, naming
        objects only as that player may identify them (400.2): "Transform into Insectile
        Aberration". A game overrides it (or :meth:`face_down_noun`) where its words differ."""
        return labels.describe(self, state, action, player)

    def face_down_noun(self, zone: str) -> str:
        """What a face-down object in public ``zone`` is to a player who can't identify it."""
        return "a face-down card"

    # --- entry points the scenario runner calls (overridable per game) ---------------------

    def face_down_on_setup(self, zone: str, face_down: bool | None) -> bool:
        """Whether a card set up in ``zone`` is face down."""
        return bool(face_down)

    #: Setup keys beyond the shared ones this game accepts, each with the kind of value it
    #: takes (``bool``, or ``counters``: a mapping of counter names to whole numbers), given
    #: to :meth:`setup_status`; a key another game has is refused for this one.
    setup_keys: ClassVar[Mapping[str, str]] = {}

    def setup_status(
        self, state: GameState, obj: GameObject, status: Mapping[str, Any]
    ) -> GameState:
        """The state with the status a setup entry states for ``obj`` (keys of
        :attr:`setup_keys`, values already checked)."""
        return state

    def invariant_problems(self, state: GameState, obj: GameObject) -> list[str]:
        """What breaks the game's own invariants for ``obj`` (random play and the conformance
        kit check them after every action): a face valid for the zone, a copy that can't
        transform ... Empty: none."""
        return []

    @classmethod
    def sample_cards(cls) -> tuple[CardDef, ...]:
        """The cards random play deals for this game (fuzzing, the conformance kit, the
        bench): by default the game's bundled cards (``obverse/data/<game>.yaml``). A plug-in
        game without bundled cards overrides it."""
        return tuple(bundled(cls.game).cards)

    def can_be_in_pool(
        self, state: GameState, hero: GameObject, cards: list[CardDef]
    ) -> Decided[bool]:
        """FaB 1.1.3: whether the cards may be in the hero's card-pool."""
        return YES
