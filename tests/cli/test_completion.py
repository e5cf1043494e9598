"""Tab completion: the completers, the shell protocol and real shells.

Layers, as elsewhere: the completer functions directly; a completion request
made the way the generated scripts make it (env ``_D4CLI_COMPLETE`` and the
shell's variables) in a subprocess; the generated bash script run by a real
bash with COMP_* set by hand; and real interactive bash, zsh and fish on a
pseudo-terminal, where a Tab is typed and the finished line is run (each
skipped when that shell is not installed). ``completions/`` must match what
``scripts/gen_completions.py`` generates now.
"""

from __future__ import annotations

import importlib.util
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from _cli import ok

from d4cli.cli.completion import (
    complete_dc_tier,
    complete_example,
    complete_format,
    complete_topic,
)
from d4cli.cli.completion.creatures import complete_aspect, complete_creature
from d4cli.cli.completion.shells import completion_script
from d4cli.cli.completion.words import bash_quote, split_line

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
D4CLI = BIN / "d4cli"
HAS_STORE = importlib.util.find_spec("d4cli.store") is not None
needs_store = pytest.mark.skipif(
    not HAS_STORE, reason="d4cli.store (the encounter store) not there yet"
)
needs_script = pytest.mark.skipif(
    not D4CLI.exists(), reason="the d4cli console script is not installed"
)

NAMES = ("Goblin Archer", "Orc: Chief", "Zoë Mirth")


@pytest.fixture
def encounter(tmp_path: Path) -> Path:
    """An encounter file with a name with a space, one with a colon and one with non-ASCII."""
    path = tmp_path / "encounter.toml"
    steps = [
        ["init", "--file", str(path)],
        [
            "add",
            "Goblin Archer",
            "--aspect",
            "Might=3",
            "--aspect",
            "Quick Shot=2",
            "--file",
            str(path),
        ],
        ["add", "Orc: Chief", "--aspect", "Might=5", "--file", str(path)],
        ["add", "Zoë Mirth", "--aspect", "Wit=4", "--file", str(path)],
    ]
    for step in steps:
        ok(*step)
    return path


def ctx_with(**params: object) -> SimpleNamespace:
    return SimpleNamespace(params=params, parent=None, command=None)


# --- the completers --------------------------------------------------------------------------


def test_static_completers():
    assert complete_dc_tier("") == ["easy", "medium", "hard", "challenging", "nearly-impossible"]
    assert complete_dc_tier("h") == ["hard"]
    assert complete_dc_tier("N") == ["nearly-impossible"]
    assert complete_topic("ga") == ["gate"]
    assert "exit-codes" in complete_topic("")
    assert complete_format("") == ["table", "markdown", "csv", "json", "svg"]
    assert complete_format("c") == ["csv"]
    assert complete_format("x") == []


def test_examples_are_the_bundled_files():
    stems = sorted(
        path.stem for path in (REPO / "d4cli" / "fileformat" / "examples").glob("*.toml")
    )
    assert stems, "no bundled examples"
    assert complete_example("") == stems
    assert complete_example(stems[0][:2].upper()) == [
        s for s in stems if s.startswith(stems[0][:2])
    ]


@needs_store
def test_creatures_from_the_file_typed_on_the_line(encounter: Path, monkeypatch):
    monkeypatch.setenv("D4CLI_FILE", str(encounter.parent / "other.toml"))
    ctx = ctx_with(file=str(encounter))
    assert complete_creature(ctx, "") == list(NAMES)
    assert complete_creature(ctx, "gob") == ["Goblin Archer"]
    assert complete_creature(ctx, "ORC:") == ["Orc: Chief"]
    assert complete_creature(ctx, "zoë") == ["Zoë Mirth"]
    assert complete_creature(ctx, "Goblin  ar") == ["Goblin Archer"]  # N1: inner spaces fold
    assert complete_creature(ctx, "x") == []


