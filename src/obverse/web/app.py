"""The web sandbox: a Starlette app with a JSON API and one static page.

Routes (every ``/api/t/{token}`` route is one seat of one game; the token is its secret;
``/api/tables/{token}/...`` is the same route):

- ``GET /`` the page; ``GET /static/...`` its script and style
- ``GET /api/rulesets``; ``GET /api/cards?ruleset=mtg&q=del`` (autocomplete)
- ``POST /api/tables`` ``{ruleset, title?, players?, seed?}``: a new table (a random seed
  unless given); returns the seat tokens
- ``POST /api/tables/import`` ``{scenario: TEXT}``: a scenario file opened as a table
- ``GET /api/t/{token}``: the seat's view, log and ruleset (``?since=N&after=KEY``: only the
  log entries after the N-th, whose key the page holds)
- ``GET /api/t/{token}/events``: server-sent events, one ``change`` whenever what the seat
  sees changes (the page then fetches the state)
- ``GET /api/t/{token}/legal``: the offers, ``{verb, object, args, rule, label, group}`` (with a
  free target, ``targets: {arg: [choices]}`` and each choice's ``choice_labels``, ``args`` naming
  the first)
- ``GET /api/t/{token}/inspect?ref=REF``: one object as the seat may read it, with the
  rulings that decided its characteristics (:mod:`obverse.web.inspect`)
- ``POST /api/t/{token}/act`` ``{verb, object?, args?}``: an action (answers the state,
  with the same ``since``/``after``)
- judge only: ``POST .../setup`` (add a card), ``POST .../remove``, ``POST .../undo``,
  ``GET .../export`` (the scenario file)

Writes must come from the page's own origin and be JSON (see :mod:`obverse.web.transport`).
A player's or spectator's response is built from :func:`obverse.views.view` only, and the
objects it names are its own handles; errors to those seats never quote labels or names.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import secrets
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from obverse.carddata import bundled, close_names, unknown_card_error
from obverse.carddb import CardDB, default_path
from obverse.cards import CardDef
from obverse.errors import InputError
from obverse.importers.download import more_cards_hint
from obverse.loader import load_text
from obverse.registry import default_alias
from obverse.rulesets import get_ruleset, rulesets
from obverse.web import budget, transport
from obverse.web.answer import encode_state, log_query, log_start, seat_digest
from obverse.web.answer import view_json as view_json  # where it was first defined
from obverse.web.export import dump_yaml, export_scenario, scenario_head
from obverse.web.fields import players_field, scalar_args, text_field
from obverse.web.hot import ACT_KEYS, HotRoutes
from obverse.web.inspect import inspect as inspect_object
from obverse.web.store import (
    JUDGE,
    GameRecord,
    Store,
    StoreError,
    StoreUnavailable,
    default_tables_path,
)
from obverse.web.table import Request as ActRequest
from obverse.web.table import (
    Table,
    TableError,
    build_step,
    card_builtins,
    legal_body,
    ruleset_info,
    seat_error,
    try_step,
)
from obverse.web.transport import (
    MAX_BODY,
    AllowedHosts,
    BodyLimit,
    SameOrigin,
    SecurityHeaders,
    error,
    host_name,
    json_body,
)

STATIC = Path(__file__).parent / "static"
#: The operator's log (a stored table that fails to load says why here, not to seats).
LOG = logging.getLogger("obverse.web")
#: What every seat is told of a stored table that fails to load (it names no card).
UNLOADABLE = "this table can't be loaded by this version of the server; its operator's log says why"
#: Seconds between an event stream's keep-alive comments (on a fixed beat, never on a change
#: a seat can't see, so their timing tells nothing).
PING_EVERY = 15.0
#: Beats after which a stream ends; the browser's EventSource reconnects by itself.
STREAM_BEATS = 20
SETUP_FLAGS = ("face_down", "token", "transformed", "flipped")


class Sandbox:
    """The app's state: the game store, a cache of replayed tables, the card database."""

    def __init__(self, store: Store, db_path: str | None = None) -> None:
        self.store = store
        self.db_path = db_path
        self._db: Any = None
        self._names: dict[str, list[str]] = {}
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._seats: OrderedDict[str, tuple[str, str]] = OrderedDict()
        #: Every seat's token per judge token (they never change: derived or sealed).
        self._tokens: OrderedDict[str, dict[str, str]] = OrderedDict()
        #: One event per game with a stream waiting on it, set (and dropped) on a change.
        self._changes: dict[str, asyncio.Event] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Set at shutdown: every stream ends at once rather than be cancelled.
        self.closing = False
        #: Seconds a game must stay quiet after a change before its seats' offers are made
        #: unasked (``None``: never; ``obverse serve`` sets :data:`WARM_AFTER`).
        self.warm_after: float | None = None
        self._warming: dict[str, asyncio.Handle] = {}
        #: Each cached table's estimated weight, and their sum (see :meth:`remember`).
        self._weights: dict[str, int] = {}
        self.cached_bytes = 0
        #: Versions of games found not to load (logged once each).
        self._unloadable: set[tuple[str, int]] = set()

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
        """A card by name and whether it must be inlined (it comes from the database): the
        database first (imported cards are the newest printings), the bundled cards after."""
        get = self.lookup(game)
        found = get(name) if get is not None else None
        if found is not None:
            return found, True
        return bundled(game).get(name), False

    # --- tables -----------------------------------------------------------------------------

    def table(self, game: str) -> Table:
        """The game replayed (the newest version this process built is kept per game: only
        a version it has not built, such as after a restart or an undo, is loaded and
        replayed whole)."""
        version = self.store.version(game)
        cached = self._tables.get(game)
        if cached is not None and cached.rec.version == version:
            self._tables.move_to_end(game)
            return cached
        rec = self.store.load(game)
        if rec is None:
            raise TableError(404, "no such table")
        if cached is not None and cached.rec.version == rec.version:
            self._tables.move_to_end(game)
            return cached
        try:
            table = Table(rec, self.lookup(get_ruleset(rec.ruleset).game))
        except Exception as exc:
            # The cause may name hidden cards (a stored card no longer resolves, with
            # suggestions): it goes to the operator's log only, never to a seat.
            if (game, rec.version) not in self._unloadable:  # once per version, not request
                self._unloadable.add((game, rec.version))
                LOG.error("table %s (version %d) failed to load: %s", game, rec.version, exc)
            raise TableError(503, UNLOADABLE) from None
        return self.remember(game, table)

    def remember(self, game: str, table: Table) -> Table:
        """Cache a replayed table as its game's current one. Older versions are dropped: no
        request asks for them, and what they keep (views, bodies) would only weigh on the
        garbage collector. The cache is bounded in bytes (:data:`budget.CACHE_BYTES`, each
        table's weight estimated from its objects and steps): the least recently used
        tables are dropped first, to be replayed from the store if asked again."""
        weight = budget.cost(len(table.rec.setup), table.rec.steps).bytes
        self.cached_bytes += weight - self._weights.get(game, 0)
        self._weights[game] = weight
        self._tables[game] = table
        self._tables.move_to_end(game)
        while self.cached_bytes > budget.CACHE_BYTES and len(self._tables) > 1:
            old, _ = self._tables.popitem(last=False)
            self.cached_bytes -= self._weights.pop(old, 0)
        return table

    def seat(self, token: str) -> tuple[str, str]:
        """``(game, seat)`` of a token (404 for an unknown one)."""
        found = self._seats.get(token)
        if found is None:
            found = self.store.seat_of(token) if 8 <= len(token) <= 64 else None
            if found is None:
                raise TableError(404, "unknown table or seat")
            # A seat's token never changes nor goes away: known ones are kept (a bounded
            # number, most recent first), so a request opens the store once, not twice.
            self._seats[token] = found
            while len(self._seats) > 4096:
                self._seats.popitem(last=False)
        else:
            self._seats.move_to_end(token)
        return found

    def seat_tokens(self, game: str, judge_token: str) -> dict[str, str]:
        """Every seat's token of a game, for its judge (kept: they never change)."""
        found = self._tokens.get(judge_token)
        if found is None:
            found = self._tokens[judge_token] = self.store.tokens(game, judge_token)
            while len(self._tokens) > 1024:
                self._tokens.popitem(last=False)
        return found

    def append(self, game: str, kind: str, actor: str, payload: Any) -> int:
        """Store one event and wake the game's event streams."""
        seq = self.store.append(game, kind, actor, payload)
        changed = self._changes.pop(game, None)
        if changed is not None:
            changed.set()
        self._warm_later(game)
        return seq

    def _warm_later(self, game: str) -> None:
        """Once the game has stayed quiet for :attr:`warm_after` seconds after a change,
        make the offers of its seats that nobody asked for yet (each seat's page asks for
        them after every change): the first request finds them made. A change meanwhile
        starts the wait again, so a busy game is never warmed in its stride."""
        if self.warm_after is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving: nothing to warm for
            return
        waiting = self._warming.pop(game, None)
        if waiting is not None:
            waiting.cancel()
        self._warming[game] = loop.call_later(self.warm_after, self._warm, game)

    def _warm(self, game: str) -> None:
        """Make one seat's offers that nobody asked for yet, then let the loop serve what
        waits before the next seat's (each can take tens of milliseconds on a big board)."""
        self._warming.pop(game, None)
        if self.closing:
            return
        try:
            table = self.table(game)
        except TableError:
            return
        for seat in (JUDGE, *table.state.players):
            if not table.has_seen("legal", seat):
                table.seen("legal", seat, functools.partial(legal_body, table, seat))
                self._warming[game] = asyncio.get_running_loop().call_soon(self._warm, game)
                return

    async def wait_change(self, game: str, timeout: float) -> None:
        """Until the game changes here or ``timeout`` seconds pass (another process sharing
        the file is caught on the next beat: streams compare versions, not wake-ups)."""
        self._loop = asyncio.get_running_loop()
        changed = self._changes.setdefault(game, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

    def close_streams(self) -> None:
        """End every event stream (from any thread: the server's shutdown)."""
        self.closing = True
        loop, events = self._loop, list(self._changes.values())
        self._changes.clear()
        if loop is not None and not loop.is_closed():
            for changed in events:
                loop.call_soon_threadsafe(changed.set)

    def seat_version(self, game: str, seat: str, token: str) -> str:
        """The version a seat's stream reports (see :meth:`state_json`)."""
        if seat == JUDGE:
            self.table(game)  # a table that fails to load ends the judge's stream too
            return str(self.store.version(game))
        version: str = self.state_json(game, seat, self.table(game), token)["version"]
        return version

    def state_json(
        self, game: str, seat: str, table: Table, token: str, since: int = 0, after: str = ""
    ) -> dict[str, Any]:
        """What the page gets for a seat: the view, the log, the ruleset. The log comes
        whole, or only its entries after the ``since``-th when the seat's copy ends with
        ``after``, that entry's key (each key chains the entries before it, so a log an
        undo rewrote comes whole again: ``log_from`` says which)."""
        log = table.kept_log(seat)
        out: dict[str, Any] = {
            "seat": seat,
            "version": "",
            "ruleset": table.seen("ruleset", "", lambda: ruleset_info(table.rs.name)),
            "title": table.rec.title,
            "players": list(table.state.players),
            "view": table.seen("view", seat, lambda: table.seat_view(seat)),
        }
        if seat != JUDGE:
            # The version a seat follows is a digest of what it sees (the log through its
            # last entry's key, which chains the others), so not even the number of stored
            # events (a hidden card's definition is one) reaches it.
            out["version"] = table.seen("version", seat, lambda: seat_digest(table, seat, out, log))
        else:
            out["version"] = str(table.rec.version)
            out["game"] = game
            out["seats"] = self.seat_tokens(game, token)
            out["labels"] = [e["label"] for e in table.rec.setup]
            if table.broken:
                out["broken"] = table.broken
        start = log_start(log, since, after)
        out["log"], out["log_from"], out["log_length"] = log[start:], start, len(log)
        return out

    def state_bytes(
        self, game: str, seat: str, table: Table, token: str, since: int = 0, after: str = ""
    ) -> bytes:
        """:meth:`state_json` encoded once per table, seat and first log entry sent (the
        view in any answer once per table and seat)."""
        start = log_start(table.kept_log(seat), since, after)
        # Clients that polled the same version ask from the same entry: one encoding each
        # (a few kept per table and seat, whatever entries clients ask from).
        kept: dict[int, bytes] = table.seen("state-from", seat, dict)
        made = kept.get(start)
        if made is None:
            made = encode_state(
                table, seat, self.state_json(game, seat, table, token, since, after)
            )
            if len(kept) < 8:
                kept[start] = made
        return made


class Api:
    """The route handlers over one :class:`Sandbox`."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    async def index(self, request: Request) -> Response:
        """The page."""
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def list_rulesets(self, request: Request) -> Response:
        """Every ruleset, as the page needs it."""
        return JSONResponse([ruleset_info(cls.aliases[0]) for cls in rulesets()])

    async def cards(self, request: Request) -> Response:
        """Card names for autocomplete: prefix matches, then inner matches."""
        try:
            rs = get_ruleset(request.query_params.get("ruleset") or default_alias())
        except InputError as exc:
            raise TableError(400, exc.message) from None
        q = request.query_params.get("q", "").strip().casefold()[:100]
        names = self.sandbox.names(rs.game)
        if q:
            starts = [n for n in names if n.casefold().startswith(q)]
            inner = [n for n in names if q in n.casefold() and n not in starts]
            names = starts + inner
        return JSONResponse({"names": names[:20]})

    async def new_table(self, request: Request) -> Response:
        """A new empty table, with a random seed unless one is given."""
        data = await json_body(request, frozenset({"ruleset", "title", "players", "seed"}))
        try:
            rs = get_ruleset(text_field(data, "ruleset", 40, default_alias()))
        except InputError as exc:
            raise TableError(400, exc.message) from None
        players = players_field(data.get("players", ["alice", "bob"]))
        title = text_field(data, "title", 200, "")
        seed = data.get("seed", secrets.randbits(31))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise TableError(400, "seed: expected a whole number from 0 to 2**63 - 1")
        game, seats = self.sandbox.store.create(rs.name, tuple(players), title, seed)
        return JSONResponse({"game": game, "seats": seats}, status_code=201)

    def _parse_upload(self, text: str) -> dict[str, Any]:
        """The uploaded scenario, parsed once and validated with the card database of its
        game (when there is one)."""
        try:
            raw = load_text(text, "upload")
        except InputError as exc:
            raise TableError(422, f"not a valid scenario: {exc.describe()}") from None
        players = raw.get("players") if isinstance(raw, dict) else None
        if isinstance(players, list) and all(isinstance(p, str) for p in players):
            players_field(players)  # the same rule as a new table's (other shapes: the validator's)
        alias = raw.get("ruleset") if isinstance(raw, dict) else None
        lookup = None
        if isinstance(alias, str):
            with contextlib.suppress(InputError):
                lookup = self.sandbox.lookup(get_ruleset(alias).game)
        try:
            return scenario_head(raw, lookup, "upload")
        except InputError as exc:
            raise TableError(422, f"not a valid scenario: {exc.describe()}") from None

    async def import_table(self, request: Request) -> Response:
        """A scenario file opened as a table (it must replay)."""
        data = await json_body(request, frozenset({"scenario"}))
        text = data.get("scenario")
        if not isinstance(text, str) or not text.strip():
            raise TableError(400, "scenario: expected the text of a scenario file")
        head = self._parse_upload(text)
        budget.check(len(head["setup"]), head["steps"])  # before it is replayed
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
            scripted=len(head["steps"]),
        )
        game_name = get_ruleset(head["ruleset"]).game
        try:
            broken = Table(trial, self.sandbox.lookup(game_name)).broken
        except InputError as exc:
            raise TableError(422, f"not a valid scenario: {exc.describe()}") from None
        if broken:
            raise TableError(422, f"the scenario does not replay: {broken}")
        # One transaction: the table exists whole or not at all (a full disk midway leaves
        # nothing behind); its steps are the scripted ones, shuffling by the file's seed.
        events = [
            *(("card", item) for item in head["cards"]),
            *(("setup", item) for item in head["setup"]),
            *(("step", step) for step in head["steps"]),
        ]
        game, seats = self.sandbox.store.create(
            get_ruleset(head["ruleset"]).name,
            tuple(head["players"]),
            head["title"],
            head["seed"],
            head["pregame"],
            events,
        )
        return JSONResponse({"game": game, "seats": seats}, status_code=201)

    async def seat_state(self, request: Request) -> Response:
        """The seat's state (the log from ``?since``)."""
        token = request.path_params["token"]
        body = self.state_answer(token, request.query_params)
        return Response(body, media_type="application/json")

    def state_answer(self, token: str, query: Mapping[str, str]) -> bytes:
        """The seat's state as JSON (the log from ``since`` in ``query``)."""
        game, seat = self.sandbox.seat(token)
        since, after = log_query(query)
        table = self.sandbox.table(game)
        return self.sandbox.state_bytes(game, seat, table, token, since, after)

    async def legal(self, request: Request) -> Response:
        """The actions offered to the seat."""
        body = self.legal_answer(request.path_params["token"])
        return Response(body, media_type="application/json")

    def legal_answer(self, token: str) -> bytes:
        """The actions offered to the seat, as JSON."""
        game, seat = self.sandbox.seat(token)
        table = self.sandbox.table(game)
        made: bytes = table.seen("legal", seat, lambda: legal_body(table, seat))
        return made

    async def inspect(self, request: Request) -> Response:
        """``?ref=``: one object as the seat may read it (:mod:`obverse.web.inspect`)."""
        game, seat = self.sandbox.seat(request.path_params["token"])
        ref = request.query_params.get("ref", "")
        if not 0 < len(ref) <= 200:
            raise TableError(400, "ref: expected the name of an object")
        return JSONResponse(inspect_object(self.sandbox.table(game), seat, ref))

    async def events(self, request: Request) -> Response:
        """Server-sent events: ``change`` (with the seat's version) whenever what the seat
        sees changes, a comment on a fixed beat, then the end (the browser reconnects)."""
        token = request.path_params["token"]
        game, seat = self.sandbox.seat(token)
        sandbox = self.sandbox

        async def stream() -> AsyncIterator[str]:
            yield "retry: 3000\n\n"
            last = None
            loop = asyncio.get_running_loop()
            beat = loop.time() + PING_EVERY
            beats = 0
            while beats < STREAM_BEATS and not sandbox.closing:
                try:
                    version = sandbox.seat_version(game, seat, token)
                except TableError as exc:
                    yield f"event: gone\ndata: {json.dumps({'error': exc.message})}\n\n"
                    return
                if version != last:
                    last = version
                    yield f"event: change\ndata: {json.dumps({'version': version})}\n\n"
                if loop.time() >= beat:
                    beat, beats = loop.time() + PING_EVERY, beats + 1
                    yield ": beat\n\n"
                await sandbox.wait_change(game, max(0.0, beat - loop.time()))

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"X-Accel-Buffering": "no"},
        )

    async def act(self, request: Request) -> Response:
        """One action by the seat."""
        token = request.path_params["token"]
        self.sandbox.seat(token)  # an unknown seat is told so before its body is read
        data = await json_body(request, ACT_KEYS)
        body = self.act_answer(token, data, request.query_params)
        return Response(body, media_type="application/json")

    def act_answer(self, token: str, data: dict[str, Any], query: Mapping[str, str]) -> bytes:
        """One action by the seat (``data``: the request's JSON object); its state as JSON
        with the action's log entry (the log from ``since`` in ``query``)."""
        game, seat = self.sandbox.seat(token)
        args = scalar_args(data.get("args"))
        verb, ref = data.get("verb", ""), data.get("object")
        if not isinstance(verb, str) or not (ref is None or isinstance(ref, str)):
            raise TableError(400, "verb, object: expected strings (object may be null)")
        table = self.sandbox.table(game)
        step = build_step(table, seat, ActRequest(verb=verb, ref=ref, args=args))
        budget.check(len(table.rec.setup), [*table.rec.steps, (step, seat)])
        new = try_step(table, seat, step)
        seq = self.sandbox.append(game, "step", seat, step)
        new.rec.version = seq
        self.sandbox.remember(game, new)
        since, after = log_query(query)
        out = self.sandbox.state_json(game, seat, new, token, since, after)
        out["last"] = new.log_entry(len(new.history), new.history[-1], seat)
        return encode_state(new, seat, out)

    def judge(self, token: str) -> tuple[str, Table]:
        """The judge's game and table (403 for any other seat)."""
        game, seat = self.sandbox.seat(token)
        if seat != JUDGE:
            raise TableError(403, "only the judge may do this")
        return game, self.sandbox.table(game)

    def _setup_entry(self, table: Table, data: dict[str, Any]) -> tuple[dict[str, Any], CardDef]:
        rs, st = table.rs, table.state
        name = text_field(data, "card", 200).strip()
        if not name:
            raise TableError(400, "card: expected a card name")
        card, _ = self.sandbox.card(rs.game, name)
        if card is None:  # the same words and suggestions as an unknown name in a scenario
            exc = unknown_card_error(name, _Names(self.sandbox.names(rs.game)))
            raise TableError(400, f"{exc.key}: {exc.message}{more_cards_hint(rs.game)}")
        owner = data.get("owner", st.players[0])
        if not isinstance(owner, str) or owner not in st.players:
            raise TableError(400, f"owner: unknown player (one of {', '.join(st.players)})")
        zone = data.get("zone")
        if not isinstance(zone, str) or not rs.is_zone(zone):
            raise TableError(400, f"zone: unknown zone for {rs.name}")
        label = table.new_label(card.face_names[0] if card.face_names else card.name)
        entry: dict[str, Any] = {"label": label, "card": name, "owner": owner, "zone": zone}
        for key in SETUP_FLAGS:
            if data.get(key) is not None:
                if not isinstance(data[key], bool):
                    raise TableError(400, f"{key}: expected true or false")
                if data[key]:
                    entry[key] = True
        if data.get("face") not in (None, ""):
            if data["face"] not in ("front", "back", "left", "right", "both"):
                raise TableError(400, "face: expected front, back, left, right or both")
            entry["face"] = data["face"]
        return entry, card

    async def add_card(self, request: Request) -> Response:
        """Judge: a card added to the setup (the steps must still replay)."""
        token = request.path_params["token"]
        game, table = self.judge(token)
        keys = frozenset({"card", "owner", "zone", "face", *SETUP_FLAGS})
        data = await json_body(request, keys)
        entry, card = self._setup_entry(table, data)
        _, inline = self.sandbox.card(table.rs.game, entry["card"])
        rec = table.rec
        cards = list(rec.cards)
        new_card = inline and not any(c.get("name") == card.name for c in cards)
        if new_card:
            cards.append(card_builtins(card))
        budget.check(len(rec.setup) + 1, rec.steps)
        trial = replace(rec, cards=cards, setup=[*rec.setup, entry], version=rec.version + 1)
        try:
            new = Table(trial, table.extra)
        except InputError as exc:
            raise seat_error(table, JUDGE, exc, "setup") from None
        if new.broken:
            raise TableError(409, f"with this card the steps no longer replay: {new.broken}")
        if new_card:
            self.sandbox.append(game, "card", JUDGE, card_builtins(card))
        self.sandbox.append(game, "setup", JUDGE, entry)
        state = self.sandbox.state_json(game, JUDGE, self.sandbox.table(game), token)
        return JSONResponse({"label": entry["label"], **state})

    async def remove_card(self, request: Request) -> Response:
        """Judge: a setup entry removed (the steps must still replay)."""
        token = request.path_params["token"]
        game, table = self.judge(token)
        data = await json_body(request, frozenset({"object"}))
        label = text_field(data, "object", 200)
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
        self.sandbox.append(game, "unsetup", JUDGE, label)
        return JSONResponse(self.sandbox.state_json(game, JUDGE, self.sandbox.table(game), token))

    async def undo(self, request: Request) -> Response:
        """Judge: the last step withdrawn."""
        token = request.path_params["token"]
        game, table = self.judge(token)
        await json_body(request, frozenset())
        if not table.rec.steps:
            raise TableError(409, "nothing to undo")
        self.sandbox.append(game, "undo", JUDGE, None)
        return JSONResponse(self.sandbox.state_json(game, JUDGE, self.sandbox.table(game), token))

    async def export(self, request: Request) -> Response:
        """Judge: the table as a scenario file."""
        game, table = self.judge(request.path_params["token"])
        text = dump_yaml(export_scenario(table))
        return Response(
            text,
            media_type="application/yaml; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="obverse-{game}.yaml"'},
        )

    def routes(self) -> list[Route | Mount]:
        """Every route (seat routes under ``/api/t/`` and ``/api/tables/``)."""
        seat_routes: list[tuple[str, Any, list[str]]] = [
            ("", self.seat_state, ["GET"]),
            ("/events", self.events, ["GET"]),
            ("/legal", self.legal, ["GET"]),
            ("/inspect", self.inspect, ["GET"]),
            ("/act", self.act, ["POST"]),
            ("/setup", self.add_card, ["POST"]),
            ("/remove", self.remove_card, ["POST"]),
            ("/undo", self.undo, ["POST"]),
            ("/export", self.export, ["GET"]),
        ]
        routes: list[Route | Mount] = [
            Route("/", self.index),
            Route("/api/rulesets", self.list_rulesets),
            Route("/api/cards", self.cards),
            Route("/api/tables", self.new_table, methods=["POST"]),
            Route("/api/tables/import", self.import_table, methods=["POST"]),
        ]
        for prefix in ("/api/t/{token}", "/api/tables/{token}"):
            for path, handler, methods in seat_routes:
                if prefix.startswith("/api/tables") and not path:
                    continue  # /api/tables/{token} alone would shadow nothing but confuse
                routes.append(Route(prefix + path, handler, methods=methods))
        routes.append(Mount("/static", StaticFiles(directory=str(STATIC)), name="static"))
        return routes


