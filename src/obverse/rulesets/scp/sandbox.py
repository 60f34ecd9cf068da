"""SCP-TCG-JP-J containment breaches and sandbox construction (購買部版 100.2, 301.1a,
301.2; research/rules-other-games.md §3).

A breach (収容違反) puts an object card onto its player's site face up and makes it
"breached" (a designation on that object: 301.2d); an object an effect puts onto the site
without saying 収容違反 is not breached (301.2e). An object of a class other than Safe, Euclid
and Keter goes into the sandbox its own text names (301.1a). A sandbox deck (SB) is checked
against the construction rules (100.2a-d), the partner marker among them. Damage to a sandbox
lowers its protection (保護力); at none left the sandbox breaches its top card and its
protection is whole again; an empty sandbox brought to none is a ZK (the fan engine's and the
community FAQ's reading, research/rules-other-games.md §3).
:class:`obverse.rulesets.scp.SCP` lists this flat mixin in its bases.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.rulesets.base import Catalog, Ruleset, Rulings
from obverse.rulings import DONE, ILLEGAL, NOTHING, Outcome
from obverse.state import GameObject, GameState

if TYPE_CHECKING:  # for mypy only (at run time a flat mixin)
    _Base = Ruleset
else:
    _Base = object

replace = msgspec.structs.replace

#: The designation of a breached object (301.2d), bound to the object on the site.
BREACHED: Final = "breached"
#: 100.2d: the partner marker (パートナー・マーカー), written among a card's abilities or tags.
PARTNER_MARKS: Final = frozenset({"パートナー・マーカー", "Partner"})
#: 100.2c: the normal sandbox deck: object cards per class, personnel and Tale/Incident cards.
DECK_SHAPE: Final = {"Safe": 7, "Euclid": 4, "Keter": 2}
PERSONNEL_CARDS: Final = 1
TALE_INCIDENT_CARDS: Final = 2
#: 301.1a: an object of another class names its sandbox in its text ("Keterサンドボックスに").
_DESIGNATED: Final = re.compile(r"(Safe|Euclid|Keter)サンドボックス(?:に|へ)")
#: 100.2b: an object number ("SCP-173", "SCP-240-JP") begins the card's name.
_NUMBER: Final = re.compile(r"^(SCP-\d+(?:-[A-Z]+)?)")
#: 保護力: each class sandbox's protection when undamaged (the fan engine's values).
PROTECTION: Final = {"sandbox_safe": 4, "sandbox_euclid": 8, "sandbox_keter": 12}
#: The rule id of protection and damage (no 購買部版 number known: the term itself).
PROTECTION_RULE: Final = "保護力"
#: ZK (a K-class scenario, community FAQ): an empty sandbox reduced to protection 0 loses.
ZK: Final = "ZK"
#: The designation (on no object: id 0) of the damage on a player's sandbox:
#: ``保護力:<player>:<sandbox>:<damage>``.
_DAMAGE: Final = "保護力:"


class Breach(v.Action, frozen=True, tag="breach"):
    """収容違反 (301.2): ``object``, an object card in a sandbox (301.2a), or the top card of
    ``player``'s ``sandbox`` (301.2c), goes onto its player's site face up, breached."""

    refs = ("object",)
    player_fields = ("player",)
    zone_fields = ("sandbox",)
    subject = None
    object: int | None = None
    player: str | None = None
    sandbox: str | None = None


class DamageSandbox(v.Action, frozen=True, tag="damage_sandbox"):
    """``amount`` damage to ``player``'s ``sandbox``: its protection (保護力) goes down."""

    player_fields = ("player",)
    zone_fields = ("sandbox",)
    subject = None
    player: str
    sandbox: str
    amount: int = 1


class Protection(v.Action, frozen=True, tag="protection"):
    """The protection (保護力) ``player``'s ``sandbox`` has now."""

    player_fields = ("player",)
    zone_fields = ("sandbox",)
    subject = None
    is_query = True
    player: str
    sandbox: str


class CheckDeck(v.Action, frozen=True, tag="check_deck"):
    """Whether ``cards`` (object ids or card names) make a legal sandbox deck (100.2)."""

    refs = ("cards",)
    subject = None
    is_query = True
    uses_catalog = True
    cards: tuple[int | str, ...]


def designated_sandbox(front: Face) -> str | None:
    """301.1a: the class of the sandbox an object's own text names (``None``: none)."""
    found = _DESIGNATED.search(front.text or "")
    return found[1] if found else None


def object_number(name: str) -> str | None:
    """100.2b: the object number that begins a card name (``None``: it has none)."""
    found = _NUMBER.match(name)
    return found[1] if found else None


