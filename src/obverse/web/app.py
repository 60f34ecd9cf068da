"""The web sandbox: a Starlette app with a JSON API and one static page.

Routes (every ``/api/t/{token}`` route is one seat of one game; the token is its secret):

- ``GET /`` the page; ``GET /static/...`` its script and style
- ``GET /api/rulesets``; ``GET /api/cards?ruleset=mtg&q=del`` (autocomplete)
- ``POST /api/tables`` ``{ruleset, title?, players?}``: a new table; returns the seat tokens
- ``POST /api/tables/import`` ``{scenario: TEXT}``: a scenario file opened as a table
- ``GET /api/t/{token}``: the seat's view, log and ruleset (``?since=V``: ``unchanged``)
- ``POST /api/t/{token}/act`` ``{verb, object?, args?}``: an action
- judge only: ``POST .../setup`` (add a card), ``POST .../remove``, ``POST .../undo``,
  ``GET .../export`` (the scenario file)

A player's or spectator's response is built from :func:`obverse.views.view` only, and the
objects it names are its own handles; errors to those seats never quote labels or names.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from obverse.carddata import bundled
from obverse.carddb import CardDB
from obverse.cards import CardDef
from obverse.errors import InputError
from obverse.loader import load_text
from obverse.rulesets import get_ruleset, rulesets
from obverse.web.export import dump_yaml, export_scenario, parse_scenario
from obverse.web.store import JUDGE, SPECTATOR, GameRecord, Store
from obverse.web.table import (
    Request as ActRequest,
)
from obverse.web.table import (
    Table,
    TableError,
    build_step,
    card_builtins,
    ruleset_info,
    seat_error,
    try_step,
)

STATIC = Path(__file__).parent / "static"
#: Largest request body accepted (a scenario upload is the largest legitimate one).
MAX_BODY = 512 * 1024
PLAYER_NAME_MAX = 24


class BodyLimit:
    """ASGI middleware: refuse bodies over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _error(413, f"request body over {self.limit} bytes")(scope, receive, send)
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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class Sandbox:
    """The app's state: the game store, a cache of replayed tables, the card database."""

    def __init__(self, store: Store, db_path: str | None = None) -> None:
        self.store = store
        self.db_path = db_path
        self._db: Any = None
        self._names: dict[str, list[str]] = {}
        self._tables: OrderedDict[tuple[str, int], Table] = OrderedDict()

    # --- cards ------------------------------------------------------------------------------

    def db(self) -> Any:
        """The card database (opened on first use, in the serving thread), or ``None``."""
        if self.db_path is None:
            return None
        if self._db is None:
            self._db = CardDB(self.db_path)
        return self._db

    def lookup(self, game: str) -> Any:
        """A name lookup in the card database for ``game`` (``None`` without one)."""
        db = self.db()
        if db is None:
            return None

        def get(name: str) -> CardDef | None:
            card: CardDef | None = db.get(game, name)
            return card

        return get

    def names(self, game: str) -> list[str]:
        """Every card name of ``game``: bundled, then the database's."""
        if game not in self._names:
            names = list(dict.fromkeys(c.name for c in bundled(game).cards))
            names += [n for n in bundled(game).names() if n not in names]
            db = self.db()
            if db is not None:
                names += [n for n in db.names(game) if n not in set(names)]
            self._names[game] = names
        return self._names[game]

    def card(self, game: str, name: str) -> tuple[CardDef | None, bool]:
        """A card by name and whether it must be inlined (it comes from the database)."""
        card = bundled(game).get(name)
        if card is not None:
            return card, False
        get = self.lookup(game)
        found = get(name) if get is not None else None
        return found, found is not None

    # --- tables -----------------------------------------------------------------------------

    def table(self, game: str) -> Table:
        """The game replayed (cached per version)."""
        rec = self.store.load(game)
        if rec is None:
            raise TableError(404, "no such table")
        key = (game, rec.version)
        cached = self._tables.get(key)
        if cached is not None:
            self._tables.move_to_end(key)
            return cached
        try:
            table = Table(rec, self.lookup(get_ruleset(rec.ruleset).game))
        except InputError as exc:
            raise TableError(500, f"the stored game no longer validates: {exc}") from None
        return self.remember(game, table)

    def remember(self, game: str, table: Table) -> Table:
        """Cache a replayed table under its version."""
        self._tables[(game, table.rec.version)] = table
        while len(self._tables) > 64:
            self._tables.popitem(last=False)
        return table

    def seat(self, token: str) -> tuple[str, str]:
        """``(game, seat)`` of a token (404 for an unknown one)."""
        found = self.store.seat_of(token) if 8 <= len(token) <= 64 else None
        if found is None:
            raise TableError(404, "unknown table or seat")
        return found

    def state_json(self, game: str, seat: str, table: Table) -> dict[str, Any]:
        """What the page gets for a seat: the view, the log, the ruleset."""
        out: dict[str, Any] = {
            "seat": seat,
            "version": "",
            "ruleset": ruleset_info(table.rs.name),
            "title": table.rec.title,
            "players": list(table.state.players),
            "view": table.seat_view(seat),
            "log": table.log(seat),
        }
        if seat != JUDGE:
            # The version a seat polls with is a digest of what it sees, so not even the
            # number of stored events (a hidden card's definition is one) reaches it.
            digest = hashlib.blake2b(json.dumps(out, sort_keys=True).encode(), digest_size=8)
            out["version"] = digest.hexdigest()
        else:
            out["version"] = str(table.rec.version)
            out["game"] = game
            out["seats"] = self.store.tokens(game)
            out["labels"] = [e["label"] for e in table.rec.setup]
            if table.broken:
                out["broken"] = table.broken
        return out


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except HTTPException as exc:
        raise TableError(exc.status_code, str(exc.detail)) from None
    if not raw:
        raise TableError(400, "expected a JSON object in the request body")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TableError(400, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise TableError(400, "expected a JSON object in the request body")
    return data


def create_app(
    store: Store | str | Path = "obverse-web.sqlite3", db: str | None = None
) -> Starlette:
    """The sandbox app over a game store (a :class:`Store` or an SQLite path) and an
    optional card database path (for autocomplete and cards beyond the bundled ones)."""
    sandbox = Sandbox(store if isinstance(store, Store) else Store(store), db)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def list_rulesets(request: Request) -> Response:
        return JSONResponse([ruleset_info(cls.aliases[0]) for cls in rulesets()])

    async def cards(request: Request) -> Response:
        try:
            rs = get_ruleset(request.query_params.get("ruleset", "mtg"))
        except InputError as exc:
            raise TableError(400, exc.message) from None
        q = request.query_params.get("q", "").strip().casefold()[:100]
        names = sandbox.names(rs.game)
        if q:
            starts = [n for n in names if n.casefold().startswith(q)]
            inner = [n for n in names if q in n.casefold() and n not in starts]
            names = starts + inner
        return JSONResponse({"names": names[:20]})

    async def new_table(request: Request) -> Response:
        data = await _json_body(request)
        alias = data.get("ruleset", "mtg")
        if not isinstance(alias, str):
            raise TableError(400, "ruleset: expected a ruleset alias")
        try:
            rs = get_ruleset(alias)
        except InputError as exc:
            raise TableError(400, exc.message) from None
        players = data.get("players", ["alice", "bob"])
        if (
            not isinstance(players, list)
            or not 1 <= len(players) <= 4
            or len(set(players)) != len(players)
            or not all(
                isinstance(p, str)
                and p.isidentifier()
                and len(p) <= PLAYER_NAME_MAX
                and p not in (JUDGE, SPECTATOR)
                for p in players
            )
        ):
            raise TableError(400, "players: expected 1 to 4 distinct simple names")
        title = data.get("title", "")
        if not isinstance(title, str) or len(title) > 200:
            raise TableError(400, "title: expected a short string")
        game, seats = sandbox.store.create(rs.name, tuple(players), title)
        return JSONResponse({"game": game, "seats": seats}, status_code=201)

    async def import_table(request: Request) -> Response:
        data = await _json_body(request)
        text = data.get("scenario")
        if not isinstance(text, str) or not text.strip():
            raise TableError(400, "scenario: expected the text of a scenario file")
        alias = None
        try:
            head = parse_scenario(text, None, "upload")
        except InputError as exc:
            # Cards only the database knows: retry with it.
            try:
                raw = load_text(text, "upload")
                alias = raw.get("ruleset") if isinstance(raw, dict) else None
                game_name = get_ruleset(alias).game if isinstance(alias, str) else None
            except InputError:
                game_name = None
            if game_name is None or sandbox.lookup(game_name) is None:
                raise TableError(422, f"not a valid scenario: {exc.describe()}") from None
            try:
                head = parse_scenario(text, sandbox.lookup(game_name), "upload")
            except InputError as exc2:
                raise TableError(422, f"not a valid scenario: {exc2.describe()}") from None
        trial = GameRecord(
            id="import",
            ruleset=head["ruleset"],
            title=head["title"],
            players=tuple(head["players"]),
            seed=head["seed"],
            pregame=head["pregame"],
            cards=head["cards"],
            setup=head["setup"],
            steps=[(step, JUDGE) for step in head["steps"]],
        )
        try:
            broken = Table(trial, sandbox.lookup(get_ruleset(head["ruleset"]).game)).broken
        except InputError as exc:
            raise TableError(422, f"not a valid scenario: {exc.describe()}") from None
        if broken:
            raise TableError(422, f"the scenario does not replay: {broken}")
        store = sandbox.store
        game, seats = store.create(
            get_ruleset(head["ruleset"]).name,
            tuple(head["players"]),
            head["title"],
            head["seed"],
            head["pregame"],
        )
        for card in head["cards"]:
            store.append(game, "card", JUDGE, card)
        for entry in head["setup"]:
            store.append(game, "setup", JUDGE, entry)
        for step in head["steps"]:
            store.append(game, "step", JUDGE, step)
        return JSONResponse({"game": game, "seats": seats}, status_code=201)

    async def seat_state(request: Request) -> Response:
        game, seat = sandbox.seat(request.path_params["token"])
        since = request.query_params.get("since")
        out = sandbox.state_json(game, seat, sandbox.table(game))
        if since is not None and since == out["version"]:
            return JSONResponse({"unchanged": True, "version": out["version"]})
        return JSONResponse(out)

    async def act(request: Request) -> Response:
        game, seat = sandbox.seat(request.path_params["token"])
        data = await _json_body(request)
        table = sandbox.table(game)
        args = data.get("args") or {}
        if not isinstance(args, dict):
            raise TableError(400, "args: expected a JSON object")
        unknown = set(data) - {"verb", "object", "args"}
        if unknown:
            raise TableError(400, f"unknown key {sorted(unknown)[0]!r} (verb, object, args)")
        step = build_step(
            table, seat, ActRequest(verb=data.get("verb", ""), ref=data.get("object"), args=args)
        )
        new = try_step(table, seat, step)
        seq = sandbox.store.append(game, "step", seat, step)
        new.rec.version = seq
        sandbox.remember(game, new)
        out = sandbox.state_json(game, seat, new)
        out["last"] = new.log_entry(len(new.history), new.history[-1], seat)
        return JSONResponse(out)

    def judge(token: str) -> tuple[str, Table]:
        game, seat = sandbox.seat(token)
        if seat != JUDGE:
            raise TableError(403, "only the judge may do this")
        return game, sandbox.table(game)

    async def add_card(request: Request) -> Response:
        game, table = judge(request.path_params["token"])
        data = await _json_body(request)
        rs, st = table.rs, table.state
        name = data.get("card")
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise TableError(400, "card: expected a card name")
        card, inline = sandbox.card(rs.game, name.strip())
        if card is None:
            raise TableError(404, f"card: unknown card {name!r} for {rs.name}")
        owner = data.get("owner", st.players[0])
        if owner not in st.players:
            raise TableError(400, f"owner: unknown player {owner!r}")
        zone = data.get("zone")
        if not isinstance(zone, str) or not rs.is_zone(zone):
            raise TableError(400, f"zone: unknown zone {zone!r} for {rs.name}")
        label = table.new_label(card.face_names[0] if card.face_names else card.name)
        entry: dict[str, Any] = {"label": label, "card": name.strip(), "owner": owner, "zone": zone}
        for key in ("face_down", "token", "transformed", "flipped"):
            if data.get(key) is not None:
                if not isinstance(data[key], bool):
                    raise TableError(400, f"{key}: expected true or false")
                if data[key]:
                    entry[key] = True
        if data.get("face") not in (None, ""):
            if data["face"] not in ("front", "back", "left", "right", "both"):
                raise TableError(400, "face: expected front, back, left, right or both")
            entry["face"] = data["face"]
        rec = table.rec
        cards = list(rec.cards)
        new_card = inline and not any(c.get("name") == card.name for c in cards)
        if new_card:
            cards.append(card_builtins(card))
        trial = replace(rec, cards=cards, setup=[*rec.setup, entry], version=rec.version + 1)
        try:
            new = Table(trial, table.extra)
        except InputError as exc:
            raise seat_error(table, JUDGE, exc, "setup") from None
        if new.broken:
            raise TableError(409, f"with this card the steps no longer replay: {new.broken}")
        if new_card:
            sandbox.store.append(game, "card", JUDGE, card_builtins(card))
        sandbox.store.append(game, "setup", JUDGE, entry)
        return JSONResponse(
            {"label": label, **sandbox.state_json(game, JUDGE, sandbox.table(game))}
        )

    async def remove_card(request: Request) -> Response:
        game, table = judge(request.path_params["token"])
        data = await _json_body(request)
        label = data.get("object")
        rec = table.rec
        if not any(e["label"] == label for e in rec.setup):
            raise TableError(404, f"object: {label!r} is not a setup entry")
        trial = replace(
            rec, setup=[e for e in rec.setup if e["label"] != label], version=rec.version + 1
        )
        try:
            new = Table(trial, table.extra)
        except InputError as exc:
            raise TableError(
                409, f"a step uses {label!r}; undo it first ({exc.describe()})"
            ) from None
        if new.broken:
            raise TableError(409, f"without {label!r} the steps no longer replay: {new.broken}")
        sandbox.store.append(game, "unsetup", JUDGE, label)
        return JSONResponse(sandbox.state_json(game, JUDGE, sandbox.table(game)))

    async def undo(request: Request) -> Response:
        game, table = judge(request.path_params["token"])
        if not table.rec.steps:
            raise TableError(409, "nothing to undo")
        sandbox.store.append(game, "undo", JUDGE, None)
        return JSONResponse(sandbox.state_json(game, JUDGE, sandbox.table(game)))

    async def export(request: Request) -> Response:
        game, table = judge(request.path_params["token"])
        text = dump_yaml(export_scenario(table))
        return Response(
            text,
            media_type="application/yaml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="obverse-{game}.yaml"'},
        )

    async def table_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableError)
        return _error(exc.status, exc.message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    routes = [
        Route("/", index),
        Route("/api/rulesets", list_rulesets),
        Route("/api/cards", cards),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/import", import_table, methods=["POST"]),
        Route("/api/t/{token}", seat_state),
        Route("/api/t/{token}/act", act, methods=["POST"]),
        Route("/api/t/{token}/setup", add_card, methods=["POST"]),
        Route("/api/t/{token}/remove", remove_card, methods=["POST"]),
        Route("/api/t/{token}/undo", undo, methods=["POST"]),
        Route("/api/t/{token}/export", export),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes, exception_handlers={TableError: table_error, HTTPException: http_error}
    )
    app.add_middleware(_SecurityHeaders)
    app.add_middleware(BodyLimit)
    app.state.sandbox = sandbox
    return app


class _SecurityHeaders:
    """Same-origin everything: no outside scripts, no referrer, no framing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (
                        b"content-security-policy",
                        b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
                    ),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"cache-control", b"no-store"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    store: str = "obverse-web.sqlite3",
) -> None:
    """Run the sandbox with uvicorn until interrupted."""
    import uvicorn

    # No access log: API paths carry seat tokens, which belong to the seats alone.
    uvicorn.run(create_app(store, db), host=host, port=port, log_level="info", access_log=False)


__all__ = ["MAX_BODY", "BodyLimit", "Sandbox", "create_app", "serve"]
