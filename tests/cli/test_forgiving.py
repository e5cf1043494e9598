"""Forgiving input, never guessing (N1): help for a bare run, suggestions in errors, DC tiers."""

from __future__ import annotations

import json

import pytest
from _cli import run

from d4cli.rules.suggest import closest, did_you_mean


@pytest.fixture
def skirmish(isolated_env):
    assert run("init", "--from", "skirmish").exit_code == 0
    assert run("add", "Sir Aldric", "--aspect", "Might=3", "--aspect", "Wits=2").exit_code == 0
    assert run("turn", "start").exit_code == 0
    return isolated_env / "encounter.toml"


def test_bare_d4cli_prints_the_help_and_exits_0():
    result = run()
    assert result.exit_code == 0
    assert "Usage: d4cli" in result.stdout
    assert "play" in result.stdout and "roll" in result.stdout


def test_a_bare_group_is_still_a_usage_error():
    result = run("roll")
    assert result.exit_code == 2
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("argv", "suggested"),
    [
        (["act", "Aria", "Finesse", "--DC", "8"], "--dc"),
        (["act", "Aria", "Finesse", "--advantage", "x"], "--adv"),
        (["roll", "pool", "4", "--tims", "3"], "--times"),
        (["roll", "pool", "4", "--DC", "8"], "--dc"),
    ],
)
def test_an_unknown_option_suggests_the_closest_of_that_command(skirmish, argv, suggested):
    before = skirmish.read_bytes()
    result = run(*argv)
    assert result.exit_code == 2
    assert f"'{suggested}'" in result.stderr or f"Possible options: {suggested})" in result.stderr
    assert skirmish.read_bytes() == before


def test_an_option_with_no_close_match_suggests_nothing(skirmish):
    result = run("init", "--quiet")
    assert result.exit_code == 2
    assert "--file" not in result.stderr.splitlines()[-1]
    assert "Possible" not in result.stderr and "did you mean" not in result.stderr


def test_an_unknown_creature_or_aspect_suggests_but_refuses(skirmish):
    before = skirmish.read_bytes()
    result = run("act", "Sir Aldrick", "Might")
    assert result.exit_code == 2
    assert "did you mean 'Sir Aldric'?" in result.stderr
    result = run("act", "Aria", "Migth")
    assert result.exit_code == 2
    assert "did you mean 'Might'?" in result.stderr
    assert skirmish.read_bytes() == before  # N1: a suggestion never acts


def test_suggestions_compare_without_dashes_and_case():
    options = [
        "--file",
        "--cost",
        "--adv",
        "--dis",
        "--extra",
        "--target",
        "--dc",
        "--seed",
        "--json",
    ]
    assert closest("--quiet", options) == []
    assert closest("--DC", options) == ["--dc"]
    assert closest("Sir Aldrick", ["Sir Aldric", "Aria"]) == ["Sir Aldric"]
    assert did_you_mean("Zzz", ["Aria"]) == ""


def test_dc_tiers_work_on_roll_pool_and_act(skirmish):
    pool = json.loads(run("roll", "pool", "4", "--dc", "hard", "--json", "--seed", "1").stdout)
    assert pool["dc"] == 18
    act = json.loads(run("act", "Aria", "Finesse", "--dc", "Easy", "--json", "--seed", "1").stdout)
    assert act["dc"] == 6
    bad = run("roll", "pool", "4", "--dc", "hardest")
    assert bad.exit_code == 2
    assert "easy, medium, hard" in bad.stderr


def test_extra_sum_is_one_source_on_the_command_line():
    result = json.loads(
        run("roll", "pool", "2", "--extra", "1D4+1d6+2", "--json", "--seed", "3").stdout
    )
    assert [e["notation"] for e in result["extra"]] == ["1d4", "1d6+2"]
    assert result["total"] == sum(result["dice"]) + sum(
        sum(e["dice"]) + e["modifier"] for e in result["extra"]
    )


