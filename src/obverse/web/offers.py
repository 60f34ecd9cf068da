"""A web table's offers as each seat gets them: the kernel's offers
(:meth:`~obverse.fastoffers.OfferMemo.parts`) with the objects named by the seat's own names
(handles; the judge's labels), the rule allowing each, and its label and group in words.

Encoded offers are kept per seat across a game's tables (see :func:`legal_body`): after a
change only new offers, or offers naming an object whose name changed, are built again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from obverse import vocab as v
from obverse.engine import Legal
from obverse.memo import ByIdentity
from obverse.rulesets.labels import group
from obverse.web.seatview import shown_names
from obverse.web.store import JUDGE

if TYPE_CHECKING:  # the table imports this module (its offers are built here)
    from obverse.web.table import Table


def _main_field(cls: type[v.Action]) -> str | None:
    """The field naming the object an action is mainly about: its subject, else its first
    reference."""
    return cls.subject or (cls.refs[0] if cls.refs else None)


def _seat_parts(table: Table, seat: str, player: str | None) -> list[list[Legal]]:
    """The kernel's offers for ``player`` in parts (:meth:`OfferMemo.parts`: the seat
    policy is the kernel's)."""
    return table.offer_memo.parts(table.state, player, table.scn.resolver)


def _seat_legal(table: Table, seat: str, player: str | None) -> list[Legal]:
    """:func:`_seat_parts` as one list."""
    return [x for part in _seat_parts(table, seat, player) for x in part]


#: An offer without its object names: verb, main field, the other fields, the fields naming
#: objects (ids, replaced by the seat's names).
_Template = tuple[str, str | None, dict[str, Any], tuple[str, ...]]


def _template(templates: dict[v.Action, _Template], action: v.Action) -> _Template:
    """The offer of ``action`` before names (made once per action, then shared)."""
    found = templates.get(action)
    if found is None:
        cls = type(action)
        data = {
            k: val
            for k, val in msgspec.to_builtins(action).items()
            if k != "verb" and val is not None
        }
        refs = tuple(k for k in cls.refs if k in data)
        if len(templates) > 50_000:  # bounded: a long game's old actions go
            templates.clear()
        found = templates[action] = (action.verb, _main_field(cls), data, refs)
    return found


def _offer(
    templates: dict[v.Action, _Template],
    legal: Legal,
    names: Mapping[int, str],
    words: Callable[[v.Action], str],
    place: Callable[[v.Action], str],
) -> dict[str, Any]:
    """One offer as the seat gets it: its objects by the seat's names, the rule allowing it,
    its label in words (``words``: the kernel's :meth:`Ruleset.describe`, as the seat's
    player may read it) and its group (``place``: :func:`obverse.rulesets.labels.group` on
    the table's state, which decides the order the page lists them in); an offer with a free target
    also lists its choices (``targets``: the argument, ``with`` for a pair's second object,
    and the seat's names of every choice) and each choice's label (``choice_labels``, in order: the
    kernel's words name only what the seat's player may identify, as ``label`` does)."""
    action, rulings = legal.action, legal.rulings
    verb, main, fields, refs = _template(templates, action)
    data = dict(fields)
    for key in refs:
        value = data[key]
        data[key] = [names[x] for x in value] if isinstance(value, list | tuple) else names[value]
    obj = data.pop(main, None) if main else None
    if isinstance(obj, list) and main == "objects":  # a pair (meld): the second is `with`
        obj, data["with"] = obj[0], obj[1]
    elif isinstance(obj, list):  # a pile (mtg choose_exiled): the first, the others `with`
        obj, data["with"] = obj[0], obj[1:]
    rule = rulings[0].rule if rulings else ""
    out = {
        "verb": verb,
        "object": obj,
        "args": data,
        "rule": rule,
        "label": words(action),
        "group": place(action),
    }
    if legal.field is not None:
        arg = "with" if legal.field == main else legal.field
        out["targets"] = {arg: [names[x] for x in legal.choices()]}
        out["choice_labels"] = [words(x) for x in legal.expand()]  # each choice's, in that order
    return out


