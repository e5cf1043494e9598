"""The charts as a browser draws them: the boxes Chromium measures for each text (its own
fonts, ``getBBox``) never meet and stay inside the chart, as the layout estimated them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_chart_layout import balance_report, simulate_report, words

from d4cli.odds.grids import damage_grid
from d4cli.output.render.balance_text import balance_svg
from d4cli.output.render.heatmap import grid_svg
from d4cli.output.render.svg import Series, bar_chart, simulate_svg

CHROMIUM = os.environ.get("D4CLI_CHROMIUM", "/usr/bin/chromium")
MEASURE = """() => {
  const svg = document.querySelector('svg');
  const view = svg.viewBox.baseVal;
  const boxes = [...svg.querySelectorAll('text')].map(t => {
    const b = t.getBBox(), m = t.getCTM(), s = svg.getCTM().inverse().multiply(m);
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]].map(([x, y]) =>
      [s.a * x + s.c * y + s.e, s.b * x + s.d * y + s.f]);
    const xs = corners.map(c => c[0]), ys = corners.map(c => c[1]);
    return [t.textContent, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  });
  return {view: [view.x, view.y, view.width, view.height], boxes};
}"""


def charts() -> dict[str, str]:
    return {
        "bars": bar_chart(
            words(150, "Ambush"),
            "rounds",
            words(60, "share"),
            ["1", "2", "draw (after 100 rounds)"],
            [
                Series("turn", [1.0, 99.5, 50.25], ["1.0%", "99.5%", "50.25%"]),
                Series("round-zero", [100.0, 0.5, 3.0], ["100.0%", "0.5%", "3.0%"]),
            ],
        ),
        "simulate": simulate_svg(simulate_report(words(120, "Ambush"))),
        "balance": balance_svg(balance_report(words(80, "Mill"), words(30, "Ogre"))),
        "damage": grid_svg(damage_grid(range(0, 13, 2), pool_sizes=range(1, 11))),
    }


@pytest.mark.slow  # a real browser measures every text
def test_the_browsers_text_boxes_never_meet_and_stay_inside():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed")
    measured = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        for name, svg in charts().items():
            page.set_content(svg)
            measured[name] = page.evaluate(MEASURE)
        browser.close()
    for name, found in measured.items():
        vx, vy, vw, vh = found["view"]
        boxes = [box for box in found["boxes"] if box[0].strip()]
        assert boxes, name
        for text, left, top, right, bottom in boxes:
            assert left >= vx - 0.5 and right <= vx + vw + 0.5, (name, text)
            assert top >= vy - 0.5 and bottom <= vy + vh + 0.5, (name, text)
        met = [
            (a[0], b[0])
            for n, a in enumerate(boxes)
            for b in boxes[n + 1 :]
            if a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5 and a[2] < b[4] - 0.5 and b[2] < a[4] - 0.5
        ]
        assert met == [], name
