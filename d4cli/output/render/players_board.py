"""The players' board (``board --players``): one frame of a `d4cli.fight.players_view.PublicView` (Rich).

Drawn from the view alone, so it cannot show what the GM hides. Plain words for
the table: whose turn it is and who goes next, the creatures (effects wrap under
the name, never cut), HP as shown, what the party can still act with (an Aspect's
headroom, R2), then the roll feed (`d4cli.output.rolltext`). It fits the screen it
is drawn on: when the turn order is taller, the rows follow the current creature
(`d4cli.output.render.board_frame.fitted_table`) and the feed keeps its newest lines.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from d4cli.fight.players_view import PublicCreature, PublicRoll, PublicView
from d4cli.output.headroom import headroom_text, headrooms_text
from d4cli.output.render import escape
from d4cli.output.render.board_frame import (
    LABEL_STYLE,
    Cell,
    Column,
    fitted_table,
    lines_of,
    name_cell,
    one_line,
    over_line,
    room_colour,
    title_markup,
)
from d4cli.output.rolltext import roll_line
from d4cli.output.serialize.public_view_json import effect_left
from d4cli.output.window import view_focus

# The feed's lines kept in view when the turn order is taller than the screen.
FEED_KEPT = 3
HEADROOM = "Can still act"  # the party's headroom (R2), in the players' words
UNREADABLE = "the encounter file is unreadable just now; showing the last good view"


def turn_line(view: PublicView) -> str:
    """Whose turn it is and who goes next (markup): ``now: Aria; next: Borin``, ``between turns;
    next: Borin``; never a hidden creature (the view names none)."""
    parts = []
    if view.turn is not None:
        parts.append(f"now: [bold]{escape(view.turn)}[/]")
    elif view.round:
        parts.append("between turns")
    if view.next_turn is not None:
        parts.append(f"next: [bold]{escape(view.next_turn)}[/]")
    return "; ".join(parts) or "nobody to go"


def players_frame(
    view: PublicView,
    height: int = 24,
    width: int = 80,
    *,
    unreadable: bool = False,
    odds: str | None = None,
) -> Any:
    """The players' board of *view*, *height* lines of *width* columns at most.

    *unreadable*: the file could not be read just now; the frame says so and shows *view*, the last good one.
    *odds*: the odds line (`d4cli.output.render.board_frame.odds_markup`), under the turn line when given.
    """
    lines: list[Any] = [
        one_line(title_markup(view.name, view.round)),
        one_line(turn_line(view)),
        *over_line(view.fight_over),
    ]
    if odds is not None:
        lines.append(one_line(odds))
    if unreadable:
        lines.append(Text(UNREADABLE, style="bold red"))
    budget = height - 1 - lines_of(Group(*lines), width)
    feed = _feed(view.rolls, width)
    kept = _newest(feed, FEED_KEPT + 1) if feed else []
    room = budget - sum(taken for _, taken in kept)
    if view.creatures:
        columns = _columns(view, width)
        room_width = columns[-1][1]["width"] if len(columns) > 3 else 0
        rows = [_row(view, creature, room_width) for creature in view.creatures]
        table, used = fitted_table(columns, rows, view_focus(view), room, width)
        lines.append(table)
    else:
        lines.append(Text("no creatures to show", style="dim"))
        used = 1
    if feed:
        lines.extend(text for text, _ in _newest(feed, budget - used))
    return Group(*lines)


def _columns(view: PublicView, width: int) -> list[Column]:
    hp_width = max([2, *(len(_hp_text(creature)) for creature in view.creatures)])
    columns: list[Column] = [
        ("Turn", {"no_wrap": True, "width": 5}),
        ("Creature and effects", {"ratio": 1, "overflow": "fold"}),
        ("HP", {"no_wrap": True, "width": hp_width}),
    ]
    rooms = [_headroom_text(c) for c in view.creatures if c.headroom is not None]
    if rooms:
        widest = max(len(HEADROOM), *(len(text) for text in rooms))
        columns.append((HEADROOM, {"width": min(widest, 2 * width // 5), "overflow": "fold"}))
    return columns


def _row(view: PublicView, creature: PublicCreature, room_width: int) -> tuple[Cell, ...]:
    name = escape(creature.name)
    if creature.evasion is not None:
        name += f" [dim](Evasion {creature.evasion})[/]"
    cell = f"[dim]{name}[/]" if creature.down else f"[bold]{name}[/]"
    row: list[Cell] = [
        _turn_cell(view, creature),
        name_cell(cell, _effect_lines(creature, view.counts_from)),
        _hp_cell(creature),
    ]
    if any(other.headroom is not None for other in view.creatures):
        row.append(_headroom_cell(creature, room_width))
    return tuple(row)


def _feed(rolls: tuple[PublicRoll, ...], width: int) -> list[tuple[Any, int]]:
    """The feed's header and its lines, newest last, each with the lines it takes."""
    if not rolls:
        return []
    header = Text("rolls", style="bold")
    lines = [Text(roll_line(roll)) for roll in rolls]
    return [(header, 1), *((line, lines_of(line, width)) for line in lines)]