@needs_store
def test_creatures_from_parent_context_env_and_default(
    encounter: Path, monkeypatch, tmp_path: Path
):
    parent = ctx_with(file=str(encounter))
    child = SimpleNamespace(params={"name": None}, parent=parent, command=None)
    assert complete_creature(child, "Go") == ["Goblin Archer"]
    monkeypatch.setenv("D4CLI_FILE", str(encounter))
    assert complete_creature(ctx_with(), "Or") == ["Orc: Chief"]
    monkeypatch.delenv("D4CLI_FILE")
    monkeypatch.chdir(encounter.parent)  # ./encounter.toml
    assert complete_creature(ctx_with(), "Zo") == ["Zoë Mirth"]


@needs_store
def test_aspects_of_the_creature_named_earlier(encounter: Path):
    assert complete_aspect(ctx_with(file=str(encounter), name="goblin archer"), "") == [
        "Might",
        "Quick Shot",
    ]
    assert complete_aspect(ctx_with(file=str(encounter), name="Goblin Archer"), "q") == [
        "Quick Shot"
    ]
    assert complete_aspect(ctx_with(file=str(encounter), actor="Zoë Mirth"), "") == ["Wit"]
    assert complete_aspect(ctx_with(file=str(encounter), name="Nobody"), "") == []
    assert complete_aspect(ctx_with(file=str(encounter)), "") == []


@needs_store
def test_aspects_of_the_actor_when_click_dropped_the_params(encounter: Path, monkeypatch):
    """`team ACTOR TARGET --aspect <Tab>`: Click stops at the option waiting for its value, so
    ctx.params holds no ACTOR; the words typed on the line name it (the first creature named)."""
    from d4cli.cli import completion

    # The shells set the words in place (every completer module holds the one list).
    words = completion.typed_words
    try:
        words[:] = ["team", "Orc: Chief", "Zoë Mirth", "--adv", "--aspect"]
        assert complete_aspect(ctx_with(file=str(encounter)), "") == ["Might"]
        words[:] = ["team", "-f", str(encounter), "goblin archer", "Orc: Chief", "--aspect"]
        assert complete_aspect(ctx_with(), "q") == ["Quick Shot"]
    finally:
        words.clear()


@pytest.mark.parametrize(
    "content",
    [None, b"", b"not = [valid toml", b"\xff\xfe\x00garbage", b"schema_version = 99\nname = 3\n"],
    ids=["missing", "empty", "bad-toml", "binary", "wrong-schema"],
)
def test_missing_or_damaged_file_gives_nothing_quietly(
    tmp_path: Path, content: bytes | None, capsys
):
    path = tmp_path / "broken.toml"
    if content is not None:
        path.write_bytes(content)
    ctx = ctx_with(file=str(path), name="Goblin Archer")
    assert complete_creature(ctx, "") == []
    assert complete_aspect(ctx, "") == []
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


# --- line splitting and quoting (the bash protocol) ------------------------------------------


@pytest.mark.parametrize(
    ("line", "words", "value", "kept", "quote"),
    [
        ("d4cli act Gob", ["d4cli", "act"], "Gob", "", ""),
        ("d4cli act ", ["d4cli", "act"], "", "", ""),
        ("d4cli act Goblin\\ Ar", ["d4cli", "act"], "Goblin Ar", "", ""),
        ('d4cli act "Gob', ["d4cli", "act"], "Gob", "", '"'),
        ("d4cli act 'Orc: C", ["d4cli", "act"], "Orc: C", "", "'"),
        ("d4cli act Orc:", ["d4cli", "act"], "Orc:", "Orc:", ""),
        ("d4cli act Orc\\:", ["d4cli", "act"], "Orc:", "", ""),
        ("d4cli roll check --dc=ha", ["d4cli", "roll", "check"], "--dc=ha", "--dc=", ""),
        ("d4cli act 'Goblin Archer' M", ["d4cli", "act", "Goblin Archer"], "M", "", ""),
        ('d4cli act "Zoë \\"Z\\" Mirth" ', ["d4cli", "act", 'Zoë "Z" Mirth'], "", "", ""),
    ],
)
def test_split_line(line, words, value, kept, quote):
    finished, typed = split_line(line)
    assert finished == words
    assert (typed.value, typed.kept, typed.quote) == (value, kept, quote)


