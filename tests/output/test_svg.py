"""The SVG charts of ``recap --format svg`` and ``simulate --format svg``: the writer itself, pinned."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from d4cli.output.render.svg import Series, bar_chart, nice_step, recap_svg

NS = "{http://www.w3.org/2000/svg}"


def small_chart() -> str:
    return bar_chart(
        'Raid <on> the "Keep" & co',
        "round",
        "hp taken off",
        ["1", "2"],
        [Series("party & friends", [2, 5], ["2", "5"]), Series("<foes>", [1, None], ["1", ""])],
    )


def test_a_small_chart_is_pinned_byte_for_byte(snapshot):
    assert small_chart() == small_chart()
    assert small_chart() == snapshot


def test_every_name_is_escaped_and_the_document_parses():
    text = small_chart()
    assert "<foes>" not in text and "&lt;foes&gt;" in text and "party &amp; friends" in text
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    bars = root.findall(f".//{NS}rect[@class='bar']")
    assert [(bar.get("data-series"), bar.get("data-category")) for bar in bars] == [
        ("party & friends", "1"),
        ("<foes>", "1"),
        ("party & friends", "2"),
    ]  # None: no bar
    assert [t.text for t in root.iter(f"{NS}text") if t.get("class") == "value"] == ["2", "1", "5"]
    assert [t.text for t in root.iter(f"{NS}text") if t.get("class") == "title"] == [
        'Raid <on> the "Keep" & co'
    ]
    assert [t.text for t in root.iter(f"{NS}text") if t.get("class") == "axis-label"] == [
        "hp taken off",
        "round",
    ]
    assert [
        g.find(f"{NS}text").text for g in root.iter(f"{NS}g") if g.get("class") == "legend"
    ] == ["party & friends", "<foes>"]


def test_bars_are_scaled_to_the_axis():
    root = ET.fromstring(small_chart())
    heights = [float(bar.get("height")) for bar in root.findall(f".//{NS}rect[@class='bar']")]
    assert heights == [88, 44, 220]  # 2, 1, 5 of an axis up to 5 on 220 px
    ticks = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "tick"]
    assert ticks == ["0", "1", "2", "3", "4", "5"]
    assert [nice_step(peak) for peak in (0, 5, 9, 41.5, 1000)] == [1.0, 1.0, 2.0, 10.0, 200.0]


def test_a_recap_without_rounds_is_still_a_chart():
    report = {
        "encounter": "E",
        "from_seq": 1,
        "to_seq": 2,
        "rounds": 0,
        "winner": None,
        "sides": ["a"],
        "damage_per_round": [],
    }
    root = ET.fromstring(recap_svg(report))
    assert root.findall(f".//{NS}rect[@class='bar']") == []
