"""The players' web page (``d4cli serve``): one self-contained HTML document, no build step, no CDN.

Made from a `d4cli.fight.public_view.PublicView` alone, which holds nothing the
GM hides. `view_fragment` is the HTML of one view (every text escaped with
`html.escape`); `page_html` wraps it in the page, whose small script listens to
``/events`` (Server-Sent Events) and swaps in each new fragment, so the page
follows the encounter without a reload. A large layout for a TV across the
table: the round, the initiative order, the current creature highlighted, HP
labels as coloured bars, effects as chips.
"""

from __future__ import annotations

from html import escape

from d4cli.fight.public_rolls import PublicRoll
from d4cli.fight.public_view import PublicCreature, PublicView
from d4cli.output.rolltext import roll_steps
from d4cli.output.serialize.public_view import effect_left
from d4cli.output.window import focus_of

# How full a label's bar is drawn: a label never gives away the number behind it.
LABEL_FILL = {"Healthy": 100, "Up": 100, "Hurt": 70, "Bloodied": 35, "Down": 0}
UNREADABLE = "The encounter file is unreadable just now; this is the last good view."
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
        f'<div class="hp {css}"><div class="bar"><div class="fill" style="width:{fill}%"></div></div>'
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
        f"{escape(aspect)} {room:+d}</span>"
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


def _focus(view: PublicView) -> int:
    """The row the page keeps in view (`d4cli.output.window.focus_of`): the current, else the next."""
    names = [creature.name for creature in view.creatures]
    current = next((i for i, creature in enumerate(view.creatures) if creature.current), None)
    following = names.index(view.next_turn) if view.next_turn in names else None
    return focus_of(current, following)


def view_fragment(view: PublicView, *, unreadable: bool = False) -> str:
    """The HTML of *view* (what the page's ``<main>`` holds); *unreadable*: say the file could not be read.

    The turn order's ``data-focus`` is the row the page's script keeps in view when the
    order is taller than the screen (`d4cli.output.window`).
    """
    state = f"Round {view.round}" if view.round else "Not started"
    if view.turn is not None:
        now = f'<span class="now">Now: {escape(view.turn)}</span>'
    else:
        now = '<span class="now">Between turns</span>' if view.round else ""
    if view.next_turn is not None:
        now += f'<span class="next">Next: {escape(view.next_turn)}</span>'
    over = (
        f'<p class="over">The fight is over: {escape(view.winner)} wins</p>'
        if view.winner is not None
        else ""
    )
    warning = f'<p class="warning">{escape(UNREADABLE)}</p>' if unreadable else ""
    body = "".join(_row(view, creature) for creature in view.creatures)
    body = body or '<li class="empty">No creatures to show</li>'
    return (
        f"<header><h1>{escape(view.name) or 'Encounter'}</h1>"
        f'<div class="round">{state}</div><div class="turn">{now}</div></header>'
        f'{over}{warning}<ol class="order" data-focus="{_focus(view)}">{body}</ol>'
        f"{_feed(view.rolls)}"
    )


_STYLE = """
body{margin:0;background:#14161a;color:#f2f2f2;font:2.2vw/1.3 system-ui,sans-serif}
header{display:flex;gap:2em;align-items:baseline;padding:.6em 1em;background:#22262d}
h1{font-size:1.4em;margin:0;flex:1}.round{font-size:1.4em;font-weight:bold}.now{color:#ffd866}
.warning{background:#7a1f1f;margin:0;padding:.4em 1em}
ol.order{list-style:none;margin:0;padding:.4em 1em}
li.creature{display:flex;align-items:center;gap:.8em;padding:.35em .5em;border-radius:.3em;margin:.2em 0;background:#1c1f24}
li.current{background:#3b3413;outline:.12em solid #ffd866}
li.down .name{text-decoration:line-through;color:#888}
.marker{width:1.2em;color:#ffd866}.who{flex:1}.name{font-weight:bold;font-size:1.2em}
.evasion{color:#aaa;font-size:.8em}
.chips{display:flex;flex-wrap:wrap;gap:.3em}.chip{font-size:.7em;padding:.1em .5em;border-radius:1em}
.chip.advantage{background:#1f5130}.chip.disadvantage{background:#5a2323}
.headroom{font-size:.7em}.room{margin-right:.6em}.room.ok{color:#7bd88f}.room.zero{color:#ffd866}.room.no{color:#fc6a5d}
.hp{width:28%;text-align:right}.bar{height:.6em;background:#333;border-radius:.3em;overflow:hidden}
.fill{height:100%}.healthy .fill,.up .fill{background:#3fb950}.hurt .fill{background:#d29922}
.bloodied .fill{background:#f85149}.down .fill{background:#555}.hptext{font-size:.8em}
"""

_SCRIPT = """
const main = document.getElementById('view');
const source = new EventSource('/events');
source.onmessage = (event) => {
  const data = JSON.parse(event.data);
  main.innerHTML = data.html;
  document.body.dataset.seq = data.seq;
};
"""


def page_html(view: PublicView, *, unreadable: bool = False) -> str:
    """The whole page: `view_fragment` of *view*, the style and the script that follows ``/events``."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(view.name) or 'Encounter'}: player view</title><style>{_STYLE}</style></head>"
        f'<body><main id="view">{view_fragment(view, unreadable=unreadable)}</main>'
        f"<script>{_SCRIPT}</script></body></html>"
    )