def test_bash_quote():
    assert bash_quote("Goblin Archer") == "Goblin\\ Archer"
    assert bash_quote("Orc: Chief") == "Orc\\:\\ Chief"
    assert bash_quote("Zoë Mirth") == "Zoë\\ Mirth"
    assert bash_quote("it's $5") == "it\\'s\\ \\$5"
    assert bash_quote('say "hi" $x', '"') == 'say \\"hi\\" \\$x'
    assert bash_quote("it's", "'") == "it'\\''s"


# --- completion requests, as the scripts make them -------------------------------------------


def request(shell: str, line: str, env_extra: dict[str, str] | None = None, **env: str):
    """Run one completion request in a subprocess, the way the generated script does."""
    full = dict(os.environ)
    full.update(env_extra or {})
    full["_D4CLI_COMPLETE"] = f"complete_{shell}"
    if shell == "bash":
        full.update(COMP_LINE=line, COMP_POINT=str(len(line)), LC_ALL="C.UTF-8")
    else:
        words, typed = split_line(line)
        full["_D4CLI_COMPLETE_ARGS"] = "\n".join(words[1:])
        full["_D4CLI_COMPLETE_INCOMPLETE"] = typed.value
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "d4cli"],
        env=full,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("d4cli ro", ["roll"]),
        ("d4cli roll ch", ["check"]),
        ("d4cli roll check --dc h", ["hard"]),
        ("d4cli roll check --dc=h", ["hard"]),  # bash replaces only what follows "="
        ("d4cli roll check --dc n", ["nearly-impossible"]),
        ("d4cli help ga", ["gate"]),
        ("d4cli help GA", ["gate"]),
        ("d4cli roll pool --ti", ["--times"]),
    ],
)
def test_bash_request_static(line: str, expected: list[str]):
    result = request("bash", line)
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected


@pytest.mark.slow
@needs_store
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("d4cli act Gob", ["Goblin\\ Archer"]),
        ("d4cli act gob", ["Goblin\\ Archer"]),
        ("d4cli act Goblin\\ A", ["Goblin\\ Archer"]),
        ('d4cli act "Gob', ["Goblin Archer"]),  # readline closes the quote
        ("d4cli act 'Orc", ["Orc: Chief"]),
        ("d4cli act Orc", ["Orc\\:\\ Chief"]),
        ("d4cli act Orc:", ["\\ Chief"]),  # bash split at ':' and replaces only what follows
        ("d4cli act Orc\\:", ["Orc\\:\\ Chief"]),
        ("d4cli act zo", ["Zoë\\ Mirth"]),
        ("d4cli act Goblin\\ Archer ", ["Might", "Quick\\ Shot"]),
        ("d4cli act 'Goblin Archer' Q", ["Quick\\ Shot"]),
        ("d4cli act Zoë\\ Mirth ", ["Wit"]),
        ("d4cli act Goblin\\ Archer Might --target O", ["Orc\\:\\ Chief"]),
        ("d4cli team Orc\\:\\ Chief Zoë\\ Mirth --aspect ", ["Might"]),
    ],
)
def test_bash_request_creatures(encounter: Path, line: str, expected: list[str]):
    result = request("bash", line, D4CLI_FILE=str(encounter))
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected


@pytest.mark.slow
@needs_store
def test_request_reads_the_file_typed_on_the_line(encounter: Path, tmp_path: Path):
    other = tmp_path / "missing.toml"
    line = f"d4cli act --file {encounter} Gob"
    result = request("bash", line, D4CLI_FILE=str(other))
    assert result.stdout.splitlines() == ["Goblin\\ Archer"]
    result = request("bash", f"d4cli act -f {encounter} Goblin\\ Archer Q", D4CLI_FILE=str(other))
    assert result.stdout.splitlines() == ["Quick\\ Shot"]


