"""Meld cards (712.4, 701.42, layout ``meld``): two cards of a meld pair melded into one
permanent represented by both, back faces up (712.14c), with only the combined back face and
the sum of the front faces' mana values (712.8g); an unmelded meld card has only its front
face (712.8a-c); a meld card is double-faced since 2022 (712.1); meld cards don't transform
or turn face down (712.9, 712.16)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from obverse import mana
from obverse import state as core
from obverse import vocab as v
from obverse.cards import CardDef
from obverse.characteristics import Characteristics, combine_faces
from obverse.rulesets.base import Catalog, Rulings
from obverse.rulesets.mtg.layouts.base import Layout, Plan, refuse
from obverse.rulesets.mtg.values import cost
from obverse.rulings import DONE, NOTHING, Decided, Outcome
from obverse.state import CopyValues, GameObject, GameState

if TYPE_CHECKING:
    from obverse.rulesets.mtg.faces import MagicFaces

__all__ = ["MELD", "Meld", "MeldCard"]

replace = msgspec.structs.replace


class Meld(v.Action, frozen=True, tag="meld"):
    """Meld two cards of a meld pair into one permanent (701.42)."""

    refs = ("objects",)
    reads_choice = True
    subject = None
    creates = True
    uses_catalog = True
    objects: tuple[int, int]


class MeldCard(Layout):
    """A meld card (one of a pair) or a meld result (its combined back face)."""

    name: ClassVar[str] = "meld"

    def double_faced(self, rs: MagicFaces, card: CardDef) -> bool:
        """712.1: since 2022 (``meld_is_double_faced``)."""
        return rs.meld_is_double_faced

    def face_rulings(self, rs: MagicFaces, obj: GameObject, front_mv: bool) -> Rulings:
        """712.8a-c: an unmelded meld card has only its front face."""
        topic = {"stack": "meld_stack", "battlefield": "meld_front_up"}.get(
            obj.zone, "meld_front_outside"
        )
        return rs.cite(topic, "an unmelded meld card has only its front face")

    def melded(self, rs: MagicFaces, state: GameState, obj: GameObject) -> Characteristics:
        """712.8g: a melded permanent has only its combined back face; its mana value is the
        sum of its front faces'."""
        assert obj.meld is not None
        result = obj.meld.faces[0]
        chars = rs.with_colors(combine_faces("back", (result,)))
        total = sum(mana.mana_value(cost(state.cards[c].card.faces[0])) for c in obj.cards)
        props = replace(chars.props, cost=None)
        why = rs.cite(
            "meld_chars",
            "a melded permanent has only its combined back "
            "face; its mana value is the sum of its front faces'",
        )
        return replace(chars, props=props, mana_value=total, why=why)

    def melded_copy(self, rs: MagicFaces, of: GameObject) -> Decided[CopyValues]:
        """707.2, 712.8g: a copy of a melded permanent copies the face up, mana value 0."""
        assert of.meld is not None
        face = of.meld.faces[0]
        return Decided(
            CopyValues(layout="normal", faces=(face,), name=face.name or "", source_face="back"),
            rs.cite("copy_dfc", "copying a melded permanent copies the face that is up")
            + rs.cite("mv_meld", "a copy of a melded permanent has mana value 0"),
        )

    def transform_blocked(self, rs: MagicFaces) -> Rulings:
        """712.9 (701.27): meld cards and melded permanents can't transform (before 2022 not
        double-faced at all)."""
        why = "meld cards and melded permanents can't transform; nothing happens"
        out = rs.cite("meld_no_transform", why)
        if not rs.meld_is_double_faced:
            out += rs.cite("transform_not_dfc", "not a transforming permanent")
        return out

    def face_down_blocked(self, rs: MagicFaces) -> Rulings:
        """712.16: meld cards on the battlefield and melded permanents can't be turned face
        down."""
        return rs.cite(
            "meld_no_face_down",
            "meld cards on the battlefield and melded permanents can't be turned face down; "
            "nothing happens",
        )

    def plan_cast(
        self, rs: MagicFaces, obj: GameObject, card: CardDef, face: str | None
    ) -> Plan | None:
        """712.4: a meld card is cast front face up; the meld result can't be cast."""
        if card.is_meld_result:
            return refuse(obj, rs.cite("meld", "the back half of a meld card can't be cast"))
        if face == "back":
            return refuse(obj, rs.cite("meld_back", "a meld card's back face can't be cast"))
        why = "a meld card on the stack has only its front face"
        return "done", "stack", "front", rs.cite("meld_stack", why)

    def naming(self, rs: MagicFaces, name: str, card: CardDef) -> Decided[bool] | None:
        """712.19: a melded permanent's name: a front face's or the combined back face's."""
        if not card.is_meld_result:
            return super().naming(rs, name, card)
        return Decided(
            True,
            rs.cite("naming_meld", "a melded permanent's name may be chosen")
            + rs.cite("meld_naming", "a front face's name or the combined back face's name"),
        )

    # --- melding (701.42) ---------------------------------------------------------------------

    def is_half(self, state: GameState, player: str | None, o: GameObject) -> bool:
        """An unmelded meld card ``player`` owns (``None``: anyone's)."""
        return (
            not o.face_down  # 708.2: no name, so no meld card (whatever the hidden card)
            and state.card_def(o).layout == "meld"
            and o.meld is None
            and player in (None, o.owner)
        )

    def halves(self, state: GameState, player: str | None) -> list[GameObject]:
        """The unmelded meld cards ``player`` owns (``None``: everyone's)."""
        return [o for o in state.iter_objects() if self.is_half(state, player, o)]

    def nameless(self, rs: MagicFaces, state: GameState, *objs: GameObject) -> Outcome | None:
        """708.2, 701.42c: a face-down object has no name, so it is no card of a meld pair
        whatever card it is: nothing happens (the same for every hidden card); 729.2: nor is
        a merged permanent. ``None`` when neither."""
        if any(o.components for o in objs):
            why = "a merged permanent isn't a card of a meld pair"
            stay = "they stay where they are"
            return Outcome(state, NOTHING, rs.cite("meld_pair", why) + rs.cite("meld_stay", stay))
        if not any(o.face_down for o in objs):
            return None
        why = "a face-down object has no name: it isn't a card of a meld pair"
        stay = "objects that can't be melded stay in their current zone"
        return Outcome(
            state, NOTHING, rs.cite("face_down_values", why) + rs.cite("meld_stay", stay)
        )

    def meld(self, rs: MagicFaces, state: GameState, a: Meld, catalog: Catalog) -> Outcome:
        """701.42a, 712.4: exile the pair and put them onto the battlefield melded, one
        permanent represented by both cards, back faces up (712.14c). ``answer`` is the
        melded permanent's object id."""
        oa, ob = state.objects[a.objects[0]], state.objects[a.objects[1]]
        nameless = self.nameless(rs, state, oa, ob)  # before the cards are read (708.2)
        if nameless is not None:
            return nameless
        names = {state.cards[oa.card].card.name, state.cards[ob.card].card.name}
        result = find_meld_result(names, catalog.all_cards())
        # A meld ability exiles the pair from the battlefield and melds them from exile.
        where = {oa.zone, ob.zone}
        if (
            result is None
            or oa.token
            or ob.token
            or oa.meld is not None
            or ob.meld is not None
            or oa.id == ob.id
            or oa.owner != ob.owner
            or not where <= {"battlefield", "exile"}
        ):
            return Outcome(
                state,
                NOTHING,
                rs.cite("meld_pair", "only two cards of the same meld pair can be melded")
                + rs.cite("meld_stay", "objects that can't be melded stay in their current zone"),
            )
        state = core.forget(rs.remove(rs.remove(state, oa), ob), oa.id)
        state = core.forget(state, ob.id)
        state, oid = core.new_object_id(state)
        state, ts = core.tick(state)
        melded = GameObject(
            id=oid,
            cards=(oa.card, ob.card),
            zone="battlefield",
            owner=oa.owner,
            controller=oa.controller,
            face="back",
            meld=result,
            timestamp=ts,
        )
        state = rs.place(state, melded)
        return Outcome(
            state,
            DONE,
            rs.cite("meld_action", f"{' and '.join(sorted(names))} meld into {result.name}")
            + rs.cite(
                "meld_enters",
                "the melded permanent enters back faces up, one object represented by two cards",
            ),
            answer=oid,
        )


def find_meld_result(names: set[str], candidates: list[CardDef]) -> CardDef | None:
    """The meld card whose ``melds_from`` is the two names."""
    for card in candidates:
        if card.is_meld_result and set(card.melds_from) == names:
            return card
    return None


#: The handler (``meld`` is its procedure).
MELD = MeldCard()
