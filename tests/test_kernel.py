"""Unit tests of the kernel: cards, mana, the characteristics function, actions and the
registry. Each asserts an observable outcome of one rule."""

from __future__ import annotations

import pytest

from obverse import Game, get_ruleset, mana, rulesets
from obverse import vocab as v
from obverse.cards import parse_card
from obverse.characteristics import characteristics
from obverse.engine import apply
from obverse.errors import InputError, RulesError
from obverse.fuzz import card_pool
from obverse.rulings import Outcome
from obverse.state import GameState


def test_registry_lists_every_game_and_version() -> None:
    names = {cls.aliases[0] for cls in rulesets()}
    assert {"mtg", "mtg@2025-06", "mtg@2020", "mtg@2008", "fab", "ga", "scp"} <= names
    assert get_ruleset("MTG").name == "mtg"
    with pytest.raises(InputError, match="unknown ruleset"):
        get_ruleset("chess")


@pytest.mark.parametrize(
    ("cost", "mv", "colors"),
    [
        ("{3}{R}{G}", 5, ("R", "G")),
        ("{X}{U}", 1, ("U",)),
        ("{2/W}", 2, ("W",)),
        ("{W/U}{B}", 2, ("W", "U", "B")),
        (None, 0, ()),
        ("", 0, ()),
    ],
)
def test_mana_value_and_colors(cost: str | None, mv: int, colors: tuple[str, ...]) -> None:
    assert mana.mana_value(cost) == mv
    assert mana.colors_of(cost) == colors


def test_mana_cost_comparison_ignores_order() -> None:
    assert mana.normalize("{3}{R}{G}") == mana.normalize("{R}{1}{2}{G}")
    assert mana.combine("{2}{R}", "{3}{G}") == "{5}{R}{G}"
    with pytest.raises(ValueError):
        mana.symbols("2R")


def test_parse_card_rejects_unknown_fields_and_layouts() -> None:
    with pytest.raises(InputError) as err:
        parse_card({"name": "X", "pwr": 1}, "cards[1]", "mtg")
    assert (err.value.place, err.value.key) == ("cards[1]", "pwr")
    with pytest.raises(InputError, match="unknown layout"):
        parse_card({"name": "X", "layout": "twin"}, "cards[1]", "mtg")
    card = parse_card(
        {
            "name": "A // B",
            "layout": "transform",
            "faces": [{"name": "A", "cost": "{1}"}, {"name": "B"}],
        },
        "c",
        "mtg",
    )
    assert card.face_names == ("A", "B") and card.is_double_faced


def test_back_face_mana_value_comes_from_the_front_but_not_its_mana_cost() -> None:
    # 712.8e, 202.3b: Ravager of the Fells has mana value 4 and no mana cost.
    game = Game("mtg")
    hunt = game.add("Huntmaster of the Fells", zone="battlefield")
    assert game.transform(hunt).result == "done"
    chars = game.characteristics(hunt)
    assert chars.props.name == "Ravager of the Fells"
    assert chars.mana_value == 4 and chars.props.cost is None


def test_transform_is_not_a_new_object_but_a_move_is() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    before = game.obj(delver).id
    game.transform(delver)
    assert game.obj(delver).id == before  # 712.18
    game.move(delver, "hand")
    assert game.obj(delver).id != before  # 400.7
    assert game.obj(delver).face == "front"  # 712.8a


def test_effects_bound_to_an_object_end_when_it_becomes_new() -> None:
    game = Game("mtg")
    smith = game.add("Village Ironsmith", zone="battlefield")
    obj = game.obj(smith)
    game.apply(v.ApplyEffect(label="pump", to=obj.id, modify={"power": 2, "toughness": 2}))
    base = game.characteristics(smith).props.power
    game.transform(smith)
    assert game.characteristics(smith).props.power == 5  # Ironfang 3/1 +2/+2 (712.18)
    game.move(smith, "graveyard")
    game.move(smith, "battlefield")
    assert game.characteristics(smith).props.power == 1
    assert base == 3


def test_filter_effects_test_earlier_layers() -> None:
    # 508.2 example: "legendary creatures get +2/+2" affects Tok-Tok only.
    game = Game("mtg")
    akki = game.add("Akki Lavarunner", zone="battlefield")
    game.apply_effect(
        "anthem",
        to={"supertypes": ["Legendary"], "types": ["Creature"]},
        modify={"power": 2, "toughness": 2},
    )
    assert game.characteristics(akki).props.power == 1
    out = game.flip(akki)
    game.state = out.state
    assert game.characteristics(akki).props.name == "Tok-Tok, Volcano Born"
    assert game.characteristics(akki).props.power == 4


def test_resolve_requires_the_stack() -> None:
    game = Game("mtg")
    clone = game.add("Clone", zone="hand")
    with pytest.raises(RulesError):
        game.resolve(clone)
    assert game.cast(clone).result == "done"
    assert game.obj(clone).zone == "stack"
    game.resolve(clone)
    assert game.obj(clone).zone == "battlefield"


