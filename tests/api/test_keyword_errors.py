"""A script's errors name what the script passed: `d4cli.api`'s keyword arguments and record
fields (``dc/evasion``, ``advantage``, ``extra``), never the command line's options."""

from __future__ import annotations

from pathlib import Path

import pytest

from d4cli.api import InputError, odds, rolls
from d4cli.api.add_sheets import AddSpec
from d4cli.api.encounter import Tracker
from d4cli.api.recap import recap_report
from d4cli.fight.sheet_check import SheetCheckRequest


@pytest.fixture
def skirmish(tmp_path: Path) -> Tracker:
    return Tracker.init(tmp_path / "skirmish.toml", template="skirmish")


def _raised(call) -> InputError:
    with pytest.raises(InputError) as caught:
        call()
    assert "--" not in str(caught.value)
    return caught.value


def test_a_pool_names_its_keywords() -> None:
    error = _raised(lambda: rolls.roll_pool(4, dc=5, evasion=3))
    assert (error.field, error.value) == ("dc/evasion", None)
    assert str(error) == "dc/evasion: give a DC or an Evasion, not both"

    error = _raised(lambda: rolls.roll_pool(4, ignore_load=True))
    assert error.field == "ignore_load" and error.mentions == ("gm",)
    assert str(error) == "ignore_load: only with gm: ignoring Load is for a GM-called roll (R9)"

    error = _raised(lambda: rolls.pool_plan(4, advantage=["torch", " "]))
    assert (error.field, error.value) == ("advantage", " ")
    assert _raised(lambda: rolls.roll_pool(4, disadvantage=[""])).field == "disadvantage"

    error = _raised(lambda: rolls.roll_pool(4, extra=["0d8"]))
    assert str(error) == "extra: '0d8': must roll at least one die"

    error = _raised(lambda: rolls.roll_pool(4, extra=["9999d4"], advantage=["torch"]))
    assert (error.field, error.value) == ("aspect/advantage/extra", 10_004)
    error = _raised(lambda: rolls.pool_plan(1000, advantage=[f"s{n}" for n in range(9_001)]))
    assert (error.field, error.value) == ("aspect/advantage", 10_001)
    # An Aspect beyond L1 is refused as such before it could size a pool (R3, L1).
    assert (
        str(_raised(lambda: rolls.pool_plan(10_001))) == "aspect: 10001: must be within -1000..1000"
    )
    assert str(_raised(lambda: rolls.roll_pool(4, cost=-1))) == "cost: -1: must be within 0..1000"
    assert _raised(lambda: rolls.roll_pool(4, load=1001)).field == "load"
    assert _raised(lambda: rolls.roll_pool(4, dc=10**6)).field == "dc"
    assert _raised(lambda: rolls.roll_pool(4, evasion=-5)).field == "evasion"


def test_a_check_names_its_keywords() -> None:
    error = _raised(lambda: rolls.roll_check(advantage_level=6))
    assert str(error) == "advantage_level: 6: must be within 0..5"
    with pytest.warns(DeprecationWarning, match="'advantage' is now 'advantage_level'"):
        error = _raised(lambda: rolls.roll_check(advantage=6))
    assert str(error) == "advantage_level: 6: must be within 0..5"
    assert _raised(lambda: rolls.roll_check(disadvantage=-1)).field == "disadvantage"
    error = _raised(lambda: odds.p_check_success(10, advantage_level=9))
    assert (error.field, error.value) == ("advantage_level", 9)


def test_odds_too_large_name_the_odds() -> None:
    plan = rolls.pool_plan(1, extra=[rolls.ExtraDice(361, 278)])
    error = _raised(lambda: odds.pool_odds(plan))
    assert (error.field, error.value) == ("odds", 100_001)


def test_an_act_names_its_keywords(skirmish: Tracker) -> None:
    error = _raised(lambda: skirmish.act("Aria", "Finesse", dc=5, target="Borin"))
    assert str(error) == "dc/target: give at most one of dc, target and evasion"
    assert error.mentions == ("dc", "target", "evasion")

    error = _raised(lambda: skirmish.act("Aria", "Finesse", target="Nobody"))
    assert (error.field, error.value) == ("target", "Nobody")

    error = _raised(lambda: skirmish.act("Aria", "Finesse", extra=["1d4", "1d"]))
    assert (error.field, error.value) == ("extra", "1d")


def test_a_team_action_and_an_effect_name_their_keywords(skirmish: Tracker) -> None:
    error = _raised(lambda: skirmish.team("Aria", "Borin", "advantage"))
    assert error.field == "aspect" and "say which one pays" in error.problem
    assert (
        _raised(
            lambda: skirmish.team("Aria", "Borin", "advantage", aspect="Might", source=" ")
        ).field
        == "source"
    )

    skirmish.effect_add("Borin", "bless", "disadvantage")
    error = _raised(
        lambda: skirmish.team("Aria", "Borin", "disadvantage", aspect="Might", source="bless")
    )
    assert error.field == "source" and str(error).endswith("name the grant otherwise with source")

    error = _raised(lambda: skirmish.effect_add("Aria", "haste", "advantage", rounds=2, uses=1))
    assert str(error) == "rounds/uses: give at most one duration"
    assert (
        _raised(lambda: skirmish.effect_add("Aria", "haste", "advantage", uses=0)).field == "uses"
    )
    error = _raised(lambda: skirmish.effect_add("Aria", "haste", "advantage", start_of="Nobody"))
    assert (error.field, error.value) == ("start_of", "Nobody")


