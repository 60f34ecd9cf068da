"""The action vocabulary: every action and query is a typed, frozen msgspec Struct.

One tagged union, declared once: the shared verbs here, a game's own verbs in its ruleset
module (:attr:`obverse.rulesets.Ruleset.actions`). Scenario files, the web API, random play,
the fuzzer's counterexamples and :class:`obverse.Game` all decode into these structs and go
through :func:`obverse.engine.apply`. Objects are named by id; class attributes say which
fields name objects, players and zones, so every surface translates its own names (scenario
labels, web handles) the same way and the kernel checks them in one place.

>>> import msgspec
>>> msgspec.json.decode(b'{"verb": "move", "object": 3, "to": "graveyard"}', type=Move)
Move(object=3, to='graveyard', face=None, face_down=None, transformed=None, position=None, as_=None)
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Literal

import msgspec

Face = Literal["front", "back", "left", "right", "both"]
Position = Literal["top", "bottom"]


class Action(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="verb", forbid_unknown_fields=True
):
    """Base of every action and query. The tag (``verb``) names the ruleset procedure."""

    #: Fields naming objects (an object id, or a tuple of them; card names may stand beside
    #: ids where :attr:`names_cards` is set).
    refs: ClassVar[tuple[str, ...]] = ()
    #: Fields naming players (a name, or a tuple of names).
    player_fields: ClassVar[tuple[str, ...]] = ()
    #: Fields naming zones.
    zone_fields: ClassVar[tuple[str, ...]] = ()
    #: The object the action is done with or to: ``forbid`` effects are checked on it.
    subject: ClassVar[str | None] = "object"
    #: A field naming the player who learns the answer: with an actor, it must be the actor.
    viewer_field: ClassVar[str | None] = None
    #: The action brings a new object into the game (a scenario names it with ``label``).
    creates: ClassVar[bool] = False
    #: A query: answers without changing the state.
    is_query: ClassVar[bool] = False
    #: The procedure needs the card catalogue (meld results, names of cards).
    uses_catalog: ClassVar[bool] = False
    #: Its ``answer`` is the card id of what it created (a scenario's label then follows
    #: that card, as a token copy's does), not an object id.
    answers_card: ClassVar[bool] = False
    #: Whether the procedure reads which card a second object (a choice) is: exchanging with
    #: it, mutating onto it, melding or loading with it. Offers to a player name there only
    #: cards that player can identify (:meth:`~obverse.rulesets.Ruleset.may_identify`).
    reads_choice: ClassVar[bool] = False
    #: A query whose ``answer`` is a tuple of object ids (a scenario reads them as labels).
    answers_objects: ClassVar[bool] = False

    @property
    def verb(self) -> str:
        """The action's name (its tag), e.g. ``"move"``."""
        return VERBS[type(self)]

    def object_ids(self) -> tuple[int, ...]:
        """Every object id the action names, in field order."""
        refs = self.refs
        if len(refs) == 1:  # the common case: one field naming one object
            value = getattr(self, refs[0])
            if type(value) is int:
                return (value,)
        out: list[int] = []
        for name in refs:
            value = getattr(self, name)
            if type(value) is int:  # one object (the common case of each field)
                out.append(value)
                continue
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, int) and not isinstance(v, bool):
                    out.append(v)
        return tuple(out)

    def first_object_id(self) -> int | None:
        """The first object id the action names (``None``: it names none): the object the
        legal-action cache files its offer under."""
        refs = self.refs
        if refs:  # the common case: the first field names one object
            value = getattr(self, refs[0])
            if type(value) is int:
                return value
        ids = self.object_ids()
        return ids[0] if ids else None


class _Verbs(dict[type, str]):
    """Verb per action class, found once: ``__struct_config__`` builds a new object on every
    access, and the kernel asks an action's verb several times per action."""

    def __missing__(self, cls: type) -> str:
        verb = self[cls] = str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
        return verb


#: ``VERBS[cls]``: the verb of an action class.
VERBS: Final = _Verbs()


def verb_of(cls: type[Action]) -> str:
    """The verb (tag) of an action class."""
    return VERBS[cls]


# --- the shared verbs --------------------------------------------------------------------


