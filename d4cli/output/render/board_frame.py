"""The board: one full-screen frame of the encounter, for the GM (Rich), and what the boards share.

`gm_frame` draws the whole encounter and the newest log lines; the players' frame is
`d4cli.output.render.players_board`'s. Both fit the screen they are drawn on (80x24
and up): long names and effects wrap in their column, and when the turn order is
taller than the screen the rows follow the current creature (`d4cli.output.window`)
with "N more above" and "N more below" lines. `live_screen` is the Rich Live display
the ``board`` loop (`d4cli.cli.board_screen`) updates; `frame_text` renders a frame to plain
text (``board --once`` in a pipe, tests).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.sides import FightEnd, encounter_end
from d4cli.journal.effect_facts import effect_json
from d4cli.output import render
from d4cli.output.effecttext import describe
from d4cli.output.headroom import headroom_text, headrooms_text
from d4cli.output.odds_line import odds_text
from d4cli.output.render import escape
from d4cli.output.sidetext import side_wins
from d4cli.output.window import Window, focus_of, window
from d4cli.sim.side_odds import SideOdds

# HP label -> colour, on the board and (as CSS classes) on the page.
LABEL_STYLE = {
    "Healthy": "green",
    "Hurt": "yellow",
    "Bloodied": "red",
    "Down": "bright_black",
    "Up": "green",
}


# One column of a board's table: its header and Rich's column settings.
Column = tuple[str, dict[str, Any]]
# A row's cells: markup, or a renderable (`name_cell`).
Cell = Any
# The GM's log lines kept in view below the turn order when it is taller than the screen.
LOG_KEPT = 3


def name_cell(name: str, effects: list[str]) -> Cell:
    """A creature's name (markup) with its effects' lines under it, each indented by two,
    a long one wrapping under its own start (never cut)."""
    if not effects:
        return name
    lines = [Padding(Text.from_markup(line), (0, 0, 0, 2)) for line in effects]
    return Group(Text.from_markup(name), *lines)


def table_of(columns: list[Column], rows: list[tuple[Cell, ...]], *, header: bool = True) -> Any:
    """A board's table of *rows* (markup cells) with *columns*; cells wrap in their column."""
    table = Table(expand=True, box=None, pad_edge=False, show_edge=False, show_header=header)
    for title, settings in columns:
        table.add_column(title, **settings)
    for row in rows:
        table.add_row(*row)
    return table


def lines_of(renderable: Any, width: int) -> int:
    """How many lines *renderable* takes *width* columns wide."""
    return frame_text(renderable, width).count("\n")


def fitted_table(
    columns: list[Column], rows: list[tuple[Cell, ...]], focus: int, room: int, width: int
) -> tuple[Any, int]:
    """The table of the *rows* that fit *room* lines (its header included) around row *focus*
    (`d4cli.output.window`), with "N more above" / "N more below" rows; and the lines it takes."""
    heights = [lines_of(table_of(columns, [row], header=False), width) for row in rows]
    shown: Window = window(heights, focus, room - 1)
    kept = rows[shown.start : shown.end]
    blank = ("",) * (len(columns) - 1)
    if shown.above():
        kept.insert(0, ("", f"[dim]{shown.above()} more above[/]", *blank[1:]))
    if shown.below(len(rows)):
        kept.append(("", f"[dim]{shown.below(len(rows))} more below[/]", *blank[1:]))
    used = 1 + sum(heights[shown.start : shown.end]) + (len(kept) - (shown.end - shown.start))
    return table_of(columns, kept), used


def room_colour(room: int) -> str:
    """The colour of an Aspect's headroom (R2): green when it can pay Cost 1, yellow at 0, red below."""
    return "green" if room >= 1 else "yellow" if room == 0 else "red"


def odds_markup(line: Sequence[SideOdds] | None, computing: bool) -> str | None:
    """The odds line (`d4cli.output.odds_line.odds_text`) as markup, dim while computing."""
    text = odds_text(line, computing)
    if text is None:
        return None
    return f"[dim]{escape(text)}[/]" if computing else escape(text)


def over_line(end: FightEnd[str] | None) -> list[Any]:
    """The line that says the fight is over (R21), for as long as it is; none while it goes on."""
    if end is None:
        return []
    if end.winner is None:
        return [one_line("[bold reverse] the fight is over: everyone is down [/]")]
    return [one_line(f"[bold reverse] the fight is over: {escape(side_wins(end.winner))} [/]")]


