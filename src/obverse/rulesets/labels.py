"""Offers in words: a short label for an action as one player may read it.

``Ruleset.describe(state, action, player)`` (the hook; :func:`describe` is its default) turns
a typed action into what a person reads on a button: "Transform into Insectile Aberration",
"Cast Tibalt, Cosmic Impostor (back face)", "Play Akoum Teeth as a land". The label names an
object only as ``player`` may identify it (:meth:`~obverse.rulesets.hooks.Hooks.may_look` or
kept knowledge, the same test as the views): an opponent's face-down permanent is "a
face-down creature" (MTG 708.2a), a card in a hidden zone "a hidden card in alice's hand"
(400.2), and a face name only when the player may identify the card it is printed on. The
rule that allows an action stays the offer's own (its rulings); a label explains nothing
and decides nothing.

:func:`group` says where an offer goes in a list: ``main`` (what the card does: transform,
cast from a hand, flip ...), then ``move`` (zone changes, casting a permanent off the
battlefield among them), then ``more`` (the judge's tools).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from obverse import memo
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import characteristics
from obverse.state import GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.hooks import Hooks

#: The groups of :func:`group`, in the order a list shows them.
GROUPS: Final = ("main", "move", "more")
#: Verbs that move a card between zones; every other verb not in :data:`MORE` is ``main``.
MOVES: Final = frozenset({"move"})
#: The sandbox's tools: they change what a judge sets up rather than play the card.
MORE: Final = frozenset(
    {
        "examine",
        "reveal",
        "look",
        "add_counters",
        "remove_counters",
        "create_token_copy",
        "become_copy",
        "change_control",
        "apply_effect",
        "shuffle",
        "allow_play",
        "search",
        "select",
        "name_card",
        "check_card_pool",
        "has_transcended",
        "mark",
    }
)
#: Which printed face a ``face`` value means (``both``: every face).
FACE_INDEX: Final = {"front": 0, "left": 0, "back": 1, "right": 1}
#: How a face-down way of moving a card reads (MTG 701.40a manifest, 701.58a cloak ...).
FACE_DOWN_WAYS: Final = {
    "manifest": "Manifest",
    "manifest_dread": "Manifest dread",
    "cloak": "Cloak",
}


def group(action: v.Action, rs: Hooks | None = None, state: GameState | None = None) -> str:
    """Where an offer of ``action`` goes in a list (one of :data:`GROUPS`): the card's own
    actions first, so the likely one is near the top.

    Given the ruleset and the state, casting or playing an object that is already in play or
    on the stack is a zone move: it takes the permanent (or spell) from where it is to the
    stack as a new object (MTG 601.2a, 400.7), which is not what the card does there (a
    Delver of Secrets on the battlefield transforms). The group reads only the object's zone,
    which the seat sees of any object it may act with."""
    found = _group_of(type(action))
    if isinstance(action, v.Cast) and rs is not None and state is not None:
        obj = state.objects.get(action.object)
        if obj is not None and (rs.is_in_play(obj.zone) or obj.zone == rs.stack_zone):
            return "move"
    return found


@memo.per_value
def _group_of(cls: type[v.Action]) -> str:
    """An action class's group (a verb is one class), before what the object's zone says."""
    verb = v.verb_of(cls)
    return "move" if verb in MOVES else "more" if verb in MORE else "main"


def words(name: str) -> str:
    """A zone's or verb's name as words: ``main_deck`` -> ``main deck``."""
    return name.replace("_", " ")


class Namer:
    """Names objects as one player (``None``: a judge, who identifies everything) may."""

    def __init__(self, rs: Hooks, state: GameState, player: str | None) -> None:
        self.rs = rs
        self.state = state
        self.player = player
        #: Each object's name, once asked (a state never changes).
        self.names: dict[int, str] = {}

    def identifies(self, obj: GameObject) -> bool:
        """Whether the player may tell which card ``obj`` is (as the views decide)."""
        return self.rs.may_identify(self.state, self.player, obj)

    def card(self, oid: int) -> tuple[GameObject, CardDef] | None:
        """The object and its card, when the player identifies it."""
        obj = self.state.objects.get(oid)
        if obj is None or not self.identifies(obj):
            return None
        return obj, obj.meld or self.state.card_def(obj)

    def name(self, oid: int) -> str:
        """The object as the player may name it."""
        found = self.names.get(oid)
        if found is None:
            found = self.names[oid] = self._name(oid)
        return found

    def _name(self, oid: int) -> str:
        obj = self.state.objects.get(oid)
        if obj is None:
            return "a card"
        if not self.identifies(obj):
            return self.unknown(obj)
        card = obj.meld or self.state.card_def(obj)
        if obj.face_down:
            printed = card.face_names[0] if card.face_names else card.name
            return f"face-down {printed}"
        shown = characteristics(self.state, obj, self.rs).props.name
        return shown or card.name

    def unknown(self, obj: GameObject) -> str:
        """An object the player can't identify, by what is public: face down in play, or a
        card in a zone."""
        if obj.face_down and (self.rs.is_public(obj.zone) or self.rs.is_in_play(obj.zone)):
            return self.rs.face_down_noun(obj.zone)
        return f"a hidden card in {self.whose(obj.owner)} {words(obj.zone)}"

    def whose(self, player: str) -> str:
        """``your`` for the player, ``alice's`` for another."""
        return "your" if player == self.player else f"{player}'s"

    def face(self, oid: int, face: str | None) -> tuple[str, Face | None]:
        """The name of ``face`` of the card (the card's own name when the player can't
        identify it, or the face is not printed on it) and the face."""
        found = self.card(oid)
        if found is None:
            return self.name(oid), None
        _, card = found
        if face == "both" or face is None or len(card.faces) < 2:
            return card.name if face == "both" else self.name(oid), None
        f = card.faces[min(FACE_INDEX.get(face, 0), len(card.faces) - 1)]
        return f.name or card.name, f


