"""The players' roll feed (`d4cli.fight.players_view`) with real values: what each roll shows, and what never."""

from __future__ import annotations

from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.players_view import FEED_SIZE, PublicRoll, public_rolls
from d4cli.fight.view_settings import PlayerView
from d4cli.journal.entry import logged_rolls
from d4cli.output.rolltext import roll_line


def feed(entries: list, encounter, size: int = FEED_SIZE) -> tuple[PublicRoll, ...]:
    """The roll feed of journal *entries* (read by the journal's home) on *encounter*."""
    return public_rolls(logged_rolls(entries), encounter, size)


def _c(name: str, side: str, **fields: object) -> Creature:
    return Creature(name, (("Finesse", 4),), side=side, **fields)  # type: ignore[arg-type]


ENCOUNTER = Encounter(
    "Mill",
    round=2,
    creatures=(
        _c("Aria", "party", hp=12, max_hp=12, evasion=11, evasion_shown=True),
        _c("Goblin Archer", "foes", hp=4, max_hp=7, evasion=10, alias="Goblin 2"),
        _c("Ogre", "foes", hp=20, max_hp=20, evasion=8, evasion_shown=True, hp_shown="exact"),
        _c("Shade", "foes", hp=9, evasion=13, hidden=True),
    ),
)


def _act(seq: int, actor: str, target: str | None, **fields: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "seq": seq,
        "kind": "act",
        "round": 2,
        "actor": actor,
        "target": target,
        "aspect_name": "Finesse",
        "action": None,
        "dice": [2, 3, 1, 4],
        "extra": [{"notation": "1d4", "dice": [3], "modifier": 0}],
        "total": 13,
        "dc": None,
        "evasion": 10,
        "damage": 3,
        "outcome": "damage",
        "dry_run": False,
    }
    entry.update(fields)
    return entry


CHECK = {
    "seq": 9,
    "kind": "check",
    "round": 2,
    "actor": "Aria",
    "attribute_name": "Agility",
    "proficiency_name": "Stealth",
    "specialization_name": None,
    "natural": 14,
    "advantage_dice": [5],
    "total": 19,
    "dc": 15,
    "outcome": "success",
    "critical": None,
    "note": "QsecretnoteZ",
}


def test_the_party_sees_its_own_steps_and_an_alias_for_the_target():
    (roll,) = feed([_act(4, "Aria", "Goblin Archer")], ENCOUNTER)
    assert roll_line(roll) == "Aria: Finesse; dice 2 3 1 4; 1d4: 3; total 13; vs Goblin 2; hit"
    # Goblin 2's Evasion is not shown, nor the damage (its HP is a label)
    assert (roll.evasion, roll.damage, roll.target) == (None, None, "Goblin 2")


def test_a_shown_evasion_and_exact_hp_show_the_damage():
    (roll,) = feed([_act(5, "Aria", "Ogre", evasion=8, damage=5)], ENCOUNTER)
    assert roll_line(roll).endswith("total 13; vs Ogre, Evasion 8; 5 damage")


def test_a_foes_roll_shows_only_its_total_and_how_it_ended():
    (roll,) = feed(
        [_act(6, "Goblin Archer", "Aria", aspect_name="Finesse", evasion=11, damage=2)], ENCOUNTER
    )
    assert roll_line(roll) == "Goblin 2: total 13; vs Aria, Evasion 11; 2 damage"
    assert (roll.dice, roll.extra, roll.using, roll.party) == (None, None, (), False)


def test_a_hidden_creatures_roll_is_left_out_and_a_hidden_target_is_not_named():
    entries = [_act(7, "Shade", "Aria"), _act(8, "Aria", "Shade", evasion=13, damage=0)]
    (roll,) = feed(entries, ENCOUNTER)
    assert roll.seq == 8
    assert roll_line(roll) == "Aria: Finesse; dice 2 3 1 4; 1d4: 3; total 13"
    assert (roll.target, roll.evasion, roll.outcome, roll.damage) == (None, None, None, None)


def test_a_dc_only_where_dc_shown():
    (hidden_dc,) = feed([CHECK], ENCOUNTER)
    assert roll_line(hidden_dc) == (
        "Aria: Agility + Stealth check; d20 14; Advantage dice 5; total 19; success"
    )
    shown = ENCOUNTER._replace(player_view=PlayerView(dc_shown=True))
    (with_dc,) = feed([CHECK], shown)
    assert roll_line(with_dc).endswith("total 19; vs DC 15; success")
    assert "QsecretnoteZ" not in repr(with_dc)


def test_other_kinds_dry_runs_removed_creatures_and_old_rolls_are_left_out():
    entries = [
        {"seq": 1, "kind": "damage", "actor": "Aria"},
        _act(2, "Aria", None, dry_run=True),
        _act(3, "Wolf", "Aria"),
        *(_act(seq, "Aria", None) for seq in range(10, 20)),
    ]
    shown = feed(entries, ENCOUNTER)
    assert [roll.seq for roll in shown] == [14, 15, 16, 17, 18, 19]
    assert [roll.seq for roll in feed(entries, ENCOUNTER, size=2)] == [18, 19]


def test_a_graded_and_a_critical_check_say_so():
    graded = {**CHECK, "outcome": "success-and"}
    critical = {**CHECK, "seq": 10, "natural": 20, "critical": "success", "total": 25}
    first, second = feed([graded, critical], ENCOUNTER)
    assert roll_line(first).endswith("total 19; success, and...")
    assert roll_line(second).endswith("d20 20; Advantage dice 5; total 25; critical success")
