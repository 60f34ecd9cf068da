"""The shared actions: each takes a state and returns an :class:`~obverse.rulings.Outcome`.

The procedures are generic; every game-specific decision is a :class:`Ruleset` hook. Plain
verbs as in python-chess: ``move``, ``cast``, ``resolve``, ``transform``, ``turn_face_down``,
``become_copy`` ...
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from obverse.characteristics import characteristics
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import DONE, ILLEGAL, NOTHING, Event, Outcome, Ruling
from obverse.state import CopyValues, Effect, GameObject, GameState, Knowledge, PhysicalCard

replace = msgspec.structs.replace


def ruleset_of(state: GameState) -> Ruleset:
    """The ruleset instance a state is played under."""
    return get_ruleset(state.ruleset)


# --- low-level state edits -----------------------------------------------------------------


def tick(state: GameState) -> tuple[GameState, int]:
    """Advance the timestamp clock; returns the new state and the new timestamp."""
    return replace(state, clock=state.clock + 1), state.clock + 1


def new_object_id(state: GameState) -> tuple[GameState, int]:
    """A fresh object id."""
    return replace(state, next_id=state.next_id + 1), state.next_id


def place(state: GameState, obj: GameObject, position: str | None = None) -> GameState:
    """Put ``obj`` into its zone (top unless ``position == "bottom"``) and the object table."""
    rs = ruleset_of(state)
    key = rs.zone_key(obj.zone, obj.owner)
    contents = state.zones.get(key, ())
    contents = (*contents, obj.id) if position == "bottom" else (obj.id, *contents)
    card_object = state.card_object
    for card in obj.cards:
        card_object = card_object.set(card, obj.id)
    return replace(
        state,
        zones=state.zones.set(key, contents),
        objects=state.objects.set(obj.id, obj),
        card_object=card_object,
    )


def remove(state: GameState, obj: GameObject) -> GameState:
    """Take ``obj`` out of its zone and the object table (its cards keep no object)."""
    key = ruleset_of(state).zone_key(obj.zone, obj.owner)
    contents = state.zones[key]
    i = contents.index(obj.id)
    contents = contents[:i] + contents[i + 1 :]
    zones = state.zones.set(key, contents) if contents else state.zones.delete(key)
    card_object = state.card_object
    for card in obj.cards:
        if card_object.get(card) == obj.id:
            card_object = card_object.delete(card)
    return replace(
        state, zones=zones, objects=state.objects.delete(obj.id), card_object=card_object
    )


def update(state: GameState, obj: GameObject) -> GameState:
    """Replace an object in place (same id, same zone position)."""
    return replace(state, objects=state.objects.set(obj.id, obj))


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
    return replace(state, effects=effects, knowledge=knowledge, designations=designations)


def is_forbidden(state: GameState, obj: GameObject, action: str) -> bool:
    """Whether an effect says ``obj`` can't do or undergo ``action``."""
    if not state.effects:
        return False
    rs = ruleset_of(state)
    chars = None
    for effect in state.effects:
        for key, value in effect.modify:
            if key != "forbid" or action not in (value if isinstance(value, list | tuple) else ()):
                continue
            if effect.target is not None or effect.fixed is not None or effect.filter is None:
                if effect.target == obj.id or (effect.fixed and obj.id in effect.fixed):
                    return True
                continue
            from obverse.characteristics import applies_to

            chars = chars or characteristics(state, obj, rs)
            if applies_to(state, effect, obj, chars, rs):
                return True
    return False


