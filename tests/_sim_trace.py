"""A recorded trace of seeded simulated fights: every record of every transition, as JSON.

`trace_fight` plays one fight as `d4cli.sim.engine.play` does (same policy, same
dice source, same seed) but through the public transitions by name, and keeps
the JSON object (`d4cli.journal.entry.record_json`) of every record, the encounter
after each transition (`state_of`: its fields as nested dicts), and what `play` returned. The
fixture ``tests/sim/fixtures/sim_trace.json.gz`` was written by `write_fixture`
from the reference implementation of the transitions; tests compare the code
against it, so a faster transition must give the very same records and states.
Never rewrite the fixture to make a test pass: a difference is a change of
behaviour.

The fights: the bundled skirmish and duel in every mode, the skirmish with
lasting effects of every duration (R20), and the skirmish with ``random``
targets and a reserve of 1, with a Load Buffer of 0, and cut short to a draw.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

FIXTURE = Path(__file__).parent / "sim" / "fixtures" / "sim_trace.json.gz"
FIGHTS_PER_SETUP = 20


def setups() -> list[tuple[str, str, object]]:
    """``(label, mode, Setup)`` of every traced setup."""

    from d4cli.fight.effects import Effect
    from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
    from d4cli.sim.setup import prepare

    def example(name: str):
        return parse_encounter(bundled_examples()[name].read_text(), name)

    skirmish, duel = example("skirmish"), example("duel")
    effects = {
        "Aria": (
            Effect("cursed", "disadvantage", "own", "uses", uses=3),
            Effect("winded", "disadvantage", "own", "rounds", last_round=2),
            Effect("hidden", "advantage", "own", "end", creature="Aria"),
        ),
        "Borin": (
            Effect("shaken", "disadvantage", "own", "start", creature="Borin"),
            Effect("exposed", "advantage", "against", "end", creature="Goblin Brute"),
        ),
        "Goblin Archer": (
            Effect("keen eye", "advantage", "own"),
            Effect("rage", "advantage", "own", "rounds", last_round=3),
        ),
        "Goblin Brute": (
            Effect("prone", "advantage", "against", "rounds", last_round=1),
            Effect("Team Action", "advantage", "own", "uses", uses=1, origin="team"),
        ),
    }
    with_effects = skirmish._replace(
        creatures=tuple(c._replace(effects=effects.get(c.name, ())) for c in skirmish.creatures)
    )
    out = []
    for mode in ("turn", "round", "round-zero"):
        out.append((f"skirmish/{mode}", mode, prepare(skirmish, mode)))
        out.append((f"duel/{mode}", mode, prepare(duel, mode)))
        out.append((f"effects/{mode}", mode, prepare(with_effects, mode)))
    out.append(
        ("random-reserve/turn", "turn", prepare(skirmish, "turn", target="random", reserve=1))
    )
    out.append(("buffer-0/round", "round", prepare(skirmish, "round", buffer=0, max_rounds=6)))
    out.append(("draw/round-zero", "round-zero", prepare(skirmish, "round-zero", max_rounds=1)))
    return out


def trace_fight(setup, seed: int, mode: str, index: int) -> dict:
    """One fight: ``{"records": [...], "states": [...], "play": [winner, figures, loads]}``."""
    from d4cli.fight.actions import ActRequest, act
    from d4cli.fight.team import TeamRequest, team
    from d4cli.journal.entry import record_json
    from d4cli.sim.batched_dice import BatchedDice
    from d4cli.sim.engine import play, run_seed
    from d4cli.sim.policy import (
        MAX_ACTIONS,
        best_move,
        can_act,
        pick_target,
        reaction_aspect,
        worth_reacting,
    )

    records: list[dict] = []
    states: list[dict] = []

    def keep(pair):
        encounter, record = pair
        records.append(without_later_keys(record_json(record)))
        states.append(without_player_view(state_of(encounter)))
        return encounter, record

    rng = BatchedDice(random.Random(run_seed(seed, mode, index)))
    encounter = setup.encounter
    side_of, moves, policies = setup.side_of, setup.moves, setup.policies
    names = [c.name for c in encounter.creatures]
    rounds = 0
    done = False
    while not done:
        if encounter.next_position() is None:
            if rounds >= setup.max_rounds:
                break
            rounds += 1
        encounter, _ = keep(start_turn_(encounter))
        me = names.index(encounter.current)
        mine, policy, side = moves[me], policies[me], side_of[me]
        can_act(mine, encounter.creatures[me].load)
        for _ in range(MAX_ACTIONS):
            creatures = encounter.creatures
            candidates = [
                (i, c.hp)
                for i, c in enumerate(creatures)
                if side_of[i] != side and c.hp is not None and c.hp > 0
            ]
            if not candidates:
                break
            target = pick_target(policy.target, candidates, rng)
            move = best_move(mine, creatures[me].load, creatures[target].evasion, policy.reserve)
            if move is None:
                break
            defended = side_of[target]
            for ally, other in enumerate(creatures):
                if side_of[ally] != defended or other.down:
                    continue
                aspect = reaction_aspect(policies[ally], other.aspects, other.load)
                # The default rule weighs the reaction's cost (round mode: a turn still to come keeps its Load).
                to_come = encounter.mode == "round" and not other.had_turn
                if aspect is not None and worth_reacting(
                    policies[ally],
                    to_come,
                    moves[ally],
                    other.load,
                    move,
                    creatures[me].load,
                    creatures[target].evasion,
                    creatures[me].evasion,
                ):
                    encounter, _ = keep(
                        team(
                            encounter,
                            TeamRequest(other.name, names[me], "disadvantage", aspect=aspect),
                        )
                    )
                    break
            request = ActRequest(
                names[me], move.aspect, cost=move.cost, extra=move.extra, target=names[target]
            )
            encounter, record = keep(act(encounter, request, rng))
            if record.hp_after == 0 and not any(
                s == defended and c.hp is not None and c.hp > 0
                for c, s in zip(encounter.creatures, side_of)
            ):
                done = True
                break
        if not done:
            encounter, _ = keep(end_turn_(encounter))
    winner, figures, loads = play(setup, BatchedDice(random.Random(run_seed(seed, mode, index))))
    fight = {"records": records, "states": states, "play": [winner, figures, sorted(loads.items())]}
    return json.loads(json.dumps(fight))  # as the fixture reads back: lists, string keys


def start_turn_(encounter):
    from d4cli.fight.turns import start_turn

    return start_turn(encounter)


def end_turn_(encounter):
    from d4cli.fight.turns import end_turn

    return end_turn(encounter)


# What the GM hides from the players (schema 3) at its defaults: the simulator never sets it, and the
# fixture was recorded before it existed, so a state is compared without these fields at their defaults.
_VIEW_DEFAULTS = {"hidden": False, "alias": "", "hp_shown": None, "evasion_shown": False}


def state_of(value: object) -> object:
    """*value* with every record (a named tuple of the model) turned into a dict of its fields, nested."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {name: state_of(item) for name, item in value._asdict().items()}
    if isinstance(value, tuple | list):
        return type(value)(state_of(item) for item in value)
    return value


