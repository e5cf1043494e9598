"""One Markdown writer: `md_text` escapes, `markdown_table` writes every pipe table of d4cli."""

from __future__ import annotations

import ast
from pathlib import Path

from markdown_it import MarkdownIt

from d4cli.output.markdown import Markdown, markdown_table, md_text

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"


def _cells(markdown: str) -> list[list[str]]:
    """The text of each cell of the first table in *markdown*, header row first, as a parser reads it."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows: list[list[str]] = []
    for token in tokens:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append("".join(child.content for child in token.children or ()))
    return rows


def test_text_reads_as_written_in_a_cell():
    nasty = ["a|b", "back\\slash", "*bold*", "_under_", "`code`", "[link](x)", "<b>tag</b>"]
    table = markdown_table(["name", "value"], [[text, "1"] for text in nasty])
    assert [row[0] for row in _cells(table)[1:]] == nasty
    assert {len(row) for row in _cells(table)} == {2}


def test_a_line_break_stays_in_its_cell_and_a_control_character_is_shown():
    table = markdown_table(["name"], [["two\nlines"], ["bell\x07"]])
    assert table.splitlines()[2:] == ["| two<br>lines |", "| bell\\\\x07 |"]


def test_what_needs_no_escape_is_left_alone():
    assert md_text("<0.1%") == "<0.1%"
    assert md_text(">99.9%") == ">99.9%"
    assert md_text("Adv 2, Dis 1 (= Adv 1)") == "Adv 2, Dis 1 (= Adv 1)"
    assert md_text("a<b") == "a\\<b"


def test_the_rule_row_aligns_columns_and_a_markdown_cell_is_kept():
    table = markdown_table(["a", "b", "c"], [["x", Markdown("**1**"), "*"]], ["left", "right"])
    assert table.splitlines() == ["| a | b | c |", "|:---|---:|---|", "| x | **1** | \\* |"]


def test_no_other_module_writes_a_pipe_table():
    # The rule row of a pipe table is written by d4cli.output.markdown alone.
    writers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and (
                "---" in text and "|" in text or text in (":---", "---:", "---")
            ):
                writers.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(writers)) == ["output/markdown.py"]
