"""Offers a seat can trust (issue 22): the generators equal the brute-force reference, the
fast path (:class:`~obverse.fastoffers.OfferMemo`, what :class:`~obverse.Game` keeps) equals
the plain definition, offers never tell twins apart, and nothing ``apply`` carries out is
missing (meld, a modal DFC's land face)."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from obverse import Game
from obverse import engine as eng
from obverse import vocab as v
from obverse.engine import apply, is_legal, legal_actions
from obverse.fastoffers import OfferMemo
from obverse.fuzz import card_pool, random_deal
from obverse.offer_reference import expanded, reference_actions
from obverse.registry import rulesets
from obverse.state import GameState

#: Every alias of every ruleset (mtg@2020, mtg@2008 ...).
ALIASES = sorted({a for cls in rulesets() for a in cls.aliases})


def _history(alias: str, seed: int, steps: int, n: int = 6) -> list[GameState]:
    """A random history: the judge takes one of its offers (any choice) each step."""
    rng = random.Random(seed)
    state = random_deal(alias, rng, n=n)
    out = [state]
    for _ in range(steps):
        actions = [a for x in legal_actions(state, None) for a in x.expand()]
        state = apply(state, rng.choice(actions)).state
        out.append(state)
    return out


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
@example(seed=3105)  # mtg: a battle with no defense counters may still get a protector
def test_the_generators_are_the_brute_force_reference(alias: str, seed: int) -> None:
    """Every verb with every reference a seat may make, tried through apply: the same set
    as the generators' offers (free targets expanded), for each player and the judge."""
    for state in _history(alias, seed, 3):
        for seat in (*state.players, None):
            assert expanded(legal_actions(state, seat)) == reference_actions(state, seat)


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_fast_path_is_the_plain_definition(alias: str, seed: int) -> None:
    """Along a random history (with effects that forbid), one memo kept across the states
    gives, part for part, the plain definition's offers for every seat."""
    rng = random.Random(seed)
    memo = OfferMemo()
    for i, state in enumerate(_history(alias, seed, 8, n=7)):
        if i % 3 == 2 and state.objects:
            verb = rng.choice(["move", "become_copy", "turn_face_down", "examine", "cast"])
            target = rng.choice(sorted(state.objects))
            effect = v.ApplyEffect(label=f"e{i}", to=target, modify={"forbid": [verb]})
            state = apply(state, effect).state
        for seat in (*state.players, None):
            parts = memo.parts(state, seat)
            assert [x for p in parts for x in p] == legal_actions(state, seat)


@pytest.mark.parametrize("game", ["mtg", "fab", "ga", "scp"])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_fast_path_is_the_plain_definition_back_and_forth(game: str, seed: int) -> None:
    """A search going back and forth between branches (apply an offer, list the offers,
    undo; each branch again, in another order): what :class:`Game` keeps gives, each time,
    the plain definition's offers (kept versions are found again by identity)."""
    rng = random.Random(seed)
    g = Game(game, secret=b"b" * 16)
    pool = card_pool(game)
    for _ in range(10):
        g.add(rng.choice(pool), g.ruleset.play_zone, owner=rng.choice(g.state.players))
    search_agrees(g, rng)


def search_agrees(g: Game, rng: random.Random, *, move_on: bool = False) -> None:
    """A search on ``g`` going back and forth between six of the acting seat's offers
    (apply one, list the offers, undo; the branches again in another order; ``move_on``:
    the first branch kept after each round, the next ones start there): each listing, for
    the seat and the judge, is the plain definition's."""
    seat = g.state.active_player
    offers = [x.action for x in g.legal_actions(seat)]
    branches = rng.sample(offers, min(6, len(offers)))
    for order in (branches, branches[::-1], branches):
        for action in order:
            g.apply(action, seat)
            for who in (seat, None):
                assert g.legal_actions(who) == legal_actions(g.state, who, catalog=g.cards)
            g.undo()
        assert g.legal_actions(seat) == legal_actions(g.state, seat, catalog=g.cards)
        if move_on:
            g.apply(order[0], seat)


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_offer_applies_with_its_seat_and_is_legal(alias: str, seed: int) -> None:
    state = _history(alias, seed, 2)[-1]
    for seat in (*state.players, None):
        for legal in legal_actions(state, seat):
            for action in legal.expand():
                assert apply(state, action, seat).result == "done", action
                assert is_legal(state, seat, action) is not None
            if legal.field is None:
                assert is_legal(state, seat, legal.action) == legal


