"""``balance``'s output made from its JSON object: the curve as SVG, pinned, and the lines it prints."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from d4cli.output.render.balance_text import balance_svg, curve_lines, summary_lines
from d4cli.output.serialize.balance_json import balance_json
from d4cli.sim.balance_search import Balance, Point, Vary, search

NS = "{http://www.w3.org/2000/svg}"


def falling(value: int) -> Point:
    return Point(value, max(0, 400 - 20 * value), 400)


def report(target: float = 0.6, low: int = 2, high: int = 12) -> dict:
    found = search(falling, low, high, target)
    return balance_json(
        Balance("Mill & <Keep>", "turn", "party", Vary("Ogre", "hp", low, high), 400, 7, found)
    )


def test_the_json_of_a_search_on_plain_data():
    obj = report()
    assert obj["value"] == 8 and obj["wins"]["rate"] == 0.6 and obj["reached"]
    assert obj["below"]["value"] == 7 and obj["above"]["value"] == 9
    assert [p["value"] for p in obj["curve"]] == [2, 7, 8, 9, 12]  # ends, then 7, 9, 8


def test_the_lines_say_the_value_its_neighbours_and_the_curve():
    obj = report()
    assert summary_lines(obj) == [
        "hp = 8: party wins 60% (55-65)",
        "  hp = 7: 65% (60-70)",
        "  hp = 9: 55% (50-60)",
    ]
    curve = curve_lines(obj, 80)
    assert curve[2] == "   8 " + "#" * 30 + "|" + " " * 19 + " 60% (55-65) <"
    assert curve[-1] == "  12 " + "#" * 20 + " " * 10 + "|" + " " * 19 + " 40% (35-45)"
    assert len(curve_lines(obj, 120)[0]) > len(curve[0])


def test_an_unreached_target_names_the_nearest():
    obj = report(target=0.95)
    assert summary_lines(obj)[0] == (
        "no hp in 2..12 gets party to 95%; the nearest is hp = 2: party wins 90% (87-93)"
    )


def test_the_svg_has_a_bar_per_value_played_and_escapes_the_names(snapshot):
    text = balance_svg(report())
    root = ET.fromstring(text)
    bars = root.findall(f".//{NS}rect[@class='bar']")
    assert [bar.get("data-category") for bar in bars] == ["2", "7", "8", "9", "12"]
    assert "Mill &amp; &lt;Keep&gt;" in text
    assert text == snapshot