@pytest.mark.slow
@needs_store
@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_plain_requests_for_zsh_and_fish(encounter: Path, shell: str):
    result = request(shell, "d4cli act Gob", D4CLI_FILE=str(encounter))
    assert result.stdout.splitlines() == ["Goblin Archer"]
    result = request(shell, "d4cli act Orc", D4CLI_FILE=str(encounter))
    assert result.stdout.splitlines() == ["Orc: Chief"]
    result = request(shell, "d4cli roll check --dc=h", D4CLI_FILE=str(encounter))
    assert result.stdout.splitlines() == ["--dc=hard"]
    result = request(shell, "d4cli roll ch")
    assert result.stdout.splitlines()[0].split("\t")[0] == "check"


@pytest.mark.slow
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize(
    "content", [None, b"creature = [[[", b"\x00\x01"], ids=["missing", "bad", "binary"]
)
def test_request_with_bad_file_is_silent(tmp_path: Path, shell: str, content: bytes | None):
    path = tmp_path / "encounter.toml"
    if content is not None:
        path.write_bytes(content)
    for line in ("d4cli act Gob", "d4cli act Goblin\\ Archer ", "d4cli remove "):
        result = request(shell, line, D4CLI_FILE=str(path))
        assert result.returncode == 0
        assert result.stderr == ""
        assert result.stdout.strip() == ""


# --- generated scripts ------------------------------------------------------------------------


def test_completions_folder_is_up_to_date():
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import gen_completions
    finally:
        sys.path.remove(str(REPO / "scripts"))
    generated = gen_completions.generate()
    assert set(generated) == {"d4cli.bash", "_d4cli", "d4cli.fish"}
    for name, text in generated.items():
        path = REPO / "completions" / name
        assert path.exists(), f"missing completions/{name}: run python scripts/gen_completions.py"
        assert path.read_text(encoding="utf-8") == text, (
            f"completions/{name} is stale: run python scripts/gen_completions.py"
        )


