"""The core's errors name the library's fields, never the command line's options.

The shell spells fields as its options in one table (`d4cli.cli.flags`); an option
written in the core (``InputError("--dc", ...)``, ``check_range(x, "--advantage", ...)``,
``def parse_dc(text, field="--dc")``, ``"only with --gm"``) would reach a script as it is.
The source is read, not run (`_core_fields`), so every raise counts, reached or not.
"""

from __future__ import annotations

import ast

from _core_fields import FLAG, core_trees, found_in, mention_problems

TREES = core_trees()

SAMPLE = """
def check_range(value, field, bounds): ...
def parse_dc(text, field="--dc"): ...
class Encounter:
    def position_of(self, name, field_name="NAME"): ...

FIELD = "--scheduler"
check_range(level, "--advantage", (0, 5))
encounter.position_of(name, "--target")
raise InputError("--extra", text, f"{count} dice: only with --gm")
raise InputError("ignore_load", None, "only with {gm}", mentions=("gm", "dc"))
raise InputError("ignore_load", None, f"{name}: only with {{gm}}")
"""


def _flags(trees: dict[str, ast.Module]) -> list[str]:
    return sorted(
        f"{found.where}: {found.kind} {found.text!r}"
        for found in found_in(trees)
        if FLAG.search(found.text)
    )


def test_no_error_of_the_core_names_an_option():
    assert _flags(TREES) == []


def test_the_scan_would_catch_an_option_in_each_place():
    assert _flags({"sample.py": ast.parse(SAMPLE)}) == [
        "sample.py:10: field '--extra'",
        "sample.py:10: text ' dice: only with --gm'",
        "sample.py:10: text '--extra'",
        "sample.py:3: default '--dc'",
        "sample.py:7: field '--scheduler'",
        "sample.py:8: field '--advantage'",
        "sample.py:9: field '--target'",
    ]


def test_the_scan_reads_every_module_of_the_core():
    packages = {path.split("/")[1] for path in TREES}
    assert packages == {"rules", "fight", "odds", "sim", "store", "fileformat", "api"}
    assert "d4cli/rules/pool.py" in TREES and not any("/cli/" in path for path in TREES)


def test_each_marked_field_of_a_problem_is_a_mention():
    assert list(mention_problems(TREES)) == []
    assert list(mention_problems({"sample.py": ast.parse(SAMPLE)})) == [
        "sample.py:11: marks ['gm'], mentions ['dc', 'gm']",
        "sample.py:12: marks ['gm'], mentions []",
    ]
