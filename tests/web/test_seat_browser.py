"""A seat's page in a real browser (Debian's Chromium, Playwright, headless, a 390 x 844 phone):
join, build an action and watch its preview, roll it and see the result on the seat page and on
the TV page; enter real dice; in approve mode the GM approves, denies and undoes from the CLI
and the page shows each outcome. Saves a screenshot of the seat page under the test's folder
(with ``D4CLI_SCREENSHOTS=DIR`` also into DIR: how docs/screenshots/seat-page.png is made).
Skips, saying why, where Chromium or Playwright is missing; never downloads a browser."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _cli import ok
from _serve import SECRETS, Server, gm, hidden_skirmish

from d4cli.api.encounter import Tracker
from d4cli.api.seats import Seats

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("D4CLI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
HOSTILE = '<img src=x onerror="window.pwned=1">'


def _playwright():  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    return sync_playwright


class Table:
    """A served encounter with Aria's seat, a browser, and what its pages refused (the policy)."""

    def __init__(self, folder: Path, mode: str) -> None:
        hidden_skirmish()
        gm(folder, "alias", "Borin", HOSTILE)
        Tracker("encounter.toml").set_view({"seats": mode})
        self.token = Seats("encounter.toml").add("Aria").token
        self.server = Server(folder)
        self.origin = f"http://{self.server.host}:{self.server.port}"
        self.refused: list[str] = []

    def seat_page(self, browser):  # type: ignore[no-untyped-def]
        page = browser.new_page(viewport=PHONE, device_scale_factor=1)
        page.on(
            "console",
            lambda m: self.refused.append(m.text) if "Content Security" in m.text else None,
        )
        page.on("pageerror", lambda e: self.refused.append(str(e)))
        page.goto(f"{self.origin}/seat/{self.token}", wait_until="load")
        page.locator("body[data-loaded]").wait_for(state="attached", timeout=5000)
        return page

    def stop(self) -> None:
        code, err = self.server.stop()
        self.server.close()
        assert code == 130 and "Traceback" not in err


def _build(page, target: str = "Goblin 2", extra: str = "1d6") -> None:  # type: ignore[no-untyped-def]
    page.select_option("#aspect", "a:Finesse")
    page.select_option("#target", target)
    page.fill("#extra", extra)
    # The preview follows: 4d4 and blessed's die (R4, R5), and the 1d6.
    page.locator("#preview .pool.ok", has_text="Pool 5d4 + 1 extra").wait_for(timeout=5000)


def _shoot(page, folder: Path) -> None:  # type: ignore[no-untyped-def]
    shot = folder / "seat-page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    keep = os.environ.get("D4CLI_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / "seat-page.png")


def test_a_seat_builds_rolls_and_the_tv_page_follows(tmp_path: Path):
    sync_playwright = _playwright()
    table = Table(tmp_path, "auto")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                tv = browser.new_page(viewport={"width": 1280, "height": 720})
                tv.goto(table.origin + "/", wait_until="load")
                tv.locator("body[data-seq]").wait_for(state="attached", timeout=5000)
                seq = int(tv.locator("body").get_attribute("data-seq") or 0)
                page = table.seat_page(browser)
                assert page.locator("#me-name").inner_text() == "Aria"
                assert "Finesse: 5 left" in page.locator("#me-aspects").inner_text()
                assert page.locator(".creature .name", has_text="pwned").inner_text() == HOSTILE
                assert page.locator("main img").count() == 0
                _build(page)
                assert "-1: " not in page.locator("#preview").inner_text()
                page.click("#roll")
                result = page.locator("#result[data-status='approved']")
                result.wait_for(timeout=5000)
                text = result.inner_text()
                for step in ("Gate", "5d4", "Extra 1d6", "Total", "Load after", "R2", "R7", "R8"):
                    assert step in text, step
                page.locator("#requests .request.approved").wait_for(timeout=5000)
                # The change reached the TV page without a reload, and its roll feed has it.
                tv.locator(f"body:not([data-seq='{seq}'])").wait_for(timeout=5000)
                tv.locator("section.feed li.roll .actor", has_text="Aria").wait_for(timeout=5000)
                assert [s for s in SECRETS if s in tv.content()] == []
                assert "Load 0" in page.locator("#me-state").inner_text()
                content = page.content()
                assert [s for s in SECRETS if s in content] == []
                assert page.evaluate("window.pwned === undefined")
                page.select_option("#aspect", "a:Might")
                page.fill("#cost", "9")
                page.locator("#preview .pool.no", has_text="Refused (R2)").wait_for(timeout=5000)
                assert page.locator("#roll").is_disabled()  # nothing to roll while refused
                page.fill("#cost", "1")
                page.locator("#preview .pool.ok").wait_for(timeout=5000)
                assert page.locator("#roll").is_enabled()
                _build(page)
                _shoot(page, tmp_path)
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()


