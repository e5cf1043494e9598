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
    line = ok("act", "Borin", "shove", "--adv", "torch", "--adv", "Torch", "--target", "Goblin Brute",
              "--seed", "2", "--short").stdout
    assert line.startswith("Borin shove (Might, Cost 2, off-turn R10): ")
    assert "; sources +torch, +team action (Team Action), -shaken (effect) (R4); " in line
    assert line.count("\n") == 1
    logged = ok("log", "--last", "1").stdout
    assert "Borin shove (Might, Cost 2, off-turn R10)" in logged and "-shaken (effect)" in logged


def test_the_table_title_names_the_action(tmp_path):
    _skirmish(tmp_path)
    out = ok("act", "Aria", "dagger", "--target", "Goblin Archer", "--seed", "1", "--dry-run").stdout
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
        assert result.exit_code == 3 and result.stdout == "" and len(result.stderr.splitlines()) == 1
        assert result.stderr.endswith("refused (R18): Aria is down (0 hp) and cannot act; nothing was rolled or changed\n")
    assert act.stderr.startswith("d4cli: Aria Might (Cost 1): ")
    assert team.stderr.startswith("d4cli: Aria Team Action (Wits, Cost 1) for Borin: ")
    assert files(path) == before


def test_a_gate_refused_team_names_itself(tmp_path):
    _skirmish(tmp_path)
    result = run("team", "Borin", "Aria", "--adv", "--aspect", "Wits", "--cost", "9")
    assert result.exit_code == 3
    assert result.stderr == "d4cli: Borin Team Action (Wits, Cost 9) for Aria: refused by the gate (R2): headroom 4 < Cost 9, short by 5\n"
