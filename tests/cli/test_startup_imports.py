"""What each path loads: the core never loads the shell's libraries, a command loads only what it uses.

Each check runs in a fresh interpreter and reads ``sys.modules`` once the work is
done. The start-up times themselves are measured by ``benchmarks/run.py``, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Runs the command line in argv[2:] (argv[1]: a JSON object of environment variables
# to set first) through the console script's entry point; the loaded modules go to
# stderr as the last line, after whatever the command printed.
PROBE = r"""
import json, os, sys
os.environ.update(json.loads(sys.argv[1]))
from d4cli.cli.main import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
sys.stdout.flush()
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

# Imports every module of the packages in argv[2:] but those listed in argv[1] (JSON),
# then prints sys.modules.
IMPORT_ALL = r"""
import importlib, json, pkgutil, sys
skip = set(json.loads(sys.argv[1]))
for name in sys.argv[2:]:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(package.__path__, name + "."):
        if info.name not in skip:
            importlib.import_module(info.name)
print(json.dumps(sorted(sys.modules)))
"""

SHELL_LIBRARIES = ("typer", "click", "rich", "prompt_toolkit", "dask", "distributed")
CORE = ("d4cli.rules", "d4cli.fight", "d4cli.odds", "d4cli.sim", "d4cli.fileformat")


def _run(*args: str, env: dict[str, str] | None = None, cwd: Path) -> tuple[str, set[str]]:
    """Run ``d4cli ARGS`` in a fresh interpreter: its stdout and the modules it loaded."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(env or {}), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, set(modules)


def _top(modules: set[str], *roots: str) -> set[str]:
    """The loaded modules that are *roots* or inside them."""
    return {name for name in modules if name.split(".")[0] in roots or name in roots}


def _import_all(*packages: str, skip: tuple[str, ...] = (), cwd: Path) -> set[str]:
    """The modules loaded by importing every module of *packages* (but *skip*) in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(skip), *packages],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=True,
    )
    return set(json.loads(done.stdout))


def _tab(line: str, encounter: Path) -> dict[str, str]:
    """The environment of one Tab press at the end of *line*, as the generated bash script sends it."""
    return {
        "_D4CLI_COMPLETE": "complete_bash",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line.encode())),
        "COMP_WORDBREAKS": " \t\n\"'><=;|&(:",
        "D4CLI_FILE": str(encounter),
    }


def _skirmish(folder: Path) -> Path:
    path = folder / "fight.toml"
    _run("init", "--from", "skirmish", "-f", str(path), "--json", cwd=folder)
    assert path.exists()
    return path


def test_the_core_packages_load_no_shell_library(tmp_path: Path) -> None:
    modules = _import_all(*CORE, cwd=tmp_path)
    assert {
        "d4cli.rules.pool",
        "d4cli.fight.turns",
        "d4cli.odds.grids",
        "d4cli.sim.cluster",
        "d4cli.fileformat.schema1",
    } <= modules
    assert not _top(modules, *SHELL_LIBRARIES)


