"""Rich output of the encounter commands: the status table, the log, one-line summaries.

Summaries work on the journal's plain entries (`d4cli.output.serialize.changes.journal_json`
objects), so a change just made and the same change read back by ``d4cli log``
read alike.
Every name from the file goes through `escape` (N1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from d4cli.fight import kinds
from d4cli.output.render import escape
from d4cli.output.render.effects import effect_summary, effects_cell
from d4cli.output.render.fight import fight_summary
from d4cli.output.render.sheet import sheet_summary

if TYPE_CHECKING:
    # Rich loads only when a table is built: `log` and the one-line summaries do without it.
    from rich.table import Table

    from d4cli.fight.actions import TeamRecord
    from d4cli.fight.encounter import Creature, Encounter


def _name(value: object) -> str:
    return "[bold]" + escape(str(value)) + "[/]" if value is not None else "nobody"


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


def status_table(encounter: Encounter) -> Table:
    """The turn tracker: turn marker, Load, Buffer, Exhaustion, headroom per Aspect, HP, grants.

    The "Cost 1?" column says at a glance who can still act at Cost 1 (R2); the
    Turn column marks the running turn (``now``), the default next one and who
    has had its turn this round (``done``, R19); a down creature's HP reads ``0 down`` (or ``0/10 down``, R18).
    """
    from rich.table import Table

    from d4cli.fight.effect_transitions import applied_round

    state = f"round {encounter.round}" if encounter.round else "not started"
    mode = f"round mode, {encounter.round_reset} reset (R12)" if encounter.mode == "round" else "turn mode"
    title = f"{escape(encounter.name) or 'Encounter'}: {state}, {mode}"
    table = Table(title=title, title_justify="left")
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
        marker = ""
        if encounter.current == creature.name:
            marker = "[reverse] now [/]"
        elif encounter.next_turn == creature.name:
            marker = "next"
        elif creature.had_turn:
            marker = "done"  # had its turn this round (R19)
        hp = "-" if creature.hp is None else str(creature.hp)
        if creature.max_hp is not None:
            hp += f"/{creature.max_hp}"
        if creature.down:
            hp = f"[red bold]{hp} down[/]"
        table.add_row(
            marker,
            escape(creature.name) + (f" [dim]({escape(creature.side)})[/]" if creature.side else ""),
            str(creature.load),
            str(creature.load_buffer),
            str(creature.exhaustion),
            str(creature.evasion),
            hp,
            _headroom_cell(creature),
            _can_act_cell(creature),
            effects_cell(creature.effects, round_number),
        )
    if not encounter.creatures:
        table.caption = "No creatures yet: d4cli add NAME --aspect ASPECT=N"
    elif all(creature.down for creature in encounter.creatures):
        table.caption = (
            "Every creature is down (R18): 'd4cli turn start' is refused (exit 2); "
            "heal one, or 'd4cli turn start NAME' starts NAME's turn anyway"
        )
    elif encounter.current is None:
        table.caption = "No turn running; 'd4cli turn start' begins " + (
            f"{escape(encounter.next_turn)}'s turn" if encounter.next_turn else f"round {encounter.round + 1}"
        )
    return table


def _sheet(entry: dict[str, Any]) -> str:
    """``; side party; Attributes Willpower 2; ...`` of an ``add`` entry (C8); "" without a sheet."""
    parts = [f"side {escape(str(entry['side']))}"] if entry.get("side") else []
    for key, title in (("attributes", "Attributes"), ("proficiencies", "Proficiencies"), ("specializations", "Specializations")):
        if entry.get(key):
            parts.append(f"{title} {_aspects(entry[key])}")
    return "".join(f"; {part}" for part in parts)


def _aspects(aspects: dict[str, Any]) -> str:
    return ", ".join(f"{escape(name)} {value}" for name, value in aspects.items())


def _load(entry: dict[str, Any]) -> str:
    return f"Load {entry.get('load_before')} -> {entry.get('load_after')}"


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
    return text + "".join(f"; {part}" for part in ended) + (" (R20)" if ended else "")


def _init_summary(entry: dict[str, Any]) -> str:
    origin = f" from {escape(str(entry['from']))}" if entry.get("from") else ""
    reset = f", {entry['round_reset']} round reset" if entry.get("mode") == "round" and entry.get("round_reset") else ""
    return f"new encounter {escape(str(entry.get('name', '')))} ({entry.get('mode')} mode{reset}){origin}"


def _add_summary(entry: dict[str, Any]) -> str:
    hp = f", HP {entry['hp_after']}" if entry.get("hp_after") is not None else ""
    if entry.get("max_hp") is not None:
        hp += f" of {entry['max_hp']}"
    return (
        f"added {_name(entry.get('actor'))}: {_aspects(entry.get('aspects', {}))}; Buffer {entry.get('load_buffer')}, "
        f"Exhaustion {entry.get('exhaustion')}, Load {entry.get('load_after')} (R1), "
        f"Evasion {entry.get('evasion')}{hp}{_sheet(entry)}"
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
        parts.append("everyone's Load reset (R12): " + ", ".join(
            f"{escape(r['name'])} {r['load_after']}" for r in resets
        ))
    elif resets:
        parts.append(f"Load {resets[0]['load_before']} -> {resets[0]['load_after']} (reset, R1)")
    else:
        parts.append("no reset at a turn in round mode (R12)")
    return "; ".join(parts)


def _turn_end_summary(entry: dict[str, Any]) -> str:
    after = f"next: {_name(entry['next'])}" if entry.get("next") else f"round {entry.get('round')} is over"
    return f"{_name(entry.get('actor'))}'s turn ended; Load stays {entry.get('load_after')} (R14); {after}"


def _exhaust_summary(entry: dict[str, Any]) -> str:
    return (
        f"{_name(entry.get('actor'))}: Exhaustion {entry.get('exhaustion_before')} -> {entry.get('exhaustion_after')}; "
        f"Load stays {entry.get('load_after')}, resets to {entry.get('reset_value')} (R15)"
    )


def _team_summary(entry: dict[str, Any]) -> str:
    return (
        f"{_name(entry.get('actor'))} Team Action ({escape(str(entry.get('aspect')))}, Cost {entry.get('cost')}): "
        f"{_name(entry.get('target'))}'s next roll gets {entry.get('grant')} "
        f"'{escape(str(entry.get('source')))}' (R11); {_load(entry)}"
    )


def _aspect_name(entry: dict[str, Any]) -> object:
    """The Aspect's name of an act entry (``aspect`` held the name in journals of older versions)."""
    return entry.get("aspect_name", entry.get("aspect"))


