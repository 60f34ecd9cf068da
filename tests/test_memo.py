"""The fast layer answers as the plain kernel does (issue 27, "a plain kernel and a fast
layer"): every game's random histories, run once with the caches of :mod:`obverse.memo` and
once inside :func:`obverse.memo.plain`, give equal outcomes, views and offers; and the memo
decorators themselves keep, bound, forget and turn off as documented."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from obverse import memo, registry, serialize, views
from obverse import vocab as v
from obverse.engine import apply, legal_actions
from obverse.errors import ObverseError
from obverse.fuzz import PLAYERS, random_deal
from obverse.play import random_action
from obverse.state import GameState

#: Every registered game (a plug-in too, when installed), by its first alias.
GAMES = sorted(alias for cls in registry.rulesets() for alias in cls.aliases[:1])
SEEDS = (0, 1)
STEPS = 14
SEATS: tuple[str | None, ...] = (*PLAYERS, None)


def _outcome(state: GameState, action: v.Action) -> tuple[GameState, Any]:
    """The next state and what the kernel answered: result, rulings, events and answer, or
    the refusal's message."""
    try:
        out = apply(state, action)
    except ObverseError as e:
        return state, ("refused", type(e).__name__, str(e))
    answer = msgspec.to_builtins((out.result, out.rulings, out.events), str_keys=True)
    return out.state, (answer, repr(out.answer))


def _seen(state: GameState) -> list[Any]:
    """Every seat's view (and a spectator's) and every seat's offers (and the judge's)."""
    seen: list[Any] = [serialize.dumps(state)]
    for seat in SEATS:
        seen.append(json.dumps(views.view(state, seat)))
        offers = legal_actions(state, seat)
        seen.append(
            [msgspec.to_builtins((o.action, o.rulings, o.field, o.choices())) for o in offers]
        )
    return seen


#: What an effect of a history may change (random play makes none of its own).
CHANGES: tuple[dict[str, Any], ...] = (
    {"power": 1, "toughness": 1},
    {"add_types": ["Artifact"]},
    {"color": ["blue"]},
    {"lose_all_abilities": True},
    {"set_power": 0},
)


def _effect(state: GameState, rng: random.Random) -> v.Action:
    """A continuous effect on a random object, its fixed set or what a filter matches: the
    characteristics and views the caches keep per effects then have effects to tell apart."""
    oid = rng.choice(sorted(state.objects))
    to: int | dict[str, Any] = oid if rng.random() < 0.6 else {"face_down": False}
    return v.ApplyEffect(
        label=f"e{rng.randrange(100)}",
        to=to,
        modify=rng.choice(CHANGES),
        until="end_of_turn" if rng.random() < 0.3 else None,
        fixed=isinstance(to, dict) and rng.random() < 0.5,
    )


def _history(alias: str, seed: int) -> list[Any]:
    """Everything a seeded random history of ``alias`` shows: per step the action drawn (a
    random action, every third step an effect), the outcome and what each seat sees and may
    do."""
    rng = random.Random(seed)
    state = random_deal(alias, rng, n=rng.randrange(8, 20))
    record: list[Any] = [_seen(state)]
    for step in range(STEPS):
        action = _effect(state, rng) if step % 3 == 1 else random_action(state, rng)
        state, answer = _outcome(state, action)
        record.append((msgspec.to_builtins(action), answer, _seen(state)))
    return record


@pytest.mark.parametrize("alias", GAMES)
def test_a_history_with_the_caches_equals_it_without(alias: str) -> None:
    """Random histories of every registered game, with the caches on (warm from the steps
    before) and inside ``memo.plain()``: equal actions drawn, outcomes (result, rulings,
    events, answer or refusal), states, views of every seat and offers of every seat."""
    for seed in SEEDS:
        fast = _history(alias, seed)
        with memo.plain():
            plain = _history(alias, seed)
        assert len(fast) == len(plain)
        for step, (a, b) in enumerate(zip(fast, plain, strict=True)):
            assert a == b, f"{alias} seed {seed}: step {step} differs without the caches"


def test_the_kept_answers_are_used_when_on_and_never_inside_plain() -> None:
    """The equality above is not vacuous: with the caches on, a second ask is answered from
    what was kept (the function isn't called again); inside ``plain()`` it always is."""
    calls: list[int] = []

    @memo.per_value
    def double(x: int) -> int:
        calls.append(x)
        return 2 * x

    assert (double(3), double(3)) == (6, 6)
    assert calls == [3]
    with memo.plain():
        assert (double(3), double(3)) == (6, 6)
        assert calls == [3, 3, 3]
    assert double(3) == 6  # plain() emptied it on the way out: computed once again
    assert calls == [3, 3, 3, 3]


def test_per_value_keys_by_the_arguments_and_is_bounded() -> None:
    calls: list[tuple[int, int]] = []

    @memo.per_value(kept=3)
    def add(a: int, b: int = 1) -> int:
        calls.append((a, b))
        return a + b

    assert add(1) == 2 and add(1, 1) == 2 and add(b=1, a=1) == 2
    assert calls == [(1, 1)]  # a default and a keyword are the same arguments
    for i in range(2, 6):
        add(i)
    assert len(calls) == 5
    add(1)  # emptied when the fourth answer came: computed again
    assert calls[-1] == (1, 1) and len(calls) == 6
    memo.forget(add)
    add(5)
    assert calls[-1] == (5, 1)


