"""Every example of docs/api.md runs as written, and prints what its comments say.

A ```python block runs on its own in an empty folder; each ``print(...)`` whose comment
(at the end of its line, or alone on the next line) reads as output, starting with a
digit, a bracket, a brace or a quote, must print exactly that line. A ```pycon block is a
doctest. (tests/api/test_typed_library.py runs `mypy --strict` on the same ```python blocks.)
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from pathlib import Path

import pytest

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"^```(python|pycon)[ \t]*\n(.*?)^```", re.S | re.M)
# A comment that shows output: a number, a list, a table, a tuple or text.
OUTPUT = re.compile(r"""^[-0-9\[{('"]""")


def _blocks(kind: str) -> list[tuple[int, str]]:
    text = API_DOC.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, found.start()) + 2, found.group(2))
        for found in BLOCK.finditer(text)
        if found.group(1) == kind
    ]


def _expected_prints(code: str) -> list[str | None]:
    """For each ``print(`` line of *code*, in order, the output its comment shows (or None)."""
    lines = code.splitlines()
    expected: list[str | None] = []
    for index, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        comment = line.split("  # ", 1)[1] if "  # " in line else None
        if comment is None and index + 1 < len(lines) and lines[index + 1].startswith("# "):
            comment = lines[index + 1][2:]
        expected.append(comment if comment is not None and OUTPUT.match(comment) else None)
    return expected


PYTHON = _blocks("python")
PYCON = _blocks("pycon")


@pytest.mark.slow
@pytest.mark.parametrize(("line", "code"), PYTHON, ids=[f"line {n}" for n, _ in PYTHON])
def test_each_python_example_runs_and_prints_what_it_says(line, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"docs/api.md:{line}", "exec"), {"__name__": "__main__"})
    printed = out.getvalue().splitlines()
    expected = _expected_prints(code)
    assert len(printed) == len(expected)
    for shown, wanted in zip(printed, expected):
        if wanted is not None:
            assert shown == wanted


@pytest.mark.parametrize(("line", "text"), PYCON, ids=[f"line {n}" for n, _ in PYCON])
def test_each_notebook_example_shows_what_it_says(line, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/api.md", str(API_DOC), line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
    assert runner.tries >= 3


def test_the_doc_walks_from_the_odds_to_a_balanced_fight():
    walk = next(code for _, code in PYTHON if "balance(" in code)
    order = [walk.index(call) for call in ("pool_odds(", "simulate(", "forecast(", "balance(")]
    assert order == sorted(order)
