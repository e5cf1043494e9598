"""The package's layout, as a reader needs it: every module says what it holds in its docstring,
a module's file name is its own (one concept, one name), and a function fits on a screen.

Module length is not capped: a concept stays in one module however long it grows, and a second
concept gets a module named for it. Command modules (`cli/commands/`) are named for their command,
so ``cli/commands/recap.py`` beside ``api/recap.py`` is the shell's and the library's side of one
command; every other file name appears once in the package.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
COMMANDS = PACKAGE / "cli" / "commands"
MAX_BODY_LINES = 60

# Functions longer than a screen, each for a reason a split would not serve.
LONG_FUNCTIONS = {
    # Click's shell classes are defined where completion is asked for, so Click's shell
    # module loads on that path alone; the four classes are one table.
    "cli/completion/shells.py:_shell_classes",
    # One field after another of the file format, each checked in document order so the
    # first error names the first bad field (file-format.md).
    "fileformat/encounter_toml.py:encounter_from_document",
    # The hand-drawn bar chart's SVG, element after element in drawing order.
    "output/render/svg.py:bar_chart",
    # The batch engine's tables: one array per column of the encounter, built side by side.
    "sim/batch_tables.py:build",
}


def _modules(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def _without_docstring(root: Path) -> list[str]:
    return [
        str(path.relative_to(root))
        for path in _modules(root)
        if path.name != "__main__.py"
        and ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) is None
        and path.read_text(encoding="utf-8").strip()
    ]


def _shared_names(root: Path, commands: Path) -> dict[str, int]:
    names = Counter(
        path.name
        for path in _modules(root)
        if path.name != "__init__.py" and not path.is_relative_to(commands)
    )
    return {name: count for name, count in names.items() if count > 1}


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the end: a Typer command's
    options are declarations in its signature, not code to read."""
    body = node.body
    first = body[0]
    if (
        len(body) > 1
        and isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        first = body[1]
    assert node.end_lineno is not None
    return node.end_lineno - first.lineno + 1


def _long_functions(root: Path) -> dict[str, int]:
    found = {}
    for path in _modules(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = _body_lines(node)
                if lines > MAX_BODY_LINES:
                    found[f"{path.relative_to(root)}:{node.name}"] = lines
    return found


def test_every_module_says_what_it_holds():
    assert _without_docstring(PACKAGE) == []


def test_every_file_name_outside_the_commands_is_its_own():
    assert _shared_names(PACKAGE, COMMANDS) == {}


def test_every_function_fits_on_a_screen_but_the_listed_ones():
    assert set(_long_functions(PACKAGE)) == LONG_FUNCTIONS


def test_the_checks_would_catch_each_fault(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "recap.py").write_text('"""Figures."""\n', encoding="utf-8")
    (tmp_path / "b" / "recap.py").write_text("x = 1\n", encoding="utf-8")
    long_body = "".join(f"    x{i} = {i}\n" for i in range(MAX_BODY_LINES + 1))
    (tmp_path / "long.py").write_text(f'"""Long."""\ndef f():\n    """Doc."""\n{long_body}')
    assert _without_docstring(tmp_path) == ["b/recap.py"]
    assert _shared_names(tmp_path, tmp_path / "commands") == {"recap.py": 2}
    assert _long_functions(tmp_path) == {"long.py:f": MAX_BODY_LINES + 1}


def test_the_package_is_walked_into_its_subpackages():
    walked = {str(path.relative_to(PACKAGE)) for path in _modules(PACKAGE)}
    assert {
        "journal/acts.py",
        "cli/completion/shells.py",
        "store/transaction.py",
        "cli/commands/act.py",
    } <= walked


# A dotted name in backquotes, as docstrings, comments and docs name a module or what it holds.
_REFERENCE = re.compile(r"`(d4cli(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")


def _top_level_names(module: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _unresolved(reference: str) -> bool:
    """*reference* names no module of the package, or a name its module does not hold."""
    parts = reference.split(".")
    for cut in range(len(parts), 1, -1):
        base = PACKAGE.parent.joinpath(*parts[:cut])
        module = (
            base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
        )
        if module.exists():
            return cut < len(parts) and parts[cut] not in _top_level_names(module)
    return True


def test_every_dotted_reference_names_what_is_there():
    # After a module is renamed or merged, a docstring that still names the old place sends
    # the reader nowhere; every dotted d4cli name in the code, the tests and the docs resolves.
    root = PACKAGE.parent
    files = [*_modules(PACKAGE), *_modules(root / "tests"), *sorted((root / "docs").glob("*.md"))]
    files += [root / "README.md", root / "RELIABILITY.md"]
    stale = sorted(
        f"{path.relative_to(root)}: {reference}"
        for path in files
        for reference in set(_REFERENCE.findall(path.read_text(encoding="utf-8")))
        if _unresolved(reference)
    )
    assert stale == []


def test_the_simulate_command_with_its_signature_fits_on_a_screen():
    # Once 171 lines of orchestration: now parse, one call of the library
    # (`d4cli.api.simulation.simulate`), render; its signature and docstring included.
    tree = ast.parse((COMMANDS / "simulate.py").read_text(encoding="utf-8"))
    (node,) = [
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "simulate_command"
    ]
    assert node.end_lineno is not None and node.end_lineno - node.lineno + 1 < 60
