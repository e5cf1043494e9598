"""One effect per source name (R4, R11, R20) and GM-called rolls (R9, R18) through the commands:
``effect add`` and ``team`` under a name held with the other grant, ``act --gm`` of a down
creature, and how ``act``, ``log``, ``status`` and ``recap`` show a GM-called roll."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from _cli import fails, files, ok, ok_json, run


@pytest.fixture
def trio() -> Path:
    """A, B, C (Might 3, hp 5, Load -1; A with the Attribute Strength 1); round 1, A's turn."""
    ok("init")
    ok("add", "A", "--aspect", "Might=3", "--hp", "5", "--attribute", "Strength=1")
    ok("add", "B", "--aspect", "Might=3", "--hp", "5")
    ok("add", "C", "--aspect", "Might=3", "--hp", "5")
    ok("turn", "start")
    return Path(os.environ["D4CLI_FILE"])


def effects_of(name: str) -> list[tuple[str, str, str]]:
    creature = next(c for c in ok_json("status")["creatures"] if c["name"] == name)
    return [(e["source"], e["grant"], e["origin"]) for e in creature["effects"]]


# --- e. R20, R11: one effect per source name ------------------------------------------------------


def test_r20_effect_add_of_the_other_grant_under_a_paid_grants_name_is_refused(trio):
    assert ok_json("team", "B", "A", "--adv")["allowed"] is True
    line = fails(2, trio, "effect", "add", "A", "team action", "--dis")
    assert line == (
        "d4cli: error: SOURCE: 'team action': A already has 'team action' (advantage, a Team "
        "Action grant); a creature holds one effect per source name (R4, R20), and this one "
        "grants disadvantage: remove that one first, or give this one another name"
    )
    assert effects_of("A") == [("team action", "advantage", "team-action")]


def test_r20_effect_add_of_the_same_grant_replaces_the_paid_grant(trio):
    ok("team", "B", "A", "--adv")
    added = ok_json("effect", "add", "A", "Team Action", "--adv", "--rounds", "2")
    assert added["replaced"]["origin"] == "team-action"
    assert effects_of("A") == [("Team Action", "advantage", "effect")]
    assert ok_json("status")["creatures"][0]["pending"] == {"advantage": [], "disadvantage": []}


@pytest.mark.parametrize("second", [("--dis", "--against"), ("--dis",)])
def test_r20_the_other_grant_under_an_against_effects_name_is_refused(trio, second):
    ok("effect", "add", "A", "prone", "--adv", "--against")
    line = fails(2, trio, "effect", "add", "A", "Prone", *second)
    assert line.startswith(
        "d4cli: error: SOURCE: 'Prone': A already has 'prone' (advantage, against);"
    )
    replaced = ok_json("effect", "add", "A", "PRONE", "--adv", "--against", "--rounds", "1")
    assert replaced["replaced"]["source"] == "prone"
    assert effects_of("A") == [("PRONE", "advantage", "effect")]


@pytest.mark.parametrize("dry_run", [(), ("--dry-run",)])
def test_r11_r20_team_of_the_other_kind_under_an_existing_grants_name_is_refused(trio, dry_run):
    ok("team", "B", "A", "--adv")
    line = fails(2, trio, "team", "C", "A", "--dis", *dry_run)
    assert line.startswith(
        "d4cli: error: --source: 'team action': A already has 'team action' (advantage, a Team "
        "Action grant); a creature holds one effect per source name (R4, R20)"
    )
    assert ok_json("status")["creatures"][2]["load"] == -1  # C paid nothing


def test_r11_r20_team_of_the_other_kind_than_a_lasting_effect_of_that_name_is_refused(trio):
    ok("effect", "add", "A", "flanking", "--dis")
    line = fails(2, trio, "team", "B", "A", "--adv", "--source", "Flanking")
    assert "A already has 'flanking' (disadvantage);" in line
    assert effects_of("A") == [("flanking", "disadvantage", "effect")]


def test_r11_team_of_the_same_kind_and_name_still_counts_once(trio):
    ok("team", "B", "A", "--adv")
    again = ok_json("team", "C", "A", "--adv")
    assert (again["allowed"], again["load_after"]) == (True, 0)
    assert effects_of("A") == [("team action", "advantage", "team-action")]


# --- f. R9, R18: a down creature may be called to roll, as it may make a check -------------------


