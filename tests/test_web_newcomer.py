"""A newcomer's sandbox in a real headless Chromium: offers read as the kernel's labels with
the likely one first, the inspector shows the characteristics now and the rulings behind
them, every badge is explained in text, the setup form follows the table's ruleset, a
resolved FaB invocation is drawn with its active face upright, and the page works on a
390 x 844 phone. Screenshots go to a temporary directory (``OBVERSE_SHOTS`` to keep them)."""

# The fixtures come from the browser tests' module (its skip without a browser skips this one
# too); pytest passes them by parameter name, which ruff reads as redefinitions.
# ruff: noqa: F811

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from test_web_browser import (  # noqa: F401  (the fixtures, and the module's skip)
    _requirements,
    browser,
    guarded_page,
    panel,
    seeded_table,
    server,
)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$OBVERSE_SHOTS`` if set, else the test's temporary directory."""
    where = Path(os.environ.get("OBVERSE_SHOTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def judge_act(server: str, judge: str, verb: str, obj: str | None, **args: Any) -> None:
    import httpx

    body = {"verb": verb, "object": obj, "args": args}
    r = httpx.post(f"{server}/api/t/{judge}/act", json=body)
    assert r.status_code == 200, r.text


@pytest.fixture
def desk(browser: Browser, server: str) -> Iterator[Page]:
    yield from guarded_page(browser, server, {"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    yield from guarded_page(browser, server, PHONE)


def test_offers_are_labelled_and_the_likely_one_comes_first(
    desk: Page, server: str, shots: Path
) -> None:
    table = seeded_table(
        server,
        "mtg",
        [
            ("Delver of Secrets", "alice", "battlefield"),
            ("Valki, God of Lies // Tibalt, Cosmic Impostor", "alice", "hand"),
            ("Grinning Demon", "bob", "hand"),
        ],
    )
    judge = table["seats"]["judge"]
    # bob's demon goes face down onto the battlefield (manifested): alice can't identify it
    judge_act(server, judge, "move", table["labels"][2], to="battlefield", face_down=True)
    desk.goto(f"{server}/#k={table['seats']['alice']}")
    alice = panel(desk, "alice")
    alice.locator(".card[data-name='Delver of Secrets']").click()
    first = desk.locator("#inspector .offer-groups > .offers button .label").first
    expect(first).to_have_text("Transform into Insectile Aberration")
    moves = desk.locator("#inspector details.offer-group[data-group='move']")
    expect(moves).not_to_have_attribute("open", "")
    expect(moves.locator("summary")).to_contain_text("Move to another zone")
    # the rule behind each offer, on demand
    rule = desk.locator("#inspector button[data-verb='transform'] small.rule")
    expect(rule).to_be_hidden()
    desk.check("#show-rules")
    expect(rule).to_have_text("701.27a")
    expect(rule).to_be_visible()
    # a card in hand is likely cast; the back face of a modal card is named, as Arena names it
    alice.locator(".card[data-name='Valki, God of Lies']").click()
    labels = desk.locator("#inspector button.offer .label")
    expect(labels.first).to_have_text(re.compile(r"^Cast "))
    back = re.compile(r"^Cast Tibalt, Cosmic Impostor \(back face\)$")
    expect(labels.filter(has_text=back)).to_have_count(1)
    # an opponent's face-down creature is named as alice may know it, nowhere by its name
    alice.locator(".card[data-name='Delver of Secrets']").click()
    more = desk.locator("#inspector details.offer-group[data-group='more']")
    more.locator("summary").click()
    expect(more).to_contain_text("Delver of Secrets becomes a copy of a face-down creature")
    assert "Grinning Demon" not in desk.content()
    desk.screenshot(path=str(shots / "desktop-offers.png"))


def test_the_inspector_shows_the_rulings_and_explains_badges(desk: Page, server: str) -> None:
    table = seeded_table(
        server, "mtg", [("Delver of Secrets", "alice", "battlefield"), ("Clone", "alice", "hand")]
    )
    judge_act(server, table["seats"]["judge"], "transform", table["labels"][0])
    desk.goto(f"{server}/#k={table['seats']['judge']}")
    judge = panel(desk, "judge")
    judge.locator(".card[data-name='Insectile Aberration']").click()
    now = desk.locator("#inspector-now")
    expect(now.locator(".now-name")).to_have_text("Insectile Aberration")
    expect(now).to_contain_text("mana value 1")
    expect(now.locator(".why")).to_contain_text("712.8e")
    expect(now.locator(".why")).to_contain_text("mana value from the front face")
    badges = desk.locator("#inspector .badges-why")
    expect(badges).to_contain_text("transformed")
    expect(badges).to_contain_text("back face is up")
    # the judge's "hidden ×2" badge, in words
    judge.locator(".card[data-name='Clone']").click()
    expect(desk.locator("#inspector .badges-why")).to_contain_text(
        "hidden from bob, spectator: they see a card back"
    )
    # a seat sees the same rulings for a card it may identify
    desk.goto(f"{server}/#k={table['seats']['bob']}")
    panel(desk, "bob").locator(".card[data-name='Insectile Aberration']").click()
    expect(desk.locator("#inspector-now .why")).to_contain_text("712.8e")


def test_a_ga_table_after_a_fab_table_offers_ga_zones(desk: Page, server: str) -> None:
    from obverse.rulesets import get_ruleset

    desk.goto(server + "/")  # once: the page stays loaded from one table to the next
    for alias in ("fab", "ga"):
        desk.select_option("#new-ruleset", alias)
        desk.click("#btn-create")
        expect(panel(desk, "judge")).to_be_visible()
        expect(desk.locator("#card-zone")).to_have_value(get_ruleset(alias).play_zone)
        zones = desk.locator("#card-zone option").all_inner_texts()
        assert sorted(zones) == sorted(get_ruleset(alias).zones), (alias, zones)
        desk.click("#btn-home")
        expect(desk.locator("#home")).to_be_visible()


UPRIGHT = """node => {
    // The card's net rotation: its transforms multiplied up to the card.
    let m = new DOMMatrix();
    for (let n = node; n && !n.classList.contains('card'); n = n.parentElement) {
        const t = getComputedStyle(n).transform;
        if (t && t !== 'none') m = new DOMMatrix(t).multiply(m);
    }
    return m.a;
}"""


def test_a_resolved_invocation_is_drawn_with_its_active_face_upright(
    desk: Page, server: str
) -> None:
    table = seeded_table(server, "fab", [("Invoke Azvolai", "alice", "hand")])
    judge = table["seats"]["judge"]
    for verb in ("cast", "resolve"):
        judge_act(server, judge, verb, table["labels"][0])
    desk.goto(f"{server}/#k={table['seats']['alice']}")
    card = panel(desk, "alice").locator(".card[data-name='Azvolai']")
    expect(card).to_have_count(1)
    halves = card.locator(".c-face.half")
    expect(halves).to_have_count(2)
    names = card.locator(".c-face.half .c-name")
    by_name = {names.nth(i).inner_text(): names.nth(i) for i in range(2)}
    assert by_name["Azvolai"].evaluate(UPRIGHT) == pytest.approx(1)
    assert by_name["Invoke Azvolai"].evaluate(UPRIGHT) == pytest.approx(-1)
    # an MTG flip card flipped: the same, its flipped half upright
    table = seeded_table(server, "mtg", [("Akki Lavarunner", "alice", "battlefield")])
    judge_act(server, table["seats"]["judge"], "flip", table["labels"][0])
    desk.goto(f"{server}/#k={table['seats']['alice']}")
    card = panel(desk, "alice").locator(".card[data-name='Tok-Tok, Volcano Born']")
    expect(card).to_have_count(1)
    top = card.locator(".c-face.half .c-name").filter(has_text="Tok-Tok")
    assert top.evaluate(UPRIGHT) == pytest.approx(1)


def _no_sideways_scroll(pg: Page) -> None:
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def test_the_sandbox_on_a_phone(phone: Page, server: str, shots: Path) -> None:
    # the home page fits: nothing pushed off-screen
    phone.goto(server + "/")
    expect(phone.locator("#btn-open")).to_be_visible()
    _no_sideways_scroll(phone)
    box = phone.locator("#btn-open").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    phone.screenshot(path=str(shots / "phone-home.png"))

    table = seeded_table(
        server,
        "mtg",
        [
            ("Delver of Secrets", "alice", "battlefield"),
            ("Clone", "alice", "hand"),
            ("Huntmaster of the Fells", "bob", "battlefield"),
            ("Serra Angel", "bob", "library"),
        ],
    )
    seats = table["seats"]
    phone.goto(f"{server}/#k={seats['judge']}")
    expect(panel(phone, "judge")).to_be_visible()
    header = phone.locator("#top").bounding_box()
    assert header is not None and header["height"] <= 0.15 * PHONE["height"], header
    _no_sideways_scroll(phone)
    # two seats: tabs, each panel right under them
    phone.click("#seat-switch button[data-view='alice | bob']")
    expect(phone.locator("#panel-tabs button")).to_have_count(2)
    alice, bob = panel(phone, "alice"), panel(phone, "bob")
    expect(alice).to_be_visible()
    expect(bob).to_be_hidden()
    phone.click("#panel-tabs button[data-tab='bob']")
    expect(bob).to_be_visible()
    top = bob.bounding_box()
    assert top is not None and top["y"] < 0.3 * PHONE["height"], top
    phone.click("#panel-tabs button[data-tab='alice']")
    # an action from the inspector (under the board) brings the board back into view
    delver = alice.locator(".card[data-name='Delver of Secrets']")
    delver.click()
    offer = phone.locator("#inspector button[data-verb='transform']")
    expect(offer).to_be_in_viewport()
    offer.click()
    aberration = alice.locator(".card[data-name='Insectile Aberration']")
    expect(aberration).to_have_count(1)
    expect(aberration).to_be_in_viewport()
    _no_sideways_scroll(phone)
    phone.screenshot(path=str(shots / "phone-board.png"))
    # the badge's meaning is in the inspector, in text a phone reaches by tapping
    aberration.click()
    expect(phone.locator("#inspector .badges-why")).to_contain_text("back face is up")
    expect(phone.locator("#inspector-now .why")).to_contain_text("712.8e")
    if phone.locator("#notice").is_visible():
        phone.click("#notice-close")  # the action's notice would cover the inspector
    phone.locator("#inspector").screenshot(path=str(shots / "phone-inspector.png"))
    assert (shots / "phone-board.png").stat().st_size > 10_000