class Move(Action, frozen=True, tag="move"):
    """Move an object to a zone; the ruleset decides the face, facing and new object."""

    refs = ("object",)
    zone_fields = ("to",)
    object: int
    to: str
    face: Face | None = None
    face_down: bool | None = None
    transformed: bool | None = None
    position: Position | None = None
    #: How it is put onto the battlefield face down (MTG: manifest, cloak ...).
    as_: str | None = msgspec.field(default=None, name="as")
    #: MTG 708.2: the characteristics the effect lists for it face down ("a Forest land").
    values: dict[str, Any] | None = None


class Cast(Action, frozen=True, tag="cast"):
    """Cast a card (onto the stack, with a face choice where the rules allow one)."""

    refs = ("object",)
    player_fields = ("controller",)
    object: int
    face: Face | None = None
    transformed: bool = False
    face_down: bool = False
    #: How it is cast face down (MTG: morph, megamorph, disguise).
    as_: str | None = msgspec.field(default=None, name="as")
    #: The player casting it, who controls the spell (default: its controller, the owner).
    controller: str | None = None
    #: MTG 702.102a: cast both halves of a split card with fuse (other games refuse it).
    fuse: bool = False
    #: MTG 709.3: the half of a split card to cast, by name or position from 1 (a card of
    #: more than two halves; ``face: left`` / ``right`` still choose the first two).
    half: str | None = None


class Play(Cast, frozen=True, tag="play"):
    """Play a card (a land, a FaB card from hand ...): like cast, per the game."""


class Resolve(Action, frozen=True, tag="resolve"):
    """The object on the stack resolves."""

    refs = ("object",)
    object: int


class TurnFaceDown(Action, frozen=True, tag="turn_face_down"):
    """Turn an object face down (``as``: the way it is face down, where the game has kinds;
    ``values``: MTG 708.2, the characteristics the effect lists instead of the 2/2)."""

    refs = ("object",)
    object: int
    as_: str | None = msgspec.field(default=None, name="as")
    values: dict[str, Any] | None = None


#: How a face-down permanent is turned face up: the special action (paying what the way it
#: was turned face down asks), its keyword cost (MTG morph, disguise), or an effect.
TurnUpBy = Literal["special_action", "cost", "effect"]


class TurnFaceUp(Action, frozen=True, tag="turn_face_up"):
    """Turn a face-down object face up (``by``: default, as an effect would; ``copy``: MTG
    708.11, the object an "as this is turned face up" ability makes it a copy of)."""

    refs = ("object", "copy")
    object: int
    by: TurnUpBy | None = None
    copy: int | None = None


class BecomeCopy(Action, frozen=True, tag="become_copy"):
    """``object`` becomes a copy of ``of``; ``except`` (``except_`` in Python) holds changes
    that become part of the copiable values (MTG 707.9: "except it's a 1/1 green Frog")."""

    refs = ("object", "of")
    object: int
    of: int
    except_: dict[str, Any] | None = msgspec.field(default=None, name="except")


class CreateTokenCopy(Action, frozen=True, tag="create_token_copy"):
    """A token that is a copy of ``of`` enters under ``controller`` (default: of's)."""

    refs = ("of",)
    player_fields = ("controller",)
    subject = None
    creates = True
    answers_card = True
    of: int
    controller: str | None = None
    #: Changes that become part of the token's copiable values (MTG 707.9), as for
    #: :class:`BecomeCopy`.
    except_: dict[str, Any] | None = msgspec.field(default=None, name="except")


class ApplyEffect(Action, frozen=True, tag="apply_effect"):
    """A continuous effect on one object (``to`` an id) or on whatever matches a filter."""

    refs = ("to",)
    subject = None
    label: str
    to: int | dict[str, Any]
    modify: dict[str, Any]
    until: Literal["end_of_turn"] | None = None
    fixed: bool = False


class AddCounters(Action, frozen=True, tag="add_counters"):
    """Put ``count`` counters named ``counter`` on an object."""

    refs = ("object",)
    object: int
    counter: str
    count: int = 1


class RemoveCounters(Action, frozen=True, tag="remove_counters"):
    """Remove up to ``count`` counters named ``counter`` from an object. Not shared: the
    games that have it (GA durability and damage, MTG a battle's defense) list it."""

    refs = ("object",)
    object: int
    counter: str
    count: int = 1


