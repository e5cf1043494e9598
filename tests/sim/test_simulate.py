"""`d4cli simulate`: the playtest simulator, its policy, its figures and its honesty (R12, R18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _cli import run

from d4cli.fight.policy_table import check_policy
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.odds.roll_odds import pool_distribution
from d4cli.output.figuretext import shown
from d4cli.rules.errors import InputError
from d4cli.sim.engine import FIGURES, Tally, run_chunk
from d4cli.sim.pieces import chunks, run_all
from d4cli.sim.policy import Policy, best_move, reaction_aspect
from d4cli.sim.report import Z999, decimals, wilson
from d4cli.sim.setup import prepare

DUEL = """
schema_version = 2
name = "exact duel"
mode = "turn"
round = 0

[[creature]]
name = "Ash"
aspects = { Finesse = 3 }
load_buffer = 1
exhaustion = 0
load = 0
evasion = 6
hp = 9
side = "a"
policy = { reaction = "none" }
actions = [{ name = "knife", aspect = "Finesse", cost = 1, extra = ["1d4"] }]

[[creature]]
name = "Birch"
aspects = { Might = 4 }
load_buffer = 0
exhaustion = 1
load = 0
evasion = 7
hp = 11
side = "b"
policy = { reaction = "none" }
actions = [{ name = "maul", aspect = "Might", cost = 2, extra = ["1d6"] }]
"""


def duel():
    return parse_encounter(DUEL, "duel.toml")


def _turn_damage(aspect: int, reset: int, cost: int, extra, evasion: int) -> dict[int, float]:
    """The damage distribution of one whole turn: every action the gate allows from *reset* (R2, R5, R7)."""
    from d4cli.rules.dice import parse_extra

    total = {0: 1.0}
    load = reset
    while aspect - load >= cost:
        pool = max(1, aspect - max(0, load))
        one: dict[int, float] = {}
        for value, p in pool_distribution(pool, [parse_extra(e) for e in extra]).items():
            one[max(0, value - evasion)] = one.get(max(0, value - evasion), 0.0) + p
        total = _convolve(total, one)
        load += cost
    return total


def _convolve(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0.0) + px * py
    return out


def exact_first_wins(mode: str, max_rounds: int) -> float:
    """P(Ash wins) by a dynamic program over hit points: Ash goes first each round (R19)."""
    zero = mode == "round-zero"
    ash = _turn_damage(3, 0 if zero else -1, 1, ["1d4"], 7)  # against Birch's Evasion 7
    birch = _turn_damage(4, 0 if zero else 1, 2, ["1d6"], 6)  # against Ash's Evasion 6
    states = {(9, 11): 1.0}
    won = 0.0
    for _ in range(max_rounds):
        after: dict[tuple[int, int], float] = {}
        for (ha, hb), p in states.items():
            for d, pd in ash.items():
                if d >= hb:
                    won += p * pd
                    continue
                for e, pe in birch.items():
                    if e >= ha:
                        continue
                    key = (ha - e, hb - d)
                    after[key] = after.get(key, 0.0) + p * pd * pe
        states = after
    return won


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["turn", "round", "round-zero"])
def test_simulated_duel_matches_the_exact_win_probability(mode):
    exact = exact_first_wins(mode, 20)
    assert 0.05 < exact < 0.95
    runs = 4000
    tally = run_chunk(prepare(duel(), mode, max_rounds=20), 7, mode, 0, runs)
    low, high = wilson(tally.wins[0], runs, Z999)
    assert low <= exact <= high, (mode, exact, tally.wins[0] / runs)
    assert tally.runs == runs and sum(tally.wins) + tally.draws == runs


# The duel's creatures as the default policy (`reaction = "weigh"`) plays them: Aspect, Cost, extra dice,
# Evasion, the R1 reset value; both have a single attack, so every choice is the gate's (R2).
ASH = {"aspect": 3, "cost": 1, "extra": ["1d4"], "evasion": 6, "reset": -1}
BIRCH = {"aspect": 4, "cost": 2, "extra": ["1d6"], "evasion": 7, "reset": 1}


def _expected(pool: int, extra: list[str], evasion: int) -> float:
    from d4cli.rules.dice import parse_extra

    return sum(
        max(0, v - evasion) * p
        for v, p in pool_distribution(pool, [parse_extra(e) for e in extra]).items()
    )


def _turn_value(c: dict, load: int, evasion: int) -> float:
    """The expected damage of a whole turn from *load*: every attack the gate allows (R2, R5, R7)."""
    total = 0.0
    while c["aspect"] - load >= c["cost"]:
        total += _expected(max(1, c["aspect"] - max(0, load)), c["extra"], evasion)
        load += c["cost"]
    return total


def _turn(
    attacker: dict, load: int, defender: dict, guard: int, to_come: bool
) -> tuple[list[int], int, int]:
    """One turn of *attacker* from *load*, the *defender* (at Load *guard*) reacting by the weighed rule (R11):
    when its gate allows Cost 1 and, if its own turn is still to come with this Load, the Disadvantage prevents
    more expected damage than its turn forgoes. Returns the pools rolled and both Loads after."""
    pools = []
    while attacker["aspect"] - load >= attacker["cost"]:
        pool = max(1, attacker["aspect"] - max(0, load))
        if defender["aspect"] - guard >= 1:
            prevented = _expected(pool, attacker["extra"], defender["evasion"]) - _expected(
                max(1, pool - 1), attacker["extra"], defender["evasion"]
            )
            forgone = _turn_value(defender, guard, attacker["evasion"]) - _turn_value(
                defender, guard + 1, attacker["evasion"]
            )
            if not to_come or prevented > forgone:
                pool, guard = max(1, pool - 1), guard + 1
        pools.append(pool)
        load += attacker["cost"]
    return pools, load, guard


def _damage(pools: list[int], extra: list[str], evasion: int) -> dict[int, float]:
    from d4cli.rules.dice import parse_extra

    total = {0: 1.0}
    for pool in pools:
        one: dict[int, float] = {}
        for value, p in pool_distribution(pool, [parse_extra(e) for e in extra]).items():
            one[max(0, value - evasion)] = one.get(max(0, value - evasion), 0.0) + p
        total = _convolve(total, one)
    return total


def exact_first_wins_with_reactions(mode: str, max_rounds: int) -> float:
    """P(Ash wins) under the default policy, reactions weighed: the Loads of each round follow from the
    gate alone (no choice depends on the dice), so a dynamic program over hit points is exact."""
    ash_load, birch_load = 0, 0  # as in the file
    states = {(9, 11): 1.0}
    won = 0.0
    for _ in range(max_rounds):
        if mode == "turn":
            ash_load = ASH["reset"]  # R1 at its turn start
        else:  # R12: every creature resets at the round's start
            ash_load, birch_load = (
                (0, 0) if mode == "round-zero" else (ASH["reset"], BIRCH["reset"])
            )
        ash_pools, ash_load, birch_load = _turn(ASH, ash_load, BIRCH, birch_load, mode != "turn")
        if mode == "turn":
            birch_load = BIRCH["reset"]
        birch_pools, birch_load, ash_load = _turn(
            BIRCH, birch_load, ASH, ash_load, False
        )  # Ash had its turn
        ash = _damage(ash_pools, ASH["extra"], BIRCH["evasion"])
        birch = _damage(birch_pools, BIRCH["extra"], ASH["evasion"])
        after: dict[tuple[int, int], float] = {}
        for (ha, hb), p in states.items():
            for d, pd in ash.items():
                if d >= hb:
                    won += p * pd
                    continue
                for e, pe in birch.items():
                    if e >= ha:
                        continue
                    key = (ha - e, hb - d)
                    after[key] = after.get(key, 0.0) + p * pd * pe
        states = after
    return won


@pytest.mark.slow  # over a second of simulation or child processes
@pytest.mark.parametrize("mode", ["turn", "round", "round-zero"])
def test_simulated_duel_with_weighed_reactions_matches_the_exact_win_probability(mode):
    exact = exact_first_wins_with_reactions(mode, 20)
    assert 0.05 < exact < 0.95
    runs = 4000
    weighed = parse_encounter(DUEL.replace('policy = { reaction = "none" }\n', ""), "duel.toml")
    setup = prepare(weighed, mode, max_rounds=20)
    assert {p.reaction for p in setup.policies} == {"weigh"}
    tally = run_chunk(setup, 7, mode, 0, runs)
    low, high = wilson(tally.wins[0], runs, Z999)
    assert low <= exact <= high, (mode, exact, tally.wins[0] / runs)
    if mode == "turn":
        assert (
            tally.sums[3] > 0
        )  # a reaction never costs its own turn in turn mode (R1): Birch reacts


@pytest.mark.slow  # over a second of simulation or child processes
def test_the_old_rule_always_reacts_and_lets_the_first_win_every_round_mode_duel():
    always = parse_encounter(
        DUEL.replace('policy = { reaction = "none" }', 'policy = { reaction = "always" }'), "d"
    )
    for mode in ("round", "round-zero"):
        tally = run_chunk(prepare(always, mode, max_rounds=20), 7, mode, 0, 300)
        assert (
            tally.wins[1] == 0 and tally.sums[len(FIGURES) + 1] == 0
        )  # Birch spends its rounds on reactions
        weighed = parse_encounter(DUEL.replace('policy = { reaction = "none" }\n', ""), "duel.toml")
        tally = run_chunk(prepare(weighed, mode, max_rounds=20), 7, mode, 0, 300)
        assert tally.wins[1] > 0 and tally.sums[len(FIGURES) + 1] > 0


def test_the_modes_differ_in_the_duel():
    assert exact_first_wins("turn", 20) == pytest.approx(exact_first_wins("round", 20))
    assert exact_first_wins("turn", 20) != pytest.approx(exact_first_wins("round-zero", 20))


@pytest.mark.slow
def test_same_seed_same_json_for_any_jobs():
    args = ["simulate", "--from", "skirmish", "--runs", "300", "--seed", "5", "--json"]
    one = run(*args, "--jobs", "1")
    two = run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.stderr
    assert one.stdout == two.stdout
    assert one.stderr == "" and two.stderr == ""  # no progress bar off a terminal
    report = json.loads(one.stdout)
    assert [m["mode"] for m in report["modes"]] == ["turn", "round", "round-zero"]
    turn = report["modes"][0]
    assert turn["runs"] == 300
    assert sum(w["wins"] for w in turn["wins"].values()) + turn["draws"]["draws"] == 300
    assert (
        turn["wins"]["party"]["low"]
        <= turn["wins"]["party"]["rate"]
        <= turn["wins"]["party"]["high"]
    )
    assert sum(turn["rounds"]["histogram"].values()) == 300
    assert sum(turn["load_at_turn_start"].values()) == pytest.approx(1.0)
    other = run(
        "simulate", "--from", "skirmish", "--runs", "300", "--seed", "6", "--json", "--jobs", "1"
    )
    assert other.stdout != one.stdout


def test_chunks_cover_every_run_once():
    for runs, jobs in ((1, 4), (10, 2), (100_001, 3)):
        pieces = chunks(runs, jobs)
        assert [i for a, b in pieces for i in range(a, b)] == list(range(runs))


def test_tallies_merge_in_any_order():
    setup = prepare(duel(), "turn")
    whole = run_chunk(setup, 3, "turn", 0, 60)
    parts = run_chunk(setup, 3, "turn", 30, 60).merge(run_chunk(setup, 3, "turn", 0, 30))
    assert (whole.wins, whole.sums, whole.products, whole.rounds, whole.loads) == (
        parts.wins,
        parts.sums,
        parts.products,
        parts.rounds,
        parts.loads,
    )


@pytest.mark.slow  # over a second of simulation or child processes
def test_table_markdown_csv_and_sweep():
    table = run("simulate", "--from", "duel", "--runs", "200", "--seed", "1", "--jobs", "1")
    assert table.exit_code == 0, table.stderr
    assert (
        "200 runs per mode" in table.stdout
        and "rounds to finish" in table.stdout
        and "#" in table.stdout
    )
    markdown = run(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "50",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--format",
        "markdown",
    )
    assert (
        markdown.stdout.startswith("**Playtest duel: 50 runs per mode, seed 1")
        and "| figure | turn | round | round-zero |" in markdown.stdout
    )
    csv = run(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "50",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--format",
        "csv",
        "--modes",
        "turn",
    )
    assert (
        csv.stdout.splitlines()[0]
        == "encounter,runs,seed,max_rounds,sweep,setting,mode,figure,side,bin,value,low,high,"
        "target_rule,reserve"
    )
    sweep = run(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "40",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--sweep",
        "reserve=0..2",
        "--json",
        "--modes",
        "round",
    )
    assert sweep.exit_code == 0, sweep.stderr
    report = json.loads(sweep.stdout)
    assert [row["value"] for row in report["rows"]] == [0, 1, 2]
    buffers = run(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "40",
        "--jobs",
        "1",
        "--sweep",
        "buffer=0..1",
        "--format",
        "csv",
    )
    assert buffers.exit_code == 0 and {
        line.split(",")[5:7][0] for line in buffers.stdout.splitlines()[1:]
    } == {"0", "1"}


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--runs", "0"], "--runs"),
        (["--runs", "10000001"], "--runs"),
        (["--modes", "turn,sideways"], "sideways"),
        (["--target-rule", "closest"], "closest"),
        (["--sweep", "luck=0..2"], "luck"),
        (["--sweep", "reserve=3"], "reserve=3"),
        (["--format", "html"], "html"),
        (["--jobs", "0"], "--jobs"),
    ],
)
def test_bad_options_exit_2_with_one_line(args, word):
    result = run("simulate", "--from", "duel", *args)
    assert result.exit_code == 2
    assert word in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fight.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("old", "new", "word"),
    [
        ('side = "b"', 'side = "a"', "two sides"),
        ("hp = 11\n", "", "no creature with hp"),
        ("cost = 2", "cost = 9", "could ever afford"),
        (
            'policy = { reaction = "none" }\nactions = [{ name = "maul"',
            'policy = { aim = 1 }\nactions = [{ name = "maul"',
            "policy.aim",
        ),
        (
            'policy = { reaction = "none" }\nactions = [{ name = "maul"',
            'policy = { target = "nearest" }\nactions = [{ name = "maul"',
            "nearest",
        ),
    ],
)
def test_bad_encounters_exit_2_and_stay_unchanged(tmp_path, old, new, word):
    text = DUEL.replace(old, new, 1)
    assert text != DUEL
    path = _write(tmp_path, text)
    result = run("simulate", str(path), "--runs", "10", "--jobs", "1")
    assert result.exit_code == 2, result.stdout
    assert word in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert path.read_text() == text and result.stdout == ""


def test_policy_table_round_trips_and_is_validated():
    encounter = duel()
    assert encounter.creatures[0].policy == (("reaction", "none"),)
    from d4cli.fileformat.encounter_toml import dump_encounter

    again = parse_encounter(dump_encounter(encounter), "again.toml")
    assert again.creatures[0].policy == (("reaction", "none"),)
    assert check_policy(
        {"target": "random", "reserve": 2, "reaction": "finesse"}, (("Finesse", 3),)
    ) == (("target", "random"), ("reserve", 2), ("reaction", "Finesse"))
    with pytest.raises(InputError, match="reserve"):
        check_policy({"reserve": -1}, ())
    with pytest.raises(InputError, match="Wits"):
        check_policy({"reaction": "Wits"}, (("Finesse", 3),))


def test_policy_picks_the_best_affordable_move_and_keeps_the_reserve():
    setup = prepare(parse_encounter(bundled_examples()["skirmish"].read_text(), "s"), "turn")
    borin = setup.moves[1]  # axe: Might 1d8 Cost 1; shove: Might 1d4 Cost 2
    assert best_move(borin, -2, 10, 0).name == "axe"
    assert best_move(borin, 4, 10, 0) is None  # Might 4 - Load 4 = 0 < Cost 1 (R2)
    assert best_move(borin, 2, 10, 0).name == "axe"
    assert best_move(borin, 2, 10, 2) is None  # 4 - 2 - 1 = 1 < reserve 2
    assert reaction_aspect(Policy(), (("Might", 4), ("Wits", 2)), 3) == "Might"
    assert reaction_aspect(Policy(), (("Might", 4),), 4) is None
    assert reaction_aspect(Policy(reaction="none"), (("Might", 4),), 0) is None


def test_reserve_and_reactions_change_the_figures():
    encounter = parse_encounter(bundled_examples()["skirmish"].read_text(), "s")
    eager = run_all([("a", "round", prepare(encounter, "round"))], 200, 1, 1)["a"]
    careful = run_all([("a", "round", prepare(encounter, "round", reserve=2))], 200, 1, 1)["a"]
    assert eager.sums[3] > 0  # reactions happen
    assert (
        careful.sums[2] / careful.sums[1] < eager.sums[2] / eager.sums[1]
    )  # fewer actions per turn


def test_digits_follow_the_interval():
    assert decimals(0.04) == 2 and decimals(0.4) == 1 and decimals(4) == 0
    assert shown(0.123456, 0.1, 0.15) == "0.12"
    assert shown(2.0, 2.0, 2.0) == "2"
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_tally_counts_draws():
    tally = Tally(2)
    tally.add_run(None, [3, 6, 6, 0, 0, 0, 0], {0: 6})
    assert tally.draws == 1 and tally.rounds == {3: 1} and tally.loads == {0: 6}


def test_max_rounds_draws():
    tally = run_chunk(prepare(duel(), "turn", max_rounds=1), 1, "turn", 0, 200)
    assert tally.draws > 0 and set(tally.rounds) == {1}


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_with_exit_130():
    from _reliability import interrupted

    code, out, err = interrupted(
        ["simulate", "--from", "skirmish", "--runs", "1000000", "--jobs", "2", "--seed", "1"], 2.5
    )
    assert code == 130
    assert out == b"" and b"Traceback" not in err


def test_svg_charts_the_rounds_to_finish_of_its_json():
    import xml.etree.ElementTree as ET

    from d4cli.output.figuretext import share_places

    args = (
        "simulate",
        "--from",
        "duel",
        "--runs",
        "60",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--max-rounds",
        "3",
    )
    report = json.loads(run(*args, "--json").stdout)
    result = run(*args, "--format", "svg")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run(*args, "--format", "svg").stdout  # the same bytes again
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(result.stdout)
    bars = root.findall(f".//{ns}rect[@class='bar']")
    values = [t.text for t in root.iter(f"{ns}text") if t.get("class") == "value"]
    got = sorted(
        (bar.get("data-series"), bar.get("data-category"), value)
        for bar, value in zip(bars, values)
    )
    expected = []
    for mode in report["modes"]:
        places = share_places(mode["runs"])
        counts = dict(mode["rounds"]["histogram"])
        if mode["draws"]["draws"]:
            counts["draw (after 3 rounds)"] = mode["draws"]["draws"]
        expected += [
            (mode["mode"], key, f"{100 * count / mode['runs']:.{places}f}%")
            for key, count in counts.items()
        ]
    assert len(bars) == len(expected) and got == sorted(expected)
    legend = [g.find(f"{ns}text").text for g in root.iter(f"{ns}g") if g.get("class") == "legend"]
    assert legend == [mode["mode"] for mode in report["modes"]]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--format", "svg", "--json"], "--json: --json and --format svg ask for two formats"),
        (["--format", "svg", "--map-side", "Sera"], "--map-side: 'Sera'"),
    ],
)
def test_svg_refusals_are_one_line_exit_2(args, needle):
    result = run("simulate", "--from", "duel", "--runs", "20", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and needle in result.stderr
