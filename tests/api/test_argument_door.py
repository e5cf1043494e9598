"""Every bad argument to the library, wrong types included, is an `InputError` naming it.

`d4cli.api.arguments.checked` is the one door: these tests walk every public call of
`d4cli.api` (and `Tracker`'s, `Reader`'s methods) and hand each annotated parameter a value
of no type it takes; the answer is always the error family, never a bare `TypeError`.
"""

from __future__ import annotations

import inspect
import warnings

import pytest

from d4cli import api
from d4cli.api import InputError, encounter, odds, rolls
from d4cli.api.balance import apply_balance, balance
from d4cli.api.encounter import Reader, Tracker
from d4cli.api.simulation import forecast, simulate


class Nothing:
    """A value of no type any parameter takes."""

    def __repr__(self) -> str:
        return "Nothing()"


def _calls() -> list[tuple[str, object]]:
    """Every function `d4cli.api` exports, and the simulator's and balance's calls."""
    found = [
        (name, getattr(api, name)) for name in api.__all__ if inspect.isfunction(getattr(api, name))
    ]
    return found + [
        ("simulate", simulate),
        ("forecast", forecast),
        ("balance", balance),
        ("apply_balance", apply_balance),
    ]


def _methods(cls: type) -> list[tuple[str, object]]:
    return [
        (f"{cls.__name__}.{name}", member)
        for name, member in vars(cls).items()
        if not name.startswith("_") and inspect.isfunction(member)
    ]


CALLS = _calls()
METHODS = _methods(Tracker) + _methods(Reader)


def test_every_public_call_goes_through_the_door():
    unchecked = [name for name, call in CALLS + METHODS if not hasattr(call, "__wrapped__")]
    # the exported names that are not calls of the library's (helpers for front ends)
    assert set(unchecked) <= {
        "same_name",
        "public_view",
        "public_entry",
        "check_target",
        "side_problems",
    }
    assert hasattr(Tracker.__init__, "__wrapped__") and hasattr(Tracker.init, "__wrapped__")


def _parameters(call) -> list[inspect.Parameter]:
    signature = inspect.signature(call.__wrapped__)
    return [
        parameter
        for parameter in signature.parameters.values()
        if parameter.name not in ("self", "cls")
        and parameter.annotation is not inspect.Parameter.empty
        and "Any" not in str(parameter.annotation)
        and "object" != str(parameter.annotation)
        and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
    ]


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[name for name, _ in CALLS])
def test_a_value_of_no_type_it_takes_names_the_parameter(name, call):
    if not hasattr(call, "__wrapped__"):
        pytest.skip("a helper of the fight model's, re-exported as it is")
    parameters = _parameters(call)
    for parameter in parameters:
        required = {
            other.name: Nothing()
            for other in parameters
            if other.default is inspect.Parameter.empty
        }
        with pytest.raises(InputError) as caught:
            call(**{**required, parameter.name: Nothing()})
        assert not isinstance(caught.value, TypeError)
        assert caught.value.field in {p.name for p in parameters}, (name, str(caught.value))
        assert "not a Nothing" in str(caught.value) or "Nothing" not in str(caught.value)


@pytest.mark.parametrize(("name", "method"), METHODS, ids=[name for name, _ in METHODS])
def test_a_method_given_a_value_of_no_type_it_takes_names_the_parameter(name, method, tmp_path):
    owner = Tracker if name.startswith("Tracker.") else Reader
    instance = owner(tmp_path / "encounter.toml")
    bound = getattr(instance, name.split(".", 1)[1])
    for parameter in _parameters(method):
        with pytest.raises(InputError) as caught:
            bound(**{parameter.name: Nothing()})
        assert caught.value.field in {p.name for p in _parameters(method)}, str(caught.value)


