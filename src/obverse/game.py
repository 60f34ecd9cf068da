"""A :class:`Game` holds the current state, names cards, and applies actions with history.

The kernel is functional (:func:`obverse.engine.apply` takes a state and an action and returns
an :class:`~obverse.rulings.Outcome`); ``Game`` keeps the latest state, a history to undo,
and names objects by physical card id, which follows a card across zones.

>>> game = Game("mtg")
>>> delver = game.add("Delver of Secrets", zone="battlefield")
>>> game.transform(delver).cites
('701.27a', '712.9', '712.18')
>>> game.characteristics(delver).props.name
'Insectile Aberration'
>>> game.move(delver, "gravyard")
Traceback (most recent call last):
...
obverse.errors.InputError: to: unknown zone 'gravyard' for mtg (did you mean 'graveyard'?)
>>> _ = game.undo()
>>> game.characteristics(delver).props.name
'Delver of Secrets'
>>> [legal.action.verb for legal in game.legal_actions("alice")][:3]
['end_turn', 'move', 'move']
"""

from __future__ import annotations

import secrets
from itertools import chain
from typing import Any

from obverse import vocab as v
from obverse.carddata import CardIndex, CardResolver
from obverse.cards import CardDef
from obverse.characteristics import Characteristics, characteristics
from obverse.engine import Legal, apply
from obverse.errors import InputError, NothingToUndo, quote
from obverse.fastoffers import OfferMemo
from obverse.registry import default_alias, get_ruleset
from obverse.rulesets import Ruleset
from obverse.rulings import Outcome
from obverse.state import GameObject, GameState, new_state
from obverse.views import view