def _newest(feed: list[tuple[Any, int]], room: int) -> list[tuple[Any, int]]:
    """The feed's header and as many of its newest lines as fit *room* (none: nothing)."""
    header, lines = feed[0], feed[1:]
    kept: list[tuple[Any, int]] = []
    used = header[1]
    for line in reversed(lines):
        if used + line[1] > room:
            break
        kept.insert(0, line)
        used += line[1]
    return [header, *kept] if kept else []


def _hp_text(creature: PublicCreature) -> str:
    if creature.hp is not None:
        text = str(creature.hp) + (f"/{creature.max_hp}" if creature.max_hp is not None else "")
        return f"{text} {creature.hp_label}" if creature.hp_label else text
    return creature.hp_label or "-"


def _hp_cell(creature: PublicCreature) -> str:
    if creature.hp is not None:
        text = str(creature.hp) + (f"/{creature.max_hp}" if creature.max_hp is not None else "")
        label = creature.hp_label
        return f"{text} [{LABEL_STYLE.get(label or '', 'default')}]{label}[/]" if label else text
    if creature.hp_label is not None:
        return f"[{LABEL_STYLE.get(creature.hp_label, 'default')}]{creature.hp_label}[/]"
    return "[dim]-[/]"


def _turn_cell(view: PublicView, creature: PublicCreature) -> str:
    if creature.current:
        return "[reverse] now [/]"
    if creature.down:
        return "[dim]down[/]"
    if creature.name == view.next_turn:
        return "next"
    return "[dim]done[/]" if creature.had_turn else ""


def _effect_lines(creature: PublicCreature, counts_from: int) -> list[str]:
    """One line per public effect, for under the creature's name: ``blessed +1d4, 2 rounds left
    (until the end of round 3)`` (`d4cli.output.render.board_frame.name_cell` indents and wraps it)."""
    lines = []
    for effect in creature.effects:
        sign = "+" if effect.grant == "advantage" else "-"
        where = "vs it " if effect.on == "against" else ""
        colour = "green" if effect.grant == "advantage" else "red"
        left = effect_left(effect, counts_from)
        lines.append(
            f"[{colour}]{escape(effect.source)} {where}{sign}1d4[/][dim], {escape(left)}[/]"
        )
    return lines


def _headroom_text(creature: PublicCreature) -> str:
    return headrooms_text(creature.headroom or ())


def _headroom_cell(creature: PublicCreature, room_width: int) -> str:
    """``Finesse +2 Might +0``: what the party can still act with (headroom, R2), one Aspect a
    line when they do not fit *room_width* in one; "" for others."""
    if creature.headroom is None:
        return ""
    joint = ", " if len(_headroom_text(creature)) <= room_width else "\n"
    return joint.join(
        f"[{room_colour(room)}]{escape(headroom_text(aspect, room))}[/]"
        for aspect, room in creature.headroom
    )
