"""``d4cli handbook``: one Markdown document that a Markdown parser reads, citing every rule id the tool cites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _cli import ok, run
from markdown_it import MarkdownIt

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
RULE_ID = re.compile(
    r"(?<![\w-])([RCL][1-9]\d?|N1)(?![\w])"
)  # C0: the Unicode control set, not a rule


@pytest.fixture(scope="module")
def handbook(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("handbook")
    out = folder / "handbook.md"
    result = run("handbook", "--from", "duel", "--runs", "100", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Wrote {out}: ")
    return out.read_text(encoding="utf-8")


def _cells(line: str) -> int:
    """The cells of a pipe-table line, escaped pipes (``\\|``) not counted."""
    return len(re.split(r"(?<!\\)\|", line.strip().strip("|")))


def test_every_table_parses_with_equal_column_counts(handbook):
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(handbook)
    tables = [t for t in tokens if t.type == "table_open"]
    assert len(tables) >= 7  # the worked roll, four grids, the simulator's two
    lines = handbook.splitlines()
    for table in tables:
        start, end = table.map
        counts = {_cells(line) for line in lines[start:end]}
        assert len(counts) == 1, lines[start:end]
        header = next(t for t in tokens[tokens.index(table) :] if t.type == "tr_close")
        assert header is not None


def test_every_rule_id_the_tool_cites_is_in_the_handbook(handbook):
    cited = set()
    for path in PACKAGE.rglob("*.py"):
        cited |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    assert {"R1", "R20", "C8", "L4", "N1"} <= cited
    headings = set(re.findall(r"^### ([RCLN]\d+) ", handbook, re.M))
    assert cited <= headings, sorted(cited - headings)


def test_each_table_has_a_caption_saying_how_it_was_computed(handbook):
    assert handbook.count("Caption: exact") == 4
    assert "Caption: simulated under the policy `d4cli help simulate` states." in handbook
    assert (
        "**Playtest duel: 100 runs per mode, seed 3, draw after 100 rounds**; "
        "95% intervals in parentheses." in handbook
    )
    # Each caption says a thing once: the runs, the seed and the intervals are the heading's.
    for said in ("95% intervals in parentheses", "100 runs per mode", "fights per mode"):
        assert handbook.count(said) <= 1, said
    assert (
        "| 4 (4d4) | 100.0% | 98.0% | 86.3% | 58.6% | 25.8% | 5.9% | 0.4% | 0.0% | 0.0% |"
        in handbook
    )
    assert "| Total | **16** | R7 |" in handbook


def test_without_out_it_prints_the_document(isolated_env):
    text = ok("handbook", "--runs", "20", "--seed", "1").stdout
    assert text.startswith("# d4cli: the designer's handbook")
    assert "Ambush on the north road" in text
    assert list(isolated_env.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ("--out", "no/such/folder/h.md"),
            "--out: 'no/such/folder/h.md': its folder does not exist",
        ),
        (("--from", "nowhere"), "--from: 'nowhere'"),
        (("--runs", "0"), "--runs: 0"),
        (("--seed", "x"), "--seed: 'x'"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(isolated_env, args, needle):
    result = run("handbook", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert list(isolated_env.iterdir()) == []
