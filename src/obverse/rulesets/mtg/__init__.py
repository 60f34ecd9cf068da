"""Magic: The Gathering as a package along the rules' own seams.

:mod:`.magic` is the ruleset (:class:`Magic` and its rules versions); each layout's rules
(transform, modal, flip, split, adventure, meld, Room, prototype, Omen) are a handler in
:mod:`.layouts`; face-down kinds in :mod:`.facedown`; the rest one module per mechanic.
"""

from obverse.rulesets.mtg.magic import (
    FACE_DOWN,
    PERMANENT_TYPES,
    RULESETS,
    SPELL_ONLY,
    Flip,
    Magic,
    Magic2008,
    Magic2020,
    Magic2025,
    Meld,
    Unlock,
)

__all__ = [
    "FACE_DOWN",
    "PERMANENT_TYPES",
    "RULESETS",
    "SPELL_ONLY",
    "Flip",
    "Magic",
    "Magic2008",
    "Magic2020",
    "Magic2025",
    "Meld",
    "Unlock",
]
