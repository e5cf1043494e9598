"""The fields the core names in its errors, read from the source (no module is imported).

A *field* is a string constant in one of these places of a module of the core packages:
the first argument of an error class (``InputError("dc/evasion", ...)``), the field
argument of a function whose parameter is called ``field``, ``field_name`` or ``option``
(``check_range(level, "advantage_level", ...)``, ``encounter.position_of(name, "target")``),
the default of such a parameter (``parse_dc(text, field="dc")``), or a module's
``...FIELD`` constant; a *mention* is one of an `InputError`'s ``mentions``. The *texts*
are every string constant (f-string parts included) given to an error class.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

PACKAGE = Path(__file__).resolve().parent.parent / "d4cli"
# The library: the core and its facade; the shell (cli) and the output are not in it.
CORE = ("rules", "fight", "odds", "sim", "store", "fileformat", "api")
ERRORS = frozenset({"InputError", "FileError", "RefusedError", "ClusterError"})
FIELD_PARAMETERS = frozenset({"field", "field_name", "option"})
# A command-line option: two dashes and a letter, not inside a word.
FLAG = re.compile(r"(?<![\w-])--[a-z]")
MARK = re.compile(r"\{([a-z][a-z_]*)\}")


class Found(NamedTuple):
    where: str  # path:line
    kind: str  # "field", "default", "mention" or "text"
    text: str


def core_trees() -> dict[str, ast.Module]:
    """Every module of the core packages, parsed, by its path relative to the repository."""
    return {
        str(path.relative_to(PACKAGE.parent)): ast.parse(path.read_text(encoding="utf-8"))
        for package in CORE
        for path in sorted((PACKAGE / package).rglob("*.py"))
    }


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _field_positions(trees: dict[str, ast.Module]) -> dict[str, set[int | str]]:
    """Each core function's name -> where callers pass its field: positions (``self`` not
    counted) and keyword names."""
    positions: dict[str, set[int | str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            params = [*node.args.posonlyargs, *node.args.args]
            if params and params[0].arg in ("self", "cls"):
                params = params[1:]
            for index, param in enumerate(params):
                if param.arg in FIELD_PARAMETERS:
                    positions.setdefault(node.name, set()).update((index, param.arg))
            for param in node.args.kwonlyargs:
                if param.arg in FIELD_PARAMETERS:
                    positions.setdefault(node.name, set()).add(param.arg)
    return positions


def _strings(node: ast.AST) -> Iterator[str]:
    """The string constants of *node*: a constant, or the literal parts of an f-string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            yield from _strings(part)


def _defaults(node: ast.FunctionDef) -> Iterator[tuple[str, ast.expr]]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    yield from zip(
        (a.arg for a in positional[len(positional) - len(args.defaults) :]), args.defaults
    )
    yield from ((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)


def found_in(trees: dict[str, ast.Module]) -> Iterator[Found]:
    """Every field and error text of *trees* (see the module's docstring)."""
    positions = _field_positions(trees)
    for path, tree in trees.items():
        for node in tree.body:  # a module's field constant (`FIELD = "scheduler"`)
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id.endswith("FIELD") for t in node.targets
            ):
                for text in _strings(node.value):
                    yield Found(f"{path}:{node.lineno}", "field", text)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for name, default in _defaults(node):
                    if name in FIELD_PARAMETERS:
                        for text in _strings(default):
                            yield Found(f"{path}:{default.lineno}", "default", text)
            if not isinstance(node, ast.Call):
                continue
            where = f"{path}:{node.lineno}"
            name = _callee(node)
            if name in ERRORS:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    for text in _strings(arg):
                        yield Found(where, "text", text)
                if name == "InputError" and node.args:
                    for text in _strings(node.args[0]):
                        yield Found(where, "field", text)
                for keyword in node.keywords:
                    if keyword.arg == "mentions" and isinstance(keyword.value, ast.Tuple):
                        for element in keyword.value.elts:
                            for text in _strings(element):
                                yield Found(where, "mention", text)
            for spot in positions.get(name, ()):
                arg = (
                    node.args[spot]
                    if isinstance(spot, int) and spot < len(node.args)
                    else next((k.value for k in node.keywords if k.arg == spot), None)
                )
                if arg is not None:
                    for text in _strings(arg):
                        yield Found(where, "field", text)


def library_names(field: str) -> list[str]:
    """The library's names in *field* (``dc/evasion`` -> dc, evasion); none for ``NAME``,
    ``policy.target`` and other fields the shell shows as written (`InputError.render`)."""
    parts = field.split("/")
    if all(re.fullmatch(r"[a-z][a-z_]*", part) for part in parts):
        return parts
    return []


def mention_problems(trees: dict[str, ast.Module]) -> Iterator[str]:
    """Each `InputError` call whose literal problem and ``mentions`` disagree: a ``{name}``
    mark not listed, or a listed name with no mark."""
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _callee(node) == "InputError"):
                continue
            if len(node.args) < 3 or not isinstance(node.args[2], (ast.Constant, ast.JoinedStr)):
                continue  # a problem made elsewhere: its marks are not read here
            marks = {m for text in _strings(node.args[2]) for m in MARK.findall(text)}
            listed: set[str] = set()
            for keyword in node.keywords:
                if keyword.arg == "mentions" and isinstance(keyword.value, ast.Tuple):
                    listed |= {t for element in keyword.value.elts for t in _strings(element)}
            if marks != listed:
                yield f"{path}:{node.lineno}: marks {sorted(marks)}, mentions {sorted(listed)}"
