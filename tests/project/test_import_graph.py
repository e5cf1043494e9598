"""The import graph of d4cli, function-level and TYPE_CHECKING imports included.

import-linter's layers cannot see a cycle inside one layer; grimp reads every
import statement of every module (in functions too), so a cycle that a late
import hides is still found here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
# The package's top level: the entry point and one folder per concept.
TOP_LEVEL = {
    "__init__.py",
    "__main__.py",
    "api",
    "rules",
    "fight",
    "odds",
    "sim",
    "fileformat",
    "journal",
    "store",
    "output",
    "web",
    "cli",
    "py.typed",  # the marker that the package ships its types (PEP 561), not a concept
}


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if not child.startswith("d4cli"):
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _package_imports(graph: grimp.ImportGraph) -> set[tuple[str, str]]:
    """(importer, imported) between d4cli's modules, with a package's ``__init__`` as the package."""
    return {
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if importer.startswith("d4cli") and imported.startswith("d4cli")
    }


def test_no_module_imports_itself_back_through_any_chain():
    graph = grimp.build_graph("d4cli", include_external_packages=False)
    assert _cycles(graph) == []


def test_the_cycle_finder_sees_a_function_level_cycle():
    graph = grimp.ImportGraph()
    for name in ("d4cli", "d4cli.a", "d4cli.b", "d4cli.c"):
        graph.add_module(name)
    graph.add_import(importer="d4cli.a", imported="d4cli.b")
    graph.add_import(importer="d4cli.b", imported="d4cli.c")
    graph.add_import(importer="d4cli.c", imported="d4cli.a")
    assert _cycles(graph) == [["d4cli.a", "d4cli.b", "d4cli.c"]]


def test_function_level_imports_are_in_the_graph():
    # fight/sheets.py reads a creature's policy table with a late import: grimp must see it.
    graph = grimp.build_graph("d4cli", include_external_packages=False)
    assert ("d4cli.fight.sheets", "d4cli.fight.policy_table") in _package_imports(graph)


def test_no_import_through_importlib_but_the_lazy_command_group():
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "import_module":
                users.append(str(path.relative_to(PACKAGE)))
    assert sorted(set(users)) == ["cli/lazy.py"]


def test_the_top_level_is_one_folder_per_concept():
    entries = {path.name for path in PACKAGE.iterdir() if path.name != "__pycache__"}
    assert entries == TOP_LEVEL
    assert (
        len(entries) <= 14
    )  # eleven concepts (the journal entry the newest), the two entry files and the marker
