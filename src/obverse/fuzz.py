"""Random play at scale: invariants and non-interference over many seeded histories.

Each history is reproducible from ``(ruleset, seed)``; a failing one is written out as a
scenario file that ``obverse run`` replays. Histories run in a process pool, or on a Ray
cluster (``pip install obverse[ray]``).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import msgspec
import yaml

from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import characteristics
from obverse.engine import apply, legal_actions
from obverse.errors import ObverseError
from obverse.fastoffers import OfferMemo
from obverse.play import deal, random_candidate, random_step, replay
from obverse.rulesets import get_ruleset
from obverse.rulings import Outcome
from obverse.scenario import to_step
from obverse.serialize import dumps, loads
from obverse.state import GameState
from obverse.views import handle, is_visible, view, view_events

PLAYERS = ("alice", "bob")


class InvariantError(AssertionError):
    """A rule invariant broke during random play."""


def card_pool(alias: str) -> list[CardDef]:
    """The cards a ruleset's random games are dealt from: its
    :meth:`~obverse.rulesets.Ruleset.sample_cards`, less meld results."""
    cards = [c for c in get_ruleset(alias).sample_cards() if not c.is_meld_result]
    if not cards:
        raise ObverseError(f"no sample cards for {alias} (its ruleset's sample_cards())")
    return cards


def random_deal(alias: str, rng: random.Random, n: int = 10) -> GameState:
    """``n`` random sample cards in random zones of two players."""
    rs = get_ruleset(alias)
    pool = card_pool(alias)
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    entries = [(rng.choice(pool), rng.choice(PLAYERS), rng.choice(zones)) for _ in range(n)]
    return deal(alias, entries, PLAYERS, seed=rng.randrange(1 << 30))


def try_apply(state: GameState, action: v.Action) -> Outcome | None:
    """Apply an action; ``None`` when the kernel refuses it as impossible."""
    try:
        return apply(state, action)
    except ObverseError:
        return None


def check_invariants(state: GameState, physical_cards: int) -> None:
    """Every card in exactly one zone, counts preserved, faces valid for the zone, and no
    copy able to transform where the rules forbid it."""
    rs = get_ruleset(state.ruleset)
    seen: dict[int, str] = {}

    def need(ok: bool, message: str) -> None:
        if not ok:
            raise InvariantError(message)

    for key, ids in state.zones.items():
        need(len(ids) == len(set(ids)), f"duplicate object in {key}")
        for oid in ids:
            need(oid not in seen, f"object {oid} in {seen.get(oid)} and {key}")
            seen[oid] = key
            obj = state.objects[oid]
            need(rs.zone_key(obj.zone, obj.owner) == key, f"object {oid} filed under {key}")
    need(set(seen) == set(state.objects.keys()), "an object is in no zone")
    for card_id, oid in state.card_object.items():
        need(card_id in state.objects[oid].cards, f"card {card_id} points at a wrong object")
    physical = [c for c, pc in state.cards.items() if not pc.token]
    need(len(physical) == physical_cards, "a card appeared or vanished")
    for c in physical:
        need(c in state.card_object, f"card {c} is in no zone")
    for obj in state.objects.values():
        characteristics(state, obj, rs)  # every object's characteristics can be computed
        # half3 ...: a half of a split card of more than two halves on the stack (mtg_split).
        half = obj.face.startswith("half") and obj.zone == "stack"
        need(half or obj.face in ("front", "back", "left", "right", "both"), f"bad face {obj.face}")
        for problem in rs.invariant_problems(state, obj):  # the game's own
            need(False, problem)


@dataclass
class History:
    """One random history: where it started, what was done, and what went wrong."""

    alias: str
    seed: int
    initial: GameState
    log: list[v.Action] = field(default_factory=list)
    error: str | None = None


def play_history(alias: str, seed: int, steps: int = 40) -> History:
    """Random play from a seeded deal, checking invariants, serialization and replay."""
    rng = random.Random(seed)
    state = random_deal(alias, rng)
    hist = History(alias, seed, state)
    cards = sum(1 for pc in state.cards.values() if not pc.token)
    try:
        for _ in range(steps):
            action, out = random_step(state, rng)
            if out is None:
                continue
            hist.log.append(action)
            state = out.state
            check_invariants(state, cards)
            for viewer in (*PLAYERS, None):
                view(state, viewer)
        if loads(dumps(state)) != state:
            raise InvariantError("serialization changed the state")
        if replay(hist.initial, hist.log) != state:
            raise InvariantError("replaying the log gave another state")
    except (InvariantError, ObverseError, KeyError, ValueError, TypeError) as exc:
        hist.error = f"{type(exc).__name__}: {exc}"
    return hist


def _hidden_zones(alias: str) -> list[str]:
    rs = get_ruleset(alias)
    return sorted(
        z for z in rs.zones if not rs.is_public(z) and not rs.is_shared(z) and z != rs.stack_zone
    )


def twin_history(
    alias: str, seed: int, steps: int = 20, pool: list[CardDef] | None = None
) -> History:
    """Two games differing only in one hidden card of alice's: everything bob gets (views,
    events, and for his own actions and queries the result, rulings and answer) must be
    byte-identical at every step, and the hidden card's names must never reach bob. Every
    verb takes part; bob's actions go through the kernel's actor check naming any object."""
    rng = random.Random(seed)
    rs = get_ruleset(alias)
    pool = pool or card_pool(alias)  # ``pool``: the cards to deal (default: the bundled)
    a, b = rng.sample(pool, 2)
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    public = [(rng.choice(pool), rng.choice(PLAYERS), rng.choice(zones)) for _ in range(6)]
    spot = rng.choice(_hidden_zones(alias))
    twins = [
        deal(alias, [*public[:3], (secret, "alice", spot), *public[3:]], PLAYERS, seed=seed)
        for secret in (a, b)
    ]
    hist = History(alias, seed, twins[0])
    canaries = {*a.face_names, a.name, *b.face_names, b.name}
    canaries -= {n for c, _, _ in public for n in (*c.face_names, c.name)}
    memos = [OfferMemo(), OfferMemo()]  # the fast path, as a Game keeps it
    for _ in range(steps):
        offered = [_offers_seen_by_bob(t, m) for t, m in zip(twins, memos, strict=True)]
        if offered[0] != offered[1]:
            hist.error = "bob's offers tell the twins apart"
            return hist
        leaked = [n for n in canaries if json.dumps(n, ensure_ascii=False) in offered[0]]
        if leaked:
            hist.error = f"{leaked[0]!r} leaks to bob through his offers"
            return hist
        action, actor = _twin_action(twins[0], rng, 4, alias)
        maybe = [_try(t, action, actor) for t in twins]
        outs = [o for o in maybe if o is not None]
        if len(outs) < 2:
            if outs:
                hist.error = f"the twins disagree on whether {action} is possible"
                return hist
            continue
        hist.log.append(action)
        where = [(o.zone, o.owner) if (o := out.state.object_of_card(4)) else None for out in outs]
        if where[0] != where[1]:
            return hist  # the rules themselves told the cards apart (GA regalia): stop
        if any(_bob_identifies(out.state, 4) for out in outs):
            return hist  # a rule made the secret card public to bob (revealed, moved up)
        seen = [_seen_by_bob(before, out, actor) for before, out in zip(twins, outs, strict=True)]
        if seen[0] != seen[1]:
            hist.error = f"bob can tell the twins apart after {action} by {actor}"
            return hist
        # A name leaks as a JSON string value (quoted), not as a substring of another name.
        leaked = [n for n in canaries if json.dumps(n, ensure_ascii=False) in seen[0]]
        if leaked:
            hist.error = f"{leaked[0]!r} leaks to bob after {action} by {actor}"
            return hist
        twins = [out.state for out in outs]
    return hist


def _offers_seen_by_bob(state: GameState, memo: OfferMemo) -> str:
    """Bob's offers, as canonical JSON (entries, order, rulings, choices), from the plain
    definition; the fast path must give the very same."""
    plain = legal_actions(state, "bob")
    fast = [x for part in memo.parts(state, "bob") for x in part]
    seen: list[Any] = [
        [msgspec.to_builtins(x.action), [str(r) for r in x.rulings], list(x.choices())]
        for x in plain
    ]
    if fast != plain:
        seen.append("the fast path differs")
    return json.dumps(seen, sort_keys=True, ensure_ascii=False)


def _bob_identifies(state: GameState, card: int) -> bool:
    obj = state.object_of_card(card)
    return obj is not None and is_visible(state, "bob", obj)


def _try(state: GameState, action: v.Action, actor: str | None) -> Outcome | None:
    try:
        return apply(state, action, actor)
    except ObverseError:
        return None


def _seen_by_bob(before: GameState, out: Outcome, actor: str | None) -> str:
    """Everything bob gets after an action, as canonical JSON."""
    seen: dict[str, Any] = {
        "view": view(out.state, "bob"),
        "events": view_events(before, out.state, out.events, "bob"),
        "result": out.result,
    }
    if actor == "bob":  # his own action: he reads its rulings and answer too
        seen["rulings"] = [str(r) for r in out.rulings]
        answer = out.answer
        if isinstance(answer, tuple):
            answer = [handle(out.state, "bob", out.state.objects[o]) for o in answer]
        seen["answer"] = answer if isinstance(answer, str | bool | list | None) else "?"
    return json.dumps(seen, sort_keys=True, ensure_ascii=False)


def _twin_action(
    state: GameState, rng: random.Random, secret_card: int, alias: str
) -> tuple[v.Action, str | None]:
    """A random action and who takes it: alice or the rules (never naming the secret card
    but to hide it deeper), or bob (naming anything, even what he can't identify)."""
    rs = get_ruleset(alias)
    secret = state.object_of_card(secret_card)
    roll = rng.random()
    if secret is not None and roll < 0.2:
        return v.Move(object=secret.id, to=rng.choice(_hidden_zones(alias))), None
    if roll < 0.3:
        return v.Shuffle(player="alice", zone=rng.choice(_hidden_zones(alias))), None
    if roll < 0.65:
        if rng.random() < 0.1:
            zone = rng.choice(sorted(rs.zones))
            queries: list[v.Action] = [
                v.Search(player="bob", zone=zone),
                v.Select(player="bob", zone=zone),
                v.Search(player="alice", zone=zone),
            ]
            return rng.choice(queries), "bob"
        # Drawn as a judge's: bob names any object, even one he can't identify.
        return random_candidate(state, rng, None, rs) or v.EndTurn(), "bob"
    action = random_candidate(
        state, rng, None, rs, where=lambda x: secret is None or secret.id not in x.object_ids()
    )
    return action or v.EndTurn(), rng.choice([None, "alice"])


# --- counterexamples as scenarios ------------------------------------------------------------


def _card_yaml(card: CardDef) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": card.name,
        "layout": card.layout,
        "faces": [msgspec.to_builtins(f) for f in card.faces],
    }
    if card.melds_from:
        data["melds_from"] = list(card.melds_from)
    return data