@pytest.mark.slow
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_source_instruction_gives_the_same_script(shell: str):
    env = dict(os.environ, _D4CLI_COMPLETE=f"source_{shell}")
    result = subprocess.run(
        [sys.executable, "-m", "d4cli"], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip() == completion_script(shell).strip()
    assert "COMP_LINE" in completion_script("bash")  # ours, not Typer's COMP_WORDS protocol


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shell", "installed"),
    [
        ("bash", ".bash_completions/d4cli.sh"),
        ("zsh", ".zfunc/_d4cli"),
        ("fish", ".config/fish/completions/d4cli.fish"),
    ],
)
def test_install_completion_writes_our_script(tmp_path: Path, shell: str, installed: str):
    env = dict(os.environ, HOME=str(tmp_path), _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    result = subprocess.run(
        [sys.executable, "-m", "d4cli", "--install-completion", shell],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert f"{shell} completion installed" in result.stdout
    assert (tmp_path / installed).read_text().strip() == completion_script(shell).strip()
    if shell == "bash":
        assert f"source '{tmp_path / installed}'" in (tmp_path / ".bashrc").read_text()


BASH_HARNESS = r"""
source "$SCRIPT"
line="$LINE"
COMP_LINE="$line"; COMP_POINT=${#line}
read -r -a COMP_WORDS <<< "$line"
[[ "$line" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_d4cli_completion d4cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${#COMPREPLY[@]}"
printf '[%s]\n' "${COMPREPLY[@]}"
"""


@pytest.mark.slow
@needs_script
@needs_store
@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_generated_bash_script_in_real_bash(encounter: Path):
    """bash runs completions/d4cli.bash; the reply, put in the line, makes exactly one word."""
    env = dict(
        os.environ,
        PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
        SCRIPT=str(REPO / "completions" / "d4cli.bash"),
        D4CLI_FILE=str(encounter),
        LC_ALL="C.UTF-8",
    )
    for typed, word in (("Gob", "Goblin Archer"), ("Orc", "Orc: Chief"), ("zo", "Zoë Mirth")):
        env["LINE"] = f"d4cli act {typed}"
        result = subprocess.run(
            ["bash", "--norc", "--noprofile", "-c", BASH_HARNESS],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        count, reply = result.stdout.splitlines()
        assert count == "1"
        completed = f"d4cli act {reply[1:-1]}"
        words = subprocess.run(
            ["bash", "--norc", "--noprofile", "-c", f"set -- {completed}; printf '<%s>' \"$@\""],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        ).stdout
        assert words == f"<d4cli><act><{word}>"


# --- real interactive shells on a pseudo-terminal ---------------------------------------------


def type_and_run(
    argv: list[str], setup: list[str], keys: str, env: dict[str, str], ready: str
) -> str:
    """Start an interactive shell on a pty, type *keys* (with a Tab), press Enter; the output.

    The Enter is typed ahead: the shell finishes the completion before it reads it.
    The shell's ``d4cli`` is a function that prints its arguments as ``<arg>``.
    """
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execvpe(argv[0], argv, env)
    out = b""

    def read_until(marker: bytes, limit: float = 60.0) -> bool:
        nonlocal out
        end = time.monotonic() + limit
        while time.monotonic() < end:
            ready_fds, _, _ = select.select([fd], [], [], 0.2)
            if ready_fds:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return False
                out += chunk
                if marker in out:
                    return True
        return False

    try:
        for line in setup:
            os.write(fd, line.encode() + b"\n")
        os.write(fd, ready.encode() + b"\n")
        assert read_until(b"READY-42"), out.decode("utf-8", "replace")
        out = b""
        os.write(fd, keys.encode() + b"\n")
        read_until(b"END-OF-ARGS")
        return out.decode("utf-8", "replace")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


SHELLS = {
    "bash": (
        ["bash", "--norc", "--noprofile", "-i"],
        ["PS1='$ '", 'source "$SCRIPT"', "d4cli() { printf '<%s>' \"$@\"; echo END-OF-ARGS; }"],
        "echo READY-$((40+2))",
        "d4cli.bash",
    ),
    "zsh": (
        ["zsh", "-f", "-i"],
        [
            "PS1='$ '",
            "autoload -U compinit; compinit -u -D",
            'source "$SCRIPT"',
            "d4cli() { printf '<%s>' \"$@\"; echo END-OF-ARGS; }",
        ],
        "echo READY-$((40+2))",
        "_d4cli",
    ),
    "fish": (
        ["fish", "--no-config", "-i"],
        [
            "function fish_prompt; echo '$ '; end",
            "source $SCRIPT",
            "function d4cli; printf '<%s>' $argv; echo END-OF-ARGS; end",
        ],
        "echo READY-(math 40 + 2)",
        "d4cli.fish",
    ),
}


@pytest.mark.slow
@needs_script
@needs_store
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize(
    ("keys", "args"),
    [
        ("d4cli act Gob\t", "<act><Goblin Archer>"),
        ('d4cli act "Gob\t', "<act><Goblin Archer>"),
        ("d4cli act gob\t", "<act><Goblin Archer>"),
        ("d4cli act Orc\t", "<act><Orc: Chief>"),
        ("d4cli act zo\t", "<act><Zoë Mirth>"),
        ("d4cli act Zoë\\ Mirth \t", "<act><Zoë Mirth><Wit>"),
        ("d4cli act Goblin\\ Archer Q\t", "<act><Goblin Archer><Quick Shot>"),
        ("d4cli roll check --dc=h\t", "<roll><check><--dc=hard>"),
        # Click stops parsing at an option still waiting for its value, so ACTOR never reaches
        # ctx.params: complete_aspect falls back on the words typed on the line.
        (
            "d4cli team Orc\\:\\ Chief Zoë\\ Mirth --adv --aspect \t",
            "<team><Orc: Chief><Zoë Mirth><--adv><--aspect><Might>",
        ),
        (
            "d4cli team Goblin\\ Archer Orc\\:\\ Chief --dis --aspect q\t",
            "<team><Goblin Archer><Orc: Chief><--dis><--aspect><Quick Shot>",
        ),
    ],
    ids=[
        "space",
        "open-quote",
        "case",
        "colon",
        "non-ascii",
        "aspect-after-non-ascii",
        "aspect-space",
        "option=",
        "team-aspect",
        "team-aspect-prefix",
    ],
)
def test_tab_in_real_shell(encounter: Path, shell: str, keys: str, args: str):
    """Done when: `d4cli act Gob<Tab>` completes "Goblin Archer" as one word."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} not installed")
    argv, setup, ready, script = SHELLS[shell]
    env = dict(
        os.environ,
        PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
        SCRIPT=str(REPO / "completions" / script),
        D4CLI_FILE=str(encounter),
        HOME=str(encounter.parent),
        XDG_CONFIG_HOME=str(encounter.parent / "config"),
        XDG_DATA_HOME=str(encounter.parent / "data"),
        TERM="dumb",
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        INPUTRC=os.devnull,
    )
    out = type_and_run(argv, setup, keys, env, ready)
    assert f"{args}END-OF-ARGS" in out, out


@pytest.mark.parametrize(
    ("args", "script"),
    [
        (("--show-completion", "zsh"), "_d4cli"),
        (("--show-completion=zsh",), "_d4cli"),
        (("--show-completion", "fish"), "d4cli.fish"),
        (("--show-completion", "bash"), "d4cli.bash"),
    ],
)
def test_show_completion_prints_the_named_shells_script(args, script):
    """``--show-completion zsh`` prints the zsh script whatever shell runs it (not the
    detected shell's), as completions/ holds it."""
    shown = ok(*args, env={"SHELL": "/bin/bash"}).stdout
    expected = (Path(__file__).resolve().parents[2] / "completions" / script).read_text()
    assert shown.rstrip("\n") == expected.rstrip("\n")


# --- the bestiary's names: templates and creatures, from their file names ---------------------


@pytest.fixture
def bestiary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bestiary with one template (``camp``) and two creatures, named by D4CLI_BESTIARY."""
    folder = tmp_path / "bestiary"
    (folder / "creatures").mkdir(parents=True)
    (folder / "camp.toml").write_text("", encoding="utf-8")
    for name in ("goblin", "Grey Wolf"):
        (folder / "creatures" / f"{name}.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("D4CLI_BESTIARY", str(folder))
    return folder


def test_template_names_are_the_bestiarys_then_the_bundled_ones(bestiary: Path):
    from d4cli.cli.completion.bestiary_words import complete_template

    assert complete_template("") == ["camp", "ambush", "duel", "skirmish"]
    assert complete_template("C") == ["camp"]
    assert complete_template("d") == ["duel"]


def test_creature_names_are_the_bestiarys_by_n1(bestiary: Path):
    from d4cli.cli.completion.bestiary_words import complete_bestiary_creature

    assert complete_bestiary_creature("g") == ["Grey Wolf", "goblin"]  # by file name
    assert complete_bestiary_creature("grey") == ["Grey Wolf"]


def test_a_bestiary_that_is_a_file_gives_the_bundled_templates_only(tmp_path, monkeypatch):
    from d4cli.cli.completion.bestiary_words import complete_bestiary_creature, complete_template

    not_a_folder = tmp_path / "bestiary"
    not_a_folder.write_text("", encoding="utf-8")
    monkeypatch.setenv("D4CLI_BESTIARY", str(not_a_folder))
    assert complete_template("") == ["ambush", "duel", "skirmish"]
    assert complete_bestiary_creature("") == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("d4cli init --from c", ["camp"]),
        ("d4cli next --from s", ["skirmish"]),
        ("d4cli next --add g", ["Grey\\ Wolf", "goblin"]),
        ("d4cli add Wolf --from Gr", ["Grey\\ Wolf"]),
    ],
)
def test_bash_request_bestiary(bestiary: Path, line: str, expected: list[str]):
    result = request("bash", line)
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected
