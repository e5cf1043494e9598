"""The status table of the encounter (``d4cli status``): turn marker, Load, HP, headroom (R2),
effects (R20); compact at 80 columns, one line per creature past the terminal's height.

Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.measure import Measurement
from rich.table import Table

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.encounter import Creature, Encounter, same_name
from d4cli.fight.sides import encounter_end
from d4cli.journal.effect_facts import effect_json
from d4cli.journal.entry import read_head
from d4cli.output import render
from d4cli.output.effecttext import chip
from d4cli.output.render import escape, plain
from d4cli.output.render.effect_lines import effects_cell
from d4cli.output.render.entry_lines import print_lines, summary
from d4cli.output.render.sheet_text import sheet_table
from d4cli.output.render.visibility_lines import gm_name


def _headroom_cell(creature: Creature) -> str:
    parts = []
    for aspect, room in creature.headroom().items():
        colour = "green" if room >= 1 else "yellow" if room == 0 else "red"
        parts.append(f"{escape(aspect)} {dict(creature.aspects)[aspect]} [{colour}]{room:+d}[/]")
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


def compact_status_table(encounter: Encounter, width: int = 80) -> Table:
    """The turn tracker in one row per creature for a terminal *width* columns wide (80 or
    more): turn marker, Load, HP, the Aspects with headroom for Cost 1 (R2), and the
    effects as short chips (``-shaken 2r``, R20). ``status NAME`` shows the whole sheet.

    The columns get their widths here, so Rich never squeezes one below what it needs:
    Turn, Load and HP as wide as their cells, the name up to 20, the rest shared by the
    headroom (``Might+3``: one word, never parted from its Aspect) and the effects.
    """
    round_number = applied_round(encounter)
    rows = []
    for creature in encounter.creatures:
        if creature.down:
            able = "[red]no[/]: down (R18)"
        else:
            rooms = [
                f"{escape(aspect)}{room:+d}"
                for aspect, room in creature.headroom().items()
                if room >= 1
            ]
            able = "[green]" + ", ".join(rooms) + "[/]" if rooms else "[red]no[/]"
        chips = "\n".join(
            escape(chip(effect_json(effect), round_number)) for effect in creature.effects
        )
        marker = _marker(encounter, creature).replace("[reverse] now [/]", "[reverse]now[/]")
        rows.append(
            (
                marker,
                gm_name(creature, side=False),  # the compact table has no room for sides
                str(creature.load),
                _hp_cell(creature),
                able,
                chips,
            )
        )
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
    rest = max(24, min(width - sum(fixed) - frame, widest(4) + widest(5)))
    effects = max(min(12, widest(5)), min(widest(5), rest - widest(4)))  # the headroom first
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
    for row in rows:
        table.add_row(*row)
    table.caption = _caption(encounter, compact=True)
    return table


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
        text = f"[bold]The fight is over[/], won by {escape(end.winner)} (R18) until a heal or an add brings another side back"
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


def status_table(encounter: Encounter) -> Table:
    """The turn tracker: turn marker, Load, Buffer, Exhaustion, headroom per Aspect, HP, grants.

    The "Cost 1?" column says at a glance who can still act at Cost 1 (R2); the
    Turn column marks the running turn (``now``), the default next one and who
    has had its turn this round (``done``, R19); a down creature's HP reads ``0 down`` (or ``0/10 down``, R18).
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
    for creature in encounter.creatures:
        table.add_row(
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
    table.caption = _caption(encounter)
    return table


def status_view(encounter: Encounter, console: Any) -> Table:
    """The status table for *console*: the full `status_table` where its rows fit the width
    unwrapped, else `compact_status_table` (one row per creature at 80 columns)."""
    table = status_table(encounter)
    if console.width >= 1000:  # a pipe: never wrapped (docs/cli.md)
        return table
    natural = Measurement.get(console, console.options.update_width(1_000_000), table).maximum
    return table if natural <= console.width else compact_status_table(encounter, console.width)


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
    """Print `status_table`; past the terminal's height (its ``LINES`` off a terminal), one line per creature.

    Rich measures a table once, as it renders it; the line form is written without Rich's layout.
    """
    out = render.console()
    table = status_view(encounter, out)
    if len(encounter.creatures) + TABLE_FRAME <= out.size.height:
        out.print(table)
        return
    lines = table_lines(table)
    if out.is_terminal:
        for line in lines:
            out.print(line)
        return
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
