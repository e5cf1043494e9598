"""The journal entry's facts are read by key in its home alone (`d4cli.journal`).

Every other module reads an entry through its typed record (`d4cli.journal.entry.read_entry`):
renaming a key of the facts then changes the home only, and the file on disk, recap, luck and
the seat's page together. The test finds the keys the home's readers read, keeps those that are
the journal's own (not also a key of a roll's or an effect's object, which the roll printers
read, of a field of the encounter file, or of any object another module builds), and looks for
``.get("KEY")`` and ``["KEY"]`` anywhere else.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
HOME = PACKAGE / "journal"
# Objects the home writes that are also printed alone and read by their printers: a roll's
# (``roll pool``, ``roll check``, ``roll dice``) and an effect's (``effect list``, ``status``).
SHARED_OBJECTS = (HOME / "roll_facts.py", HOME / "effect_facts.py")
# The encounter file's own vocabulary: its fields are read by key where the TOML is read.
FILE_FORMAT = PACKAGE / "fileformat"


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _read_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """Each ``X.get("KEY")``, ``X["KEY"]`` and ``read_*(X, "KEY")`` in *tree*: (line, KEY)."""
    found = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get":
                key = node.args[0]
            elif isinstance(func, ast.Name) and func.id.startswith("read_") and len(node.args) > 1:
                key = node.args[1]
        elif isinstance(node, ast.Subscript):
            key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.append((node.lineno, key.value))
    return found


def _built_keys(tree: ast.AST) -> set[str]:
    """The string keys of the dict literals in *tree*."""
    return {
        key.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for key in node.keys
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }


def journal_keys() -> set[str]:
    """The keys of the facts that only the journal's entries hold (see the module docstring)."""
    read = {key for path in HOME.glob("*.py") for _, key in _read_keys(_tree(path))}
    shared = set().union(*(_built_keys(_tree(path)) for path in SHARED_OBJECTS))
    elsewhere: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.is_relative_to(HOME):
            continue
        tree = _tree(path)
        elsewhere |= _built_keys(tree)
        if path.is_relative_to(FILE_FORMAT):
            elsewhere |= {key for _, key in _read_keys(tree)}
    return read - shared - elsewhere


def test_the_journal_has_keys_of_its_own_to_look_for():
    keys = journal_keys()
    # the facts that recap, luck, the log and the seat's page used to read by key
    assert {"hp_before", "off_turn", "aspect_name", "effects_ended", "target_down"} <= keys
    assert {"down_before", "exhaustion_after", "alias_after", "resets", "sources"} <= keys
    assert len(keys) >= 30


def test_no_module_outside_the_journal_reads_its_facts_by_key():
    keys = journal_keys()
    offenders = [
        f"{path.relative_to(PACKAGE)}:{line}: {key!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.is_relative_to(HOME)
        for line, key in _read_keys(_tree(path))
        if key in keys
    ]
    assert offenders == []


def test_the_search_finds_a_read_by_key(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text('lost = entry["hp_before"] - entry.get("hp_after")\n', encoding="utf-8")
    assert [key for _, key in _read_keys(_tree(stray))] == ["hp_before", "hp_after"]