def to_scenario(hist: History) -> str:
    """The history as a scenario file (contract format) that replays it."""
    state = hist.initial
    rs = get_ruleset(hist.alias)
    label = {cid: f"c{cid}" for cid in state.cards}
    cards: dict[str, dict[str, Any]] = {}
    setup = []
    for key in sorted(state.zones.keys()):
        for oid in state.zones[key]:
            obj = state.objects[oid]
            card = state.cards[obj.card].card
            cards.setdefault(card.name, _card_yaml(card))
            entry: dict[str, Any] = {
                "label": label[obj.card],
                "card": card.name,
                "owner": obj.owner,
                "zone": obj.zone,
                "position": "bottom",
            }
            if obj.face_down:
                entry["face_down"] = True
                if obj.face_down_as is not None:
                    entry["as"] = obj.face_down_as
            setup.append(entry)
    steps: list[dict[str, Any]] = []
    for n, action in enumerate(hist.log, 1):
        now = state

        def lab(oid: int, now: GameState = now) -> str:
            obj = now.objects.get(oid)
            return label[obj.card] if obj is not None else f"gone{oid}"

        step = to_step(action, lab)
        out = apply(state, action)
        if type(action).creates:  # the contract names the new object with ``label``
            step[action.verb]["label"] = f"new{n}"
            if type(action).answers_card and out.answer:  # the new card's id
                label[int(out.answer)] = f"new{n}"
        steps.append(step)
        state = out.state
    doc = {
        "ruleset": rs.name,
        "title": f"fuzz counterexample {hist.alias} seed {hist.seed}: {hist.error}",
        "players": list(PLAYERS),
        "seed": state.seed,
        "cards": list(cards.values()),
        "setup": setup,
        "steps": steps or [{"end_turn": None}],
    }
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


