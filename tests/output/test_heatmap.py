"""``odds ... --format svg``: the grid as a heat map, one standalone SVG document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from _cli import fails, ok, ok_json

from d4cli.output.render.heatmap import shade

SVG = "{http://www.w3.org/2000/svg}"


def _cells(text: str) -> list[tuple[str, str]]:
    root = ET.fromstring(text)
    rects = root.findall(f"{SVG}rect")
    return [(rect.get("fill") or "", rect.find(f"{SVG}title").text or "") for rect in rects]


def test_the_heat_map_holds_every_cell_as_the_table_shows_it(isolated_env):
    text = ok("odds", "pool", "--aspect", "1..4", "--dc", "4..10/2", "--format", "svg").stdout
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    cells = _cells(text)
    assert len(cells) == 4 * 4
    grid = ok_json("odds", "pool", "--aspect", "1..4", "--dc", "4..10/2")
    values = [value for row in grid["rows"] for value in row["values"]]
    assert [shade(value) for value in values] == [fill for fill, _ in cells]
    # 1d4 against DC 4: one face in four; against DC 6 and more, none.
    assert cells[0] == (shade(0.25), "25.0%") and cells[1] == ("#ffffff", "0.0%")
    assert shade(1.0) == "#2166ac" and shade(0.0) == "#ffffff"
    assert "Aspect (pool)" in text and "DC 10" in text and "Load 0, Net Advantage 0" in text


def test_expected_damage_is_shaded_against_the_grids_largest(isolated_env):
    text = ok("odds", "damage", "--pool", "1..3", "--evasion", "0..4/2", "--format", "svg").stdout
    cells = _cells(text)
    assert len(cells) == 9
    assert cells[6][0] == shade(1.0)  # 3d4 against Evasion 0: the largest expected damage
    assert cells[6][1] == "7.50"


def test_the_same_grid_gives_the_same_bytes_and_svg_is_not_json(isolated_env):
    args = ("odds", "check", "--advantage", "0..2", "--dc", "easy,medium", "--format", "svg")
    assert ok(*args).stdout == ok(*args).stdout
    assert "--json and --format svg ask for two formats" in fails(
        2, isolated_env / "none.toml", *args, "--json"
    )