class _Names:
    """A list of card names that suggests the closest (for :func:`unknown_card_error`)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def suggest(self, name: str, limit: int = 5) -> list[str]:
        """Up to ``limit`` names closest to ``name``."""
        return close_names(name, self.names, limit)


async def _table_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TableError)
    return error(exc.status, exc.message)


async def _store_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StoreUnavailable)
    return error(exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, str(exc.detail))


def create_app(
    store: Store | str | Path | None = None,
    db: str | None = None,
    hot: bool = True,
    allowed_hosts: Iterable[str] = (),
) -> Starlette:
    """The sandbox app over a game store (a :class:`Store`, an SQLite path, or by default
    the user's data directory) and an optional card database path (for autocomplete and
    cards beyond the bundled ones). ``hot=False`` leaves the hot routes to the framework
    (:mod:`obverse.web.hot`; the answers are the same). It answers only requests whose
    ``Host`` is loopback or one of ``allowed_hosts`` (421 otherwise, before any route)."""
    owned = not isinstance(store, Store)  # a store the caller made stays open
    if not isinstance(store, Store):
        store = Store(default_tables_path() if store is None else store)
    api = Api(Sandbox(store, db))
    tables = store

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if owned:
            tables.close()  # the last connection's close folds the write-ahead log into the file

    app = Starlette(
        routes=api.routes(),
        exception_handlers={
            TableError: _table_error,
            StoreUnavailable: _store_error,
            HTTPException: _http_error,
        },
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(SameOrigin)
    app.add_middleware(BodyLimit)
    if hot:  # outside the other guards: the hot routes skip the rest
        app.add_middleware(HotRoutes, api=api)
    hosts = frozenset(host_name(h) for h in (*transport.LOOPBACK_HOSTS, *allowed_hosts))
    app.add_middleware(AllowedHosts, hosts=hosts)  # outermost: before any handler
    app.state.sandbox = api.sandbox
    return app


def card_db_path(db: str | None) -> str | None:
    """The card database ``serve`` reads: ``db``, else ``$OBVERSE_DB`` or the user's data
    directory's when that file exists (as ``obverse run`` and ``obverse card`` do)."""
    if db is not None:
        if not Path(db).is_file():
            raise StoreError(f"--db: {db}: no such card database")
        return db
    found = default_path()
    return str(found) if found.is_file() else None


