"""``handbook --format html``: the handbook as one HTML document with print CSS, the same
tables and figures as the Markdown, that a browser prints to PDF as a chapter."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _cli import fails, ok

CHROMIUM = os.environ.get("D4CLI_CHROMIUM", "/usr/bin/chromium")
ARGS = ("--from", "duel", "--runs", "100", "--seed", "3")


class Parts(HTMLParser):
    """The tags, the headings' text and the table cells of a document."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self.cells: list[str] = []
        self.style = ""
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append(tag)
        self._open = tag if tag in ("h1", "h2", "h3", "td", "th", "style") else None
        if self._open in ("h1", "h2", "h3"):
            self.headings.append((tag, ""))
        if self._open in ("td", "th"):
            self.cells.append("")

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        self._open = None

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self._open in ("h1", "h2", "h3"):
            tag, text = self.headings[-1]
            self.headings[-1] = (tag, text + data)
        elif self._open in ("td", "th"):
            self.cells[-1] += data
        elif self._open == "style":
            self.style += data


@pytest.fixture(scope="module")
def handbook(tmp_path_factory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("handbook")
    html, markdown = folder / "handbook.html", folder / "handbook.md"
    assert ok("handbook", *ARGS, "--format", "html", "--out", str(html)).stdout.startswith(
        f"Wrote {html}: "
    )
    ok("handbook", *ARGS, "--out", str(markdown))
    return html.read_text(encoding="utf-8"), markdown.read_text(encoding="utf-8")


def test_the_html_is_a_whole_document_with_print_css(handbook):
    html, _ = handbook
    assert html.startswith('<!DOCTYPE html>\n<html lang="en">')
    parts = Parts()
    parts.feed(html)
    assert parts.headings[0] == ("h1", "d4cli: the designer's handbook")
    sections = [text for tag, text in parts.headings if tag == "h2"]
    assert sections == [
        "The rules",
        "A roll, step by step",
        "The odds",
        "The reset modes compared",
    ]
    assert "@page { size: A4;" in parts.style and "@media print" in parts.style
    assert "h2 {" in parts.style and "break-before: page" in parts.style
    assert "thead { display: table-header-group; }" in parts.style


def test_the_html_holds_the_markdowns_tables_and_figures(handbook):
    html, markdown = handbook
    parts = Parts()
    parts.feed(html)
    assert parts.tags.count("table") == markdown.count("\n|:---") + markdown.count("\n|---")
    assert ("h3", "R1 Turn reset") in parts.headings
    # the pool grid: 1d4 against DC 4 is one face in four; 6 Aspect (6d4) against DC 20
    assert "25.0%" in parts.cells and "6 (6d4)" in parts.cells
    assert "Playtest duel: 100 runs per mode, seed 3, draw after 100 rounds" in html


def test_html_goes_to_stdout_without_out_and_an_unknown_format_is_refused(isolated_env):
    assert ok("handbook", *ARGS, "--format", "html").stdout.startswith("<!DOCTYPE html>")
    line = fails(2, isolated_env / "x", "handbook", "--format", "pdf")
    assert line == "d4cli: error: --format: 'pdf': must be markdown or html"


@pytest.mark.slow  # a real browser prints the chapter to PDF
def test_a_browser_prints_the_chapter_to_pdf_with_each_section_on_its_own_page(handbook, tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed")
    html, _ = handbook
    page_file = tmp_path / "handbook.html"
    page_file.write_text(html, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.goto(page_file.as_uri())
        page.emulate_media(media="print")
        breaks = page.eval_on_selector_all(
            "h2", "hs => hs.map(h => getComputedStyle(h).breakBefore)"
        )
        pdf = page.pdf(format="A4")
        browser.close()
    assert breaks == ["page"] * 4
    assert pdf.startswith(b"%PDF-")
    pages = pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page>") + pdf.count(b"/Type /Page/")
    assert pages >= 5  # the title and rules, then each section on a page of its own