#: Zones read without "the" or with a noun (MTG 406 exile, 408 the command zone ...).
ZONE_WORDS: Final = {
    "exile": "exile",
    "command": "the command zone",
    "banishment": "banishment",
    "banished": "the banished zone",
}


def _zone_phrase(n: Namer, oid: int, zone: str, position: str | None) -> str:
    """``the battlefield``, ``exile``, ``your graveyard``, ``the top of alice's library``."""
    if zone in ZONE_WORDS:
        return ZONE_WORDS[zone]
    obj = n.state.objects.get(oid)
    owned = obj is not None and not n.rs.is_shared(zone)
    where = f"{n.whose(obj.owner)} {words(zone)}" if owned and obj else f"the {words(zone)}"
    return f"the {position} of {where}" if position in ("top", "bottom") else where


def _move(n: Namer, a: v.Move) -> str:
    what = n.name(a.object)
    if a.face_down and a.as_ in FACE_DOWN_WAYS:
        return f"{FACE_DOWN_WAYS[a.as_]} {what}"
    text = f"Move {what} to {_zone_phrase(n, a.object, a.to, a.position)}"
    if a.face_down:
        text += " face down"
    elif a.face in ("back", "right"):
        shown, _ = n.face(a.object, a.face)
        text += f" as {shown}"
    elif a.transformed:
        text += " transformed"
    return text


def _cast(n: Namer, a: v.Cast) -> str:
    verb = "Play" if isinstance(a, v.Play) else "Cast"
    if a.face_down:
        way = f" ({words(a.as_)})" if a.as_ else ""
        return f"{verb} {n.name(a.object)} face down{way}"
    found = n.card(a.object)
    shown, face = n.face(a.object, a.face)
    if a.fuse and found is not None:
        return f"{verb} {found[1].name} fused"
    if face is not None and verb == "Play" and "Land" in face.types:
        return f"Play {shown} as a land"
    text = f"{verb} {shown}"
    if a.face in ("back", "right") and found is not None and found[1].layout != "split":
        text += " (back face)"
    if a.transformed:
        text += " transformed"
    return text


def _other_face(n: Namer, oid: int) -> str | None:
    """The name of the face an object turns to (front up: the back; else the front)."""
    found = n.card(oid)
    if found is None:
        return None
    obj, card = found
    if len(card.faces) < 2:
        return None
    up = FACE_INDEX.get(obj.face, 0)
    return card.faces[1 - min(up, 1)].name


def _transform(n: Namer, a: Any) -> str:
    other = _other_face(n, a.object)
    return f"Transform into {other}" if other else f"Transform {n.name(a.object)}"


def _flip(n: Namer, a: Any) -> str:
    found = n.card(a.object)
    if found is not None and not found[0].flipped and len(found[1].faces) > 1:
        return f"Flip into {found[1].faces[1].name}"
    return f"Flip {n.name(a.object)}"


def _effect(n: Namer, a: v.ApplyEffect) -> str:
    target = n.name(a.to) if isinstance(a.to, int) else "every matching object"
    return f"Apply the effect {a.label!r} to {target}"


def _counters(n: Namer, a: Any) -> str:
    what = f"a {a.counter} counter" if a.count == 1 else f"{a.count} {a.counter} counters"
    if a.verb == "add_counters":
        return f"Put {what} on {n.name(a.object)}"
    return f"Remove {what} from {n.name(a.object)}"


def _looks(n: Namer, a: Any) -> str:
    """``Look at X`` for the player's own look, ``bob looks at X`` for another's."""
    if a.player == n.player:
        return f"Look at {n.name(a.object)}"
    return f"{a.player} looks at {n.name(a.object)}"


