"""What the features merged side by side must agree on: journal kinds, sheets in JSON and log,
the named action of an act, effects naming creatures, labels, exact CSV grids, parsers.

conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest
from _cli import ok, ok_json, run

# --- journal kinds: one place ------------------------------------------------------------------


def test_every_record_takes_its_kind_from_the_one_list():
    from d4cli.fight import actions, sheet_check, team, visibility
    from d4cli.fight import closed_sets as kinds
    from d4cli.fight import events as records
    from d4cli.output.render.logtext import LOG_KINDS

    classes = [
        records.AddEvent,
        records.MoveEvent,
        records.RemoveEvent,
        records.TurnStartEvent,
        records.TurnEndEvent,
        records.ExhaustEvent,
        records.EffectEvent,
        records.DamageEvent,
        records.HealEvent,
        records.NoteEvent,
        actions.ActRecord,
        team.TeamRecord,
        sheet_check.CheckRecord,
        visibility.RevealEvent,
        visibility.ConcealEvent,
        visibility.AliasEvent,
        records.SetEvent,
        records.NextEvent,
    ]
    # A record's kind: a class attribute, or (a NamedTuple) a property that returns a constant.
    record_kinds = {
        cls.kind.fget(None) if isinstance(cls.kind, property) else cls.kind for cls in classes
    }
    record_kinds |= {kinds.ACTION_ADD, kinds.ACTION_REMOVE, kinds.INIT}
    assert LOG_KINDS is kinds.LOG_KINDS
    assert record_kinds == set(LOG_KINDS)
    assert len(LOG_KINDS) == len(set(LOG_KINDS)) == 21


def test_log_kind_lists_every_kind_the_journal_can_hold():
    ok("init", "--from", "skirmish")
    result = run("log", "--kind", "nonsense")
    assert result.exit_code == 2
    from d4cli.fight.closed_sets import LOG_KINDS

    assert "the kinds are " + ", ".join(LOG_KINDS) in result.stderr


def test_each_kind_of_change_is_accepted_by_log_kind():
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    ok("check", "Aria", "--attribute", "Agility", "--seed", "1")
    ok("action", "add", "Aria", "lunge", "--aspect", "Finesse", "--cost", "2")
    ok("effect", "add", "Borin", "blessed", "--adv", "--rounds", "1")
    for kind in ("check", "action-add", "effect", "turn-start", "init"):
        entries = ok_json("log", "--kind", kind)["entries"]
        assert [entry["kind"] for entry in entries] == [kind], kind


# --- sheets in status, add, act ---------------------------------------------------------------


def test_status_name_shows_the_notes_and_status_json_carries_them(tmp_path: Path):
    ok("init")
    ok("add", "Aria", "--aspect", "Might=2")
    path = tmp_path / "encounter.toml"
    path.write_text(
        path.read_text().replace('name = "Aria"', 'name = "Aria"\nnotes = "owes Borin a drink"', 1)
    )
    assert "owes Borin a drink" in ok("status", "Aria").stdout
    assert ok_json("status", "Aria")["notes"] == "owes Borin a drink"
    assert [c["notes"] for c in ok_json("status")["creatures"]] == ["owes Borin a drink"]


def test_add_json_and_log_line_list_side_and_stats():
    ok("init")
    obj = ok_json(
        "add",
        "Aldric",
        "--aspect",
        "Might=3",
        "--attribute",
        "Willpower=2",
        "--proficiency",
        "Discipline=1",
        "--side",
        "party",
    )
    assert (obj["side"], obj["attributes"], obj["proficiencies"], obj["specializations"]) == (
        "party",
        {"Willpower": 2},
        {"Discipline": 1},
        {},
    )
    plain = ok_json("add", "Bob", "--aspect", "Might=1")
    assert (plain["side"], plain["attributes"]) == (None, {})
    (entry,) = ok_json("log", "--kind", "add", "--last", "2")["entries"][:1]
    assert entry["side"] == "party" and entry["attributes"] == {"Willpower": 2}
    line = ok("log", "--kind", "add").stdout.splitlines()[0]
    assert line.endswith("; side party; Attributes Willpower 2; Proficiencies Discipline 1")


def test_act_json_names_the_named_action_and_null_for_an_aspect():
    ok("init", "--from", "skirmish")
    ok("turn", "start")
    named = ok_json("act", "Aria", "DAGGER", "--seed", "1")
    assert (named["action"], named["aspect_name"]) == ("dagger", "Finesse")
    plain = ok_json("act", "Aria", "Wits", "--seed", "1", "--dry-run")
    assert plain["action"] is None
    entry = ok_json("log", "--kind", "act")["entries"][-1]
    assert entry["action"] == "dagger"


# --- the file: effects naming nobody -----------------------------------------------------------


def test_an_effect_naming_nobody_is_refused_naming_creature_and_field(tmp_path: Path):
    ok("init", "--from", "skirmish")
    ok("effect", "add", "Aria", "blinded", "--dis", "--until-end-of", "Borin")
    path = tmp_path / "encounter.toml"
    path.write_text(path.read_text().replace('creature = "Borin"', 'creature = "Borrin"'))
    before = path.read_bytes()
    result = run("status")
    assert result.exit_code == 2
    assert (
        "creature 'Aria': effects #1.creature: 'Borrin': names no creature of this encounter"
        in result.stderr
    )
    assert path.read_bytes() == before


# --- status when everyone is down --------------------------------------------------------------


def test_status_caption_when_every_creature_is_down_says_what_turn_start_does():
    ok("init", "--from", "duel")
    ok("turn", "start")
    ok("damage", "Sera", "99")
    ok("damage", "The Masked Blade", "99")
    caption = ok("status").stdout.strip().splitlines()[-1]
    assert caption.startswith(
        "Every creature is down (R18): 'd4cli turn start' is refused (exit 2)"
    )
    assert run("turn", "start").exit_code == 2


# --- labels in the --times summary --------------------------------------------------------------


@pytest.mark.parametrize("roll", [["roll", "pool", "4"], ["roll", "check"]])
def test_label_heads_the_times_summary(roll):
    out = ok(*roll, "--times", "3", "--seed", "1", "--label", "torch test").stdout
    assert "3 rolls: torch test" in out
    assert "3 rolls: " not in ok(*roll, "--times", "3", "--seed", "1").stdout


# --- exact CSV grids ------------------------------------------------------------------------------


def _csv(*args: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(ok("odds", *args, "--format", "csv").stdout)))


def test_csv_grid_exact_columns_agree_with_the_floats():
    for args in (
        ("pool", "--pool", "1..4", "--dc", "3..12"),
        ("damage", "--pool", "1..3", "--evasion", "0..6", "--extra", "1d8"),
        ("check", "--advantage", "0..2", "--disadvantage", "0..2", "--dc", "5..25/5"),
    ):
        rows = _csv(*args)
        header = rows[0]
        floats = [i for i, name in enumerate(header) if "=" in name and not name.endswith(" exact")]
        exact = [header.index(header[i] + " exact") for i in floats]
        for row in rows[1:]:
            for f, e in zip(floats, exact):
                assert row[e], (args, row)
                assert abs(float(Fraction(row[e])) - float(row[f])) < 1e-9, (args, header[f], row)


def test_csv_grid_leaves_exact_cells_empty_beyond_the_exact_path():
    from d4cli.odds.dice_sums import EXACT_BITS, dice_sum

    size = 3000
    spec = dice_sum(size, ())
    assert spec.totals * spec.outcome_bits > EXACT_BITS
    rows = _csv("pool", "--pool", f"2,{size}", "--dc", "8")
    exact = rows[0].index("dc=8 exact")
    assert rows[1][exact] == "1/16"  # 2d4 is exact: only 4 + 4
    assert rows[2][exact] == "" and float(rows[2][exact - 1]) > 0.99


# --- one parser of NAME=N ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "text", "problem"),
    [
        ("--aspect", "Might", "must be ASPECT=N, such as Might=3"),
        ("--attribute", "Strength", "must be NAME=N, such as Strength=2"),
        ("--aspect", "=3", "needs a name before '='"),
        ("--attribute", "=3", "needs a name before '='"),
        ("--aspect", "Might=2,Wits=1", "one ASPECT=N per --aspect"),
        ("--attribute", "A=1,B=2", "one NAME=N per --attribute"),
        ("--aspect", "Might=x", "the value"),
        ("--attribute", "Strength=x", "the value"),
    ],
)
def test_aspects_and_stats_share_one_name_value_parser(option, text, problem):
    ok("init")
    args = ["add", "Aria", "--aspect", "Might=2"] if option != "--aspect" else ["add", "Aria"]
    result = run(*args, option, text)
    assert result.exit_code == 2
    assert problem in result.stderr and option in result.stderr


def test_one_suggestion_engine_for_unknown_file_keys():
    from d4cli.rules.suggest import unknown_key

    assert unknown_key("load_bufer", ("load", "load_buffer")) == (
        "unknown key (did you mean 'load_buffer'?); known keys: load, load_buffer"
    )
    assert unknown_key("zzz", ("load",)) == "unknown key; known keys: load"
