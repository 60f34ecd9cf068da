"""States to JSON and back, unchanged: ``loads(dumps(state)) == state``."""

from __future__ import annotations

from typing import Any

import immutables
import msgspec

from obverse.cards import CardDef
from obverse.state import (
    CopyValues,
    Effect,
    GameObject,
    GameState,
    Knowledge,
    PhysicalCard,
    Zone,
)


class _Wire(msgspec.Struct, frozen=True):
    """GameState with its immutable maps as sorted lists of pairs."""

    ruleset: str
    players: tuple[str, ...]
    cards: list[tuple[int, PhysicalCard]]
    objects: list[tuple[int, GameObject]]
    card_object: list[tuple[int, int]]
    zones: list[tuple[str, tuple[int, ...]]]
    effects: tuple[Effect, ...]
    knowledge: tuple[Knowledge, ...]
    designations: tuple[tuple[str, int], ...]
    active: int
    turn: int
    next_id: int
    clock: int
    seed: int
    shuffles: int
    pregame: bool
    secret: bytes = b""
    shuffle_key: bytes = b""
    #: Zones shuffled at least once, with their counts (handles depend on them).
    zone_shuffles: list[tuple[str, int]] = []


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(_Wire)


def dumps(state: GameState) -> bytes:
    """The state as canonical JSON bytes."""
    wire = _Wire(
        ruleset=state.ruleset,
        players=state.players,
        cards=sorted(state.cards.items()),
        objects=sorted(state.objects.items()),
        card_object=sorted(state.card_object.items()),
        zones=sorted((k, z.ids()) for k, z in state.zones.items()),
        effects=state.effects,
        knowledge=state.knowledge,
        designations=state.designations,
        active=state.active,
        turn=state.turn,
        next_id=state.next_id,
        clock=state.clock,
        seed=state.seed,
        shuffles=state.shuffles,
        pregame=state.pregame,
        secret=state.secret,
        shuffle_key=state.shuffle_key,
        zone_shuffles=sorted((k, z.shuffles) for k, z in state.zones.items() if z.shuffles),
    )
    return _ENCODER.encode(wire)


def _effect_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _object(o: GameObject) -> GameObject:
    """An object as it was: listed face-down values (MTG 708.2) hold tuples, not lists."""
    if not o.face_down_values:
        return o
    values = tuple((k, _effect_value(v)) for k, v in o.face_down_values)
    return msgspec.structs.replace(o, face_down_values=values)


def _zones(w: _Wire) -> immutables.Map[str, Zone]:
    counts = dict(w.zone_shuffles)
    keys = {k for k, _ in w.zones}
    zones = {k: Zone.of(ids, counts.get(k, 0)) for k, ids in w.zones}
    for k, n in counts.items():
        if k not in keys:
            zones[k] = Zone.of((), n)
    return immutables.Map(zones)


def loads(data: bytes | str) -> GameState:
    """A state from :func:`dumps` output."""
    w = _DECODER.decode(data)
    effects = tuple(
        msgspec.structs.replace(
            e,
            modify=tuple((k, _effect_value(v)) for k, v in e.modify),
            filter=None if e.filter is None else tuple((k, _effect_value(v)) for k, v in e.filter),
        )
        for e in w.effects
    )
    return GameState(
        ruleset=w.ruleset,
        players=w.players,
        cards=immutables.Map(w.cards),
        objects=immutables.Map((i, _object(o)) for i, o in w.objects),
        card_object=immutables.Map(w.card_object),
        zones=_zones(w),
        effects=effects,
        knowledge=w.knowledge,
        designations=w.designations,
        active=w.active,
        turn=w.turn,
        next_id=w.next_id,
        clock=w.clock,
        seed=w.seed,
        shuffles=w.shuffles,
        pregame=w.pregame,
        secret=w.secret,
        shuffle_key=w.shuffle_key,
    )


__all__ = ["CardDef", "CopyValues", "dumps", "loads"]
