"""The players' web page (``d4cli serve``): one HTML document, its style and script, no build step, no CDN.

Made from a `d4cli.fight.players_view.PublicView` alone, which holds nothing the
GM hides. `view_fragment` is the HTML of one view (every text escaped with
`html.escape`); `page_html` wraps it in the page, whose small script (``assets/page.js``)
listens to ``/events`` (Server-Sent Events) and swaps in each new fragment, so the page
follows the encounter without a reload. One layout reads at arm's length on a
phone and across the room on a TV (sizes by ``clamp()``): the round, whose turn
it is and who goes next, the initiative order with the current creature
highlighted (the script keeps it and the next ones in view, with "N more above"
and "N more below" lines), HP labels as coloured bars, effects as chips, what
the party can still act with, the fight's end, and the roll feed.
"""

from __future__ import annotations

from html import escape
from importlib.resources import files

from d4cli.fight.players_view import PublicCreature, PublicRoll, PublicView
from d4cli.output.headroom import headroom_text
from d4cli.output.rolltext import roll_steps
from d4cli.output.serialize.public_view_json import effect_left
from d4cli.output.sidetext import side_wins
from d4cli.output.window import view_focus

# How full a label's bar is drawn: a label never gives away the number behind it.
LABEL_FILL = {"Healthy": 100, "Up": 100, "Hurt": 70, "Bloodied": 35, "Down": 0}
# All the players learn of a file that cannot be read: no reason, no name (it may name a hidden creature).
NOT_READY = "The table is not ready yet."
ASSETS = ("page.css", "page.js")
# Shown while the page has lost the server (its script hides it again on return).
RECONNECTING = "Reconnecting to the table…"
HEADROOM = "Can still act:"  # the party's headroom (R2), in the players' words


def _hp(creature: PublicCreature) -> str:
    label = creature.hp_label
    if label is None and creature.hp is None:
        return ""
    if creature.hp is not None and creature.max_hp:
        fill = max(0, min(100, round(100 * creature.hp / creature.max_hp)))
    else:
        fill = LABEL_FILL.get(label or "", 100)
    number = ""
    if creature.hp is not None:
        number = str(creature.hp) + (f" / {creature.max_hp}" if creature.max_hp is not None else "")
    text = " ".join(part for part in (number, label or "") if part)
    css = (label or "Up").lower()
    return (
        f'<div class="hp {css}"><div class="bar"><div class="fill p{5 * round(fill / 5)}"></div></div>'
        f'<span class="hptext">{escape(text)}</span></div>'
    )


def _effects(creature: PublicCreature, counts_from: int) -> str:
    chips = []
    for effect in creature.effects:
        sign = "+1d4" if effect.grant == "advantage" else "-1d4"
        where = " vs it" if effect.on == "against" else ""
        chips.append(
            f'<span class="chip {escape(effect.grant)}">{escape(effect.source)}{where} {sign}'
            f" <small>{escape(effect_left(effect, counts_from))}</small></span>"
        )
    return f'<div class="chips">{"".join(chips)}</div>' if chips else ""


def _headroom(creature: PublicCreature) -> str:
    """What the party can still act with (headroom, R2), under its label."""
    if creature.headroom is None:
        return ""
    parts = "".join(
        f'<span class="room {"ok" if room >= 1 else "zero" if room == 0 else "no"}">'
        f"{escape(headroom_text(aspect, room))}</span>"
        for aspect, room in creature.headroom
    )
    return f'<div class="headroom"><span class="label">{HEADROOM}</span> {parts}</div>'


def _row(view: PublicView, creature: PublicCreature) -> str:
    classes = ["creature"]
    if creature.current:
        classes.append("current")
    elif creature.name == view.next_turn:
        classes.append("next")
    if creature.down:
        classes.append("down")
    if creature.had_turn:
        classes.append("done")
    if creature.party:
        classes.append("party")
    marker = "&#9654;" if creature.current else ("&#10003;" if creature.had_turn else "")
    evasion = (
        f' <span class="evasion">Evasion {creature.evasion}</span>'
        if creature.evasion is not None
        else ""
    )
    return (
        f'<li class="{" ".join(classes)}"><span class="marker">{marker}</span>'
        f'<div class="who"><span class="name">{escape(creature.name)}</span>{evasion}'
        f"{_effects(creature, view.counts_from)}{_headroom(creature)}</div>{_hp(creature)}</li>"
    )


def _feed(rolls: tuple[PublicRoll, ...]) -> str:
    """The roll feed, newest first: each roll's actor and its steps (`d4cli.output.rolltext`)."""
    if not rolls:
        return ""
    items = "".join(
        f'<li class="roll"><span class="actor">{escape(roll.actor)}</span> '
        + " ".join(f'<span class="step">{escape(step)}</span>' for step in roll_steps(roll))
        + "</li>"
        for roll in reversed(rolls)
    )
    return f'<section class="feed"><h2>Rolls</h2><ol class="rolls">{items}</ol></section>'


def view_fragment(view: PublicView | None, odds: str | None = None) -> str:
    """The HTML of *view* (what the page's ``<main>`` holds); None: only `NOT_READY`. *odds*: the
    players' odds line (`d4cli.output.odds_line.odds_text`), under the header when given.

    The turn order's ``data-focus`` is the row the page's script keeps in view when the
    order is taller than the screen (`d4cli.output.window`).
    """
    if view is None:
        return f'<p class="warning">{escape(NOT_READY)}</p>'
    state = f"Round {view.round}" if view.round else "Not started"
    if view.turn is not None:
        now = f'<span class="now">Now: {escape(view.turn)}</span>'
    else:
        now = '<span class="now">Between turns</span>' if view.round else ""
    if view.next_turn is not None:
        now += f'<span class="next">Next: {escape(view.next_turn)}</span>'
    end = view.fight_over
    over = ""
    if end is not None:  # R21: a side has won, or everyone is down
        outcome = "everyone is down" if end.winner is None else escape(side_wins(end.winner))
        over = f'<p class="over">The fight is over: {outcome}</p>'
    body = "".join(_row(view, creature) for creature in view.creatures)
    body = body or '<li class="empty">No creatures to show</li>'
    line = "" if odds is None else f'<p class="odds">{escape(odds)}</p>'
    return (
        f"<header><h1>{escape(view.name) or 'Encounter'}</h1>"
        f'<div class="round">{state}</div><div class="turn">{now}</div></header>'
        f'{over}{line}<ol class="order" data-focus="{view_focus(view)}">{body}</ol>'
        f"{_feed(view.rolls)}"
    )


def page_html(view: PublicView | None, odds: str | None = None) -> str:
    """The whole page: `view_fragment` of *view* (None: `NOT_READY`) and its *odds* line, linking ``/assets/page.css`` and
    ``/assets/page.js`` (the script that follows ``/events``); nothing inline, for the page's
    Content-Security-Policy ``default-src 'self'``."""
    title = escape(view.name) if view is not None and view.name else "Encounter"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}: player view</title><link rel="stylesheet" href="/assets/page.css"></head>'
        f'<body><p id="offline" class="offline" role="status" hidden>{RECONNECTING}</p>'
        f'<main id="view">{view_fragment(view, odds)}</main>'
        '<script src="/assets/page.js"></script></body></html>'
    )


def asset(name: str) -> bytes:
    """The bytes of ``page.css`` or ``page.js`` (package data of `d4cli.output`).

    Raises:
        KeyError: any other *name* (the server answers 404; no name reaches the file system).
    """
    if name not in ASSETS:
        raise KeyError(name)
    return files("d4cli.output").joinpath("assets", name).read_bytes()
