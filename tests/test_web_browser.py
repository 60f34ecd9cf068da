"""The web sandbox in a real headless Chromium (Debian's ``chromium`` with Playwright for
Python): build a board, transform a double-faced card, compare two seats side by side,
export, reopen, and save a screenshot of the board to ``test-artifacts/web-board.png``."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from obverse.runner import run_scenario

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _missing() -> list[str]:
    """What the browser tests need and this machine lacks."""
    missing = []
    if not os.path.exists(CHROMIUM):
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    for module in ("playwright", "uvicorn", "starlette"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"the {module} package")
    return missing


MISSING = _missing()
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
# Outside CI a missing browser skips this module only (the reason shows with -rs); in CI it
# fails every test here, without aborting the collection of the other test modules.
if MISSING and not IN_CI:
    pytest.skip(f"browser tests need {', '.join(MISSING)}", allow_module_level=True)

if not MISSING:
    import uvicorn
    from playwright.sync_api import Browser, Page, expect, sync_playwright

    from obverse.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True, scope="module")
def _requirements() -> None:
    """In CI a missing browser or library is a failure, never a skip."""
    if MISSING:
        pytest.fail(
            f"browser tests must run in CI but {', '.join(MISSING)} is missing", pytrace=False
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A uvicorn server on 127.0.0.1 and a free port, in a thread, over a fresh store."""
    tmp = tempfile.mkdtemp(prefix="obverse-web-")
    port = _free_port()
    app = create_app(Path(tmp) / "games.sqlite3")
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,  # open event streams don't hold the shutdown up
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the sandbox server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    app.state.sandbox.close_streams()
    srv.should_exit = True
    thread.join(timeout=10)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Playwright gives every launch a fresh temporary profile (it refuses --user-data-dir).
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=60_000)
        yield b
        b.close()


def guarded_page(browser: Browser, server: str, viewport: dict[str, int]) -> Iterator[Page]:
    """A page of a fresh context at ``viewport``: any request outside the sandbox, and any
    script error, fails the test."""
    context = browser.new_context(viewport=viewport, accept_downloads=True)  # type: ignore[arg-type]
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(15_000)
    # Nothing but the sandbox: any request elsewhere fails the test.
    outside: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(server) or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    pg.route("**/*", guard)
    yield pg
    context.close()
    assert not errors, errors
    assert not outside, outside


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    yield from guarded_page(browser, server, {"width": 1600, "height": 1000})


def add_card(page: Page, name: str, owner: str, zone: str, face_down: bool = False) -> None:
    page.fill("#card-name", name[:5])
    # Autocomplete: the datalist offers the full name.
    expect(page.locator(f'#card-names option[value="{name}"]')).to_have_count(1)
    page.fill("#card-name", name)
    page.select_option("#card-owner", owner)
    page.select_option("#card-zone", zone)
    page.set_checked("#card-facedown", face_down)
    page.click("#btn-add")
    expect(page.locator("#notice")).to_contain_text("added")


def panel(page: Page, seat: str) -> Any:
    return page.locator(f".panel[data-seat='{seat}']")


