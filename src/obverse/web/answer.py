"""A seat's state answer as bytes: its view encoded zone by zone and its log entry by
entry, each kept while it is the very same (most of a poll's bytes are unchanged), and the
version a seat follows, a digest of what it sees. The log a seat is sent starts after the
entries it already holds (``?since=N&after=KEY``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from obverse.memo import ByIdentity
from obverse.web.table import Table


def encode_state(table: Table, seat: str, out: dict[str, Any]) -> bytes:
    """A seat's state as JSON, its view and its log spliced in as encoded once (the view
    per table and seat, each log entry once per seat: they are most of the bytes)."""
    raw = view_json(table, seat, out["view"])
    log = msgspec.Raw(table.log_json(seat, out["log_from"]))
    return msgspec.json.encode({**out, "view": msgspec.Raw(raw), "log": log})


def view_json(table: Table, seat: str, view: dict[str, Any]) -> bytes:
    """The seat's view (``view``, the table's) as JSON, encoded once per table and seat, and
    each zone only when it changed: a seat's view reuses the very same zone when nothing in
    it did (:mod:`obverse.web.seatview`), so its bytes are kept by its identity."""
    made: bytes = table.seen("view-json", seat, lambda: _view_bytes(table, seat, view))
    return made


def _view_bytes(table: Table, seat: str, view: dict[str, Any]) -> bytes:
    zones = view.get("zones")
    if not isinstance(zones, list) or next(reversed(view)) != "zones":
        return msgspec.json.encode(view)
    encode = msgspec.json.encode
    last = table.zone_bytes.get(seat) or ByIdentity()
    live: ByIdentity[bytes] = ByIdentity()  # only this view's zones are kept
    parts = []
    for zone in zones:
        found = last.get(zone)
        parts.append(live.put(encode(zone) if found is None else found, zone))
    table.zone_bytes[seat] = live
    head = encode({k: v for k, v in view.items() if k != "zones"})[:-1]
    return head + (b"," if len(view) > 1 else b"") + b'"zones":[' + b",".join(parts) + b"]}"


def log_start(log: list[dict[str, Any]], since: int, after: str) -> int:
    """Where the log a seat is sent starts: after its ``since``-th entry when the seat's copy
    ends with that entry's key ``after``, else at the beginning."""
    return since if 0 < since <= len(log) and log[since - 1]["key"] == after else 0


def seat_digest(table: Table, seat: str, out: dict[str, Any], log: list[dict[str, Any]]) -> str:
    """A digest of a seat's state: everything in ``out`` (its view as encoded once per table
    and seat) and the whole log."""
    tail = log[-1]["key"] if log else ""
    # The log is in its last entry's key (each key chains the entries before it).
    rest = msgspec.json.encode(
        {k: v for k, v in out.items() if k not in ("view", "log")}, order="sorted"
    )
    digest = hashlib.blake2b(rest, digest_size=8)
    digest.update(view_json(table, seat, out["view"]))
    digest.update(f"|{len(log)}|{tail}".encode())
    return digest.hexdigest()


def log_query(params: Mapping[str, str]) -> tuple[int, str]:
    """``?since=N&after=KEY``: the log entries the page already holds."""
    raw = params.get("since", "0")
    since = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    return since, params.get("after", "")[:32]


__all__ = ["encode_state", "log_query", "log_start", "seat_digest", "view_json"]
