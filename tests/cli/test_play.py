"""``d4cli play``: piped scripts, the interactive prompt (through a pseudo-terminal), completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from _cli import ok, ok_json

from d4cli.cli.app import app
from d4cli.cli.play_history import history_path
from d4cli.cli.play_prompt import completions, current_word_start, quote_value
from d4cli.cli.play_session import Session, split

D4 = [sys.executable, "-m", "d4cli"]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    env.update(NO_COLOR="1", D4CLI_HISTORY=str(tmp_path / "history"), TERM="dumb", COLUMNS="160")
    env.update(extra)
    return env


def _run(tmp_path: Path, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        D4 + args,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=60,
    )


def _init(tmp_path: Path) -> Path:
    """./encounter.toml from the skirmish (made in process: only `play` itself needs its own)."""
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish", file=path)
    return path


# --- piped ----------------------------------------------------------------------------------

ROUND = """\
# the example round, in one process
init --from skirmish
turn start
act Aria Finesse --extra 1d4 --target "Goblin Archer" --seed 11
turn end
turn start
d4cli act Borin Might --extra 1d8 --target 'Goblin Brute' --seed 21
turn end
status --json
"""


@pytest.mark.slow
def test_piped_script_plays_a_round_in_one_process(tmp_path: Path) -> None:
    done = _run(tmp_path, ["play"], ROUND)
    assert done.returncode == 0, done.stderr
    assert "d4cli>" not in done.stdout  # no prompt when piped
    status = done.stdout.strip().splitlines()[-1]

    facts = json.loads(status)
    assert facts["round"] == 1
    hp = {c["name"]: c["hp"] for c in facts["creatures"]}
    assert hp["Goblin Archer"] == 1  # 16 - Evasion 10 = 6 damage from 7 (seed 11)
    log = _run(tmp_path, ["log", "--json"])
    assert len(json.loads(log.stdout)["entries"]) == 7  # init + six changes, journaled by the store


@pytest.mark.slow
def test_piped_script_stops_at_the_first_failure_with_its_code(tmp_path: Path) -> None:
    _init(tmp_path)
    before = (tmp_path / "encounter.toml").read_bytes()
    done = _run(tmp_path, ["play"], "status --json\nact Nobody Might\nturn start\n")
    assert done.returncode == 2
    assert "no such creature" in done.stderr
    assert done.stderr.count("error:") == 1
    assert (tmp_path / "encounter.toml").read_bytes() == before  # `turn start` never ran


@pytest.mark.slow
@pytest.mark.parametrize("word", ["exit", "quit", "  quit  "])
def test_piped_exit_or_quit_ends_the_run_with_0(tmp_path: Path, word: str) -> None:
    _init(tmp_path)
    before = (tmp_path / "encounter.toml").read_bytes()
    done = _run(tmp_path, ["play"], f"status --json\n{word}\nturn start\n")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["round"] == 0
    assert (tmp_path / "encounter.toml").read_bytes() == before  # `turn start` never ran


@pytest.mark.slow
def test_piped_refusal_exits_3(tmp_path: Path) -> None:
    _init(tmp_path)
    done = _run(tmp_path, ["play"], "turn start\nact Aria Might --cost 9\nturn end\n")
    assert done.returncode == 3


@pytest.mark.slow
def test_unterminated_quote_is_one_line_error(tmp_path: Path) -> None:
    _init(tmp_path)
    done = _run(tmp_path, ["play"], 'act "Aria Might\n')
    assert done.returncode == 2
    error, stopped = (
        done.stderr.strip().splitlines()
    )  # its one line, then the line that stopped the script
    assert "no closing quotation" in error
    assert stopped == 'd4cli: play: stopped at line 1 (exit 2): act "Aria Might'


@pytest.mark.slow
def test_closed_stdin_ends_with_exit_0(tmp_path: Path) -> None:
    _init(tmp_path)
    done = subprocess.run(
        D4 + ["play"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.slow
def test_damaged_file_refuses_to_start_with_the_shell_message(tmp_path: Path) -> None:
    (tmp_path / "encounter.toml").write_text("this is [not toml\n")
    shell = _run(tmp_path, ["status"])
    done = _run(tmp_path, ["play"], "status\n")
    assert done.returncode == shell.returncode == 2
    assert done.stderr == shell.stderr
    assert done.stdout == ""


@pytest.mark.slow
def test_play_inside_play_is_refused(tmp_path: Path) -> None:
    _init(tmp_path)
    done = _run(tmp_path, ["play"], "play\n")
    assert done.returncode == 2
    assert "already in a session" in done.stderr


@pytest.mark.slow
def test_file_option_applies_to_every_line(tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    done = _run(tmp_path, ["play", "--file", str(other)], "init --from duel\nstatus --json\n")
    assert done.returncode == 0, done.stderr
    assert other.exists() and not (tmp_path / "encounter.toml").exists()


# --- pieces ---------------------------------------------------------------------------------


def test_split_drops_a_leading_d4cli_and_keeps_quoted_names() -> None:
    assert split('d4cli act Aria Finesse --target "Goblin Archer"') == [
        "act",
        "Aria",
        "Finesse",
        "--target",
        "Goblin Archer",
    ]
    assert split("  # a comment") == []


def test_history_path_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("D4CLI_HISTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert history_path() == tmp_path / "d4cli" / "history"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert history_path() == tmp_path / "home" / ".local" / "share" / "d4cli" / "history"
    monkeypatch.setenv("D4CLI_HISTORY", str(tmp_path / "h"))
    assert history_path() == tmp_path / "h"


def test_completion_uses_the_shell_completers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _init(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("D4CLI_FILE", raising=False)
    root = typer.main.get_command(app)
    assert completions(root, "act Aria Finesse --target Gob") == [
        ('"Goblin Archer"', "Goblin Archer", ""),
        ('"Goblin Brute"', "Goblin Brute", ""),
    ]
    assert [r for r, _, _ in completions(root, "act Aria Fi")] == ["Finesse"]
    assert [r for r, _, _ in completions(root, "roll check 2 --dc ha")] == ["hard"]
    assert [r for r, _, _ in completions(root, "tu")] == ["turn"]


def test_word_start_and_quoting() -> None:
    assert current_word_start('act "Goblin A') == 4
    assert current_word_start("act Aria ") == len("act Aria ")
    assert quote_value("Goblin Archer") == '"Goblin Archer"'
    assert quote_value("Aria") == "Aria"
    assert quote_value('Say "hi"') == '"Say \\"hi\\""'


def test_prompt_shows_round_and_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _init(tmp_path)
    session = Session(str(path))
    assert session.prompt() == "[not started] d4cli> "
    ok("turn", "start", file=path)
    assert session.prompt() == "[round 1: Aria] d4cli> "
    ok("turn", "end", file=path)
    assert session.prompt() == "[round 1: next Borin] d4cli> "
    assert Session(str(tmp_path / "none.toml")).prompt() == "[no encounter] d4cli> "


# --- interactive, through a pseudo-terminal --------------------------------------------------


@pytest.mark.slow
def test_interactive_session_through_a_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = _init(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "d4cli", "play"],
        cwd=str(tmp_path),
        env=_env(tmp_path, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1"),
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 200),
    )
    try:
        child.expect_exact("[not started] d4cli>")
        child.sendline("turn start")
        child.expect_exact("[round 1: Aria] d4cli>")
        # Tab completes a creature name with a space, quoted.
        child.send('act Aria Finesse --seed 11 --target "Goblin A\t')
        child.sendline("")
        child.expect(r"Goblin Archer: HP 7 -> 3")  # only the completed name could reach him
        child.expect_exact("[round 1: Aria] d4cli>")
        # A bad line: the shell's one-line error, and the session goes on.
        child.sendline("act Sir Might")
        child.expect("no such creature")
        child.expect_exact("[round 1: Aria] d4cli>")
        child.sendline("turn end")
        child.expect_exact("[round 1: next Borin] d4cli>")
        child.sendline("undo")
        child.expect_exact("[round 1: Aria] d4cli>")
        child.sendline("redo")
        child.expect_exact("[round 1: next Borin] d4cli>")
        # A second process changes the file; the session sees it on its next command.
        other = _run(tmp_path, ["turn", "start"])
        assert other.returncode == 0, other.stderr
        child.sendline("status --json")
        child.expect('"current": "Borin"')
        child.expect_exact("[round 1: Borin] d4cli>")
        # Ctrl-C cancels the line; help works inside.
        child.send("act Borin Mig")
        child.sendcontrol("c")
        child.expect_exact("[round 1: Borin] d4cli>")
        child.sendline("help")
        child.expect("Ctrl-D")
        child.expect_exact("d4cli>")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "turn start" in (tmp_path / "history").read_text()
    log = _run(tmp_path, ["log", "--json"])
    assert len(json.loads(log.stdout)["entries"]) >= 5
    assert path.exists()


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["roll", "pool", "4", "--json"], ["status"], ["--help"]])
def test_other_commands_never_import_the_line_editor(tmp_path: Path, argv: list[str]) -> None:
    _init(tmp_path)
    code = (
        "import sys\nfrom d4cli.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "print([m for m in sys.modules if m.startswith(('prompt_toolkit', 'd4cli.cli.play_session', 'd4cli.play'))], file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_completion_offers_option_values_and_not_the_actor_as_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _init(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("D4CLI_FILE", raising=False)
    root = typer.main.get_command(app)

    def values(line: str) -> list[str]:
        return [display for _, display, _ in completions(root, line)]

    assert values("act Aria Finesse --target ") == ["Borin", "Goblin Archer", "Goblin Brute"]
    assert values("act Aria Finesse --dc n") == ["nearly-impossible"]
    assert values("roll pool 3 --dc ch") == ["challenging"]
    assert values("odds pool --pool 1..3 --dc 5 --format ") == [
        "table",
        "markdown",
        "csv",
        "json",
        "svg",
    ]
    assert values("init --mode r") == ["round"]


def test_status_json_names_the_buffer_like_the_file(tmp_path: Path) -> None:
    path = _init(tmp_path)
    creature = ok_json("status", file=path)["creatures"][0]
    assert creature["load_buffer"] == creature["buffer"] == 1