def add_card(
    state: GameState,
    card: PhysicalCard,
    zone: str,
    *,
    face: str,
    face_down: bool = False,
    flipped: bool = False,
    controller: str | None = None,
    position: str | None = None,
) -> tuple[GameState, int]:
    """Bring a physical card (or token) into the game in ``zone``; returns the card id."""
    card_id = len(state.cards) + 1
    while card_id in state.cards:
        card_id += 1
    state = replace(state, cards=state.cards.set(card_id, card))
    state, oid = new_object_id(state)
    state, ts = tick(state)
    rs = ruleset_of(state)
    if not (rs.is_in_play(zone) or zone == rs.stack_zone):
        controller = None  # outside play the controller is the owner
    obj = GameObject(
        id=oid,
        cards=(card_id,),
        zone=zone,
        owner=card.owner,
        controller=controller or card.owner,
        face=face,
        face_down=face_down,
        set_face_down=face_down,
        flipped=flipped,
        token=card.token,
        timestamp=ts,
    )
    return place(state, obj, position), card_id


# --- actions --------------------------------------------------------------------------------


def move(
    state: GameState,
    obj_id: int,
    to: str,
    *,
    face: str | None = None,
    face_down: bool | None = None,
    transformed: bool | None = None,
    position: str | None = None,
    controller: str | None = None,
    face_fixed: str | None = None,
) -> Outcome:
    """Move an object to a zone (dies, bounce, exile, blink ...). The ruleset decides the
    destination really reached, the face, the facing and whether it is a new object.

    ``face_fixed`` is a face the rules already chose (casting, playing, resolving)."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    rulings: list[Ruling] = []
    if is_forbidden(state, obj, "move"):
        return Outcome(state, NOTHING, (rs.ruling("effect", "an effect says it can't move"),))
    dest, why = rs.destination(state, obj, to, transformed)
    rulings += why
    if dest == obj.zone:  # a ruleset may give same-zone moves their own meaning (FaB 3.0.7b)
        within = rs.move_within_zone(state, obj, face_down, position)
        if within is not None:
            return Outcome(within.state, within.result, (*rulings, *within.rulings), within.events)
    if dest == obj.zone and (face_down is None or face_down == obj.face_down) and position is None:
        rulings += rs.same_zone_rulings()
        return Outcome(state, NOTHING, tuple(rulings))
    if face_fixed is not None:
        new_face: str | None = face_fixed
    else:
        new_face, why = rs.face_on_move(state, obj, dest, face, transformed)
        rulings += why
    if new_face is None:
        return Outcome(state, NOTHING, tuple(rulings))
    fd, why = rs.face_down_on_move(state, obj, dest, face_down)
    rulings += why
    is_new, why = rs.is_new_object(state, obj, dest)
    rulings += why
    rulings += rs.leave_rulings(state, obj, dest)
    events = [Event("move", obj.id, obj.card, obj.controller, obj.zone, dest)]
    state = remove(state, obj)
    if obj.meld is not None and not rs.is_in_play(dest):
        state = forget(state, obj.id)
        for card in obj.cards:
            single = replace(obj, cards=(card,), meld=None, copies=(), counters=())
            f, _ = rs.face_on_move(state, single, dest, None, None)
            state, oid = new_object_id(state)
            state, ts = tick(state)
            state = place(
                state,
                replace(
                    single,
                    id=oid,
                    zone=dest,
                    face=f or "front",
                    face_down=fd,
                    set_face_down=fd,
                    flipped=False,
                    controller=single.owner,
                    timestamp=ts,
                ),
                position,
            )
        return Outcome(state, DONE, tuple(rulings), tuple(events))
    if obj.token and rs.tokens_cease_outside_play and not rs.is_in_play(dest):
        state = forget(state, obj.id)
        rulings += rs.token_ceases_rulings()
        return Outcome(state, DONE, tuple(rulings), (*events, Event("cease", obj.id, obj.card)))
    ts = state.clock + 1
    if is_new:
        state = forget(state, obj.id)
        oid = state.next_id
        state = replace(state, clock=ts, next_id=oid + 1)
        new = GameObject(
            id=oid,
            cards=obj.cards,
            zone=dest,
            owner=obj.owner,
            controller=controller or obj.owner,
            face=new_face,
            face_down=fd,
            set_face_down=fd,
            token=obj.token,
            timestamp=ts,
        )
    else:
        state = replace(state, clock=ts)
        new = replace(
            obj,
            zone=dest,
            face=new_face,
            face_down=fd,
            set_face_down=fd and (obj.set_face_down or bool(face_down)),
            controller=controller or obj.controller,
            timestamp=ts,
        )
    if not rs.is_in_play(dest) and dest != rs.stack_zone:
        new = replace(new, controller=new.owner)
    shown = (
        face_down is False
        and not fd
        and rs.public_objects_in_private_zones
        and not rs.is_public(dest)
    )
    if shown != new.shown:
        new = replace(new, shown=shown)
    state = rs.after_move(place(state, new, position), obj, new)
    return Outcome(state, DONE, tuple(rulings), tuple(events))


def cast(
    state: GameState,
    obj_id: int,
    *,
    face: str | None = None,
    transformed: bool = False,
    face_down: bool = False,
    action: str = "cast",
) -> Outcome:
    """Cast or play a card: onto the stack (or, per game, straight into play) with a face
    choice where the rules allow one. Only face rules are checked, never timing or cost."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    result, zone, new_face, rulings = rs.cast(state, obj, face, transformed, face_down, action)
    if result != DONE:
        return Outcome(state, result, rulings)
    out = move(
        state, obj_id, zone, face_fixed=new_face, face_down=face_down, controller=obj.controller
    )
    return Outcome(
        out.state,
        out.result if out.result != NOTHING else DONE,
        (*rulings, *out.rulings),
        out.events,
    )


