"""Lines that say what counted: the act line names the action and the sources with their origins (R4, R11, R20);
a refusal is one line naming the act and the rule (R2, R18), for act and team alike."""

from __future__ import annotations

from _cli import files, ok, run


def _skirmish(tmp_path):
    ok("init", "--from", "skirmish")
    ok("turn", "start")  # Aria's turn
    return tmp_path / "encounter.toml"


def test_the_act_line_names_the_action_and_the_counted_sources(tmp_path):
    _skirmish(tmp_path)
    ok("effect", "add", "Borin", "shaken", "--dis")
    ok("team", "Aria", "Borin", "--adv", "--aspect", "Wits")
    line = ok(
        "act",
        "Borin",
        "shove",
        "--adv",
        "torch",
        "--adv",
        "Torch",
        "--target",
        "Goblin Brute",
        "--seed",
        "2",
        "--short",
    ).stdout
    assert line.startswith("Borin shove (Might, Cost 2, off-turn R10): ")
    assert "; sources +torch, +team action (Team Action), -shaken (effect) (R4); " in line
    assert line.count("\n") == 1
    logged = ok("log", "--last", "1").stdout
    assert "Borin shove (Might, Cost 2, off-turn R10)" in logged and "-shaken (effect)" in logged


def test_the_table_title_names_the_action(tmp_path):
    _skirmish(tmp_path)
    out = ok(
        "act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "1", "--dry-run"
    ).stdout
    assert out.splitlines()[0] == "Aria: dagger (Finesse) (dry run)"
    plain = ok("act", "Aria", "Wits", "--seed", "1", "--dry-run").stdout
    assert plain.splitlines()[0] == "Aria: Wits (dry run)"
    assert "sources" not in ok("act", "Aria", "Wits", "--seed", "1", "--short").stdout


def test_a_refused_short_act_is_one_line(tmp_path):
    path = _skirmish(tmp_path)
    before = files(path)
    for extra in ([], ["--dc", "12"], ["--dry-run"], ["--dc", "hard", "--dry-run"], ["--quiet"]):
        result = run("act", "Borin", "shove", "--cost", "9", "--short", *extra)
        assert result.exit_code == 3 and result.stdout == "", extra
        assert result.stderr == (
            "d4cli: Borin shove (Might, Cost 9, off-turn R10): refused by the gate (R2): "
            "headroom 6 < Cost 9, short by 3\n"
        ), extra
        assert "None" not in result.stderr
    assert files(path) == before


def test_act_and_team_refuse_a_down_creature_alike(tmp_path):
    path = _skirmish(tmp_path)
    ok("damage", "Aria", "50")
    before = files(path)
    act = run("act", "Aria", "Might")
    team = run("team", "Aria", "Borin", "--adv", "--aspect", "Wits")
    for result in (act, team):
        assert (
            result.exit_code == 3 and result.stdout == "" and len(result.stderr.splitlines()) == 1
        )
        assert result.stderr.endswith(
            "refused (R18): Aria is down (0 hp) and cannot act; nothing was rolled or changed\n"
        )
    assert act.stderr.startswith("d4cli: Aria Might (Cost 1): ")
    assert team.stderr.startswith("d4cli: Aria Team Action (Wits, Cost 1) for Borin: ")
    assert files(path) == before


def test_a_gate_refused_team_names_itself(tmp_path):
    _skirmish(tmp_path)
    result = run("team", "Borin", "Aria", "--adv", "--aspect", "Wits", "--cost", "9")
    assert result.exit_code == 3
    assert (
        result.stderr
        == "d4cli: Borin Team Action (Wits, Cost 9) for Aria: refused by the gate (R2): headroom 4 < Cost 9, short by 5\n"
    )


def test_short_on_roll_pool_and_check():
    from _cli import ok_json

    line = ok(
        "roll",
        "pool",
        "4",
        "--adv",
        "torch",
        "--dis",
        "dark",
        "--dc",
        "10",
        "--seed",
        "1",
        "--short",
    ).stdout
    obj = ok_json(
        "roll", "pool", "4", "--adv", "torch", "--dis", "dark", "--dc", "10", "--seed", "1"
    )
    dice = " ".join(str(d) for d in obj["dice"])
    word = "success" if obj["success"] else "failure"
    assert line == f"4d4 ({dice}) = {obj['total']} vs DC 10: {word}; sources +torch, -dark (R4)\n"
    many = ok(
        "roll",
        "pool",
        "3",
        "--extra",
        "1d8",
        "--evasion",
        "4",
        "--times",
        "3",
        "--seed",
        "2",
        "--short",
    ).stdout
    assert len(many.splitlines()) == 3 and all(
        " vs Evasion 4: " in row for row in many.splitlines()
    )
    refused = run("roll", "pool", "4", "--cost", "9", "--short")
    assert refused.exit_code == 3 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1
    check = ok("roll", "check", "--attribute", "3", "--dc", "hard", "--seed", "4", "--short").stdout
    cobj = ok_json("roll", "check", "--attribute", "3", "--dc", "hard", "--seed", "4")
    assert check.startswith(f"d20 {cobj['natural']} +3") and check.rstrip().endswith(
        f"= {cobj['total']} vs DC 18: {cobj['outcome']}"
    )
    impossible = run("roll", "check", "--disadvantage", "2", "--short")
    assert impossible.exit_code == 3 and impossible.stdout == ""


def test_short_on_an_encounter_check(tmp_path):
    path = _skirmish(tmp_path)
    line = ok(
        "check", "Aria", "--attribute", "Agility", "--dc", "12", "--seed", "1", "--short"
    ).stdout
    assert line.startswith("Aria check (Agility): ") and line.rstrip().endswith(
        "; Load unchanged (C8)"
    )
    assert line.count("\n") == 1
    before = files(path)
    dry = ok(
        "check", "Aria", "--attribute", "Agility", "--seed", "1", "--short", "--dry-run"
    ).stdout
    assert dry.rstrip().endswith("(dry run)") and files(path) == before
