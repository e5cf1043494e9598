"""``d4cli recap``: the fight from its journal, the luck of its rolls, its place among simulated fights."""

from __future__ import annotations

import csv
import io
import itertools
import json
from fractions import Fraction

import pytest
from _cli import fails, files, ok, ok_json, run
from _fight import play_two_rounds
from _width import at_width


@pytest.fixture
def fought(isolated_env):
    play_two_rounds()
    return isolated_env / "encounter.toml"


def by_name(report: dict) -> dict[str, dict]:
    return {c["name"]: c for c in report["creatures"]}


def test_recap_after_two_rounds_counts_what_happened(fought):
    before = files(fought)
    report = ok_json("recap", "--runs", "0")
    assert files(fought) == before
    assert (report["kind"], report["from_seq"], report["to_seq"], report["rounds"]) == (
        "recap",
        1,
        24,
        2,
    )
    assert report["sides"] == ["party", "foes"] and report["winner"] is None
    figures = {
        name: (
            c["damage_dealt"],
            c["damage_taken"],
            c["actions_on_turn"],
            c["actions_off_turn"],
            c["team_actions"],
            c["load_spent"],
            c["turns"],
            c["turns_unable"],
        )
        for name, c in by_name(report).items()
    }
    assert figures == {
        "Aria": (3, 7, 3, 0, 0, 3, 2, 0),  # 2 + 0 + 1 dealt; 1 + 3 from arrows and 3 from the beam
        "Borin": (4, 6, 2, 0, 0, 3, 2, 0),
        "Goblin Archer": (4, 3, 2, 1, 0, 3, 2, 0),
        "Goblin Brute": (6, 4, 2, 0, 1, 4, 2, 0),  # club 1 + smash 2 + the Team Action 1
    }
    assert report["damage_per_round"] == [
        {"round": 1, "sides": {"party": 2, "foes": 1}, "other": 0},
        {"round": 2, "sides": {"party": 5, "foes": 9}, "other": 3},
    ]
    assert report["damage_by_side"] == {"party": 7, "foes": 10}
    assert report["longest_refusal"] is None
    assert report["simulated"] is None and report["simulated_note"] == "not asked for (--runs 0)"


def _brute(entry: dict) -> Fraction:
    """The mid-rank of an act's total among every outcome of its dice as rolled (pool d4s and extra dice)."""
    faces = [range(1, 5)] * entry["pool_size"]
    shift = 0
    for extra in entry["extra"]:
        count, sides = (int(part) for part in extra["notation"].split("+")[0].split("d"))
        faces += [range(1, sides + 1)] * count
        shift += extra["modifier"]
    totals = [sum(dice) + shift for dice in itertools.product(*faces)]
    below = sum(1 for t in totals if t < entry["total"])
    equal = sum(1 for t in totals if t == entry["total"])
    return Fraction(2 * below + equal, 2 * len(totals))


def _brute_check(entry: dict) -> Fraction:
    """The mid-rank of a check's Result among every outcome of d20, Advantage d6s, Disadvantage d6, crit d6."""
    level, minus = entry["advantage_level"], entry["disadvantage"] == 1
    if minus and level:
        level, minus = level - 1, False
    modifiers = entry["attribute"] + entry["proficiency"] + entry["specialization"]
    totals = []
    for natural in range(1, 21):
        for dice in itertools.product(range(1, 7), repeat=level):
            bonus = max(dice) + max(0, dice.count(6) - 1) if dice else 0
            for down in range(1, 7) if minus else [0]:
                for crit in range(1, 7) if natural == 20 else [0] * 6:
                    totals.append(natural + modifiers + bonus - down + crit)
    below = sum(1 for t in totals if t < entry["total"])
    equal = sum(1 for t in totals if t == entry["total"])
    return Fraction(2 * below + equal, 2 * len(totals))


