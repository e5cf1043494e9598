"""The library as a designer's script sees it: typed for `mypy --strict` through the package's
``py.typed``, and every example of docs/api.md run as written.

The type checks install the wheel (no dependencies: only d4cli's own types are looked at)
into a fresh virtual environment and point mypy at it, so they see what a user's mypy sees,
not this checkout's files.
"""

from __future__ import annotations

import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
API_DOC = REPO / "docs" / "api.md"
SCRIPT = Path(__file__).with_name("designer_script.py")

# ```python blocks of docs/api.md (a fence may carry trailing spaces).
PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```", re.S | re.M)


def doc_examples() -> list[str]:
    """Each ```python example of docs/api.md, in order."""
    return PYTHON_BLOCK.findall(API_DOC.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment holding the wheel of this checkout."""
    root = tmp_path_factory.mktemp("installed")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(root / "dist"),
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    (wheel,) = (root / "dist").glob("*.whl")
    venv.create(root / "env", with_pip=False)
    python = root / "env" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # A pure-Python wheel installs by unpacking it into site-packages (no entry point is used).
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return python


def _mypy(python: Path, files: list[Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
        + ["--python-executable", str(python), *map(str, files)],
        cwd=cwd,
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
def test_a_designers_script_passes_mypy_strict_against_the_installed_package(installed, tmp_path):
    copy = tmp_path / "designer_script.py"
    copy.write_text(SCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
    checked = _mypy(installed, [copy], tmp_path)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.startswith("Success: no issues found in 1 source file")


@pytest.mark.slow
def test_without_the_marker_the_package_would_be_untyped(installed, tmp_path):
    """The control: the same check with ``py.typed`` taken out of the installed package fails."""
    marker = next(installed.parents[1].glob("lib/python3*/site-packages/d4cli/py.typed"))
    marker.unlink()
    try:
        copy = tmp_path / "designer_script.py"
        copy.write_text(SCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
        checked = _mypy(installed, [copy], tmp_path)
    finally:
        marker.touch()
    assert checked.returncode == 1
    assert "missing library stubs or py.typed marker" in checked.stdout


@pytest.mark.slow
def test_the_examples_of_docs_api_pass_mypy_strict(installed, tmp_path):
    examples = doc_examples()
    assert len(examples) >= 3
    files = []
    for number, example in enumerate(examples, 1):
        path = tmp_path / f"api_example_{number}.py"
        path.write_text(example, encoding="utf-8")
        files.append(path)
    checked = _mypy(installed, files, tmp_path)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.slow
def test_the_designers_script_runs(tmp_path):
    ran = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp_path, capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr
    lines = dict(line.split(" ", 1) for line in ran.stdout.splitlines())
    assert lines["p_pool_success"] == "0.84375 0.9305013020833334"
    assert lines["expected"] == "damage 4.0234375"
    assert lines["several"] == "('Goblin Archer', 'Goblin Sniper')"
