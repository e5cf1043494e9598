"""``forecast`` says how far it has got once it has run past a second, on a terminal only.

The bar (`d4cli.output.render.progress.Progress`) is driven here with an injected clock and
console, so nothing depends on how fast this machine is.
"""

from __future__ import annotations

import io

import pytest
from _cli import ok
from _fight import play_two_rounds
from rich.console import Console

from d4cli.api.encounter import Tracker
from d4cli.api.simulation import forecast
from d4cli.output.render import progress as progress_module
from d4cli.output.render.progress import Progress


class Clock:
    """A clock that says what the test sets."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80), out


def test_nothing_shows_in_the_first_second() -> None:
    clock, (stream, out) = Clock(), _terminal()
    bar = Progress("forecasting", clock=clock, stream=stream)
    clock.now += 0.9
    bar(500, 2000)
    bar.close()
    assert bar.bar is None and out.getvalue() == ""


def test_past_a_second_the_bar_shows_the_runs_played() -> None:
    clock, (stream, out) = Clock(), _terminal()
    bar = Progress("forecasting", clock=clock, stream=stream)
    clock.now += 1.5
    bar(500, 2000)
    assert bar.bar is not None
    task = bar.bar.tasks[0]
    assert (task.description, task.completed, task.total) == ("forecasting", 500, 2000)
    bar(2000, 2000)
    assert bar.bar.tasks[0].completed == 2000
    bar.close()
    assert "forecasting" in out.getvalue()


def test_not_on_a_terminal_nothing_shows() -> None:
    clock, out = Clock(), io.StringIO()
    bar = Progress("forecasting", clock=clock, stream=Console(file=out, force_terminal=False))
    clock.now += 5
    bar(1000, 2000)
    bar.close()
    assert bar.bar is None and out.getvalue() == ""


def test_the_forecast_tells_its_progress_up_to_every_run(isolated_env) -> None:
    play_two_rounds()
    told: list[tuple[int, int]] = []
    found = forecast(
        Tracker(isolated_env / "encounter.toml"),
        runs=400,
        seed=3,
        progress=lambda *a: told.append(a),
    )
    assert told and told[-1] == (400, 400)
    assert all(total == 400 for _, total in told)
    assert [done for done, _ in told] == sorted(done for done, _ in told)
    assert found.runs == 400


def test_the_command_hands_its_bar_to_the_forecast(
    isolated_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_two_rounds()
    made: list[Progress] = []
    calls: list[tuple[int, int]] = []

    class Recording(Progress):
        def __init__(self, label: str = "simulating", **kwargs: object) -> None:
            super().__init__(label, **kwargs)  # type: ignore[arg-type]
            made.append(self)

        def __call__(self, done: int, total: int) -> None:
            calls.append((done, total))
            super().__call__(done, total)

    monkeypatch.setattr("d4cli.cli.commands.forecast.Progress", Recording)
    ok("forecast", "--runs", "300", "--seed", "1")
    assert [bar.label for bar in made] == ["forecasting"]
    assert calls[-1] == (300, 300)
    assert progress_module.SHOW_AFTER == 1.0
