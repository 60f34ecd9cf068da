"""A web table: a stored game replayed through the scenario runner, and what each seat sees.

The game a table holds *is* a scenario in the contract's form (inline cards, setup entries
with labels, action steps): every request validates it with the scenario validator and
replays it with the scenario runner, so what the browser shows is what ``obverse run``
computes from the exported file (but the order of a live shuffle, which comes from the table's
secret key: see :func:`live_shuffle_key`). Labels are the judge's names for cards; a player or
spectator only ever gets handles from :func:`obverse.views.view` and names the objects it
acts on by those handles, which are mapped back to labels here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from obverse import memo
from obverse import scenario as scn_mod
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.engine import Legal, check_actor, normalize
from obverse.errors import InputError, ObverseError, RulesError, quote, shorten, suggest
from obverse.fastoffers import OfferMemo
from obverse.memo import ByIdentity
from obverse.rulesets import Ruleset, get_ruleset
from obverse.rulings import Event, Outcome, Ruling
from obverse.runner import Runner, _Nothing
from obverse.scenario import to_step
from obverse.state import GameObject, GameState
from obverse.views import is_visible, view_events
from obverse.vocab import verb_of
from obverse.web.offers import legal_actions, legal_body
from obverse.web.seatview import (
    SeatParts,
    judge_view,
    player_view,
    seat_handles,
    seat_names,
)
from obverse.web.store import JUDGE, SPECTATOR, GameRecord

CardLookup = Callable[[str], CardDef | None]


class TableError(Exception):
    """A request the table refuses: ``status`` is the HTTP status, ``message`` what to say
    to the seat (never a hidden card's name, label or id for a player or spectator)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class StepRecord:
    """One replayed step: the states around it and what the kernel said."""

    step: dict[str, Any]
    actor: str
    before: GameState
    after: GameState
    result: str
    rulings: tuple[Ruling, ...]
    events: tuple[Event, ...]
    main: int | None


class _Recorder(Runner):
    """The scenario runner, also keeping the events of the last action."""

    last_events: tuple[Event, ...] = ()

    def record(self, out: Outcome) -> None:
        super().record(out)
        self.last_events = out.events


def live_shuffle_key(handle_key: bytes) -> bytes:
    """The key of a table's live shuffles, derived from its secret handle key (so nothing
    more is stored, and a replay reproduces every live shuffle)."""
    return hmac.new(handle_key, b"obverse live shuffles", "sha256").digest()


def scenario_data(
    rec: GameRecord,
    steps: Iterable[dict[str, Any]] | None = None,
    setup: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The scenario (contract form, without expectations) a stored game consists of."""
    data: dict[str, Any] = {"ruleset": rec.ruleset}
    if rec.title:
        data["title"] = rec.title
    data["players"] = list(rec.players)
    if rec.seed:
        data["seed"] = rec.seed
    if rec.pregame:
        data["pregame"] = True
    if rec.cards:
        data["cards"] = list(rec.cards)
    data["setup"] = list(rec.setup if setup is None else setup)
    data["steps"] = list(s for s, _ in rec.steps) if steps is None else list(steps)
    return data


def validate(
    data: Mapping[str, Any], extra: CardLookup | None, path: str = "table"
) -> scn_mod.Scenario:
    """Validate scenario data with the contract's validator (steps may be empty here)."""
    raw = dict(data)
    sentinel = not raw.get("steps")
    if sentinel:
        raw["steps"] = [{"expect": {"last_result": "done"}}]
    try:
        scn = scn_mod._validate(path, raw, extra)
    except (InputError, RulesError) as exc:
        raise exc if isinstance(exc, InputError) else InputError("", "", str(exc)) from None
    if sentinel:
        scn.steps = []
    return scn


class Table:
    """A stored game replayed: the current state, labels, and every step's record.

    A table is never changed once built: :meth:`append` returns a new table that shares the
    states (immutable) and the records of the earlier steps, and copies only the runner's
    small bookkeeping, so an action costs one step, not a replay. What a seat sees of a
    table (view, log, offers) is computed once per table and seat and kept with it.
    """

    def __init__(self, rec: GameRecord, extra: CardLookup | None = None) -> None:
        self.rec = rec
        self.extra = extra
        self.scn = validate(scenario_data(rec, steps=[]), extra)
        # The validator's bookkeeping (label kinds, remembered names), kept so a new step
        # is validated alone, exactly as it would be at the end of the whole file.
        self._labels: dict[str, str] = {}
        self._remembered: set[str] = set()
        for i, entry in enumerate(self.scn.setup, 1):
            place = f"setup[{i}]"
            scn_mod._validate_setup(
                entry, place, self.rs, self.scn.resolver, self.scn.players, self._labels
            )
        self.scn.steps = [self._validated(step, n) for n, (step, _) in enumerate(rec.steps, 1)]
        # Steps a scenario file brought shuffle by its seed; every later step is live play,
        # whose shuffles are keyed by the table's secret (stored, never sent).
        live = live_shuffle_key(rec.handle_key) if rec.scripted == 0 else b""
        self.runner = _Recorder(self.scn, secret=rec.handle_key or None, shuffle_key=live)
        self.runner.run_setup()
        self.history: list[StepRecord] = []
        self.broken: str | None = None
        self._seen: dict[tuple[str, str], Any] = {}
        self._logs: dict[str, list[dict[str, Any]]] = {}
        self._log_json: dict[str, list[bytes]] = {}
        #: The kernel's offers on earlier states of this game (shared with the tables
        #: :meth:`append` makes: a new state decides only what changed).
        self.offer_memo = OfferMemo()
        #: Offers without names, per action (shared the same way).
        self.offer_templates: dict[v.Action, Any] = {}
        #: Per (state, seat): the names it can't identify and can (see :meth:`hidden_names`;
        #: shared the same way).
        self._state_names: dict[str, ByIdentity[tuple[set[str], set[str]]]] = {}
        #: Each seat's encoded offers (see :func:`legal_body`; shared the same way).
        self.offer_bytes: dict[str, ByIdentity[bytes]] = {}
        #: Each seat's encoded parts of its last offers, by the identity of the kernel's
        #: part (:meth:`~obverse.fastoffers.OfferMemo.parts`; shared the same way), and its kept
        #: offers by the objects they name.
        self.part_bytes: dict[str, ByIdentity[bytes]] = {}
        self.offer_naming: dict[str, dict[int, list[Legal]]] = {}
        #: Each seat's last view's zones as JSON, by the zone's identity (shared the same way).
        self.zone_bytes: dict[str, ByIdentity[bytes]] = {}
        #: Each seat's last name of every object it named in offers (shared the same way).
        self.offer_names: dict[str, dict[int, str]] = {}
        #: What each seat was given of the objects (see :mod:`obverse.web.seatview`; shared
        #: the same way).
        self.seat_parts = SeatParts()
        actors = [a for _, a in rec.steps]
        for (name, arg), actor in zip(self.scn.steps, actors, strict=True):
            if not self._replay(name, arg, actor):
                break

    @property
    def rs(self) -> Ruleset:
        """The table's ruleset."""
        return self.scn.ruleset

    @staticmethod
    def _check(fn: Callable[[], object]) -> Any:
        """Run a validator, its errors as :class:`InputError` (as :func:`validate` does)."""
        try:
            return fn()
        except RulesError as exc:
            raise InputError("", "", str(exc)) from None

    def _validated(self, step: dict[str, Any], n: int) -> tuple[str, Any]:
        found: tuple[str, Any] = self._check(
            lambda: scn_mod._validate_step(
                step,
                f"step {n}",
                scn_mod._Scope(
                    self.rs, self.scn.resolver, self.scn.players, self._labels, self._remembered
                ),
            )
        )
        return found

    def _replay(self, name: str, arg: Any, actor: str) -> bool:
        """Run one step; a step that no longer runs marks the table broken (``False``)."""
        try:
            self._run(name, arg, actor)
        except (ObverseError, KeyError, ValueError, TypeError, AssertionError) as exc:
            self.broken = f"step {len(self.history) + 1} ({name}) no longer replays: {exc}"
            return False
        return True

    def append(self, step: dict[str, Any], seat: str, version: int | None = None) -> Table:
        """This table with ``step`` (taken by ``seat``) run after the others, as a new table
        (this one is unchanged); raises :class:`InputError` for a step the contract refuses.
        A broken table is replayed whole (it stays broken)."""
        steps = [*self.rec.steps, (step, seat)]
        rec = replace(self.rec, steps=steps, version=version or self.rec.version + 1)
        if self.broken is not None:
            return Table(rec, self.extra)
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.rec = rec
        new._labels, new._remembered = dict(self._labels), set(self._remembered)
        name, arg = new._validated(step, len(steps))
        new.scn = replace(self.scn, steps=[*self.scn.steps, (name, arg)])
        runner = _Recorder.__new__(_Recorder)
        runner.__dict__.update(self.runner.__dict__)
        runner.scn = new.scn
        runner.labels, runner.effects = dict(runner.labels), set(runner.effects)
        runner.remembered, runner.last_ids = dict(runner.remembered), dict(runner.last_ids)
        runner.failures, runner.log = list(runner.failures), list(runner.log)
        new.runner = runner
        new.history = list(self.history)
        new._seen = {}
        # A seat's log so far stays valid: earlier entries never change.
        new._logs = {seat: list(log) for seat, log in self._logs.items()}
        new._log_json = {seat: list(done) for seat, done in self._log_json.items()}
        new._replay(name, arg, seat)
        return new

    def has_seen(self, kind: str, seat: str) -> bool:
        """Whether :meth:`seen` made ``kind`` for ``seat`` already."""
        return (kind, seat) in self._seen

    def seen(self, kind: str, seat: str, make: Callable[[], Any]) -> Any:
        """What ``seat`` gets of ``kind`` (a view, the offers ...), computed once per table.
        Callers must not change the answer: later requests share it."""
        key = (kind, seat)
        if key not in self._seen:
            self._seen[key] = make()
        return self._seen[key]

    # --- running --------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.runner.state

    def _main_card(self, name: str, arg: Any) -> int | None:
        if isinstance(arg, str):
            label: Any = arg
        elif isinstance(arg, dict):
            label = arg.get("object") or arg.get("hero") or arg.get("of")
            if label is None and isinstance(arg.get("objects"), list) and arg["objects"]:
                label = arg["objects"][0]
        else:
            label = None
        if not isinstance(label, str) or label not in self.runner.labels:
            return None
        kind, ident = self.runner.labels[label]
        if kind == "card":
            return ident
        obj = self.state.objects.get(ident)
        return None if obj is None else obj.card

    def _run(self, name: str, arg: Any, actor: str) -> StepRecord:
        if len(self.history) == self.rec.scripted and not self.state.shuffle_key:
            # The first live step: from here on shuffles are unpredictable to the seats.
            key = live_shuffle_key(self.rec.handle_key)
            self.runner.state = msgspec.structs.replace(self.state, shuffle_key=key)
        before = self.state
        main = self._main_card(name, arg)
        self.runner.last_events = ()
        self.runner.act(name, arg)
        result = self.runner.last_result or "done"
        rec = StepRecord(
            step={name: arg},
            actor=actor,
            before=before,
            after=self.state,
            result=result,
            rulings=self.runner.last_rulings,
            events=self.runner.last_events,
            main=main,
        )
        self.history.append(rec)
        return rec

    def label_of(self, obj: GameObject) -> str | None:
        """The label standing for ``obj`` (its card's label; a meld label as a fallback)."""
        found: dict[int, str] = self.seen("labels", "", self._label_map)
        return found.get(obj.id)

    def _label_map(self) -> dict[int, str]:
        """Object id -> label: the first card label whose card the object is, else the
        first label of the object itself (one pass over the labels, not one per object)."""
        found: dict[int, str] = {}
        for label, (kind, ident) in self.runner.labels.items():
            if kind == "card":
                obj = self.state.object_of_card(ident)
                if obj is not None:
                    found.setdefault(obj.id, label)
        for label, (kind, ident) in self.runner.labels.items():
            if kind == "obj" and ident in self.state.objects:
                found.setdefault(ident, label)
        return found

    def object_of_label(self, label: str) -> GameObject | None:
        """The object a label stands for now."""
        if label not in self.runner.labels:
            return None
        return self.runner.obj(label)

    def used_labels(self) -> set[str]:
        """Every label in use (cards, tokens, melds and effects share one namespace)."""
        # The validator's labels too: an effect's label is known to it alone (the runner
        # keeps no object for it), and a second effect must not reuse it.
        return {
            *self.runner.labels,
            *self.runner.effects,
            *self._labels,
            *(e["label"] for e in self.rec.setup),
        }

    def new_label(self, base: str) -> str:
        """A fresh label from ``base`` (a card name or a kind)."""
        words = re.findall(r"[a-z0-9]+", base.lower())
        stem = words[0] if words else "card"
        used = self.used_labels()
        if stem not in used:
            return stem
        n = 2
        while f"{stem}{n}" in used:
            n += 1
        return f"{stem}{n}"

    # --- what a seat sees -------------------------------------------------------------------

    def viewer(self, seat: str) -> str | None:
        """The kernel's viewer for a seat (``None``: a spectator)."""
        return None if seat == SPECTATOR else seat

    def legal_actions(self, seat: str) -> list[dict[str, Any]]:
        """What the kernel lets ``seat`` do now (see :func:`legal_actions`)."""
        return legal_actions(self, seat)

    def handles(self, seat: str) -> dict[str, GameObject]:
        """The seat's handles, each mapped to the object it stands for (computed once per
        table and seat: callers must not change it)."""
        v = self.viewer(seat)
        found: dict[str, GameObject] = self.seen(
            "handles", seat, lambda: seat_handles(self.seat_parts, self.state, seat, v)
        )
        return found

    def printed(self, obj: GameObject) -> dict[str, Any]:
        """The printed (or copied) faces an identified object shows, for drawing."""
        layout, faces = self.rs.printed_faces(self.state, obj)
        return {"layout": layout, "printed": _faces_builtins(faces)}

    def judge_view(self) -> dict[str, Any]:
        """Everything: the true characteristics and status of every object, with labels."""
        labels: dict[int, str] = self.seen("labels", "", self._label_map)
        return judge_view(self.seat_parts, self.state, self.rs, labels, self.printed)

    def seat_view(self, seat: str) -> dict[str, Any]:
        """The seat's view: :func:`obverse.views.view`, with the printed faces of the
        objects it can identify (nothing is added to the others)."""
        if seat == JUDGE:
            return self.judge_view()
        objs = self.handles(seat)
        return player_view(self.seat_parts, self.state, seat, self.viewer(seat), objs, self.printed)

    def hidden_names(self, seat: str, states: Iterable[GameState]) -> set[str]:
        """Names of cards the seat can't identify in any of ``states`` and sees nowhere."""
        hidden: set[str] = set()
        shown: set[str] = set()
        for st in states:
            state_hidden, state_shown = self._names_of(st, seat)
            hidden |= state_hidden
            shown |= state_shown
        return {n for n in hidden - shown if n}

    def _names_of(self, st: GameState, seat: str) -> tuple[set[str], set[str]]:
        """The names of the cards ``seat`` can't identify in ``st``, and of those it can
        (once per state and seat: a step's state is the next step's state before)."""
        kept = self._state_names.get(seat)
        if kept is None:
            kept = self._state_names[seat] = ByIdentity()
        found = kept.get(st)
        if found is not None:
            return found
        v = self.viewer(seat)
        if len(kept) > 1024:  # bounded: only the newest states are asked again
            kept.clear()
        return kept.put(seat_names(self.seat_parts, st, seat, v, self.rs), st)

    def scrub(self, text: str, secret: Iterable[str]) -> str:
        """``text`` with every secret name and every label replaced."""
        for name in sorted(secret, key=len, reverse=True):
            text = text.replace(name, "a hidden card")
        return text

    def log_entry(self, n: int, rec: StepRecord, seat: str) -> dict[str, Any]:
        """One step as the seat may know it: the verb, the actor, the events it may see,
        and the result and rulings only if it could identify the object acted on."""
        ((verb, _arg),) = rec.step.items()
        entry: dict[str, Any] = {"n": n, "actor": rec.actor, "verb": verb}
        if seat == JUDGE:
            entry.update(
                step=rec.step,
                result=rec.result,
                rulings=[{"rule": r.rule, "reason": r.reason} for r in rec.rulings],
                events=[self._judge_event(rec, ev) for ev in rec.events],
            )
            return entry
        v = self.viewer(seat)
        seen = rec.main is None
        for st in (rec.before, rec.after):
            o = st.object_of_card(rec.main) if rec.main is not None else None
            if o is not None and is_visible(st, v, o, self.rs):
                seen = True
        entry["events"] = view_events(rec.before, rec.after, rec.events, v)
        if seen:
            secret = self.hidden_names(seat, (rec.before, rec.after))
            entry["result"] = rec.result
            entry["rulings"] = [
                {"rule": r.rule, "reason": self.scrub(r.reason, secret)} for r in rec.rulings
            ]
        else:
            entry["withheld"] = True
        return entry

    def _judge_event(self, rec: StepRecord, ev: Event) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": ev.kind,
            "player": ev.player,
            "from": ev.zone_from,
            "to": ev.zone_to,
        }
        if ev.card is not None and ev.card in rec.after.cards:
            out["card"] = rec.after.cards[ev.card].card.name
        if ev.detail is not None:
            out["detail"] = ev.detail
        return out

    def log(self, seat: str) -> list[dict[str, Any]]:
        """The whole log as the seat may know it, each entry with its chained ``key`` (see
        :func:`chain_keys`); entries are computed once and shared by later tables, so
        callers must not change them."""
        return list(self.kept_log(seat))

    def kept_log(self, seat: str) -> list[dict[str, Any]]:
        """:meth:`log` itself, not a copy (every request reads it): callers must change
        neither the list nor its entries."""
        log = self._logs.setdefault(seat, [])
        if len(log) > len(self.history):  # pragma: no cover - a table only grows
            del log[:]
        key = log[-1]["key"] if log else ""
        for i in range(len(log), len(self.history)):
            entry = self.log_entry(i + 1, self.history[i], seat)
            key = entry["key"] = entry_key(key, entry)
            log.append(entry)
        return log

    def log_json(self, seat: str, start: int) -> bytes:
        """The seat's log from its ``start``-th entry as a JSON array, each entry encoded
        once (shared by later tables like the entries: a poll re-encodes nothing old)."""
        log = self.kept_log(seat)
        done = self._log_json.setdefault(seat, [])
        del done[len(log) :]  # an entry made again (a log only grows: never, in fact)
        done += map(msgspec.json.encode, log[len(done) :])
        return b"[" + b",".join(done[start:]) + b"]"


def _faces_builtins(faces: tuple[Any, ...]) -> list[Any]:
    """``faces`` as plain data (a new list of the shared, never changed, face mappings)."""
    return list(_faces_data(faces))


@memo.per_identity("faces", kept=4096)
def _faces_data(faces: tuple[Any, ...]) -> list[Any]:
    """Printed faces as plain data, per (immutable) tuple of them (don't change it)."""
    return [msgspec.to_builtins(f) for f in faces]


def entry_key(previous: str, entry: Mapping[str, Any]) -> str:
    """A log entry's key: a digest of it and the previous entry's key."""
    text = previous + json.dumps(entry, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def chain_keys(log: list[dict[str, Any]]) -> None:
    """Give each log entry a ``key``: a digest of it and the previous entry's key."""
    key = ""
    for entry in log:
        key = entry["key"] = entry_key(key, entry)


@dataclass
class Request:
    """An action a seat asks for, before it is turned into a contract step."""

    verb: str
    ref: str | None = None
    args: dict[str, Any] = field(default_factory=dict)


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise TableError(400, message)


def _ref(table: Table, seat: str, ref: Any, what: str) -> tuple[str, GameObject]:
    """The label and object a seat's reference stands for (a label for the judge, a handle
    from the seat's own view otherwise)."""
    _need(isinstance(ref, str) and 0 < len(ref) <= 200, f"{what}: expected an object reference")
    if seat == JUDGE:
        obj = table.object_of_label(ref)
        if obj is None:
            raise TableError(404, f"{what}: no object is labelled {ref!r}")
        return ref, obj
    obj = table.handles(seat).get(ref)
    if obj is None:
        raise TableError(404, f"{what}: unknown object (not a handle of your view)")
    label = table.label_of(obj)
    if label is None:  # pragma: no cover - every object has a card label
        raise TableError(404, f"{what}: unknown object")
    return label, obj


def build_step(table: Table, seat: str, req: Request) -> dict[str, Any]:
    """Turn a seat's request into a contract step, checking the seat may ask for it.

    The request names the action's main object ``object`` (its subject, else its first
    object field; a pair's second is ``args.with``) and the other fields in ``args``; objects
    are the seat's handles (the judge's labels). The typed action decides what is valid."""
    rs = table.rs
    _need(isinstance(req.verb, str), "verb: expected a string")
    cls = rs.action_class(req.verb)
    if cls is None or cls.is_query:
        verbs = ruleset_info(rs.name)["verbs"]
        raise TableError(
            400,
            f"verb: {quote(req.verb)} is not an action of {rs.name}{suggest(str(req.verb), verbs)}",
        )
    if seat == SPECTATOR:
        raise TableError(403, "a spectator can't act")
    _need(isinstance(req.args, dict), "args: expected a mapping")
    data = _request_fields(table, seat, cls, req)
    try:
        action = msgspec.convert({"verb": req.verb, **data}, cls)
        action = normalize(table.state, action)  # the kernel's names: zones, players
    except msgspec.ValidationError as exc:
        raise TableError(400, f"{req.verb}: {shorten(str(exc))}") from None
    except InputError as exc:
        raise TableError(400, f"{req.verb}: {exc.describe()}") from None
    _seat_policy(table, seat, action)
    step = to_step(action, lambda oid: table.label_of(table.state.objects[oid]) or "")
    if cls.creates:  # the contract names the new object
        body = step[req.verb]
        step[req.verb] = {**body, "label": table.new_label(req.verb.split("_")[-1])}
    if seat != JUDGE:
        check_references(table, seat, step)
    return step


def _request_fields(table: Table, seat: str, cls: type[v.Action], req: Request) -> dict[str, Any]:
    """The typed action's fields from a request, objects resolved to ids."""
    data = {k: val for k, val in req.args.items() if val is not None and val != ""}
    main = cls.subject or (cls.refs[0] if cls.refs else None)
    if main is not None and req.ref is not None:
        data[main] = [req.ref, data.pop("with", None)] if main == "objects" else req.ref
        if main in _PILES:  # the first of a pile, the others `with`
            data[main] = [req.ref, *(data.pop("with", None) or [])]
    for key in sorted(cls.refs, key=lambda k: k != main):  # the main object first
        value = data.get(key)
        objs = [
            _ref(table, seat, x, key)[1]
            for x in (value if isinstance(value, list) else [value])
            if x is not None
        ]
        if key == main and objs and seat != JUDGE and not may_act_on(table, seat, objs[0]):
            raise TableError(
                403,
                "object: you may act only on objects you own or control and "
                "can see (the judge may act on any)",
            )
        if objs:
            data[key] = [o.id for o in objs] if isinstance(value, list) else objs[0].id
    if "player" in cls.player_fields and "player" not in data and seat != JUDGE:
        data["player"] = seat  # a player examines or shuffles as themself
    if isinstance(data.get("to"), str) and cls is v.Reveal:
        data["to"] = [data["to"]]
    if cls is v.ApplyEffect:
        data["label"] = table.new_label("effect")  # the judge's name for the effect
    return data


def _seat_policy(table: Table, seat: str, action: v.Action) -> None:
    """The seat policy (the kernel's, :meth:`~obverse.rulesets.Ruleset.may_act_on`): a
    player acts with objects they own or control and can see, as themself; only the judge
    starts the game."""
    if seat == JUDGE or table.rs.may_act_on(table.state, seat, action):
        return
    if isinstance(action, v.StartGame):
        raise TableError(403, "only the judge starts the game")
    _need(False, "player: you may act only as yourself")


def may_act_on(table: Table, seat: str, obj: GameObject) -> bool:
    """The kernel's seat policy (:meth:`~obverse.rulesets.Ruleset.may_act`): a player acts
    only with objects they own or control and can see; what they may *refer* to is the
    kernel's call too."""
    return table.rs.may_act(table.state, seat, obj)


def check_references(table: Table, seat: str, step: dict[str, Any]) -> None:
    """The kernel's actor check on every object the step names: a seat can't name a card it
    can't identify. The refusal is the same whatever the card is."""
    ((verb, arg),) = step.items()
    try:
        action, _ = table.runner.to_action(verb, arg)
    except (InputError, msgspec.ValidationError, _Nothing):
        return  # the replay reports it like any other bad step
    if check_actor(table.state, action, seat) is not None:
        raise TableError(403, f"{verb}: you can't refer to a card you can't identify")


#: Main fields naming a list of objects of any length (mtg choose_exiled's pile).
_PILES: frozenset[str] = frozenset({"among"})


def seat_error(table: Table, seat: str, exc: Exception, verb: str) -> TableError:
    """A kernel error as the seat may read it: the judge gets the message; a player or a
    spectator only the offending key (messages may name labels or cards)."""
    if seat == JUDGE:
        text = exc.describe() if isinstance(exc, InputError) else str(exc)
        return TableError(422, f"{verb}: {text}")
    key = exc.key if isinstance(exc, InputError) else ""
    safe = key if re.fullmatch(r"[a-z_.]{1,40}", key or "") else ""
    return TableError(
        422, f"{verb}: the rules engine refused it" + (f" (argument {safe})" if safe else "")
    )


def try_step(table: Table, seat: str, step: dict[str, Any]) -> Table:
    """The table with ``step`` appended by ``seat``, replayed; raises :class:`TableError`
    (and changes nothing) if the step is invalid, errors, or is ``illegal``."""
    ((verb, _),) = step.items()
    try:
        new = table.append(step, seat)
    except InputError as exc:
        raise seat_error(table, seat, exc, verb) from None
    if new.broken is not None or len(new.history) != len(new.rec.steps):
        if seat == JUDGE:
            raise TableError(422, new.broken or f"{verb}: could not be carried out")
        raise TableError(422, f"{verb}: the rules engine could not carry it out")
    last = new.history[-1]
    if last.result == "illegal":
        secret = new.hidden_names(seat, (last.before, last.after)) if seat != JUDGE else set()
        why = "; ".join(f"{r.rule}: {new.scrub(r.reason, secret)}" for r in last.rulings)
        raise TableError(409, f"{verb}: illegal under {new.rs.name}" + (f" ({why})" if why else ""))
    return new


def card_builtins(card: CardDef) -> dict[str, Any]:
    """A card definition in the contract's inline form (JSON's: lists, not the tuples
    ``to_builtins`` keeps, which the scenario's checks refuse)."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(card))
    return data


@memo.per_value(kept=64)
def ruleset_info(alias: str) -> dict[str, Any]:
    """What the page needs to know of a ruleset: zones, verbs, faces (computed once per
    alias: callers must not change the answer)."""
    rs = get_ruleset(alias)
    verbs = [verb_of(c) for c in rs.vocabulary() if not c.is_query]
    return {
        "name": rs.name,
        "title": rs.title,
        "game": rs.game,
        "version": rs.version,
        "zones": sorted(rs.zones),
        "play_zone": rs.play_zone,
        "stack_zone": rs.stack_zone,
        "shared_zones": sorted(z for z in rs.zones if rs.is_shared(z)),
        "public_zones": sorted(z for z in rs.zones if rs.is_public(z)),
        "verbs": verbs,
        "table_verbs": sorted(verb_of(c) for c in rs.vocabulary() if not c.refs and not c.is_query),
    }


__all__ = [
    "Request",
    "StepRecord",
    "Table",
    "TableError",
    "build_step",
    "card_builtins",
    "chain_keys",
    "check_references",
    "entry_key",
    "legal_actions",
    "legal_body",
    "ruleset_info",
    "scenario_data",
    "seat_error",
    "try_step",
    "validate",
]
