"""Offers in words (``Ruleset.describe``, :mod:`obverse.rulesets.labels`): what each label
says, that the likely action comes first, and that a label never names what its player can't
identify (a twin test over every verb's candidates, on random histories)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from obverse import Game
from obverse import vocab as v
from obverse.carddata import bundled
from obverse.engine import apply, legal_actions
from obverse.errors import ObverseError
from obverse.fuzz import card_pool
from obverse.play import deal, random_candidate
from obverse.rulesets import get_ruleset
from obverse.rulesets.labels import GROUPS, group
from obverse.state import GameState
from obverse.views import is_visible

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # starlette's TestClient


def _labels(game: Game, player: str | None) -> list[str]:
    rs = get_ruleset(game.state.ruleset)
    return [rs.describe(game.state, x.action, player) for x in legal_actions(game.state, player)]


def test_mtg_labels_name_the_face() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", owner="alice", zone="battlefield")
    game.add("Valki, God of Lies // Tibalt, Cosmic Impostor", owner="alice", zone="hand")
    labels = _labels(game, "alice")
    assert "Transform into Insectile Aberration" in labels
    assert "Cast Tibalt, Cosmic Impostor (back face)" in labels
    assert "Cast Valki, God of Lies" in labels
    assert "Move Delver of Secrets to your graveyard" in labels
    assert "Manifest Valki, God of Lies" in labels
    game.transform(delver)
    assert "Transform into Delver of Secrets" in _labels(game, "alice")


def test_play_a_land_face_and_fuse() -> None:
    game = Game("mtg")
    game.add("Akoum Warrior // Akoum Teeth", owner="alice", zone="hand")
    game.add("Fire // Ice", owner="alice", zone="hand")
    rs = get_ruleset("mtg")
    akoum, fire = sorted(game.state.objects)
    state = game.state
    assert rs.describe(state, v.Play(object=akoum, face="back"), "alice") == (
        "Play Akoum Teeth as a land"
    )
    assert rs.describe(state, v.Cast(object=fire, face="right"), "alice") == "Cast Ice"
    both = v.Cast(object=fire, face="both", fuse=True)
    assert rs.describe(state, both, "alice") == "Cast Fire // Ice fused"
    # bob can't identify alice's hand: neither card nor face is named to him
    assert rs.describe(state, v.Play(object=akoum, face="back"), "bob") == (
        "Play a hidden card in alice's hand"
    )


def test_an_opponents_face_down_creature_is_not_named() -> None:
    game = Game("mtg")
    game.add("Grinning Demon", owner="bob", zone="battlefield", face_down=True)
    (demon,) = game.state.objects
    rs = get_ruleset("mtg")
    up = v.TurnFaceUp(object=demon)
    assert rs.describe(game.state, up, "alice") == "Turn a face-down creature face up"
    assert rs.describe(game.state, up, "bob") == "Turn face-down Grinning Demon face up"
    assert rs.describe(game.state, up, None) == "Turn face-down Grinning Demon face up"


def test_game_verbs_read_as_words() -> None:
    fab = Game("fab")
    rs = get_ruleset("fab")
    from obverse.rulesets.fab.arena import HasTranscended

    label = rs.describe(fab.state, HasTranscended(player="alice", this_turn=True), "bob")
    assert label == "Has alice transcended this turn?"
    assert "false" not in label and "8.5" not in label


def test_the_likely_action_comes_first() -> None:
    assert group(v.Transform(object=1)) == "main"
    assert group(v.Cast(object=1)) == "main"
    assert group(v.Move(object=1, to="graveyard")) == "move"
    assert group(v.AddCounters(object=1, counter="+1/+1")) == "more"
    assert GROUPS.index("main") < GROUPS.index("move") < GROUPS.index("more")


def test_casting_a_permanent_is_a_zone_move() -> None:
    """With the state, casting or playing an object already in play goes with the zone moves
    (it leaves the battlefield for the stack, 601.2a, 400.7): a permanent's likely action is
    what it does there, a card in hand's is casting it."""
    game = Game("mtg")
    delver = game.add("Delver of Secrets", owner="alice", zone="battlefield")
    valki = game.add("Valki, God of Lies // Tibalt, Cosmic Impostor", owner="alice", zone="hand")
    rs, state = get_ruleset("mtg"), game.state
    d, h = (state.object_of_card(c).id for c in (delver, valki))  # type: ignore[union-attr]
    assert group(v.Cast(object=d), rs, state) == "move"
    assert group(v.Play(object=d), rs, state) == "move"
    assert group(v.Transform(object=d), rs, state) == "main"
    assert group(v.Cast(object=h, face="back"), rs, state) == "main"
    assert group(v.Play(object=h), rs, state) == "main"
    # the kernel does offer casting the permanent (the sandbox moves it to the stack)
    offered = {
        x.action.verb: group(x.action, rs, state)
        for x in legal_actions(state, "alice")
        if d in x.action.object_ids() and x.action.verb in ("cast", "transform")
    }
    assert offered == {"cast": "move", "transform": "main"}