class Sandboxes(_Base):
    """Breaches (301.2) and the sandbox deck's construction (100.2)."""

    #: The ids of the rules these procedures cite (set by the game: the sandbox zones).
    sandbox_zones: ClassVar[frozenset[str]] = frozenset()
    site_zone: ClassVar[str] = "site"

    object_offers: ClassVar[tuple[tuple[str, str], ...]] = (("breach", "_offer_breach"),)

    def _offer_breach(self, state: GameState, player: str, o: GameObject) -> list[v.Action]:
        return [Breach(object=o.id)] if o.zone in self.sandbox_zones else []

    def loose_candidates(
        self, state: GameState, player: str | None, verb: str | None = None
    ) -> list[v.Action]:
        """The shuffles, and 1 damage to each class sandbox of each player (an effect's:
        any player's sandbox)."""
        out = super().loose_candidates(state, player, verb)
        if verb in (None, "damage_sandbox"):
            out += [DamageSandbox(player=p, sandbox=z) for p in state.players for z in PROTECTION]
        return out

    # --- breaches (301.2) ---------------------------------------------------------------------

    def is_breached(self, state: GameState, obj: GameObject) -> bool:
        """301.2d: whether the object was breached onto the site (301.2e: not if an effect
        put it there without saying 収容違反)."""
        return core.mentions(state.designations, core.DESIGNATED, obj.id) and (
            (BREACHED, obj.id) in state.designations
        )

    def breach(self, state: GameState, a: Breach) -> Outcome:
        """301.2a: breaching an object puts it from its sandbox onto its player's site face
        up; 301.2c: breaching a sandbox puts its top object card there; 301.2d: either is
        breached."""
        if (a.object is None) == (a.sandbox is None):
            why = "a breach names an object in a sandbox or a sandbox, not both or neither"
            return Outcome(state, ILLEGAL, self.cite("301.2", why))
        if a.object is not None:
            obj, rule = state.objects[a.object], "301.2a"
            if obj.zone not in self.sandbox_zones:
                why = "breaching an object puts it onto the site from its sandbox"
                return Outcome(state, ILLEGAL, self.cite(rule, why))
        else:
            player = a.player or state.active_player
            if a.sandbox not in self.sandbox_zones:
                why = f"{a.sandbox} is not a sandbox"
                return Outcome(state, ILLEGAL, self.cite("301.2c", why))
            top = state.zone_contents(self.zone_key(str(a.sandbox), player))[:1]
            if not top:
                why = f"{player}'s {a.sandbox} is empty: no card to breach"
                return Outcome(state, NOTHING, self.cite("301.2c", why))
            obj, rule = state.objects[top[0]], "301.2c"
        return self._breach(state, obj, rule)

    def _breach(self, state: GameState, obj: GameObject, rule: str) -> Outcome:
        """Put ``obj`` onto its owner's site face up, breached (``rule``: 301.2a or c)."""
        out = self.move_object(state, v.Move(object=obj.id, to=self.site_zone, face_down=False))
        new = out.state.object_of_card(obj.card)
        if out.result != DONE or new is None or new.zone != self.site_zone:
            return out
        designations = core.adding(out.state.designations, (BREACHED, new.id))
        rulings: Rulings = (
            *out.rulings,
            *self.cite(rule, "it is put onto its player's site face up"),
            *self.cite("301.2d", "it is breached (収容違反)"),
        )
        return replace(out, state=replace(out.state, designations=designations), rulings=rulings)

    def not_breached(self) -> Rulings:
        """301.2e: the ruling of an object an effect put onto the site without a breach."""
        why = "put onto the site by an effect that does not say 収容違反: it is not breached"
        return self.cite("301.2e", why)

    # --- protection (保護力) and damage --------------------------------------------------------

    def _damage(self, state: GameState, player: str, sandbox: str) -> int:
        prefix = f"{_DAMAGE}{player}:{sandbox}:"
        return sum(int(d[0][len(prefix) :]) for d in state.designations if d[0].startswith(prefix))

    def _set_damage(self, state: GameState, player: str, sandbox: str, n: int) -> GameState:
        prefix = f"{_DAMAGE}{player}:{sandbox}:"
        kept = tuple(d for d in state.designations if not d[0].startswith(prefix))
        return replace(state, designations=(*kept, *(((f"{prefix}{n}", 0),) if n else ())))

    def protection(self, state: GameState, a: Protection) -> Outcome:
        """保護力: a class sandbox's protection (Safe 4, Euclid 8, Keter 12) less its damage."""
        if a.sandbox not in PROTECTION:
            why = f"{a.sandbox} has no protection: only a class's sandbox has one"
            return Outcome(state, ILLEGAL, self.cite(PROTECTION_RULE, why))
        left = PROTECTION[a.sandbox] - self._damage(state, a.player, a.sandbox)
        why = f"{a.player}'s {a.sandbox} has protection {left} of {PROTECTION[a.sandbox]}"
        return Outcome(state, DONE, self.cite(PROTECTION_RULE, why), answer=left)

    def damage_sandbox(self, state: GameState, a: DamageSandbox) -> Outcome:
        """保護力: damage lowers a sandbox's protection; at none left its top card breaches
        (301.2c) and its protection is whole again; an empty sandbox at none is a ZK."""
        if a.sandbox not in PROTECTION or a.amount < 1:
            why = "damage of at least 1 is dealt to a class's sandbox"
            return Outcome(state, ILLEGAL, self.cite(PROTECTION_RULE, why))
        damage = self._damage(state, a.player, a.sandbox) + a.amount
        left = PROTECTION[a.sandbox] - damage
        if left > 0:
            why = f"{a.amount} damage: {a.player}'s {a.sandbox} has protection {left} left"
            state = self._set_damage(state, a.player, a.sandbox, damage)
            return Outcome(state, DONE, self.cite(PROTECTION_RULE, why))
        top = state.zone_contents(self.zone_key(a.sandbox, a.player))[:1]
        if not top:
            state = self._set_damage(state, a.player, a.sandbox, PROTECTION[a.sandbox])
            why = f"{a.player}'s empty {a.sandbox} is reduced to protection 0: {a.player} loses"
            return Outcome(state, DONE, self.cite(ZK, why))
        state = self._set_damage(state, a.player, a.sandbox, 0)
        out = self._breach(state, state.objects[top[0]], "301.2c")
        why = f"no protection left: {a.player}'s {a.sandbox} breaches, its protection is whole"
        return replace(out, rulings=(*self.cite(PROTECTION_RULE, why), *out.rulings))

    # --- the sandbox deck (100.2) -------------------------------------------------------------

    def check_deck(self, state: GameState, a: CheckDeck, catalog: Catalog) -> Outcome:
        """100.2: a sandbox deck has no two cards of one name (100.2a) or one object number
        (100.2b); 16 cards: 7 Safe, 4 Euclid and 2 Keter objects, 1 personnel and 2 Tale or
        Incident cards (100.2c); at least one Safe object with a partner marker (100.2d).
        ``answer``: True or False."""
        cards: list[CardDef] = []
        for c in a.cards:
            card = state.card_def(state.objects[c]) if isinstance(c, int) else catalog.get(c)
            if card is not None:
                cards.append(card)
        refused = (
            _duplicates(self, cards)
            + _shape(self, [c.front for c in cards])
            + _partner(self, [c.front for c in cards])
        )
        if refused:
            return Outcome(state, DONE, refused, answer=False)
        why = "no duplicate, 7 Safe, 4 Euclid, 2 Keter, 1 personnel, 2 Tale/Incident, a partner"
        return Outcome(state, DONE, self.cite("100.2", why), answer=True)


