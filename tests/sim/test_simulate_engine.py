"""The simulator's play engine: named actions as the command plays them, the start state, sides, the pool (R4, R18, R19)."""

from __future__ import annotations

import random

import pytest
from _cli import fails, ok

from d4cli.fight.effects import Effect
from d4cli.fight.encounter_state import Action, Encounter, new_creature
from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
from d4cli.rules.errors import InputError
from d4cli.sim.batched_dice import BatchedDice
from d4cli.sim.engine import play, run_seed
from d4cli.sim.engines import EngineChoice
from d4cli.sim.pieces import run_all
from d4cli.sim.setup import prepare

# The pool and worker checks here are the reference engine's (one seed per run).
REFERENCE = EngineChoice("reference", "reference")


def example(name: str, change: str = "", into: str = "") -> str:
    text = bundled_examples()[name].read_text()
    if change:
        assert change in text
        text = text.replace(change, into, 1)
    return text


def duel_with(sources: str) -> str:
    """The bundled duel with *sources* added to Sera's rapier."""
    return example("duel", 'extra = ["1d6"]\n', 'extra = ["1d6"]\n' + sources)


def wins(text: str, runs: int = 200, mode: str = "turn", **options: object) -> list[int]:
    setup = prepare(parse_encounter(text, "duel.toml"), mode, **options)  # type: ignore[arg-type]
    return run_all([(mode, mode, setup)], runs, 9, 1)[mode].wins


def test_an_actions_own_advantage_and_disadvantage_change_the_fight():
    plain = wins(duel_with(""))
    advantage = wins(duel_with('advantage = ["high ground", "flank", "blessing"]\n'))
    disadvantage = wins(duel_with('disadvantage = ["blinded", "prone", "cursed"]\n'))
    assert plain == [178, 22]
    assert advantage == [200, 0]
    assert disadvantage == [0, 200]


def test_a_source_named_twice_counts_once_as_in_the_command():
    once = wins(duel_with('disadvantage = ["prone"]\n'))
    twice = wins(duel_with('disadvantage = ["prone", "Prone"]\n'))
    assert once == twice != wins(duel_with(""))
    setup = prepare(
        parse_encounter(
            duel_with('advantage = ["flank", "FLANK"]\ndisadvantage = ["prone"]\n'), "d"
        ),
        "turn",
    )
    assert setup.moves[0][0].net == 0


def test_the_simulators_request_is_the_commands_request(tmp_path, monkeypatch):
    import d4cli.api.tracker
    import d4cli.fight.actions
    from d4cli.sim.engine import _act_request

    path = tmp_path / "encounter.toml"
    path.write_text(duel_with('advantage = ["high ground", "flank"]\ndisadvantage = ["prone"]\n'))
    seen = []
    real = d4cli.fight.actions.act

    def spy(encounter, request, rng):
        seen.append(request)
        return real(encounter, request, rng)

    # the library's act: the one the command (and a seat) runs
    monkeypatch.setattr(d4cli.api.transitions, "act", spy)
    ok("act", "Sera", "rapier", "--target", "The Masked Blade", "--dry-run", "-f", str(path))
    setup = prepare(parse_encounter(path.read_text(), str(path)), "turn")
    ours = _act_request(setup, 0, -1, 1, 11)
    assert seen == [ours]
    assert ours.advantage == ("high ground", "flank") and ours.disadvantage == ("prone",)
    assert ours.action == "rapier" and ours.aspect == "Finesse" and ours.dc is None
    _, record = real(setup.encounter, ours, BatchedDice(random.Random(1)))
    assert [s[:2] for s in record.sources] == [
        ("high ground", "advantage"),
        ("flank", "advantage"),
        ("prone", "disadvantage"),
    ]
    assert (
        record.result.plan.size.size == 6 == 5 + setup.moves[0][0].net
    )  # Finesse 5, net +1: as the policy counts (R4, R5)


