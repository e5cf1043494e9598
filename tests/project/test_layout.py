"""The package's layout: a module holds one concept (a new concept gets a new module); no module of
d4cli/ grows past 600 lines, where one concept has become several."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
MAX_LINES = 600


def _too_long(root: Path) -> dict[str, int]:
    lengths = {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(root.rglob("*.py"))
    }
    return {name: count for name, count in lengths.items() if count > MAX_LINES}


def test_no_module_of_the_package_exceeds_600_lines():
    assert _too_long(PACKAGE) == {}


def test_the_line_count_would_catch_a_long_module(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert _too_long(tmp_path) == {"sub/long.py": MAX_LINES + 1}


def test_the_package_is_walked_into_its_subpackages():
    walked = {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")}
    assert {
        "journal/acts.py",
        "cli/completion/shells.py",
        "store/transaction.py",
        "cli/commands/act.py",
    } <= walked
