"""Unit tests of the scp ruleset's hooks beyond the scenarios (seed 001, 表向き/裏向き)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from obverse import vocab as v
from obverse.cards import CardDef, Face
from obverse.characteristics import characteristics
from obverse.engine import apply, legal_actions
from obverse.fastoffers import OfferMemo
from obverse.offer_reference import expanded, reference_actions
from obverse.rulesets import get_ruleset
from obverse.rulesets.scp import CrossTest
from obverse.rulings import DONE, ILLEGAL, NOTHING
from obverse.runner import run_scenario
from obverse.state import GameState, new_state
from obverse.views import is_visible, view

RS = get_ruleset("scp")
OBJECT = CardDef(
    name="SCP-173",
    faces=(
        Face(
            name="SCP-173",
            cost=2,
            types=("Object",),
            securing_power=3,
            object_class="Euclid",
            tags=("彫刻",),
        ),
    ),
)
TALE = CardDef(name="Tale A", faces=(Face(name="Tale A", types=("Tale",)),))


def _game(pregame: bool = False) -> GameState:
    return new_state("scp", ("alice", "bob"), pregame=pregame)


def _add(
    state: GameState,
    zone: str,
    *,
    card: CardDef = OBJECT,
    owner: str = "alice",
    face_down: bool | None = None,
    controller: str | None = None,
) -> tuple[GameState, int]:
    """Set a card up as the runner does; returns the state and the object id."""
    fd = RS.face_down_on_setup(zone, face_down)
    state, card_id = RS.add_card(
        state,
        card,
        RS.canonical_zone(zone),
        owner=owner,
        face="front",
        face_down=fd,
        controller=controller,
    )
    obj = state.object_of_card(card_id)
    assert obj is not None
    return state, obj.id


@pytest.mark.parametrize(
    ("zone", "types"),
    [
        ("site", ["Object"]),
        ("sandbox", ["Object"]),
        ("anomalous_locker", ["Object"]),
        ("tale_incident", ["Tale", "Incident"]),
        ("personnel_file", ["Personnel"]),
        ("canon_hub", ["Canon"]),
        ("decommissioned", []),
        ("out_of_game", []),
        ("internal", []),
    ],
)
def test_face_down_characteristics_are_the_zones(zone: str, types: list[str]) -> None:
    state, oid = _add(_game(), zone, face_down=True)
    chars = characteristics(state, oid)
    assert list(chars.props.types) == types
    assert chars.props.name is None
    assert chars.props.cost is None and chars.props.securing_power is None
    assert chars.props.object_class is None and chars.props.tags == ()


@pytest.mark.parametrize(
    ("zone", "face_down"),
    [
        ("site", False),
        ("decommissioned", False),
        ("sandbox", True),
        ("anomalous_locker", True),
    ],
)
def test_setup_default_facing(zone: str, face_down: bool) -> None:
    state, oid = _add(_game(), zone)
    assert state.obj(oid).face_down is face_down


@pytest.mark.parametrize(
    ("start", "start_fd", "dest", "end_fd"),
    [
        ("site", False, "sandbox", True),  # face up -> hidden: turns face down there
        ("sandbox", True, "site", False),  # face down -> public: turns face up there
        ("site", False, "decommissioned", False),  # face up -> public: unchanged
        ("sandbox", True, "anomalous_locker", True),  # face down -> hidden: unchanged
        ("site", True, "decommissioned", False),  # a face-down site card reaching a public zone
    ],
)
def test_move_takes_destination_default(
    start: str, start_fd: bool, dest: str, end_fd: bool
) -> None:
    state, oid = _add(_game(), start, face_down=start_fd)
    out = apply(state, v.Move(object=oid, to=dest))
    assert out.result == DONE
    assert "領域移動" in out.cites
    moved = out.state.object_of_card(state.obj(oid).card)
    assert moved is not None and moved.zone == dest and moved.face_down is end_fd


def test_instruction_overrides_default_and_cites_overview() -> None:
    state, oid = _add(_game(), "sandbox")
    out = apply(state, v.Move(object=oid, to="site", face_down=True))
    moved = out.state.object_of_card(state.obj(oid).card)
    assert moved is not None and moved.face_down
    assert "概要" in out.cites
    assert characteristics(out.state, moved).props.types == ("Object",)


def test_facing_changes_keep_controller() -> None:
    state, oid = _add(_game(), "site", controller="bob")
    out = apply(state, v.TurnFaceDown(object=oid))
    assert out.state.obj(oid).controller == "bob"
    assert {"領域移動", "サイト上"} <= set(out.cites)
    again = apply(out.state, v.TurnFaceDown(object=oid))
    assert again.result == NOTHING


@pytest.mark.parametrize(
    ("zone", "controller_sees"),
    [
        ("site", True),
        ("tale_incident", True),
        ("personnel_file", True),
        ("decommissioned", True),
        ("out_of_game", True),
        ("internal", True),
        ("canon_hub", False),
        ("sandbox", False),
        ("anomalous_locker", False),
    ],
)
def test_who_may_look_at_a_face_down_card(zone: str, controller_sees: bool) -> None:
    # Outside the site (the play zone) a card's controller is its owner (the contract).
    controller = "bob" if zone == "site" else "alice"
    other = "alice" if controller == "bob" else "bob"
    state, oid = _add(_game(), zone, face_down=True, controller=controller)
    obj = state.obj(oid)
    assert obj.controller == controller
    assert RS.may_look(state, controller, obj) is controller_sees
    assert RS.may_look(state, other, obj) is False
    assert RS.may_look(state, None, obj) is False


def test_examine_records_no_knowledge_so_control_change_ends_the_look() -> None:
    state, oid = _add(_game(), "site", face_down=True)
    out = apply(state, v.Examine(player="alice", object=oid))
    assert out.result == DONE and "サイト上" in out.cites
    assert out.state.knowledge == ()
    moved = apply(out.state, v.ChangeControl(object=oid, to="bob")).state
    assert not is_visible(moved, "alice", moved.obj(oid))
    assert is_visible(moved, "bob", moved.obj(oid))


def test_distinguishable_by_zone() -> None:
    state, _ = _add(_game(), "sandbox")
    state, _ = _add(state, "site", face_down=True)
    state, _ = _add(state, "canon_hub", face_down=True)
    state, _ = _add(state, "tale_incident", face_down=True, card=TALE)
    assert not RS.is_distinguishable(state, "alice", "sandbox", "alice")
    assert RS.is_distinguishable(state, "bob", "site", "alice")
    assert RS.is_distinguishable(state, "bob", "canon_hub", "alice")
    assert not RS.is_distinguishable(state, "bob", "tale_incident", "alice")
    assert RS.is_distinguishable(state, "alice", "tale_incident", "alice")


def test_pregame_reference_ends_for_the_shuffled_sandbox_only() -> None:
    state, sand = _add(_game(pregame=True), "sandbox")
    state, locker = _add(state, "anomalous_locker")
    state, theirs = _add(state, "sandbox", owner="bob")
    assert RS.may_look(state, "alice", state.obj(sand))
    assert not RS.may_look(state, "bob", state.obj(sand))
    state = apply(state, v.Shuffle(player="alice", zone="sandbox")).state
    assert not RS.may_look(state, "alice", state.obj(sand))
    ok, rulings = RS.can_examine(state, "alice", state.obj(sand))
    assert not ok and "ゲーム開始前の表裏の扱い" in [r.rule for r in rulings]
    assert RS.may_look(state, "alice", state.obj(locker))
    assert RS.may_look(state, "bob", state.obj(theirs))
    # the marker changes no characteristic and applies to no object as an effect would
    assert characteristics(state, sand).props.types == ("Object",)
    state = apply(state, v.StartGame()).state
    assert state.effects == ()
    for oid in (sand, locker, theirs):
        assert not RS.may_look(state, state.obj(oid).owner, state.obj(oid))


def test_shuffling_another_zone_before_the_game_ends_nothing() -> None:
    state, locker = _add(_game(pregame=True), "anomalous_locker")
    state = apply(state, v.Shuffle(player="alice", zone="anomalous_locker")).state
    assert RS.may_look(state, "alice", state.obj(locker))
    assert state.effects == ()


def test_cross_test_reveals_then_counts_as_declared() -> None:
    state, x = _add(_game(), "site", face_down=True)
    state, t = _add(state, "site", owner="bob")
    state = apply(state, v.ApplyEffect(label="e", to=x, modify={"forbid": ["cross_test"]})).state
    out = apply(state, CrossTest(object=x, target=t))
    assert out.result == DONE
    assert not out.state.obj(x).face_down and out.state.obj(x).cross_tested
    assert "サイト上" in out.cites and "600.1a" in out.cites
    again = apply(out.state, CrossTest(object=x))
    assert again.result == ILLEGAL and again.state is out.state


def test_cross_test_needs_a_site_object_and_an_opponents_target() -> None:
    state, s = _add(_game(), "sandbox")
    assert apply(state, CrossTest(object=s)).result == ILLEGAL
    state, x = _add(state, "site")
    state, mine = _add(state, "site")
    out = apply(state, CrossTest(object=x, target=mine))
    assert out.result == ILLEGAL and "601.2a" in out.cites
    ok = apply(state, CrossTest(object=x))
    assert ok.result == DONE and ok.state.obj(x).cross_tested


def test_cross_test_offers_against_nothing_and_each_opponents_site_object() -> None:
    """601.2a: a site object's cross test is offered against nothing (its own offer) and
    against each object on the site its controller's opponent controls (one offer carrying
    them, in id order): the actions the brute-force reference finds, for each seat and the
    judge, and what the fast path gives; random play still draws every form."""
    state, x = _add(_game(), "site")
    state, mine = _add(state, "site")
    state, t1 = _add(state, "site", owner="bob")
    state, _ = _add(state, "sandbox", owner="bob")
    state, t2 = _add(state, "site", owner="bob", face_down=True)
    offers = legal_actions(state, "alice")
    on_x = [
        legal
        for legal in offers
        if isinstance(legal.action, CrossTest) and legal.action.object == x
    ]
    assert [(legal.action, legal.choices()) for legal in on_x] == [
        (CrossTest(object=x), ()),
        (CrossTest(object=x, target=t1), (t1, t2)),
    ]
    for seat in ("alice", "bob", None):
        assert expanded(legal_actions(state, seat)) == reference_actions(state, seat)
        assert [a for p in OfferMemo().parts(state, seat) for a in p] == legal_actions(state, seat)
    drawn = RS.candidates_on(state, "alice", state.obj(x), "cross_test")
    assert drawn == [CrossTest(object=x), *(CrossTest(object=x, target=i) for i in (mine, t1, t2))]


def test_select_and_search_rulings() -> None:
    select, why_select = RS.query_sight("select", "sandbox")
    search, why_search = RS.query_sight("search", "sandbox")
    assert [r.rule for r in why_select] == ["選択と探索"]
    assert [r.rule for r in why_search] == ["選択と探索"]
    state, oid = _add(_game(), "sandbox")
    assert search(state, state.obj(oid)).props.object_class == "Euclid"
    assert select(state, state.obj(oid)).props.object_class is None
    assert characteristics(state, oid).props.object_class is None


def test_manifesting_from_tale_incident_puts_it_face_up_on_the_stack() -> None:
    state, t = _add(_game(), "tale_incident", card=TALE, face_down=True)
    out = apply(state, v.Play(object=t))
    assert "Tale・Incident置き場" in out.cites
    obj = out.state.object_of_card(state.obj(t).card)
    assert obj is not None and obj.zone == "stack" and not obj.face_down
    done = apply(out.state, v.Resolve(object=obj.id))
    after = done.state.object_of_card(state.obj(t).card)
    assert after is not None and after.zone == "decommissioned"


def test_view_hides_sandbox_cards_but_shows_zone_types() -> None:
    state, _ = _add(_game(), "sandbox")
    entry = view(state, "alice")["zones"][0]["objects"][0]
    assert entry["visible"] is False and entry["types"] == ["Object"] and entry.get("name") is None


# --- one sandbox per object class (301.1), the chain, whose turn ---------------------------


def _scenario(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_class_sandboxes_are_hidden_ordered_and_answer_to_sandbox() -> None:
    for zone in ("sandbox_safe", "sandbox_euclid", "sandbox_keter"):
        assert RS.is_zone(zone) and not RS.is_public(zone) and zone in RS.ordered_zones
        assert RS.zone_matches(zone, "sandbox") and not RS.zone_matches("sandbox", zone)
    assert RS.canonical_zone("chain") == "stack" and RS.zone_matches("stack", "chain")


def test_a_face_down_object_has_no_class_so_no_class_sandbox_takes_it() -> None:
    """A face-down site object has no object class (サイト上): whatever its front, a move
    into a class sandbox is refused the same way, so the refusal reveals nothing."""
    state, oid = _add(_game(), "site", face_down=True)  # a face-down Euclid object
    for zone in ("sandbox_safe", "sandbox_euclid"):
        out = apply(state, v.Move(object=oid, to=zone))
        assert out.result == ILLEGAL and [r.rule for r in out.rulings] == ["301.1", "サイト上"]
        assert "Euclid" not in " ".join(r.reason for r in out.rulings)
    up = apply(state, v.TurnFaceUp(object=oid)).state
    out = apply(up, v.Move(object=oid, to="sandbox_euclid"))
    assert out.result == DONE
    moved = out.state.object_of_card(state.obj(oid).card)
    assert moved is not None and moved.zone == "sandbox_euclid" and moved.face_down


def test_shuffling_a_class_sandbox_before_the_game_ends_the_owners_reference() -> None:
    state, oid = _add(_game(pregame=True), "sandbox_euclid")
    assert RS.may_look(state, "alice", state.obj(oid))
    state = apply(state, v.Shuffle(player="alice", zone="sandbox_euclid")).state
    assert not RS.may_look(state, "alice", state.obj(oid))


def test_turn_names_the_player_whose_turn_it_is(tmp_path: Path) -> None:
    body = """\
        ruleset: scp
        turn: {turn}
        setup:
          - {{label: x, card: SCP-173 彫刻 - オリジナル, owner: bob, zone: site}}
          - {{label: t, card: SCP-999 くすぐりオバケ, owner: alice, zone: site}}
        steps:
          - cross_test: {{object: x, target: t}}
          - expect: {{last_result: done}}
        """
    assert run_scenario(str(_scenario(tmp_path, body.format(turn="bob")))).status == "PASS"
    assert run_scenario(str(_scenario(tmp_path, body.format(turn="alice")))).status == "FAIL"
    bad = run_scenario(str(_scenario(tmp_path, body.format(turn="carol"))))
    assert bad.status == "ERROR" and bad.error is not None
    assert "turn" in bad.error.describe() and "carol" in bad.error.describe()
