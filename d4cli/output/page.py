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

from d4cli.fight.public_view import PublicCreature, PublicView
from d4cli.output.serialize.public_view import effect_left

# How full a label's bar is drawn: a label never gives away the number behind it.
LABEL_FILL = {"Healthy": 100, "Up": 100, "Hurt": 70, "Bloodied": 35, "Down": 0}
UNREADABLE = "The encounter file is unreadable just now; this is the last good view."


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
    if creature.headroom is None:
        return ""
    parts = "".join(
        f'<span class="room {"ok" if room >= 1 else "zero" if room == 0 else "no"}">{escape(aspect)} {room:+d}</span>'
        for aspect, room in creature.headroom
    )
    return f'<div class="headroom">{parts}</div>'


def view_fragment(view: PublicView, *, unreadable: bool = False) -> str:
    """The HTML of *view* (what the page's ``<main>`` holds); *unreadable*: say the file could not be read."""
    state = f"Round {view.round}" if view.round else "Not started"
    now = f"Now: {escape(view.turn)}" if view.turn is not None else "Between turns"
    if view.next_turn is not None:
        now += f" &middot; Next: {escape(view.next_turn)}"
    if view.winner is not None:
        now += f" &middot; The fight is over, won by {escape(view.winner)}"
    rows = []
    for creature in view.creatures:
        classes = ["creature"]
        if creature.current:
            classes.append("current")
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
        rows.append(
            f'<li class="{" ".join(classes)}"><span class="marker">{marker}</span>'
            f'<div class="who"><span class="name">{escape(creature.name)}</span>{evasion}'
            f"{_effects(creature, view.counts_from)}{_headroom(creature)}</div>{_hp(creature)}</li>"
        )
    warning = f'<p class="warning">{escape(UNREADABLE)}</p>' if unreadable else ""
    body = "".join(rows) or '<li class="empty">No creatures to show</li>'
    return (
        f"<header><h1>{escape(view.name) or 'Encounter'}</h1>"
        f'<div class="round">{state}</div><div class="now">{now}</div></header>'
        f'{warning}<ol class="order">{body}</ol>'
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