def test_build_transform_compare_export_reopen(page: Page, server: str, tmp_path: Path) -> None:
    page.goto(server + "/")
    page.select_option("#new-ruleset", "mtg")
    page.fill("#new-title", "Delver at the table")
    page.click("#btn-create")
    expect(panel(page, "judge")).to_be_visible()

    add_card(page, "Delver of Secrets // Insectile Aberration", "alice", "battlefield")
    add_card(page, "Huntmaster of the Fells // Ravager of the Fells", "bob", "battlefield")
    add_card(page, "Fire // Ice", "bob", "hand")
    add_card(page, "Serra Angel", "bob", "library")
    add_card(page, "Grinning Demon", "bob", "battlefield", face_down=True)
    add_card(page, "Clone", "alice", "hand")
    add_card(page, "Akoum Warrior // Akoum Teeth", "alice", "hand")
    add_card(page, "Elite Vanguard", "alice", "library")
    add_card(page, "Akki Lavarunner // Tok-Tok, Volcano Born", "alice", "battlefield")

    judge = panel(page, "judge")
    # Transform the double-faced card by clicking it and its action.
    judge.locator(".card[data-name='Delver of Secrets']").click()
    expect(page.locator("#inspector .face-big")).to_have_count(2)  # both faces on demand
    page.click("#inspector button[data-verb='transform']")
    expect(judge.locator(".card[data-name='Insectile Aberration']")).to_have_count(1)
    expect(judge.locator(".log")).to_contain_text("701.27a")
    # A flip card, too.
    judge.locator(".card[data-name='Akki Lavarunner']").click()
    page.click("#inspector button[data-verb='flip']")
    expect(judge.locator(".card[data-name='Tok-Tok, Volcano Born']")).to_have_count(1)

    # Two seats side by side: each sees what it may know, and no more.
    page.click("#seat-switch button[data-view='alice | bob']")
    alice, bob = panel(page, "alice"), panel(page, "bob")
    expect(alice).to_be_visible()
    expect(bob).to_be_visible()
    for seat in (alice, bob):
        expect(seat.locator(".card[data-name='Insectile Aberration']")).to_have_count(1)
    expect(bob.locator(".card[data-name='Fire // Ice']")).to_have_count(1)
    expect(alice.locator(".card[data-name='Fire // Ice']")).to_have_count(0)
    expect(alice.locator(".card[data-name='Clone']")).to_have_count(1)
    expect(bob.locator(".card[data-name='Clone']")).to_have_count(0)
    alice_text = alice.inner_text()
    for hidden in ("Fire // Ice", "Grinning Demon", "Serra Angel"):
        assert hidden not in alice_text
    assert "Clone" not in bob.inner_text()
    # Alice's DOM holds nothing of bob's hidden cards, not even in attributes.
    alice_html = alice.evaluate("node => node.outerHTML")
    for hidden in ("Fire // Ice", "Grinning Demon", "Serra Angel"):
        assert hidden not in alice_html
    # Bob looks at his face-down permanent; alice sees a 2/2 back.
    expect(bob.locator(".card[title='Grinning Demon']")).to_have_count(1)
    expect(alice.locator(".card[title='Grinning Demon']")).to_have_count(0)

    # Alice looks at both faces of her transformed card.
    alice.locator(".card[data-name='Insectile Aberration']").click()
    expect(page.locator("#inspector .face-big")).to_have_count(2)
    expect(page.locator("#inspector button[data-verb='transform']")).to_be_visible()
    page.wait_for_timeout(300)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "web-board.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000

    # Export the scenario (judge only), run it, reopen it as a game.
    page.click("#seat-switch button[data-view='judge']")
    expect(panel(page, "judge")).to_be_visible()
    with page.expect_download() as download:
        page.click("#btn-export")
    exported = tmp_path / "board.yaml"
    download.value.save_as(exported)
    result = run_scenario(exported)
    assert result.status == "PASS", (result.line(), [str(f) for f in result.failures])
    text = exported.read_text("utf-8")
    assert "transform: delver" in text and "flip: akki" in text

    page.click("#btn-home")
    expect(page.locator("#home")).to_be_visible()
    page.set_input_files("#scenario-file", str(exported))
    page.click("#btn-open")
    reopened = panel(page, "judge")
    expect(reopened).to_be_visible()
    expect(reopened.locator(".card[data-name='Insectile Aberration']")).to_have_count(1)
    expect(reopened.locator(".card[data-name='Tok-Tok, Volcano Born']")).to_have_count(1)
    expect(reopened.locator(".log")).to_contain_text("701.27a")


def test_a_seat_link_shows_only_that_seat(page: Page, server: str) -> None:
    import httpx

    with httpx.Client(base_url=server) as c:
        seats = c.post("/api/tables", json={"ruleset": "mtg"}).json()["seats"]
        for card, owner, zone in (("Fire // Ice", "bob", "hand"), ("Clone", "alice", "hand")):
            r = c.post(
                f"/api/t/{seats['judge']}/setup", json={"card": card, "owner": owner, "zone": zone}
            )
            assert r.status_code == 200
    page.goto(f"{server}/#k={seats['alice']}")
    alice = panel(page, "alice")
    expect(alice.locator(".card[data-name='Clone']")).to_have_count(1)
    expect(page.locator("#seat-switch button")).to_have_count(0)  # no other seats to pick
    expect(page.locator("#btn-export")).to_be_hidden()
    assert "Fire // Ice" not in page.content()