# Keys that came after the fixture was recorded, at the values the simulator always gives them:
# a record's ``gm_called`` (it never calls for a roll, R9) and ``entered`` (it rolls its dice,
# never takes entered faces); an encounter's ``resume_at`` and ``round_open`` (it never removes
# a creature, R17, R19).
_LATER_RECORD_KEYS = {"gm_called": False, "entered": False}
_LATER_STATE_KEYS = {"resume_at": None, "round_open": False}


def without_later_keys(record: dict) -> dict:
    """*record* (a record's JSON) without the keys of `_LATER_RECORD_KEYS` at those values."""
    for key, default in _LATER_RECORD_KEYS.items():
        if key in record and record[key] == default:
            del record[key]
    return record


def without_player_view(state: dict) -> dict:
    """*state* (an encounter's `asdict`) without the player view's fields where they hold their
    defaults, nor the later keys of `_LATER_STATE_KEYS` at theirs."""
    if state.get("player_view") is None:
        state.pop("player_view", None)
    for key, default in _LATER_STATE_KEYS.items():
        if key in state and state[key] == default:
            del state[key]
    for creature in state.get("creatures", ()):
        for key, default in _VIEW_DEFAULTS.items():
            if key in creature and creature[key] == default:
                del creature[key]
        for effect in creature.get("effects", ()):
            if effect.get("public") is True:
                del effect["public"]
    return state


def trace_all() -> dict[str, list[dict]]:
    """Every traced fight by setup label (seed 7, runs 0..FIGHTS_PER_SETUP - 1)."""
    return {
        label: [trace_fight(setup, 7, mode, index) for index in range(FIGHTS_PER_SETUP)]
        for label, mode, setup in setups()
    }


def load_fixture() -> dict[str, list[dict]]:
    """The recorded fights; a creature's ``pending`` grants, empty in every recorded state, are left out:
    the model no longer keeps them (a file's old ``pending`` table is read into effects)."""
    fixture = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    for fights in fixture.values():
        for fight in fights:
            for state in fight["states"]:
                for creature in state.get("creatures", ()):
                    if creature.get("pending") == {"advantage": [], "disadvantage": []}:
                        del creature["pending"]
    return fixture


def write_fixture() -> None:
    """Record the fixture (only from the reference implementation: see the module docstring)."""
    FIXTURE.parent.mkdir(exist_ok=True)
    text = json.dumps(trace_all(), sort_keys=True, separators=(",", ":"))
    FIXTURE.write_bytes(gzip.compress(text.encode(), mtime=0))


if __name__ == "__main__":
    write_fixture()
