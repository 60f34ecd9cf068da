"""The actions a seat is offered: ``Table.legal_actions`` when the kernel has it, else what
the page has always offered (by verb, zone and status, not yet by the rules).

Each offer is ``{"verb", "object": REF or None, "args": {...}, "rule": ""}``: exactly the
body ``POST /api/t/{token}/act`` takes, with ``rule`` the rule that offers it (empty for a
fallback offer). ``REF`` is the seat's own reference (a handle; a label for the judge).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from obverse.web.store import JUDGE, SPECTATOR
from obverse.web.table import Table, ruleset_info

#: Verbs that need nothing but the object, as the page lists them.
SIMPLE_VERBS = (
    "transform",
    "flip",
    "awaken",
    "transcend",
    "turn_face_down",
    "turn_face_up",
    "resolve",
    "mark",
    "reveal",
    "create_token_copy",
    "examine",
)
#: Zones a player shuffles.
DECKS = ("library", "deck", "main_deck", "material_deck")


def offer(verb: str, ref: str | None = None, **args: Any) -> dict[str, Any]:
    """One offered action."""
    return {"verb": verb, "object": ref, "args": args, "rule": ""}


def legal_actions(table: Table, seat: str) -> list[dict[str, Any]]:
    """The kernel's offers for ``seat`` if it makes them, else :func:`fallback_actions`."""
    kernel = getattr(table, "legal_actions", None)
    if callable(kernel):
        offers: list[dict[str, Any]] = kernel(seat)
        return offers
    return fallback_actions(table, seat)


def _may_act(seat: str, obj: dict[str, Any]) -> bool:
    if seat == JUDGE:
        return True
    return bool(obj.get("visible")) and seat in (obj.get("owner"), obj.get("controller"))


def _object_offers(info: dict[str, Any], seat: str, o: dict[str, Any]) -> Iterator[dict[str, Any]]:
    verbs, ref, zone = set(info["verbs"]), o["ref"], o["zone"]
    for verb in SIMPLE_VERBS:
        if verb not in verbs:
            continue
        if verb == "resolve" and zone != info["stack_zone"]:
            continue
        if verb == "turn_face_up" and not o.get("face_down"):
            continue
        if verb == "turn_face_down" and (o.get("face_down") or zone != info["play_zone"]):
            continue
        if verb == "examine":
            yield offer(verb, ref, player=o["owner"] if seat == JUDGE else seat)
            continue
        yield offer(verb, ref)
    if zone not in (info["play_zone"], info["stack_zone"]):
        for verb in ("cast", "play"):
            if verb in verbs:
                yield offer(verb, ref)
    if "move" in verbs:
        for to in info["zones"]:
            if to != zone:
                yield offer("move", ref, to=to)


def fallback_actions(table: Table, seat: str) -> list[dict[str, Any]]:
    """What the page offers without the kernel's help: the table verbs, then each object's
    verbs by its zone and status, for the objects the seat may act on."""
    if seat == SPECTATOR:
        return []
    view = table.seat_view(seat)
    info = ruleset_info(table.rs.name)
    out = [offer("end_turn")]
    if seat == JUDGE and view.get("pregame"):
        out.append(offer("start_game"))
    players = list(view["players"]) if seat == JUDGE else [seat]
    for zone in view["zones"]:
        if zone["zone"] in DECKS and zone["owner"] in players and zone["count"] > 1:
            out.append(offer("shuffle", player=zone["owner"], zone=zone["zone"]))
    for zone in view["zones"]:
        for obj in zone["objects"]:
            if _may_act(seat, obj):
                out.extend(_object_offers(info, seat, obj))
    return out


__all__ = ["SIMPLE_VERBS", "fallback_actions", "legal_actions", "offer"]
