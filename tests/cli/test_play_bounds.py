"""``play`` bounds every line (promise 7) and names a failing line by its first 60 characters
(promise 20): a line longer than `MAX_LINE` is refused before it is split (splitting is
superlinear: a word of 1 MB took 18 s), piped or typed, and never held whole when piped."""

from __future__ import annotations

import io
from pathlib import Path

from _cli import files, ok

from d4cli.cli.play_session import MAX_LINE, Session, read_lines, run_piped


def _play(path: Path, text: str, capsys) -> tuple[int, str, str]:
    code = run_piped(Session(str(path)), read_lines(io.StringIO(text)))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_line_too_long_is_refused_at_once_and_named_by_its_head(isolated_env, capsys):
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "9", file=path)
    capsys.readouterr()
    before = files(path)
    code, out, err = _play(path, "status\nnote " + "x" * 2_000_000 + "\ndamage Aria 1\n", capsys)
    assert code == 2 and files(path) == before
    head = "note " + "x" * 55 + "..."
    assert err.splitlines() == [
        f"d4cli: error: line: {head} (longer than {MAX_LINE:,} characters): a line of play holds one command",
        f"d4cli: play: stopped at line 2 (exit 2): {head} (longer than {MAX_LINE:,} characters)",
    ]
    assert "Aria" in out  # the status before it ran; the damage after it did not


def test_a_long_line_within_the_bound_runs_and_a_failing_one_is_named_by_60_characters(
    isolated_env, capsys
):
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    ok("add", "Aria", "--aspect", "Might=3", file=path)
    capsys.readouterr()
    code, _, err = _play(path, "note Aria --set " + "n" * 9_000 + "\n", capsys)
    assert (code, err) == (0, "")
    code, _, err = _play(path, "act Nobody Might --note " + "y" * 5_000 + "\n", capsys)
    assert code == 2
    stopped = err.splitlines()[-1]
    assert stopped == (
        "d4cli: play: stopped at line 1 (exit 2): act Nobody Might --note "
        + "y" * 36
        + "... (5,024 characters)"
    )


def test_read_lines_never_holds_a_long_line_whole():
    lines = list(read_lines(io.StringIO("a\n" + "b" * (5 * MAX_LINE) + "\nc\n")))
    assert [len(line) for line in lines] == [2, MAX_LINE + 2, 2]
    assert lines[0] == "a\n" and lines[2] == "c\n"


def test_a_typed_line_too_long_is_refused_too(isolated_env, capsys):
    path = isolated_env / "encounter.toml"
    ok("init", file=path)
    capsys.readouterr()
    assert Session(str(path)).run_line("status " + "z" * (MAX_LINE + 1)) == 2
    assert "a line of play holds one command" in capsys.readouterr().err
