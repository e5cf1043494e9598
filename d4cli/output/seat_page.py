"""A seat's web page (``/seat/TOKEN``): one HTML document, its style and script, no build step.

The document is a shell the script fills from ``/seat/TOKEN/view.json``: the seat's creature
(Aspects, headroom, Load, HP, effects, grants), the action being built (an Aspect or named
action, Cost, target, sources, extra dice) with its preview (pool, gate, exact odds), the
buttons **Roll** and **Enter my dice**, the seat's requests with their outcomes, and the
table. It holds no name and no token: every text the script shows is set as text
(``textContent``), never parsed as markup. Nothing is inline, for the page's
Content-Security-Policy ``default-src 'self'``; the assets are package data of
`d4cli.output`, served at ``/seat-assets/NAME``.
"""

from __future__ import annotations

from importlib.resources import files

SEAT_ASSETS = ("seat.css", "seat.js")
ASSETS_PATH = "/seat-assets/"

_FORM = """
<form id="action" novalidate autocomplete="off">
 <label for="aspect">Aspect or action</label><select id="aspect" name="aspect"></select>
 <div class="pair">
  <div><label for="cost">Cost</label><input id="cost" name="cost" type="number" inputmode="numeric" min="0" step="1" value="1"></div>
  <div><label for="target">Target</label><select id="target" name="target"><option value="">no target</option></select></div>
 </div>
 <label for="advantage">Advantage from</label><input id="advantage" name="advantage" placeholder="high ground, torch">
 <label for="disadvantage">Disadvantage from</label><input id="disadvantage" name="disadvantage" placeholder="smoke">
 <label for="extra">Extra dice</label><input id="extra" name="extra" placeholder="1d6" autocapitalize="off">
 <div id="preview" class="preview" aria-live="polite"></div>
 <div id="faces" class="faces" hidden></div>
 <p id="error" class="error" role="alert" hidden></p>
 <div class="buttons">
  <button type="button" id="roll">Roll</button>
  <button type="button" id="enter" class="second">Enter my dice</button>
  <button type="button" id="send" hidden>Send my dice</button>
 </div>
</form>"""


def seat_page_html() -> str:
    """The seat's page: the shell (`_FORM` and its sections), linking ``seat.css`` and ``seat.js``."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f'<title>Your seat</title><link rel="stylesheet" href="{ASSETS_PATH}seat.css"></head>'
        '<body><main id="seat">'
        '<header id="me"><h1 id="me-name">Your seat</h1><p id="me-state" class="state"></p>'
        '<div id="me-aspects" class="aspects"></div><div id="me-effects" class="chips"></div></header>'
        f'<section id="build" aria-label="Build an action">{_FORM}</section>'
        '<section id="result" class="result" aria-live="polite" hidden></section>'
        '<section aria-label="Your requests"><h2>Your requests</h2><ol id="requests" class="requests"></ol></section>'
        '<section aria-label="The table"><h2 id="table-head">The table</h2><ol id="table" class="table"></ol></section>'
        f'</main><script src="{ASSETS_PATH}seat.js"></script></body></html>'
    )


def seat_asset(name: str) -> bytes:
    """The bytes of ``seat.css`` or ``seat.js`` (package data of `d4cli.output`).

    Raises:
        KeyError: any other *name* (the server answers 404; no name reaches the file system).
    """
    if name not in SEAT_ASSETS:
        raise KeyError(name)
    return files("d4cli.output").joinpath("assets", name).read_bytes()
