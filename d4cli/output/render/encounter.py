"""Rich output of the encounter commands: the status table, the log, one-line summaries.

Summaries work on the journal's plain entries (`d4cli.output.serialize.changes.journal_json`
objects), so a change just made and the same change read back by ``d4cli log``
read alike.
Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from d4cli.fight import closed_sets as kinds
from d4cli.output.render import bold_name, escape, load_change
from d4cli.output.render.actline import act_summary
from d4cli.output.render.effects import effect_summary, effects_cell
from d4cli.output.render.fight import fight_summary
from d4cli.output.render.sheet import sheet_summary
from d4cli.output.render.visibility import view_summary

if TYPE_CHECKING:
    # Rich loads only when a table is built: `log` and the one-line summaries do without it.
    from rich.table import Table

    from d4cli.fight.actions import TeamRecord
    from d4cli.fight.encounter import Creature, Encounter


_name = bold_name


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
    from rich import box
    from rich.table import Table

    from d4cli.fight.effect_transitions import applied_round
    from d4cli.output.effecttext import chip
    from d4cli.output.render import plain
    from d4cli.output.serialize.effects import effect_json

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
            (marker, escape(creature.name), str(creature.load), _hp_cell(creature), able, chips)
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
    if encounter.current is None:
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
    from rich.table import Table

    from d4cli.fight.effect_transitions import applied_round

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
            escape(creature.name)
            + (f" [dim]({escape(creature.side)})[/]" if creature.side else ""),
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
    from rich.measure import Measurement

    table = status_table(encounter)
    if console.width >= 1000:  # a pipe: never wrapped (docs/cli.md)
        return table
    natural = Measurement.get(console, console.options.update_width(1_000_000), table).maximum
    return table if natural <= console.width else compact_status_table(encounter, console.width)


def _sheet(entry: dict[str, Any]) -> str:
    """``; side party; Attributes Willpower 2; ...`` of an ``add`` entry (C8); "" without a sheet."""
    parts = [f"side {escape(str(entry['side']))}"] if entry.get("side") else []
    for key, title in (
        ("attributes", "Attributes"),
        ("proficiencies", "Proficiencies"),
        ("specializations", "Specializations"),
    ):
        if entry.get(key):
            parts.append(f"{title} {_aspects(entry[key])}")
    return "".join(f"; {part}" for part in parts)


def _aspects(aspects: dict[str, Any]) -> str:
    return ", ".join(f"{escape(name)} {value}" for name, value in aspects.items())


_load = load_change


def summary(entry: dict[str, Any]) -> str:
    """One line (Rich markup) that says what a journal entry changed, with its rule ids,
    and the lasting effects it ended (R20).

    *entry* is a change's JSON object (`d4cli.output.serialize.changes.journal_json`: a change just
    made, or read back by ``log``); its ``kind`` picks the line (`SUMMARIES`); a kind this
    version does not know reads as its name.
    """
    line = SUMMARIES.get(str(entry.get("kind")))
    text = escape(str(entry.get("kind"))) if line is None else line(entry)
    ended = [
        f"{escape(str(gone.get('source')))} on {escape(str(gone.get('creature')))} ended: {escape(str(gone.get('reason')))}"
        for gone in entry.get("effects_ended") or ()
    ]
    text += "".join(f"; {part}" for part in ended) + (" (R20)" if ended else "")
    over = entry.get("fight_over")
    if isinstance(over, dict) and over.get("winner") is not None:
        text += f"; {fight_over_text(over['winner'])}"
    return text


def fight_over_text(winner: object) -> str:
    """``[bold]the fight is over[/], won by foes (R18)``: a side is the last with a creature up."""
    return f"[bold]the fight is over[/], won by {escape(str(winner))} (R18)"


def _init_summary(entry: dict[str, Any]) -> str:
    origin = f" from {escape(str(entry['from']))}" if entry.get("from") else ""
    reset = (
        f", {entry['round_reset']} round reset"
        if entry.get("mode") == "round" and entry.get("round_reset")
        else ""
    )
    return f"new encounter {escape(str(entry.get('name', '')))} ({entry.get('mode')} mode{reset}){origin}"


def _add_summary(entry: dict[str, Any]) -> str:
    hp = f", HP {entry['hp_after']}" if entry.get("hp_after") is not None else ""
    if entry.get("max_hp") is not None:
        hp += f" of {entry['max_hp']}"
    names = entry.get("names") or []
    actor = (
        ", ".join(_name(name) for name in names) if len(names) > 1 else _name(entry.get("actor"))
    )
    if entry.get("like"):
        actor += f" (like {escape(str(entry['like']))})"
    return (
        f"added {actor}: {_aspects(entry.get('aspects', {}))}; Buffer {entry.get('load_buffer')}, "
        f"Exhaustion {entry.get('exhaustion')}, Load {entry.get('load_after')} (R1), "
        f"Evasion {entry.get('evasion')}{hp}{_sheet(entry)}"
        + ("; hidden from the player view" if entry.get("hidden") else "")
    )


def _remove_summary(entry: dict[str, Any]) -> str:
    text = f"removed {_name(entry.get('actor'))}"
    if entry.get("ended_turn"):
        follower = entry.get("next")
        text += "; its turn ended, the next turn goes to " + (
            _name(follower) if follower else "the next round"
        )
    return text + " (R17)"


def _turn_start_summary(entry: dict[str, Any]) -> str:
    actor = _name(entry.get("actor"))
    parts = []
    if entry.get("ended"):
        parts.append(f"{_name(entry['ended'])}'s turn ended (R13)")
    resets = entry.get("resets", [])
    if entry.get("new_round"):
        parts.append(f"round {entry.get('round')} begins")
    for name in entry.get("skipped", []):
        parts.append(f"{_name(name)} is down: skipped (R18)")
    parts.append(f"{actor}'s turn" + (" (out of order, R13)" if entry.get("out_of_order") else ""))
    if entry.get("again"):
        parts.append(f"{actor} already had its turn this round (R19)")
    if entry.get("down"):
        parts.append(f"{actor} is down and cannot act (R18)")
    if len(resets) > 1:
        parts.append(
            "everyone's Load reset (R12): "
            + ", ".join(f"{escape(r['name'])} {r['load_after']}" for r in resets)
        )
    elif resets:
        parts.append(f"Load {resets[0]['load_before']} -> {resets[0]['load_after']} (reset, R1)")
    else:
        parts.append("no reset at a turn in round mode (R12)")
    return "; ".join(parts)


def _turn_end_summary(entry: dict[str, Any]) -> str:
    after = (
        f"next: {_name(entry['next'])}"
        if entry.get("next")
        else f"round {entry.get('round')} is over"
    )
    return f"{_name(entry.get('actor'))}'s turn ended; Load stays {entry.get('load_after')} (R14); {after}"


def _exhaust_summary(entry: dict[str, Any]) -> str:
    return (
        f"{_name(entry.get('actor'))}: Exhaustion {entry.get('exhaustion_before')} -> {entry.get('exhaustion_after')}; "
        f"Load stays {entry.get('load_after')}, resets to {entry.get('reset_value')} (R15)"
    )


def team_head(entry: dict[str, Any]) -> str:
    """``Borin Team Action (Might, Cost 1)``: who pays a Team Action and with what (R11). Rich markup."""
    return f"{_name(entry.get('actor'))} Team Action ({escape(str(entry.get('aspect')))}, Cost {entry.get('cost')})"


def _team_summary(entry: dict[str, Any]) -> str:
    return (
        f"{team_head(entry)}: "
        f"{_name(entry.get('target'))}'s next roll gets {entry.get('grant')} "
        f"'{escape(str(entry.get('source')))}' (R11); {_load(entry)}"
    )


def _note_summary(entry: dict[str, Any]) -> str:
    """``note on Aria: owes Borin a favour``, or ``Aria's notes: "..." (were "...")``."""
    if entry.get("set"):
        notes, before = str(entry.get("notes") or ""), str(entry.get("notes_before") or "")
        now = f'"{escape(notes)}"' if notes else "cleared"
        was = f' (were "{escape(before)}")' if before and before != notes else ""
        return f"{_name(entry.get('actor'))}'s notes: {now}{was}"
    about = f" on {_name(entry['actor'])}" if entry.get("actor") else ""
    return f"note{about}: {escape(str(entry.get('note', '')))}"


