"""``status`` keeps the current creature on screen at any creature count: past the terminal's
height its rows are a window around it (the boards' `d4cli.output.window`), with "N more above"
and "N more below" rows. Rendered as Rich renders for a terminal 80 and 120 columns wide and
24 lines high (no colour), pinned by snapshots."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from _cli import ok

from d4cli.store import read_encounter

WIDTHS = [80, 120]
HEIGHT = 24


@pytest.fixture
def screen(monkeypatch):
    """``run(function, width)``: what *function* prints on a terminal *width* x `HEIGHT`."""
    import d4cli.output.render as render

    def run(function, width: int) -> str:
        out = io.StringIO()

        def fixed(*, stderr: bool = False):
            return render.PipeConsole(
                file=out,
                width=width,
                height=HEIGHT,
                no_color=True,
                color_system=None,
                force_terminal=True,
                highlight=False,
                emoji=False,
            )

        monkeypatch.setattr(render, "console", fixed)
        function()
        return out.getvalue()

    return run


def _fight(tmp_path: Path, current: str):
    """Skirmish's four creatures and 25 kobolds (29), *current*'s turn running."""
    ok("init", "--from", "skirmish")
    ok("add", "Kobold", "--count", "25", "--like", "Goblin Archer", "--side", "foes")
    ok("effect", "add", "Kobold 9", "shaken", "--dis", "--rounds", "2")
    ok("turn", "start", current)
    return read_encounter(tmp_path / "encounter.toml")


def _print(encounter):
    from d4cli.output.render.status_tables import print_status

    return lambda: print_status(encounter)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_current_creature_stays_in_a_window_of_the_rows(tmp_path, screen, snapshot, width):
    encounter = _fight(tmp_path, "Kobold 8")
    assert len(encounter.creatures) == 29
    text = screen(_print(encounter), width)
    lines = text.splitlines()
    assert len(lines) <= HEIGHT - 1  # a line left for the prompt
    assert max(len(line.rstrip()) for line in lines) <= width
    now = next(line for line in lines if " now " in f" {line} ")
    assert encounter.current is not None and encounter.current in now
    above = [line for line in lines if "more above" in line]
    below = [line for line in lines if "more below" in line]
    assert len(above) == 1 and len(below) == 1
    shown = [c.name for c in encounter.creatures if any(f" {c.name} " in line for line in lines)]
    hidden_above, hidden_below = int(above[0].split()[0]), int(below[0].split()[0])
    assert hidden_above + len(shown) + hidden_below == 29
    assert text == snapshot


@pytest.mark.parametrize(
    ("current", "first", "last"), [("Aria", True, False), ("Kobold 25", False, True)]
)
def test_at_either_end_only_one_more_line(tmp_path, screen, current, first, last):
    encounter = _fight(tmp_path, current)
    text = screen(_print(encounter), 80)
    assert len(text.splitlines()) <= HEIGHT - 1
    assert ("more above" in text) is not first
    assert ("more below" in text) is not last
    assert encounter.current is not None and f" {encounter.current} " in text


def test_a_pipe_still_gets_every_creature_one_line_each(tmp_path):
    _fight(tmp_path, "Kobold 8")
    out = ok("status", env={"LINES": "24"}).stdout
    assert "more above" not in out
    assert all(f"Kobold {n}:" in out or f"Kobold {n} " in out for n in range(2, 26))