# --- running many ------------------------------------------------------------------------


@dataclass
class FuzzReport:
    """What a fuzz run measured and found."""

    ruleset: str
    histories: int
    steps: int
    seconds: float
    failures: list[tuple[str, int, str, str]] = field(default_factory=list)
    #: On Ray: the CPUs the cluster offered and the seconds its tasks took (without
    #: starting Ray), and the single-process rate measured in the same invocation.
    cpus: int = 0
    ray_seconds: float = 0.0
    single_rate: float = 0.0

    @property
    def rate(self) -> float:
        """Histories per second."""
        return self.histories / self.seconds if self.seconds else 0.0

    @property
    def ray_rate(self) -> float:
        """Histories per second on Ray, counting only its tasks' time (0 without Ray)."""
        return self.histories / self.ray_seconds if self.ray_seconds else 0.0

    @property
    def efficiency(self) -> float | None:
        """Scale-out efficiency: Ray's histories/s per CPU over the single-process rate
        (1.0: each CPU does as much as one process alone); ``None`` without Ray."""
        if not (self.cpus and self.single_rate and self.ray_seconds):
            return None
        return (self.ray_rate / self.cpus) / self.single_rate

    def scale_line(self) -> str:
        """The scale-out figures as one line (empty without Ray)."""
        eff = self.efficiency
        if eff is None:
            return ""
        return (
            f"ray: {self.ray_rate:.1f} histories/s on {self.cpus} CPUs = "
            f"{self.ray_rate / self.cpus:.1f} per CPU; single process {self.single_rate:.1f} "
            f"histories/s; scale-out efficiency {eff:.2f}"
        )