def test_an_action_with_a_dc_is_a_check_the_policy_never_takes():
    setup = prepare(parse_encounter(example("skirmish"), "s"), "turn")
    assert [m.name for m in setup.moves[0]] == ["dagger"]  # "sneak" has dc = 10
    only_checks = example("duel", 'extra = ["1d6"]\n', 'extra = ["1d6"]\ndc = 9\n')
    with pytest.raises(InputError, match="'Sera': has only actions with a DC"):
        prepare(parse_encounter(only_checks, "d"), "turn")


DOWN_SIDE = (
    "hp = 14\nmax_hp = 14\naspects = { Finesse = 4",
    "hp = 0\nmax_hp = 14\naspects = { Finesse = 4",
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_side_already_down_is_refused_before_play(tmp_path, jobs):
    path = tmp_path / "encounter.toml"
    path.write_text(example("duel", *DOWN_SIDE))
    line = fails(2, path, "simulate", str(path), "--runs", "20", "--seed", "1", "--jobs", jobs)
    assert (
        line
        == "d4cli: error: side: 'the Blade': has every creature with hp down: the fight is already over (R21); heal one to simulate"
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_creature_down_is_refused_naming_a_side(tmp_path, jobs):
    path = tmp_path / "encounter.toml"
    path.write_text(example("duel").replace("hp = 14\n", "hp = 0\n"))
    line = fails(
        2,
        path,
        "simulate",
        str(path),
        "--runs",
        "20",
        "--seed",
        "1",
        "--modes",
        "turn",
        "--jobs",
        jobs,
    )
    assert (
        line
        == "d4cli: error: side: 'Sera': has every creature with hp down: the fight is already over (R21); heal one to simulate"
    )


@pytest.mark.slow
def test_an_error_in_a_worker_reaches_the_parent_as_itself(monkeypatch):
    import d4cli.sim.engine
    from d4cli.rules.errors import RefusedError

    setup = prepare(parse_encounter(example("duel"), "d"), "turn")

    def failing(*args):
        raise InputError("turn start", None, "every creature is down (R18)")

    monkeypatch.setattr(d4cli.sim.engine, "run_chunk", failing)  # the forked workers inherit it
    with pytest.raises(InputError) as raised:
        run_all([("turn", "turn", setup)], 8, 1, 2, engine=REFERENCE)
    assert (
        str(raised.value) == "turn start: every creature is down (R18)"
        and raised.value.field == "turn start"
    )

    def refusing(*args):
        raise RefusedError("refused (R2)")

    monkeypatch.setattr(d4cli.sim.engine, "run_chunk", refusing)
    with pytest.raises(RefusedError, match=r"^refused \(R2\)$"):
        run_all([("turn", "turn", setup)], 8, 1, 2, engine=REFERENCE)


def mid_turn(tmp_path, *acts: str):
    """The skirmish saved during Aria's turn of round 1, after *acts* (each a target of her dagger)."""
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish", "-f", str(path))
    ok("turn", "start", "-f", str(path))
    for target in acts:
        ok("act", "Aria", "dagger", "--target", target, "--seed", "3", "-f", str(path))
    return parse_encounter(path.read_text(), str(path))


def traced_play(setup, monkeypatch, index: int = 0):
    """Play one fight, logging each turn start and each action's actor."""
    import d4cli.fight.actions
    import d4cli.fight.turns

    log: list[str] = []
    real_act, real_start = d4cli.fight.actions.act, d4cli.fight.turns.start_turn

    def act(encounter, request, rng):
        log.append(request.actor)
        return real_act(encounter, request, rng)

    def start_turn(encounter, name=None):
        encounter, event = real_start(encounter, name)
        log.append(f"start {encounter.current}")
        return encounter, event

    monkeypatch.setattr(d4cli.fight.actions, "act", act)
    monkeypatch.setattr(d4cli.fight.turns, "start_turn", start_turn)
    outcome = play(setup, BatchedDice(random.Random(run_seed(1, "turn", index))))
    return log, outcome


def test_a_file_saved_mid_turn_goes_on_with_that_turn(tmp_path, monkeypatch):
    encounter = mid_turn(tmp_path, "Goblin Archer")
    assert (encounter.round, encounter.current, encounter.creatures[0].load) == (1, "Aria", 0)
    log, (winner, figures, loads) = traced_play(prepare(encounter, "turn"), monkeypatch)
    # Finesse 4 from Load 0: four more daggers (Load 0, 1, 2, 3) before anyone else's turn (R2).
    assert log[:5] == ["Aria"] * 4 + ["start Borin"]
    assert (
        figures[0] >= 1 and figures[1] == sum(loads.values()) + 1
    )  # her turn counts; its start Load is not known


def test_the_running_round_is_round_one(tmp_path):
    encounter = mid_turn(tmp_path, "Goblin Archer")
    tally = run_all([("turn", "turn", prepare(encounter, "turn"))], 50, 1, 1)["turn"]
    assert min(tally.rounds) == 1 and sum(tally.rounds.values()) == 50
    cut = run_all([("turn", "turn", prepare(encounter, "turn", max_rounds=1))], 50, 1, 1)["turn"]
    assert cut.rounds == {1: 50}  # never a second round: the running one is the first


def test_a_file_before_round_one_starts_it(monkeypatch):
    setup = prepare(parse_encounter(example("skirmish"), "s"), "turn")
    assert setup.encounter.round == 0
    log, (winner, figures, loads) = traced_play(setup, monkeypatch)
    assert log[0] == "start Aria" and figures[0] >= 1 and figures[1] == sum(loads.values())


def test_a_running_turn_of_a_down_creature_just_ends(tmp_path, monkeypatch):
    text = mid_turn(tmp_path)

    encounter = text._replace(creatures=(text.creatures[0]._replace(hp=0),) + text.creatures[1:])
    setup = prepare(encounter, "turn")
    assert setup.encounter.current is None and setup.encounter.round == 1
    log, _ = traced_play(setup, monkeypatch)
    assert log[0] == "start Borin"


TROLL = """
[[creature]]
name = "Troll"
load_buffer = 1
exhaustion = 0
load = -1
evasion = 8
hp = 60
max_hp = 60
aspects = { Might = 5 }
side = "wild"
actions = [{ name = "claws", aspect = "Might", cost = 1, extra = ["1d8"] }]
"""


def test_with_three_sides_the_last_side_standing_wins():
    encounter = parse_encounter(example("skirmish") + TROLL, "three.toml")
    setup = prepare(encounter, "turn")
    assert setup.sides == ("party", "foes", "wild")
    hp = {
        side: sum(c.hp for c, s in zip(encounter.creatures, setup.side_of) if s == number)
        for number, side in enumerate(setup.sides)
    }
    memo: dict = {}
    winners = []
    for index in range(60):
        winner, figures, _ = play(
            setup, BatchedDice(random.Random(run_seed(1, "turn", index))), memo
        )
        winners.append(winner)
        assert winner is not None
        # Every creature of both other sides went down: the damage dealt covers their hp (R16, R18).
        beaten = sum(hp[side] for number, side in enumerate(setup.sides) if number != winner)
        assert sum(figures[5:]) >= beaten
    assert set(winners) == {0, 2}  # the party or the troll, never the goblins
    tally = run_all([("turn", "turn", setup)], 60, 1, 1)["turn"]
    assert tally.wins[1] == 0 and sum(tally.wins) + tally.draws == 60
    assert min(tally.rounds) >= 2  # the troll is still up after the goblins fall


@pytest.mark.slow
def test_no_more_workers_than_pieces(monkeypatch):
    import concurrent.futures

    made: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def counting(max_workers, **options):
        made.append(max_workers)
        return real(max_workers, **options)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting)
    setup = prepare(parse_encounter(example("duel"), "d"), "turn")
    one = run_all([("turn", "turn", setup)], 1, 1, 32, engine=REFERENCE)
    assert made == [1] and one["turn"].runs == 1
    run_all(
        [
            ("turn", "turn", setup),
            ("round", "round", prepare(parse_encounter(example("duel"), "d"), "round")),
        ],
        3,
        1,
        32,
        engine=REFERENCE,
    )
    assert made == [1, 6]  # 3 pieces of one run per mode
    assert (
        run_all([("turn", "turn", setup)], 40, 1, 2, engine=REFERENCE)["turn"].wins
        == run_all([("turn", "turn", setup)], 40, 1, 1, engine=REFERENCE)["turn"].wins
    )
    assert made[2] == 2


@pytest.mark.slow
def test_no_traceback_at_exit_from_the_process_pool(tmp_path):
    import subprocess
    import sys

    for _ in range(30):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "d4cli",
                "simulate",
                "--from",
                "duel",
                "--runs",
                "10",
                "--json",
                "--jobs",
                "2",
                "--modes",
                "turn",
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert (done.returncode, done.stderr) == (0, "")
        assert '"runs": 10' in done.stdout


@pytest.mark.slow
def test_ctrl_c_to_the_whole_group_stops_cleanly(tmp_path):
    from _reliability import interrupted

    for _ in range(3):
        code, out, err = interrupted(
            ["simulate", "--from", "skirmish", "--runs", "2000000", "--jobs", "2"], 1.5, tmp_path
        )
        assert (code, out, err) == (130, b"", b"d4cli: interrupted: nothing was saved\n")


def test_a_chunk_plays_each_run_as_a_fresh_dice_source_would():
    from d4cli.sim.engine import Fight, Tally, run_chunk

    for mode, rule in (("turn", "random"), ("round-zero", None)):
        setup = prepare(parse_encounter(example("skirmish"), "s"), mode, target=rule)
        fresh = Tally(2, creatures=4)
        for index in range(60):
            fight = Fight()
            winner, figures, loads = play(
                setup, BatchedDice(random.Random(run_seed(5, mode, index))), None, fight
            )
            fresh.add_run(winner, figures, loads)
            fresh.add_creatures(fight, setup.side_of, figures)
        assert run_chunk(setup, 5, mode, 0, 60) == fresh


def test_choose_target_agrees_with_pick_target():
    from d4cli.sim.policy import choose_target, pick_target

    class Foe:
        def __init__(self, hp):
            self.hp = hp

    creatures = [Foe(5), Foe(None), Foe(3), Foe(0), Foe(3), Foe(9)]
    positions = (0, 1, 2, 3, 4, 5)
    candidates = [(0, 5), (2, 3), (4, 3), (5, 9)]
    assert (
        choose_target("lowest-hp", positions, creatures, None)
        == pick_target("lowest-hp", candidates, None)
        == 2
    )
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert choose_target("random", positions, creatures, ours) == pick_target(
            "random", candidates, theirs
        )
    assert choose_target("lowest-hp", (1, 3), creatures, None) is None
    assert choose_target("random", (1, 3), creatures, random.Random(1)) is None


def test_a_reaction_the_attacker_cannot_hold_is_not_made():
    """The attacker holds ``team action`` as an Advantage grant: a Disadvantage grant of that
    name is refused as the command refuses it (one effect per source name, R20), so the ally
    makes no reaction and the fight plays on (R11)."""
    club = (Action("club", "Might", 1, ("1d4",)),)
    grant = Effect("team action", "advantage", "own", "uses", uses=1, origin="team")
    goblin = new_creature("G", (("Might", 3),), hp=6)._replace(
        side="foes", effects=(grant,), actions=club
    )
    ally = new_creature("A", (("Might", 9),), hp=6)._replace(
        side="party", policy=(("reaction", "always"),), actions=club
    )
    setup = prepare(Encounter(name="t", creatures=(goblin, ally)), "turn")
    held = [play(setup, BatchedDice(random.Random(seed)))[1][3] for seed in range(20)]
    plain = prepare(Encounter(name="t", creatures=(goblin._replace(effects=()), ally)), "turn")
    free = [play(plain, BatchedDice(random.Random(seed)))[1][3] for seed in range(20)]
    assert sum(held) < sum(free)  # the goblin's first attack met no reaction
    assert min(free) >= 1