def gm_frame(
    encounter: Encounter,
    log_lines: list[str],
    height: int = 24,
    *,
    problem: str | None = None,
    width: int = 80,
    odds: str | None = None,
) -> Any:
    """The GM's board: every creature (hidden ones and aliases marked), Load, HP, headroom, effects,
    then the newest log lines (markup) that fit in *height* rows of *width* columns.

    The rows follow the current creature when the order is taller than the screen
    (`fitted_table`), leaving room for the newest `LOG_KEPT` log lines.
    *problem*: the file could not be read just now (the message); *encounter* is the last good one.
    *odds*: the odds line (`odds_markup`), shown under the title when given.
    """
    columns: list[Column] = [
        ("Turn", {"no_wrap": True, "width": 5}),
        ("Creature and effects", {"ratio": 1, "overflow": "fold"}),
        ("Load", {"justify": "right", "no_wrap": True, "width": 4}),
        ("HP", {"justify": "right", "no_wrap": True, "width": _hp_width(encounter)}),
        ("Headroom", {"width": _headroom_width(encounter, width), "overflow": "fold"}),
    ]
    room_width = columns[-1][1]["width"]
    rows = [_gm_row(encounter, creature, room_width) for creature in encounter.creatures]
    lines: list[Any] = [
        one_line(f"{title_markup(encounter.name, encounter.round)} [dim](GM board; q quits)[/]"),
        *over_line(encounter_end(encounter)),
    ]
    if odds is not None:
        lines.append(one_line(odds))
    if problem is not None:
        lines.append(
            Text(
                f"unreadable just now: {problem}",
                style="bold red",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
    budget = height - 1 - len(lines)  # the last line stays free, as a terminal's cursor line
    kept_log = min(len(log_lines), LOG_KEPT)
    positions = {creature.name: index for index, creature in enumerate(encounter.creatures)}
    focus = focus_of(positions.get(encounter.current or ""), encounter.next_position())
    room = budget - (1 + kept_log if kept_log else 0)
    table, used = fitted_table(columns, rows, focus, room, width)
    lines.append(table)
    left = budget - used - 1
    if left > 0 and log_lines:
        lines.append(Text("log", style="bold"))
        lines.extend(one_line(line) for line in log_lines[-left:])
    return Group(*lines)


def _headroom_text(creature: Creature) -> str:
    return headrooms_text(creature.headroom().items())


def _headroom_width(encounter: Encounter, width: int) -> int:
    """The Headroom column's width: its widest cell, at most two fifths of the board."""
    widest = max([len("Headroom"), *(len(_headroom_text(c)) for c in encounter.creatures)])
    return min(widest, 2 * width // 5)


def _hp_width(encounter: Encounter) -> int:
    """The HP column's width: its widest cell (``12/12 down``), at least the header's."""
    widest = 2
    for creature in encounter.creatures:
        text = "-" if creature.hp is None else str(creature.hp)
        if creature.max_hp is not None:
            text += f"/{creature.max_hp}"
        widest = max(widest, len(text) + (5 if creature.down else 0))
    return widest


def _gm_row(encounter: Encounter, creature: Creature, room_width: int) -> tuple[Cell, ...]:
    marker = ""
    if encounter.current == creature.name:
        marker = "[reverse] now [/]"
    elif encounter.next_turn == creature.name:
        marker = "next"
    elif creature.had_turn:
        marker = "[dim]done[/]"
    name = "[bold]" + escape(creature.name) + "[/]"
    if creature.hidden:
        name += " [magenta](hidden)[/]"
    if creature.alias:
        name += f" [dim]as {escape(creature.alias)}[/]"
    hp = "-" if creature.hp is None else str(creature.hp)
    if creature.max_hp is not None:
        hp += f"/{creature.max_hp}"
    if creature.down:
        hp = f"[red bold]{hp} down[/]"
    joint = ", " if len(_headroom_text(creature)) <= room_width else "\n"
    rooms = joint.join(
        f"[{room_colour(room)}]{escape(headroom_text(aspect, room))}[/]"
        for aspect, room in creature.headroom().items()
    )
    counting = applied_round(encounter)
    effects = [escape(describe(effect_json(effect), counting)) for effect in creature.effects]
    return marker, name_cell(name, effects), str(creature.load), hp, rooms


def title_markup(name: str, round_number: int) -> str:
    """The frame's first line: the encounter's name and its round (markup)."""
    state = f"round {round_number}" if round_number else "not started"
    return f"[bold]{escape(name) or 'Encounter'}[/]: {state}"


def one_line(markup: str) -> Any:
    """One line of markup that never wraps: cut with an ellipsis at the edge (80x24)."""
    text = Text.from_markup(markup, overflow="ellipsis")
    text.no_wrap = True
    return text


def frame_text(frame: Any, width: int = 80, *, color: bool = False) -> str:
    """*frame* rendered as text *width* columns wide (no escape codes unless *color*)."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(frame)
    return out.getvalue()


def live_screen() -> Any:
    """The full-screen Rich Live display (the alternate screen, restored on exit) that the board loop updates."""
    return Live(
        console=render.console(),
        screen=True,
        auto_refresh=False,
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