def _bob_sees(offers: list[eng.Legal]) -> str:
    return json.dumps(
        [[msgspec.to_builtins(x.action), [str(r) for r in x.rulings], x.choices()] for x in offers]
    )


#: A hand-made twin pair per game: alice's card face down in a public zone (its identity
#: hidden from bob), bob's own cards around it. (game, zone, the two secrets, bob's cards)
TWINS = [
    (
        "mtg",
        "exile",
        ("Delver of Secrets", "Clone"),
        ("Clone", "Akoum Warrior", "Bruna, the Fading Light"),
    ),
    ("mtg", "battlefield", ("Delver of Secrets", "Akoum Warrior"), ("Clone", "Serra Angel")),
    ("fab", "arena", ("Invoke Azvolai", "Singularity"), ("Construct Nitro Mechanoid",)),
    (
        "ga",
        "field",
        ("Fabled Ruby Fatestone", "Fatestone of Heaven"),
        ("Fabled Azurite Fatestone",),
    ),
    (
        "scp",
        "site",
        ("SCP-173 彫刻 - オリジナル", "SCP-682 不死身の爬虫類"),
        ("SCP-999 くすぐりオバケ",),
    ),
]


@pytest.mark.parametrize(("alias", "zone", "secrets", "mine"), TWINS)
def test_hand_made_twins_get_the_same_offers(
    alias: str, zone: str, secrets: tuple[str, str], mine: tuple[str, ...]
) -> None:
    """Twin games differing only in alice's face-down card: bob's offers (entries, order,
    count, rulings, choices) are the same, through the kernel and through Game, before and
    after a change; no ruling names the hidden card."""
    seen = []
    for secret in secrets:
        game = Game(alias, secret=b"k" * 16)
        game.add(secret, zone=zone, owner="alice", face_down=True)
        ids = [game.add(name, zone=game.ruleset.play_zone, owner="bob") for name in mine]
        before = (_bob_sees(legal_actions(game.state, "bob")), _bob_sees(game.legal_actions("bob")))
        game.add_counters(ids[0], "+1/+1")
        after = (_bob_sees(legal_actions(game.state, "bob")), _bob_sees(game.legal_actions("bob")))
        assert before[0] == before[1] and after[0] == after[1]
        seen.append(before[0] + after[0])
        for other in secrets:
            assert json.dumps(other, ensure_ascii=False)[1:-1] not in json.loads(
                json.dumps(seen[-1])
            )
    assert seen[0] == seen[1]


def test_meld_is_offered_with_its_partner() -> None:
    """701.42a: melding is offered (the Game names meld results), one offer per card with
    its partner as the choice; taking it melds."""
    game = Game("mtg")
    bruna = game.add("Bruna, the Fading Light", zone="battlefield")
    gisela = game.add("Gisela, the Broken Blade", zone="battlefield")
    melds = [x for x in game.legal_actions("alice") if x.action.verb == "meld"]
    firsts = {x.action.object_ids()[0]: x.choices() for x in melds}
    b, g = game.obj(bruna).id, game.obj(gisela).id
    assert firsts == {b: (g,), g: (b,)}
    assert "701.42a" in {r.rule for r in melds[0].rulings}
    assert game.apply(next(melds[0].expand()), "alice").result == "done"


def test_a_modal_dfc_land_face_is_offered() -> None:
    """712.14 (modal DFC): playing Akoum Warrior's land face is offered and done."""
    game = Game("mtg")
    card = game.add("Akoum Warrior", zone="hand")
    plays = [x.action for x in game.legal_actions("alice") if x.action.verb == "play"]
    back = v.Play(object=game.obj(card).id, face="back")
    assert back in plays
    assert game.apply(back, "alice").result == "done"
    assert game.characteristics(card).props.name == "Akoum Teeth"


def test_becoming_a_copy_is_one_offer_per_object_not_per_pair() -> None:
    game = Game("mtg")
    for _ in range(30):
        game.add("Clone", zone="battlefield")
    copies = [x for x in game.legal_actions("alice") if x.action.verb == "become_copy"]
    assert len(copies) == 30
    assert all(len(x.choices()) == 30 for x in copies)
    assert copies[0].targets is copies[1].targets  # one shared set


