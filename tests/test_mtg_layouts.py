"""MTG's layouts are handlers composed by the ruleset (issue 27): every layout the ruleset
declares has one, a Room (printed ``split``) is keyed ``room``, the older versions take their
switches from one table, and MTG's caches (a card's transform rulings, a face's colors, keyword
costs, a new object's rulings) answer as the plain code does on random histories."""

from __future__ import annotations

import pytest

from obverse import memo
from obverse.cards import Face
from obverse.characteristics import characteristics
from obverse.registry import get_ruleset
from obverse.rulesets.mtg import Magic, Magic2008, Magic2020, Magic2025
from obverse.rulesets.mtg.layouts.base import Layout
from obverse.rulesets.mtg.layouts.room import Room
from obverse.rulesets.mtg.layouts.split import Split
from obverse.rulesets.mtg.magic import SWITCHES_2020
from obverse.testing import random_history


def test_every_declared_layout_has_its_handler() -> None:
    rules = Magic.layout_rules
    assert set(Magic.layouts) - {"token"} <= set(rules)  # a token is a normal card
    assert all(isinstance(h, Layout) and h.name == key for key, h in rules.items())
    rs = Magic()
    assert rs.layout_rule("token", (Face(),)) is rules["normal"]


def test_a_room_is_a_split_card_with_its_own_handler() -> None:
    rs = Magic()
    door = Face(name="Door", types=("Enchantment",), subtypes=("Room",))
    spell = Face(name="Spell", types=("Instant",))
    assert isinstance(rs.layout_rule("split", (door, door)), Room)
    plain = rs.layout_rule("split", (spell, spell))
    assert isinstance(plain, Split) and not isinstance(plain, Room)


def test_the_older_versions_take_the_2020_switches_from_one_table() -> None:
    for cls in (Magic2020, Magic2008):
        assert cls.__bases__ == (Magic,)
        for name, value in SWITCHES_2020.items():
            assert getattr(cls, name) == value, (cls, name)
    assert Magic2025.meld_is_double_faced and not Magic2025.modal_can_transform


def _answers(alias: str, seed: int) -> list[object]:
    rs = get_ruleset(alias)
    out: list[object] = []
    for state in random_history(alias, seed, 25):
        for obj in state.iter_objects():
            out.append(characteristics(state, obj, rs))
            out.append(rs.can_transform(state, obj))
            out.append(rs.copiable_values(state, obj))
            out.append(rs.is_new_object(state, obj, "graveyard"))
    return out


@pytest.mark.parametrize("alias", ["mtg", "mtg@2020", "mtg@2008"])
@pytest.mark.parametrize("seed", [0, 1])
def test_mtg_caches_answer_as_the_plain_code(alias: str, seed: int) -> None:
    fast = _answers(alias, seed)
    with memo.plain():
        plain = _answers(alias, seed)
    assert fast == plain
    assert fast  # the history has objects
