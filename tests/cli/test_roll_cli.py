"""`d4cli roll pool` and `d4cli roll check` through CliRunner: JSON keys, exit codes, errors."""

from __future__ import annotations

import json

import pytest
from _cli import run

POOL_KEYS = {
    "kind",
    "aspect",
    "load",
    "cost",
    "allowed",
    "headroom",
    "advantage",
    "disadvantage",
    "net_advantage",
    "pool_size",
    "dice",
    "extra",
    "total",
    "dc",
    "success",
    "evasion",
    "damage",
}
CHECK_KEYS = {
    "kind",
    "attribute",
    "proficiency",
    "specialization",
    "advantage_level",
    "disadvantage",
    "effective_level",
    "impossible",
    "natural",
    "advantage_dice",
    "advantage_bonus",
    "disadvantage_die",
    "critical",
    "crit_die",
    "total",
    "dc",
    "success",
    "outcome",
}


def run_json(*args: str):
    result = run(*args, "--json")
    return result, json.loads(result.stdout)


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("d4cli ")


def test_trap_example_pool_of_five():
    result, obj = run_json(
        "roll", "pool", "4", "--adv", "torch", "--adv", "advice", "--dis", "darkness"
    )
    assert result.exit_code == 0
    assert POOL_KEYS <= obj.keys()
    assert obj["kind"] == "pool"
    assert obj["pool_size"] == 5 and len(obj["dice"]) == 5
    assert obj["advantage"] == ["torch", "advice"] and obj["disadvantage"] == ["darkness"]
    assert obj["net_advantage"] == 1
    assert obj["total"] == sum(obj["dice"])
    assert all(1 <= die <= 4 for die in obj["dice"])


def test_dagger_example_damage():
    for seed in range(20):
        result, obj = run_json(
            "roll",
            "pool",
            "6",
            "--load",
            "2",
            "--extra",
            "1d4",
            "--evasion",
            "11",
            "--seed",
            str(seed),
        )
        assert result.exit_code == 0
        assert obj["pool_size"] == 4 and len(obj["dice"]) == 4
        assert obj["extra"][0]["notation"] == "1d4" and len(obj["extra"][0]["dice"]) == 1
        assert obj["total"] == sum(obj["dice"]) + obj["extra"][0]["dice"][0]
        assert obj["damage"] == max(0, obj["total"] - 11)
        assert obj["dc"] is None and obj["success"] is None


def test_gate_refusal_exit_3_rolls_nothing():
    result, obj = run_json("roll", "pool", "2", "--load", "1", "--cost", "2")
    assert result.exit_code == 3
    assert obj["allowed"] is False and obj["dice"] == [] and obj["total"] is None
    assert obj["headroom"] == 1
    human = run("roll", "pool", "2", "--load", "1", "--cost", "2")
    assert human.exit_code == 3
    assert "short by 1" in human.stdout


def test_check_impossible_exit_3():
    result, obj = run_json("roll", "check", "--disadvantage", "2")
    assert result.exit_code == 3
    assert obj["impossible"] is True and obj["outcome"] == "impossible" and obj["natural"] is None
    assert run("roll", "check", "--disadvantage", "2").exit_code == 3


def test_check_carries_every_key():
    result, obj = run_json(
        "roll", "check", "--advantage", "2", "--dc", "hard", "--rule-of-three", "--seed", "5"
    )
    assert result.exit_code == 0
    assert CHECK_KEYS <= obj.keys()
    assert obj["dc"] == 18 and obj["advantage_level"] == 2 and obj["effective_level"] == 2
    assert len(obj["advantage_dice"]) == 2
    assert obj["outcome"] in {"success", "failure", "success-and", "failure-but"}
    expected = obj["natural"] + obj["advantage_bonus"] + (obj["crit_die"] or 0)
    assert obj["total"] == expected