def _duplicates(rs: Ruleset, cards: list[CardDef]) -> Rulings:
    """100.2a, 100.2b: the names and object numbers found twice."""
    out: Rulings = ()
    names = [n for n, k in Counter(c.name for c in cards).items() if k > 1]
    if names:
        out += rs.cite("100.2a", f"two cards named {names[0]}: names must not repeat")
    numbers = Counter(n for c in cards if (n := object_number(c.name)) is not None)
    twice = [n for n, k in numbers.items() if k > 1]
    if twice:
        out += rs.cite("100.2b", f"object number {twice[0]} twice: numbers must not repeat")
    return out


def _shape(rs: Ruleset, fronts: list[Face]) -> Rulings:
    """100.2c: the deck's count per kind of card."""
    have = Counter(f.object_class for f in fronts if _is_object(f))
    personnel = sum(1 for f in fronts if {"Personnel", "人事"} & set(f.types))
    tales = sum(1 for f in fronts if {"Tale", "Incident"} & set(f.types))
    want = {**DECK_SHAPE, "personnel": PERSONNEL_CARDS, "Tale/Incident": TALE_INCIDENT_CARDS}
    got = {**{k: have.get(k, 0) for k in DECK_SHAPE}, "personnel": personnel}
    got["Tale/Incident"] = tales
    wrong = [f"{got[k]} {k} (not {n})" for k, n in want.items() if got[k] != n]
    if len(fronts) != sum(want.values()):
        wrong.insert(0, f"{len(fronts)} cards (not 16)")
    if not wrong:
        return ()
    return rs.cite("100.2c", "the deck has " + ", ".join(wrong))


def _partner(rs: Ruleset, fronts: list[Face]) -> Rulings:
    """100.2d: at least one Safe object with a partner marker."""
    if any(
        _is_object(f) and f.object_class == "Safe" and PARTNER_MARKS & {*f.abilities, *f.tags}
        for f in fronts
    ):
        return ()
    return rs.cite("100.2d", "no Safe object with a partner marker (パートナー・マーカー)")


def _is_object(front: Face) -> bool:
    return "Object" in front.types or "オブジェクト" in front.types


ACTIONS: Final[tuple[type[v.Action], ...]] = (Breach, DamageSandbox, Protection, CheckDeck)