def resolve(state: GameState, obj_id: int) -> Outcome:
    """The object on the stack resolves: into play per the rules, or to the graveyard."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    from obverse.errors import RulesError

    if obj.zone != rs.stack_zone:
        raise RulesError(f"the object is in {obj.zone}, not on the stack")
    zone, face, rulings = rs.resolve(state, obj)
    out = move(
        state, obj_id, zone, face_fixed=face, face_down=obj.face_down, controller=obj.controller
    )
    return Outcome(out.state, DONE, (*rulings, *out.rulings), out.events)


def transform(state: GameState, obj_id: int) -> Outcome:
    """Turn a double-faced permanent over (MTG 701.27, GA 2): not a new object."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    if is_forbidden(state, obj, "transform"):
        return Outcome(
            state,
            NOTHING,
            (rs.ruling(rs.forbid_rule, "an effect says it can't transform; nothing happens"),),
        )
    ok, rulings = rs.can_transform(state, obj)
    if not ok:
        return Outcome(state, NOTHING, rulings)
    state, ts = tick(state)
    new_face = "front" if obj.face == "back" else "back"
    state = update(state, replace(obj, face=new_face, timestamp=ts))
    return Outcome(
        state,
        DONE,
        (*rulings, *rs.transform_rulings(state, obj)),
        (Event("transform", obj.id, obj.card, obj.controller),),
    )


def turn_face_down(state: GameState, obj_id: int) -> Outcome:
    """Turn an object face down (MTG 708, 712.16; GA 8; SCP)."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    ok, rulings = rs.can_turn_face_down(state, obj)
    if not ok:
        return Outcome(state, NOTHING, rulings)
    state, ts = tick(state)
    state = update(
        state, replace(obj, face_down=True, set_face_down=True, shown=False, timestamp=ts)
    )
    knowledge = tuple(k for k in state.knowledge if k.obj != obj.id or k.lasting)
    state = rs.after_turn_face_down(replace(state, knowledge=knowledge), obj)
    return Outcome(state, DONE, rulings, (Event("turn_face_down", obj.id, None, obj.controller),))


def turn_face_up(state: GameState, obj_id: int) -> Outcome:
    """Turn a face-down object face up (MTG 708.8, 712.15a: front face up)."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    ok, rulings = rs.can_turn_face_up(state, obj)
    if not ok:
        return Outcome(state, NOTHING, rulings)
    state, ts = tick(state)
    state = update(
        state,
        replace(
            obj,
            face_down=False,
            set_face_down=False,
            shown=rs.public_objects_in_private_zones and not rs.is_public(obj.zone),
            face=rs.face_after_face_up(state, obj),
            timestamp=ts,
        ),
    )
    return Outcome(state, DONE, rulings, (Event("turn_face_up", obj.id, obj.card, obj.controller),))


