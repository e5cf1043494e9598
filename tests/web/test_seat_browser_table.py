"""A seat's page at a real table, in a real browser (Debian's Chromium, Playwright, headless; a
390 x 844 phone and a 1920 x 1080 screen): a double tap on Roll queues one request, and a send
repeated with its key too; the server stopped and started while the player builds an action
shows the "reconnecting" banner on the seat and the TV pages, greys out and disables Roll, then
clears it all once the server is back; a reload after the result still shows its dice and
whether it hit; the Roll button and "your turn" fit the first screen. Skips where Chromium or
Playwright is missing, as `test_seat_browser` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from _serve import Server
from test_seat_browser import ARGS, CHROMIUM, Table, _build, _playwright

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatDesk

pytestmark = pytest.mark.slow

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1920, "height": 1080}}


def _seat(table: Table, browser, screen: dict[str, int]):  # type: ignore[no-untyped-def]
    page = table.seat_page(browser)
    page.set_viewport_size(screen)
    return page


def _in_first_screen(page, selector: str, screen: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert 0 <= box["y"] and box["y"] + box["height"] <= screen["height"], (selector, box)


@pytest.mark.parametrize("screen", SCREENS.values(), ids=SCREENS.keys())
def test_a_double_tap_and_a_repeated_send_queue_one_request(tmp_path: Path, screen):
    sync_playwright = _playwright()
    table = Table(tmp_path, "approve")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = _seat(table, browser, screen)
                _build(page)
                page.dblclick("#roll")
                page.locator("#result[data-status='pending'][data-number='1']").wait_for(
                    timeout=5000
                )
                page.locator("#requests .request").first.wait_for(timeout=5000)
                assert page.locator("#roll").is_disabled()  # answered: no second send
                assert [
                    row.number for row in SeatDesk(Tracker(tmp_path / "encounter.toml")).pending()
                ] == [1]
                # The same key sent twice, as a retry after a lost answer does: one request.
                answers = page.evaluate(
                    """async () => {
                        const send = () => fetch(location.pathname + "/act", {
                            method: "POST", headers: {"Content-Type": "application/json"},
                            body: JSON.stringify({action: "dagger", target: "Goblin 2",
                                                  key: "retry-key-0001"})});
                        const first = await send();
                        const again = await send();
                        return [first.status, (await first.json()).request.id,
                                again.status, (await again.json()).request.id];
                    }"""
                )
                assert answers == [202, 2, 202, 2]
                pending = SeatDesk(Tracker(tmp_path / "encounter.toml")).pending()
                assert [(row.number, row.act["aspect"]) for row in pending] == [
                    (1, "Finesse"),
                    (2, "dagger"),
                ]
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()


def test_the_server_stopped_and_started_shows_then_clears_the_banner(tmp_path: Path):
    sync_playwright = _playwright()
    table = Table(tmp_path, "approve")
    port = table.server.port
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                tv = browser.new_page(viewport=SCREENS["desktop"])
                tv.goto(table.origin + "/", wait_until="load")
                tv.locator("body[data-seq]").wait_for(state="attached", timeout=5000)
                page = _seat(table, browser, SCREENS["phone"])
                _build(page)
                assert page.locator("#offline").is_hidden() and tv.locator("#offline").is_hidden()
                table.server.close()  # the server goes away mid-action
                for shown in (page, tv):
                    shown.locator("#offline").wait_for(state="visible", timeout=5000)
                    assert "Reconnecting" in shown.locator("#offline").inner_text()
                    shown.locator("body.stale").wait_for(state="attached", timeout=5000)
                assert page.locator("#roll").is_disabled()
                table.server = Server(tmp_path, "--port", str(port))
                for shown in (page, tv):
                    shown.locator("#offline").wait_for(state="hidden", timeout=15000)
                    shown.locator("body[data-online='true']").wait_for(timeout=5000)
                    assert shown.locator("body.stale").count() == 0
                page.locator("#roll:enabled").wait_for(timeout=5000)
                page.click("#roll")
                page.locator("#result[data-status='pending'][data-number='1']").wait_for(
                    timeout=5000
                )
                assert len(SeatDesk(Tracker(tmp_path / "encounter.toml")).pending()) == 1
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()


@pytest.mark.parametrize("screen", SCREENS.values(), ids=SCREENS.keys())
def test_a_reload_after_the_result_shows_its_dice_and_whether_it_hit(tmp_path: Path, screen):
    sync_playwright = _playwright()
    table = Table(tmp_path, "auto")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = _seat(table, browser, screen)
                _in_first_screen(page, "#turn", screen)  # Aria's turn: said first, large
                assert page.locator("#turn").inner_text() == "Your turn"
                _build(page)
                _in_first_screen(page, "#roll", screen)
                page.click("#roll")
                page.locator("#result[data-status='approved']").wait_for(timeout=5000)
                before = page.locator("#result").inner_text()
                page.reload(wait_until="load")
                page.locator("body[data-loaded]").wait_for(state="attached", timeout=5000)
                result = page.locator("#result[data-status='approved']")
                result.wait_for(timeout=5000)
                text = result.inner_text()
                assert text == before
                assert "dice " in page.locator("#result .dice").inner_text()
                outcome = page.locator("#result .outcome").inner_text()
                assert outcome in ("hit", "no damage")
                for step in ("Gate", "5d4", "Extra 1d6", "Total", "R7"):
                    assert step in text, step
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()
