"""Per-player views: what a viewer may know of a state, and nothing more.

A view is computed from ``(state, viewer)``, never stored. Objects the viewer cannot
identify carry only what the rules give everyone (zone, owner, face-down characteristics)
under a handle that is fresh whenever the card becomes a new object or its zone is shuffled,
so no one can follow a hidden card by its handle.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from obverse.cards import STAT_FIELDS, Face
from obverse.characteristics import Characteristics, apply_effects, characteristics
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Event
from obverse.state import GameObject, GameState

_EMPTY = Face()


def handle(state: GameState, viewer: str | None, obj: GameObject) -> str:
    """An opaque per-viewer handle, keyed with the game's secret (an HMAC): fresh whenever
    the card becomes a new object, changes zone or facing, or any zone is shuffled, and
    unguessable without the key, so no one can follow a hidden card by its handle."""
    raw = f"{viewer}:{obj.id}:{obj.zone}:{obj.face_down}:{state.shuffles}".encode()
    return "h" + hashlib.blake2b(raw, key=state.secret[:64], digest_size=8).hexdigest()


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
    if rs.game == "mtg":
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


#: View entries depend only on immutable inputs: cache by their identities (kept alive by the
#: entry, so ids can't be reused while cached).
_CACHE: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_ALWAYS = frozenset({"handle", "visible", "zone", "owner", "controller", "face"})


def view_object(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset | None = None
) -> dict[str, Any]:
    """One object as ``viewer`` sees it (a fresh dict; cached by immutable inputs)."""
    effects, cards, knowledge = state.effects, state.cards, state.knowledge
    key = (
        viewer,
        id(obj),
        id(effects),
        id(cards),
        id(knowledge),
        state.shuffles,
        state.pregame,
        state.secret,
        state.ruleset,
        state.designations,
    )
    hit = _CACHE.get(key)
    if hit is not None:
        held = hit[0]
        if held[0] is obj and held[1] is effects and held[2] is cards and held[3] is knowledge:
            return dict(hit[1])
    inputs = (obj, effects, cards, knowledge)
    full = _view_object(state, viewer, obj, rs or get_ruleset(state.ruleset))
    # Absent means null / empty / false: keeps views small and fast to copy.
    entry = {
        k: v
        for k, v in full.items()
        if k in _ALWAYS or (v is not None and v is not False and v != [] and v != {})
    }
    if len(_CACHE) > 100_000:
        _CACHE.clear()
    _CACHE[key] = (inputs, entry)
    return dict(entry)


def clear_cache() -> None:
    """Forget cached view entries."""
    _CACHE.clear()


def _view_object(
    state: GameState, viewer: str | None, obj: GameObject, rs: Ruleset
) -> dict[str, Any]:
    visible = is_visible(state, viewer, obj, rs)
    entry: dict[str, Any] = {
        "handle": handle(state, viewer, obj),
        "visible": visible,
        "zone": obj.zone,
        "owner": obj.owner,
        "controller": obj.controller,
    }
    if visible:
        chars = characteristics(state, obj, rs)
        entry.update(chars_dict(chars, rs))
        entry.update(status_dict(state, obj, rs))
        # The identity of the card(s), which a face-down object's characteristics don't show.
        entry["card"] = state.card_def(obj).name
        if len(state.card_def(obj).faces) > 1:
            entry["faces"] = [f.name for f in state.card_def(obj).faces]
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


def view(state: GameState, viewer: str | None) -> dict[str, Any]:
    """The view of ``state`` for ``viewer`` (``None``: a spectator). Deterministic."""
    rs = get_ruleset(state.ruleset)
    zones = []
    for key in sorted(state.zones.keys()):
        ids = state.zones[key]
        if not ids:
            continue
        owner, _, zone = key.rpartition(":")
        objs = [view_object(state, viewer, state.objects[o], rs) for o in ids]
        if zone not in rs.ordered_zones:
            objs.sort(key=lambda e: (not e["visible"], e.get("name") or "", e["handle"]))
        zones.append({"zone": zone, "owner": owner or None, "count": len(ids), "objects": objs})
    return {
        "ruleset": rs.name,
        "viewer": viewer,
        "players": list(state.players),
        "active": state.active_player,
        "turn": state.turn,
        "pregame": state.pregame,
        "zones": zones,
    }


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
        )
        if new is not None:
            entry["object"] = handle(after, viewer, new)
        if seen and ev.card is not None and ev.card in after.cards:
            entry["card"] = after.cards[ev.card].card.name
        if seen:
            entry["detail"] = ev.detail
        out.append(entry)
    return out