def seeded_table(server: str, ruleset: str, cards: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A table built through the API: its seats and the judge's label of each card."""
    import httpx

    with httpx.Client(base_url=server) as c:
        seats = c.post("/api/tables", json={"ruleset": ruleset}).json()["seats"]
        labels = []
        for card, owner, zone in cards:
            r = c.post(
                f"/api/t/{seats['judge']}/setup", json={"card": card, "owner": owner, "zone": zone}
            )
            assert r.status_code == 200, r.text
            labels.append(r.json()["label"])
    return {"seats": seats, "labels": labels}


def judge_act(server: str, judge: str, verb: str, obj: str | None) -> None:
    import httpx

    r = httpx.post(f"{server}/api/t/{judge}/act", json={"verb": verb, "object": obj})
    assert r.status_code == 200, r.text


def box_of(locator: Any) -> dict[str, float] | None:
    """The element's box (again if a redraw replaced it while it was being measured)."""
    for _ in range(20):
        box: dict[str, float] | None = locator.bounding_box()
        if box is not None:
            return box
        locator.page.wait_for_timeout(100)
    return None


def smallest_text(page: Page, selector: str) -> float:
    """The smallest computed font size of any text under ``selector``."""
    size: float = page.evaluate(
        """sel => {
            let least = Infinity;
            for (const root of document.querySelectorAll(sel)) {
              const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
              while (walk.nextNode()) {
                const node = walk.currentNode;
                if (!node.textContent.trim() || !node.parentElement.offsetParent) continue;
                least = Math.min(least, parseFloat(getComputedStyle(node.parentElement).fontSize));
              }
            }
            return least;
        }""",
        selector,
    )
    return size


def check_layout(pg: Page, alice: Any, width: int) -> None:
    """The board gets the room: at least 300 px on a phone, no sideways scrolling, the side
    bar under the board on a phone and beside it on a desktop."""
    box = box_of(alice)
    assert box is not None and box["width"] >= (300 if width < 700 else 800), box
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    side = box_of(pg.locator("#side"))
    assert side is not None
    if width < 700:
        assert side["y"] >= box["y"] + box["height"] - 1  # the side bar under the board
    else:
        assert side["x"] >= box["x"] + box["width"] - 1  # beside it


def check_inline_error(pg: Page, alice: Any, height: int) -> None:
    """A refused action is shown in the page, in words, not as a dialog or a bare status."""
    alice.locator(".card[data-name='Clone']").click()
    pg.locator("#inspector .more summary").click()
    cast_form = pg.locator("#inspector .more fieldset:has(button[data-form-verb='cast'])")
    cast_form.locator("select[aria-label='face']").select_option("back")
    pg.click("#inspector .more button[data-form-verb='cast']")
    notice = pg.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Refused: cast: illegal")
    text = notice.inner_text()
    assert not text.strip()[:3].isdigit() and "Traceback" not in text
    nbox = notice.bounding_box()
    assert nbox is not None and nbox["y"] >= 0 and nbox["y"] + nbox["height"] <= height


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_sandbox_at_phone_and_desktop_width(
    browser: Browser, server: str, width: int, height: int
) -> None:
    table = seeded_table(
        server,
        "mtg",
        [
            ("Delver of Secrets", "alice", "battlefield"),
            ("Akki Lavarunner", "alice", "battlefield"),
            ("Fire // Ice", "bob", "hand"),
            ("Clone", "alice", "hand"),
        ],
    )
    seats = table["seats"]
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    dialogs: list[str] = []
    errors: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    pg.on("dialog", on_dialog)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(f"{server}/#k={seats['alice']}")
    alice = panel(pg, "alice")
    delver = alice.locator(".card[data-name='Delver of Secrets']")
    expect(delver).to_have_count(1)
    check_layout(pg, alice, width)
    assert smallest_text(pg, ".panel .card") >= 11
    # An offered action, performed from the inspector.
    delver.click()
    offered = pg.locator("#inspector .offers button[data-verb='transform']")
    expect(offered).to_be_visible()
    offered.click()
    aberration = alice.locator(".card[data-name='Insectile Aberration']")
    expect(aberration).to_have_count(1)
    expect(aberration.locator(".badge.b-back")).to_have_text("transformed")
    # The inspector: both faces, the one up highlighted, large enough to read.
    aberration.click()
    expect(pg.locator("#inspector .face-big")).to_have_count(2)
    expect(pg.locator("#inspector .face-big.up")).to_have_attribute(
        "data-face", "Insectile Aberration"
    )
    assert smallest_text(pg, "#inspector .face-big") >= 14
    # A flip card is drawn turned around once flipped.
    alice.locator(".card[data-name='Akki Lavarunner']").click()
    pg.locator("#inspector .offers button[data-verb='flip']").click()
    turned = alice.locator(".card[data-name='Tok-Tok, Volcano Born'] .c-flip.turned")
    expect(turned).to_have_count(1)
    expect(turned).to_have_css("transform", "matrix(-1, 0, 0, -1, 0, 0)")
    check_inline_error(pg, alice, height)
    # The page follows the table: the judge's change shows up without a reload.
    judge_act(server, seats["judge"], "end_turn", None)
    expect(alice.locator(".log")).to_contain_text("end turn")
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"web-board-{width}.png"))
    context.close()
    assert not dialogs and not errors, (dialogs, errors)


def test_every_game_badges_its_back_faces(page: Page, server: str) -> None:
    cases = [
        ("fab", [("Figment of War", "alice", "hand")], ["cast", "resolve", "awaken"], "back face"),
        ("fab", [("Stir the Pot", "alice", "hand")], ["cast", "transcend"], "transcended"),
        ("ga", [("Fabled Azurite Fatestone", "alice", "field")], ["transform"], "back face"),
        ("mtg", [("Delver of Secrets", "alice", "battlefield")], ["transform"], "transformed"),
    ]
    for ruleset, cards, verbs, badge in cases:
        table = seeded_table(server, ruleset, cards)
        judge = table["seats"]["judge"]
        page.goto(f"{server}/#k={table['seats']['alice']}")
        alice = panel(page, "alice")
        expect(alice.locator(".card")).to_have_count(1)
        expect(alice.locator(".badge.b-back")).to_have_count(0)  # front face up: no badge
        for verb in verbs:
            judge_act(server, judge, verb, table["labels"][0])
        expect(alice.locator(".card .badge.b-back")).to_have_text(badge)