def test_each_rolls_luck_is_its_exact_mid_rank(fought):
    report = ok_json("recap", "--runs", "0")
    log = {entry["seq"]: entry for entry in ok_json("log")["entries"]}
    rolled = [seq for seq, entry in log.items() if entry["kind"] in ("act", "check")]
    assert [roll["seq"] for roll in report["rolls"]] == rolled
    for roll in report["rolls"]:
        entry = log[roll["seq"]]
        exact = _brute(entry) if entry["kind"] == "act" else _brute_check(entry)
        assert roll["percentile"] == float(exact), roll
        assert (roll["creature"], roll["total"]) == (entry["actor"], entry["total"])
    aria = [Fraction(roll["percentile"]) for roll in report["rolls"] if roll["creature"] == "Aria"]
    luck = by_name(report)["Aria"]["luck"]
    assert luck["rolls"] == 4 == len(aria)
    assert luck["mean"] == pytest.approx(float(sum(aria) / 4), abs=1e-15)
    assert luck["verdict"] == "even"


@pytest.mark.slow  # over a second of simulation or child processes
def test_the_fight_is_placed_among_simulated_fights_from_its_start(fought):
    report = ok_json("recap", "--runs", "200", "--seed", "3")
    sim = report["simulated"]
    assert (sim["mode"], sim["runs"], sim["seed"]) == ("turn", 200, 3)
    # The same fights as `simulate --engine reference` plays from the init's state (the skirmish).
    mode = ok_json(
        "simulate",
        "--from",
        "skirmish",
        "--runs",
        "200",
        "--seed",
        "3",
        "--modes",
        "turn",
        "--engine",
        "reference",
    )["modes"][0]
    histogram = {int(k): v for k, v in mode["rounds"]["histogram"].items()}
    below = sum(v for k, v in histogram.items() if k < 2)
    assert sim["rounds"] == {"real": 2, "percentile": (below + histogram.get(2, 0) / 2) / 200}
    assert sim["wins"] == {side: mode["wins"][side]["rate"] for side in ("party", "foes")}
    assert sim["damage"]["party"]["real"] == 7 and sim["damage"]["foes"]["real"] == 10
    assert all(0 <= d["percentile"] <= 1 for d in sim["damage"].values())
    assert report == ok_json("recap", "--runs", "200", "--seed", "3")


def test_from_seq_recaps_only_what_follows(fought):
    report = ok_json("recap", "--from-seq", "13", "--runs", "0")  # #13: the end of round 1
    assert (report["from_seq"], report["rounds"]) == (13, 1)
    assert [r["round"] for r in report["damage_per_round"]] == [2]
    assert by_name(report)["Aria"]["damage_dealt"] == 1


def test_undone_changes_are_not_recapped(fought):
    ok("undo")  # the round's last turn end
    ok("undo")  # the brute's smash
    report = ok_json("recap", "--runs", "0")
    assert report["to_seq"] == 22
    assert by_name(report)["Borin"]["damage_taken"] == 0
    assert report["damage_by_side"]["foes"] == 4


def test_downs_ups_and_the_longest_refusal_streak(fought):
    ok("damage", "Goblin Archer", "99")
    ok("heal", "Goblin Archer", "2")
    ok(
        "exhaust", "Goblin Brute", "5"
    )  # resets to Load 5 > Might 3: no Cost 1 at its turn start (R1, R2)
    for _ in range(2):
        for _ in range(4):
            ok("turn", "start")
        ok("turn", "end")
    report = ok_json("recap", "--runs", "0")
    archer, brute = by_name(report)["Goblin Archer"], by_name(report)["Goblin Brute"]
    assert [(d["event"], d["round"]) for d in archer["downs"]] == [("down", 2), ("up", 2)]
    assert (brute["turns_unable"], brute["longest_unable"]) == (2, 2)
    assert report["longest_refusal"] == {"creature": "Goblin Brute", "turns": 2}


def test_a_fight_over_is_recapped_with_its_winner_and_no_simulation_from_a_won_start(fought):
    ok("damage", "Goblin Archer", "99")
    ok("damage", "Goblin Brute", "99")
    ok("turn", "start")
    report = ok_json("recap", "--runs", "50", "--seed", "1")
    assert report["winner"] == "party" and report["simulated"] is not None
    late = ok_json("recap", "--from-seq", "26", "--runs", "50", "--seed", "1")
    assert late["simulated"] is None and "the fight is over" in late["simulated_note"]


