"""Flesh and Blood, the card-pool: which cards a hero's card-pool may hold (1.1.3), the
supertypes a double-faced or split-card brings (9.1.3a, 9.1.4a, 9.1.5a, 9.2.2a), hybrid cards
(2.14.1b, 1.1.3b) and "Essence of" (8.3.16). Plain functions of the ruleset ``rs`` (they cite
through it); :meth:`obverse.rulesets.fab.FleshAndBlood.can_be_in_pool` asks them.
"""

from __future__ import annotations

import re

from obverse.cards import CardDef
from obverse.characteristics import characteristics
from obverse.rulesets.base import Ruleset, Rulings
from obverse.rulesets.fab.zones import ESSENCE, article, layout_category
from obverse.rulings import Decided
from obverse.state import GameObject, GameState


def pool_supertypes(rs: Ruleset, card: CardDef) -> tuple[tuple[str, ...], Rulings]:
    """The supertypes a card brings to a card-pool, outside the game: a flip- or
    transcend-card's front face (9.1.3a, 9.1.5a), both sides of a split-card (9.2.2a),
    both faces of a twin-card (9.1.4a)."""
    faces = card.faces
    rulings: Rulings = ()
    if card.layout in ("flip", "transcend") and len(faces) > 1:
        rule = "9.1.3a" if card.layout == "flip" else "9.1.5a"
        kind = "flip" if card.layout == "flip" else "transcend"
        rulings = rs.cite(
            rule,
            f"outside the game a {kind}-card has its front face "
            f"active: {card.faces[0].name}'s supertypes count",
        )
        faces = faces[:1]
    elif card.layout == "split" and len(faces) > 1:
        rulings = rs.cite("9.2.2a", "a split-card needs both sides' supertypes")
    elif card.layout == "twin" and len(faces) > 1:
        rulings = rs.cite("9.1.4a", "outside the game both faces of a twin-card are active")
    supertypes: list[str] = []
    for face in faces:
        supertypes.extend(s for s in face.supertypes if s not in supertypes)
    return tuple(supertypes), rulings


def hybrid_choice(rs: Ruleset, card: CardDef, allowed: set[str]) -> Decided[bool] | None:
    """2.14.1b, 1.1.3b: a hybrid card may be in the card-pool as though it had only one of
    its supertype sets, either one; ``None``: the card is not hybrid. The sets of a
    flip- or transcend-card's front face count (9.1.3a, 9.1.5a)."""
    faces = card.faces[:1] if card.layout in ("flip", "transcend") else card.faces
    if not any(f.hybrid for f in faces):
        return None
    options: list[list[str]] = [[]]
    for face in faces:
        sets = [h.split() for h in face.hybrid] if face.hybrid else [list(face.supertypes)]
        options = [o + s for o in options for s in sets]
    fits = next((o for o in options if set(o) <= allowed), None)
    written = " / ".join(h for f in faces for h in f.hybrid)
    rule = rs.cite("2.14.1b", f"{card.name} is a hybrid card ({written})")
    if fits is None:
        why = f"neither of {card.name}'s supertype sets is a subset of the hero's supertypes"
        return Decided(False, rule + rs.cite("1.1.3b", why))
    why = f"as though it had only {' '.join(fits) or 'no supertypes'}, it may be in the pool"
    return Decided(True, rule + rs.cite("1.1.3b", why))


def can_be_in_pool(
    rs: Ruleset, state: GameState, hero: GameObject, cards: list[CardDef]
) -> Decided[bool]:
    """1.1.3: every card's supertypes must be a subset of the hero's (as the hero is now,
    effects included), widened by its "Essence of" abilities (8.3.16)."""
    chars = characteristics(state, hero, rs)
    allowed = set(chars.props.supertypes)
    rulings: Rulings = ()
    for ability in chars.props.abilities:
        found = ESSENCE.match(ability)
        if found:
            extra = [w for w in re.split(r",\s*|\s+and\s+|\s+", found.group(1)) if w]
            allowed.update(extra)
            rulings += rs.cite(
                "8.3.16",
                f"{ability}: the card-pool may hold "
                f"{', '.join(extra)} cards as though the hero had those "
                "supertypes",
            )
    legal = True
    hero_name = chars.props.name or "the hero"
    for card in cards:
        kind = layout_category(card.layout, card.faces)
        if kind in ("hero", "token"):
            legal = False
            rulings += rs.cite(
                "1.3.2b" if kind == "token" else "1.1.3",
                f"{card.name} is {article(kind)}-card: a card-pool holds "
                "only deck- and arena-cards",
            )
            continue
        supertypes, why = pool_supertypes(rs, card)
        rulings += why
        missing = [s for s in supertypes if s not in allowed]
        hybrid = hybrid_choice(rs, card, allowed)
        if hybrid is not None:
            legal = legal and bool(hybrid[0])
            rulings += hybrid[1]
        elif missing:
            legal = False
            rulings += rs.cite(
                "1.1.3",
                f"{card.name} has {', '.join(missing)}, not among "
                f"{hero_name}'s supertypes: it can't be in the card-pool",
            )
        elif not supertypes:
            rulings += rs.cite(
                "1.1.3", f"{card.name} is generic (no supertypes): any card-pool may hold it"
            )
        else:
            rulings += rs.cite("1.1.3", f"{card.name}'s supertypes are a subset of {hero_name}'s")
    return Decided(legal, rulings)
