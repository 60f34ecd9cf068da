"""The legal-action cache traces every field of the state: a change of the turn, the
effects or the card table forgets only the candidates whose trial read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import msgspec
import pytest

from obverse import registry
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.engine import Legal, LegalCache, legal_actions, legal_parts
from obverse.engine import apply as engine_apply
from obverse.rulesets import Ruleset
from obverse.rulings import ILLEGAL, Outcome
from obverse.state import GameState, new_state
from toy_game import Tap, Toy

LANTERN = CardDef(name="Lantern", faces=(Face(name="Lantern", types=("Gadget",)),))


class EvenToy(Toy):
    """The toy, but a card taps only on even turns (a rule that reads the turn)."""

    aliases: ClassVar[tuple[str, ...]] = ("even-toy",)

    def tap(self, state: GameState, a: Tap) -> Outcome:
        if state.turn % 2:
            return Outcome(state, ILLEGAL, (self.ruling("T2", "only on even turns"),))
        return super().tap(state, a)


@pytest.fixture
def even(register: Callable[[type[Ruleset]], Ruleset]) -> Ruleset:
    """The EvenToy ruleset registered in-process (see conftest's ``register``)."""
    return register(EvenToy)


def _board(rs: Ruleset) -> GameState:
    state = new_state(rs.name, ("alice", "bob"))
    for zone in ("table", "table", "hand", "hand"):
        state, _ = rs.add_card(state, LANTERN, zone, owner="alice")
    return state


def _mtg_board(*zones: str) -> tuple[GameState, list[int]]:
    """An MTG state with a Lantern of alice's in each of ``zones``, and their object ids."""
    rs = registry.get_ruleset("mtg")
    state, ids = new_state("mtg", ("alice", "bob")), []
    for zone in zones:
        state, card = rs.add_card(state, LANTERN, zone, owner="alice")
        ids.append(state.card_object[card])
    return state, ids


def _verbs(legal: list[Legal]) -> list[str]:
    return sorted(repr(x.action) for x in legal)


def test_a_new_turn_forgets_what_read_the_turn_and_keeps_the_rest(even: Ruleset) -> None:
    state = msgspec.structs.replace(_board(even), turn=2)
    cache = LegalCache()
    first = legal_actions(state, None, cache=cache)
    assert any(isinstance(x.action, Tap) for x in first)
    tried = cache.tried
    later = msgspec.structs.replace(state, turn=3)
    again = legal_actions(later, None, cache=cache)
    assert _verbs(again) == _verbs(legal_actions(later, None))  # no stale tap offered
    assert not any(isinstance(x.action, Tap) for x in again)
    candidates = even.candidates(later, None)
    taps = sum(1 for a in candidates if isinstance(a, Tap))
    # Only what read the turn was tried again (the taps, and ending the turn), not the rest.
    assert cache.tried - tried == taps + 1
    assert len(candidates) > 2 * (taps + 1)


def test_a_new_card_keeps_the_trials_that_read_other_cards() -> None:
    rs = registry.get_ruleset("mtg")
    state, _ = _mtg_board("battlefield", "battlefield", "hand", "graveyard")
    cache = LegalCache()
    legal_actions(state, None, cache=cache)
    tried = cache.tried
    state, _ = rs.add_card(state, LANTERN, "exile", owner="bob")  # a new card and object
    again = legal_actions(state, None, cache=cache)
    assert _verbs(again) == _verbs(legal_actions(state, None))
    fresh = LegalCache()
    legal_actions(state, None, cache=fresh)
    assert cache.tried - tried < fresh.tried / 2  # most trials were kept


def test_a_trial_state_reads_whole_fields_as_the_state_does() -> None:
    from obverse import tracing

    state = _board(Toy())
    traced = tracing._TracedState(*msgspec.structs.astuple(state))
    reads = tracing._Reads(state)
    tracing._RUNNING.append(reads)
    try:
        assert traced.turn == state.turn and traced.players == state.players
    finally:
        tracing._RUNNING.pop()
    names = {tracing._FIELDS[i] for i, _ in reads.seen}
    assert names == {"turn", "players"}
    assert set(tracing._FIELDS) == set(GameState.__struct_fields__) - {"clock", "next_id", "trail"}


def test_the_offers_on_an_unchanged_object_are_kept_whole_and_follow_a_change() -> None:
    state, ids = _mtg_board("battlefield", "battlefield", "battlefield", "hand")
    cache = LegalCache()
    first = legal_actions(state, "alice", cache=cache)
    groups = {key: part.legal for key, part in cache._groups.items()}
    assert groups  # each object's offers kept whole
    moved = engine_apply(state, v.Move(object=ids[3], to="graveyard")).state
    again = legal_actions(moved, "alice", cache=cache)
    assert again == legal_actions(moved, "alice")  # the same offers as trying every one
    assert again != first
    # The battlefield objects' own offers are the very same lists (nothing they read changed).
    for oid in ids[:3]:
        key = ("alice", oid, None)
        assert cache._groups[key].legal is groups[key]


def test_legal_parts_are_the_list_in_parts_and_an_unchanged_part_is_the_same_list() -> None:
    state, ids = _mtg_board("battlefield", "battlefield", "hand", "hand")
    cache = LegalCache()
    before = legal_parts(state, "alice", cache)
    assert [x for part in before for x in part] == legal_actions(state, "alice")
    moved = engine_apply(state, v.Move(object=ids[2], to="exile")).state
    after = legal_parts(moved, "alice", cache)
    assert [x for part in after for x in part] == legal_actions(moved, "alice")
    kept = {id(part) for part in before}
    # The other card in hand and the battlefield's own offers are the very same lists.
    assert sum(1 for part in after if id(part) in kept and part) >= 3


def test_an_offer_tried_again_with_the_same_rulings_is_the_same_object() -> None:
    state, ids = _mtg_board("battlefield", "battlefield", "hand")
    cache = LegalCache()
    parts = legal_parts(state, None, cache)
    first = {x.action: x for part in parts for x in part}
    copy = v.BecomeCopy(object=ids[0], of=ids[1])
    (copies,) = [part for part in parts if copy in [x.action for x in part]]
    # A counter on the copied object: every trial that read it is tried again.
    countered = engine_apply(state, v.AddCounters(object=ids[1], counter="+1/+1")).state
    tried = cache.tried
    parts = legal_parts(countered, None, cache)
    again = [x for part in parts for x in part]
    assert again == legal_actions(countered, None)
    assert cache.tried > tried  # the copy was tried again ...
    found = {x.action: x for x in again}
    assert found[copy] is first[copy]  # ... and its offer, the same, is the same object,
    assert any(part is copies for part in parts)  # in the very same list
    # A player's offer of it is that object too (an offer names no actor).
    assert {x.action: x for x in legal_actions(countered, "alice", cache=cache)}[copy] is (
        first[copy]
    )