# --- non-interference: labels differ only in what their player may identify ----------------

RULESETS = ["mtg", "fab", "ga", "scp"]
SEEDS = range(12)


def _twins(alias: str, seed: int) -> tuple[list[GameState], set[str], int]:
    """Two deals differing only in one card of alice's: hidden in a private zone, or face
    down in play (where the rules allow a face-down card); and that card's names."""
    rng = random.Random(seed)
    rs = get_ruleset(alias)
    pool = card_pool(alias)
    a, b = rng.sample(pool, 2)
    zones = sorted(z for z in rs.zones if z != rs.stack_zone)
    public = [(rng.choice(pool), rng.choice(("alice", "bob")), rng.choice(zones)) for _ in range(6)]
    hidden = sorted(z for z in rs.zones if not rs.is_public(z) and not rs.is_shared(z))
    face_down = seed % 2 == 1
    zone = rs.play_zone if face_down else rng.choice(hidden)
    twins = []
    for secret in (a, b):
        state = deal(alias, public, ("alice", "bob"), seed=seed)
        state, card = rs.add_card(state, secret, zone, owner="alice", face_down=face_down or None)
        twins.append(state)
    names = {*a.face_names, a.name, *b.face_names, b.name}
    names -= {n for c, _, _ in public for n in (*c.face_names, c.name)}
    return twins, names, card


def _bob_identifies(state: GameState, card: int) -> bool:
    obj = state.object_of_card(card)
    return obj is not None and is_visible(state, "bob", obj)


@pytest.mark.parametrize("alias", RULESETS)
def test_labels_never_tell_bob_which_hidden_card(alias: str) -> None:
    rs = get_ruleset(alias)
    compared = 0
    for seed in SEEDS:
        twins, names, card = _twins(alias, seed)
        rng = random.Random(seed)
        for _ in range(8):
            if any(_bob_identifies(t, card) for t in twins):
                break  # a rule let bob see it (control, reveal): nothing left to hide
            # every candidate of every verb, as a judge would list them: bob's words for each
            shared = set(rs.candidates(twins[0], None)) & set(rs.candidates(twins[1], None))
            for action in sorted(shared, key=repr):
                said = [rs.describe(t, action, "bob") for t in twins]
                assert said[0] == said[1], (alias, seed, action, said)
                leaked = [n for n in names if n in said[0]]
                assert not leaked, (alias, seed, action, said[0])
                compared += 1
            step = random_candidate(twins[0], rng, None, rs)
            if step is None:
                break
            secret = twins[0].object_of_card(card)
            if secret is not None and secret.id in step.object_ids():
                continue  # a step on the secret (a public token copy of it) may show it
            try:
                outs = [apply(t, step) for t in twins]
            except ObverseError:
                continue
            if any(o.result == "illegal" for o in outs):
                continue
            twins = [o.state for o in outs]
    assert compared > 100