# --- answers that fit --------------------------------------------------------------------------


def test_times_lists_the_rolls_above_the_summary():
    result = run("roll", "pool", "4", "--times", "3", "--seed", "1")
    lines = result.stdout.splitlines()
    totals = [
        json.loads(line)["total"]
        for line in run(
            "roll", "pool", "4", "--times", "3", "--seed", "1", "--json"
        ).stdout.splitlines()
    ]
    assert lines[0] == "rolls: " + ", ".join(map(str, totals))
    assert lines[1] == "3 rolls"
    many = run("roll", "pool", "1", "--times", "25", "--seed", "4").stdout.splitlines()[0]
    assert many.startswith("rolls (the first 20): ") and many.count(",") == 19


def test_rule_of_three_summary_counts_the_graded_outcomes():
    argv = [
        "roll",
        "check",
        "--attribute",
        "2",
        "--dc",
        "12",
        "--rule-of-three",
        "--times",
        "16",
        "--seed",
        "1",
    ]
    outcomes = [json.loads(line)["outcome"] for line in run(*argv, "--json").stdout.splitlines()]
    last = run(*argv).stdout.splitlines()[-1]
    won, lost = outcomes.count("success-and"), outcomes.count("failure-but")
    assert f"succeeds, and... {won} (" in last
    assert f"fails, but... {lost} (" in last
    assert "(C7)" in last
    plain = run(
        "roll", "check", "--attribute", "2", "--dc", "12", "--times", "4", "--seed", "1"
    ).stdout
    assert "succeeds, and" not in plain


def test_shares_and_means_round_half_up():
    # 16 rolls of 1d4: every share is a multiple of 1/16 = 6.25%; the mean a multiple of 1/16.
    out = run("roll", "pool", "1", "--times", "16", "--seed", "26").stdout
    totals = [
        json.loads(line)["total"]
        for line in run(
            "roll", "pool", "1", "--times", "16", "--seed", "26", "--json"
        ).stdout.splitlines()
    ]
    assert sum(totals) == 37  # the seed gives a mean of exactly 2.3125
    assert "mean total 2.313" in out
    for share in ("6.3%", "18.8%", "31.3%", "43.8%"):
        n = {"6.3%": 1, "18.8%": 3, "31.3%": 5, "43.8%": 7}[share]
        if n in [totals.count(face) for face in range(1, 5)]:
            assert share in out
    assert "6.2%" not in out and "18.7%" not in out


def _leaf_commands():
    from d4cli.cli.app import COMMANDS

    for name, spec in COMMANDS.items():
        target = spec if isinstance(spec, str) else spec[0]
        if target.endswith(":app"):
            import importlib

            module = importlib.import_module(target.partition(":")[0])
            for info in module.app.registered_commands:
                yield [
                    name,
                    info.name or info.callback.__name__.replace("_command", "").replace("_", "-"),
                ]
        else:
            yield [name]


@pytest.mark.parametrize("argv", list(_leaf_commands()), ids=" ".join)
def test_help_examples_fit_on_one_line_at_80_columns(argv, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = run(*argv, "--help", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    examples = [i for i, line in enumerate(lines) if line.strip().startswith("Example:")]
    assert examples, argv  # every command's help has one
    for i in examples:
        # The example is not wrapped: the next line is blank or the start of a panel.
        assert not lines[i + 1].strip() or lines[i + 1].lstrip().startswith("╭"), lines[i : i + 2]


def test_grid_cells_round_half_up():
    from fractions import Fraction

    from d4cli.odds.grids import EXPECTED_DAMAGE, P_SUCCESS
    from d4cli.output.render.odds_charts import cell_text, percent

    class Damage:
        quantity = EXPECTED_DAMAGE

    class Success:
        quantity = P_SUCCESS

    assert cell_text(Damage, 0.125) == "0.13"
    assert cell_text(Success, 0.0625) == "6.3%"
    assert percent(Fraction(1, 16), 2) == "6.25%"
