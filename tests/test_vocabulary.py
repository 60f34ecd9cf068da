"""Card definitions are checked against each game's vocabulary of type words."""

from __future__ import annotations

from pathlib import Path

import pytest

from obverse.carddata import bundled
from obverse.cards import parse_card
from obverse.errors import InputError
from obverse.scenario import load_scenario


@pytest.mark.parametrize(
    ("game", "field", "word", "hint"),
    [
        ("mtg", "types", "Creture", "Creature"),
        ("mtg", "supertypes", "Legendry", "Legendary"),
        ("fab", "types", "Acton", "Action"),
        ("ga", "types", "ITEMS", "item"),
        ("ga", "supertypes", "Regalya", "regalia"),
        ("scp", "types", "Tales", "Tale"),
    ],
)
def test_unknown_type_word_names_card_field_and_word(
    game: str, field: str, word: str, hint: str
) -> None:
    with pytest.raises(InputError) as err:
        parse_card({"name": "Bad Card", field: [word]}, "cards[1]", game)
    text = str(err.value)
    assert err.value.key == field
    assert "Bad Card" in text
    assert word in text
    assert f"did you mean '{hint}'" in text


def test_the_face_with_the_word_is_named() -> None:
    card = {
        "name": "A // B",
        "layout": "double_faced",
        "faces": [{"name": "A", "types": ["ITEM"]}, {"name": "B", "types": ["ALY"]}],
    }
    with pytest.raises(InputError) as err:
        parse_card(card, "cards[2]", "ga")
    assert err.value.place == "cards[2].faces[2]"


def test_ga_type_words_fold_case() -> None:
    card = parse_card({"name": "R", "supertypes": ["Regalia"], "types": ["Item"]}, "c", "ga")
    assert card.front.supertypes == ("Regalia",)


def test_other_games_compare_case() -> None:
    with pytest.raises(InputError) as err:
        parse_card({"name": "C", "types": ["creature"]}, "cards[1]", "mtg")
    assert "did you mean 'Creature'" in str(err.value)


def test_a_game_without_vocabulary_is_open() -> None:
    card = parse_card({"name": "G", "types": ["Gadget"]}, "cards[1]", "nosuchgame")
    assert card.front.types == ("Gadget",)


@pytest.mark.parametrize("game", ["mtg", "fab", "ga", "scp"])
def test_bundled_data_passes(game: str) -> None:
    assert bundled(game).names()


def test_scenario_inline_card_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "ruleset: fab\ncards:\n  - {name: Oops, types: [Attak]}\nsteps: []\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as err:
        load_scenario(str(path))
    text = str(err.value)
    assert "bad.yaml" in text and "cards[1]" in text and "Attak" in text
