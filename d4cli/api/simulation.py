"""The playtest simulator and the forecast as library calls (R12, R18).

    >>> from d4cli.api.simulation import simulate, forecast
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
from d4cli.api.creature_settings import ASPECT, FIELDS, checked_setting, setting_encounter
from d4cli.api.reader import Reader
from d4cli.fight.encounter_state import Encounter
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
from d4cli.sim.sweep import (
    MAX_SWEEPS,
    SetValue,
    Sweep,
    cell_count,
    cells,
    grid_setups,
    is_setting,
    split_key,
)
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
    "MAX_SWEEP_FIGHTS",
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
# The most fights a simulation with a sweep may play in all, runs x cells: the batch engine
# played a 27-cell map of the ambush (54,000 fights) in about 2.5 s on a loaded 2-core
# machine, some 20,000 fights a second, so the bound is some 8 minutes.
MAX_SWEEP_FIGHTS = 10_000_000

# Called as pieces of work finish: (runs played so far, runs in all).
OnProgress = Callable[[int, int], None]


class Readable(Protocol):
    """Anything that reads an encounter as it stands: a `Reader`, a `Tracker`."""

    def status(self) -> Encounter: ...


Source = Encounter | Readable | str | os.PathLike[str]


@notebook
@dataclass(frozen=True)
class Played:
    """One cell of a simulation: the fights of one mode at one setting of each sweep.

    Attributes:
        settings: one value per sweep, in the order of `Simulation.sweeps` (empty without one).
        mode: ``turn``, ``round`` or ``round-zero`` (R12).
        tally: the integer sums over its runs (`d4cli.sim.tally.Tally`): ``runs``, ``wins``
            (per side, in `Simulation.sides` order), ``draws``, ``rounds`` (runs by rounds
            played), ``loads`` (turns by the Load at their start) and the per-run sums the
            report's intervals come from.
    """

    settings: tuple[int, ...]
    mode: str
    tally: Tally

    @property
    def value(self) -> int | None:
        """The first sweep's setting (None without a sweep)."""
        return self.settings[0] if self.settings else None


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
        sweeps: the sweeps played (none, one, or two for a map).
        cells: one `Played` per cell, the first sweep's settings outermost, modes innermost
            in the order asked.
        engine: the engine that played (``batch`` or ``reference``, `d4cli.sim.engines`).
        engine_reason: when the reference engine played although the batch engine was asked
            for, what the batch engine cannot express (a code of
            `d4cli.sim.batch_scope.LIMITS`); else None.
        target / reserve: every creature's target rule and reserve when the call set them
            (else None: each creature's own policy).
    """

    encounter: str
    sides: tuple[str, ...]
    creatures: tuple[tuple[str, int], ...]
    runs: int
    seed: int
    max_rounds: int
    sweeps: tuple[Sweep, ...]
    cells: tuple[Played, ...]
    engine: str
    engine_reason: str | None = None
    target: str | None = None
    reserve: int | None = None

    @property
    def sweep(self) -> Sweep | None:
        """The first sweep, or None."""
        return self.sweeps[0] if self.sweeps else None

    def cell(self, mode: str, *settings: int | None) -> Played:
        """The cell of *mode* at *settings*, one per sweep (none, or None, without a sweep).

        Raises:
            InputError: naming ``mode``: no such cell was played.
        """
        wanted = tuple(value for value in settings if value is not None)
        for played in self.cells:
            if played.mode == mode and played.settings == wanted:
                return played
        shown = ", ".join(map(str, wanted)) or "no setting"
        raise InputError("mode", mode, f"was not played at {shown}")

    def wins(self, mode: str, *settings: int | None) -> dict[str, int]:
        """Fights won by each side in *mode* at *settings* (one per sweep; draws apart)."""
        return dict(zip(self.sides, self.cell(mode, *settings).tally.wins))

    def report(self, *, with_engine: bool = True) -> dict[str, Any]:
        """Every figure, JSON-ready: the object ``d4cli simulate --json`` prints (docs/cli.md):
        win rates and draws with 95% Wilson intervals, rounds to finish, per-turn and
        per-round figures, each creature's figures; per mode, or per sweep setting and mode;
        ``policy: {target, reserve}`` when the call set every creature's.

        *with_engine* False leaves out ``engine`` (the engine that played, and why).
        """
        labels = [(cell.settings, cell.mode, str(number)) for number, cell in enumerate(self.cells)]
        tallies = {label: cell.tally for cell, (_, _, label) in zip(self.cells, labels)}
        sweeps = [_sweep_json(grid) for grid in self.sweeps]
        head = (self.encounter, self.sides, self.runs, self.seed, self.max_rounds)
        engine = EngineChoice(self.engine, self.engine, self.engine_reason)
        shown = engine if with_engine else None
        found = simulation_json(*head, sweeps, labels, tallies, self.creatures, shown)
        policy = {"target": self.target, "reserve": self.reserve}
        if any(value is not None for value in policy.values()):
            found["policy"] = policy
        return found


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
    sweep: Sweep | str | Sequence[Sweep | str] | None = None,
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
        sweep: a `Sweep` or its text (``reserve=0..3``, ``buffer:Aria=0..2``, a creature's
            setting as `d4cli.api.balance.balance` varies it: ``Goblin Chief:hp=8..20``, or a
            side's: ``party:load_buffer=0..2``); or a list of two, for a map of every pair
            of their settings. Every cell plays the same seeds (common random numbers).
        engine: ``batch`` (the default, where it can express the encounter) or ``reference``.
        jobs: processes (default: this machine's cores), at most the cores d4cli may use;
            with *scheduler*, pieces of work at once (default: the cluster's worker threads).
        scheduler: a Dask scheduler's address (``tcp://host:8786``) to play on; needs
            d4cli's ``cluster`` extra.
        progress: called as pieces finish with (runs played so far, runs in all).

    Raises:
        InputError: a value out of range or unknown (naming ``runs``, ``seed``, ``modes``,
            ``max_rounds``, ``target``, ``reserve``, ``sweep``, ``engine``, ``jobs``,
            ``scheduler``); more than two sweeps, one setting swept twice, a setting the file
            refuses at a value, runs x cells past `MAX_SWEEP_FIGHTS` (naming ``sweep``);
            both *reserve* and a sweep of every reserve; an encounter the
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
    seed = _seed(seed)
    fight = _read(encounter)
    grids, set_value = _sweeps(fight, sweep, reserve)
    _check_work(grids, len(chosen), runs)
    setups = grid_setups(
        fight,
        chosen,
        grids,
        max_rounds=max_rounds,
        target=target,
        reserve=reserve,
        set_value=set_value,
    )
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
        grids,
        tuple(
            Played(settings, mode, tallies[label])
            for label, (settings, mode) in cells(grids, chosen)
        ),
        choice.name,
        choice.reason,
        target,
        reserve,
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
    progress: OnProgress | None = None,
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
        progress: called as pieces finish with (runs played so far, *runs*).

    Returns:
        A `Forecast`: each side's `Chance` (wins, rate 0..1, 95% Wilson interval), the draws,
        rounds left to the end (median, 90th percentile, histogram), the engine that played.

    Raises:
        FightOver: the fight is already over (R21): ``winner`` names the side left standing
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
    return forecasting.forecast(
        fight, runs, seed, jobs, max_rounds, asked, progress=_counter(progress, runs)
    )


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


def _sweeps(
    fight: Encounter, sweep: Sweep | str | Sequence[Sweep | str] | None, reserve: int | None
) -> tuple[tuple[Sweep, ...], SetValue]:
    """The sweeps checked against *fight* (at most `MAX_SWEEPS`, each setting once, not
    a sweep of every reserve with *reserve*), and the maker of a creature's setting.

    A hurt creature's ``hp`` is swept up to its max_hp (R18): the values past it are left
    out and the sweep's ``asked`` keeps the high end given.

    Raises:
        InputError: naming ``sweep`` (as `Sweep.parse`, `d4cli.api.creature_settings.checked_setting`),
            or ``reserve`` given with a sweep of every reserve.
    """
    given = [] if sweep is None else [sweep] if isinstance(sweep, (str, Sweep)) else list(sweep)
    if len(given) > MAX_SWEEPS:
        shown = given[MAX_SWEEPS]
        raise InputError(
            "sweep",
            shown if isinstance(shown, str) else shown.text or shown.key,
            f"at most {MAX_SWEEPS} sweeps: a map of two settings",
        )
    checked: dict[str, tuple[Any, ...]] = {}
    grids: list[Sweep] = []
    for one in given:
        grid = Sweep.parse(one) if isinstance(one, str) else Sweep(*one).checked()
        if is_setting(grid.key):
            _known_field(grid)
            varies = checked_setting(fight, grid.vary(), "sweep")
            high = varies[0].high
            kept = tuple(value for value in grid.values if value <= high)
            if len(kept) < len(grid.values):
                grid = grid._replace(values=kept, asked=max(grid.values))
            grid = grid._replace(key=_spelled(grid.key, varies))
            if grid.key in checked:
                raise InputError("sweep", grid.text, "sweeps a setting already swept")
            checked[grid.key] = varies
        elif any(grid.key == other.key for other in grids):
            raise InputError("sweep", grid.text, "sweeps a setting already swept")
        elif split_key(grid.key)[0] == "reserve" and reserve is not None:
            raise InputError(
                "reserve",
                None,
                f"give {{reserve}} or {{sweep}} {grid.text}, not both: the sweep sets every reserve",
                mentions=("reserve", "sweep"),
            )
        grids.append(grid)

    def set_value(encounter: Encounter, key: str, value: int) -> Encounter:
        return setting_encounter(encounter, checked[key], value, "sweep")

    return tuple(grids), set_value


def _known_field(grid: Sweep) -> None:
    """A creature's setting names a field `d4cli.api.creature_settings.FIELDS` knows (or an Aspect).

    Raises:
        InputError: naming ``sweep``: an unknown key, with the fields and the policy keys.
    """
    field = grid.key.rpartition(":")[2]
    if field not in FIELDS and not field.startswith(ASPECT):
        raise InputError(
            "sweep",
            grid.text,
            "unknown key; a creature's or a side's CREATURE:FIELD takes "
            + ", ".join([*FIELDS, "aspect.NAME"])
            + "; or reserve, buffer, KEY:NAME (such as reserve:Aria=0..3)",
        )


def _spelled(key: str, varies: tuple[Any, ...]) -> str:
    """``goblin chief:hp`` -> ``Goblin Chief:hp``: a creature as the file spells it (a side
    stays as given), the Aspect as the creature spells it."""
    name = key.rpartition(":")[0]
    creature = varies[0].creature if len(varies) == 1 else name
    return f"{creature}:{varies[0].field}"


def _check_work(grids: Sequence[Sweep], modes: int, runs: int) -> None:
    """A sweep plays at most `MAX_SWEEP_FIGHTS` fights in all: runs x cells.

    Raises:
        InputError: naming ``sweep``, with the cells, the fights and the most runs allowed.
    """
    if not grids:
        return
    count = cell_count(grids, modes)
    if runs * count <= MAX_SWEEP_FIGHTS:
        return
    shape = " x ".join(str(len(grid.values)) for grid in grids)
    raise InputError(
        "sweep",
        " ".join(grid.text for grid in grids),
        f"{shape} settings x {modes} mode{'s' if modes > 1 else ''} = {count:,} cells of {runs:,} runs is"
        f" {runs * count:,} fights, past the cap of {MAX_SWEEP_FIGHTS:,}; give {{runs}} at"
        f" most {max(1, MAX_SWEEP_FIGHTS // count):,} or fewer settings",
        mentions=("runs",),
    )


def _sweep_json(grid: Sweep) -> dict[str, Any]:
    """``{key, values}``, and ``asked`` when a hurt creature's hp capped the values (R18)."""
    shown: dict[str, Any] = {"key": grid.key, "values": list(grid.values)}
    if grid.asked is not None:
        shown["asked"] = grid.asked
    return shown


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
