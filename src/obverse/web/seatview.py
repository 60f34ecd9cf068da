"""What each seat sees of a web table, built from what the seat saw of the table before.

A new table version changes few objects, so each seat keeps, per object, what was built for
it (its handle, its entry of the state answer) with everything that entry was built from,
and reuses it while all of that is the very same: a version costs a lookup per unchanged
object and a build per changed one. Everything kept is per seat (hidden information never
crosses seats) and shared by the tables of one game (see :meth:`Table.append
<obverse.web.table.Table.append>`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from operator import is_, itemgetter
from typing import Any

from obverse.characteristics import characteristics
from obverse.memo import ByIdentity
from obverse.rulesets import Ruleset
from obverse.rulesets.labels import namer_for
from obverse.state import GameObject, GameState, Zone
from obverse.views import changed_objects, chars_dict, handle, is_visible, status_dict, view
from obverse.web.store import JUDGE, SPECTATOR

#: A handle's inputs besides the game's key and the viewer: object id, zone, facing, and
#: the zone's shuffle count (see :func:`obverse.views.handle`).
HandleKey = tuple[int, str, bool, int]
#: A player's kept zone: the view's entries (a copy of its list), the card table, the objects
#: behind the entries, and the zone with ``ref`` and printed faces added.
_PlayerZone = tuple[list[dict[str, Any]], Any, list[GameObject], dict[str, Any]]
#: The judge's kept entry, per object: its label, its characteristics (the cached value, kept
#: alive), the card table, the ruleset's name, the seats it is hidden from, the entry.
_JudgeKept = tuple[str | None, Any, Any, str, list[str], dict[str, Any]]

_handle_of = itemgetter("handle")

#: Kept entries per seat beyond this many times the objects (plus a margin) are dropped.
_SPARE = 4
_MARGIN = 1024


@dataclass
class SeatParts:
    """What each seat was given of a game's tables, by what it was built from."""

    #: The game's handle key the handles were made with (a new one drops them).
    secret: bytes | None = None
    #: Per seat: each handle by its inputs.
    handles: dict[str, dict[HandleKey, str]] = field(default_factory=dict)
    #: Per seat: the state of its last handles, those handles, and each object's handle.
    last_handles: dict[str, tuple[GameState, dict[str, GameObject], dict[int, str]]] = field(
        default_factory=dict
    )
    #: Per player or spectator seat: per view entry (with the object and the card table it
    #: was made with) the entry with ``ref`` and the printed faces.
    entries: dict[str, ByIdentity[dict[str, Any]]] = field(default_factory=dict)
    #: Per player or spectator seat: each zone's part of its last answer, by zone and owner.
    zones: dict[str, dict[tuple[str, str | None], _PlayerZone]] = field(default_factory=dict)
    #: Per seat: the names it can't identify and can, in the last state asked.
    names: dict[str, _Names] = field(default_factory=dict)
    #: The judge's: per object, what was made of it.
    judge: ByIdentity[_JudgeKept] = field(default_factory=ByIdentity)
    #: The state the judge was last answered for (every object of it has its entry kept),
    #: the labels then, and each zone's part then (with the zone it was made of).
    judge_state: GameState | None = None
    judge_labels: Mapping[int, str] = field(default_factory=dict)
    judge_zones: dict[str, tuple[Zone, dict[str, Any]]] = field(default_factory=dict)

    def check_secret(self, secret: bytes) -> None:
        """Forget the handles if the game's key is not the one they were made with."""
        if secret != self.secret:
            self.secret = secret
            self.handles.clear()
            self.last_handles.clear()


def _bounded(kept: dict[Any, Any] | ByIdentity[Any], objects: int) -> None:
    """Drop a seat's kept parts once they far outnumber the objects (old versions' parts)."""
    if len(kept) > _SPARE * objects + _MARGIN:
        kept.clear()


def _shuffles(state: GameState, obj: GameObject) -> int:
    """The shuffle count of the zone holding ``obj`` (0 if no zone holds it), as
    :func:`obverse.views.handle` counts it."""
    try:
        return state.zones[state.zone_key_of(obj)].shuffles
    except KeyError:
        return 0


