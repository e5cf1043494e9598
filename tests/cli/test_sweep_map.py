"""``simulate --sweep`` over a creature's or a side's setting, and over two at once: the
balance map (table, JSON, Markdown, CSV, SVG), common random numbers across its cells, and
bad input refused with nothing played and nothing written."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from _cli import fails, files, ok, ok_json
from _svg_layout import assert_laid_out
from _width import at_width

from d4cli.api.encounter import Tracker
from d4cli.api.simulation import simulate

MAP = ("--sweep", "Goblin Chief:hp=8..10", "--sweep", "party:load_buffer=0..1")
FAST = ("--runs", "200", "--seed", "1", "--modes", "turn", "--jobs", "1")


@pytest.fixture
def ambush(isolated_env):
    ok("init", "--from", "ambush")
    return isolated_env / "encounter.toml"


def test_two_sweeps_give_a_cell_per_pair_with_intervals(ambush):
    before = files(ambush)
    report = ok_json("simulate", *MAP, *FAST)
    assert files(ambush) == before
    assert report["sweeps"] == [
        {"key": "Goblin Chief:hp", "values": [8, 9, 10]},
        {"key": "party:load_buffer", "values": [0, 1]},
    ]
    assert "rows" not in report and len(report["cells"]) == 6
    settings = [cell["settings"] for cell in report["cells"]]
    assert settings[:2] == [
        {"Goblin Chief:hp": 8, "party:load_buffer": 0},
        {"Goblin Chief:hp": 8, "party:load_buffer": 1},
    ]
    for cell in report["cells"]:
        party = cell["wins"]["party"]
        assert cell["mode"] == "turn" and cell["runs"] == 200
        assert party["low"] <= party["rate"] <= party["high"]
    # a larger Load Buffer for the whole party helps it at every hp of the Chief
    by = {tuple(c["settings"].values()): c["wins"]["party"]["rate"] for c in report["cells"]}
    assert all(by[(hp, 1)] > by[(hp, 0)] for hp in (8, 9, 10))


def test_every_cell_plays_the_seeds_a_plain_run_at_its_settings_plays(ambush):
    """Common random numbers: a cell is the simulation of the file set to its settings."""
    report = ok_json("simulate", *MAP, *FAST)
    cell = next(c for c in report["cells"] if c["settings"]["Goblin Chief:hp"] == 9)
    assert cell["settings"]["party:load_buffer"] == 0
    ok("set", "Goblin Chief", "hp=9", "max_hp=9")
    for name in ("Aria", "Borin"):
        ok("set", name, "load_buffer=0")
    alone = ok_json("simulate", *FAST)["modes"][0]
    assert alone["wins"] == cell["wins"] and alone["draws"] == cell["draws"]


def test_the_library_plays_the_same_map(ambush):
    found = simulate(
        Tracker(ambush),
        runs=200,
        seed=1,
        modes=["turn"],
        sweep=["Goblin Chief:hp=8..10", "party:load_buffer=0..1"],
        jobs=1,
    )
    assert [grid.key for grid in found.sweeps] == ["Goblin Chief:hp", "party:load_buffer"]
    report = ok_json("simulate", *MAP, *FAST)
    cell = report["cells"][3]
    assert found.wins("turn", 9, 1) == {side: cell["wins"][side]["wins"] for side in found.sides}


def test_a_hurt_creatures_hp_is_swept_up_to_its_max_hp_and_said(ambush):
    ok("damage", "Goblin Chief", "1")
    report = ok_json("simulate", "--sweep", "Goblin Chief:hp=14..20", *FAST)
    assert report["sweeps"] == [{"key": "Goblin Chief:hp", "values": [14, 15, 16], "asked": 20}]
    assert [row["value"] for row in report["rows"]] == [14, 15, 16]


def test_markdown_csv_and_table_show_the_map(ambush, monkeypatch):
    markdown = ok("simulate", *MAP, *FAST, "--format", "markdown", "--map-side", "party").stdout
    assert "turn mode: party's chance to win by Goblin Chief:hp (rows)" in markdown
    assert "| Goblin Chief:hp \\\\ party:load\\_buffer | 0 | 1 |" in markdown
    lines = ok("simulate", *MAP, *FAST, "--format", "csv").stdout.splitlines()
    assert lines[1].split(",")[4:8] == [
        "Goblin Chief:hp;party:load_buffer",
        "8;0",
        "turn",
        "win_rate",
    ]


@pytest.mark.parametrize("width", [80, 120])
def test_human_output(ambush, monkeypatch, snapshot, width):
    at_width(monkeypatch, width)
    assert ok("simulate", *MAP, *FAST, "--map-side", "party").stdout == snapshot


def test_svg_is_a_heat_map_whose_text_never_overlaps(ambush, tmp_path):
    target = tmp_path / "map.svg"
    out = ok("simulate", *MAP, *FAST, "--format", "svg", "--out", str(target))
    assert out.stdout == ""
    svg = target.read_text()
    root = ET.fromstring(svg.encode())
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    assert len(cells) == 6
    assert_laid_out(svg)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("--sweep", "Goblin Chief:hp=8..9", "--sweep", "party:load_buffer=0..1")
            + ("--sweep", "Aria:evasion=1..2"),
            "--sweep: 'Aria:evasion=1..2': at most 2 sweeps",
        ),
        (("--sweep", "Goblin Chief:hp=8.2..8.8"), "holds no whole number"),
        (("--sweep", "Goblin Chief:speed=1..3"), "unknown key"),
        (("--sweep", "Nobody:hp=1..3"), "nor a side"),
        (("--sweep", "Goblin Chief:count=0..2"), "a count must be within 1..100"),
        (("--sweep", "Goblin Chief:hp=8..9", "--sweep", "goblin chief:hp=1..2"), "already swept"),
        (
            ("--sweep", "Goblin Chief:hp=1..40", "--sweep", "party:load_buffer=0..2")
            + ("--runs", "200000"),
            "--sweep: 'Goblin Chief:hp=1..40 party:load_buffer=0..2': 40 x 3 settings x 3 modes"
            " = 360 cells of 200,000 runs is 72,000,000 fights, past the cap of 10,000,000;"
            " give --runs at most 27,777 or fewer settings",
        ),
        (
            ("--sweep", "Goblin Chief:hp=8..9", "--out", "nowhere/map.svg"),
            "--out: 'nowhere/map.svg'",
        ),
        (("--sweep", "Goblin Chief:hp=8..9", "--out", "."), "is a folder"),
        (("--map-side", "party"), "--map-side: 'party'"),
        (("--sweep", "Goblin Chief:hp=8..9", "--map-side", "orcs"), "no such side"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(ambush, args, said):
    runs = () if "--runs" in args else ("--runs", "20")
    line = fails(2, ambush, "simulate", *args, *runs, "--seed", "1")
    assert said in line, line


def test_a_long_sweep_says_how_long_it_will_take_first(ambush, monkeypatch):
    from d4cli.cli.commands import simulate as command

    monkeypatch.setattr(command, "LONG_SECONDS", 0.0)  # every sweep is long
    out = ok("simulate", *MAP, *FAST, "--json")
    assert out.stderr.startswith("d4cli: simulate plays 1,200 fights: about ")
    assert out.stderr.endswith(" s (Ctrl-C stops it)\n") and out.stderr.count("\n") == 1
