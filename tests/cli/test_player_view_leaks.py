"""A property: no string the GM hides ever reaches a player's output.

It builds random encounters whose every string is a unique marker, hides some (hidden
creatures, the real names behind aliases, notes, GM-only effects, foes' Aspects) and checks
that none of the hidden markers appears in any player output: the view's JSON, the players'
board as text at 80 and 120 columns, the HTML page, and every answer of the server (``/``,
``/view.json``, the ``/events`` message, a 404 and a 405), readable file or not. The journal's
rolls go into the roll feed too: every creature rolls (a hidden one's roll, a hidden target, a
foe's Aspect, an Evasion not shown, a DC without ``dc_shown``, a check's note must never show;
the numbers are unique five-digit markers).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import FEED_SIZE, PublicRoll, public_rolls, public_view
from d4cli.fight.view_settings import PlayerView
from d4cli.journal.entry import logged_rolls
from d4cli.output.serialize.public_view_json import public_view_json

MARK = st.text(alphabet="abcdefghjkmnpqrstuvwxyz", min_size=6, max_size=10)


def feed(entries: list, encounter, size: int = FEED_SIZE) -> tuple[PublicRoll, ...]:
    """The roll feed of journal *entries* (read by the journal's home) on *encounter*."""
    return public_rolls(logged_rolls(entries), encounter, size)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[Encounter, set[str]]:
    """A random encounter whose strings are unique markers, and the markers the players must never see
    (its journal's rolls: `fights`)."""
    count = draw(st.integers(1, 6))
    marks = draw(st.lists(MARK, min_size=count * 6 + 2, max_size=count * 6 + 2, unique=True))
    # No marker inside another (or inside a fixed word of the output): a leak check by substring is exact.
    marks = [f"Q{index}Z{mark}X" for index, mark in enumerate(marks)]
    pool = iter(marks)
    secrets: set[str] = set()
    creatures = []
    names = [next(pool) for _ in range(count)]
    hidden_flags = [draw(st.booleans()) for _ in range(count)]
    for position, name in enumerate(names):
        hidden = hidden_flags[position]
        alias = next(pool) if draw(st.booleans()) else ""
        notes = next(pool)
        party = draw(st.booleans())
        aspect = next(pool)
        public_source, secret_source = next(pool), next(pool)
        secrets.add(notes)
        secrets.add(secret_source)
        if hidden:
            secrets.update({name, alias, aspect, public_source} - {""})
        elif alias:
            secrets.add(name)
        if not party and not hidden:
            secrets.add(aspect)  # a foe's stats are never shown
        timed = names[draw(st.integers(0, count - 1))]
        ends = draw(st.sampled_from(["start", "end", "rounds", "uses", "removed"]))
        public_effect = Effect(
            public_source,
            draw(st.sampled_from(["advantage", "disadvantage"])),
            draw(st.sampled_from(["own", "against"])),
            ends,
            creature=timed if ends in ("start", "end") else None,
            last_round=3 if ends == "rounds" else None,
            uses=2 if ends == "uses" else None,
        )
        evasion_shown = draw(st.booleans())
        if hidden or not evasion_shown:
            secrets.add(str(80000 + position))
        hp = draw(st.none() | st.integers(0, 40))
        max_hp = None if hp is None else draw(st.none() | st.integers(hp, 60))
        creatures.append(
            Creature(
                name,
                ((aspect, draw(st.integers(-5, 9))),),
                load=draw(st.integers(-2, 6)),
                hp=hp,
                max_hp=max_hp,
                side="party" if party else "foes",
                notes=notes,
                hidden=hidden,
                alias=alias,
                hp_shown=draw(st.sampled_from([None, "exact", "label", "none"])),
                evasion=80000 + position,
                evasion_shown=evasion_shown,
                had_turn=draw(st.booleans()),
                effects=(public_effect, Effect(secret_source, "disadvantage", public=False)),
            )
        )
    current = draw(st.none() | st.sampled_from(names))
    dc_shown = draw(st.booleans())
    encounter = Encounter(
        next(pool),
        round=draw(st.integers(1, 9)),
        current=current,
        last_turn=current,
        creatures=tuple(creatures),
        player_view=PlayerView(dc_shown=dc_shown),
    )
    return encounter, secrets


@st.composite
def fights(draw: st.DrawFn) -> tuple[Encounter, list[dict[str, object]], set[str]]:
    """A random encounter (`encounters`), its journal's rolls, and what the players must never see."""
    encounter, secrets = draw(encounters())
    names = [creature.name for creature in encounter.creatures]
    entries: list[dict[str, object]] = []
    for seq, creature in enumerate(encounter.creatures, start=2):
        target = draw(st.none() | st.sampled_from(names))
        dc = 90000 + seq
        if not (encounter.player_view and encounter.player_view.dc_shown):
            secrets.add(str(dc))
        by_name = {c.name: c for c in encounter.creatures}
        aspect = creature.aspects[0][0]
        if draw(st.booleans()):
            entries.append(
                {
                    "seq": seq,
                    "kind": "act",
                    "round": 1,
                    "actor": creature.name,
                    "target": target,
                    "aspect_name": aspect,
                    "action": None,
                    "dice": [2, 3],
                    "extra": [{"notation": "1d6", "dice": [4]}],
                    "total": 9,
                    "dc": dc if target is None else None,
                    "evasion": None if target is None else by_name[target].evasion,
                    "damage": 0,
                    "outcome": "no-damage" if target else "failure",
                }
            )
        else:
            entries.append(
                {
                    "seq": seq,
                    "kind": "check",
                    "round": 1,
                    "actor": creature.name,
                    "attribute_name": aspect,
                    "natural": 11,
                    "advantage_dice": [3],
                    "total": 14,
                    "dc": dc,
                    "outcome": "success",
                    "critical": None,
                    "note": creature.notes,
                }
            )
    return encounter, entries, secrets


def player_outputs(
    encounter: Encounter, entries: list[dict[str, object]] | None = None
) -> dict[str, str]:
    """Every player output of *encounter* with the roll feed of *entries*: JSON, the players' board
    at 80 and 120 columns, the page, and each body of the server (its page, ``/view.json`` and its event, with the file readable or not)."""
    from d4cli.output.page import page_html
    from d4cli.output.render.board_frame import frame_text
    from d4cli.output.render.players_board import players_frame
    from d4cli.web.broadcast import snapshot

    view = public_view(encounter, feed(entries or [], encounter))
    outputs = {
        "json": json.dumps(public_view_json(view), ensure_ascii=False),
        "board80": frame_text(players_frame(view, 60, 80), 80),
        "board120": frame_text(players_frame(view, 24, 120, unreadable=True), 120),
        "html": page_html(view),
    }
    for shown in (view, None):
        bodies = snapshot(shown, 3)
        outputs[f"page {shown is None}"] = bodies.page.decode("utf-8")
        outputs[f"view.json {shown is None}"] = bodies.json.decode("utf-8")
        outputs[f"event {shown is None}"] = bodies.event.decode("utf-8")
    return outputs


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(fights())
def test_no_hidden_string_reaches_any_player_output(
    case: tuple[Encounter, list[dict[str, object]], set[str]],
):
    encounter, entries, secrets = case
    outputs = player_outputs(encounter, entries)
    for where, text in outputs.items():
        leaked = sorted(secret for secret in secrets if secret in text)
        assert leaked == [], where
    # Structure too: only visible creatures, label-only HP without numbers, headroom for the party only.
    obj = json.loads(outputs["json"])
    visible = [creature for creature in encounter.creatures if not creature.hidden]
    assert len(obj["creatures"]) == len(visible)
    for shown, creature in zip(obj["creatures"], visible):
        display = PlayerView().hp_shown(creature.side, creature.hp_shown)
        assert (shown["hp"] is not None) == (display == "exact" and creature.hp is not None)
        assert (shown["headroom"] is not None) == (creature.side == "party")
        assert (shown["evasion"] is not None) == creature.evasion_shown
        assert len(shown["effects"]) == 1
    # The feed: one roll per visible creature, by its public name, none of a hidden one.
    assert [roll["actor"] for roll in obj["rolls"]] == [
        creature.alias or creature.name for creature in visible
    ][-6:]


def test_the_check_would_catch_a_leak():
    """The GM's board shows what the players' outputs must not: the same check finds it there."""
    from d4cli.output.render.board_frame import frame_text, gm_frame

    encounter = Encounter(
        creatures=(
            Creature("QsecretZ", (("Might", 1),), hidden=True),
            Creature("Aria", (("Might", 1),)),
        )
    )
    assert "QsecretZ" in frame_text(gm_frame(encounter, []), 80)
    assert all("QsecretZ" not in text for text in player_outputs(encounter).values())
