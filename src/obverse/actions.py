"""The functional API: one function per verb, each a typed action through the kernel.

``actions.move(state, obj_id, "graveyard")`` is ``apply(state, Move(object=obj_id,
to="graveyard"))``: the same checks (``forbid`` effects, names, references) as every other
surface. Plain verbs as in python-chess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.engine import apply, ruleset_of
from obverse.rulings import Outcome
from obverse.state import GameObject, GameState, PhysicalCard


def add_card(
    state: GameState,
    card: PhysicalCard,
    zone: str,
    *,
    face: str | None = None,
    face_down: bool | None = None,
    flipped: bool | None = None,
    controller: str | None = None,
    position: str | None = None,
) -> tuple[GameState, int]:
    """Bring a physical card (or token) into the game in ``zone``; returns the card id.
    The ruleset fills in the face, facing and flip status the zone gives it."""
    rs = ruleset_of(state)
    return rs.add_card(
        state,
        card.card,
        rs.canonical_zone(zone),
        owner=card.owner,
        controller=controller,
        face=face,
        face_down=face_down,
        flipped=flipped,
        token=card.token,
        position=position,
    )


def move(
    state: GameState,
    obj_id: int,
    to: str,
    *,
    face: Any = None,
    face_down: bool | None = None,
    transformed: bool | None = None,
    position: Any = None,
) -> Outcome:
    """Move an object to a zone (:class:`obverse.vocab.Move`)."""
    return apply(
        state,
        v.Move(
            object=obj_id,
            to=to,
            face=face,
            face_down=face_down,
            transformed=transformed,
            position=position,
        ),
    )


def cast(
    state: GameState,
    obj_id: int,
    *,
    face: Any = None,
    transformed: bool = False,
    face_down: bool = False,
    action: str = "cast",
) -> Outcome:
    """Cast (or, with ``action="play"``, play) a card (:class:`obverse.vocab.Cast`)."""
    cls = v.Play if action == "play" else v.Cast
    return apply(state, cls(object=obj_id, face=face, transformed=transformed, face_down=face_down))


def resolve(state: GameState, obj_id: int) -> Outcome:
    """The object on the stack resolves."""
    return apply(state, v.Resolve(object=obj_id))


def transform(state: GameState, obj_id: int) -> Outcome:
    """Turn a double-faced permanent over (MTG 701.27, GA 2)."""
    return apply(state, v.Transform(object=obj_id))


def turn_face_down(state: GameState, obj_id: int) -> Outcome:
    """Turn an object face down."""
    return apply(state, v.TurnFaceDown(object=obj_id))


def turn_face_up(state: GameState, obj_id: int) -> Outcome:
    """Turn a face-down object face up."""
    return apply(state, v.TurnFaceUp(object=obj_id))


def become_copy(state: GameState, obj_id: int, of_id: int) -> Outcome:
    """``obj`` becomes a copy of ``of``."""
    return apply(state, v.BecomeCopy(object=obj_id, of=of_id))


def create_token_copy(
    state: GameState, of_id: int, controller: str | None = None
) -> tuple[Outcome, int]:
    """A token that is a copy of ``of`` enters; returns the outcome and its card id (0 if
    none was made)."""
    out = apply(state, v.CreateTokenCopy(of=of_id, controller=controller))
    return out, int(out.answer or 0)


def apply_effect(
    state: GameState,
    label: str,
    *,
    target: int | None = None,
    where: Mapping[str, Any] | None = None,
    modify: Mapping[str, Any],
    until_end_of_turn: bool = False,
    fixed: bool = False,
) -> Outcome:
    """Start a continuous effect on one object (``target``) or on what matches ``where``."""
    to: int | dict[str, Any] = target if target is not None else dict(where or {})
    return apply(
        state,
        v.ApplyEffect(
            label=label,
            to=to,
            modify=dict(modify),
            until="end_of_turn" if until_end_of_turn else None,
            fixed=fixed,
        ),
    )


def add_counters(state: GameState, obj_id: int, counter: str, count: int = 1) -> Outcome:
    """Put ``count`` counters named ``counter`` on an object."""
    return apply(state, v.AddCounters(object=obj_id, counter=counter, count=count))


def change_control(state: GameState, obj_id: int, player: str) -> Outcome:
    """``player`` gains control of the object."""
    return apply(state, v.ChangeControl(object=obj_id, to=player))


def reveal(state: GameState, obj_id: int, to: Sequence[str] | None = None) -> Outcome:
    """Reveal a card to ``to`` (default: every player)."""
    return apply(state, v.Reveal(object=obj_id, to=tuple(to) if to else None))


def examine(state: GameState, player: str, obj_id: int) -> Outcome:
    """``player`` looks at (both faces of) a card they may look at."""
    return apply(state, v.Examine(player=player, object=obj_id))


def shuffle(state: GameState, player: str, zone: str) -> Outcome:
    """Shuffle ``player``'s ``zone``."""
    return apply(state, v.Shuffle(player=player, zone=zone))


def end_turn(state: GameState) -> Outcome:
    """The turn ends."""
    return apply(state, v.EndTurn())


def start_game(state: GameState) -> Outcome:
    """The game begins (a state set up with ``pregame``)."""
    return apply(state, v.StartGame())


def is_forbidden(state: GameState, obj: GameObject, action: str) -> bool:
    """Whether an effect says ``obj`` can't do or undergo ``action``."""
    return ruleset_of(state).is_forbidden(state, obj, action)


def objects_in(state: GameState, zone: str, owner: str | None = None) -> Iterable[GameObject]:
    """Objects in ``zone`` (owned by ``owner``, or every player's for owned zones)."""
    rs = ruleset_of(state)
    for obj in state.iter_objects():
        if rs.zone_matches(obj.zone, zone) and (
            owner is None or rs.is_shared(obj.zone) or obj.owner == owner
        ):
            yield obj


__all__ = [
    "CardDef",
    "add_card",
    "add_counters",
    "apply_effect",
    "become_copy",
    "cast",
    "change_control",
    "create_token_copy",
    "end_turn",
    "examine",
    "is_forbidden",
    "move",
    "objects_in",
    "resolve",
    "reveal",
    "shuffle",
    "start_game",
    "transform",
    "turn_face_down",
    "turn_face_up",
]
