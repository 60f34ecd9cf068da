"""The inspector's payload: one object as a seat may read it, with the rulings behind it.

``GET /api/t/{token}/inspect?ref=REF`` answers, for an object the seat names (its handle; the
judge's label), what it is now: the characteristics that count (name, types, mana value and
the stats, from :func:`obverse.characteristics.characteristics`), and the rulings (rule id
and sentence) of the branch of the ruleset that decided them (``Characteristics.why``, the
ids :func:`obverse.views.view` carries, here with their sentences). An object the seat can't
identify gets only what its view already shows: being hidden, and the rule that hides it.
"""

from __future__ import annotations

from typing import Any

from obverse.characteristics import characteristics
from obverse.state import GameObject
from obverse.views import chars_dict, is_visible
from obverse.web.store import JUDGE
from obverse.web.table import Table, TableError


def find(table: Table, seat: str, ref: str) -> GameObject:
    """The object ``seat`` names ``ref`` (404 for a name it doesn't have)."""
    obj = table.object_of_label(ref) if seat == JUDGE else table.handles(seat).get(ref)
    if obj is None:
        raise TableError(404, "no such object for this seat")
    return obj


def inspect(table: Table, seat: str, ref: str) -> dict[str, Any]:
    """The inspector's answer for ``ref`` (see the module's docstring)."""
    obj = find(table, seat, ref)
    rs, state = table.rs, table.state
    viewer = None if seat == JUDGE else table.viewer(seat)
    out: dict[str, Any] = {"ref": ref, "visible": True}
    if seat != JUDGE and not is_visible(state, viewer, obj, rs):
        public = rs.public_characteristics(state, viewer, obj)
        out["visible"] = False
        out["name"] = rs.face_down_noun(obj.zone) if public is not None else None
        out["rulings"] = [{"rule": rs.hidden_rule, "reason": "you can't identify this card"}]
        return out
    chars = characteristics(state, obj, rs)
    values = chars_dict(chars, rs)
    secret = table.hidden_names(seat, (state,)) if seat != JUDGE else set()
    out["name"] = values["name"]
    out["characteristics"] = {k: val for k, val in values.items() if val not in (None, [], "")}
    out["mana_value"] = chars.mana_value
    out["rulings"] = [{"rule": r.rule, "reason": table.scrub(r.reason, secret)} for r in chars.why]
    return out


__all__ = ["find", "inspect"]
