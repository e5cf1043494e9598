"""The status table of the encounter (``d4cli status``): turn marker, Load, HP, headroom (R2),
effects (R20); compact at 80 columns; past a terminal's height, the rows around the current
creature (as the boards keep them), and one line per creature past ``LINES`` in a pipe.

Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.measure import Measurement
from rich.table import Table

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.encounter_state import Creature, Encounter, same_name
from d4cli.fight.sides import encounter_end
from d4cli.journal.effect_facts import effect_json
from d4cli.journal.entry import read_head
from d4cli.output import render
from d4cli.output.effecttext import chip
from d4cli.output.headroom import headroom_text
from d4cli.output.render import escape, plain
from d4cli.output.render.effect_lines import effects_cell
from d4cli.output.render.entry_lines import print_lines, summary
from d4cli.output.render.sheet_text import sheet_table
from d4cli.output.render.visibility_lines import gm_name
from d4cli.output.window import Window, focus_of, window


def _headroom_cell(creature: Creature) -> str:
    parts = []
    for aspect, room in creature.headroom().items():
        colour = "green" if room >= 1 else "yellow" if room == 0 else "red"
        value = dict(creature.aspects)[aspect]
        parts.append(f"[{colour}]{escape(headroom_text(aspect, room))}[/] (Aspect {value})")
    return ", ".join(parts) or "-"


def _can_act_cell(creature: Creature) -> str:
    if creature.down:
        return "[red]no[/]: down (R18)"
    able = [aspect for aspect, room in creature.headroom().items() if room >= 1]
    if able:
        return "[green]yes[/]: " + ", ".join(escape(aspect) for aspect in able)
    return "[red]no[/]"


def _title(encounter: Encounter) -> str:
    state = f"round {encounter.round}" if encounter.round else "not started"
    mode = (
        f"round mode, {encounter.round_reset} reset (R12)"
        if encounter.mode == "round"
        else "turn mode"
    )
    return f"{escape(encounter.name) or 'Encounter'}: {state}, {mode}"


def _marker(encounter: Encounter, creature: Creature) -> str:
    """The Turn cell: ``now`` (its turn runs), ``next`` (the default next turn), ``done`` (had its turn, R19)."""
    if encounter.current == creature.name:
        return "[reverse] now [/]"
    if encounter.next_turn == creature.name:
        return "next"
    return "done" if creature.had_turn else ""


def _hp_cell(creature: Creature) -> str:
    hp = "-" if creature.hp is None else str(creature.hp)
    if creature.max_hp is not None:
        hp += f"/{creature.max_hp}"
    return f"[red bold]{hp} down[/]" if creature.down else hp


def compact_status_table(
    encounter: Encounter, width: int = 80, shown: Window | None = None, more: bool = True
) -> Table:
    """The turn tracker in one row per creature for a terminal *width* columns wide (80 or
    more): turn marker, Load, HP, the Aspects with headroom for Cost 1 (R2), and the
    effects as short chips (``-shaken 2r``, R20). ``status NAME`` shows the whole sheet.

    The columns get their widths here, so Rich never squeezes one below what it needs:
    Turn, Load and HP as wide as their cells, the name up to 20, the rest shared by the
    headroom (``Might: 3 left``, `d4cli.output.headroom`: never parted from its Aspect) and
    the effects. *shown* and *more*: the rows shown (`add_rows`); the widths are those of
    every row.
    """
    round_number = applied_round(encounter)
    rows = [_compact_row(encounter, creature, round_number) for creature in encounter.creatures]
    headers = ("Turn", "Creature", "Load", "HP", "Cost 1 (R2)", "Effects")

    def widest(index: int, cap: int = 1000) -> int:
        return min(
            cap,
            max(
                [len(headers[index])]
                + [max(map(len, plain(row[index]).split("\n"))) for row in rows]
            ),
        )

    fixed = [widest(0), widest(1, 20), widest(2), widest(3)]
    frame = 3 * len(headers) - 1  # one space of padding each side of a cell, one between columns
    # The headroom's Aspects on one line where they fit, else one a line (at least its widest).
    one_line = max([len(headers[4])] + [len(plain(row[4].replace(",\n", ", "))) for row in rows])
    rest = max(24, min(width - sum(fixed) - frame, one_line + widest(5)))
    effects = max(min(12, widest(5)), min(widest(5), rest - one_line))  # the headroom first
    effects = min(effects, rest - widest(4))
    table = Table(
        title=_title(encounter), title_justify="left", box=box.SIMPLE_HEAD, show_edge=False
    )
    for index, header in enumerate(headers):
        size = fixed[index] if index < 4 else (rest - effects if index == 4 else effects)
        table.add_column(
            header,
            width=size,
            overflow="fold",
            no_wrap=index in (0, 2, 3),
            justify="right" if index in (2, 3) else "left",
            style="bold" if index == 1 else "",
        )
    add_rows(table, _joined_headroom(rows, rest - effects), shown, more)
    table.caption = _caption(encounter, compact=True)
    return table


def _compact_row(encounter: Encounter, creature: Creature, round_number: int) -> tuple[str, ...]:
    """One creature's row of the compact table: marker, name, Load, HP, headroom, effects."""
    if creature.down:
        able = "[red]no[/]: down (R18)"
    else:
        rooms = [
            escape(headroom_text(aspect, room))
            for aspect, room in creature.headroom().items()
            if room >= 1
        ]
        # One Aspect a line at first: the column is sized to its widest; rows whose
        # Aspects fit on one line are joined again (`_joined_headroom`).
        able = "[green]" + ",\n".join(rooms) + "[/]" if rooms else "[red]no[/]"
    chips = "\n".join(
        escape(chip(effect_json(effect), round_number)) for effect in creature.effects
    )
    marker = _marker(encounter, creature).replace("[reverse] now [/]", "[reverse]now[/]")
    return (
        marker,
        gm_name(creature, side=False),  # the compact table has no room for sides
        str(creature.load),
        _hp_cell(creature),
        able,
        chips,
    )