def test_a_seat_enters_real_dice_checked_in_the_page_and_on_the_server(tmp_path: Path):
    sync_playwright = _playwright()
    table = Table(tmp_path, "auto")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = table.seat_page(browser)
                _build(page)
                page.click("#enter")
                fields = page.locator(".faces input")
                fields.nth(5).wait_for(timeout=5000)
                assert fields.count() == 6 and fields.nth(5).get_attribute("max") == "6"
                for n, face in enumerate([4, 3, 2, 1, 4, 9]):
                    fields.nth(n).fill(str(face))
                page.click("#send")
                # The box shows before its words are in: wait for the words themselves, with a
                # locator (a polled script would be refused by the page's own CSP: no eval).
                page.locator("#error", has_text="die 6: enter a face").wait_for(timeout=10000)
                error = page.locator("#error")
                assert "die 6: enter a face from 1 to 6" in error.inner_text()
                assert page.locator("#requests .request").count() == 0  # nothing was sent
                # A preview answered after the refusal (one asked before Send, late on a
                # busy network; here asked anew) leaves the refusal up.
                page.evaluate("askPreview()")
                assert "die 6: enter a face from 1 to 6" in error.inner_text()
                for n, face in enumerate([4, 3, 2, 1, 4]):
                    fields.nth(n).fill(str(face))
                fields.nth(5).fill("6")
                page.click("#send")
                result = page.locator("#result[data-status='approved']")
                result.wait_for(timeout=5000)
                text = result.inner_text()
                assert "entered 4 + 3 + 2 + 1 + 4 = 14" in text and "entered 6" in text
                assert "20" in page.locator("#result h2").inner_text()
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()


def test_in_approve_mode_the_page_shows_the_gms_approval_denial_and_undo(tmp_path: Path):
    sync_playwright = _playwright()
    table = Table(tmp_path, "approve")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = table.seat_page(browser)
                _build(page)
                page.click("#roll")
                page.locator("#result[data-status='pending']").wait_for(timeout=5000)
                assert "waits for the GM" in page.locator("#result").inner_text()
                gm(tmp_path, "approve", "1", "--seed", "7")
                result = page.locator("#result[data-status='approved']")
                result.wait_for(timeout=5000)
                assert "Total" in result.inner_text()
                page.select_option("#aspect", "a:Wits")
                page.locator("#preview .pool.ok").wait_for(timeout=5000)
                page.click("#roll")
                page.locator("#result[data-status='pending'][data-number='2']").wait_for(
                    timeout=5000
                )
                gm(tmp_path, "deny", "2", "--reason", "not while the bridge burns")
                denied = page.locator("#result[data-status='denied']")
                denied.wait_for(timeout=5000)
                assert "not while the bridge burns" in denied.inner_text()
                ok("undo")
                page.locator("#requests .request.undone[data-number='1']").wait_for(timeout=5000)
                assert "taken back" in page.locator("#requests .request.undone").inner_text()
                assert table.refused == []
            finally:
                browser.close()
    finally:
        table.stop()