def history_line(verb: str, entry: dict[str, Any]) -> str:
    """``Undid #7 act: <summary>`` (*verb* ``Undid`` or ``Redid``) of the journal *entry* undone or redone."""
    return f"{verb} #{entry.get('seq')} {escape(str(entry.get('kind')))}: {summary(entry)}"


def init_lines(
    path: object, encounter: Encounter, template: str | None, *, kept_comments: bool = True
) -> list[str]:
    """What ``init`` says (R12): the file made, its name, mode and creatures, the *template* it came from;
    that the template's comments were lost when ``--mode``/``--name`` changed it."""
    lines = [
        f"Created {escape(str(path))}: {escape(encounter.name) or 'an encounter'} ({encounter.mode} mode, "
        f"{len(encounter.creatures)} creatures)" + (f" from {escape(template)}" if template else "")
    ]
    if not kept_comments:
        lines.append("(--mode/--name changed the template, so its comments were not kept)")
    return lines


# Each kind of journal entry (`d4cli.fight.kinds`) -> its one-line summary (Rich markup).
SUMMARIES: dict[str, Callable[[dict[str, Any]], str]] = {
    kinds.INIT: _init_summary,
    kinds.ADD: _add_summary,
    kinds.REMOVE: _remove_summary,
    kinds.TURN_START: _turn_start_summary,
    kinds.TURN_END: _turn_end_summary,
    kinds.ACT: act_summary,
    kinds.TEAM: _team_summary,
    kinds.EXHAUST: _exhaust_summary,
    kinds.DAMAGE: fight_summary,
    kinds.HEAL: fight_summary,
    kinds.MOVE: fight_summary,
    kinds.EFFECT: effect_summary,
    kinds.CHECK: sheet_summary,
    kinds.ACTION_ADD: sheet_summary,
    kinds.ACTION_REMOVE: sheet_summary,
    kinds.NOTE: _note_summary,
    kinds.REVEAL: view_summary,
    kinds.CONCEAL: view_summary,
    kinds.ALIAS: view_summary,
}


# Lines of a status table around its rows: title, rules, header, caption.
TABLE_FRAME = 6


def table_lines(table: Table) -> list[str]:
    """*table* as one line (markup) per row: ``Turn Creature: Header value; Header value; ...``.

    Generic over the table's columns (the status table past a terminal's height,
    `print_status`): the first two columns lead the line, every other non-empty
    cell follows as ``Header value``; the title comes first and the caption last.
    """
    headers = [str(column.header) for column in table.columns]
    # Column._cells holds each column's cells in row order (as in `d4cli.output.render.fit_table`).
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
    from d4cli.output.render import console, plain

    out = console()
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


def team_table(record: TeamRecord) -> Table:
    """The steps of a Team Action (`d4cli.output.steps.team_steps`): gate, grant, Load (R2, R8, R10, R11)."""
    from d4cli.output.render.roll import steps_table
    from d4cli.output.steps import team_steps

    title = f"{escape(record.actor)}: Team Action for {escape(record.target)}"
    return steps_table(title, team_steps(record))


def print_lines(lines: Iterable[str]) -> None:
    """Print markup lines on stdout."""
    from d4cli.output.render import console

    out = console()
    for line in lines:
        out.print(line)
