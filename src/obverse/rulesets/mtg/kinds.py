"""MTG's face-down kinds, one handler per kind: what made a permanent face down (``as``:
``GameObject.face_down_as``) decides its face-down values and how it may be turned face up.

- morph (702.37) and megamorph (702.37b): cast face down with the keyword; turned up for its
  cost (702.37e), megamorph adding a +1/+1 counter;
- disguise (702.168): the same, face down a 2/2 with ward {2} (702.168a);
- manifest (701.40), manifest dread (701.62a: it manifests) and cloak (701.58, ward {2}):
  put onto the battlefield face down; a creature card among them is turned up for its mana
  cost (701.40b, 701.58b), an instant or sorcery is only revealed (701.40g, 701.58g).
"""

from __future__ import annotations

from typing import Final

from obverse.cards import Face
from obverse.rulesets.mtg.values import FACE_DOWN

__all__ = ["KINDS", "KIND_RULES", "OLD_KINDS", "Kind"]

#: 702.168a / 701.58a: the face-down values of a disguised or cloaked permanent.
FACE_DOWN_WARD: Final = Face(
    types=("Creature",), power=2, toughness=2, abilities=("Ward",), text="Ward {2}"
)


class Kind:
    """One face-down kind: its face-down values and the rules of turning it face up."""

    def __init__(self, name: str, *, ward: bool = False, cast: bool, family: str) -> None:
        #: The kind's name and the rule topic of how it makes a card face down.
        self.name = name
        self.topic = name
        #: 702.168a, 701.58a: a 2/2 with ward {2}, not the plain 2/2 (708.2a).
        self.ward = ward
        #: 702.37c, 702.168a: cast face down with the card's own keyword (else put onto the
        #: battlefield face down by an effect: manifested, 701.40b).
        self.cast = cast
        #: ``morph``, ``disguise``, ``manifest`` or ``cloak``: whose turning-up rules apply.
        self.family = family

    def __repr__(self) -> str:
        return f"<Kind {self.name}>"

    @property
    def manifested(self) -> bool:
        """701.40b, 701.58b: turned face up by the special action for a creature card's mana
        cost (manifest, manifest dread, cloak)."""
        return not self.cast

    @property
    def values(self) -> Face:
        """708.2a: a nameless 2/2 creature (with ward {2}: disguise, cloak)."""
        return FACE_DOWN_WARD if self.ward else FACE_DOWN

    @property
    def what(self) -> str:
        """The face-down values in a few words."""
        return "a nameless 2/2 with ward {2}" if self.ward else "a nameless 2/2"

    @property
    def face_up_topic(self) -> str:
        """The rule turning a manifested card face up (701.40b, 701.58b)."""
        return "cloak_face_up" if self.family == "cloak" else "manifest_face_up"

    @property
    def instant_topic(self) -> str:
        """The rule revealing a manifested instant or sorcery (701.40g, 701.58g)."""
        return "cloak_instant" if self.family == "cloak" else "manifest_instant"

    def keyword_topic(self, word: str) -> str:
        """A manifested card with a morph or disguise cost may be turned up for it too
        (701.40c, 701.58c)."""
        pre = "cloak" if self.family == "cloak" else "manifest"
        return f"{pre}_disguise" if word == "Disguise" else f"{pre}_morph"


#: Every kind, newest rules, in the order the scenario contract lists them.
KIND_RULES: Final[dict[str, Kind]] = {
    k.name: k
    for k in (
        Kind("morph", cast=True, family="morph"),
        Kind("megamorph", cast=True, family="morph"),
        Kind("manifest", cast=False, family="manifest"),
        Kind("manifest_dread", cast=False, family="manifest"),
        Kind("disguise", ward=True, cast=True, family="disguise"),
        Kind("cloak", ward=True, cast=False, family="cloak"),
    )
}
KINDS: Final = tuple(KIND_RULES)
#: 2020 (and the 2008 rulings, which use its numbers): no disguise, cloak or manifest dread.
OLD_KINDS: Final = frozenset({"morph", "megamorph", "manifest"})