@pytest.mark.slow  # over a second of simulation or child processes
def test_only_play_loads_prompt_toolkit(tmp_path: Path) -> None:
    # Every other module, the commands and the play session included, imports without it.
    modules = _import_all("d4cli", skip=("d4cli.__main__", "d4cli.cli.play_prompt"), cwd=tmp_path)
    assert {
        "d4cli.cli.play_session",
        "d4cli.cli.play_modes",
        "d4cli.cli.commands.play",
        "d4cli.cli.commands.act",
    } <= modules
    assert not _top(modules, "prompt_toolkit")
    # A piped session runs its lines without the prompt; commands outside play never need it.
    path = _skirmish(tmp_path)
    piped = subprocess.run(
        [sys.executable, "-c", PROBE, "{}", "play", "-f", str(path)],
        input="roll pool 4 --json\nstatus\nact Aria Finesse --cost 0\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert piped.returncode == 0 and '"kind": "pool"' in piped.stdout
    assert not _top(set(json.loads(piped.stderr.strip().splitlines()[-1])), "prompt_toolkit")
    _, modules = _run("status", "-f", str(path), cwd=tmp_path)
    assert not _top(modules, "prompt_toolkit")
    # The interactive prompt is where it is loaded.
    assert "prompt_toolkit" in _import_all("d4cli.cli", skip=("d4cli.__main__",), cwd=tmp_path)


def test_simulate_without_a_scheduler_never_loads_dask(tmp_path: Path) -> None:
    out, modules = _run(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "20",
        "--jobs",
        "1",
        "--seed",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert json.loads(out.splitlines()[-1])  # it played
    assert "d4cli.sim.batch" in modules  # the default engine
    assert not _top(modules, "dask", "distributed")
    assert "d4cli.sim.cluster" not in modules


def test_numpy_loads_only_when_the_batch_engine_plays(tmp_path: Path) -> None:
    # The batch engine (d4cli.sim.batch) is the one path that needs numpy; every other
    # command, and the simulator's own reference engine, starts without it.
    path = _skirmish(tmp_path)
    out, modules = _run(
        "forecast", "-f", str(path), "--runs", "50", "--seed", "1", "--json", cwd=tmp_path
    )
    assert json.loads(out)["engine"] == {"name": "batch", "reason": None}
    assert "numpy" in modules and "d4cli.sim.batch" in modules
    out, modules = _run(
        "simulate",
        "--from",
        "duel",
        "--runs",
        "20",
        "--engine",
        "reference",
        "--json",
        cwd=tmp_path,
    )
    assert json.loads(out)["engine"] == {"name": "reference", "reason": None}
    assert not _top(modules, "numpy")
    for args in (
        ("status", "-f", str(path)),
        ("roll", "pool", "4", "--seed", "1"),
        ("simulate", "--help"),
    ):
        _, modules = _run(*args, cwd=tmp_path)
        assert not _top(modules, "numpy"), args
        assert "d4cli.sim.batch" not in modules


def test_roll_pool_json_loads_no_toml_no_encounter_and_no_rich(tmp_path: Path) -> None:
    # Rich loads only where something is drawn: a view's `show` imports its renderer.
    out, modules = _run("roll", "pool", "4", "--seed", "1", "--json", cwd=tmp_path)
    assert json.loads(out)["kind"] == "pool"
    assert not _top(modules, "tomli_w", "tomllib", "rich")
    assert not {name for name in modules if name.startswith("d4cli.output.render")}
    assert not {name for name in modules if name.startswith(("d4cli.store", "d4cli.fileformat"))}
    # Of the fight model, at most the package and its table of kinds (plain strings).
    assert {name for name in modules if name.startswith("d4cli.fight")} <= {
        "d4cli.fight",
        "d4cli.fight.closed_sets",
    }


def test_a_tab_on_a_creature_name_loads_its_command_and_no_extra(tmp_path: Path) -> None:
    # A Tab builds the one command it completes (its module, imports at the top), and
    # none of the optional extras: no line editor, no cluster, no other command, no Rich.
    path = _skirmish(tmp_path)
    for line in ("d4cli act Gob", "d4cli act Aria Finesse --target Gob"):
        out, modules = _run(env=_tab(line, path), cwd=tmp_path)
        assert "Goblin\\ Archer" in out.splitlines()
        assert "d4cli.fight.encounter_state" in modules  # the file was read
        assert not _top(modules, "prompt_toolkit", "dask", "distributed", "rich")
        commands = {name for name in modules if name.startswith("d4cli.cli.commands.")}
        assert commands == {"d4cli.cli.commands.act"}


def test_json_loads_no_renderer_and_status_loads_the_simulator_only_with_forecast(
    tmp_path: Path,
) -> None:
    # JSON is built by the serializers alone; the simulator is an optional part of `status`,
    # imported where --forecast is handled.
    path = str(_skirmish(tmp_path))
    for args in (
        ("status", "-f", path, "--json"),
        ("status", "Aria", "-f", path, "--json"),
        ("act", "Aria", "Finesse", "--cost", "0", "--seed", "1", "-f", path, "--json"),
        ("team", "Aria", "Borin", "--adv", "--aspect", "Finesse", "-f", path, "--json"),
        ("damage", "Borin", "1", "-f", path, "--json"),
        ("roll", "check", "--dc", "12", "--seed", "1", "--json"),
    ):
        out, modules = _run(*args, cwd=tmp_path)
        assert json.loads(out.splitlines()[-1]), args
        assert not _top(modules, "rich"), args
        assert not {name for name in modules if name.startswith("d4cli.output.render")}, args
        assert not {"d4cli.sim.forecast", "d4cli.sim.engine", "d4cli.sim.engines"} & modules, args
        assert not _top(modules, "multiprocessing", "logging"), args
    out, modules = _run(
        "status", "-f", path, "--forecast", "--json", env={"D4CLI_SEED": "1"}, cwd=tmp_path
    )
    assert "forecast" in json.loads(out) and "d4cli.sim.forecast" in modules
    _, modules = _run("status", "-f", path, cwd=tmp_path, env={"COLUMNS": "100"})
    assert "d4cli.output.render.status_tables" in modules and "d4cli.sim.forecast" not in modules


def test_the_probe_sees_what_a_command_loads(tmp_path: Path) -> None:
    # The checks above can fail: a table does load Rich, and an act the store.
    out, modules = _run("roll", "pool", "4", "--seed", "1", cwd=tmp_path, env={"COLUMNS": "100"})
    assert "Pool roll" in out and "rich" in modules
    path = _skirmish(tmp_path)
    # Cost 1: the act changes the Load, so the file is written (an act that changes nothing keeps its bytes).
    out, modules = _run(
        "act",
        "Aria",
        "Finesse",
        "--cost",
        "1",
        "--seed",
        "1",
        "-f",
        str(path),
        "--json",
        cwd=tmp_path,
    )
    assert (
        json.loads(out)["kind"] == "pool"
        and "d4cli.store.transaction" in modules
        and "tomli_w" in modules
    )
    assert os.path.getsize(path) > 0


WEB_LIBRARIES = (
    "starlette",
    "uvicorn",
    "sse_starlette",
    "limits",
    "anyio",
    "h11",
    "httpx",
    "segno",
)


def test_only_serve_loads_the_web_stack(tmp_path: Path) -> None:
    path = str(_skirmish(tmp_path))
    # (`d4cli --help` loads every command's module, so it loads the web stack too.)
    for args in (
        ("status", "-f", path),
        ("board", "--players", "--once", "-f", path),
        ("act", "Aria", "Finesse", "--cost", "0", "-f", path),
        ("roll", "pool", "4", "--json"),
    ):
        _, modules = _run(*args, cwd=tmp_path)
        assert not _top(modules, *WEB_LIBRARIES), args
        assert not _top(modules, "d4cli.web"), args
    # serve loads it at its command boundary (bad input stops it right after).
    _, modules = _run("serve", "--port", "70000", "-f", path, cwd=tmp_path)
    assert {
        "starlette",
        "uvicorn",
        "sse_starlette",
        "segno",
        "d4cli.web.asgi_app",
        "d4cli.web.seat_routes",
    } <= modules
