"""The defaults and small answers a GM at the table expects (issue "At the table, round two")."""

from __future__ import annotations

from _cli import ok, ok_json, run


def _setup(tmp_path):
    ok("init")
    return tmp_path / "encounter.toml"


def test_hp_alone_sets_the_cap_and_heal_stops_there(tmp_path):
    path = _setup(tmp_path)
    added = ok_json("add", "Aria", "--aspect", "Might=3", "--hp", "10")
    assert (added["hp_after"], added["max_hp"]) == (10, 10)
    assert "max_hp = 10" in path.read_text()
    ok("damage", "Aria", "4")
    healed = ok_json("heal", "Aria", "15")
    assert healed["hp_after"] == 10
    assert "10/10" in ok("status").stdout


def test_max_hp_still_says_otherwise(tmp_path):
    _setup(tmp_path)
    added = ok_json("add", "Bram", "--aspect", "Might=3", "--hp", "6", "--max-hp", "12")
    assert (added["hp_after"], added["max_hp"]) == (6, 12)
    assert ok_json("heal", "Bram", "20")["hp_after"] == 12


def test_a_file_without_max_hp_keeps_healing_past_its_hp(tmp_path):
    path = _setup(tmp_path)
    ok("add", "Cora", "--aspect", "Wits=2", "--hp", "5")
    path.write_text(path.read_text().replace("max_hp = 5\n", ""))
    assert ok_json("heal", "Cora", "3")["hp_after"] == 8


def test_a_mistyped_dc_tier_gets_a_did_you_mean():
    result = run("roll", "check", "--dc", "medum")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines()[-1].endswith("(C2); did you mean 'medium'?")
    result = run("roll", "pool", "3", "--dc", "Hardd")
    assert result.exit_code == 2 and "did you mean 'hard'?" in result.stderr


def test_a_missing_file_names_its_path(tmp_path):
    result = run("status", "-f", "missing.toml")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "d4cli: error: missing.toml: no such encounter file (create it with 'd4cli init --file missing.toml')\n"
    )
    assert not (tmp_path / "missing.toml").exists()
    spaced = run("status", "-f", "my fight.toml")
    assert "init --file 'my fight.toml'" in spaced.stderr


def test_the_default_file_says_plain_init(tmp_path, monkeypatch):
    monkeypatch.delenv("D4CLI_FILE")
    result = run("status")
    assert result.exit_code == 2
    assert (
        result.stderr
        == "d4cli: error: encounter.toml: no such encounter file (create it with 'd4cli init')\n"
    )


def test_a_side_wins_reads_with_any_side_name():
    from d4cli.output.figuretext import estimates

    figure = {"wins": 1, "rate": 0.5, "low": 0.1, "high": 0.9}
    mode = {
        "wins": {"foes": figure, "party": figure},
        "draws": figure,
        "rounds": figure,
        "actions_per_turn": figure,
        "reactions_per_round": figure,
        "damage_per_round": {"foes": figure, "party": figure},
        "stuck_share": figure,
    }
    labels = [row[0] for row in estimates(mode, ("foes", "party"))]
    assert labels[:2] == ["wins: foes", "wins: party"]
    assert not any(label.endswith(" wins") for label in labels)


def test_a_share_shown_as_zero_draws_no_bar():
    from d4cli.output.render.simulate_text import rounds_chart

    mode = {"runs": 1000, "rounds": {"histogram": {"1": 998, "2": 1}}, "draws": {"draws": 1}}
    lines = rounds_chart(mode, 10)
    by_label = {line.split()[0]: line for line in lines}
    assert by_label["1"].rstrip().endswith("100%") and "#" * 40 in by_label["1"]
    assert "#" not in by_label["2"] and by_label["2"].rstrip().endswith(" 0%")
    assert "#" not in by_label["draw"]