def become_copy(state: GameState, obj_id: int, of_id: int) -> Outcome:
    """``obj`` becomes a copy of ``of``: the copiable values of its current face(s)."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    values, rulings = rs.copiable_values(state, state.objects[of_id])
    rulings += rs.become_copy_rulings(state, obj)
    state, ts = tick(state)
    state = update(state, replace(obj, copies=(*obj.copies, values), timestamp=ts))
    return Outcome(state, DONE, rulings, (Event("copy", obj.id, obj.card, obj.controller),))


def create_token_copy(
    state: GameState,
    of_id: int,
    controller: str | None = None,
) -> tuple[Outcome, int]:
    """A token that is a copy of ``of`` enters the play zone; returns its card id too."""
    rs = ruleset_of(state)
    of = state.objects[of_id]
    who = controller or of.controller
    card, face, values, rulings = rs.token_copy(state, of)
    state, card_id = add_card(
        state,
        PhysicalCard(card=card, owner=who, token=True),
        rs.play_zone,
        face=face,
        controller=who,
    )
    obj = state.object_of_card(card_id)
    assert obj is not None
    state = update(state, replace(obj, copies=(values,)))
    return Outcome(state, DONE, rulings, (Event("create_token", obj.id, card_id, who),)), card_id


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
    """Start a continuous effect on one object or on whatever matches a filter."""
    rs = ruleset_of(state)
    state, ts = tick(state)
    zone = None
    filt = None
    fixed_ids: tuple[int, ...] | None = None
    if where is not None:
        zone = where.get("zone")
        filt = tuple(
            (k, tuple(v) if isinstance(v, list) else v) for k, v in where.items() if k != "zone"
        )
    effect = Effect(
        label=label,
        target=target,
        filter=filt,
        modify=tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in modify.items()),
        until_end_of_turn=until_end_of_turn,
        timestamp=ts,
        zone=zone,
    )
    if fixed and filt is not None:
        from obverse.characteristics import applies_to

        fixed_ids = tuple(
            o.id
            for o in state.iter_objects()
            if applies_to(state, effect, o, characteristics(state, o, rs), rs)
        )
        effect = replace(effect, fixed=fixed_ids)
    state = replace(state, effects=(*state.effects, effect))
    return Outcome(state, DONE, rs.effect_rulings(state, effect))


def add_counters(state: GameState, obj_id: int, counter: str, count: int = 1) -> Outcome:
    """Put ``count`` counters named ``counter`` on an object."""
    obj = state.objects[obj_id]
    if count == 0:
        return Outcome(state, NOTHING)
    counters = dict(obj.counters)
    counters[counter] = counters.get(counter, 0) + count
    state = update(state, replace(obj, counters=tuple(sorted(counters.items()))))
    return Outcome(
        state,
        DONE,
        (),
        (Event("counters", obj.id, obj.card, None, None, None, f"{counter}+{count}"),),
    )


def change_control(state: GameState, obj_id: int, player: str) -> Outcome:
    """``player`` gains control of the object."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    if obj.controller == player:
        return Outcome(state, NOTHING)
    state = update(state, replace(obj, controller=player))
    state = rs.after_control_change(state, obj, player)
    return Outcome(state, DONE, (), (Event("control", obj.id, obj.card, player),))