def _joined_headroom(rows: Sequence[tuple[str, ...]], room: int) -> list[tuple[str, ...]]:
    """*rows* with each headroom cell (the fifth) on one line where it fits in *room*
    columns, one Aspect per line where it does not."""
    return [
        (*row[:4], row[4].replace(",\n", ", "), row[5])
        if len(plain(row[4].replace(",\n", ", "))) <= room
        else row
        for row in rows
    ]


def add_rows(
    table: Table, rows: Sequence[tuple[str, ...]], shown: Window | None, more: bool = True
) -> None:
    """Add *rows* to *table*: all of them, or only those of the window *shown*, with an
    "N more above" row before and an "N more below" row after for the rows left out
    (without *more*: none, as when a row's height is measured)."""
    if shown is None:
        shown = Window(0, len(rows))
    blank = ("",) * (len(table.columns) - 2)
    if more and shown.above():
        table.add_row("", f"[dim]{shown.above()} more above[/]", *blank)
    for row in rows[shown.start : shown.end]:
        table.add_row(*row)
    if more and shown.below(len(rows)):
        table.add_row("", f"[dim]{shown.below(len(rows))} more below[/]", *blank)


def _caption(encounter: Encounter, compact: bool = False) -> str | None:
    """What the status table says under its rows: no creatures, everyone down, no turn running."""
    if not encounter.creatures:
        return "No creatures yet: d4cli add NAME --aspect ASPECT=N"
    if all(creature.down for creature in encounter.creatures):
        return (
            "Every creature is down (R18): 'd4cli turn start' is refused (exit 2); "
            "heal one, or 'd4cli turn start NAME' starts NAME's turn anyway"
        )
    text = None
    end = encounter_end(encounter)
    if end is not None and end.winner is not None:
        text = f"[bold]The fight is over[/], won by {escape(end.winner)} (R21) until a heal or an add brings another side back"
    elif end is not None:
        text = "[bold]The fight is over[/]: every side is down (R21) until a heal or an undo brings a creature back"
    elif encounter.current is None:
        text = "No turn running; 'd4cli turn start' begins " + (
            f"{escape(encounter.next_turn)}'s turn"
            if encounter.next_turn
            else f"round {encounter.round + 1}"
        )
    if compact:
        more = "Cost 1: the Aspects with headroom for it; effects (R20) with rounds (r) or uses left; 'd4cli status NAME': a whole sheet"
        text = more if text is None else f"{text}\n{more}"
    return text


def status_table(encounter: Encounter, shown: Window | None = None, more: bool = True) -> Table:
    """The turn tracker: turn marker, Load, Buffer, Exhaustion, headroom per Aspect, HP, grants.

    The "Cost 1?" column says at a glance who can still act at Cost 1 (R2); the
    Turn column marks the running turn (``now``), the default next one and who
    has had its turn this round (``done``, R19); a down creature's HP reads ``0 down`` (or ``0/10 down``, R18).
    *shown* and *more*: the rows shown (`add_rows`).
    """
    table = Table(title=_title(encounter), title_justify="left")
    table.add_column("Turn", no_wrap=True)
    table.add_column("Creature", style="bold")
    table.add_column("Load", justify="right")
    table.add_column("Buffer", justify="right")
    table.add_column("Exh.", justify="right")
    table.add_column("Evasion", justify="right")
    table.add_column("HP", justify="right")
    table.add_column("Aspect value, headroom (R2)")
    table.add_column("Cost 1?")
    table.add_column("Effects (R20)")
    round_number = applied_round(encounter)  # the round an effect counts from (R20)
    rows = [
        (
            _marker(encounter, creature),
            gm_name(creature),
            str(creature.load),
            str(creature.load_buffer),
            str(creature.exhaustion),
            str(creature.evasion),
            _hp_cell(creature),
            _headroom_cell(creature),
            _can_act_cell(creature),
            effects_cell(creature.effects, round_number),
        )
        for creature in encounter.creatures
    ]
    add_rows(table, rows, shown, more)
    table.caption = _caption(encounter)
    return table