class Game:
    """A game under a ruleset alias (``mtg``, ``mtg@2020``, ``fab``, ``ga``, ``scp``).

    The convenience over the one way to act, :func:`obverse.engine.apply`: it decides
    nothing itself. Cards are named as in scenarios; :meth:`add` returns the physical card id.
    Every verb is a method taking card ids that builds the typed action and applies it;
    :meth:`apply` takes any typed action (object ids). Without
    a ``seed`` its shuffles are unpredictable (a random secret key); with one they follow
    the seed, as a scenario file's do."""

    def __init__(
        self,
        ruleset: str | None = None,
        players: tuple[str, ...] = ("alice", "bob"),
        seed: int | None = None,
        cards: list[CardDef] | None = None,
        secret: bytes | None = None,
    ) -> None:
        # No ruleset named: the first registered (registry.default_alias()).
        self.ruleset: Ruleset = get_ruleset(ruleset or default_alias())
        #: A random handle key unless given: the views of a live game can't be linked.
        key = secret if secret is not None else secrets.token_bytes(16)
        # Without a seed, shuffles are keyed by a random secret (nobody can predict them);
        # a seed given makes them reproducible, as in a scenario file.
        shuffle_key = secrets.token_bytes(32) if seed is None else b""
        self.state: GameState = new_state(
            self.ruleset.name, players, seed=seed or 0, secret=key, shuffle_key=shuffle_key
        )
        self.cards = CardResolver(self.ruleset.game, CardIndex(cards or []))
        #: Every outcome applied, oldest first (:meth:`undo` pops it).
        self.history: list[Outcome] = []
        self._before: list[GameState] = []
        self._last: dict[int, int] = {}
        #: The offers of earlier states, kept for later ones (:meth:`legal_actions`).
        self._offers = OfferMemo()

    # --- cards and objects ------------------------------------------------------------------

    def add(
        self,
        card: str | CardDef,
        zone: str,
        owner: str | None = None,
        face: str | None = None,
        face_down: bool | None = None,
        *,
        controller: str | None = None,
        token: bool = False,
    ) -> int:
        """Put a card into ``zone`` before play; returns its card id. The rules fill in what
        isn't given (face, facing, a token's owner)."""
        cdef = self.cards.get(card) if isinstance(card, str) else card
        if cdef is None:
            raise InputError("", "card", f"unknown card {quote(card)}")
        if not self.ruleset.is_zone(zone):
            raise InputError("", "zone", f"unknown zone {quote(zone)} for {self.ruleset.name}")
        self.state, card_id = self.ruleset.add_card(
            self.state,
            cdef,
            self.ruleset.canonical_zone(zone),
            owner=owner,
            controller=controller,
            face=face,
            face_down=face_down,
            token=token,
        )
        return card_id

    def obj(self, card_id: int) -> GameObject:
        """The object a card is now (KeyError if it has none)."""
        o = self.state.object_of_card(card_id)
        if o is None:
            raise KeyError(card_id)
        return o

    def _oid(self, card_id: int) -> int:
        """The object id a card names: its object now, or the last one it had (which the
        kernel knows no longer exists)."""
        o = self.state.object_of_card(card_id)
        if o is not None:
            self._last[card_id] = o.id
            return o.id
        if card_id in self._last:
            return self._last[card_id]
        raise InputError("", "card", f"no card {card_id} in this game")

    # --- applying ---------------------------------------------------------------------------

    def apply(self, action: v.Action, actor: str | None = None) -> Outcome:
        """Apply a typed action (object ids) through the kernel and record it."""
        state = self.state
        out = apply(state, action, actor, catalog=self.cards)
        self._before.append(state)
        self.history.append(out)
        self.state = out.state
        return out

    push = apply

    def __repr__(self) -> str:
        n = len(self.history)
        actions = f"{n} action{'' if n == 1 else 's'}"
        return f"<Game {self.ruleset.name}: {len(self.state.objects)} objects, {actions}>"

    def __str__(self) -> str:
        return str(self.state)

    def undo(self) -> Outcome:
        """Take back the last action; returns its outcome. :class:`~obverse.errors.NothingToUndo`
        when there is nothing to take back."""
        try:
            out = self.history.pop()
        except IndexError:
            raise NothingToUndo("nothing to undo: no action since the game was set up") from None
        self.state = self._before.pop()
        return out

    pop = undo

    def copy(self, state: GameState | None = None) -> Game:
        """An independent game with the same state, history and card names (a search's
        branch, or a root to hand to another worker): states are immutable, so the two
        share them, and each applies and undoes on its own from here.

        With ``state`` (e.g. a determinization, :func:`obverse.sample`): a game of the same
        ruleset and card names at ``state``, with no history, so :meth:`undo` never goes back
        past it to a state of this game."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin.history, twin._before = list(self.history), list(self._before)
        twin._last = dict(self._last)
        if state is not None:
            twin.state, twin.history, twin._before = state, [], []
        return twin

    def __copy__(self) -> Game:
        return self.copy()

    def do(self, verb: str, **fields: Any) -> Outcome:
        """Apply ``verb`` of this ruleset with ``fields``; card ids in object fields."""
        cls = self.ruleset.action_class(verb)
        if cls is None:
            raise InputError("", verb, f"not an action of {self.ruleset.name}")
        for name in cls.refs:
            value = fields.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                fields[name] = self._oid(value)
            elif isinstance(value, list | tuple):
                fields[name] = tuple(self._oid(x) if isinstance(x, int) else x for x in value)
        return self.apply(cls(**fields))

    # --- every verb -------------------------------------------------------------------------

    def move(self, card: int, to: str, **kwargs: Any) -> Outcome:
        """Move the card's object to zone ``to`` (:class:`obverse.vocab.Move`)."""
        return self.do("move", object=card, to=to, **kwargs)

    def cast(self, card: int, **kwargs: Any) -> Outcome:
        """Cast the card (``face=``, ``transformed=``, ``face_down=``)."""
        return self.do("cast", object=card, **kwargs)

    def play(self, card: int, **kwargs: Any) -> Outcome:
        """Play the card (a land, a FaB card ...)."""
        return self.do("play", object=card, **kwargs)

    def resolve(self, card: int) -> Outcome:
        """Resolve the card's object on the stack."""
        return self.do("resolve", object=card)

    def transform(self, card: int) -> Outcome:
        """Transform the card's permanent (MTG 701.27, GA 2)."""
        return self.do("transform", object=card)

    def flip(self, card: int) -> Outcome:
        """Flip a flip card (MTG 710.3)."""
        return self.do("flip", object=card)

    def meld(self, a: int, b: int) -> Outcome:
        """Meld two cards of a meld pair (MTG 701.42); ``answer`` is the new object id."""
        return self.do("meld", objects=(a, b))

    def awaken(self, card: int) -> Outcome:
        """Awaken (FaB 8.5.43)."""
        return self.do("awaken", object=card)

    def transcend(self, card: int) -> Outcome:
        """Transcend (FaB 8.5.48)."""
        return self.do("transcend", object=card)

    def mark(self, card: int) -> Outcome:
        """Mark a hero (FaB 8.5.50)."""
        return self.do("mark", object=card)

    def hit(self, hero: int, source: int) -> Outcome:
        """``source`` hits ``hero`` (FaB 9.3.3)."""
        return self.do("hit", hero=hero, source=source)

    def cross_test(self, card: int, target: int | None = None) -> Outcome:
        """Declare a cross test (SCP サイト上)."""
        return self.do("cross_test", object=card, target=target)

    def turn_face_down(self, card: int) -> Outcome:
        """Turn the card's object face down."""
        return self.do("turn_face_down", object=card)

    def turn_face_up(self, card: int) -> Outcome:
        """Turn the card's object face up."""
        return self.do("turn_face_up", object=card)

    def become_copy(self, card: int, of: int) -> Outcome:
        """The card's object becomes a copy of ``of``'s."""
        return self.do("become_copy", object=card, of=of)

    def create_token_copy(self, of: int, controller: str | None = None) -> Outcome:
        """A token copy of ``of`` enters; ``answer`` is the token's card id."""
        return self.do("create_token_copy", of=of, controller=controller)

    def apply_effect(
        self,
        label: str,
        *,
        to: int | dict[str, Any],
        modify: dict[str, Any],
        until: str | None = None,
        fixed: bool = False,
    ) -> Outcome:
        """A continuous effect on a card (``to`` a card id) or on a filter (``to`` a
        mapping, e.g. ``{"types": ["Creature"]}``)."""
        return self.do("apply_effect", label=label, to=to, modify=modify, until=until, fixed=fixed)

    def add_counters(self, card: int, counter: str, count: int = 1) -> Outcome:
        """Put counters on the card's object."""
        return self.do("add_counters", object=card, counter=counter, count=count)

    def change_control(self, card: int, to: str) -> Outcome:
        """``to`` gains control of the card's object."""
        return self.do("change_control", object=card, to=to)

    def reveal(self, card: int, to: tuple[str, ...] | None = None) -> Outcome:
        """Reveal the card (to every player by default)."""
        return self.do("reveal", object=card, to=to)

    def examine(self, player: str, card: int) -> Outcome:
        """``player`` looks at the card."""
        return self.do("examine", player=player, object=card)

    def shuffle(self, player: str, zone: str) -> Outcome:
        """Shuffle ``player``'s ``zone``."""
        return self.do("shuffle", player=player, zone=zone)

    def end_turn(self) -> Outcome:
        """End the turn."""
        return self.do("end_turn")

    def start_game(self) -> Outcome:
        """Begin the game (after a pregame setup)."""
        return self.do("start_game")

    # --- queries ----------------------------------------------------------------------------

    def _query(self, action: v.Action) -> Outcome:
        return apply(self.state, action, catalog=self.cards)

    def search(self, player: str, zone: str, where: dict[str, Any] | None = None) -> list[int]:
        """Card ids a search of ``player``'s ``zone`` finds (face-down cards by fronts)."""
        out = self._query(v.Search(player=player, zone=zone, where=where))
        return [self.state.objects[o].card for o in out.answer or ()]

    def select(self, player: str, zone: str, where: dict[str, Any] | None = None) -> list[int]:
        """Card ids a selection in ``player``'s ``zone`` finds (objects as they are)."""
        out = self._query(v.Select(player=player, zone=zone, where=where))
        return [self.state.objects[o].card for o in out.answer or ()]

    def name_card(self, name: str, player: str | None = None) -> bool:
        """Whether ``name`` may be chosen when naming a card."""
        who = player or self.state.players[0]
        return bool(self._query(v.NameCard(player=who, name=name)).answer)

    def check_card_pool(self, hero: int, cards: list[int | str]) -> bool:
        """Whether ``cards`` (card ids or names) may be in ``hero``'s card-pool (FaB 1.1.3)."""
        ids = tuple(self._oid(c) if isinstance(c, int) else c for c in cards)
        return bool(self._query(v.CheckCardPool(hero=self._oid(hero), cards=ids)).answer)

    def legal_actions(self, player: str | None) -> list[Legal]:
        """What the rules let ``player`` do now (:func:`obverse.engine.legal_actions`, the
        meld results from this game's cards), kept across this game's states: after a change
        only the offers of what changed are decided again."""
        return list(chain.from_iterable(self._offers.parts(self.state, player, self.cards)))

    def characteristics(self, card: int) -> Characteristics:
        """The card's object's characteristics now."""
        return characteristics(self.state, self.obj(card), self.ruleset)

    def view(self, viewer: str | None) -> dict[str, Any]:
        """``viewer``'s view of the game (``None``: a spectator)."""
        return view(self.state, viewer)