def reveal(state: GameState, obj_id: int, to: Sequence[str] | None = None) -> Outcome:
    """Reveal a card: the players may identify it until it moves, turns face down or is
    shuffled."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    ok, why = rs.can_reveal(state, obj)
    if not ok:
        return Outcome(state, NOTHING, why)
    players = tuple(to) if to else state.players
    if all(rs.may_look(state, p, obj) or rs.knows(state, p, obj) for p in players):
        return Outcome(state, NOTHING)  # everyone it is shown to may already see it
    known = {(k.player, k.obj) for k in state.knowledge}
    new = tuple(
        Knowledge(
            player=p,
            card=obj.card,
            obj=obj.id,
            lasting=rs.reveal_knowledge_lasts,
            since=state.clock,
        )
        for p in players
        if (p, obj.id) not in known
    )
    state = replace(state, knowledge=(*state.knowledge, *new))
    return Outcome(
        state,
        DONE,
        rs.reveal_rulings(state, obj),
        (Event("reveal", obj.id, obj.card, None, None, None, ",".join(players)),),
    )


def examine(state: GameState, player: str, obj_id: int) -> Outcome:
    """``player`` looks at (both faces of) a card they may look at; never a transform."""
    rs = ruleset_of(state)
    obj = state.objects[obj_id]
    ok, rulings = rs.can_examine(state, player, obj)
    if not ok:
        return Outcome(state, ILLEGAL, rulings)
    knows = any(k.player == player and k.obj == obj.id for k in state.knowledge)
    if not knows and rs.examine_records_knowledge:
        seen = Knowledge(
            player=player, card=obj.card, obj=obj.id, since=state.clock, lasting=rs.knowledge_lasts
        )
        state = replace(state, knowledge=(*state.knowledge, seen))
    return Outcome(state, DONE, rulings)


def shuffle(state: GameState, player: str, zone: str) -> Outcome:
    """Shuffle a zone with the state's seeded generator; knowledge of its cards ends."""
    rs = ruleset_of(state)
    key = rs.zone_key(zone, player)
    contents = list(state.zones.get(key, ()))
    rng = random.Random(f"{state.seed}:{state.shuffles}")
    rng.shuffle(contents)
    ids = set(contents)
    knowledge = tuple(k for k in state.knowledge if k.obj not in ids)
    state = replace(
        state,
        zones=state.zones.set(key, tuple(contents)) if contents else state.zones,
        shuffles=state.shuffles + 1,
        knowledge=knowledge,
    )
    state = rs.after_shuffle(state, player, zone)
    return Outcome(state, DONE, (), (Event("shuffle", None, None, player, zone),))


def end_turn(state: GameState) -> Outcome:
    """ "Until end of turn" effects end; the next player becomes active."""
    effects = tuple(e for e in state.effects if not e.until_end_of_turn)
    state = replace(
        state, effects=effects, active=(state.active + 1) % len(state.players), turn=state.turn + 1
    )
    state = ruleset_of(state).on_end_turn(state)
    return Outcome(state, DONE, (), (Event("end_turn"),))


def start_game(state: GameState) -> Outcome:
    """The game begins (scenarios with ``pregame: true``)."""
    if not state.pregame:
        return Outcome(state, NOTHING)
    state = ruleset_of(state).on_start_game(replace(state, pregame=False))
    return Outcome(state, DONE, (), (Event("start_game"),))


def objects_in(state: GameState, zone: str, owner: str | None = None) -> Iterable[GameObject]:
    """Objects in ``zone`` (owned by ``owner``, or every player's for owned zones)."""
    rs = ruleset_of(state)
    for obj in state.iter_objects():
        if rs.zone_matches(obj.zone, zone) and (
            owner is None or rs.is_shared(obj.zone) or obj.owner == owner
        ):
            yield obj


__all__ = [
    "CopyValues",
    "add_card",
    "add_counters",
    "apply_effect",
    "become_copy",
    "cast",
    "change_control",
    "create_token_copy",
    "end_turn",
    "examine",
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