def run_one(alias: str, seed: int, steps: int) -> tuple[int, list[tuple[str, int, str, str]]]:
    """One seed: a random-play history and a twin history; returns steps and failures."""
    failures = []
    done = 0
    for kind, make in (("play", play_history), ("twin", twin_history)):
        hist = make(alias, seed, steps)
        done += len(hist.log)
        if hist.error is not None:
            failures.append((kind, seed, hist.error, to_scenario(hist)))
    return done, failures


def _run_batch(args: tuple[str, list[int], int]) -> tuple[int, list[tuple[str, int, str, str]]]:
    alias, seeds, steps = args
    total, failures = 0, []
    for seed in seeds:
        n, f = run_one(alias, seed, steps)
        total += n
        failures += f
    return total, failures


def fuzz(
    alias: str,
    histories: int,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    steps: int = 40,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> FuzzReport:
    """Run ``histories`` seeded histories (and as many twin histories) for a ruleset."""
    get_ruleset(alias)
    seeds = list(range(seed, seed + histories))
    chunk = max(1, len(seeds) // max(1, workers * 4))
    batches = [(alias, seeds[i : i + chunk], steps) for i in range(0, len(seeds), chunk)]
    start = time.perf_counter()
    total = 0
    failures: list[tuple[str, int, str, str]] = []
    results: Iterable[tuple[int, list[tuple[str, int, str, str]]]]
    cpus, ray_seconds, single = 0, 0.0, 0.0
    with contextlib.ExitStack() as stack:
        if ray_address is not None:
            results, cpus, ray_seconds = _run_on_ray(batches, ray_address, workers)
            single = _single_rate(alias, seeds, steps, cpus)
        elif workers <= 1:
            results = map(_run_batch, batches)  # lazily: progress after each batch
        else:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=workers))
            results = pool.map(_run_batch, batches)
        for n, f in results:
            total += n
            failures += f
            if progress is not None:
                progress(total)
    seconds = time.perf_counter() - start
    return FuzzReport(alias, histories, total, seconds, failures, cpus, ray_seconds, single)


def _single_rate(alias: str, seeds: list[int], steps: int, cpus: int) -> float:
    """Histories/s of one process on the first of the same seeds (about as many as one
    CPU ran on Ray, so the comparison takes about as long again)."""
    sample = seeds[: max(1, len(seeds) // max(1, cpus))]
    t0 = time.perf_counter()
    _run_batch((alias, sample, steps))
    return len(sample) / (time.perf_counter() - t0)


def _run_on_ray(
    batches: list[tuple[str, list[int], int]], address: str, workers: int
) -> tuple[list[tuple[int, list[tuple[str, int, str, str]]]], int, float]:
    """The batches as Ray tasks: their results, the cluster's CPUs, and the seconds the
    tasks took (starting Ray is not counted)."""
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError as exc:
        raise ObverseError("--ray needs Ray: pip install 'obverse[ray]'") from exc
    if address == "local":
        ray.init(
            num_cpus=max(1, workers),
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    else:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    try:
        offered = ray.cluster_resources()  # type: ignore[no-untyped-call,unused-ignore]
        cpus = int(offered.get("CPU", 0)) or max(1, workers)
        task = ray.remote(_run_batch)
        t0 = time.perf_counter()
        results = list(ray.get([task.remote(b) for b in batches]))
        return results, cpus, time.perf_counter() - t0
    finally:
        ray.shutdown()
