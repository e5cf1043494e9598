"""A seat's page in a real browser across ``next`` (Debian's Chromium, Playwright, headless):
the page open on fight 1 moves on by itself to fight 2 and names it, while ``serve`` keeps
running; the page of a seat whose creature did not carry says it ended. Skips, saying why,
where Chromium or Playwright is missing; never downloads a browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _cli import ok
from _serve import SECRETS, Server, gm, hidden_skirmish

from d4cli.api.front_ends import Seats

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("D4CLI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


def test_the_open_page_moves_to_the_next_fight_and_a_seat_left_behind_ends(tmp_path: Path):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    hidden_skirmish()
    ok("turn", "end")
    seats = Seats("encounter.toml")
    aria, brute = seats.add("Aria").token, seats.add("Goblin Brute").token
    server = Server(tmp_path)
    origin = f"http://{server.host}:{server.port}"
    try:
        with sync_playwright() as play:
            browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{origin}/seat/{aria}", wait_until="load")
            page.locator("body[data-loaded]").wait_for(state="attached", timeout=5000)
            gm(tmp_path, "next", "--keep", "party", "--name", "The bridge")
            head = page.locator("#table-head", has_text="Fight 2: The bridge")
            head.wait_for(timeout=10_000)
            assert [s for s in SECRETS if s in page.content()] == []
            gm(tmp_path, "next", "--keep", "party")  # no name: "Fight 3" already, said once
            page.locator("#table-head", has_text="Fight 3 · The table").wait_for(timeout=10_000)
            assert "Fight 3: Fight 3" not in page.locator("#table-head").inner_text()
            left = browser.new_page()
            left.goto(f"{origin}/seat/{brute}", wait_until="load")
            left.locator("#error", has_text="This seat has ended").wait_for(timeout=5000)
            browser.close()
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err