def seat_handles(
    parts: SeatParts, state: GameState, seat: str, viewer: str | None
) -> dict[str, GameObject]:
    """Every object by the seat's handle of it. A handle is hashed once per set of inputs,
    and only the objects changed since the seat's last handles (per :func:`obverse.views`'
    change set: a handle's inputs are the object's id, zone and facing, which its trail
    follows, and its zone's shuffles, which the change set counts) are looked at."""
    parts.check_secret(state.secret)
    memo = parts.handles.setdefault(seat, {})
    _bounded(memo, len(state.objects))
    last = parts.last_handles.get(seat)
    changed = None if last is None else changed_objects(last[0], state)
    objects = state.objects
    found: dict[str, GameObject]
    if changed is None or last is None:
        found, by_id, todo = {}, {}, list(objects.values())
    else:
        found, by_id = dict(last[1]), dict(last[2])
        for oid in changed:
            gone = by_id.pop(oid, None)
            if gone is not None:
                del found[gone]
        todo = [objects[i] for i in changed if i in objects]
    # Zones are looked up only for objects of a shuffled zone (most have a zero count).
    shuffled = {oid for z in state.zones.values() if z.shuffles for oid in z.rank_of}
    for o in todo:
        shuffles = _shuffles(state, o) if o.id in shuffled else 0
        key = (o.id, o.zone, o.face_down, shuffles)
        h = memo.get(key)
        if h is None:
            h = memo[key] = handle(state, viewer, o, shuffles)
        found[h] = o
        by_id[o.id] = h
    parts.last_handles[seat] = (state, found, by_id)
    return found


def player_view(
    parts: SeatParts,
    state: GameState,
    seat: str,
    viewer: str | None,
    objs: dict[str, GameObject],
    printed: Callable[[GameObject], dict[str, Any]],
) -> dict[str, Any]:
    """:func:`obverse.views.view` with ``ref`` and, for an identified object, the printed
    faces added to each entry. ``objs``: the seat's handles; ``printed``: an object's faces.

    The view's entries are never changed once made (views share them), so an entry made
    from the very same view entry, object and card table is the same and is reused, and so
    is a zone whose entries and objects are all the very same (compared in C, one pointer
    per object: no entry is built or looked up)."""
    base = view(state, viewer)
    kept = parts.entries.get(seat)
    if kept is None:
        kept = parts.entries[seat] = ByIdentity()
    _bounded(kept, len(state.objects))
    last = parts.zones.get(seat, {})
    new: dict[tuple[str, str | None], _PlayerZone] = {}
    cards = state.cards
    zones = []
    for z in base["zones"]:
        ents: list[dict[str, Any]] = z["objects"]
        key = (z["zone"], z["owner"])
        part = last.get(key)
        if (
            part is None
            or part[1] is not cards
            or len(part[0]) != len(ents)
            or not all(map(is_, ents, part[0]))
            or not all(map(is_, map(objs.__getitem__, map(_handle_of, ents)), part[2]))
        ):
            part = _player_zone(kept, z, objs, cards, printed)
        new[key] = part
        zones.append(part[3])
    parts.zones[seat] = new
    out = dict(base)
    out["zones"] = zones
    return out


def _player_zone(
    kept: ByIdentity[dict[str, Any]],
    z: dict[str, Any],
    objs: dict[str, GameObject],
    cards: Any,
    printed: Callable[[GameObject], dict[str, Any]],
) -> _PlayerZone:
    """One zone of a player's view, each entry reused if made from the very same view
    entry, object and card table. The view's entry list is copied, not kept: views patch a
    list in place when nothing else holds it."""
    objects = []
    found = []
    for e in z["objects"]:
        o = objs[e["handle"]]
        found.append(o)
        entry = kept.get(e, o, cards)
        if entry is None:
            entry = dict(e)
            entry["ref"] = e["handle"]
            if e["visible"]:
                entry.update(printed(o))
            kept.put(entry, e, o, cards)
        objects.append(entry)
    return (list(z["objects"]), cards, found, {**z, "objects": objects})


