"""The sandbox's hot routes answered in front of the framework: a seat's state, its offers and
its actions (``GET /api/t/{token}``, ``GET .../legal``, ``POST .../act``, and the same under
``/api/tables/``) are nearly every request a game makes.

The answer is the route's own (:class:`obverse.web.app.Api`'s ``state_answer``,
``legal_answer``, ``act_answer``, which the framework's routes call too), with the guards of
:mod:`obverse.web.transport` in the same order and the same refusals; only Starlette's
routing, request and response objects and middleware calls are skipped (about a tenth of a
request's CPU). Any other request, and any other method on these paths, goes on to the app.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from obverse.web.store import StoreUnavailable
from obverse.web.table import TableError
from obverse.web.transport import (
    MAX_BODY,
    SECURITY_HEADERS,
    error,
    parse_json,
    read_body,
    too_big,
    write_refusal,
)

if TYPE_CHECKING:
    from obverse.web.app import Api

#: The hot paths, as Starlette's ``{token}`` matches them (``[^/]+``); the state route is
#: under ``/api/t/`` only.
_SEAT_PATH = re.compile(r"/api/(t|tables)/([^/]+)(/legal|/act)?")
_JSON = (b"content-type", b"application/json")
#: The keys of an action's body.
ACT_KEYS = frozenset({"verb", "object", "args"})


class HotRoutes:
    """ASGI middleware answering the hot routes of ``api`` itself (see the module)."""

    def __init__(self, app: ASGIApp, api: Api) -> None:
        self.app = app
        self.api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = _route(scope)
        if route is None:
            await self.app(scope, receive, send)
            return
        kind, token = route
        try:
            if kind == "act":
                refused = too_big(scope, MAX_BODY) or write_refusal(scope)
                if refused is not None:  # as the guards outside the security headers send it
                    await _send_response(send, refused, ())
                    return
                self.api.sandbox.seat(token)  # an unknown seat is told so before its body
                data = parse_json(await read_body(receive, MAX_BODY), ACT_KEYS)
                body = self.api.act_answer(token, data, _query(scope))
            elif kind == "legal":
                body = self.api.legal_answer(token)
            else:
                body = self.api.state_answer(token, _query(scope))
        except (TableError, StoreUnavailable) as exc:
            await _send_response(send, error(exc.status, exc.message), SECURITY_HEADERS)
            return
        headers = [(b"content-length", b"%d" % len(body)), _JSON, *SECURITY_HEADERS]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _route(scope: Scope) -> tuple[str, str] | None:
    """``(kind, token)`` of a hot route (``state``, ``legal``, ``act``), else ``None``."""
    if scope["type"] != "http" or scope.get("root_path"):
        return None
    found = _SEAT_PATH.fullmatch(scope["path"])
    if found is None:
        return None
    prefix, token, tail = found.groups()
    method = scope["method"]
    if tail is None:
        ok = prefix == "t" and method == "GET"
        return ("state", token) if ok else None
    if tail == "/legal":
        return ("legal", token) if method == "GET" else None
    return ("act", token) if method == "POST" else None


def _query(scope: Scope) -> dict[str, str]:
    """The query parameters as Starlette reads them (the last of a repeated name)."""
    raw: bytes = scope.get("query_string", b"")
    return dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True)) if raw else {}


async def _send_response(send: Send, response: Response, extra: Any) -> None:
    """A framework response (an error), with ``extra`` headers."""
    headers: Any = [*response.raw_headers, *extra]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})


__all__ = ["ACT_KEYS", "HotRoutes"]
