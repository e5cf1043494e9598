"""The players' page in a real browser: Debian's Chromium, driven by Playwright, headless.

It starts ``d4cli serve`` on a free port, opens the page, checks the rendered text (and
that nothing hidden shows), makes a ``damage`` with the CLI and checks that the page shows
it within 2 seconds without a reload, and saves a screenshot under the test's folder
(with ``D4CLI_SCREENSHOTS=DIR`` also into DIR: how docs/screenshots/player-view.png is made).
Skips, saying why, where Chromium or Playwright is missing. Playwright never downloads
a browser here: it is pointed at /usr/bin/chromium.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _cli import ok
from _serve import SECRETS, Server, gm, hidden_skirmish

CHROMIUM = os.environ.get("D4CLI_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _browser_or_skip():  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    return sync_playwright


@pytest.mark.slow
def test_the_page_shows_the_view_and_follows_a_change_without_reload(tmp_path: Path):
    sync_playwright = _browser_or_skip()
    hidden_skirmish()
    server = Server(tmp_path)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                refused: list[str] = []  # what the Content-Security-Policy blocked, if anything
                page.on(
                    "console",
                    lambda m: refused.append(m.text) if "Content Security" in m.text else None,
                )
                page.goto(f"http://{server.host}:{server.port}/", wait_until="load")
                # The stream is open (locators only: the page's policy forbids eval, which
                # Playwright's string predicates use).
                page.locator("body[data-seq]").wait_for(state="attached", timeout=5000)
                text = page.inner_text("body")
                assert "Round 1" in text and "Now: Aria" in text
                assert (
                    "Goblin 2" in text and "Hurt" in text and "blessed" in text and "Borin" in text
                )
                assert [secret for secret in SECRETS if secret in page.content()] == []
                assert page.locator("li.current .name").inner_text() == "Aria"
                page.evaluate("window.notReloaded = true")
                gm(tmp_path, "damage", "Goblin Archer", "9")
                # Pushed to the open page (no reload); a busy machine may take longer.
                page.locator("li.creature.down", has_text="Goblin 2").wait_for(timeout=30_000)
                assert page.evaluate("window.notReloaded") is True  # the same page: no reload
                assert refused == []
                assert page.locator("li.creature.down .hp.down .fill.p0").count() == 1
                shot = tmp_path / "player-view.png"
                page.screenshot(path=str(shot))
                assert (
                    shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                )
                keep = os.environ.get("D4CLI_SCREENSHOTS")
                if keep:
                    shutil.copy(shot, Path(keep) / "player-view.png")
            finally:
                browser.close()
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err


@pytest.mark.slow
def test_hostile_names_show_as_text_in_the_browser_on_load_and_through_the_stream(tmp_path: Path):
    sync_playwright = _browser_or_skip()
    hostile = '<img src=x onerror="window.pwned=1">'
    hidden_skirmish()
    gm(tmp_path, "alias", "Aria", hostile)
    server = Server(tmp_path)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = browser.new_page()
                page.goto(f"http://{server.host}:{server.port}/", wait_until="load")
                page.locator("body[data-seq]").wait_for(state="attached", timeout=5000)
                assert page.locator("li.current .name").inner_text() == hostile
                gm(tmp_path, "alias", "Borin", hostile.replace("pwned", "pwned2"))
                page.locator("li.creature .name", has_text="pwned2").wait_for(timeout=2000)
                assert page.locator("main img").count() == 0
                assert page.evaluate("window.pwned === undefined && window.pwned2 === undefined")
            finally:
                browser.close()
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err


@pytest.mark.slow
def test_the_page_shows_the_players_odds_and_their_move_after_a_change(tmp_path: Path):
    """``odds_shown``: the odds line comes in after the view, then moves with a change; the
    hidden Goblin Brute is left out of the odds, so its name shows nowhere."""
    sync_playwright = _browser_or_skip()
    hidden_skirmish()
    gm(tmp_path, "set", "--view", "odds_shown=true")
    server = Server(tmp_path)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = browser.new_page()
                page.goto(f"http://{server.host}:{server.port}/", wait_until="load")
                line = page.locator("p.odds", has_text="%")
                line.wait_for(timeout=10000)
                assert line.inner_text().startswith("odds: party ")
                assert "…" not in line.inner_text()
                gm(tmp_path, "damage", "Aria", "12")  # down
                gm(tmp_path, "damage", "Borin", "15")  # 1 hp left: the foes have a chance now
                page.locator("p.odds", has_text="(-").wait_for(timeout=10000)
                moved = page.locator("p.odds").inner_text()
                assert moved.startswith("odds: party ") and "foes" in moved and "(+" in moved
                assert [secret for secret in SECRETS if secret in page.content()] == []
            finally:
                browser.close()
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err


def _crowd(tmp_path: Path) -> None:
    """The skirmish and 21 rats (25 creatures), a roll each side, Rat 6's turn running."""
    ok("init", "--from", "skirmish")
    ok("add", "Rat", "--aspect", "Might=1", "--hp", "3", "--side", "foes", "--count", "21")
    ok("turn", "start")
    ok("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "3")
    for _ in range(9):
        ok("turn", "start")
    ok("act", "Rat 6", "Might", "--target", "Aria", "--seed", "2")


# The body's computed font size on each screen: clamp(16px, 0.75rem + 1.4vw, 44px).
SCREENS = {"phone": ((390, 844), 16.0, 20.0), "tv": ((1920, 1080), 36.0, 44.0)}

_CURRENT_IN_VIEW = """() => {
  const li = document.querySelector('li.creature.current');
  const box = li.getBoundingClientRect();
  return !li.hidden && box.top >= 0 && box.bottom <= window.innerHeight
    && box.height > 0 && document.documentElement.scrollWidth <= window.innerWidth;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_crowd_on_a_phone_and_a_tv_keeps_the_current_creature_in_view(
    tmp_path: Path, screen: str
):
    sync_playwright = _browser_or_skip()
    (width, height), smallest, largest = SCREENS[screen]
    _crowd(tmp_path)
    server = Server(tmp_path)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"http://{server.host}:{server.port}/", wait_until="load")
                page.locator("body[data-seq]").wait_for(state="attached", timeout=5000)
                size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
                name = page.evaluate(
                    "parseFloat(getComputedStyle(document.querySelector('.name')).fontSize)"
                )
                assert smallest <= size <= largest and name > size
                assert page.locator("li.current .name").inner_text() == "Rat 6"
                assert page.evaluate(_CURRENT_IN_VIEW)
                more = page.locator("li.more").all_inner_texts()
                assert len(more) == 2 and more[0].endswith("more above"), more
                assert more[1].endswith("more below")
                assert "Now: Rat 6" in page.inner_text("header")
                assert "Next: Rat 7" in page.inner_text("header")
                rolls = page.locator("li.roll").all_inner_texts()
                assert rolls[0].startswith("Rat 6") and rolls[1].startswith("Aria")
                for _ in range(8):  # the turn moves down the list: the window follows it
                    gm(tmp_path, "turn", "start")
                page.locator("li.current .name", has_text="Rat 14").wait_for(timeout=3000)
                assert page.evaluate(_CURRENT_IN_VIEW)
                shot = tmp_path / f"crowd-{screen}.png"
                page.screenshot(path=str(shot))
                keep = os.environ.get("D4CLI_SCREENSHOTS")
                if keep:
                    shutil.copy(shot, Path(keep) / shot.name)
            finally:
                browser.close()
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err