def _judge_entry(
    state: GameState,
    rs: Ruleset,
    o: GameObject,
    label: str | None,
    chars: Any,
    *,
    hidden: list[str],
    printed: Callable[[GameObject], dict[str, Any]],
) -> dict[str, Any]:
    """One object as the judge sees it (``hidden``: the seats it is hidden from)."""
    entry: dict[str, Any] = {
        "ref": label,
        "visible": True,
        "zone": o.zone,
        "owner": o.owner,
        "controller": o.controller,
    }
    entry.update(chars_dict(chars, rs))
    entry.update(status_dict(state, o, rs))
    entry["why"] = [r.rule for r in chars.why]  # as a player's view has it (views.py)
    card = state.card_def(o)
    entry["card"] = card.name
    if len(card.faces) > 1:
        entry["faces"] = [f.name for f in card.faces]
    entry.update(printed(o))
    entry["hidden_from"] = hidden
    return entry


def _changed_since(last: GameState | None, state: GameState, rs: Ruleset) -> set[int] | None:
    """The objects whose judge's entries may differ between ``last`` and ``state``: those
    whose player view entries may (:mod:`obverse.views` finds them by the state's trail,
    effects, knowledge, designations and shuffles, and a judge's entry is made of nothing
    else but a label); None: ask every object."""
    if last is None:
        return None
    changed = changed_objects(last, state)
    if changed:
        changed |= rs.view_dependents(state, changed)
    return changed


def _judge_object(
    kept: ByIdentity[_JudgeKept],
    state: GameState,
    rs: Ruleset,
    o: GameObject,
    label: str | None,
    printed: Callable[[GameObject], dict[str, Any]],
) -> dict[str, Any]:
    """The judge's entry of ``o``, reused if made from the very same inputs."""
    chars = characteristics(state, o, rs)
    seats: list[str | None] = [*state.players, None]
    hidden = [s or SPECTATOR for s in seats if not is_visible(state, s, o, rs)]
    k = kept.get(o)
    if (
        k is None
        or k[0] != label
        or k[1] is not chars
        or k[2] is not state.cards
        or k[3] != state.ruleset
        or k[4] != hidden
    ):
        entry = _judge_entry(state, rs, o, label, chars, hidden=hidden, printed=printed)
        k = kept.put((label, chars, state.cards, state.ruleset, hidden, entry), o)
    return k[5]


def judge_view(
    parts: SeatParts,
    state: GameState,
    rs: Ruleset,
    labels: Mapping[int, str],
    printed: Callable[[GameObject], dict[str, Any]],
) -> dict[str, Any]:
    """Everything: the true characteristics and status of every object, with labels
    (``labels``: object id -> label; an object without one has ``ref`` null).

    An object's entry is made from the object (immutable: unchanged objects are the same
    instances across versions), its label, its characteristics (the cached value: the very
    same while the object, effects, card table and designations are), the card table, and
    the seats it is hidden from. Objects unchanged since the last state the judge was
    answered (see :func:`_changed_since`) reuse their entry after a label check, and a zone
    (the same immutable zone) of such objects, with no label changed, its whole part; the
    others check every input."""
    kept = parts.judge
    _bounded(kept, len(state.objects))
    changed = _changed_since(parts.judge_state, state, rs)
    same_labels = changed is not None and parts.judge_labels == labels
    last_zones, new_zones = parts.judge_zones, {}
    zones = []
    for key in sorted(state.zones.keys()):
        ids = state.zones[key]
        if not ids:
            continue
        part = last_zones.get(key)
        reuse = (
            part is not None
            and part[0] is ids
            and same_labels
            and changed is not None
            and changed.isdisjoint(ids.rank_of)
        )
        if part is None or not reuse:
            made = _judge_zone(kept, state, rs, key, labels, printed=printed, changed=changed)
            part = (ids, made)
        new_zones[key] = part
        zones.append(part[1])
    # Every object of this state now has its entry for it: the next state is compared to it.
    parts.judge_state, parts.judge_labels, parts.judge_zones = state, labels, new_zones
    return {
        "ruleset": rs.name,
        "viewer": JUDGE,
        "players": list(state.players),
        "active": state.active_player,
        "turn": state.turn,
        "pregame": state.pregame,
        "zones": zones,
    }