#: Seconds of quiet after a change before ``obverse serve`` makes a game's offers unasked.
WARM_AFTER = 0.25

#: The collector's thresholds while serving: a request allocates thousands of short-lived
#: containers (trial states, response parts), so the default 700 runs the young collection
#: thousands of times a second and promotes enough to trigger full collections, each a
#: pause of tens of milliseconds (most of the p99). Young objects still go young.
GC_THRESHOLDS = (10_000, 20, 100)


def tune_gc() -> None:
    """Set the collector for serving: what is loaded at startup (modules, bundled cards) is
    frozen out of every collection, and the thresholds are :data:`GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    store: str | None = None,
    allowed_hosts: tuple[str, ...] = (),
) -> None:
    """Run the sandbox with uvicorn until interrupted (tables in ``store``, by default the
    user's data directory; exits 2 with one line for a bad ``--db`` or ``--tables``). It
    answers loopback names, ``host`` (unless a wildcard) and ``allowed_hosts``."""
    import uvicorn

    named = () if host in ("", "0.0.0.0", "::") else (host,)
    try:
        app = create_app(store, card_db_path(db), allowed_hosts=(*named, *allowed_hosts))
    except (StoreError, OSError) as exc:
        print(f"obverse serve: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    sandbox: Sandbox = app.state.sandbox
    sandbox.warm_after = WARM_AFTER
    tune_gc()

    class Server(uvicorn.Server):
        """Ends the event streams first, so shutting down waits for none of them."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            sandbox.close_streams()
            super().handle_exit(sig, frame)

    # No access log: API paths carry seat tokens, which belong to the seats alone.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    Server(config).run()


__all__ = ["MAX_BODY", "BodyLimit", "Sandbox", "card_db_path", "create_app", "serve"]