def test_state_is_immutable_and_actions_return_new_states() -> None:
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    first: GameState = game.state
    out = apply(first, v.Transform(object=game.obj(delver).id))
    assert out.state is not first
    assert characteristics(first, game.obj(delver)).props.name == "Delver of Secrets"
    assert (
        characteristics(out.state, out.state.objects[game.obj(delver).id]).props.name
        == "Insectile Aberration"
    )


def test_rulings_cite_the_selected_versions_numbering() -> None:
    for alias, rule in (("mtg", "712.10"), ("mtg@2020", "711.6")):
        game = Game(
            alias,
            cards=[
                parse_card(
                    {
                        "name": "Invasion of Alara // Awaken the Maelstrom",
                        "layout": "transform",
                        "faces": [
                            {
                                "name": "Invasion of Alara",
                                "cost": "{W}{U}{B}{R}{G}",
                                "types": ["Battle"],
                                "subtypes": ["Siege"],
                                "defense": 7,
                            },
                            {
                                "name": "Awaken the Maelstrom",
                                "types": ["Sorcery"],
                                "colors": ["W", "U", "B", "R", "G"],
                            },
                        ],
                    },
                    "c",
                    "mtg",
                )
            ],
        )
        inv = game.add("Invasion of Alara", zone="battlefield")
        out = game.transform(inv)
        assert out.result == "nothing_happened"
        assert rule in out.cites


def test_reprs_are_short_and_str_shows_the_board() -> None:
    from obverse import Game

    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    game.add("Clone", zone="hand", owner="bob")
    out = game.transform(delver)
    assert repr(out) == "<Outcome done ['701.27a', '712.9', '712.18'], 1 event>"
    want = "<GameState mtg alice/bob, turn 1 (alice), clock 3: 2 objects, 0 effects>"
    assert repr(game.state) == want
    assert repr(game) == "<Game mtg: 2 objects, 1 action>"
    board = str(game).splitlines()
    assert board == [
        want,
        "  battlefield: #1 Delver of Secrets // Insectile Aberration (back) [alice]",
        "  bob:hand: #2 Clone",
    ]


def test_str_is_the_judges_board_with_face_down_objects_marked() -> None:
    """The state is the whole truth: str() names a face-down card and says it is face down
    (a player's view is views.view); every line stays short however big the card's repr."""
    from obverse import Game

    game = Game("mtg", players=("alice", "bob", "carol"))
    game.add("Delver of Secrets", zone="hand")
    game.add("Clone", zone="battlefield", owner="bob", face_down=True)
    assert str(game.state).splitlines() == [
        "<GameState mtg alice/bob/carol, turn 1 (alice), clock 2: 2 objects, 0 effects>",
        "  alice:hand: #1 Delver of Secrets // Insectile Aberration",
        "  battlefield: #2 Clone (face down) [bob]",
    ]
    assert len(repr(game.state)) < 100 and len(repr(game.history)) < 100
    game.end_turn()
    assert "turn 2 (bob)" in repr(game.state)
    assert len(repr(game.history[-1])) < 100  # an outcome's repr never dumps its state
    found = Outcome(game.state, "done", answer=tuple(range(500)))
    assert repr(found) == "<Outcome done [], answer=(0, 1, 2, 3, 4, 5, ...)>"


def test_a_warm_game_verb_does_not_rebuild_the_verb_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game.do finds the action class in a table built once per ruleset class: a warm verb
    names no verb of the vocabulary again (it used to, 24 calls of a transform's 46)."""
    game = Game("mtg")
    delver = game.add("Delver of Secrets", zone="battlefield")
    game.transform(delver)
    asked: list[type] = []
    real = v.verb_of

    def counted(cls: type[v.Action]) -> str:
        asked.append(cls)
        return real(cls)

    monkeypatch.setattr(v, "verb_of", counted)
    assert game.transform(delver).result == "done"
    assert game.move(delver, "graveyard").result == "done"
    assert asked == []


@pytest.mark.parametrize("game", ["mtg", "ga", "fab", "scp"])
def test_an_effect_modifying_what_no_effect_modifies_is_refused_not_ignored(game: str) -> None:
    """Effects modify the layers' keys (MTG 613) and a few others; any other key (a set of
    abilities the effects can't grant) is an input error naming it, through ``Game`` as in a
    scenario, and the game is left as it was."""
    g = Game(game)
    card = g.add(card_pool(game)[0], g.ruleset.play_zone, owner="alice")
    before = g.state
    with pytest.raises(InputError, match=r"modify\.abilities: unknown modification"):
        g.apply_effect("grant", to=card, modify={"abilities": ["Flying"]})
    assert g.state is before and not g.history
    assert g.apply_effect("pump", to=card, modify={"power": 1}).result == "done"
