"""The sandbox's HTTP guards: body size, same-origin writes, JSON bodies, security headers.

Every refusal is a short JSON ``{"error": ...}`` with a 4xx status; nothing a client sends
reaches the log as a traceback.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from obverse.loader import MAX_INT, bounded_int
from obverse.web.table import TableError

#: Largest request body accepted (a scenario upload is the largest legitimate one).
MAX_BODY = 512 * 1024
#: Deepest JSON nesting accepted (the deepest legitimate body, an effect, is 4 deep).
MAX_DEPTH = 16
#: Methods that change state: only the page's own origin may send them.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def error(status: int, message: str) -> JSONResponse:
    """The one error shape of the API."""
    return JSONResponse({"error": message}, status_code=status)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def too_big(scope: Scope, limit: int = MAX_BODY) -> JSONResponse | None:
    """The 413 for a request that declares a body over ``limit`` bytes, else ``None``."""
    declared = _header(scope, b"content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > limit):
        return error(413, f"request body over {limit} bytes")
    return None


class BodyLimit:
    """ASGI middleware: refuse bodies over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = too_big(scope, self.limit)
        if refused is not None:
            await refused(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(413, f"request body over {self.limit} bytes")
            return message

        await self.app(scope, limited, send)


async def read_body(receive: Receive, limit: int = MAX_BODY) -> bytes:
    """A request's whole body, as :class:`BodyLimit` and Starlette's ``Request.body`` read it
    (413 as a :class:`TableError` past ``limit`` bytes)."""
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        if message["type"] == "http.request":
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                raise TableError(413, f"request body over {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def own_origin(scope: Scope) -> str | None:
    """The origin the request was addressed to (scheme and ``Host``), lower-case."""
    host = _header(scope, b"host")
    if not host:
        return None
    return f"{scope.get('scheme', 'http')}://{host}".lower()


def claimed_origin(scope: Scope) -> str | None:
    """The origin a browser says the request comes from: ``Origin``, else the ``Referer``'s
    origin; ``None`` when neither is sent (a client that is not a web page)."""
    origin = _header(scope, b"origin")
    if origin is not None:
        return origin.strip().lower()
    referer = _header(scope, b"referer")
    if referer is None:
        return None
    parts = urlsplit(referer.strip())
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme else "null"


#: The host names the sandbox answers by default: loopback only. Any other ``Host`` (a
#: rebinding attacker's domain resolved to 127.0.0.1) is refused before any handler.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def host_name(host: str) -> str:
    """The name in a ``Host`` header (or an origin's netloc), without port, lower-case
    (``[::1]:8000`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def host_refusal(scope: Scope, allowed: frozenset[str]) -> JSONResponse | None:
    """421 for a request whose ``Host`` is not one the sandbox was started for (DNS
    rebinding: the attacker's page is same-origin with its own name, so only the name tells
    it apart), and 403 for a write whose ``Origin`` names another host; else ``None``."""
    host = _header(scope, b"host")
    if host is None or host_name(host) not in allowed:
        return error(421, "unknown host: this sandbox answers only the names it was started for")
    claimed = claimed_origin(scope)
    if claimed is not None and scope.get("method") in WRITES:
        netloc = urlsplit(claimed).netloc
        if host_name(netloc) not in allowed:
            return error(403, "cross-origin request refused: use the sandbox's own page")
    return None


class AllowedHosts:
    """ASGI middleware, outermost: every request (the hot routes and the event stream
    included) must name an allowed host (:func:`host_refusal`)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refused = host_refusal(scope, self.hosts)
            if refused is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                headers: Any = [*refused.raw_headers, *SECURITY_HEADERS]
                start = {"type": "http.response.start", "status": refused.status_code}
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": refused.body})
                return
        await self.app(scope, receive, send)


def write_refusal(scope: Scope) -> JSONResponse | None:
    """The refusal of a write from another origin (403) or, to the API, not JSON (415);
    ``None`` for a read or an acceptable write."""
    if scope["method"] not in WRITES:
        return None
    claimed = claimed_origin(scope)
    if claimed is not None and claimed != own_origin(scope):
        return error(403, "cross-origin request refused: use the sandbox's own page")
    ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if scope["path"].startswith("/api/") and ctype != "application/json":
        return error(415, "expected Content-Type: application/json")
    return None


class SameOrigin:
    """ASGI middleware: a write must come from the sandbox's own page (403 otherwise, so
    another site can't drive a local sandbox) and, to the API, be JSON (415 otherwise, so
    no plain-text or form POST gets in)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = write_refusal(scope)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: What :class:`SecurityHeaders` adds to every response.
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
)


class SecurityHeaders:
    """Same-origin everything: no outside scripts, no framing, referrers only to itself
    (a same-origin referrer policy keeps the ``Origin`` header of the page's own writes,
    which ``no-referrer`` would turn into ``null``; seat tokens live in the URL fragment,
    which no ``Referer`` carries)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar: 0); iterative."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            deepest = max(deepest, level)
            continue
        deepest = max(deepest, level + 1)
        stack.extend((x, level + 1) for x in item)
    return deepest


async def json_body(request: Request, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """The request's JSON object (400 if malformed, nested too deep or not an object; with
    ``keys``, 400 for any other key; 413 if too large)."""
    try:
        raw = await request.body()
    except HTTPException as exc:
        raise TableError(exc.status_code, str(exc.detail)) from None
    return parse_json(raw, keys)


def _int64(text: str) -> int:
    """A request's integer: 64 bits at most (no field takes more; a store can't keep it)."""
    value = bounded_int(text, 19)
    if abs(value) > MAX_INT:
        raise ValueError(f"integer out of range (at most {MAX_INT} either way)")
    return value


def parse_json(raw: bytes, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """A request body's JSON object (as :func:`json_body` says)."""
    if not raw.strip():
        raise TableError(400, "expected a JSON object in the request body")
    try:
        data = json.loads(raw, parse_int=_int64)
    except RecursionError:
        raise TableError(400, f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TableError(400, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise TableError(400, "expected a JSON object in the request body")
    if depth(data) > MAX_DEPTH:
        raise TableError(400, f"JSON nested deeper than {MAX_DEPTH} levels")
    if keys is not None:
        unknown = sorted(set(data) - keys)
        if unknown:
            raise TableError(400, f"unknown key {unknown[0]!r} ({', '.join(sorted(keys))})")
    return data


__all__ = [
    "LOOPBACK_HOSTS",
    "MAX_BODY",
    "MAX_DEPTH",
    "SECURITY_HEADERS",
    "AllowedHosts",
    "BodyLimit",
    "SameOrigin",
    "SecurityHeaders",
    "claimed_origin",
    "depth",
    "error",
    "host_name",
    "host_refusal",
    "json_body",
    "own_origin",
    "parse_json",
    "read_body",
    "too_big",
    "write_refusal",
]
