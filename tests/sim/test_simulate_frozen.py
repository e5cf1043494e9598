"""`d4cli.fight.frozen.build`: a record made as its class makes it, cheaper (the simulator's hot records)."""

from __future__ import annotations

import dataclasses

import pytest

from d4cli.fight.events import Reset, TurnEndEvent
from d4cli.fight.frozen import build, replace


def test_build_gives_the_instance_the_class_gives():
    made = build(TurnEndEvent, round=2, turn="Aria", actor="Aria", load_after=3, next=None, round_over=True)
    assert made == TurnEndEvent(2, "Aria", "Aria", load_after=3, next=None, round_over=True)
    assert made.effects_ended == ()  # the default filled
    assert dataclasses.asdict(made) == dataclasses.asdict(TurnEndEvent(2, "Aria", "Aria", 3, None, True))
    assert hash(build(Reset, name="a", load_before=1, load_after=-1)) == hash(Reset("a", 1, -1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.round = 3  # type: ignore[misc]
    assert replace(made, round=5).round == 5 and made.round == 2


def test_build_refuses_an_unknown_or_missing_field():
    with pytest.raises(TypeError, match="'load_after' unknown or missing"):
        build(Reset, name="a", load_before=1)
    with pytest.raises(TypeError, match="'hp' unknown or missing"):
        build(Reset, name="a", load_before=1, load_after=2, hp=3)


def test_build_runs_post_init_and_refuses_default_factories():
    @dataclasses.dataclass(frozen=True)
    class Doubled:
        value: int
        twice: int = 0

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.value)

    assert build(Doubled, value=4) == Doubled(4) and build(Doubled, value=4).twice == 8

    @dataclasses.dataclass(frozen=True)
    class Listed:
        items: list = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="plain defaults only"):
        build(Listed)
