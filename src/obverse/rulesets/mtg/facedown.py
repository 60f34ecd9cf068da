"""Magic: The Gathering, the ways a card is face down and how it is turned face up.

How a permanent was turned face down (morph, megamorph, manifest, manifest dread, disguise,
cloak; ``GameObject.face_down_as``) decides its face-down values (708.2a: a nameless 2/2;
disguise and cloak add ward {2}, 702.168a / 701.58a) and the ways it may be turned face up:
the special action (116.2b) paying its morph or disguise cost (702.37e, 702.168d) or, for a
manifested or cloaked creature card, its mana cost (701.40b, 701.58b); or an effect (708.8),
which only reveals a manifested or cloaked instant or sorcery: it stays face down (701.40g,
701.58g). Each kind is a handler in :mod:`obverse.rulesets.mtg.kinds`.
The kind is public (players must keep track of what made each face-down object face down);
which ways are open depends on the hidden card, so only its controller may try the special
action, and every other player's attempt is refused the same way whatever the card is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import msgspec

from obverse import memo
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import InputError, RulesError, quote, suggest
from obverse.rulesets.hooks import Rulings, Sight
from obverse.rulesets.mtg.faces import FACE_DOWN, SPELL_ONLY, MagicFaces
from obverse.rulesets.mtg.kinds import KIND_RULES, KINDS
from obverse.rulings import DONE, ILLEGAL, Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState, Knowledge

replace = msgspec.structs.replace

#: Keyword abilities that let a face-down permanent be turned face up for their cost.
KEYWORDS: Final = ("Megamorph", "Morph", "Disguise")
_KEYWORD_COST: Final = re.compile(r"\b(Megamorph|Morph|Disguise)\s*((?:\{[^}]+\})+)")


#: 708.2: the characteristics an effect may list for a face-down object.
LISTED_KEYS: Final = (
    "name",
    "types",
    "supertypes",
    "subtypes",
    "colors",
    "abilities",
    "power",
    "toughness",
)


@memo.per_value
def listed_face(values: tuple[tuple[str, object], ...]) -> Face:
    """The face-down values an effect listed (708.2), as a face: nothing else."""
    return Face(**dict(values))  # type: ignore[arg-type]


def _describe(face: Face) -> str:
    """ "a Forest land", "a 1/1 Creature": the listed values in a few words."""
    words = " ".join((*face.supertypes, *face.subtypes, *face.types)) or "an object"
    if face.power is not None or face.toughness is not None:
        words = f"{face.power}/{face.toughness} {words}"
    return f"a {words}" if words != "an object" else words


@memo.per_identity(lambda card: (card,))
def keyword_cost(card: CardDef) -> tuple[str, str] | None:
    """The morph, megamorph or disguise ability of a card's front face and its cost
    (``"?"`` when the text doesn't print one), or ``None``. (Offers ask it of every card
    each time they are made: read once per printed card.)"""
    front = card.faces[0] if card.faces else Face()
    have = {a.split()[0].capitalize() for a in front.abilities if a.strip()}
    for m in _KEYWORD_COST.finditer(front.text or ""):
        return m.group(1), m.group(2)
    for word in KEYWORDS:
        if word in have:
            return word, "?"
    return None


def is_creature_card(card: CardDef) -> bool:
    """701.40b: the card (its front face) is a creature card with a mana cost."""
    front = card.faces[0] if card.faces else Face()
    return "Creature" in front.types and bool(front.cost)


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaces
else:
    _Base = object


class MagicFaceDown(_Base):
    """MTG's face-down kinds on top of the face rules (newest numbering; versions override
    :attr:`face_down_kinds`)."""

    face_down_kinds: ClassVar[frozenset[str]] = frozenset(KINDS)
    #: 708.2: a face-down permanent set up with the values an effect listed for it.
    setup_keys: ClassVar[Mapping[str, str]] = {"values": "values"}
    turn_up_ways: ClassVar[frozenset[str]] = frozenset({"special_action", "cost", "effect"})

    #: Also: the two ways of the special action on a face-down permanent, manifesting or
    #: cloaking a card, and casting one face down with its keyword.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("turn_face_up", "_offer_face_up_ways"),
        ("move", "_offer_manifest"),
        ("cast", "_offer_cast_face_down"),
        ("play", "_offer_play_face_down"),
    )

    def face_down_noun(self, zone: str) -> str:
        """708.2a: a face-down permanent is a 2/2 creature (a face-down spell on the stack a
        2/2 creature spell, 708.4); elsewhere a face-down card."""
        if zone == self.play_zone:
            return "a face-down creature"
        return "a face-down spell" if zone == self.stack_zone else "a face-down card"

    def _offer_face_up_ways(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if not (o.face_down and o.zone == "battlefield"):
            return []
        return [v.TurnFaceUp(object=o.id, by=by) for by in ("special_action", "cost")]

    def _offer_manifest(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [
            v.Move(object=o.id, to="battlefield", face_down=True, as_=kind)
            for kind in sorted(self.face_down_kinds)
        ]

    def _offer_cast_face_down(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        # Each way (the kernel decides which the card's keyword allows: 702.37c, 702.168a).
        return [v.Cast(object=o.id, face_down=True, as_=k) for k in sorted(self.face_down_kinds)]

    def _offer_play_face_down(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [v.Play(object=o.id, face_down=True, as_=k) for k in sorted(self.face_down_kinds)]

    # --- values (708.2a, 702.168a, 701.58a) -------------------------------------------------

    def face_down_face(self, obj: GameObject) -> Face:
        """The face-down values the effect listed (708.2) or its kind gives it."""
        if obj.face_down_values:
            return listed_face(obj.face_down_values)
        kind = KIND_RULES.get(obj.face_down_as or "")
        return kind.values if kind is not None else FACE_DOWN

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        chars = super().face_down_characteristics(state, obj)
        if obj.face_down_values and obj.zone == "battlefield":
            face = listed_face(obj.face_down_values)
            what = f"face down, it is {_describe(face)}: the values the effect listed"
            names = (face.name,) if face.name else ()
            why = self.cite("face_down_values", what)
            return replace(chars, names=names, props=face, why=why)
        kind = KIND_RULES.get(obj.face_down_as or "")
        if kind is None:
            return chars
        said = kind.name.replace("_", " ")
        why = self.cite(kind.topic, f"face down by {said}: {kind.what}")
        return replace(chars, props=self.face_down_face(obj), why=chars.why + why)

    def copiable_values(self, state: GameState, of: GameObject) -> Decided[CopyValues]:
        """708.2: a disguised or cloaked permanent's face-down values, ward {2} too, are
        what a copy gets."""
        values, rulings = super().copiable_values(state, of)
        kind = KIND_RULES.get(of.face_down_as or "")
        if of.face_down and ((kind is not None and kind.ward) or of.face_down_values):
            face = self.face_down_face(of)
            values = replace(values, faces=(face,), name=face.name or "")
        return Decided(values, rulings)

    # --- verbs reading a name: a face-down object has none (708.2) -------------------------

    def query_sight(self, verb: str, zone: str) -> Decided[Sight]:
        """A search (701.23a) sees a face-down object as the face-down object it is."""
        sight, why = super().query_sight(verb, zone)
        if verb == "search":
            why = (
                *self.cite("face_down_values", "a face-down object has only its face-down values"),
                *why,
            )
            if "search" in self.rule_ids:  # (its 2020 number isn't confirmed)
                why = (*self.cite("search", "a search finds the cards matching it"), *why)
        return Decided(sight, why)

    def searchable(self, state: GameState, obj: GameObject) -> Characteristics:
        """701.23a, 708.2: a search finds a card matching the description; a face-down
        permanent or spell, or a card exiled face down, matches as the face-down object it
        is (it has no name), never by its hidden card."""
        if obj.face_down:
            return characteristics(state, obj, self)
        return super().searchable(state, obj)

    # --- the kind, recorded by the action that turned it face down --------------------------

    def check_kind(self, kind: str | None) -> None:
        """``kind`` is one this version knows; raises :class:`InputError` otherwise."""
        if kind is not None and kind not in self.face_down_kinds:
            known = sorted(self.face_down_kinds)
            hint = suggest(kind, known) or f" (one of {', '.join(known)})"
            raise InputError("", "as", f"unknown face-down kind {quote(kind)}{hint}")

    def _with_kind(self, state: GameState, card: int, kind: str | None) -> GameState:
        """The card's object, if face down on the battlefield or stack, made ``kind``."""
        obj = state.object_of_card(card)
        if kind is None or obj is None or not obj.face_down:
            return state
        return core.update(state, replace(obj, face_down_as=kind))

    def check_move_as(self, a: v.Move) -> None:
        """A move with ``as`` puts the card onto the battlefield face down that way (701.40a
        manifest, 701.58a cloak ...), one with ``values`` with the characteristics the effect
        lists (708.2); raises for any other move."""
        self.check_kind(a.as_)
        key = "as" if a.as_ is not None else "values"
        if a.values is not None:
            self.check_face_down_values(a.values)
        if a.to != "battlefield" or a.face_down is not True:
            raise RulesError(f"{key}: needs a move to the battlefield with face_down: true")

    def moved_as(
        self, out: Outcome, card: int, kind: str | None, values: Mapping[str, Any] | None = None
    ) -> Outcome:
        """A done move with ``as``: the card's face-down object records its kind; with
        ``values``, the characteristics the effect listed (708.2)."""
        why: Rulings = ()
        state = out.state
        if kind is not None:
            why = self.cite(KIND_RULES[kind].topic, f"put onto the battlefield face down by {kind}")
            state = self._with_kind(state, card, kind)
        if values is not None:
            state, listed = self._with_values(state, card, values)
            why += listed
        return replace(out, state=state, rulings=(*why, *out.rulings))

    # --- listed values (708.2): "it's a Forest land", instead of the 2/2 --------------------

    def check_face_down_values(self, given: Mapping[str, Any]) -> tuple[tuple[str, object], ...]:
        """708.2: the characteristics an effect lists for a face-down object, as ``(key,
        value)`` pairs (types and supertypes words of MTG, colors by letter); raises
        :class:`InputError` naming a bad key."""
        if not isinstance(given, Mapping) or not given:
            raise InputError("", "values", "expected a mapping of characteristics")
        out: list[tuple[str, object]] = []
        for key, value in given.items():
            where = f"values.{key}"
            if key not in LISTED_KEYS:
                hint = suggest(str(key), LISTED_KEYS) or f" (one of {', '.join(LISTED_KEYS)})"
                raise InputError("", where, f"not a characteristic an effect lists{hint}")
            if key in ("power", "toughness"):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InputError("", where, "expected a number")
                out.append((key, value))
                continue
            if key == "name":
                if not isinstance(value, str):
                    raise InputError("", where, "expected a name")
                out.append((key, value))
                continue
            words = [value] if isinstance(value, str) else value
            if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
                raise InputError("", where, "expected a name or a list of names")
            known = self.type_words.get(key)
            for w in words:
                if known is not None and w not in known:
                    hint = suggest(w, sorted(known))
                    raise InputError("", where, f"unknown {key[:-1]} {quote(w)}{hint}")
            letters = self.color_letters(words, where) if key == "colors" else tuple(words)
            out.append((key, letters))
        return tuple(out)

    def setup_status(
        self, state: GameState, obj: GameObject, status: Mapping[str, Any]
    ) -> GameState:
        """``values``: set up face down with the values an effect listed (708.2)."""
        state = super().setup_status(state, obj, status)
        if "values" in status:
            state, _ = self._with_values(state, obj.card, status["values"])
        return state

    def _with_values(
        self, state: GameState, card: int, given: Mapping[str, Any]
    ) -> tuple[GameState, Rulings]:
        """The card's face-down object, if face down on the battlefield, gets the listed
        values (708.2) and the rule behind them."""
        obj = state.object_of_card(card)
        if obj is None or not obj.face_down or obj.zone != "battlefield":
            return state, ()
        values = self.check_face_down_values(given)
        state = core.update(state, replace(obj, face_down_values=values))
        what = _describe(listed_face(values))
        return state, self.cite("face_down_values", f"face down, it is {what}, as the effect says")

    def turn_face_down(self, state: GameState, a: v.TurnFaceDown) -> Outcome:
        """Turning face down with ``as`` records the kind, with ``values`` the
        characteristics the effect lists (708.2; otherwise the 2/2 of 708.2a)."""
        self.check_kind(a.as_)
        out = super().turn_face_down(state, a)
        if out.result != DONE or (a.as_ is None and a.values is None):
            return out
        card = state.objects[a.object].card
        state = out.state if a.as_ is None else self._with_kind(out.state, card, a.as_)
        if a.values is None:
            return replace(out, state=state)
        state, why = self._with_values(state, card, a.values)
        return replace(out, state=state, rulings=(*why, *out.rulings))

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """Cast face down ``as`` morph, megamorph or disguise (702.37c, 702.168a: only a card
        with that ability); ``controller``: the player casting it controls the spell (112.2)
        and the permanent it becomes (608.3a), its owner stays (400.3)."""
        obj = state.objects[a.object]
        if a.as_ is not None:
            refusal = self._cast_kind(state, obj, a)
            if refusal is not None:
                return refusal
        out = super().cast(state, a)
        if out.result != DONE:
            return out
        rulings = out.rulings
        if a.as_ is not None:
            state = self._with_kind(out.state, obj.card, a.as_)
            out = replace(out, state=state)
        if a.controller is not None and a.controller != obj.owner:
            rulings += self.cite(
                "spell_controller", f"{a.controller} cast it: {a.controller} controls the spell"
            )
        return replace(out, rulings=rulings)

    def _cast_kind(self, state: GameState, obj: GameObject, a: v.Cast | v.Play) -> Outcome | None:
        """Why ``obj`` can't be cast face down ``as`` it says, or ``None``."""
        kind = a.as_
        assert kind is not None
        self.check_kind(kind)
        if not a.face_down:
            raise RulesError("as: needs face_down: true")
        if not KIND_RULES[kind].cast:
            why = f"{kind.replace('_', ' ')} puts a card onto the battlefield; it isn't cast"
            return Outcome(state, ILLEGAL, self.cite(KIND_RULES[kind].topic, why))
        has = keyword_cost(state.card_def(obj))
        if has is None or has[0].lower() != kind:
            topic = "disguise" if kind == "disguise" else "morph_cast"
            why = f"a card without {kind} can't be cast face down that way"
            return Outcome(state, ILLEGAL, self.cite(topic, why))
        return None

    #: :meth:`after_move` has something to say only of an object leaving the stack.
    after_move_zones: ClassVar[frozenset[str]] = frozenset({"stack"})

    def after_move(self, state: GameState, old: GameObject, new: GameObject) -> GameState:
        """A face-down spell resolving keeps its kind as a face-down permanent (708.4); an
        object face up has no kind."""
        state = super().after_move(state, old, new)
        if new.face_down and old.zone == "stack" and old.face_down_as is not None:
            state = core.update(state, replace(new, face_down_as=old.face_down_as))
        return state

    # --- turning face up (708.8, 116.2b) ----------------------------------------------------

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """116.2b: only a permanent's controller may take the special action turning it face
        up; anyone else is refused the same way, whatever the card is."""
        if isinstance(action, v.TurnFaceUp) and action.by in ("special_action", "cost"):
            obj = state.objects[action.object]
            if obj.controller != actor:
                why = "only its controller may turn a face-down permanent face up this way"
                return Outcome(state, ILLEGAL, self.cite("face_up_special", why))
        return None

    def turn_face_up(self, state: GameState, a: v.TurnFaceUp) -> Outcome:
        """``by`` an effect (the default) or the special action (``special_action``: what
        its kind allows; ``cost``: its morph, megamorph or disguise cost)."""
        obj = state.objects[a.object]
        if not obj.face_down or obj.zone != "battlefield":
            out = super().turn_face_up(state, a)
            return out if a.by in (None, "effect") else replace(out, result=ILLEGAL)
        if a.by in (None, "effect"):
            return self._by_effect(state, obj, a)
        route, rulings = self._special_route(state, obj, a.by == "cost")
        if route is None:
            return Outcome(state, ILLEGAL, rulings)
        if self.is_spell_card(state, obj):  # shown as its cost is paid: it stays face down
            out = self.revealed_stays_down(state, obj)
            return replace(out, rulings=(*rulings, *out.rulings))
        out = self._up(state, obj, a, rulings)
        if route == "Megamorph":
            out = self._megamorph_counter(out, obj)
        return out

    def _up(self, state: GameState, obj: GameObject, a: v.TurnFaceUp, why: Rulings) -> Outcome:
        """Turn it face up (708.8); it no longer has a face-down kind."""
        out = super().turn_face_up(state, a)
        if out.result != DONE:
            return out
        up = out.state.objects[obj.id]
        state = core.update(out.state, replace(up, face_down_as=None, face_down_values=()))
        return replace(out, state=state, rulings=(*why, *out.rulings))

    def _by_effect(self, state: GameState, obj: GameObject, a: v.TurnFaceUp) -> Outcome:
        """708.8: an effect turns any face-down permanent face up, except that a manifested
        or cloaked instant or sorcery is revealed and stays face down (701.40g, 701.58g)."""
        if self.is_spell_card(state, obj):
            return self.revealed_stays_down(state, obj)
        return self._up(state, obj, a, ())

    def is_spell_card(self, state: GameState, obj: GameObject) -> bool:
        """The card representing ``obj`` (a melded object: any of its cards) is an instant or
        sorcery card (its front face: the face a face-down card turns up to, 708.8)."""
        return any(
            SPELL_ONLY.intersection(state.cards[c].card.faces[0].types)
            for c in obj.cards
            if state.cards[c].card.faces
        )

    def revealed_stays_down(self, state: GameState, obj: GameObject) -> Outcome:
        """A face-down permanent represented by an instant or sorcery card that would turn
        face up is revealed and stays face down, whatever made it face down: 701.40g
        (manifested), 701.58g (cloaked), 729.2g (merged); otherwise 110.4 (instant and
        sorcery cards can't be permanents)."""
        card = state.card_def(obj)
        kind = KIND_RULES.get(obj.face_down_as or "")
        why = f"{card.name} is an instant or sorcery: it is revealed and stays face down"
        if kind is not None and kind.manifested:
            rulings = self.cite(kind.instant_topic, why)
        elif len(obj.cards) > 1 and "merged_instant" in self.rule_ids:
            rulings = self.cite("merged_instant", why)
        else:
            rulings = self.cite("instant_no_permanent", why)
        known = {(k.player, k.obj) for k in state.knowledge}
        seen = tuple(
            Knowledge(player=p, card=obj.card, obj=obj.id, since=state.clock)
            for p in state.players
            if (p, obj.id) not in known
        )
        state = replace(state, knowledge=(*state.knowledge, *seen))
        # Done: the effect did what the rules let it (a reveal), so whether it is
        # offered doesn't tell an opponent what the card is.
        return Outcome(state, DONE, rulings)

    def _special_route(
        self, state: GameState, obj: GameObject, keyword_only: bool
    ) -> tuple[str | None, Rulings]:
        """The way the special action may turn ``obj`` face up (its keyword, or ``"mana"``
        for a manifested or cloaked creature card) and the rules behind it; ``None`` and
        the rule that refuses it when there is none."""
        card = state.card_def(obj)
        kind = KIND_RULES.get(obj.face_down_as or "")
        manifested = kind is not None and kind.manifested
        keyword = keyword_cost(card)
        if kind is not None and manifested and not keyword_only:
            topic = kind.face_up_topic
            if is_creature_card(card):
                cost = card.faces[0].cost
                why = f"it shows it is a creature card and pays its mana cost {cost}"
                special = self.cite("face_up_special", "a special action")
                return "mana", (*special, *self.cite(topic, why))
            why = "it isn't a creature card with a mana cost: it can't be turned face up this way"
            return None, self.cite(topic, why)
        if keyword is None:
            disguised = kind is not None and kind.name == "disguise"
            topic = "disguise_face_up" if disguised else "morph_face_up"
            why = "it has no morph or disguise cost: it can't be turned face up this way"
            return None, self.cite(topic, why)
        word, cost = keyword
        rulings = self.cite("face_up_special", "a special action")
        if kind is not None and manifested:
            rulings += self.cite(
                kind.keyword_topic(word),
                f"it may also be turned face up for its {word.lower()} cost",
            )
        topic = "disguise_face_up" if word == "Disguise" else "morph_face_up"
        rulings += self.cite(topic, f"it pays its {word.lower()} cost {cost}")
        return word, rulings

    def _megamorph_counter(self, out: Outcome, obj: GameObject) -> Outcome:
        """702.37b: turned face up for its megamorph cost, it gets a +1/+1 counter."""
        if out.result != DONE:
            return out
        up = out.state.objects[obj.id]
        counters = dict(up.counters)
        counters["+1/+1"] = counters.get("+1/+1", 0) + 1
        state = core.update(out.state, replace(up, counters=tuple(sorted(counters.items()))))
        why = self.cite("megamorph", "turned face up for its megamorph cost: a +1/+1 counter")
        return replace(out, state=state, rulings=(*out.rulings, *why))
