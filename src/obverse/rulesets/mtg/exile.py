"""Magic: The Gathering, cards exiled face down and the reveals at a game's edges.

A card exiled face down has no characteristics (406.3a); no player may look at it unless an
instruction allows it (406.3): foretelling it (702.143a, its owner), hideaway (702.75a) or an
effect ("look at it, then exile it face down"). The permission lasts until the card leaves
exile or is shuffled (406.3). A player choosing an exiled card picks a face-down one only if
they may look at it; otherwise they pick a pile and the kernel picks a card of it at random
with the state's shuffle generator, and the chooser learns nothing more (406.4). When a
player leaves the game, and when the game ends, face-down permanents and spells and
face-down foretold cards are revealed (708.9, 702.143f).

Who may look at a face-down exiled card is public (players must keep such cards apart,
406.4, 702.143e): it is a designation ``look:PLAYER:SOURCE`` on the card's object.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import Face
from obverse.characteristics import Characteristics
from obverse.errors import InputError, quote, suggest
from obverse.rulesets.hooks import Rulings
from obverse.rulesets.mtg.facedown import MagicFaceDown
from obverse.rulings import DONE, ILLEGAL, NOTHING, Decided, Event, Outcome
from obverse.state import GameObject, GameState, Knowledge

replace = msgspec.structs.replace

#: A look permission's designation name starts so: ``look:PLAYER:SOURCE``.
LOOK: Final = "look:"
#: What may let a player look at a card exiled face down, and the rule topic of each.
LOOK_SOURCES: Final = {"foretell": "foretell", "hideaway": "hideaway", "effect": "exile_face_down"}
#: 406.3a: a card exiled face down (no characteristics at all).
NO_CHARACTERISTICS: Final = Face()


def face_down_cards(obj: GameObject) -> list[int]:
    """The face-down cards representing ``obj``: a merged permanent's face-down components
    (729.2e), or its card if it is face down."""
    if obj.components:
        return [c for c, _, down in obj.components if down]
    return list(obj.cards) if obj.face_down else []


class ChooseExiled(v.Action, frozen=True, tag="choose_exiled"):
    """``player`` chooses an exiled card among ``among`` (406.4): one card they may look
    at, or a pile of face-down cards they may not, of which one is picked at random. The
    answer (a scenario's ``label``) is the chosen card's object."""

    refs = ("among",)
    player_fields = ("player",)
    subject = None
    creates = True
    player: str
    among: tuple[int, ...]


class LeaveGame(v.Action, frozen=True, tag="leave_game"):
    """``player`` leaves the game (104.3a, 104.5): the face-down objects they own that the
    rules reveal then are revealed (708.9, 702.143f)."""

    player_fields = ("player",)
    subject = None
    player: str


class EndGame(v.Action, frozen=True, tag="end_game"):
    """The game ends (104): every face-down permanent and spell and every face-down foretold
    card is revealed (708.9, 702.143f)."""

    subject = None


if TYPE_CHECKING:  # a flat mixin: typed as its base, composed by the ruleset
    _Base = MagicFaceDown
else:
    _Base = object


class MagicExile(_Base):
    """Face-down exile (406.3-406.4), its look permissions and the reveals of 708.9."""

    #: Also: looking at a face-down exiled card, choosing one.
    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (
        ("look", "_offer_look"),
        ("choose_exiled", "_offer_choose_exiled"),
    )

    def _offer_look(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        if not (o.face_down and o.zone == "exile"):
            return []
        return [v.Look(player=player, object=o.id)]  # by an effect (406.3): the default

    def _offer_choose_exiled(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [ChooseExiled(player=player, among=(o.id,))] if o.zone == "exile" else []

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """Also a player leaving the game and the game ending, while anything is face down
        (else they reveal nothing: nothing happens)."""
        out = super().loose_candidates(state, player, verb)
        if verb not in (None, "leave_game", "end_game") or not any(
            o.face_down or o.components for o in state.iter_objects()
        ):
            return out
        if verb in (None, "leave_game"):
            out += [LeaveGame(player=p) for p in ((player,) if player else state.players)]
        if verb in (None, "end_game"):
            out.append(EndGame())
        return out

    def refuse_actor(self, state: GameState, action: v.Action, actor: str) -> Outcome | None:
        """104.3a: only a player themselves leaves (concedes); 406.4: only the player told to
        choose an exiled card chooses it."""
        if isinstance(action, LeaveGame) and action.player != actor:
            why = "a player leaves the game only by their own concession or loss"
            return Outcome(state, ILLEGAL, self.cite("concede", why))
        if isinstance(action, ChooseExiled) and action.player != actor:
            why = "only the player instructed to choose an exiled card chooses it"
            return Outcome(state, ILLEGAL, self.cite("exile_choose", why))
        return super().refuse_actor(state, action, actor)

    # --- characteristics (406.3a) -----------------------------------------------------------

    def face_down_characteristics(self, state: GameState, obj: GameObject) -> Characteristics:
        """406.3a: a card face down outside the battlefield and stack (exiled face down) has
        no characteristics; a face-down permanent or spell has its face-down values."""
        if obj.zone in ("battlefield", "stack"):
            return super().face_down_characteristics(state, obj)
        why = self.cite("exile_no_chars", "a card exiled face down has no characteristics")
        return Characteristics(face="none", names=(), props=NO_CHARACTERISTICS, why=why)

    def cast(self, state: GameState, a: v.Cast | v.Play) -> Outcome:
        """406.3a: a card exiled face down is turned face up just before it is cast (unless
        cast face down)."""
        obj = state.objects[a.object]
        out = super().cast(state, a)
        if out.result != DONE or not (obj.face_down and obj.zone == "exile") or a.face_down:
            return out
        why = "a card exiled face down is turned face up just before it is cast"
        return replace(out, rulings=(*self.cite("exile_no_chars", why), *out.rulings))

    def can_turn_face_up(self, state: GameState, obj: GameObject) -> Decided[bool]:
        """406.3: a card exiled face down turned face up is an exiled card any player may
        examine (708.8 is about permanents)."""
        if not (obj.face_down and obj.zone == "exile"):
            return super().can_turn_face_up(state, obj)
        why = "turned face up, it is an exiled card any player may examine"
        return Decided(True, self.cite("exile_face_down", why))

    # --- who may look (406.3, 702.143a, 702.75a) --------------------------------------------

    def may_look_exiled(self, state: GameState, viewer: str | None, obj: GameObject) -> bool:
        """406.3: only a player an instruction allowed may look at a card exiled face down."""
        if viewer is None or not state.designations:
            return False
        mine = f"{LOOK}{viewer}:"
        return any(d[1] == obj.id and d[0].startswith(mine) for d in state.designations)

    def can_examine(self, state: GameState, player: str, obj: GameObject) -> Decided[bool]:
        """406.3: a card exiled face down may be examined only by a player allowed to."""
        if not (obj.face_down and obj.zone == "exile"):
            return super().can_examine(state, player, obj)
        ok = self.may_look_exiled(state, player, obj)
        why = "only a player an instruction allows may look at a card exiled face down"
        return Decided(ok, self.cite("exile_face_down", why))

    def look(self, state: GameState, a: v.Look) -> Outcome:
        """``player`` gets to look at a card exiled face down, by ``source``: ``foretell``
        (702.143a: its owner, who foretold it), ``hideaway`` (702.75a) or ``effect`` (the
        default, 406.3); they may go on looking until it leaves exile or is shuffled."""
        if a.until is not None:
            raise InputError("", "until", "a permission to look lasts while the card is exiled")
        source = a.source or "effect"
        topic = LOOK_SOURCES.get(source)
        if topic is None or topic not in self.rule_ids:
            known = sorted(s for s, t in LOOK_SOURCES.items() if t in self.rule_ids)
            hint = suggest(source, known) or f" (one of {', '.join(known)})"
            raise InputError("", "source", f"unknown look source {quote(source)}{hint}")
        obj = state.objects[a.object]
        if not (obj.face_down and obj.zone == "exile"):
            why = "only a card exiled face down needs a permission to be looked at"
            return Outcome(state, NOTHING, self.cite("exile_face_down", why))
        if source == "foretell" and a.player != obj.owner:
            why = "only the player who foretold a card, its owner, may look at it"
            return Outcome(state, ILLEGAL, self.cite("foretell", why))
        mark = (f"{LOOK}{a.player}:{source}", obj.id)
        if mark in state.designations:
            why = f"{a.player} may already look at it"
            return Outcome(state, NOTHING, self.cite("exile_face_down", why))
        seen = Knowledge(player=a.player, card=obj.card, obj=obj.id, since=state.clock)
        state = replace(
            state,
            designations=(*state.designations, mark),
            knowledge=core.adding(state.knowledge, seen),
        )
        what = {
            "foretell": f"foretold: {a.player} may look at it as long as it remains in exile",
            "hideaway": f"{a.player} may look at the card hideaway exiled",
            "effect": f"an instruction lets {a.player} look at it",
        }[source]
        rulings = self.cite(topic, what)
        if topic != "exile_face_down":
            why = "they may go on looking until it leaves exile or is shuffled"
            rulings += self.cite("exile_face_down", why)
        return Outcome(state, DONE, rulings)

    def after_shuffle(self, state: GameState, player: str, zone: str) -> GameState:
        """406.3: a permission to look at a face-down exiled card ends when it is shuffled."""
        state = super().after_shuffle(state, player, zone)
        if zone != "exile" or not state.designations:
            return state
        shuffled = set(state.zone_contents(self.zone_key(zone, player)))
        kept = tuple(
            d for d in state.designations if not (d[0].startswith(LOOK) and d[1] in shuffled)
        )
        return state if len(kept) == len(state.designations) else replace(state, designations=kept)

    # --- choosing an exiled card (406.4) ----------------------------------------------------

    def choose_exiled(self, state: GameState, a: ChooseExiled) -> Outcome:
        """406.4: a card the player may look at is chosen by itself; otherwise a pile of
        face-down cards they may not look at is chosen and a card of it picked at random
        (the state's shuffle generator). The chooser learns nothing about the card."""
        objs = [state.objects[i] for i in a.among]
        if not objs or len(set(a.among)) != len(objs) or any(o.zone != "exile" for o in objs):
            why = "only cards in exile, each named once, can be chosen as an exiled card"
            return Outcome(state, ILLEGAL, self.cite("exile_choose", why))
        hidden = [o for o in objs if o.face_down and not self.may_look(state, a.player, o)]
        if not hidden and len(objs) == 1:
            why = f"{a.player} may look at it: they choose that card"
            return Outcome(state, DONE, self.cite("exile_choose", why), answer=objs[0].id)
        if len(hidden) != len(objs):
            why = (
                "a specific card is chosen only if the player may look at it; "
                "a pile holds face-down cards they may not look at"
            )
            return Outcome(state, ILLEGAL, self.cite("exile_choose", why))
        rng = random.Random(f"{state.seed}:{state.shuffles}")
        picked = objs[rng.randrange(len(objs))]
        state = replace(state, shuffles=state.shuffles + 1)
        why = (
            f"{a.player} chose a pile of {len(objs)} face-down card(s) they may not look at; "
            "one is chosen at random and isn't revealed"
        )
        return Outcome(state, DONE, self.cite("exile_choose", why), answer=picked.id)

    # --- reveals when a player leaves and when the game ends (708.9, 702.143f) -------------

    def leave_game(self, state: GameState, a: LeaveGame) -> Outcome:
        """708.9, 702.143f: a player leaving reveals the face-down permanents and spells and
        the face-down foretold cards they own (the rest of leaving, 800.4a, isn't
        modelled)."""
        return self._reveal_all(state, a.player, f"{a.player} leaves the game")

    def end_game(self, state: GameState, a: EndGame) -> Outcome:
        """708.9, 702.143f: at the end of the game every face-down permanent and spell and
        every face-down foretold card is revealed."""
        return self._reveal_all(state, None, "the game ends")

    def _reveal_all(self, state: GameState, owner: str | None, why: str) -> Outcome:
        """Reveal to all players what 708.9 and 702.143f reveal of ``owner``'s objects
        (``None``: everyone's): face-down permanents and spells, face-down components of
        merged permanents, face-down foretold cards."""
        mine = [o for o in state.iter_objects() if owner in (None, o.owner)]
        hidden = [  # (object, card): each face-down card on the battlefield or the stack
            (o, c) for o in mine if o.zone in ("battlefield", "stack") for c in face_down_cards(o)
        ]
        foretold = [
            (o, o.card)
            for o in mine
            if o.face_down and o.zone == "exile" and self.is_foretold(state, o)
        ]
        rulings: Rulings = ()
        if hidden:
            what = f"{why}: face-down permanents, components and spells are revealed to all"
            rulings += self.cite("face_down_reveal", what)
        if foretold and "foretell_reveal" in self.rule_ids:
            what = f"{why}: face-down foretold cards are revealed to all players"
            rulings += self.cite("foretell_reveal", what)
        else:
            foretold = []
        known = {(k.player, k.obj, k.card) for k in state.knowledge}
        seen = tuple(
            Knowledge(player=p, card=c, obj=o.id, since=state.clock)
            for o, c in (*hidden, *foretold)
            for p in state.players
            if (p, o.id, c) not in known
        )
        if not seen:
            nothing = f"{why}: nothing face down is left to reveal"
            return Outcome(state, NOTHING, rulings or self.cite("face_down_reveal", nothing))
        state = replace(state, knowledge=core.adding(state.knowledge, *seen))
        everyone = ",".join(state.players)
        shown = dict.fromkeys((o.id, c) for o, c in (*hidden, *foretold))
        events = tuple(Event("reveal", oid, c, detail=everyone) for oid, c in shown)
        return Outcome(state, DONE, rulings, events)

    def revealed_leaving(self, obj: GameObject, out: Outcome) -> Outcome:
        """708.9: a face-down permanent (or face-down component of a merged one) leaving the
        battlefield, or a face-down spell leaving the stack for another zone than the
        battlefield, is revealed to all players as it moves: a reveal event naming every
        player (the card is shown, not known after: its new object is where it went)."""
        downs = face_down_cards(obj)
        if obj.zone not in ("battlefield", "stack") or out.result != DONE or not downs:
            return out
        everyone = ",".join(out.state.players)
        events = []
        for card in downs:
            new = out.state.object_of_card(card)
            if new is None or new.zone in ("battlefield", "stack"):
                continue
            events.append(Event("reveal", new.id, card, detail=everyone))
        return replace(out, events=(*out.events, *events)) if events else out

    def is_foretold(self, state: GameState, obj: GameObject) -> bool:
        """702.143c: the card was foretold (a ``look`` with source ``foretell``)."""
        return any(
            d[1] == obj.id and d[0].startswith(LOOK) and d[0].endswith(":foretell")
            for d in state.designations
        )


__all__ = ["LOOK", "ChooseExiled", "EndGame", "LeaveGame", "MagicExile"]