def test_web_offers_carry_the_kernels_label() -> None:
    pytest.importorskip("starlette")
    from obverse.web.app import create_app

    testclient = pytest.importorskip("starlette.testclient")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "t.sqlite3")
        with testclient.TestClient(app) as c:
            seats = c.post("/api/tables", json={"ruleset": "mtg"}).json()["seats"]
            judge = seats["judge"]
            for card, owner, zone, down in (
                ("Delver of Secrets", "alice", "battlefield", False),
                ("Grinning Demon", "bob", "battlefield", True),
            ):
                r = c.post(
                    f"/api/t/{judge}/setup",
                    json={"card": card, "owner": owner, "zone": zone, "face_down": down},
                )
                assert r.status_code == 200, r.text
            offers = c.get(f"/api/t/{seats['alice']}/legal").json()["actions"]
            labels = {o["label"] for o in offers}
            assert "Transform into Insectile Aberration" in labels
            # a free target: one offer, its choices the face-down creature among them
            copying = [o for o in offers if o["verb"] == "become_copy"]
            assert copying and all(len(o["targets"]["of"]) == 2 for o in copying)
            # each choice has its own label, in the order of the choices
            assert all(len(o["choice_labels"]) == len(o["targets"]["of"]) for o in copying)
            delver = next(o for o in copying if o["label"].startswith("Delver"))
            assert (
                "Delver of Secrets becomes a copy of a face-down creature"
                in delver["choice_labels"]
            )
            assert "Grinning Demon" not in json.dumps(offers)
            # the permanent's own action comes first; casting it off the battlefield is a move
            mine = [o for o in offers if o["object"] == delver["object"]]
            main = [o["label"] for o in mine if o["group"] == "main"]
            assert main[0] == "Transform into Insectile Aberration"
            assert all(o["group"] == "move" for o in mine if o["verb"] in ("cast", "play"))
            first = next(o for o in offers if o["object"] is not None)
            assert first["group"] in GROUPS
    assert bundled("mtg").get("Grinning Demon") is not None


def test_twin_tables_give_bob_the_same_labels_and_inspector(
    same_randomness: Callable[[], None],
) -> None:
    """Two web tables differing only in alice's face-down creature and hidden hand card:
    bob's offers (with their labels) and his inspector's answer for every object he may
    name are byte-identical."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from obverse.web.app import create_app
    from obverse.web.store import Store

    texts: list[list[str]] = []
    for down, hand in (("Grinning Demon", "Serra Angel"), ("Clone", "Air Elemental")):
        same_randomness()
        with TestClient(create_app(Store(":memory:"))) as c:
            seats = c.post("/api/tables", json={"ruleset": "mtg", "seed": 7}).json()["seats"]
            judge, bob = seats["judge"], seats["bob"]
            for card, owner, zone, face_down in (
                ("Delver of Secrets", "bob", "battlefield", False),
                (down, "alice", "battlefield", True),
                (hand, "alice", "hand", False),
            ):
                body = {"card": card, "owner": owner, "zone": zone, "face_down": face_down}
                assert c.post(f"/api/t/{judge}/setup", json=body).status_code == 200
            out = [c.get(f"/api/t/{bob}/legal").text]
            view = c.get(f"/api/t/{bob}").json()["view"]
            for ref in sorted(o["ref"] for z in view["zones"] for o in z["objects"]):
                out.append(c.get(f"/api/t/{bob}/inspect", params={"ref": ref}).text)
            texts.append(out)
    assert texts[0] == texts[1]
    offers = json.loads(texts[0][0])["actions"]
    copying = [o for o in offers if o["verb"] == "become_copy"]
    assert copying and all(len(o["targets"]["of"]) == 2 for o in copying)  # the face-down one
    for secret in ("Grinning Demon", "Serra Angel", "Clone", "Air Elemental"):
        assert all(secret not in text for text in texts[0] + texts[1])
