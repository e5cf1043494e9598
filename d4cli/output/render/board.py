"""The board: one full-screen frame of the encounter, for the GM or for the players (Rich).

`players_frame` draws a `d4cli.fight.public_view.PublicView` and nothing else,
so it cannot show what the GM hides; `gm_frame` draws the whole encounter and
the newest log lines. Both fit 80x24 (one line per creature, long cells cut
with an ellipsis rather than wrapped). `live_screen` is the Rich Live display
the ``board`` loop (`d4cli.cli.board`) updates; `frame_text` renders a frame
to plain text (``board --once`` in a pipe, tests).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from d4cli.fight.effect_transitions import applied_round
from d4cli.fight.encounter import Encounter
from d4cli.fight.public_view import PublicCreature, PublicView
from d4cli.fight.sides import winner
from d4cli.output import render
from d4cli.output.effecttext import describe
from d4cli.output.odds_line import odds_text
from d4cli.output.render import escape
from d4cli.output.serialize.effects import effect_json
from d4cli.output.serialize.public_view import effect_left
from d4cli.sim.side_odds import SideOdds

# HP label -> colour, on the board and (as CSS classes) on the page.
LABEL_STYLE = {
    "Healthy": "green",
    "Hurt": "yellow",
    "Bloodied": "red",
    "Down": "bright_black",
    "Up": "green",
}


def _hp_cell(creature: PublicCreature) -> str:
    if creature.hp is not None:
        text = str(creature.hp) + (f"/{creature.max_hp}" if creature.max_hp is not None else "")
        label = creature.hp_label
        return f"{text} [{LABEL_STYLE.get(label or '', 'default')}]{label}[/]" if label else text
    if creature.hp_label is not None:
        return f"[{LABEL_STYLE.get(creature.hp_label, 'default')}]{creature.hp_label}[/]"
    return "[dim]-[/]"


def _turn_cell(creature: PublicCreature) -> str:
    if creature.current:
        return "[reverse] now [/]"
    if creature.down:
        return "[dim]down[/]"
    return "[dim]done[/]" if creature.had_turn else ""


def _effect_lines(creature: PublicCreature, counts_from: int) -> list[str]:
    """One line per public effect, under the creature's name: ``  blessed +1d4, 2 rounds left``."""
    lines = []
    for effect in creature.effects:
        sign = "+" if effect.grant == "advantage" else "-"
        where = "vs it " if effect.on == "against" else ""
        colour = "green" if effect.grant == "advantage" else "red"
        left = effect_left(effect, counts_from)
        lines.append(
            f"  [{colour}]{escape(effect.source)} {where}{sign}1d4[/][dim], {escape(_short(left))}[/]"
        )
    return lines


def _short(text: str) -> str:
    """What is left of an effect without its parenthesis: ``2 rounds left`` (the board is 80 wide)."""
    return text.split(" (until the end of round")[0]


def _headroom_cell(creature: PublicCreature) -> str:
    if creature.headroom is None:
        return ""
    parts = []
    for aspect, room in creature.headroom:
        colour = "green" if room >= 1 else "yellow" if room == 0 else "red"
        parts.append(f"{escape(aspect)} [{colour}]{room:+d}[/]")
    return " ".join(parts)


def _title(name: str, round_number: int) -> str:
    state = f"round {round_number}" if round_number else "not started"
    return f"[bold]{escape(name) or 'Encounter'}[/]: {state}"


def odds_markup(line: Sequence[SideOdds] | None, computing: bool) -> str | None:
    """The odds line (`d4cli.output.odds_line.odds_text`) as markup, dim while computing."""
    text = odds_text(line, computing)
    if text is None:
        return None
    return f"[dim]{escape(text)}[/]" if computing else escape(text)


