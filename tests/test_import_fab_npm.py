"""The FaB importer over the ``@flesh-and-blood/cards`` npm package's cards (a trimmed copy in
tests/data/fab/npm, see tests/data/SOURCES.md): every card kept, Fabric constructs' equipment
backs cards of their own, flip-cards by their front's subtype (CR 9.1.3), hybrid type boxes
(CR 2.14.1b) with both supertype sets."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from obverse import Game, importers
from obverse.engine import apply
from obverse.importers import Problem, fab
from obverse.rulesets.fab import layout_category
from obverse.vocab import CheckCardPool

NPM = Path(__file__).resolve().parent / "data" / "fab" / "npm" / "cards.subset.json"


def _raw() -> list[dict[str, object]]:
    data = json.loads(NPM.read_text("utf-8"))
    assert isinstance(data, list)
    return data


def _records() -> list[importers.Record]:
    problems: list[Problem] = []
    out = list(fab.read([NPM], problems.append))
    assert problems == []
    return out


def test_every_npm_card_is_kept() -> None:
    raw = _raw()
    records = _records()
    by_source = {s: r.card for r in records for s in r.sources}
    assert set(by_source) == {c["cardIdentifier"] for c in raw}  # no card lost
    for card in raw:  # each one findable under its own name (its card's, or a face's)
        got = by_source[str(card["cardIdentifier"])]
        assert card["name"] in (got.name, *got.face_names)
    backs = [c for c in raw if c.get("isCardBack") is True]
    # a back-only card lives inside its double-faced card; Inner Chi (the back of twelve
    # transcend-cards) stays a card of its own too
    assert len(records) == len(raw) - len(backs) + 1
    assert importers.identify(raw[0]) == "fab"


def test_fabric_backs_stay_cards_of_their_own() -> None:
    records = _records()
    by_name = {r.card.name: r.card for r in records}
    tunic = by_name["Fyendal's Spring Tunic"]
    assert tunic.layout == "normal" and tunic.front.types == ("Equipment",)
    assert tunic.front.subtypes == ("Chest",)
    fabric = by_name["Fabric of Spring // Fyendal's Spring Tunic"]
    assert fabric.layout == "flip" and fabric.faces[1] == tunic.front
    # the equipment is an arena-card (1.3.2d); only the flip-card is a deck-card (9.1.3)
    assert layout_category(tunic.layout, tunic.faces) == "arena"
    assert layout_category(fabric.layout, fabric.faces) == "deck"
    for name in ("Crown of Providence", "Scabskin Leathers", "Blossom of Spring"):
        assert by_name[name].layout == "normal", name
    # a back printed only as a back is not (Nitro Mechanoid)
    assert "Nitro Mechanoid" not in by_name
    assert by_name["Construct Nitro Mechanoid // Nitro Mechanoid"].layout == "flip"


def test_flip_cards_by_the_front_subtype_and_kinds() -> None:
    records = _records()
    layouts = Counter(r.card.layout for r in records)
    assert layouts["flip"] == 30 and layouts["transcend"] == 12
    assert layouts["split"] == 11 and layouts["twin"] == 1
    by_name = {r.card.name: r.card for r in records}
    bank = by_name["Construct Bank Breaker // Bank Breaker"]
    assert bank.layout == "flip" and bank.faces[1].types == ("Weapon",)
    comet = by_name["Comet Storm // Shock"]
    assert comet.face_names == ("Comet Storm", "Shock")
    assert comet.faces[1].supertypes == ("Lightning",)
    sinks = {r.card.front.colors: r.card.front.pitch for r in records if "Sink" in r.card.name}
    assert sinks == {("Red",): 1, ("Yellow",): 2, ("Blue",): 3}  # the color from the id


def test_star_values_are_kept() -> None:
    by_name = {r.card.name: r.card for r in _records()}
    assert by_name["Arakni, Black Widow"].front.life == "*"  # 8.5.25e copies read it
    assert by_name["Arakni, Black Widow"].front.intellect == 4


def test_keywords_are_written_as_printed() -> None:
    """The package lists "Essence"; the card says which (8.3.16 needs it)."""
    by_name = {r.card.name: r.card for r in _records()}
    oldhim = by_name["Oldhim, Grandfather of Eternity"]
    assert "Essence of Earth and Ice" in oldhim.front.abilities
    # Perched is printed but not among the package's keywords; the rules read it (8.3.39)
    assert by_name["Polly Cranka"].front.abilities == ("Crank", "Perched")
    game = Game("fab", cards=[r.card for r in _records()])
    hero = game.add("Oldhim, Grandfather of Eternity", zone="hero", owner="alice")
    assert game.check_card_pool(hero, ["Autumn's Touch (red)"])  # an Earth card


def test_hybrid_type_boxes_are_classes() -> None:
    records = _records()
    hybrids = [r.card for r in records if any(f.hybrid for f in r.card.faces)]
    raw_hybrid = {c["name"] for c in _raw() if " / " in str(c["typeText"])}
    assert {c.name for c in hybrids} == raw_hybrid
    for card in hybrids:
        assert "/" not in card.front.supertypes and len(card.front.hybrid) == 2
        assert set(card.front.supertypes) == set(card.front.hybrid)
    windup = next(c for c in hybrids if c.name == "Agile Windup")
    assert windup.front.supertypes == ("Brute", "Warrior")
    assert windup.front.types == ("Action",) and windup.front.subtypes == ("Attack",)


def test_check_card_pool_accepts_a_hybrid_card_for_either_class() -> None:
    cards = [r.card for r in _records()]
    game = Game("fab", cards=cards)
    heroes = {
        "Rhinar, Reckless Rampage": True,  # Brute
        "Dorinthea Ironsong": True,  # Warrior
        "Betsy, Skin in the Game": False,  # Guardian
    }
    for hero_name, legal in heroes.items():
        hero = game.add(hero_name, zone="hero", owner="alice")
        assert game.check_card_pool(hero, ["Agile Windup (red)"]) is legal, hero_name
        query = CheckCardPool(hero=game.obj(hero).id, cards=("Agile Windup (red)",))
        out = apply(game.state, query, catalog=game.cards)
        assert "2.14.1b" in out.cites and "1.1.3b" in out.cites
