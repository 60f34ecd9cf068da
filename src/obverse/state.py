"""Game state: physical cards, game objects, zones, effects. Immutable, with value semantics.

The four things the design keeps apart (DESIGN.md): the printed card (:class:`CardDef`), the
game object (:class:`GameObject`, a fresh id whenever the rules make a new object), its status
(fields of the object), and the copiable-value overrides (:attr:`GameObject.copies`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Final

import immutables
import msgspec

from obverse.cards import CardDef, Face

FACES: Final = ("front", "back", "left", "right", "both")


class PhysicalCard(msgspec.Struct, frozen=True):
    """A physical card (or token) in the game: stable across the objects it becomes."""

    card: CardDef
    owner: str
    token: bool = False
    #: FaB 9.1.5b: a transcended card keeps its back face active for the rest of the game.
    transcended: bool = False


class CopyValues(msgspec.Struct, frozen=True):
    """Copiable values a copy effect imposes (MTG 707.2, FaB 8.5.25, GA 7).

    ``faces`` with the ``layout`` that tells how to read them (a copy of a flip card keeps
    both faces and the copy's own flipped status picks one, 707.3; a copy of a split card
    keeps both halves, 709.3c); ``source_face`` records which face of the original was copied.
    """

    layout: str
    faces: tuple[Face, ...]
    name: str
    source_face: str = "front"


class GameObject(msgspec.Struct, frozen=True):
    """One game object: a card (or two, when melded) in a zone, with its status."""

    id: int
    cards: tuple[int, ...]
    zone: str
    owner: str
    controller: str
    face: str = "front"
    face_down: bool = False
    flipped: bool = False
    token: bool = False
    copies: tuple[CopyValues, ...] = ()
    meld: CardDef | None = None
    counters: tuple[tuple[str, int], ...] = ()
    timestamp: int = 0
    marked: bool = False
    #: SCP: a cross test was declared with this object.
    cross_tested: bool = False
    #: The object was turned face down (or set up / moved face down) on purpose.
    set_face_down: bool = False
    #: A public object in a private zone (FaB 3.0.4d: moved there or turned there face up).
    shown: bool = False

    @property
    def card(self) -> int:
        """The (first) physical card representing the object."""
        return self.cards[0]


class Effect(msgspec.Struct, frozen=True):
    """A continuous effect from ``apply_effect``: bound to one object or to a filter."""

    label: str
    target: int | None
    filter: tuple[tuple[str, object], ...] | None
    modify: tuple[tuple[str, object], ...]
    until_end_of_turn: bool = False
    fixed: tuple[int, ...] | None = None
    timestamp: int = 0
    zone: str | None = None


class Knowledge(msgspec.Struct, frozen=True):
    """``player`` may identify physical ``card`` while object ``obj`` exists (reveal/examine);
    ``lasting`` knowledge survives turning face down (GA public/private #6.1.1). ``since`` is
    the state clock when it was gained; it ends when the object stops existing (unless
    lasting), when the card's zone is shuffled, or when a ruleset hook drops it."""

    player: str
    card: int
    obj: int
    lasting: bool = False
    since: int = 0


class GameState(msgspec.Struct, frozen=True):
    """The whole game: immutable; every action returns a new state."""

    ruleset: str
    players: tuple[str, ...]
    cards: immutables.Map[int, PhysicalCard]
    objects: immutables.Map[int, GameObject]
    card_object: immutables.Map[int, int]
    zones: immutables.Map[str, tuple[int, ...]]
    effects: tuple[Effect, ...] = ()
    knowledge: tuple[Knowledge, ...] = ()
    #: Designations the rules put on objects, as ``(name, object id)`` (e.g. scp cards that
    #: may no longer be referred to before the game); not characteristics.
    designations: tuple[tuple[str, int], ...] = ()
    active: int = 0
    turn: int = 1
    next_id: int = 1
    clock: int = 0
    seed: int = 0
    shuffles: int = 0
    pregame: bool = False
    #: The key of this game's handles (:func:`obverse.views.handle`): never shown to anyone,
    #: so a player can't link handles across new objects, hidden zones and shuffles.
    secret: bytes = b""

    # --- reading ---------------------------------------------------------------------------

    def obj(self, obj_id: int) -> GameObject:
        """The object with id ``obj_id`` (KeyError if it no longer exists)."""
        return self.objects[obj_id]

    def object_of_card(self, card_id: int) -> GameObject | None:
        """The object physical card ``card_id`` represents now, if any."""
        oid = self.card_object.get(card_id)
        return None if oid is None else self.objects.get(oid)

    def card_def(self, obj: GameObject) -> CardDef:
        """The printed card representing ``obj`` (the meld result for a melded permanent)."""
        return obj.meld if obj.meld is not None else self.cards[obj.card].card

    def zone_key(self, zone: str, owner: str | None) -> str:
        """The key of a zone: ``owner:zone`` for owned zones, ``zone`` for shared ones."""
        return zone if owner is None else f"{owner}:{zone}"

    def zone_contents(self, key: str) -> tuple[int, ...]:
        """Object ids in zone ``key``, top first."""
        return self.zones.get(key, ())

    def zone_key_of(self, obj: GameObject) -> str:
        """The zone key ``obj`` is in."""
        for key in (f"{obj.owner}:{obj.zone}", obj.zone):
            if obj.id in self.zones.get(key, ()):
                return key
        raise KeyError(obj.id)

    def iter_objects(self) -> Iterator[GameObject]:
        """Every object, in id order."""
        for oid in sorted(self.objects.keys()):
            yield self.objects[oid]

    @property
    def active_player(self) -> str:
        """The player whose turn it is."""
        return self.players[self.active]


def new_state(
    ruleset: str,
    players: tuple[str, ...],
    seed: int = 0,
    pregame: bool = False,
    secret: bytes | None = None,
) -> GameState:
    """An empty game for ``players`` (the first is active). ``secret`` keys its handles:
    pass random bytes where players are adversaries (a server); the default derives it from
    the seed, so a scenario file replays to the same handles."""
    if secret is None:
        secret = hashlib.blake2b(f"obverse handles {seed}".encode(), digest_size=16).digest()
    return GameState(
        ruleset=ruleset,
        players=players,
        cards=immutables.Map(),
        objects=immutables.Map(),
        card_object=immutables.Map(),
        zones=immutables.Map(),
        seed=seed,
        pregame=pregame,
        secret=secret,
    )


# --- primitive edits (core: the rulesets build their procedures from these) ----------------

_replace = msgspec.structs.replace


def tick(state: GameState) -> tuple[GameState, int]:
    """Advance the timestamp clock; returns the new state and the new timestamp."""
    return _replace(state, clock=state.clock + 1), state.clock + 1


def new_object_id(state: GameState) -> tuple[GameState, int]:
    """A fresh object id."""
    return _replace(state, next_id=state.next_id + 1), state.next_id


def place(state: GameState, obj: GameObject, key: str, position: str | None = None) -> GameState:
    """Put ``obj`` into zone ``key`` (top unless ``position == "bottom"``) and the table."""
    contents = state.zones.get(key, ())
    contents = (*contents, obj.id) if position == "bottom" else (obj.id, *contents)
    card_object = state.card_object
    for card in obj.cards:
        card_object = card_object.set(card, obj.id)
    return _replace(
        state,
        zones=state.zones.set(key, contents),
        objects=state.objects.set(obj.id, obj),
        card_object=card_object,
    )


def remove(state: GameState, obj: GameObject, key: str) -> GameState:
    """Take ``obj`` out of zone ``key`` and the object table (its cards keep no object)."""
    contents = state.zones[key]
    i = contents.index(obj.id)
    contents = contents[:i] + contents[i + 1 :]
    zones = state.zones.set(key, contents) if contents else state.zones.delete(key)
    card_object = state.card_object
    for card in obj.cards:
        if card_object.get(card) == obj.id:
            card_object = card_object.delete(card)
    return _replace(
        state, zones=zones, objects=state.objects.delete(obj.id), card_object=card_object
    )


def update(state: GameState, obj: GameObject) -> GameState:
    """Replace an object in place (same id, same zone position)."""
    return _replace(state, objects=state.objects.set(obj.id, obj))


def forget(state: GameState, obj_id: int) -> GameState:
    """Drop effects, knowledge and designations bound to an object that ceased to exist."""
    if not state.effects and not state.knowledge and not state.designations:
        return state
    effects = tuple(e for e in state.effects if e.target != obj_id)
    knowledge = tuple(k for k in state.knowledge if k.obj != obj_id or k.lasting)
    designations = tuple(d for d in state.designations if d[1] != obj_id)
    if (
        len(effects) == len(state.effects)
        and len(knowledge) == len(state.knowledge)
        and len(designations) == len(state.designations)
    ):
        return state
    return _replace(state, effects=effects, knowledge=knowledge, designations=designations)


def add_physical_card(state: GameState, card: PhysicalCard) -> tuple[GameState, int]:
    """Register a physical card (it has no object yet); returns its card id."""
    card_id = len(state.cards) + 1
    while card_id in state.cards:
        card_id += 1
    return _replace(state, cards=state.cards.set(card_id, card)), card_id
