"""Per-player views: what a viewer may know of a state, and nothing more.

A view is computed from ``(state, viewer)``, never stored. Objects the viewer cannot
identify carry only what the rules give everyone (zone, owner, face-down characteristics)
under a handle that is fresh whenever the card becomes a new object or its zone is shuffled,
so no one can follow a hidden card by its handle.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from obverse import memo
from obverse.cards import STAT_FIELDS, Face
from obverse.characteristics import (
    Characteristics,
    apply_effects,
    characteristics,
    marks_of,
    object_shape,
    printed_cards,  # noqa: F401 (read by _shared_body's cache: what its key names)
)
from obverse.memo import Kept, identity_difference, refcounts
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Event
from obverse.state import GameObject, GameState, Zone

_EMPTY = Face()


def handle(
    state: GameState, viewer: str | None, obj: GameObject, shuffles: int | None = None
) -> str:
    """An opaque per-viewer handle, keyed with the game's secret (an HMAC): fresh whenever
    the card becomes a new object, changes zone or facing, or its zone is shuffled, and
    unguessable without the key, so no one can follow a hidden card by its handle.
    ``shuffles`` is the object's zone's shuffle count, when the caller knows it."""
    if shuffles is None:
        shuffles = _zone_shuffles(state, obj)
    return _handle(_keyed(state.secret, viewer), obj, shuffles)


#: Handles per keyed digest: one 64-byte digest holds the handles (8 bytes each) of the 8 ids
#: that differ only in their last 3 bits, in one zone and facing, so a first view hashes once
#: per 8 objects, not once per object. Each handle is its own part of a keyed hash of
#: (viewer, id, zone, facing, shuffles), as unguessable and unlinkable as a digest of its own.
_PER_DIGEST = 8
_SLICES = tuple(slice(16 * i, 16 * i + 16) for i in range(_PER_DIGEST))


def _handle(keyed: Any, obj: GameObject, shuffles: int) -> str:
    oid = obj.id
    tail = f":{obj.zone}:{obj.face_down}:{shuffles}".encode()
    return "h" + _digest(keyed, oid >> 3, tail)[_SLICES[oid & 7]]


def _digest(keyed: Any, block: int, tail: bytes) -> str:
    """The hex digest holding the handles of ids ``8 * block`` to ``8 * block + 7`` in the
    zone and facing that ``tail`` names (see :data:`_PER_DIGEST`)."""
    # The keyed hash of "viewer:" is kept per game and viewer and copied: a copy is cheaper
    # than keying a new hash, and the digest is that of the whole text all the same.
    h = keyed.copy()
    h.update(b"%d%s" % (block, tail))
    digest: str = h.hexdigest()
    return digest


def _block_handles(keyed: Any, block: int, tail: bytes) -> list[str]:
    """The handles :func:`_handle` gives ids ``8 * block`` to ``8 * block + 7`` in the zone
    and facing that ``tail`` names: each 8 bytes of :func:`_digest` in hex after an "h", cut
    in C (the hex text with a space every 8 bytes, split), not sliced one by one."""
    h = keyed.copy()
    h.update(b"%d%s" % (block, tail))
    text: str = h.digest().hex(" ", 8)
    return ("h" + text).replace(" ", " h").split(" ")


@memo.per_value(kept=1024)
def _keyed(secret: bytes, viewer: str | None) -> Any:
    """The keyed hash of ``"viewer:"``, copied for each digest (never updated itself)."""
    return hashlib.blake2b(f"{viewer}:".encode(), key=secret[:64], digest_size=64)


def _zone_shuffles(state: GameState, obj: GameObject) -> int:
    try:
        return state.zones[state.zone_key_of(obj)].shuffles
    except KeyError:  # an object no zone holds (a stale one): no shuffle to count
        return 0


def is_visible(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset | None = None
) -> bool:
    """Whether ``viewer`` can tell which card ``obj`` is (rules or kept knowledge)."""
    rs = rs or get_ruleset(state.ruleset)
    if rs.may_look(state, viewer, obj):
        return True
    return viewer is not None and rs.knows(state, viewer, obj)


def chars_dict(chars: Characteristics, rs: Ruleset) -> dict[str, Any]:
    """Characteristics as plain JSON-able values (the scenario keys)."""
    p = chars.props
    out: dict[str, Any] = {
        "name": p.name,
        "names": list(chars.names),
        "face": chars.face,
        "types": list(p.types),
        "supertypes": list(p.supertypes),
        "subtypes": list(p.subtypes),
        "colors": list(p.colors),
        "abilities": list(p.abilities),
        "tags": list(p.tags),
    }
    if rs.mana_costs:  # MTG 202: a mana cost and its mana value
        out["mana_cost"] = p.cost if isinstance(p.cost, str) else None
        out["cost"] = out["mana_cost"]
        out["mana_value"] = chars.mana_value
    else:
        out["cost"] = p.cost
        out["mana_cost"] = None
        out["mana_value"] = None
    for key in STAT_FIELDS:
        out[key] = getattr(p, key)
    return out


_ALWAYS = frozenset({"handle", "visible", "zone", "owner", "controller", "face"})


def view_object(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset | None = None
) -> dict[str, Any]:
    """One object as ``viewer`` sees it (a fresh dict)."""
    rs = rs or get_ruleset(state.ruleset)
    return dict(_object_entry(state, viewer, obj, rs, _zone_shuffles(state, obj)))


@memo.per_key(
    "(viewer, id(obj), id(state.effects), id(state.cards), id(state.knowledge), shuffles,"
    " state.pregame, state.secret, state.ruleset, state.designations)",
    "(obj, state.effects, state.cards, state.knowledge)",
    kept=100_000,
)
def _object_entry(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset, shuffles: int
) -> dict[str, Any]:
    """:func:`view_object`'s entry (don't change it: copy it): a function of the object, the
    effects, the cards, the knowledge, its zone's shuffles and the state's settings, all
    immutable."""
    return _entry(state, viewer, obj, rs, shuffles)


def clear_cache(shapes: bool = True) -> None:
    """Forget cached view entries and the views kept for incremental updates; with ``shapes``
    also the entry bodies shared per printed card and status."""
    memo.forget(_object_entry)
    _KEPT.clear()
    if shapes:
        memo.forget(_shared_body)
        memo.forget(_targeted)


# An entry is the handle (per object and viewer) followed by a body that depends only on what
# the viewer sees of the object's shape: its status fields, its physical cards, the effects
# and the ruleset, not its id. Objects of the same shape (four copies of a card on the
# battlefield) share one body, so a first view computes characteristics once per shape.
@memo.per_identity("effects", kept=1000)
def _targeted(effects: tuple[Any, ...]) -> frozenset[int]:
    """Objects an effect names by id (target or fixed): their bodies are their own."""
    ids: set[int] = set()
    for e in effects:
        if e.target is not None:
            ids.add(e.target)
        ids.update(e.fixed or ())
    return frozenset(ids)


# What a body depends on of the object itself is what the characteristics' shape names
# (:func:`obverse.characteristics.object_shape`): one function serves both.


def _all_marks(designations: tuple[tuple[str, int], ...]) -> dict[int, tuple[str, ...]]:
    """:func:`~obverse.characteristics.marks_of` for every object at once."""
    out: dict[int, tuple[str, ...]] = {}
    for name, oid in designations:
        out[oid] = (*out.get(oid, ()), name)
    return out


# A visible object's body is the same for every viewer; a hidden one's is the viewer's
# (public_characteristics takes the viewer). rs.aliases[0] is rs.name, read without the
# property's call (once per new shape).
@memo.per_key(
    "(visible, None if visible else viewer, rs.aliases[0], id(state.effects), shape)",
    "(state.effects, printed_cards(state, obj))",
    kept=50_000,
)
def _shared_body(
    state: GameState,
    viewer: str | None,
    obj: GameObject,
    rs: Ruleset,
    visible: bool,
    shape: tuple[Any, ...],
) -> dict[str, Any]:
    """The body of every object of ``shape`` (don't change it: copy it)."""
    return _body(state, viewer, obj, rs, visible)


def _entry(
    state: GameState,
    viewer: str | None,
    obj: GameObject,
    rs: Ruleset,
    shuffles: int,
    visible: bool | None = None,
) -> dict[str, Any]:
    if visible is None:
        visible = is_visible(state, viewer, obj, rs)
    effects = state.effects
    entry = None
    if rs.cacheable_characteristics and not (effects and obj.id in _targeted(effects)):
        try:
            shape = object_shape(state.cards, obj, marks_of(state, obj.id))
            entry = _shared_body(state, viewer, obj, rs, visible, shape).copy()
        except TypeError:  # an unhashable status field: no sharing
            entry = None
    if entry is None:
        entry = _body(state, viewer, obj, rs, visible)
    entry["handle"] = handle(state, viewer, obj, shuffles)
    return entry


def _kept(k: str, v: Any) -> bool:
    # Absent means null / empty / false: keeps views small and fast to copy.
    if k in _ALWAYS:
        return True
    if v is None or v is False:
        return False
    return not (type(v) in (list, dict) and not v)


def _body(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset, visible: bool
) -> dict[str, Any]:
    """An entry without its handle (the caller puts the handle first)."""
    full = _view_object(state, viewer, obj, rs, visible)
    # The handle comes first; the caller sets it in a copy.
    return {"handle": None, **{k: v for k, v in full.items() if _kept(k, v)}}


def _view_object(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset, visible: bool
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "visible": visible,
        "zone": obj.zone,
        "owner": obj.owner,
        "controller": obj.controller,
    }
    if visible:
        chars = characteristics(state, obj, rs)
        entry.update(chars_dict(chars, rs))
        entry.update(status_dict(state, obj, rs))
        if obj.rested:  # turned sideways: GA rested, FaB tapped (public, like the card)
            entry[rs.sideways_status] = True
        # The rules that decided which face(s) count: the decision's own rulings.
        entry["why"] = [r.rule for r in chars.why]
        # The identity of the card(s), which a face-down object's characteristics don't show.
        card = state.card_def(obj)
        entry["card"] = card.name
        if len(card.faces) > 1:
            entry["faces"] = [f.name for f in card.faces]
    else:
        public = rs.public_characteristics(state, viewer, obj)
        if public is not None:
            # Effects are public; filters test only what the viewer sees (708.2a 2/2).
            entry.update(chars_dict(apply_effects(state, obj, public, rs), rs))
        else:
            entry.update(chars_dict(Characteristics(face="none", names=(), props=_EMPTY), rs))
        entry["face"] = "none"
        entry["face_down"] = obj.face_down  # other status is unknown to the viewer
    return entry


def status_dict(state: GameState, obj: GameObject, rs: Ruleset) -> dict[str, Any]:
    """The object's status fields."""
    return {
        "face_down": obj.face_down,
        "transformed": rs.is_transformed(state, obj),
        "flipped": obj.flipped,
        "is_copy": rs.is_copy(obj),
        "is_token": obj.token,
        "marked": obj.marked,
        "counters": {k: v for k, v in obj.counters if v},
    }


# --- incremental views --------------------------------------------------------------------


class _Part:
    """One zone of a view: entries in view order with their sort keys (never mutated once
    built, so earlier views stay valid, except by a patch that owns it: see :func:`_patch`).

    An unordered zone's keys follow from its entries (:func:`_entry_key`): they are made
    when a patch first needs them, so a first view doesn't build a key per object."""

    __slots__ = ("_keys", "entries", "out")

    def __init__(
        self, keys: list[Any] | None, entries: list[dict[str, Any]], out: dict[str, Any]
    ) -> None:
        self._keys = keys
        self.entries = entries
        self.out = out

    @property
    def keys(self) -> list[Any]:
        """The sort keys, in the entries' order (``None`` given: the unordered zone's)."""
        if self._keys is None:
            self._keys = list(map(_entry_key, self.entries))
        return self._keys


@dataclass(frozen=True)
class Memo:
    """A viewer's last view of a game, with what it takes to patch it (where an object's
    entry is in it follows from ``state``: see :func:`_place`)."""

    state: GameState
    view: dict[str, Any]
    parts: dict[str, _Part]


#: Each viewer's last view of each game, patched into the next.
_KEPT: Kept[tuple[bytes, str, str | None], Memo] = Kept(256)


def _entry_key(e: dict[str, Any]) -> tuple[bool, str, str]:
    """An unordered zone's sort key of an entry: visible ones first, by name, then handle."""
    return (not e["visible"], e.get("name") or "", e["handle"])


def _place(
    state: GameState, viewer: str | None, oid: int, rs: Ruleset
) -> tuple[str, Any, dict[str, Any] | None] | None:
    """Where object ``oid``'s entry goes in the view of ``state``: its zone key, its sort key
    and (when the sort key needed it) its entry; None if no zone holds it."""
    obj = state.objects.get(oid)
    if obj is None:
        return None
    try:
        zkey = state.zone_key_of(obj)
    except KeyError:
        return None
    zone = state.zones[zkey]
    if zkey.rpartition(":")[2] in rs.ordered_zones:
        return zkey, (zone.rank_of[oid],), None
    entry = _entry(state, viewer, obj, rs, zone.shuffles)
    return zkey, _entry_key(entry), entry


def _part(zone_key: str, keys: list[Any] | None, entries: list[dict[str, Any]]) -> _Part:
    owner, _, zone = zone_key.rpartition(":")
    out = {"zone": zone, "owner": owner or None, "count": len(entries), "objects": entries}
    return _Part(keys, entries, out)


def _top(
    state: GameState, rs: Ruleset, viewer: str | None, parts: dict[str, _Part]
) -> dict[str, Any]:
    return {
        "ruleset": rs.name,
        "viewer": viewer,
        "players": list(state.players),
        "active": state.active_player,
        "turn": state.turn,
        "pregame": state.pregame,
        "zones": [parts[k].out for k in sorted(parts)],
    }


def _full(state: GameState, viewer: str | None, rs: Ruleset) -> Memo:
    parts = {}
    marks = _all_marks(state.designations)
    for zkey, zone in state.zones.items():
        keys, entries = _zone_entries(state, viewer, rs, zkey, zone, marks)
        if entries:
            parts[zkey] = _part(zkey, keys, entries)
    return Memo(state, _top(state, rs, viewer, parts), parts)


#: What the objects of one shape share in a zone being built: the body, the list their
#: entries go in (an ordered zone's one list, or the group of an unordered zone's entries that
#: sort by the same visibility and name), the text after the id in their handles and the
#: handle digests made with it.
_Shared = tuple[dict[str, Any], list[dict[str, Any]], bytes, dict[int, list[str]]]
_handle_of = itemgetter("handle")


def _zone_entries(
    state: GameState,
    viewer: str | None,
    rs: Ruleset,
    zkey: str,
    zone: Zone,
    marks: dict[int, tuple[str, ...]],
) -> tuple[list[Any] | None, list[dict[str, Any]]]:
    """Every object of one zone in view order, as sort keys (``None``: an unordered zone's,
    made from the entries when needed) and entries: :func:`_entry` and the sort key of
    :func:`_place`, with what the objects share looked up once (the keyed hash, the zone's
    shuffles, the effects' targets), per shape the body, the list its entries go in and the
    handle's text after the id, and per 8 ids of one zone and facing the digest holding
    their handles."""
    objects, cards, shuffles = state.objects, state.cards, zone.shuffles
    keyed = _keyed(state.secret, viewer)
    shared = rs.cacheable_characteristics
    targeted = _targeted(state.effects) if state.effects else frozenset()
    may_look, knows = rs.may_look, rs.knows
    ordered = zkey.rpartition(":")[2] in rs.ordered_zones
    # An ordered zone's objects are visited in rank order, so its entries need no sort.
    rows: list[dict[str, Any]] = []  # an ordered zone's entries
    groups: dict[tuple[bool, str], list[dict[str, Any]]] = {}  # an unordered zone's, by head
    # Per visibility (False, True): shape -> what its objects share (see _Shared).
    local: tuple[dict[Any, _Shared], dict[Any, _Shared]] = ({}, {})
    # Per zone and facing: the handles' tail and per block its handles (see _block_handles).
    digests: dict[tuple[str, bool], tuple[bytes, dict[int, list[str]]]] = {}
    for oid in zone.ids() if ordered else zone.rank_of:
        obj = objects[oid]
        visible = may_look(state, viewer, obj) or (viewer is not None and knows(state, viewer, obj))
        hit = None
        if shared and oid not in targeted:
            try:
                shape = object_shape(cards, obj, marks.get(oid, ()) if marks else ())
                hit = local[visible].get(shape)
                if hit is None:
                    place = rows if ordered else groups
                    hit = _new_shared(
                        state,
                        viewer,
                        obj,
                        rs,
                        visible,
                        shape,
                        place=place,
                        digests=digests,
                        shuffles=shuffles,
                    )
                    local[visible][shape] = hit
            except TypeError:  # an unhashable status field: no sharing
                hit = None
        if hit is None:
            entry = _entry(state, viewer, obj, rs, shuffles, visible)
            (rows if ordered else _group(groups, visible, entry)).append(entry)
            continue
        # _handle, with the handles of each 8 ids made at once per zone and facing.
        block = oid >> 3
        handles = hit[3].get(block)
        if handles is None:
            handles = hit[3][block] = _block_handles(keyed, block, hit[2])
        entry = hit[0].copy()
        entry["handle"] = handles[oid & 7]
        hit[1].append(entry)
    if ordered:
        rank_of = zone.rank_of
        return [(rank_of[oid],) for oid in zone.ids()], rows  # keys (rank,), in order
    return None, _grouped(groups)


def _new_shared(
    state: GameState,
    viewer: str | None,
    obj: GameObject,
    rs: Ruleset,
    visible: bool,
    shape: tuple[Any, ...],
    *,
    place: list[dict[str, Any]] | dict[tuple[bool, str], list[dict[str, Any]]],
    digests: dict[tuple[str, bool], tuple[bytes, dict[int, list[str]]]],
    shuffles: int,
) -> _Shared:
    """What the objects of ``shape`` (``obj``'s) share in a zone being built (see
    :data:`_Shared`): its list is ``place`` (an ordered zone's) or its group in ``place``; the
    handles' tail and digests are those of its zone and facing in ``digests`` (the zone
    shuffled ``shuffles`` times)."""
    body = _shared_body(state, viewer, obj, rs, visible, shape)
    group = place if isinstance(place, list) else _group(place, visible, body)
    zone, face_down = obj.zone, obj.face_down
    handles = digests.get((zone, face_down))
    if handles is None:
        tail = f":{zone}:{face_down}:{shuffles}".encode()
        handles = digests[(zone, face_down)] = (tail, {})
    return body, group, handles[0], handles[1]


def _group(
    groups: dict[tuple[bool, str], list[dict[str, Any]]], visible: bool, entry: dict[str, Any]
) -> list[dict[str, Any]]:
    """The group of an unordered zone's entries that sort by the same head of
    :func:`_entry_key` (visibility, name) as ``entry`` (or a body)."""
    return groups.setdefault((not visible, entry.get("name") or ""), [])


def _grouped(groups: dict[tuple[bool, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """An unordered zone's entries in the order of their sort keys (:func:`_entry_key`): the
    groups of equal visibility and name in order, each by handle (strings compare fast;
    entries of a group only ever compare by handle)."""
    entries: list[dict[str, Any]] = []
    for head in sorted(groups):
        group = groups[head]
        group.sort(key=_handle_of)
        entries += group
    return entries


def _diff(old: tuple[Any, ...], new: tuple[Any, ...]) -> list[Any]:
    """Items in one tuple and not the other (by identity: states share unchanged items)."""
    if old is new:
        return []
    # The kernel appends (an effect starts) far more than it filters: when one tuple is the
    # other plus items at the end, the difference is those items, found by one comparison
    # in C (identical items compare equal at once) rather than two dicts of every item.
    n, m = len(old), len(new)
    if n < m and new[:n] == old:
        return list(new[n:])
    if m < n and old[:m] == new:
        return list(old[m:])
    return identity_difference(old, new)


def changed_objects(old: GameState, new: GameState) -> set[int] | None:
    """Objects whose view entries may differ between ``old`` and ``new`` (found from the
    trail and the tuples that changed, in O(changes)); ``None``: any may have, rebuild all.
    What the kept views and the web's seat views patch."""
    if old is new:
        return set()
    same = (old.ruleset, old.secret, old.pregame, old.players) == (
        new.ruleset,
        new.secret,
        new.pregame,
        new.players,
    )
    # Every game's trail starts at the same root: from there only an empty state is an ancestor.
    if not same or old.cards is not new.cards or (old.trail.depth == 0 and old.objects):
        return None
    out = new.trail.since(old.trail, max(64, len(new.objects) // 4))
    if out is None:
        return None
    for e in _diff(old.effects, new.effects):
        if e.target is None:
            return None  # applies by filter: may change any object
        out.add(e.target)
        out.update(e.fixed or ())
    for k in _diff(old.knowledge, new.knowledge):
        out.add(k.obj)
        for st in (old, new):
            oid = st.card_object.get(k.card)
            if oid is not None:
                out.add(oid)
    if old.designations != new.designations:
        out.update(d[1] for d in set(old.designations) ^ set(new.designations))
    for key, zone in new.zones.items():
        prev = old.zones.get(key)
        if prev is not zone and (prev.shuffles if prev is not None else 0) != zone.shuffles:
            out.update(zone.rank_of)  # a shuffle renews every handle in the zone
            if prev is not None:
                out.update(prev.rank_of)
    return out


def _patch(
    was: Memo,
    state: GameState,
    viewer: str | None,
    rs: Ruleset,
    changed: set[int],
    owned: bool = False,
) -> Memo | None:
    """The memo with the ``changed`` objects' entries recomputed, or None if an old entry
    isn't where the memo's state puts it (never expected: the caller rebuilds); ``owned``: no
    one else can reach the memo's lists, so they are patched in place instead of copied."""
    if not changed:
        return Memo(state, _top(state, rs, viewer, was.parts), was.parts)
    parts = dict(was.parts)
    fresh: set[str] = set()

    def part(zkey: str) -> _Part:
        if zkey not in fresh:
            fresh.add(zkey)
            p = parts.get(zkey)
            if p is None:
                parts[zkey] = _Part([], [], {})
            elif owned:
                parts[zkey] = _Part(p.keys, p.entries, {})
            else:
                parts[zkey] = _Part(list(p.keys), list(p.entries), {})
        return parts[zkey]

    for oid in sorted(changed):
        old = _place(was.state, viewer, oid, rs)
        if old is not None:
            p = part(old[0])
            i = bisect.bisect_left(p.keys, old[1])
            if i == len(p.keys) or p.keys[i] != old[1]:
                return None
            del p.keys[i], p.entries[i]
    for oid in sorted(changed):
        new = _place(state, viewer, oid, rs)
        if new is not None:
            zkey, key, entry = new
            if entry is None:
                entry = _entry(state, viewer, state.objects[oid], rs, state.zones[zkey].shuffles)
            p = part(zkey)
            i = bisect.bisect_left(p.keys, key)
            p.keys.insert(i, key)
            p.entries.insert(i, entry)
    for zkey in fresh:
        p = parts[zkey]
        if p.entries:
            parts[zkey] = _part(zkey, p.keys, p.entries)
        else:
            del parts[zkey]
    return Memo(state, _top(state, rs, viewer, parts), parts)


def _refcounts(m: Memo) -> list[int]:
    """Reference counts of a memo's view and the containers inside it, in a fixed order."""
    counts = refcounts(m, m.view, m.view["zones"], m.parts)
    for p in m.parts.values():
        counts += refcounts(p, p.out, p.entries)
        # Keys not made yet (-1) are held by no one.
        counts.append(-1 if p._keys is None else refcounts(p._keys)[0])
    return counts


def _baseline() -> list[int]:
    """The counts :func:`_refcounts` gives for a memo held by one local variable and nothing
    else, through the same calls as :func:`build` (measured, so the check holds whatever the
    interpreter's own references)."""
    parts = {"z": _part("z", [], [])}
    m = Memo(None, {"zones": [parts["z"].out]}, parts)  # type: ignore[arg-type]
    del parts
    return _refcounts(m)


_UNSHARED = _baseline()


def _unshared(counts: list[int]) -> bool:
    """Whether the counts (of a memo held only by :func:`build`'s variable) show that nothing
    else holds the memo, its view, the view's zones or their lists: no view handed out earlier
    can see a change made to them in place."""
    top, part, n = _UNSHARED[:4], _UNSHARED[4:], len(_UNSHARED) - 4
    if counts[:4] != top:
        return False
    return all(
        counts[i : i + n - 1] == part[:-1] and counts[i + n - 1] in (-1, part[-1])
        for i in range(4, len(counts), n)
    )


def build(state: GameState, viewer: str | None) -> Memo:
    """The view of ``state`` for ``viewer`` with its memo (patched from the last one)."""
    rs = get_ruleset(state.ruleset)
    mkey = (state.secret, state.ruleset, viewer)
    # Taken out while it is patched, so that only this function holds it (see _unshared).
    was = _KEPT.pop(mkey)
    changed = None if was is None else changed_objects(was.state, state)
    if changed:
        changed |= rs.view_dependents(state, changed)
    if was is not None and changed is not None:
        owned = _unshared(_refcounts(was))  # a statement of its own: no extra reference
        was = _patch(was, state, viewer, rs, changed, owned)
    if was is None or changed is None:
        was = _full(state, viewer, rs)
    return _KEPT.put(mkey, was)


def fresh_view(state: GameState, viewer: str | None) -> dict[str, Any]:
    """The view built from scratch, ignoring (and not updating) the kept views: the reference
    the incremental :func:`view` must equal."""
    return _full(state, viewer, get_ruleset(state.ruleset)).view


def view(state: GameState, viewer: str | None) -> dict[str, Any]:
    """The view of ``state`` for ``viewer`` (``None``: a spectator). Deterministic.

    Incremental: the last view of the same game for the same viewer is kept, and only the
    objects changed since (per the state's trail, effects, knowledge, designations and
    shuffles) are recomputed. The result shares its unchanged parts with earlier views:
    treat it as read-only (copy it before editing)."""
    return build(state, viewer).view


def view_events(
    before: GameState, after: GameState, events: Iterable[Event], viewer: str | None
) -> list[dict[str, Any]]:
    """Events as ``viewer`` may see them: a card is named only if the viewer could identify
    it before or after the event; otherwise it is "a card" under the after-state's handle."""
    rs = get_ruleset(after.ruleset)
    out: list[dict[str, Any]] = []
    for ev in events:
        entry: dict[str, Any] = {
            "kind": ev.kind,
            "player": ev.player,
            "from": ev.zone_from,
            "to": ev.zone_to,
        }
        old = before.objects.get(ev.obj) if ev.obj is not None else None
        new = (
            after.object_of_card(ev.card)
            if ev.card is not None
            else (after.objects.get(ev.obj) if ev.obj is not None else None)
        )
        seen = any(
            o is not None and is_visible(s, viewer, o, rs) for s, o in ((before, old), (after, new))
        ) or (ev.kind == "reveal" and viewer is not None and viewer in (ev.detail or "").split(","))
        if new is not None:
            entry["object"] = handle(after, viewer, new)
        if seen and ev.card is not None and ev.card in after.cards:
            entry["card"] = after.cards[ev.card].card.name
        if seen:
            entry["detail"] = ev.detail
        out.append(entry)
    return out


# --- deltas ---------------------------------------------------------------------------------

_TOP = ("ruleset", "viewer", "players", "active", "turn", "pregame")


def _zone_id(z: dict[str, Any]) -> str:
    return z["zone"] if z["owner"] is None else f"{z['owner']}:{z['zone']}"


def view_delta(old: dict[str, Any], state: GameState, viewer: str | None) -> dict[str, Any]:
    """The patch that turns ``old`` (an earlier view for ``viewer``) into ``view(state,
    viewer)`` under :func:`apply_delta`: changed top-level fields, and per changed zone the
    handles removed and the entries put (with their index in the new zone), or the whole
    zone when that is shorter. Zones the new view shares with ``old`` cost nothing."""
    new = view(state, viewer)
    delta: dict[str, Any] = {k: new[k] for k in _TOP if old.get(k) != new[k]}
    before = {_zone_id(z): z for z in old["zones"]}
    zones: list[dict[str, Any]] = []
    for z in new["zones"]:
        zid = _zone_id(z)
        prev = before.pop(zid, None)
        if prev is not None and prev["objects"] is z["objects"]:
            continue
        patch = _zone_patch(prev, z)
        if patch is not None:
            zones.append(patch)
    if zones:
        delta["zones"] = zones
    if before:
        delta["gone"] = sorted(before)
    return delta


def _zone_patch(prev: dict[str, Any] | None, z: dict[str, Any]) -> dict[str, Any] | None:
    head = {"zone": z["zone"], "owner": z["owner"], "count": z["count"]}
    if prev is None:
        return {**head, "objects": z["objects"]}
    old = {e["handle"]: e for e in prev["objects"]}
    kept = {e["handle"] for e in z["objects"]}
    put = []
    for i, e in enumerate(z["objects"]):
        was = old.get(e["handle"])
        if was is not e and was != e:
            put.append([i, e])
    removed = [h for h in old if h not in kept or any(p[1]["handle"] == h for p in put)]
    if not put and not removed and prev["count"] == z["count"]:
        return None
    if 2 * (len(put) + len(removed)) > len(z["objects"]):
        return {**head, "objects": z["objects"]}
    patch: dict[str, Any] = {**head, "put": put}
    if removed:
        patch["removed"] = removed
    return patch


def apply_delta(old: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """``old`` with ``delta`` (from :func:`view_delta`) applied: a new view; ``old`` is kept."""
    out = {k: delta.get(k, old[k]) for k in _TOP}
    zones = {_zone_id(z): z for z in old["zones"]}
    for zid in delta.get("gone", ()):
        zones.pop(zid, None)
    for patch in delta.get("zones", ()):
        zid = _zone_id(patch)
        if "objects" in patch:
            objs = list(patch["objects"])
        else:
            gone = set(patch.get("removed", ()))
            objs = [e for e in zones[zid]["objects"] if e["handle"] not in gone]
            for i, e in patch["put"]:
                objs.insert(i, e)
        zones[zid] = {
            "zone": patch["zone"],
            "owner": patch["owner"],
            "count": patch["count"],
            "objects": objs,
        }
    out["zones"] = [zones[k] for k in sorted(zones)]
    return out