def test_seed_reproducible_and_env_seed():
    first = run("roll", "pool", "8", "--seed", "42", "--json").stdout
    again = run("roll", "pool", "8", "--seed", "42", "--json").stdout
    from_env = run("roll", "pool", "8", "--json", env={"D4CLI_SEED": "42"}).stdout
    assert first == again == from_env
    assert run("roll", "pool", "8", "--seed", "43", "--json").stdout != first


def test_times_json_lines():
    result = run("roll", "pool", "3", "--times", "5", "--seed", "1", "--json")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == 5
    assert all(len(json.loads(line)["dice"]) == 3 for line in lines)


def test_times_human_summary():
    result = run("roll", "pool", "3", "--times", "200", "--dc", "8", "--seed", "1")
    assert result.exit_code == 0
    assert "200 rolls" in result.stdout and "mean total" in result.stdout


def test_quiet_prints_total_or_damage():
    total = run("roll", "pool", "3", "--seed", "9", "--json")
    quiet = run("roll", "pool", "3", "--seed", "9", "--quiet")
    assert quiet.stdout.strip() == str(json.loads(total.stdout)["total"])
    damage = run("roll", "pool", "3", "--evasion", "100", "--quiet", "--seed", "9")
    assert damage.stdout.strip() == "0"


def test_negative_aspect_gm_roll_rolls_one_die():
    result, obj = run_json("roll", "pool", "-1", "--gm")
    assert result.exit_code == 0
    assert obj["pool_size"] == 1 and obj["allowed"] is True and obj["gate_skipped"] is True


def test_dice_are_uniform_over_many_seeds():
    counts = [0, 0, 0, 0]
    for seed in range(200):
        obj = json.loads(run("roll", "pool", "10", "--seed", str(seed), "--json").stdout)
        for die in obj["dice"]:
            counts[die - 1] += 1
    # 2,000 dice: each face 500 expected; a chi-square of 16.3 is p = 0.001 for 3 d.f.
    chi2 = sum((c - 500) ** 2 / 500 for c in counts)
    assert chi2 < 16.3, counts


def test_human_table_explains_each_step():
    result = run(
        "roll",
        "pool",
        "4",
        "--adv",
        "torch",
        "--adv",
        "Torch",
        "--dis",
        "dark",
        "--dc",
        "9",
        "--seed",
        "3",
    )
    assert result.exit_code == 0
    out = result.stdout
    for words in (
        "Gate",
        "headroom 4 >= Cost 1",
        "Net Advantage",
        "counted once",
        "4d4",
        "Total",
        "DC 9",
        "Load after",
        "R2",
        "R4",
        "R5",
        "R7",
        "R8",
    ):
        assert words in out, words
    assert "\x1b[" not in out


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["roll", "pool", "four"], "ASPECT"),
        (["roll", "pool", "4", "--load", "x"], "--load"),
        (["roll", "pool", "4", "--load", "3.0"], "--load"),
        (["roll", "pool", "4", "--cost", "3_000"], "--cost"),
        (["roll", "pool", "4", "--cost", " 3"], "--cost"),
        (["roll", "pool", "4", "--cost", "true"], "--cost"),
        (["roll", "pool", "4", "--cost", "-1"], "--cost"),
        (["roll", "pool", "1001"], "ASPECT"),
        (["roll", "pool", "4", "--extra", "1d0"], "--extra"),
        (["roll", "pool", "4", "--extra", "d4"], "--extra"),
        (["roll", "pool", "4", "--extra", "4d"], "--extra"),
        (["roll", "pool", "4", "--extra", "1d8+"], "--extra"),
        (["roll", "pool", "1000", "--extra", "9001d4"], "dice"),
        (["roll", "pool", "4", "--dc", "12", "--evasion", "3"], "--dc"),
        (["roll", "pool", "4", "--evasion", "-1"], "--evasion"),
        (["roll", "pool", "4", "--times", "0"], "--times"),
        (["roll", "pool", "4", "--seed", "-5"], "--seed"),
        (["roll", "pool", "4", "--lod", "2"], "--lod"),
        (["roll", "pool", "3", "--dcc", "12"], "--dcc"),
        (["roll", "pool", "3", "--dcc=12"], "--dcc"),
        (["roll", "pool", "3", "4"], "ASPECT"),
        (["roll", "pool", "3", "--adv", ""], "--adv"),
        (["roll", "pool", "3", "--dis", " \t"], "--dis"),
        (["roll", "check", "--advantage", "6"], "--advantage"),
        (["roll", "check", "--dc", "legendary"], "--dc"),
        (["roll", "check", "--attribute", "1.5"], "--attribute"),
        (["roll", "check", "--disadvantage", "-1"], "--disadvantage"),
        (["roll", "check", "--frobnicate"], "--frobnicate"),
        (["help", "nonsense"], "TOPIC"),
    ],
)
def test_bad_input_exit_2_one_plain_line(args, field):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("d4cli: error:")
    assert field in last
    assert "Traceback" not in result.stderr
    assert not any(ch in result.stderr for ch in "╭│─┏")


