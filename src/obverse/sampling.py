"""Determinization for a seat's own search (ISMCTS): :func:`sample` deals the cards a seat
can't identify anew among the places it can't tell apart, so the seat's view of the sample is
byte-identical to its view of the true state.

A *place* is an object the seat can't identify (:func:`obverse.views.is_visible`: neither
the rules nor kept knowledge let it look). Places are told apart only by what the seat's view
shows of them: their view entries without the handle (owner, controller, facing, a face-down
permanent's public characteristics (MTG 708.2a), the effects on them) and, in a public zone,
the zone; a private zone's places of one owner (hand, library, deck, arsenal ...) are one
class, so where in them a card is isn't kept either. Within a class the objects' private
records (cards, face, status) are dealt out again at random, each record keeping itself
consistent (a card keeps its own face and status) while every place keeps its id, zone,
owner, controller, facing, timestamp and what it is under: so the handles, the order of
the seat's view, its counts and public characteristics are the true ones.

What a sample tells the seat beyond its view is only what it is given (:func:`sample`'s
``pools``) or, by default, each class's cards as a set: the deck lists are taken as known.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

import msgspec

from obverse import memo
from obverse import state as core
from obverse.cards import CardDef
from obverse.errors import InputError, quote
from obverse.rulesets import Ruleset, get_ruleset
from obverse.state import GameObject, GameState, Knowledge
from obverse.views import is_visible, view_object

replace = msgspec.structs.replace

#: What stays with a place when the records are dealt anew: what the seat's view of the
#: place is built from, besides its characteristics.
_PLACE_FIELDS = ("id", "zone", "owner", "controller", "face_down", "timestamp", "under")


def places(state: GameState, seat: str, rs: Ruleset | None = None) -> list[list[GameObject]]:
    """The classes of places ``seat`` can't tell apart (each in object id order, classes in
    the order of their first place): objects it can't identify, grouped by their view
    entries without the handle, the zone dropped in a private zone. Objects of more than one
    card (a melded pair) stay as they are."""
    return [list(group) for group in _places(state, seat, rs)]


# Per seat, the last state asked about: a search samples one root many times.
@memo.last("state", per="seat")
def _places(state: GameState, seat: str, rs: Ruleset | None) -> list[list[GameObject]]:
    """:func:`places` (don't change the lists: copy them)."""
    rs = rs or get_ruleset(state.ruleset)
    classes: dict[str, list[GameObject]] = {}
    for oid in sorted(state.objects.keys()):
        obj = state.objects[oid]
        if len(obj.cards) != 1 or obj.meld is not None or is_visible(state, seat, obj, rs):
            continue
        entry = view_object(state, seat, obj, rs)
        del entry["handle"]
        if not rs.is_public(obj.zone):
            entry["zone"] = None
        classes.setdefault(json.dumps(entry, sort_keys=True, default=str), []).append(obj)
    return list(classes.values())


def _record(obj: GameObject) -> GameObject:
    """``obj`` without what stays with its place: what a class deals out."""
    return replace(
        obj, id=0, zone="", owner="", controller="", face_down=False, timestamp=0, under=None
    )


def _order(record: GameObject) -> bytes:
    """A sort key of a record that doesn't depend on where it is (so the deal depends only
    on the class's records as a set, and the random draws)."""
    return msgspec.json.encode(record)


def sample(
    state: GameState,
    seat: str,
    rng: random.Random,
    pools: Mapping[str, Sequence[CardDef]] | None = None,
) -> GameState:
    """A state ``seat`` can't tell from ``state``: the cards it can't identify dealt anew
    among the places it can't tell apart (:func:`places`); ``view(sample, seat)`` is
    ``view(state, seat)``. The draws are ``rng``'s: the same ``rng`` state gives the same
    sample.

    ``pools``: per owner, the printed cards the seat believes that owner's places hold (its
    own model of an opponent's deck). Each of that owner's places is then printed with a
    card drawn from it at random (its face the one the rules give that card in that zone),
    and the sample depends on nothing the seat's view doesn't show. Without a pool for an
    owner, that owner's records in each class are shuffled among its places: the deck lists
    are taken as known, and only which place holds which card is new."""
    if seat not in state.players:
        raise InputError("", "seat", f"unknown player {quote(seat)}")
    rs = get_ruleset(state.ruleset)
    pools = pools or {}
    out, cards = state, state.cards
    moved: dict[int, GameObject] = {}
    for group in places(state, seat, rs):
        pool = pools.get(group[0].owner)
        if pool:
            for place in group:
                card_id = place.cards[0]
                cdef = pool[int(rng.random() * len(pool))]
                cards = cards.set(card_id, replace(cards[card_id], card=cdef, transcended=False))
                face = rs.default_face(cdef, place.zone)
                moved[place.id] = replace(place, face=face, flipped=False, copies=())
            continue
        records = sorted((_record(o) for o in group), key=_order)
        rng.shuffle(records)
        for place, record in zip(group, records, strict=True):
            moved[place.id] = replace(record, **{f: getattr(place, f) for f in _PLACE_FIELDS})
    card_object = out.card_object
    for oid, new in moved.items():
        if new != state.objects[oid]:
            out = core.update(out, new)
            card_object = card_object.set(new.cards[0], oid)
    out = replace(out, card_object=card_object, cards=cards)
    return _knowledge_follows_places(out, seat, set(moved))


def _knowledge_follows_places(state: GameState, seat: str, moved: set[int]) -> GameState:
    """Another player's knowledge of a place stays with the place (what they looked at is
    what is there now): its card is the place's new card."""
    if not moved:
        return state
    kept: list[Knowledge] = []
    for k in state.knowledge:
        if k.player != seat and k.obj in moved:
            k = replace(k, card=state.objects[k.obj].cards[0])
        kept.append(k)
    return replace(state, knowledge=tuple(kept))


__all__ = ["places", "sample"]