def _judge_zone(
    kept: ByIdentity[_JudgeKept],
    state: GameState,
    rs: Ruleset,
    key: str,
    labels: Mapping[int, str],
    *,
    printed: Callable[[GameObject], dict[str, Any]],
    changed: set[int] | None,
) -> dict[str, Any]:
    """One zone of the judge's view (``changed``: see :func:`judge_view`)."""
    ids = state.zones[key]
    owner, _, zone = key.rpartition(":")
    objs = []
    for oid in ids:
        o = state.objects[oid]
        label = labels.get(oid)
        if changed is not None and oid not in changed:
            k = kept.get(o)
            if k is not None and k[0] == label:
                objs.append(k[5])
                continue
        objs.append(_judge_object(kept, state, rs, o, label, printed))
    return {"zone": zone, "owner": owner or None, "count": len(ids), "objects": objs}


@dataclass
class _Names:
    """The names of the cards a seat can't identify in a state, and of those it can, each
    counted once per object bearing it, with every object's part."""

    state: GameState
    objects: dict[int, tuple[bool, frozenset[str]]]
    hidden: Counter[str]
    shown: Counter[str]

    def take(self, oid: int) -> None:
        """Remove an object's names."""
        found = self.objects.pop(oid, None)
        if found is not None:
            counts = self.shown if found[0] else self.hidden
            for name in found[1]:
                counts[name] -= 1
                if not counts[name]:
                    del counts[name]

    def add(self, oid: int, visible: bool, names: frozenset[str]) -> None:
        """Add an object's names."""
        self.objects[oid] = (visible, names)
        (self.shown if visible else self.hidden).update(names)


def _card_names(state: GameState, o: GameObject) -> frozenset[str]:
    """Every name ``o`` may bear: its card's, its faces', its copy effects'."""
    card = state.card_def(o)
    return frozenset(
        {
            card.name,
            *card.face_names,
            *(c.name for c in o.copies if c.name),
            *(f.name for c in o.copies for f in c.faces if f.name),
        }
    )


def seat_names(
    parts: SeatParts, state: GameState, seat: str, viewer: str | None, rs: Ruleset
) -> tuple[set[str], set[str]]:
    """The names of the cards ``seat`` can't identify in ``state``, and of those it can.
    Only the objects changed since the seat's last state asked (per :mod:`obverse.views`'
    change set, which follows what visibility reads) are looked at."""
    last = parts.names.get(seat)
    changed = _changed_since(last.state if last is not None else None, state, rs)
    objects = state.objects
    if last is None or changed is None:
        found = _Names(state, {}, Counter(), Counter())
        todo: Iterable[int] = objects.keys()
    else:
        found = _Names(state, dict(last.objects), last.hidden.copy(), last.shown.copy())
        for oid in changed:
            found.take(oid)
        todo = [i for i in changed if i in objects]
    for oid in todo:
        o = objects[oid]
        found.add(oid, is_visible(state, viewer, o, rs), _card_names(state, o))
    parts.names[seat] = found
    return set(found.hidden), set(found.shown)


def shown_names(table: Any, player: str | None, names: Mapping[int, str]) -> dict[int, str]:
    """Each object's name for the seat with the words its offers' labels use for it. A name
    is asked again only for an object that is no longer the very same (or whose handle
    changed), or when what a label may read of every object changed (effects, knowledge,
    the card table, designations): else the last answer stands."""
    state = table.state
    world = (state.effects, state.knowledge, state.cards, state.designations, state.pregame)
    memo: dict[str | None, Any] = table.__dict__.setdefault("offer_shown", {})
    last_world, kept = memo.get(player, ((), {}))
    same = len(last_world) == len(world) and all(map(is_, world, last_world))
    namer = namer_for(table.rs, state, player)
    objects = state.objects
    shown: dict[int, str] = {}
    fresh: dict[int, tuple[str, Any, str]] = {}
    for i, h in names.items():
        obj = objects.get(i)
        found = kept.get(i) if same else None
        if found is None or found[0] != h or found[1] is not obj:
            found = (h, obj, f"{h}\0{namer.name(i)}")
        fresh[i] = found
        shown[i] = found[2]
    memo[player] = (world, fresh)
    return shown


__all__ = [
    "HandleKey",
    "SeatParts",
    "judge_view",
    "player_view",
    "seat_handles",
    "seat_names",
    "shown_names",
]