def _shuffle(n: Namer, a: v.Shuffle) -> str:
    return f"Shuffle {n.whose(a.player)} {words(a.zone)}"


#: A label maker per verb; a verb without one reads as its words and its objects.
LABELS: Final[dict[str, Callable[[Namer, Any], str]]] = {
    "move": _move,
    "cast": _cast,
    "play": _cast,
    "transform": _transform,
    "flip": _flip,
    "apply_effect": _effect,
    "add_counters": _counters,
    "remove_counters": _counters,
    "shuffle": _shuffle,
    "resolve": lambda n, a: f"Resolve {n.name(a.object)}",
    "turn_face_down": lambda n, a: (
        f"Turn {n.name(a.object)} face down" + (f" ({words(a.as_)})" if a.as_ else "")
    ),
    "turn_face_up": lambda n, a: (
        f"Turn {n.name(a.object)} face up" + (f" ({words(a.by)})" if a.by else "")
    ),
    "become_copy": lambda n, a: f"{n.name(a.object)} becomes a copy of {n.name(a.of)}",
    "create_token_copy": lambda n, a: f"Create a token that's a copy of {n.name(a.of)}",
    "change_control": lambda n, a: f"Give {a.to} control of {n.name(a.object)}",
    "reveal": lambda n, a: (
        f"Reveal {n.name(a.object)}" + (f" to {', '.join(a.to)}" if a.to else "")
    ),
    "examine": lambda n, a: _looks(n, a),
    "end_turn": lambda n, a: "End the turn",
    "start_game": lambda n, a: "Start the game",
    "meld": lambda n, a: f"Meld {n.name(a.objects[0])} with {n.name(a.objects[1])}",
    "unlock": lambda n, a: f"Unlock {a.door} door of {n.name(a.object)}",
    "search": lambda n, a: f"{a.player} searches {n.whose(a.player)} {words(a.zone)}",
    "select": lambda n, a: f"{a.player} selects from {n.whose(a.player)} {words(a.zone)}",
    # Flesh and Blood
    "awaken": lambda n, a: f"Awaken {n.name(a.object)}",
    "transcend": lambda n, a: f"Transcend {n.name(a.object)}",
    "mark": lambda n, a: f"Mark {n.name(a.object)}",
    "hit": lambda n, a: f"{n.name(a.source)} hits {n.name(a.hero)}",
    "put_under": lambda n, a: f"Put {n.name(a.object)} under {n.name(a.top)}",
    "charge": lambda n, a: f"Charge {n.name(a.object)}",
    "look": lambda n, a: _looks(n, a),
    "allow_play": lambda n, a: f"Let {a.player} play {n.name(a.object)}",
    "has_transcended": lambda n, a: (
        f"Has {a.player} transcended" + (" this turn?" if a.this_turn else "?")
    ),
    # Grand Archive
    "rest": lambda n, a: f"Rest {n.name(a.object)}",
    "wake_up": lambda n, a: f"Wake up {n.name(a.object)}",
    "level_up": lambda n, a: f"Level up {n.name(a.object)} into {n.name(a.card)}",
    # SCP-TCG-JP-J
    "cross_test": lambda n, a: (
        f"Cross test {n.name(a.object)}"
        + (f" with {n.name(a.target)}" if a.target is not None else "")
    ),
}


def fallback(n: Namer, action: v.Action) -> str:
    """A verb's words, then each object as the player may name it and the other fields."""
    parts = [words(action.verb).capitalize()]
    cls = type(action)
    for key in cls.__struct_fields__:
        value = getattr(action, key)
        if value is None or value is False or key in ("verb",):
            continue
        if key in cls.refs:
            ids = value if isinstance(value, tuple | list) else (value,)
            shown = " and ".join(n.name(i) for i in ids if isinstance(i, int))
            parts.append(shown if key == cls.subject else f"{words(key)} {shown}")
        elif value is True:
            parts.append(words(key))
        else:
            parts.append(f"{words(key.rstrip('_'))} {value}")
    return " ".join(parts)


# The namers of the last few (ruleset, state, player) asked: a list of offers names the same
# objects many times over.
@memo.per_key("(id(rs), id(state), player)", "(rs, state)", kept=16)
def namer_for(rs: Hooks, state: GameState, player: str | None) -> Namer:
    """The :class:`Namer` of ``player`` on ``state``."""
    return Namer(rs, state, player)


def describe(rs: Hooks, state: GameState, action: v.Action, player: str | None) -> str:
    """A short label for ``action`` as ``player`` (``None``: a judge) may read it: objects
    only as the player may identify them (400.2; MTG 708.2a face-down permanents)."""
    namer = namer_for(rs, state, player)
    make = LABELS.get(action.verb)
    return make(namer, action) if make is not None else fallback(namer, action)


__all__ = ["GROUPS", "LABELS", "Namer", "describe", "fallback", "group", "namer_for", "words"]