def players_frame(view: PublicView, *, unreadable: bool = False, odds: str | None = None) -> Any:
    """The players' board: turn order, the current creature marked, HP as shown, effects, the party's headroom.

    *unreadable*: the file could not be read just now; the frame says so and shows *view*, the last good one.
    *odds*: the odds line (`odds_markup`), shown under the title when given.
    """
    table = Table(expand=True, box=None, pad_edge=False, show_edge=False)
    table.add_column("Turn", no_wrap=True, width=5)
    table.add_column("Creature, effects (R20)", no_wrap=True, overflow="ellipsis", ratio=1)
    table.add_column("HP", no_wrap=True)
    table.add_column("Headroom (R2)", no_wrap=True, overflow="ellipsis", ratio=1)
    for creature in view.creatures:
        name = escape(creature.name)
        if creature.evasion is not None:
            name += f" [dim](Evasion {creature.evasion})[/]"
        cell = f"[dim]{name}[/]" if creature.down else f"[bold]{name}[/]"
        table.add_row(
            _turn_cell(creature),
            "\n".join([cell, *_effect_lines(creature, view.counts_from)]),
            _hp_cell(creature),
            _headroom_cell(creature),
        )
    if view.turn is not None:
        now = f"now: [bold]{escape(view.turn)}[/]"
    elif view.hidden_turn:
        now = "now: a hidden creature acts"
    else:
        now = "between turns"
    over = (
        "" if view.winner is None else f"; [bold]the fight is over[/], won by {escape(view.winner)}"
    )
    lines: list[Any] = [_line(f"{_title(view.name, view.round)}; {now}{over}")]
    if odds is not None:
        lines.append(_line(odds))
    if unreadable:
        lines.append(
            Text(
                "the encounter file is unreadable just now; showing the last good view",
                style="bold red",
            )
        )
    lines.append(table)
    if not view.creatures:
        lines.append(Text("no creatures to show", style="dim"))
    return Group(*lines)


def gm_frame(
    encounter: Encounter,
    log_lines: list[str],
    height: int = 24,
    *,
    problem: str | None = None,
    odds: str | None = None,
) -> Any:
    """The GM's board: every creature (hidden ones and aliases marked), Load, HP, headroom, effects,
    then the newest log lines (markup) that fit in *height* rows.

    *problem*: the file could not be read just now (the message); *encounter* is the last good one.
    *odds*: the odds line (`odds_markup`), shown under the title when given.
    """
    counting = applied_round(encounter)
    table = Table(expand=True, box=None, pad_edge=False, show_edge=False)
    table.add_column("Turn", no_wrap=True, width=5)
    table.add_column("Creature, effects (R20)", no_wrap=True, overflow="ellipsis", ratio=1)
    table.add_column("Load", justify="right", no_wrap=True)
    table.add_column("HP", justify="right", no_wrap=True)
    table.add_column("Headroom (R2)", no_wrap=True, overflow="ellipsis", ratio=1)
    rows = 0
    for creature in encounter.creatures:
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
        rooms = " ".join(
            f"{escape(aspect)} [{'green' if room >= 1 else 'yellow' if room == 0 else 'red'}]{room:+d}[/]"
            for aspect, room in creature.headroom().items()
        )
        effects = [
            "  " + escape(_short(describe(effect_json(effect), counting)))
            for effect in creature.effects
        ]
        rows += 1 + len(effects)
        table.add_row(marker, "\n".join([name, *effects]), str(creature.load), hp, rooms)
    won = winner(encounter)
    over = "" if won is None else f"; [bold]the fight is over[/], won by {escape(won)}"
    lines: list[Any] = [
        _line(f"{_title(encounter.name, encounter.round)}{over} [dim](GM board; q quits)[/]")
    ]
    if odds is not None:
        lines.append(_line(odds))
    if problem is not None:
        lines.append(
            Text(
                f"unreadable just now: {problem}",
                style="bold red",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
    lines.append(table)
    room = height - rows - len(lines) - 3
    if room > 0 and log_lines:
        lines.append(Text("log", style="bold"))
        lines.extend(_line(line) for line in log_lines[-room:])
    return Group(*lines)


def _line(markup: str) -> Any:
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
