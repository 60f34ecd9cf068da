"""obverse: a rules kernel for multi-faced trading-card-game cards.

Double-faced, flip, split, meld, twin, transcend and face-down cards in Magic: The Gathering,
Flesh and Blood, Grand Archive and SCP-TCG-JP-J, every decision explained by the rule that
made it, with per-player views that leak no hidden information.

>>> from obverse import Game
>>> game = Game("mtg")
>>> delver = game.add("Delver of Secrets", zone="battlefield")
>>> game.transform(delver).result
'done'
>>> game.characteristics(delver).props.name
'Insectile Aberration'
"""

from __future__ import annotations

from obverse.cards import CardDef, Face
from obverse.characteristics import Characteristics, characteristics
from obverse.errors import InputError, ObverseError, RulesError
from obverse.game import Game
from obverse.rulesets import Ruleset, get_ruleset, rulesets
from obverse.rulings import Outcome, Ruling
from obverse.sampling import sample
from obverse.state import GameObject, GameState
from obverse.views import view

__version__ = "0.1.0"

__all__ = [
    "CardDef",
    "Characteristics",
    "Face",
    "Game",
    "GameObject",
    "GameState",
    "InputError",
    "ObverseError",
    "Outcome",
    "RulesError",
    "Ruleset",
    "Ruling",
    "characteristics",
    "get_ruleset",
    "rulesets",
    "sample",
    "view",
]
