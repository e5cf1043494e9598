"""Tables on a terminal of 80 and 120 columns: every line fits, nothing is wrapped away from its
label. Rendered as Rich renders for a terminal of that width (no colour), pinned by snapshots."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from _cli import ok

WIDTHS = [80, 120]


@pytest.fixture
def terminal(monkeypatch):
    """``render(function, width)``: what *function* prints on a terminal *width* columns wide."""
    import d4cli.output.render as render

    def run(function, width: int) -> str:
        screen = io.StringIO()
        console_class = render.PipeConsole

        def fixed(*, stderr: bool = False):
            return console_class(
                file=screen,
                width=width,
                height=50,
                no_color=True,
                color_system=None,
                force_terminal=False,
                highlight=False,
                emoji=False,
            )

        monkeypatch.setattr(render, "console", fixed)
        function()
        return screen.getvalue()

    return run


def _fight(tmp_path: Path):
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    ok("effect", "add", "Borin", "shaken", "--dis", "--rounds", "2")
    ok("effect", "add", "Goblin Brute", "prone", "--adv", "--against", "--uses", "1")
    ok("add", "Goblin", "--count", "2", "--like", "Goblin Archer")
    ok("damage", "Goblin 2", "9")
    from d4cli.store import read_encounter

    return read_encounter(tmp_path / "encounter.toml")


@pytest.mark.parametrize("width", WIDTHS)
def test_status_is_one_row_per_creature_that_fits(tmp_path, terminal, snapshot, width):
    from d4cli.output.render.status_tables import print_status

    encounter = _fight(tmp_path)
    text = terminal(lambda: print_status(encounter), width)
    lines = text.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= width
    assert (
        len(lines) <= len(encounter.creatures) * 2 + 8
    )  # a row per creature (a long cell may take two)
    for creature in encounter.creatures:
        row = next(line for line in lines if f" {creature.name} " in line)
        assert str(creature.load) in row and (f"{creature.hp}/{creature.max_hp}" in row)
    assert "-shaken 2r" in text and "+prone vs it" in text and "0/7 down" in text
    assert text == snapshot


def test_a_wide_terminal_keeps_the_full_table(tmp_path, terminal):
    from d4cli.output.render.status_tables import print_status

    encounter = _fight(tmp_path)
    piped = ok("status").stdout  # a pipe is never wrapped: the full table
    assert "Buffer" in piped and "Cost 1: headroom" not in piped
    wide = terminal(lambda: print_status(encounter), 240)
    assert "Buffer" in wide and "Evasion" in wide and "shaken -1d4, 2 rounds left" in wide


def _cells(text: str) -> list[list[str]]:
    """The rows of every box table in *text*, each cell's lines joined: what a reader pairs up."""
    rows: list[list[str]] = []
    current: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("│"):
            parts = [part.strip() for part in line.strip().strip("│").split("│")]
            current.append(parts)
        elif current:
            rows.append([" ".join(piece for piece in column if piece) for column in zip(*current)])
            current = []
    return rows


@pytest.mark.parametrize("width", WIDTHS)
def test_a_sweep_pairs_every_label_with_its_own_values(
    tmp_path, terminal, width, monkeypatch, snapshot
):
    import json

    import d4cli.output.render as render
    import d4cli.output.render.simulate_text as simulate
    from d4cli.output.figuretext import sweep_columns

    report = json.loads(
        ok(
            "simulate",
            "--from",
            "skirmish",
            "--runs",
            "40",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--sweep",
            "reserve=0..2",
            "--json",
        ).stdout
    )
    monkeypatch.setattr(
        simulate, "console", lambda stderr=False: render.console()
    )  # the terminal's, as patched
    text = terminal(lambda: simulate.print_sweep(report), width)
    assert max(len(line) for line in text.splitlines()) <= width
    grid = [(row["value"], row["modes"]) for row in report["rows"]]
    # A terminal too narrow for the whole table (131 columns here) takes the short labels.
    sides = tuple(report["sides"])
    whole = [[figure, *cells] for _, figure, cells in sweep_columns(grid, sides)]
    settings = [f"reserve={value}" for value, _ in grid]
    assert simulate.natural_width(whole[:-2], settings) > 120
    expected = {
        (mode, figure): cells for mode, figure, cells in sweep_columns(grid, sides, short=True)
    }
    rendered = _cells(text)
    seen = 0
    titles = [
        line.strip() for line in text.splitlines() if line.strip().endswith(("mode", "settings"))
    ]
    assert titles and titles[0].startswith("turn mode")
    for row in rendered:
        label, values = row[0], row[1:]
        if label == "figure (95% interval)" or not values:
            continue
        matches = [cells for (mode, figure), cells in expected.items() if figure == label]
        assert matches, label
        assert any(all(value in cells for value in values) for cells in matches), (label, values)
        seen += 1
    assert seen >= 3 * 11  # every figure of every mode, on its own row
    assert text == snapshot


@pytest.mark.parametrize("width", WIDTHS)
def test_an_odds_grid_is_paged_into_blocks_of_columns(terminal, width, snapshot):
    from d4cli.cli.commands.odds import _emit
    from d4cli.odds.grids import pool_grid

    grid = pool_grid(list(range(4, 30)), aspects=list(range(1, 7)))
    text = terminal(lambda: _emit(grid, "table"), width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert len(lines) < 6 * 14  # pages of rows, not one line per cell (156 at 80 columns before)
    headers = [line for line in lines if line.startswith("┃") and "DC" in line]
    shown = [
        int(word)
        for header in headers
        for word in header.replace("┃", " ").split()
        if word.isdigit()
    ]
    assert shown == list(range(4, 30))  # every DC once, in order, across the pages
    for row in _cells(text):  # every row keeps its label beside its own values
        if row[0].isdigit() or row[0].startswith(tuple("123456")):
            assert all(value.endswith("%") for value in row[1:]), row
    assert text == snapshot


@pytest.mark.parametrize("width", WIDTHS)
def test_a_report_too_wide_for_the_terminal_takes_the_short_labels(
    tmp_path, terminal, width, monkeypatch
):
    import json

    import d4cli.output.render as render
    import d4cli.output.render.simulate_text as simulate
    from d4cli.output.figuretext import SHORT_NOTE

    report = json.loads(
        ok("simulate", "--from", "ambush", "--runs", "60", "--seed", "2", "--json").stdout
    )
    monkeypatch.setattr(simulate, "console", lambda stderr=False: render.console())
    text = terminal(lambda: simulate.print_report(report), width)
    assert max(len(line) for line in text.splitlines()) <= width
    said = " ".join(text.split())
    short = width < 120
    assert (SHORT_NOTE in said) is short
    assert ("dmg share" in text) is short and ("share of its side's damage" in text) is not short
    # No figure's label takes more than three lines: a row's values stand on its first line,
    # so a line of the body with no value continues the label above.
    continued = 0
    for line in text.splitlines():
        if not line.startswith("│"):
            continue
        values = [cell.strip() for cell in line.strip("│").split("│")[1:]]
        continued = continued + 1 if not any(values) else 0
        assert continued <= 2, text