def test_r9_r18_act_gm_of_a_down_creature_is_allowed_like_check(trio):
    ok("damage", "A", "5")
    rolled = ok_json("act", "A", "Might", "--gm", "--dc", "6", "--seed", "1")
    assert (rolled["allowed"], rolled["actor_down"], rolled["gm_called"]) == (True, False, True)
    assert (rolled["pool_size"], len(rolled["dice"]), rolled["total"]) == (
        3,
        3,
        sum(rolled["dice"]),
    )
    assert (rolled["load_before"], rolled["load_after"], rolled["cost"]) == (-1, -1, 0)
    assert ok_json("check", "A", "--attribute", "Strength", "--seed", "1")["actor"] == "A"
    human = ok("act", "A", "Might", "--gm", "--seed", "1").stdout
    assert human.startswith("A: Might (GM-called, R9)\n")
    # Acting of its own, a down creature is still refused (R18).
    refused = run("act", "A", "Might", "--json")
    assert (refused.exit_code, refused.json()["actor_down"]) == (3, True)


# --- 8. R9: a GM-called roll is not a reaction ------------------------------------------------------


def test_r9_act_gm_off_the_actors_turn_is_gm_called_not_a_reaction(trio):
    rolled = ok_json("act", "B", "Might", "--gm", "--seed", "2")
    assert (rolled["gm_called"], rolled["off_turn"], rolled["cost"]) == (True, False, 0)
    assert rolled["load_before"] == rolled["load_after"] == -1
    human = ok("act", "B", "Might", "--gm", "--seed", "2").stdout
    assert human.splitlines()[0] == "B: Might (GM-called, R9)"
    assert "off-turn" not in human and "R10" not in human
    short = ok("act", "B", "Might", "--gm", "--seed", "2", "--short").stdout
    assert short.startswith("B Might (GM-called R9, no Cost): 3d4 (")
    reaction = ok_json("act", "B", "Might", "--seed", "2")
    assert (reaction["gm_called"], reaction["off_turn"], reaction["cost"]) == (False, True, 1)


def test_r9_log_and_status_show_a_gm_called_roll_as_such(trio):
    ok("act", "B", "Might", "--gm", "--seed", "2")
    line = ok("log", "--last", "1").stdout
    assert " B Might (GM-called R9, no Cost): 3d4 (" in line
    assert "off-turn" not in line and "Cost 1" not in line
    entry = ok_json("log", "--last", "1")["entries"][0]
    assert (entry["kind"], entry["gm_called"], entry["off_turn"], entry["cost"]) == (
        "act",
        True,
        False,
        0,
    )
    b = ok_json("status")["creatures"][1]
    assert (b["load"], b["headroom"]) == (-1, {"Might": 4})


def test_r9_recap_counts_gm_called_rolls_apart(trio):
    ok("act", "A", "Might", "--seed", "1")  # A's own turn
    ok("act", "B", "Might", "--gm", "--seed", "2")
    ok("act", "B", "Might", "--seed", "3")  # a reaction (R10)
    ok("act", "C", "Might", "--gm", "--seed", "4")
    report = ok_json("recap", "--runs", "0")
    figures = {
        c["name"]: (c["actions_on_turn"], c["actions_off_turn"], c["gm_called"], c["load_spent"])
        for c in report["creatures"]
    }
    assert figures == {"A": (1, 0, 0, 1), "B": (0, 1, 1, 1), "C": (0, 0, 1, 0)}
    markdown = ok("recap", "--runs", "0", "--format", "markdown").stdout
    assert "| actions on/off turn | GM-called (R9) | Team Actions |" in markdown
    assert "| B | 0 | 0 | 0 / 1 | 1 | 0 | 1 |" in markdown
    rows = list(csv.DictReader(io.StringIO(ok("recap", "--runs", "0", "--format", "csv").stdout)))
    assert {(r["creature"], r["value"]) for r in rows if r["figure"] == "gm_called"} == {
        ("A", "0"),
        ("B", "1"),
        ("C", "1"),
    }
    wide = run("recap", "--runs", "0", env={"COLUMNS": "160"}).stdout
    assert "GM-called (R9)" in wide


def test_r9_recap_without_gm_called_rolls_has_no_such_column(trio):
    ok("act", "A", "Might", "--seed", "1")
    before = files(trio)
    markdown = ok("recap", "--runs", "0", "--format", "markdown").stdout
    assert "GM-called" not in markdown
    assert [c["gm_called"] for c in ok_json("recap", "--runs", "0")["creatures"]] == [0, 0, 0]
    assert files(trio) == before