def _seat_names(table: Table, seat: str) -> tuple[str | None, dict[int, str]] | None:
    """The player ``seat`` acts as (``None``: the judge) and its name of each object, or
    ``None`` for a seat that can't act (a spectator)."""
    if seat == JUDGE:
        return None, {o.id: table.label_of(o) or "" for o in table.state.objects.values()}
    if seat in table.state.players:
        return seat, {o.id: h for h, o in table.handles(seat).items()}
    return None


def legal_actions(table: Table, seat: str) -> list[dict[str, Any]]:
    """What the kernel lets ``seat`` do now, with the seat's own handles for objects and
    the rule that allows each (:func:`obverse.engine.legal_actions`)."""
    found = _seat_names(table, seat)
    if found is None:
        return []
    player, names = found
    templates = table.offer_templates
    words = functools.partial(table.rs.describe, table.state, player=player)
    place = functools.partial(group, rs=table.rs, state=table.state)
    legal = _seat_legal(table, seat, player)
    return [_offer(templates, x, names, words, place) for x in legal]


def legal_body(table: Table, seat: str) -> bytes:
    """``{"actions": legal_actions(table, seat)}`` as JSON. Each offer's bytes are kept for
    the seat (and only for it) across the game's tables, with the kernel's offer
    (:class:`~obverse.engine.Legal`: the very same object while its action and rulings
    stand): after a change only new offers, or offers naming an object whose name changed,
    are built and encoded."""
    seat_names = _seat_names(table, seat)
    if seat_names is None:
        return b'{"actions":[]}'
    player, names = seat_names
    kept = table.offer_bytes.get(seat)
    if kept is None:
        kept = table.offer_bytes[seat] = ByIdentity()
    naming = table.offer_naming.setdefault(seat, {})
    if len(kept) > 20_000:  # bounded: a long game's old offers go
        kept.clear()
        naming.clear()
    # Offers naming an object whose name changed since this seat's last offers are made
    # again (most often no name changed). The names last given are kept for every object
    # the seat ever named, so one named again after a while is checked too.
    given = table.offer_names.setdefault(seat, {})
    # An offer's label names its objects as the seat's player may (a name, a face, "a
    # face-down creature"): an object now named otherwise is renamed too.
    shown = shown_names(table, player, names)
    renamed = {i for i, h in shown.items() if given.get(i, h) != h}
    for oid in renamed:
        for made in naming.pop(oid, ()):
            kept.drop(made)
    given.update(shown)
    # Each part's bytes, by the identity of the kernel's part: only this call's are kept.
    joined = table.part_bytes.get(seat) or ByIdentity()
    live: ByIdentity[bytes] = ByIdentity()
    parts: list[bytes] = []
    for part in _seat_parts(table, seat, player):
        if not part:
            continue
        found = joined.get(part)
        if found is None or (renamed and _names_any(part, renamed)):
            found = _part_bytes(table, part, kept, naming, names, player)
        parts.append(live.put(found, part))
    table.part_bytes[seat] = live
    return b'{"actions":[' + b",".join(parts) + b"]}"


def _part_bytes(
    table: Table,
    part: list[Legal],
    kept: ByIdentity[bytes],
    naming: dict[int, list[Legal]],
    names: Mapping[int, str],
    player: str | None,
) -> bytes:
    """A part of a seat's offers as JSON items, each offer's bytes kept by the identity of
    the kernel's offer (the very same object while its action and rulings stand; the entry
    holds it, so its id stays its own) and indexed by the objects it names (their names are
    in the bytes)."""
    templates, encode = table.offer_templates, msgspec.json.encode
    words = functools.partial(table.rs.describe, table.state, player=player)
    place = functools.partial(group, rs=table.rs, state=table.state)
    out: list[bytes] = []
    for legal in part:
        found = kept.get(legal)
        if found is None:
            action = legal.action
            found = kept.put(encode(_offer(templates, legal, names, words, place)), legal)
            for oid in (*action.object_ids(), *legal.choices()):
                naming.setdefault(oid, []).append(legal)
        out.append(found)
    return b",".join(out)


def _names_any(part: list[Legal], ids: set[int]) -> bool:
    """Whether an offer of ``part`` names one of ``ids``."""
    return any(
        not ids.isdisjoint(x.action.object_ids()) or not ids.isdisjoint(x.choices()) for x in part
    )


__all__ = ["legal_actions", "legal_body"]