def test_the_three_calls_a_designer_tried():
    # C2: a DC is a whole number or a tier, for a check and for a pool's odds alike.
    assert rolls.roll_check(dc="hard", rng=rolls.ScriptedDice([12])).request.dc == 18
    assert odds.p_pool_success(3, "hard") == odds.p_pool_success(3, 18) == 0.0
    assert odds.p_pool_success(5, "medium") == odds.p_pool_success(5, 12) == 0.6513671875
    assert odds.p_check_success("easy", modifiers=2) == odds.p_check_success(6, modifiers=2)
    with pytest.raises(InputError) as caught:
        rolls.roll_pool("4")
    assert str(caught.value) == "aspect: '4': must be a whole number"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rolls.roll_pool(4, advantage="torch"),
            "advantage: 'torch': must be a list, each text",
        ),
        (lambda: rolls.roll_pool(4, dc=2.5), "dc: 2.5: must be a whole number or one of easy, "),
        (lambda: rolls.roll_pool(4, rng=3), "rng: 3: must be an object with randint() or None"),
        (lambda: rolls.roll_pool(True), "aspect: true: must be a whole number"),
        (
            lambda: rolls.roll_check(dc="hardd"),
            "dc: 'hardd': must be a whole number or one of easy",
        ),
        (lambda: rolls.roll_dice(5), "expression: 5: must be text"),
        (lambda: odds.pool_odds("x"), "plan: 'x': must be a PoolPlan"),
        (lambda: odds.check_grid([5, "x"]), "dcs: must be a list, each a whole number, not a list"),
        (lambda: rolls.roll_pool(4, foo=1), "foo: no such keyword (it takes aspect, load, cost, "),
        (lambda: rolls.roll_pool(4, 5), "arguments: takes 1 positional argument(s) (aspect); "),
        (lambda: rolls.roll_pool(), "aspect: missing: give it"),
        (
            lambda: odds.check_odds(rolls.CheckRequest(dc="hard")),
            "request.dc: 'hard': must be a whole number or None",
        ),
        (lambda: encounter.Tracker(3), "path: 3: must be text or a path"),
    ],
)
def test_each_wrong_argument_reads_as_one_short_line(call, message):
    with pytest.raises(InputError) as caught:
        call()
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_the_old_name_of_a_checks_advantage_level_still_works_with_a_warning():
    with pytest.warns(DeprecationWarning, match="'advantage' is now 'advantage_level'"):
        old = rolls.roll_check(advantage=2, rng=rolls.ScriptedDice([10, 3, 5]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = rolls.roll_check(advantage_level=2, rng=rolls.ScriptedDice([10, 3, 5]))
    assert old == new and new.request.advantage_level == 2
    with pytest.warns(DeprecationWarning), pytest.raises(InputError) as caught:
        rolls.roll_check(advantage=1, advantage_level=1)
    assert caught.value.field == "advantage/advantage_level"


def test_a_tracker_act_takes_a_dc_tier(tmp_path):
    tracker = Tracker.init(tmp_path / "duel.toml", template="duel")
    tracker.turn_start()
    actor = tracker.status().current
    aspect = tracker.status().find(actor).aspects[0][0]
    change = tracker.act(actor, aspect, dc="easy", dry_run=True)
    assert change.record.result.plan.request.dc == 6


def test_a_tracker_given_one_name_as_text_types_and_returns_one_creatures_event(tmp_path):
    tracker = Tracker.init(tmp_path / "skirmish.toml", template="skirmish")
    names = [creature.name for creature in tracker.status().creatures]
    assert type(tracker.damage(names[0], 1).record).__name__ == "DamageEvent"
    assert type(tracker.damage(names[:2], 1).record).__name__ == "SeveralEvent"
    # text is one creature's name, never a pattern: a list holds patterns
    with pytest.raises(InputError):
        tracker.damage("Goblin*", 1)
    assert type(tracker.damage(["Goblin*"], 1).record).__name__ == "SeveralEvent"
    with pytest.raises(InputError) as caught:
        tracker.damage(7, 1)
    assert str(caught.value) == "name: 7: must be text or a list, each text"