class ChangeControl(Action, frozen=True, tag="change_control"):
    """``to`` gains control of the object."""

    refs = ("object",)
    player_fields = ("to",)
    object: int
    to: str


class Reveal(Action, frozen=True, tag="reveal"):
    """Reveal a card to ``to`` (default: every player)."""

    refs = ("object",)
    player_fields = ("to",)
    object: int
    to: tuple[str, ...] | None = None


class Examine(Action, frozen=True, tag="examine"):
    """``player`` looks at a card they may look at (both its faces)."""

    refs = ("object",)
    player_fields = ("player",)
    viewer_field = "player"
    player: str
    object: int


class Shuffle(Action, frozen=True, tag="shuffle"):
    """Shuffle ``player``'s ``zone``."""

    player_fields = ("player",)
    zone_fields = ("zone",)
    subject = None
    player: str
    zone: str


class EndTurn(Action, frozen=True, tag="end_turn"):
    """The turn ends: "until end of turn" effects end; the next player is active."""

    subject = None


class StartGame(Action, frozen=True, tag="start_game"):
    """The game begins (a state set up with ``pregame``)."""

    subject = None


# --- verbs several games share, declared by the rulesets that have them ----------------


class Transform(Action, frozen=True, tag="transform"):
    """Turn a double-faced permanent over (MTG 701.27, GA 2)."""

    refs = ("object",)
    object: int


class Look(Action, frozen=True, tag="look"):
    """``player`` looks at a private card (FaB 8.5.11) or gets to look at a card exiled face
    down (MTG 406.3; ``source``: what lets them, ``foretell``, ``hideaway`` or ``effect``)."""

    refs = ("object",)
    player_fields = ("player",)
    viewer_field = "player"
    player: str
    object: int
    #: MTG: the rule or ability giving the permission (FaB takes none).
    source: str | None = None
    #: FaB: ``end_of_turn`` makes it a continuous look (8.5.11a); MTG takes none.
    until: Literal["end_of_turn"] | None = None


# --- queries -------------------------------------------------------------------------------


class Search(Action, frozen=True, tag="search"):
    """The objects in ``player``'s ``zone`` (or a shared zone) matching ``where``, seen as
    a search sees them (face-down cards by their fronts)."""

    player_fields = ("player",)
    zone_fields = ("zone",)
    viewer_field = "player"
    subject = None
    is_query = True
    answers_objects = True
    player: str
    zone: str
    where: dict[str, Any] | None = None


class Select(Search, frozen=True, tag="select"):
    """Like :class:`Search`, seeing only the characteristics the objects have now."""


class NameCard(Action, frozen=True, tag="name_card"):
    """Whether ``player`` may choose ``name`` when naming a card."""

    player_fields = ("player",)
    subject = None
    is_query = True
    uses_catalog = True
    player: str
    name: str


class CheckCardPool(Action, frozen=True, tag="check_card_pool"):
    """Whether ``cards`` (object ids or card names) may be in ``hero``'s card-pool."""

    refs = ("hero", "cards")
    subject = None
    is_query = True
    uses_catalog = True
    hero: int
    cards: tuple[int | str, ...]


#: Verbs every ruleset accepts.
SHARED: tuple[type[Action], ...] = (
    Move,
    Cast,
    Play,
    Resolve,
    TurnFaceDown,
    TurnFaceUp,
    BecomeCopy,
    CreateTokenCopy,
    ApplyEffect,
    AddCounters,
    ChangeControl,
    Reveal,
    Examine,
    Shuffle,
    EndTurn,
    StartGame,
    Search,
    Select,
    NameCard,
    CheckCardPool,
)

__all__ = [
    "SHARED",
    "VERBS",
    "Action",
    "AddCounters",
    "ApplyEffect",
    "BecomeCopy",
    "Cast",
    "ChangeControl",
    "CheckCardPool",
    "CreateTokenCopy",
    "EndTurn",
    "Examine",
    "Look",
    "Move",
    "NameCard",
    "Play",
    "Resolve",
    "Reveal",
    "Search",
    "Select",
    "Shuffle",
    "StartGame",
    "Transform",
    "TurnFaceDown",
    "TurnFaceUp",
    "TurnUpBy",
    "verb_of",
]