def test_bad_seed_from_environment():
    result = run("roll", "pool", "4", env={"D4CLI_SEED": "abc"})
    assert result.exit_code == 2
    assert "D4CLI_SEED" in result.stderr and "'abc'" in result.stderr


def test_help_lists_topics_and_each_topic_renders():
    from d4cli.output.rules_reference import TOPICS

    index = run("help")
    assert index.exit_code == 0
    for key in (
        "gate",
        "pool",
        "advantage",
        "load",
        "check",
        "rule-of-three",
        "json",
        "exit-codes",
    ):
        assert key in TOPICS and key in index.stdout
        topic = run("help", key)
        assert topic.exit_code == 0
        assert TOPICS[key].rules.split()[0] in topic.stdout
        assert "Example" in topic.stdout


def test_every_command_has_help():
    for args in (
        ["--help"],
        ["roll", "--help"],
        ["roll", "pool", "--help"],
        ["roll", "check", "--help"],
        ["help", "--help"],
    ):
        result = run(*args)
        assert result.exit_code == 0, args
        assert "Usage" in result.stdout


@pytest.mark.slow
def test_help_examples_run_as_written():
    """Every `d4cli ...` line in a help topic's example works as written, in order."""
    import re
    import shlex

    from d4cli.output.rules_reference import TOPICS

    ran = 0
    for topic in TOPICS.values():
        for line in topic.example.splitlines():
            line = line.strip()
            if not line.startswith("d4cli ") or "|" in line or ";" in line:
                continue
            expected = re.search(r"\(exit (\d)", line)
            words = shlex.split(line.split("(")[0])[1:]
            if words[0] in ("roll", "act"):
                words += ["--seed", "1"]
            result = run(*words)
            assert result.exit_code == (int(expected[1]) if expected else 0), (line, result.output)
            ran += 1
    assert ran >= 8


def test_help_json_lists_topics_and_one_topic():
    every = json.loads(run("help", "--json").stdout)["topics"]
    assert [t["topic"] for t in every][:3] == ["gate", "pool", "advantage"]
    one = run("help", "check", "--json")
    assert one.exit_code == 0
    (topic,) = json.loads(one.stdout)["topics"]
    assert topic["topic"] == "check" and topic["rules"].startswith("C1")
    assert set(topic) == {"topic", "title", "rules", "body", "example"}


def test_odds_distribution_lists_only_possible_totals():
    # d20 + 0 without Advantage: 20 always adds the critical d6 (C5), so no roll totals 20.
    result, obj = run_json("roll", "check", "--dc", "20", "--odds")
    distribution = obj["odds"]["distribution"]
    assert "20" not in distribution and "19" in distribution and "21" in distribution
    assert abs(sum(distribution.values()) - 1) < 1e-12