def test_per_identity_keys_by_identity_not_by_value() -> None:
    calls: list[tuple[int, ...]] = []

    @memo.per_identity("items")
    def total(items: tuple[int, ...]) -> int:
        calls.append(items)
        return sum(items)

    a = tuple(range(100))
    b = tuple(range(100))  # equal, another object
    assert total(a) == total(a) == total(b) == 4950
    assert len(calls) == 2
    assert calls[0] is a and calls[1] is b


def test_per_identity_of_several_parts_keeps_the_latest_per_first_part() -> None:
    calls: list[str] = []

    class Box:
        def __init__(self, x: int) -> None:
            self.x = x

    @memo.per_identity("box", "extra", when="box.x >= 0")
    def show(box: Box, extra: Box) -> str:
        calls.append(f"{box.x}{extra.x}")
        return f"{box.x}+{extra.x}"

    one, two, three = Box(1), Box(2), Box(-3)
    assert show(one, two) == show(one, two) == "1+2"
    assert show(one, three) == "1+-3"  # another second part: asked again
    assert calls == ["12", "1-3"]
    assert show(three, one) == show(three, one) == "-3+1"
    assert calls[-2:] == ["-31", "-31"]  # ``when`` said no: never kept


def test_per_identity_with_a_parts_function_may_decline() -> None:
    calls: list[object] = []

    @memo.per_identity(lambda x: None if isinstance(x, int) else (x,))
    def name(x: object) -> str:
        calls.append(x)
        return type(x).__name__

    s = "text"
    assert name(s) == name(s) == "str"
    assert name(5) == name(5) == "int"
    assert calls == ["text", 5, 5]


def test_per_key_holds_what_its_key_names_by_id_and_skips_unhashable_keys() -> None:
    calls: list[object] = []

    @memo.per_key("(id(thing), tag)", "thing")
    def label(thing: object, tag: Any) -> str:
        calls.append(tag)
        return f"{type(thing).__name__}:{tag}"

    thing = object()
    assert label(thing, "a") == label(thing, "a") == "object:a"
    assert calls == ["a"]
    assert label(thing, ["a"]) == label(thing, ["a"]) == "object:['a']"  # unhashable: plain
    assert calls == ["a", ["a"], ["a"]]


def test_last_keeps_one_answer_per_slot_and_derives_the_next() -> None:
    calls: list[tuple[int, ...]] = []

    def grow(kept: tuple[object, ...], found: int, items: tuple[int, ...], slot: str) -> int | None:
        before = kept[0]
        assert isinstance(before, tuple)
        if items[: len(before)] != before:
            return None
        return found + sum(items[len(before) :])

    @memo.last(lambda items, slot: (items,), per=lambda items, slot: slot, derive=grow)
    def total(items: tuple[int, ...], slot: str) -> int:
        calls.append(items)
        return sum(items)

    a = (1, 2, 3)
    b = (*a, 4)
    assert total(a, "x") == total(a, "x") == 6
    assert total(b, "x") == 10  # derived from a's answer
    assert total(a, "y") == 6  # another slot: its own entry
    assert calls == [a, a]
    assert total((9,), "x") == 9  # not a's growth: computed
    assert calls[-1] == (9,)


def test_kept_answers_nothing_inside_plain() -> None:
    kept: memo.Kept[str, int] = memo.Kept(kept=2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("c", 3)  # the bound: emptied first
    assert (kept.get("a"), kept.get("c")) == (None, 3)
    assert kept.pop("c") == 3 and kept.get("c") is None
    with memo.plain():
        kept.put("d", 4)
        assert kept.get("d") is None
    kept.put("e", 5)
    memo.clear()
    assert kept.get("e") is None


def test_plain_restores_the_caches_and_nests() -> None:
    assert memo.is_on()
    with memo.plain():
        assert not memo.is_on()
        with memo.plain():
            assert not memo.is_on()
        assert not memo.is_on()
    assert memo.is_on()
    with pytest.raises(RuntimeError), memo.plain():
        raise RuntimeError("boom")
    assert memo.is_on()


def test_a_compiled_cache_refuses_parameters_it_cannot_copy() -> None:
    def star(*items: int) -> int:
        return len(items)

    with pytest.raises(TypeError, match="plain parameters"):
        memo.per_identity("items")(star)
    assert memo.per_value(star)(1, 2) == 2  # per_value falls back to a generic wrapper


def test_refcounts_tell_a_value_held_elsewhere() -> None:
    value: list[int] = []
    alone = memo.refcounts(value)
    other = [value]
    assert memo.refcounts(value)[0] == alone[0] + 1
    del other
    assert memo.refcounts(value) == alone


def test_identity_difference_compares_items_by_identity() -> None:
    a, b, c = [1], [2], [1]  # c equals a, another object
    assert memo.identity_difference((a, b), (b, c)) == [a, c]
    assert memo.identity_difference((a,), (a,)) == []


def test_a_compiled_cache_keeps_its_names_apart_from_the_function_s() -> None:
    """A parameter named as a wrapper's own would be (``key``, ``value``, ``name``) is the
    caller's; one with a leading underscore (the wrapper's own names) is refused."""

    @memo.per_key("(key, value)", "name")
    def join(key: str, value: str, name: object) -> str:
        return f"{key}={value}"

    thing = object()
    assert join("a", "b", thing) == join("a", "b", thing) == "a=b"

    def private(_x: int) -> int:
        return _x

    with pytest.raises(TypeError, match="plain parameters"):
        memo.per_identity("_x")(private)
    assert memo.per_value(private)(4) == 4
