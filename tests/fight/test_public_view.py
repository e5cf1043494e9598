"""The player view (`d4cli.fight.players_view`) and its JSON, pinned with real values.

That nothing hidden ever leaks, into any output, is the property of tests/cli/test_player_view_leaks.py.
"""

from __future__ import annotations

import json

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import hp_label, public_view
from d4cli.fight.view_settings import PlayerView
from d4cli.output.serialize.public_view_json import public_view_json


def _creature(name: str, **fields: object) -> Creature:
    return Creature(name, (("Might", 3),), **fields)  # type: ignore[arg-type]


def test_hp_labels_follow_hp_and_max_hp():
    assert [hp_label(hp, 10) for hp in (10, 9, 6, 5, 1, 0)] == [
        "Healthy",
        "Hurt",
        "Hurt",
        "Bloodied",
        "Bloodied",
        "Down",
    ]
    assert [hp_label(hp, None) for hp in (7, 0)] == ["Up", "Down"]
    assert hp_label(None, None) is None
    assert hp_label(3, 7) == "Bloodied" and hp_label(4, 7) == "Hurt"


def test_the_skirmish_with_a_hidden_foe_an_alias_and_a_gm_only_effect():
    encounter = Encounter(
        "Mill",
        round=2,
        current="Aria",
        creatures=(
            _creature(
                "Aria",
                side="party",
                hp=9,
                max_hp=12,
                load=1,
                evasion=11,
                effects=(
                    Effect("blessed", ends="rounds", last_round=3),
                    Effect("cursed", "disadvantage", public=False),
                ),
            ),
            _creature(
                "Goblin Archer",
                side="foes",
                hp=3,
                max_hp=7,
                alias="Goblin 2",
                notes="flees at 2 hp",
                evasion=12,
            ),
            _creature("Goblin Shaman", side="foes", hp=5, hidden=True),
            _creature(
                "Ogre",
                side="foes",
                hp=20,
                evasion=8,
                evasion_shown=True,
                hp_shown="none",
                had_turn=True,
            ),
        ),
    )
    obj = public_view_json(public_view(encounter))
    assert obj == {
        "kind": "player-view",
        "name": "Mill",
        "round": 2,
        "turn": "Aria",
        "next": "Goblin 2",
        "fight_over": None,
        "odds": None,
        "creatures": [
            {
                "name": "Aria",
                "party": True,
                "current": True,
                "had_turn": False,
                "down": False,
                "hp": 9,
                "max_hp": 12,
                "hp_label": "Hurt",
                "evasion": None,
                "effects": [
                    {
                        "source": "blessed",
                        "grant": "advantage",
                        "on": "own",
                        "left": "2 rounds left (until the end of round 3)",
                    }
                ],
                "headroom": {"Might": 2},
            },
            {
                "name": "Goblin 2",
                "party": False,
                "current": False,
                "had_turn": False,
                "down": False,
                "hp": None,
                "max_hp": None,
                "hp_label": "Bloodied",
                "evasion": None,
                "effects": [],
                "headroom": None,
            },
            {
                "name": "Ogre",
                "party": False,
                "current": False,
                "had_turn": True,
                "down": False,
                "hp": None,
                "max_hp": None,
                "hp_label": None,
                "evasion": 8,
                "effects": [],
                "headroom": None,
            },
        ],
        "rolls": [],
    }
    text = json.dumps(obj)
    for secret in ("Goblin Shaman", "Goblin Archer", "cursed", "flees"):
        assert secret not in text


def test_a_hidden_creatures_turn_names_nobody_nor_says_a_turn_runs_and_effects_timed_to_it_say_so():
    encounter = Encounter(
        round=1,
        current="Shade",
        creatures=(
            _creature(
                "Aria",
                effects=(
                    Effect("dazzled", "disadvantage", ends="start", creature="Shade"),
                    Effect("marked", ends="end", creature="Wolf"),
                ),
            ),
            _creature("Shade", hidden=True),
            _creature("Wolf", alias="Grey beast"),
        ),
    )
    view = public_view(encounter)
    assert (view.turn, view.next_turn) == (None, "Aria")
    assert "hidden_turn" not in public_view_json(view)
    from d4cli.output.serialize.public_view_json import effect_left

    assert [effect_left(effect, view.counts_from) for effect in view.creatures[0].effects] == [
        "until the start of a hidden creature's turn",
        "until the end of Grey beast's turn",
    ]


def test_label_hp_without_max_hp_never_shows_the_number():
    view = public_view(Encounter(creatures=(_creature("Troll", hp=37), _creature("Husk", hp=0))))
    assert [(c.hp, c.hp_label, c.down) for c in view.creatures] == [
        (None, "Up", False),
        (None, "Down", True),
    ]


def test_player_view_defaults_come_from_the_file_table():
    settings_ = PlayerView(party="heroes", party_hp="label", others_hp="exact")
    encounter = Encounter(
        player_view=settings_,
        creatures=(
            _creature("Aria", side="Heroes", hp=5, max_hp=10),
            _creature("Orc", side="foes", hp=4),
        ),
    )
    aria, orc = public_view(encounter).creatures
    assert (aria.party, aria.hp, aria.hp_label, aria.headroom) == (
        True,
        None,
        "Bloodied",
        (("Might", 3),),
    )
    assert (orc.party, orc.hp, orc.hp_label, orc.headroom) == (False, 4, "Up", None)


def test_a_hidden_turn_runs_while_a_hidden_creature_acts_and_until_a_visible_one_does():
    from d4cli.fight.players_view import hidden_turn

    creatures = (_creature("Aria"), _creature("Shade", hidden=True))
    assert hidden_turn(Encounter(current="Shade", last_turn="Shade", creatures=creatures))
    assert hidden_turn(Encounter(current=None, last_turn="shade", creatures=creatures))  # N1
    assert not hidden_turn(Encounter(current="Aria", last_turn="Aria", creatures=creatures))
    assert not hidden_turn(Encounter(current=None, last_turn="Aria", creatures=creatures))
    assert not hidden_turn(Encounter(creatures=creatures))  # before round 1