def test_a_seat_acts_only_with_what_it_owns_or_controls_and_can_identify() -> None:
    game = Game("mtg")
    mine = game.add("Clone", zone="battlefield", owner="bob")
    theirs = game.add("Clone", zone="battlefield", owner="alice")
    hidden = game.add("Clone", zone="library", owner="bob")
    mains = set()
    for x in game.legal_actions("bob"):
        ids = x.action.object_ids()
        if ids and x.action.verb != "create_token_copy":
            mains.add(ids[0])
    assert game.obj(mine).id in mains
    assert game.obj(theirs).id not in mains and game.obj(hidden).id not in mains
    assert is_legal(game.state, "bob", v.Move(object=game.obj(theirs).id, to="exile")) is None


def _decisions_after_one_change(n: int) -> int:
    """How many actions the fast path decides after one change, with ``n`` permanents."""
    game = Game("mtg")
    cards = [game.add("Clone", zone="battlefield") for _ in range(n)]
    game.legal_actions("alice")
    game.add_counters(cards[n // 2], "+1/+1")
    count = 0
    real = eng._try

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal count
        count += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    eng._try = counting  # type: ignore[assignment]
    try:
        game.legal_actions("alice")
    finally:
        eng._try = real
    return count


def test_the_work_after_one_change_follows_the_change_not_the_board() -> None:
    assert _decisions_after_one_change(200) == _decisions_after_one_change(20)


def _face_down_twins(alias: str, seed: int) -> list[Game]:
    """Two games alike but for alice's card face down in a public zone, with random
    cards of both players around it (the same in both)."""
    rng = random.Random(seed)
    rs = Game(alias).ruleset
    pool = card_pool(alias)
    a, b = rng.sample(pool, 2)
    public = sorted(z for z in rs.zones if rs.is_public(z) or rs.is_in_play(z))
    spot = rng.choice(public)
    others = [
        (rng.choice(pool), rng.choice(("alice", "bob")), rng.choice(public)) for _ in range(5)
    ]
    games = []
    for secret in (a, b):
        game = Game(alias, secret=b"t" * 16)
        game.add(secret, zone=spot, owner="alice", face_down=True)
        for card, owner, zone in others:
            game.add(card, zone=zone, owner=owner)
        games.append(game)
    return games


@pytest.mark.parametrize("alias", ALIASES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_face_down_twins_get_the_same_offers(alias: str, seed: int) -> None:
    """Random twins (alice's face-down card in a public zone, random cards around): bob's
    offers are the same through the kernel and through Game, before and after the judge
    takes the same random offer in both that doesn't name the secret card."""
    games = _face_down_twins(alias, seed)
    rng = random.Random(seed)
    for _ in range(3):
        seen = [_bob_sees(legal_actions(g.state, "bob")) for g in games]
        assert seen[0] == seen[1]
        assert [_bob_sees(g.legal_actions("bob")) for g in games] == seen
        secret = games[0].obj(1).id if games[0].state.object_of_card(1) else None
        offers = [
            a
            for x in legal_actions(games[0].state, None)
            for a in x.expand()
            if secret not in a.object_ids()
        ]
        action = rng.choice(offers)
        outs = [g.apply(action) for g in games]
        if outs[0].result != outs[1].result:
            return  # the rules themselves told the cards apart (a move revealed it)


def test_a_permission_changes_only_its_cards_offers_and_the_fast_path_follows() -> None:
    """GA Public vs Private Information 6.1: a permission on a card banished face down makes
    it private to the player given it (an own designation: only that card's offers are
    decided again). The kept offers follow it: bob's offers, kept across the grant, are
    the plain definition's, and now include what bob may do with the card."""
    from obverse.rulesets.ga.info import GrantPermission

    game = Game("ga", secret=b"p" * 16)
    for card in card_pool("ga")[:4]:
        game.add(card, zone="field", owner="bob")
    secret = game.add(card_pool("ga")[5], zone="banishment", owner="bob", face_down=True)
    game.change_control(secret, "alice")
    before = game.legal_actions("bob")
    assert before == legal_actions(game.state, "bob", catalog=game.cards)
    game.apply(GrantPermission(object=game.obj(secret).id, player="bob"))
    after = game.legal_actions("bob")
    assert after == legal_actions(game.state, "bob", catalog=game.cards)
    assert after != before