def test_csv_and_markdown_carry_the_same_numbers(fought):
    report = ok_json("recap", "--runs", "0")
    rows = list(csv.DictReader(io.StringIO(ok("recap", "--runs", "0", "--format", "csv").stdout)))
    dealt = {r["creature"]: int(r["value"]) for r in rows if r["figure"] == "damage_dealt"}
    assert dealt == {name: c["damage_dealt"] for name, c in by_name(report).items()}
    percentiles = [float(r["value"]) for r in rows if r["figure"] == "roll_percentile"]
    assert percentiles == [roll["percentile"] for roll in report["rolls"]]
    markdown = ok("recap", "--runs", "0", "--format", "markdown").stdout
    tables = [line for line in markdown.splitlines() if line.startswith("|")]
    assert (
        len({line.count("|") for line in tables[:6]}) == 1
    )  # the creature table: header, rule, 4 rows
    assert "| Goblin Brute (foes) | 6 | 4 | 2 / 0 | 1 | 4 | 0 of 2 | - |" in markdown


def test_no_fight_yet(isolated_env):
    path = isolated_env / "encounter.toml"
    ok("init", "--from", "skirmish")
    assert (
        fails(2, path, "recap")
        == "d4cli: error: recap: no fight yet: nothing in the log since the init"
    )
    path.with_name("encounter.toml.journal").unlink()
    assert "no fight yet" in fails(2, path, "recap", "--json")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--from-seq", "24"), "--from-seq: 24: leaves nothing to recap: the newest entry is #24"),
        (("--from-seq", "99"), "--from-seq: 99"),
        (("--from-seq", "0"), "--from-seq: 0: is before the init (#1)"),
        (("--format", "html"), "--format: 'html'"),
        (("--format", "svg", "--json"), "--json: --json and --format svg ask for two formats"),
        (("--format", "csv", "--json"), "--json: --json and --format csv ask for two formats"),
        (("--runs", "-1"), "--runs: -1"),
        (("--seed", "x"), "--seed: 'x'"),
    ],
)
def test_bad_input_is_one_line_exit_2(fought, args, needle):
    assert needle in fails(2, fought, "recap", *args)


@pytest.mark.parametrize("width", [80, 120])
def test_recap_human_output(fought, snapshot, monkeypatch, width):
    at_width(monkeypatch, width)
    result = run("recap", "--runs", "100", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == snapshot


def test_recap_charts_damage_per_round_per_side(fought):
    lines = run("recap", "--runs", "0").stdout.splitlines()
    at = lines.index("foes dealt, per round:")
    assert lines[at + 1].split() == ["1", "#" * 4, "1"] and lines[at + 2].split() == [
        "2",
        "#" * 40,
        "9",
    ]


def test_recap_markdown_output(fought, snapshot):
    assert ok("recap", "--runs", "100", "--seed", "1", "--format", "markdown").stdout == snapshot


def test_recap_json_is_one_object(fought):
    assert len(run("recap", "--runs", "0", "--json").stdout.splitlines()) == 1
    json.loads(run("recap", "--runs", "0", "--json").stdout)


def test_recap_svg_charts_the_damage_per_round_of_its_json(fought):
    import xml.etree.ElementTree as ET

    report = ok_json("recap", "--runs", "0")
    text = ok("recap", "--runs", "0", "--format", "svg").stdout
    assert text == ok("recap", "--runs", "0", "--format", "svg").stdout  # the same bytes again
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    bars = root.findall(f".//{ns}rect[@class='bar']")
    expected = [
        (side, str(r["round"]), str(r["sides"].get(side, 0)))
        for r in report["damage_per_round"]
        for side in report["sides"]
    ]
    assert len(bars) == len(report["damage_per_round"]) * len(report["sides"]) == 4
    values = [t.text for t in root.iter(f"{ns}text") if t.get("class") == "value"]
    assert [
        (bar.get("data-series"), bar.get("data-category"), value)
        for bar, value in zip(bars, values)
    ] == expected
    assert [
        g.find(f"{ns}text").text for g in root.iter(f"{ns}g") if g.get("class") == "legend"
    ] == report["sides"]
    assert [t.text for t in root.iter(f"{ns}text") if t.get("class") == "category"] == ["1", "2"]
