"""Every SVG chart is laid out for a handbook: the title and labels break inside the chart,
numeric settings sit on a numeric axis, the balance chart shows the target and each value's
interval, and no text meets another or leaves the chart at any label length (each text's
box estimated from its font size, `tests/_svg_layout.py`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from _svg_layout import assert_laid_out, outside, overlaps, text_boxes

from d4cli.odds.grids import check_grid, compare_grid, damage_grid, pool_grid
from d4cli.output.render.balance_text import balance_svg
from d4cli.output.render.heatmap import grid_svg
from d4cli.output.render.mapsvg import map_svg
from d4cli.output.render.svg import Series, bar_chart, recap_svg, simulate_svg
from d4cli.output.serialize.balance_json import balance_json
from d4cli.sim.balance_search import Balance, Point, Vary, search

NS = "{http://www.w3.org/2000/svg}"
LENGTHS = [1, 12, 60, 240]


def words(length: int, stem: str = "Goblin") -> str:
    """A label of about *length* letters, made of words (as names and titles are)."""
    text = " ".join([stem] * (length // (len(stem) + 1) + 1))
    return text[:length].strip() or stem[:1]


@pytest.mark.parametrize("length", LENGTHS)
def test_a_bar_chart_keeps_every_text_apart_at_any_length(length):
    svg = bar_chart(
        words(length, "Ambush"),
        words(length, "rounds"),
        words(length, "share"),
        [words(length, "draw"), "2", "3", words(length // 2 + 1, "after")],
        [
            Series(
                words(length, "turn"), [1.0, 99.5, 50.25, None], ["1.0%", "99.5%", "50.25%", ""]
            ),
            Series(
                words(length, "round"), [100.0, 0.5, 3.0, 7.0], ["100.0%", "0.5%", "3.0%", "7.0%"]
            ),
            Series("round-zero", [12.0, 12.0, 12.0, 12.0], ["12.00%"] * 4),
        ],
    )
    assert_laid_out(svg)


def test_the_title_breaks_into_lines_inside_the_chart():
    title = words(400, "Ambush")
    svg = bar_chart(title, "round", "hp", ["1"], [Series("party", [3], ["3"])])
    root = ET.fromstring(svg)
    lines = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "title"]
    assert len(lines) > 1 and " ".join(lines) == title
    assert_laid_out(svg)


def simulate_report(name: str) -> dict:
    mode = {
        "mode": "turn",
        "runs": 200,
        "rounds": {"histogram": {"1": 20, "2": 150, "3": 28}, "finished": 198},
        "draws": {"draws": 2},
    }
    return {
        "encounter": name,
        "runs": 200,
        "seed": 1,
        "max_rounds": 100,
        "sides": ["party", "goblins"],
        "modes": [mode, {**mode, "mode": "round"}, {**mode, "mode": "round-zero"}],
    }


@pytest.mark.parametrize("length", LENGTHS)
def test_simulate_and_recap_charts_at_any_name_length(length):
    assert_laid_out(simulate_svg(simulate_report(words(length, "Ambush"))))
    recap = {
        "encounter": words(length, "Raid"),
        "from_seq": 1,
        "to_seq": 9,
        "rounds": 3,
        "winner": None,
        "sides": [words(length, "party"), "goblins"],
        "damage_per_round": [
            {"round": n, "sides": {words(length, "party"): 3 * n, "goblins": 4}} for n in (1, 2, 3)
        ],
    }
    assert_laid_out(recap_svg(recap))


def balance_report(name: str = "Mill", creature: str = "Ogre", values=(5, 9, 11, 12, 13, 22, 40)):
    def chance(value: int) -> Point:
        return Point(value, max(0, 400 - 9 * value), 400)

    found = search(chance, min(values), max(values), 0.6)
    obj = balance_json(Balance(name, "turn", "party", Vary(creature, "hp", 5, 40), 400, 7, found))
    obj["curve"] = [  # the values of the example, whatever the search played
        {
            "value": v,
            "wins": chance(v).wins,
            "runs": 400,
            "rate": chance(v).rate,
            "low": chance(v).interval[0],
            "high": chance(v).interval[1],
        }
        for v in values
    ]
    return obj


def test_the_balance_chart_spaces_the_values_by_value_with_intervals_and_the_target():
    svg = balance_svg(balance_report())
    root = ET.fromstring(svg)
    points = {
        int(c.get("data-value")): float(c.get("cx"))
        for c in root.iter(f"{NS}circle")
        if "point" in (c.get("class") or "")
    }
    assert sorted(points) == [5, 9, 11, 12, 13, 22, 40]
    per_hp = (points[40] - points[5]) / 35
    for a, b in [(5, 9), (9, 11), (11, 12), (22, 40)]:
        assert points[b] - points[a] == pytest.approx(per_hp * (b - a), abs=0.2)
    intervals = [line for line in root.iter(f"{NS}line") if line.get("class") == "interval"]
    assert len(intervals) == 7
    for line in intervals:  # each whisker spans its point
        assert float(line.get("y1")) >= float(line.get("y2"))
    target = [line for line in root.iter(f"{NS}line") if line.get("class") == "target"]
    assert len(target) == 1
    labels = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "target-label"]
    assert labels == ["target 60%"]
    ticks = [int(t.text) for t in root.iter(f"{NS}text") if t.get("class") == "x-tick-label"]
    assert ticks == sorted(ticks) and ticks[0] >= 5 and ticks[-1] <= 40
    assert_laid_out(svg)


@pytest.mark.parametrize("length", LENGTHS)
def test_the_balance_chart_at_any_name_length(length):
    svg = balance_svg(balance_report(words(length, "Mill"), words(length, "Ogre")))
    assert_laid_out(svg)


def test_two_values_a_million_apart_keep_their_tick_labels_apart():
    svg = balance_svg(balance_report(values=(1, 1_000_000)))
    assert overlaps(svg) == []


@pytest.mark.parametrize(
    "grid",
    [
        pool_grid((4, 6, 8), aspects=(1, 2, 3), load=2, net_advantage=-1),
        damage_grid((0, 2, 4, 6), pool_sizes=(1, 2, 3), net_advantage=1),
        damage_grid(
            range(0, 13, 2), pool_sizes=range(1, 11)
        ),  # "Evasion 10" once met its neighbours
        check_grid((6, 12, 18), advantage_levels=(0, 1), disadvantages=(0, 2)),
        compare_grid((6, 8, 10), aspects=(2, 3), modifiers=(0, 3), advantage_level=1),
    ],
    ids=["pool", "damage", "damage-wide", "check", "compare"],
)
def test_the_odds_heat_maps_keep_every_text_apart(grid):
    svg = grid_svg(grid)
    assert_laid_out(svg)
    boxes, _ = text_boxes(svg)
    assert boxes


def test_the_balance_map_keeps_every_text_apart_with_long_names():
    keys = [words(50, "Goblin") + ":hp", words(40, "party") + ":load_buffer"]
    cells = [
        {
            "settings": {keys[0]: hp, keys[1]: buffer},
            "mode": "turn",
            "wins": {"party": {"wins": 10, "rate": 0.5, "low": 0.41, "high": 0.59}},
        }
        for hp in (8, 9)
        for buffer in (0, 1, 2)
    ]
    report = {
        "encounter": words(200, "Ambush"),
        "runs": 20,
        "seed": 1,
        "max_rounds": 100,
        "sides": ["party", "goblins"],
        "sweeps": [
            {"key": keys[0], "values": [8, 9], "asked": 20},
            {"key": keys[1], "values": [0, 1, 2]},
        ],
        "cells": cells,
    }
    assert_laid_out(map_svg(report))


def test_the_layout_check_sees_two_texts_that_meet():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" font-size="12">'
        '<text x="10" y="20">Evasion 10</text><text x="40" y="20">Evasion 12</text>'
        '<text x="90" y="38">outside</text></svg>'
    )
    assert overlaps(svg) == [("Evasion 10", "Evasion 12")]
    assert outside(svg) == ["Evasion 12", "outside"]
