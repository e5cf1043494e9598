"""The package as a packager gets it: the sdist holds what the docs promise and tests itself.

The sdist is built as `python -m build` builds it (without an isolated environment: the
test extra holds the back end), unpacked into an empty folder, and a small part of its own
tests runs there against its own copy of the code, with no file of the checkout in reach.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# What README.md, docs/completion.md, docs/performance.md and CONTRIBUTING.md point a
# packager or a contributor at, each a path inside the unpacked sdist.
PROMISED = (
    "LICENSE",
    "README.md",
    "CONTRIBUTING.md",
    "RELIABILITY.md",
    "pyproject.toml",
    "d4cli/py.typed",
    "docs/api.md",
    "docs/cli.md",
    "completions/d4cli.bash",
    "completions/_d4cli",
    "completions/d4cli.fish",
    "examples/play-a-round.sh",
    "benchmarks/run.py",
    "tests/conftest.py",
    "tests/rules/test_pool.py",
    "tests/api/designer_script.py",
)


def _build(kind: str, out: Path) -> Path:
    """Build one distribution (``--sdist`` or ``--wheel``) of the checkout into *out*."""
    subprocess.run(
        [sys.executable, "-m", "build", kind, "--no-isolation", "--outdir", str(out), str(REPO)],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.iterdir()
    return built


@pytest.mark.slow
def test_the_sdist_holds_what_the_docs_promise_and_passes_its_own_tests(tmp_path):
    sdist = _build("--sdist", tmp_path / "dist")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (root,) = (tmp_path / "unpacked").iterdir()
    for path in PROMISED:
        assert (root / path).is_file(), path
    assert not list(root.rglob("__pycache__"))

    # Only the unpacked tree on the path: the checkout's editable install is found after it.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "D4CLI"))}
    env["PYTHONPATH"] = str(root)
    where = subprocess.run(
        [sys.executable, "-c", "import d4cli; print(d4cli.__file__)"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()) == root / "d4cli" / "__init__.py"
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/rules"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert " passed" in tests.stdout.splitlines()[-1]
    assert "failed" not in tests.stdout.splitlines()[-1]


@pytest.mark.slow
def test_twine_finds_nothing_to_mend_in_the_sdist_and_the_wheel(tmp_path):
    built = [_build("--sdist", tmp_path / "sdist"), _build("--wheel", tmp_path / "wheel")]
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2
    with zipfile.ZipFile(built[1]) as wheel:
        metadata = wheel.read("d4cli-0.1.0.dist-info/METADATA").decode()
        names = wheel.namelist()
    assert "License-Expression: MIT" in metadata.splitlines()
    assert "License-File: LICENSE" in metadata.splitlines()
    assert "Classifier: Typing :: Typed" in metadata.splitlines()
    # The project has no public home yet: no address is made up for it.
    assert "Project-URL" not in metadata and "Home-page" not in metadata
    assert "d4cli/py.typed" in names