def status_view(encounter: Encounter, console: Any) -> Callable[..., Table]:
    """How the status table is drawn for *console*, as a function of the rows shown (``shown``,
    ``more``: `add_rows`): the full `status_table` where all its rows fit the width unwrapped,
    else `compact_status_table` (one row per creature at 80 columns)."""
    table = status_table(encounter)
    if console.width >= 1000:  # a pipe: never wrapped (docs/cli.md)
        return functools.partial(status_table, encounter)
    natural = Measurement.get(console, console.options.update_width(1_000_000), table).maximum
    if natural <= console.width:
        return functools.partial(status_table, encounter)
    return functools.partial(compact_status_table, encounter, console.width)


def status_window(encounter: Encounter, draw: Callable[..., Table], console: Any) -> Window:
    """The rows of the status table drawn by *draw* (`status_view`) that fit *console*'s
    height with a line left for the shell's prompt: a window around the current creature,
    else the next to go (`d4cli.output.window`, as the boards keep it).
    """

    def lines_of(table: Table) -> int:
        return len(console.render_lines(table, console.options, pad=False))

    count = len(encounter.creatures)
    frame = lines_of(draw(shown=Window(0, 0), more=False))
    heights = [lines_of(draw(shown=Window(i, i + 1), more=False)) - frame for i in range(count)]
    names = [creature.name for creature in encounter.creatures]
    current = names.index(encounter.current) if encounter.current in names else None
    following = names.index(encounter.next_turn) if encounter.next_turn in names else None
    return window(heights, focus_of(current, following), console.size.height - frame - 1)


# Lines of a status table around its rows: title, rules, header, caption.
TABLE_FRAME = 6


def table_lines(table: Table) -> list[str]:
    """*table* as one line (markup) per row: ``Turn Creature: Header value; Header value; ...``.

    Generic over the table's columns (the status table past a terminal's height,
    `print_status`): the first two columns lead the line, every other non-empty
    cell follows as ``Header value``; the title comes first and the caption last.
    """
    headers = [str(column.header) for column in table.columns]
    # Column._cells holds each column's cells in row order (as in `d4cli.output.render.FittedTable`).
    columns = [list(column._cells) for column in table.columns]
    lines = [f"[bold]{table.title}[/]"] if table.title else []
    for row in zip(*columns):
        cells = [str(cell).strip() for cell in row]
        lead = " ".join(cell for cell in cells[:2] if cell)
        rest = [f"{header} {cell}" for header, cell in zip(headers[2:], cells[2:]) if cell]
        lines.append(lead + ": " + "; ".join(rest))
    if table.caption:
        lines.append(str(table.caption))
    return lines


def print_status(encounter: Encounter) -> None:
    """Print the status table (`status_view`). Past the height of a terminal, its rows are a
    window around the current creature with "N more above" / "N more below" rows
    (`status_window`); past ``LINES`` off a terminal (else 25), one line per creature.

    Rich measures a table once, as it renders it; the line form is written without Rich's layout.
    """
    out = render.console()
    draw = status_view(encounter, out)
    if len(encounter.creatures) + TABLE_FRAME <= out.size.height:
        out.print(draw())
        return
    if out.is_terminal:
        out.print(draw(shown=status_window(encounter, draw, out)))
        return
    lines = table_lines(draw())
    out.file.write("".join(plain(line) + "\n" for line in lines))
    out.file.flush()


def print_replayed(entry: dict[str, Any], encounter: Encounter) -> None:
    """The tracker as it stood after journal *entry* (its public form), headed by that entry's
    line (``status --at``: read-only replay)."""
    head = read_head(entry)
    kind = escape(str(head.kind))
    print_lines(
        [f"As it stood after #{head.seq} {kind}: {summary(entry)} (replayed from the journal)"]
    )
    print_status(encounter)


def print_sheet(encounter: Encounter, creature: Creature) -> None:
    """``d4cli status NAME``: one creature's whole sheet (C8)."""
    current = same_name(encounter.current, creature.name)
    render.console().print(
        sheet_table(
            creature, encounter.round, reset_to=encounter.reset_to(creature), current=current
        )
    )