def _act_summary(entry: dict[str, Any]) -> str:
    dice = list(entry.get("dice", []))
    for extra in entry.get("extra", []):
        dice += extra.get("dice", [])
    text = (
        f"{_name(entry.get('actor'))} {escape(str(_aspect_name(entry)))} (Cost {entry.get('cost')}"
        f"{', off-turn R10' if entry.get('off_turn') else ''}"
        f"{', GM-called R9' if entry.get('gate_skipped') else ''}): {entry.get('pool_size')}d4"
        + "".join(f" + {escape(str(extra.get('notation')))}" for extra in entry.get("extra", []))
        + f" ({' '.join(str(die) for die in dice)}) = [bold]{entry.get('total')}[/]"
    )
    if entry.get("dc") is not None:
        text += f" vs DC {entry['dc']}: {entry.get('outcome')}"
    if entry.get("evasion") is not None:
        against = f"Evasion {entry['evasion']}"
        if entry.get("target"):
            against = f"{_name(entry['target'])} ({against})"
        text += f" vs {against}: {entry.get('damage')} damage"
        if entry.get("hp_after") is not None:
            text += f", HP {entry.get('hp_before')} -> {entry['hp_after']}"
            if entry.get("target_down"):
                text += " [red bold](already down, R18)[/]"
            elif entry["hp_after"] == 0:
                text += " [red bold](0 HP: down, R16, R18)[/]"
    return text + f"; {_load(entry)}"


def history_line(verb: str, entry: dict[str, Any]) -> str:
    """``Undid #7 act: <summary>`` (*verb* ``Undid`` or ``Redid``) of the journal *entry* undone or redone."""
    return f"{verb} #{entry.get('seq')} {escape(str(entry.get('kind')))}: {summary(entry)}"


def init_lines(path: object, encounter: Encounter, template: str | None, *, kept_comments: bool = True) -> list[str]:
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
    kinds.ACT: _act_summary,
    kinds.TEAM: _team_summary,
    kinds.EXHAUST: _exhaust_summary,
    kinds.DAMAGE: fight_summary,
    kinds.HEAL: fight_summary,
    kinds.MOVE: fight_summary,
    kinds.EFFECT: effect_summary,
    kinds.CHECK: sheet_summary,
    kinds.ACTION_ADD: sheet_summary,
    kinds.ACTION_REMOVE: sheet_summary,
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
    table = status_table(encounter)
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
