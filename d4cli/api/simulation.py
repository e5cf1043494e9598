"""The playtest simulator and the forecast as library calls (R12, R18).

    >>> from d4cli.api import simulate, forecast
    >>> found = simulate("encounter.toml", runs=2000, seed=1, modes=["turn", "round"])
    >>> found.wins("turn"), found.report()["modes"][0]["rounds"]["median"]   # doctest: +SKIP
    >>> forecast("encounter.toml", seed=1).chances                          # doctest: +SKIP

`simulate` plays an encounter to the end many times in memory, in each reset mode asked for
and at each setting of a sweep, under the simulator's stated policy (``d4cli help simulate``);
`forecast` plays the fight on from the state as it stands, in the file's own mode. Both take
plain values and return records; nothing is written, nothing is printed. The runs are played
by the engine that can express them (`d4cli.sim.engines`), here or on a process pool or a
Dask cluster (``scheduler``); the result depends on the seed, the runs and the engine only.

This module loads the simulator (the process pool's modules among them); `d4cli.api` names
`simulate` and `forecast` and loads it when one is first asked for, so a script or a
command that plays no fight never pays for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from d4cli.api.arguments import checked
from d4cli.api.reader import Reader
from d4cli.fight.encounter import Encounter
from d4cli.fight.policy_table import check_target
from d4cli.rules.errors import InputError
from d4cli.rules.limits import SEED, Range, check_whole, parse_whole
from d4cli.rules.records import notebook
from d4cli.sim import forecast as forecasting
from d4cli.sim.engines import EngineChoice, check_engine, choose
from d4cli.sim.forecast import Chance, FightOver, Forecast, decided
from d4cli.sim.pieces import run_all
from d4cli.sim.report import simulation_json
from d4cli.sim.setup import MAX_RUNS, MODES
from d4cli.sim.sweep import Sweep, cells, grid_setups, split_key
from d4cli.sim.tally import Tally

__all__ = [
    "simulate",
    "forecast",
    "Simulation",
    "Played",
    "Sweep",
    "Forecast",
    "Chance",
    "FightOver",
    "decided",
    "check_jobs",
    "pool_jobs",
    "usable_cores",
    "MODE_NAMES",
    "RUNS",
    "MAX_ROUNDS",
    "RESERVE",
    "FORECAST_RUNS",
    "DEFAULT_FORECAST_RUNS",
]

# The reset modes a fight can be played in (R12), in the order a report shows them.
MODE_NAMES: tuple[str, ...] = tuple(MODES)
RUNS: Range = (1, MAX_RUNS)
MAX_ROUNDS: Range = (1, 100_000)
DEFAULT_MAX_ROUNDS = 100
RESERVE: Range = (0, 1000)
# A forecast's runs: the default costs about a `status` with the batch engine.
FORECAST_RUNS: Range = forecasting.RUNS
DEFAULT_FORECAST_RUNS = forecasting.DEFAULT_RUNS
# With a scheduler, ``jobs`` counts pieces of work at once on the cluster, which may be larger.
MAX_CLUSTER_JOBS = 1024

# Called as pieces of work finish: (runs played so far, runs in all).
OnProgress = Callable[[int, int], None]


class Readable(Protocol):
    """Anything that reads an encounter as it stands: a `Reader`, a `Tracker`."""

    def status(self) -> Encounter: ...


Source = Encounter | Readable | str | os.PathLike[str]


@notebook
@dataclass(frozen=True)
class Played:
    """One cell of a simulation: the fights of one mode at one sweep setting.

    Attributes:
        value: the sweep's setting (None without a sweep).
        mode: ``turn``, ``round`` or ``round-zero`` (R12).
        tally: the integer sums over its runs (`d4cli.sim.tally.Tally`): ``runs``, ``wins``
            (per side, in `Simulation.sides` order), ``draws``, ``rounds`` (runs by rounds
            played), ``loads`` (turns by the Load at their start) and the per-run sums the
            report's intervals come from.
    """

    value: int | None
    mode: str
    tally: Tally


@notebook
@dataclass(frozen=True)
class Simulation:
    """What `simulate` played, and how.

    Attributes:
        encounter: the encounter's name.
        sides: the side names, in order of first appearance.
        creatures: ``(name, side index)`` of each creature, in turn order.
        runs: fights played per cell.
        seed: the seed of the dice (the same seed gives the same simulation).
        max_rounds: a fight still running after this many rounds is a draw.
        sweep: the `Sweep` played, or None.
        cells: one `Played` per sweep setting and mode, settings outer, modes in the order asked.
        engine: the engine that played (``batch`` or ``reference``, `d4cli.sim.engines`).
        engine_reason: when the reference engine played although the batch engine was asked
            for, what the batch engine cannot express (a code of
            `d4cli.sim.batch_scope.LIMITS`); else None.
    """

    encounter: str
    sides: tuple[str, ...]
    creatures: tuple[tuple[str, int], ...]
    runs: int
    seed: int
    max_rounds: int
    sweep: Sweep | None
    cells: tuple[Played, ...]
    engine: str
    engine_reason: str | None = None

    def cell(self, mode: str, value: int | None = None) -> Played:
        """The cell of *mode* at sweep setting *value* (None without a sweep).

        Raises:
            InputError: naming ``mode``: no such cell was played.
        """
        for played in self.cells:
            if played.mode == mode and played.value == value:
                return played
        raise InputError("mode", mode, f"was not played at setting {value}")

    def wins(self, mode: str, value: int | None = None) -> dict[str, int]:
        """Fights won by each side in *mode* at setting *value* (draws apart)."""
        return dict(zip(self.sides, self.cell(mode, value).tally.wins))

    def report(self, *, with_engine: bool = True) -> dict[str, Any]:
        """Every figure, JSON-ready: the object ``d4cli simulate --json`` prints (docs/cli.md):
        win rates and draws with 95% Wilson intervals, rounds to finish, per-turn and
        per-round figures, each creature's figures; per mode, or per sweep setting and mode.

        *with_engine* False leaves out ``engine`` (the engine that played, and why).
        """
        labels = [(cell.value, cell.mode, f"{cell.value}/{cell.mode}") for cell in self.cells]
        tallies = {label: cell.tally for cell, (_, _, label) in zip(self.cells, labels)}
        values: list[Any] = [None] if self.sweep is None else list(self.sweep.values)
        key = None if self.sweep is None else self.sweep.key
        head = (self.encounter, self.sides, self.runs, self.seed, self.max_rounds)
        engine = EngineChoice(self.engine, self.engine, self.engine_reason)
        shown = engine if with_engine else None
        return simulation_json(*head, key, values, labels, tallies, self.creatures, shown)


@checked
def simulate(
    encounter: Source,
    *,
    runs: int = 1000,
    seed: int | None = None,
    modes: Sequence[str] | str = MODE_NAMES,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    target: str | None = None,
    reserve: int | None = None,
    sweep: Sweep | str | None = None,
    engine: str | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: OnProgress | None = None,
) -> Simulation:
    """Play *encounter* to the end *runs* times in each of *modes* (and at each *sweep* setting).

    Args:
        encounter: an `Encounter`, a `Reader` or `Tracker`, or the path of an encounter file.
        runs: fights per cell, 1..10,000,000.
        seed: the seed of the dice, 0..2**63-1 (None: a random one, in `Simulation.seed`).
        modes: reset modes (R12), each one of `MODE_NAMES` once; or their comma-separated
            list as text (``"turn, round"``).
        max_rounds: a fight still running after this many rounds (1..100,000) is a draw.
        target: every creature's target rule, ``lowest-hp`` or ``random`` (else each
            creature's policy).
        reserve: every creature's reserved headroom, 0..1000 (else each creature's policy).
        sweep: a `Sweep`, or its text (``reserve=0..3``, ``buffer:Aria=0..2``).
        engine: ``batch`` (the default, where it can express the encounter) or ``reference``.
        jobs: processes (default: this machine's cores), at most the cores d4cli may use;
            with *scheduler*, pieces of work at once (default: the cluster's worker threads).
        scheduler: a Dask scheduler's address (``tcp://host:8786``) to play on; needs
            d4cli's ``cluster`` extra.
        progress: called as pieces finish with (runs played so far, runs in all).

    Raises:
        InputError: a value out of range or unknown (naming ``runs``, ``seed``, ``modes``,
            ``max_rounds``, ``target``, ``reserve``, ``sweep``, ``engine``, ``jobs``,
            ``scheduler``); both *reserve* and a sweep of every reserve; an encounter the
            simulator cannot play (fewer than two sides, a side with every creature down
            (R18), a creature with no attack it could afford (R2), ...).
        FileError: the encounter file cannot be read.
    """
    runs = check_whole(runs, "runs", RUNS)
    chosen = _modes(modes)
    max_rounds = check_whole(max_rounds, "max_rounds", MAX_ROUNDS)
    jobs = None if jobs is None else check_jobs(jobs, cluster=scheduler is not None)
    if scheduler is not None:
        from d4cli.sim.cluster import check_address  # the --scheduler extra, as it plays

        check_address(scheduler)
    asked = check_engine(engine)
    target = None if target is None else check_target(target)
    reserve = None if reserve is None else check_whole(reserve, "reserve", RESERVE)
    grid = _sweep(sweep, reserve)
    seed = _seed(seed)
    fight = _read(encounter)
    setups = grid_setups(fight, chosen, grid, max_rounds=max_rounds, target=target, reserve=reserve)
    choice = choose([setup for _, _, setup in setups], asked)
    with _playing(scheduler, jobs) as (executor, pieces):
        counter = _counter(progress, runs * len(setups))
        tallies = run_all(setups, runs, seed, pieces, counter, executor, choice)
    first = setups[0][2]
    return Simulation(
        fight.name,
        first.sides,
        tuple((c.name, side) for c, side in zip(first.encounter.creatures, first.side_of)),
        runs,
        seed,
        max_rounds,
        grid,
        tuple(Played(value, mode, tallies[label]) for label, (value, mode) in cells(grid, chosen)),
        choice.name,
        choice.reason,
    )


@checked
def forecast(
    encounter: Source,
    *,
    runs: int = DEFAULT_FORECAST_RUNS,
    seed: int | None = None,
    engine: str | None = None,
    jobs: int | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Forecast:
    """Each side's chance to win *encounter* from its state as it stands (mid-turn, hp, Loads,
    effects), played on *runs* times in the file's own mode (R12, R18).

    Args:
        encounter: an `Encounter`, a `Reader` or `Tracker`, or the path of an encounter file.
        runs: fights to play, 1..1,000,000 (default 2,000).
        seed: the seed of the dice (None: a random one, in `Forecast.seed`).
        engine: ``batch`` (the default, where it can express the encounter) or ``reference``.
        jobs: processes (default: up to two once the runs are worth a pool, `pool_jobs`).
        max_rounds: a fight still running after this many rounds (1..100,000) is a draw.

    Returns:
        A `Forecast`: each side's `Chance` (wins, rate 0..1, 95% Wilson interval), the draws,
        rounds left to the end (median, 90th percentile, histogram), the engine that played.

    Raises:
        FightOver: the fight is already over (R18): ``winner`` names the side left standing
            (None: no side has a creature up); `decided` gives its certain forecast.
        InputError: a value out of range or unknown (naming ``runs``, ``seed``, ``engine``,
            ``jobs``, ``max_rounds``); an encounter the simulator cannot play.
        FileError: the encounter file cannot be read.
    """
    runs = check_whole(runs, "runs", FORECAST_RUNS)
    seed = _seed(seed)
    asked = check_engine(engine)
    jobs = pool_jobs(runs) if jobs is None else check_jobs(jobs, cluster=False)
    max_rounds = check_whole(max_rounds, "max_rounds", MAX_ROUNDS)
    fight = _read(encounter)
    return forecasting.forecast(fight, runs, seed, jobs, max_rounds, asked)


def pool_jobs(runs: int) -> int:
    """Processes for *runs* fights of a forecast or a balance: up to two cores once the runs
    are worth a pool (500 or more), else one."""
    return min(2, usable_cores()) if runs >= 500 else 1


def usable_cores() -> int:
    """The cores this process may use (its CPU affinity where the system has one)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return cores or 1


def check_jobs(jobs: int | str, *, cluster: bool = False) -> int:
    """*jobs* (a whole number, or its text as typed, L3) within 1..the cores this process may
    use (processes beyond them only queue and cost memory); with *cluster*, 1..`MAX_CLUSTER_JOBS`.

    Raises:
        InputError: naming ``jobs``: not a whole number, or out of range (the cores said).
    """
    if cluster:
        return _whole(jobs, "jobs", (1, MAX_CLUSTER_JOBS))
    cores = usable_cores()
    try:
        return _whole(jobs, "jobs", (1, cores))
    except InputError as error:
        if not error.problem.startswith("must be within"):
            raise
        raise InputError(
            "jobs", jobs, f"{error.problem}: this machine lets d4cli use {cores} cores"
        ) from None


def _whole(value: int | str, field: str, bounds: Range) -> int:
    """*value* within *bounds*: a whole number, or its text as typed (L3)."""
    if isinstance(value, str):
        return parse_whole(value, field, bounds)
    return check_whole(value, field, bounds)


def _modes(modes: Sequence[str] | str) -> tuple[str, ...]:
    """*modes* (names, or their comma-separated list as text), each one of `MODE_NAMES` once.

    Raises:
        InputError: naming ``modes``: an unknown mode, or one named twice.
    """
    if isinstance(modes, str):
        text, chosen = modes, tuple(mode.strip() for mode in modes.split(","))
    else:
        text, chosen = ",".join(modes), tuple(modes)
    if not chosen:
        raise InputError("modes", None, "name one mode or more: " + ", ".join(MODES))
    for mode in chosen:
        if mode not in MODES:
            raise InputError("modes", mode, "unknown mode; one of " + ", ".join(MODES))
    if len(set(chosen)) != len(chosen):
        raise InputError("modes", text, "names a mode twice")
    return chosen


def _sweep(sweep: Sweep | str | None, reserve: int | None) -> Sweep | None:
    """The sweep checked, and not a sweep of every reserve with *reserve*.

    Raises:
        InputError: naming ``sweep`` (as `Sweep.parse`), or ``reserve`` given with it.
    """
    if sweep is None:
        return None
    grid = Sweep.parse(sweep) if isinstance(sweep, str) else Sweep(*sweep).checked()
    if split_key(grid.key)[0] == "reserve" and reserve is not None:
        raise InputError(
            "reserve",
            None,
            f"give {{reserve}} or {{sweep}} {grid.text}, not both: the sweep sets every reserve",
            mentions=("reserve", "sweep"),
        )
    return grid


def _seed(seed: int | None) -> int:
    """*seed* checked (0..2**63-1), or a random one."""
    if seed is None:
        return int.from_bytes(os.urandom(4), "big")
    return check_whole(seed, "seed", SEED)


def _read(encounter: Source) -> Encounter:
    """The encounter of *encounter*: as given, read by its reader, or read from its file.

    Raises:
        FileError: the file cannot be read.
        InputError: naming ``encounter``: none of these.
    """
    if isinstance(encounter, Encounter):
        return encounter
    if isinstance(encounter, (str, os.PathLike)):
        return Reader(encounter).status()
    if callable(getattr(encounter, "status", None)):
        return encounter.status()
    raise InputError("encounter", type(encounter).__name__, "give an Encounter, a Reader or a path")


@contextmanager
def _playing(scheduler: str | None, jobs: int | None) -> Iterator[tuple[Any, int]]:
    """The executor and the pieces at once: none and *jobs* (default the cores) here, or the
    cluster at *scheduler* and *jobs* (default its worker threads), connected for the block."""
    if scheduler is None:
        yield None, jobs or usable_cores()
        return
    from d4cli.sim.cluster import connect  # Dask: only when a scheduler is given

    with connect(scheduler) as cluster:
        yield cluster.executor, jobs or max(1, cluster.threads)


def _counter(progress: OnProgress | None, total: int) -> Callable[[int], None] | None:
    """The runner's callback (runs of a finished piece) as *progress* takes it: (so far, in all)."""
    if progress is None:
        return None
    done = 0

    def played(runs: int) -> None:
        nonlocal done
        done += runs
        progress(done, total)

    return played