def test_adding_creatures_names_the_spec(skirmish: Tracker) -> None:
    error = _raised(lambda: skirmish.add(AddSpec("Ogre")))
    assert str(error) == "aspects: Ogre needs at least one Aspect (aspects NAME=N)"

    error = _raised(lambda: skirmish.add(AddSpec("Ogre", (("Might", 3),), hp=10, max_hp=5)))
    assert str(error) == "hp: 10: is above max_hp 5 (R18)"
    error = _raised(lambda: skirmish.add(AddSpec("Ogre", (("Might", 3),), copies=500)))
    assert (error.field, error.value) == ("copies", 500)

    error = _raised(
        lambda: skirmish.add(AddSpec("Ogre", (("Might", 3),)), before="Aria", after="Borin")
    )
    assert str(error) == "before/after: give at most one of before and after"
    assert (
        _raised(lambda: skirmish.add(AddSpec("Ogre", (("Might", 3),)), after="Nobody")).field
        == "after"
    )

    spec = AddSpec("Ogre", (("Might", 3),), stats={"attributes": ["Strength=1,Agility=2"]})
    error = _raised(lambda: skirmish.add(spec))
    assert (error.where, error.field) == ("Ogre", "attributes")
    assert str(error).startswith(
        "Ogre: attributes: 'Strength=1,Agility=2': one NAME=N per attributes"
    )
    error = _raised(lambda: skirmish.add(AddSpec("Ogre", (("Might", 3),), side=" ")))
    assert (error.where, error.field) == ("Ogre", "side")

    assert _raised(lambda: skirmish.add(AddSpec("Ogre", like="Nobody"))).field == "like"


def test_sheets_and_turns_name_their_keywords(skirmish: Tracker) -> None:
    error = _raised(lambda: skirmish.check(SheetCheckRequest("Aria", attribute="Luck")))
    assert (error.field, error.value) == ("attribute", "Luck")
    error = _raised(lambda: skirmish.check(SheetCheckRequest("Aria", advantage_level=6)))
    assert (error.field, error.value) == ("advantage_level", 6)
    error = _raised(lambda: skirmish.check(SheetCheckRequest("Aria", disadvantage_sources=(" ",))))
    assert error.field == "disadvantage_sources"

    error = _raised(lambda: skirmish.action_add("Aria", {"name": "kick", "aspect": "Luck"}))
    assert (error.where, error.field, error.value) == ("Aria", "aspect", "Luck")
    assert str(error).startswith("Aria: aspect: 'Luck': no such Aspect")

    error = _raised(lambda: skirmish.move("Aria", "before", "Aria"))
    assert str(error) == "before: 'Aria': is Aria itself: name another creature"

    skirmish.add(AddSpec("Door", (("Might", 0),)))
    error = _raised(lambda: skirmish.heal("Door", 2))
    assert error.problem == "has no hp to heal (R16): give it hp with 'add {hp}' or in the file"
    assert (
        str(error)
        == "NAME: 'Door': has no hp to heal (R16): give it hp with 'add hp' or in the file"
    )


def test_files_and_history_name_their_keywords(tmp_path: Path, skirmish: Tracker) -> None:
    error = _raised(lambda: Tracker.init(skirmish.path, template="skirmish"))
    assert error.field == "force" and str(error).endswith("already exists; add force to replace it")
    assert (
        _raised(lambda: Tracker.init(tmp_path / "new.toml", template="nonesuch")).field
        == "template"
    )
    assert _raised(lambda: Tracker.init(tmp_path / "new.toml", mode="melee")).field == "mode"
    error = _raised(lambda: Tracker.init(tmp_path / "new.toml", round_reset="zero"))
    assert str(error) == "round_reset: 'zero': applies only in round mode (R12): add mode round"

    error = _raised(lambda: skirmish.status_at(999))
    assert (error.field, error.value) == ("seq", 999)
    error = _raised(lambda: recap_report(skirmish.path, 0, 0, 1))
    assert (error.field, error.value) == ("start_at", 0)


def test_the_library_refuses_the_numbers_the_command_line_refuses(skirmish: Tracker) -> None:
    # R3 and L1 hold at every door: what `--cost -3` or `damage Borin 1000000` is refused
    # with on the command line, a script is refused with too, the file left as it was.
    skirmish.turn_start()
    path = skirmish.path
    before = path.read_bytes(), Path(f"{path}.journal").read_bytes()
    cases = [
        (lambda: skirmish.act("Aria", "Finesse", cost=-3), "cost: -3: must be within 0..1000"),
        (
            lambda: skirmish.act("Aria", "Finesse", dc=10**7),
            "dc: 10000000: must be within -100000..100000",
        ),
        (
            lambda: skirmish.act("Aria", "Finesse", evasion=-5),
            "evasion: -5: must be within 0..100000",
        ),
        (
            lambda: skirmish.team("Borin", "Aria", "advantage", aspect="Wits", cost=-2),
            "cost: -2: must be within 0..1000",
        ),
        (lambda: skirmish.damage("Borin", 10**6), "amount: 1000000: must be within 0..100000"),
        (lambda: skirmish.heal("Borin", -1), "amount: -1: must be within 0..100000"),
    ]
    for call, message in cases:
        assert str(_raised(call)) == message
    assert (path.read_bytes(), Path(f"{path}.journal").read_bytes()) == before


def test_the_odds_name_their_own_parameters() -> None:
    assert (
        str(_raised(lambda: odds.p_pool_success(10_001, 5)))
        == "pool_size: 10001: must be within 1..10000"
    )
    assert _raised(lambda: odds.p_pool_success(0, 5)).field == "pool_size"
    assert _raised(lambda: odds.p_pool_success(4, 10**6)).field == "dc"
    assert (
        str(_raised(lambda: odds.expected_pool_damage(4, -3)))
        == "evasion: -3: must be within 0..100000"
    )
