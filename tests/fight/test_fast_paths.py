"""The simulator's fast paths give what the general paths give (N1, R2, R5, R11, R20).

Each shortcut taken for speed (a name found as written before folding, printable
ASCII names accepted at once, a pool's dice handed in one call) is checked against
the path it short-cuts.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from d4cli.fight.actions import ActRequest, act
from d4cli.fight.effects import Effect, Pending
from d4cli.fight.encounter_state import Creature, Encounter
from d4cli.fight.team import TeamRequest, team
from d4cli.rules.dice import ExtraDice, ScriptedDice, roll_dice
from d4cli.rules.errors import InputError
from d4cli.rules.names import MAX_NAME_LENGTH, check_text, fold_name, name_problem
from d4cli.rules.pool import PoolRequest, plan_pool
from d4cli.sim.batched_dice import BatchedDice


def encounter() -> Encounter:
    return Encounter(
        name="Test",
        round=1,
        current="Goblin  Archer",
        last_turn="Goblin  Archer",
        creatures=(
            Creature("Aria", (("Finesse", 4), ("Might", 2)), evasion=11, hp=12),
            Creature("Goblin  Archer", (("Finesse", 3),), evasion=10, hp=7, had_turn=True),
            Creature("Zoë", (("Wits", 2),), hp=5),
        ),
    )


@pytest.mark.parametrize(
    "name, spelling",
    [
        ("Aria", "aria"),
        ("Aria", " ARIA "),
        ("Goblin  Archer", "goblin archer"),
        ("Zoë", "ZOË"),
        ("Zoë", "Zo\u0065\u0308"),  # decomposed: NFC folds it to the same key
    ],
)
def test_a_name_as_written_and_a_folded_spelling_find_the_same_creature(name, spelling):
    e = encounter()
    position = [c.name for c in e.creatures].index(name)
    assert e.position_of(name) == e.position_of(spelling) == position
    assert fold_name(spelling) == fold_name(name)


def test_unknown_names_still_fail_and_the_default_turn_follows_a_folded_last_turn():
    e = encounter()
    with pytest.raises(InputError, match="no such creature"):
        e.position_of("Borin")
    folded = e._replace(last_turn="goblin archer")
    assert e.next_position() == folded.next_position() == 2
    assert (
        e._replace(last_turn="Nobody").next_position() == 0
    )  # an unknown last turn: from the first
    aria = e.creatures[0]
    assert aria.aspect("Might") == aria.aspect("might") == ("Might", 2)
    with pytest.raises(InputError, match="no such Aspect"):
        aria.aspect("Wits")


def _slow_check(value: str) -> str | None:
    """What `check_text(value, name=True)` decides without its fast path: None (accepted) or the problem."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "not UTF-8"
    return name_problem(value)


@pytest.mark.parametrize("first", [chr(code) for code in range(128)])
def test_the_ascii_fast_path_of_check_text_gives_the_general_verdict(first):
    for second in ["", " ", "a", "\t", "\x7f", "\x1f", "~", "é", "\u200b", "\udc9b"]:
        for value in (first, first + second, second + first, " " * 3 + first):
            expected = _slow_check(value)
            if expected is None:
                assert check_text(value, "NAME", name=True) == value
            else:
                with pytest.raises(InputError):
                    check_text(value, "NAME", name=True)
            if value.isascii():  # any ASCII text passes the general check as it is
                assert check_text(value, "NAME") == value
    long = "a" * (MAX_NAME_LENGTH + 1)
    with pytest.raises(InputError, match="at most"):
        check_text(long, "NAME", name=True)
    assert check_text("a" * MAX_NAME_LENGTH, "NAME", name=True) == "a" * MAX_NAME_LENGTH


def test_batched_dice_hand_the_same_dice_in_one_call_as_one_at_a_time():
    rng = random.Random(5)
    wanted = [(rng.randint(0, 70), rng.choice((4, 6, 8, 20))) for _ in range(400)]
    one_by_one, many = BatchedDice(random.Random(9)), BatchedDice(random.Random(9))
    for count, sides in wanted:
        expected = tuple(one_by_one.randint(1, sides) for _ in range(count))
        assert roll_dice(count, sides, many) == expected
    assert roll_dice(3, 4, ScriptedDice([1, 2, 3])) == (1, 2, 3)  # a source without roll_many


def test_an_actions_pool_plan_is_the_plan_of_its_request():
    e = encounter()
    extra = (ExtraDice(1, 4),)
    same_extra = (ExtraDice(1, 4),)  # equal, not the same object
    for dice_extra in (extra, same_extra, extra):
        request = ActRequest("Aria", "Finesse", extra=dice_extra, target="goblin archer")
        new, record = act(e, request, ScriptedDice([1, 2, 3, 4, 4]))
        fresh = plan_pool(PoolRequest(aspect=4, load=0, cost=1, extra=dice_extra, evasion=10))
        assert record.result.plan == fresh and record.result.plan.request.extra == dice_extra
        assert record.hp_after == 7 - (14 - 10) and new.find("Goblin Archer").hp == 3
    _, again = act(
        e,
        ActRequest("Aria", "Finesse", extra=extra, target="Goblin  Archer"),
        ScriptedDice([1, 2, 3, 4, 4]),
    )
    assert again == record


def test_team_actions_and_their_grants_equal_the_general_path_and_are_used_once():
    e = encounter()
    request = TeamRequest("Aria", "Goblin  Archer", "disadvantage", aspect="Might")
    first, record = team(e, request)
    second, _ = team(first, TeamRequest("Aria", "goblin archer", "disadvantage", aspect="might"))
    assert record.gate.allowed and first.find("Aria").load == 1 and second.find("Aria").load == 2
    grant = Effect("team action", "disadvantage", "own", "uses", uses=1, origin="team")
    assert first.find("Goblin Archer").effects == second.find("Goblin Archer").effects == (grant,)
    attack = ActRequest("Goblin  Archer", "Finesse", target="Aria")
    after, roll = act(second, attack, ScriptedDice([4, 4]))
    assert (
        roll.grants_used == Pending(disadvantage=("team action",))
        and roll.result.plan.size.size == 2
    )
    assert after.find("Goblin Archer").effects == () and after.find("Goblin Archer").load == 1


def test_every_printable_ascii_pair_is_a_name():
    printable = [chr(code) for code in range(32, 127)]
    for a, b in product(printable, repeat=2):
        value = a + b
        assert (name_problem(value) is None) == bool(value.strip(" "))


def test_a_memo_serves_one_setup_and_gives_what_a_fresh_play_gives():
    from d4cli.fileformat.encounter_toml import bundled_examples, parse_encounter
    from d4cli.sim.engine import play, run_seed
    from d4cli.sim.setup import prepare

    skirmish = parse_encounter(bundled_examples()["skirmish"].read_text(), "skirmish")
    turn, zero = prepare(skirmish, "turn"), prepare(skirmish, "round-zero", reserve=1)
    memo: dict = {}
    for index in range(30):
        for setup, mode in ((turn, "turn"), (zero, "round-zero")):
            fresh = play(setup, BatchedDice(random.Random(run_seed(3, mode, index))))
            shared = play(setup, BatchedDice(random.Random(run_seed(3, mode, index))), memo)
            assert shared == fresh
            assert memo["setup"] is setup
