"""The project explains itself: docs/rules.md states every rule id, `d4cli help R14` prints one,
and no file points outside the repository. Also the one list of commands (lazy loading)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _cli import run

from d4cli.cli.app import COMMANDS
from d4cli.output.rules_reference import parse_rules, rule_key
from d4cli.output.ruletext import RULES

REPO = Path(__file__).resolve().parents[2]
RULES_MD = REPO / "docs" / "rules.md"

EVERY_ID = (
    [f"R{n}" for n in range(1, 22)]
    + [f"C{n}" for n in range(1, 9)]
    + [f"L{n}" for n in range(1, 5)]
    + ["N1"]
)


def tracked_files() -> list[Path]:
    """The files of the repository (git's list when there is one, else every file but caches)."""
    try:
        names = (
            subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
            .stdout.decode("utf-8")
            .split("\0")
        )
        files = [REPO / name for name in names if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
        files = [
            p for p in REPO.rglob("*") if p.is_file() and not skip & set(p.relative_to(REPO).parts)
        ]
    return [path for path in files if path.is_file()]


def test_docs_rules_states_every_rule_with_an_example():
    rules = parse_rules(RULES_MD.read_text(encoding="utf-8"))
    assert list(rules) == EVERY_ID
    for rule in rules.values():
        assert rule.title and len(rule.text) > 40 and len(rule.example) > 20, rule.id
        assert "Example" not in rule.text


def test_help_text_is_generated_from_docs_rules_md():
    assert parse_rules(RULES_MD.read_text(encoding="utf-8")) == RULES
    check = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_rules.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout


def test_parse_rules_reads_heading_statement_and_example():
    page = (
        "# Title\n\nintro\n\n### R7 Total\n\nAdd every\ndie.\n\nExample: 3 + 4\n= 7.\n\n## Next\n"
    )
    rule = parse_rules(page)["R7"]
    assert (rule.id, rule.title, rule.text, rule.example) == (
        "R7",
        "Total",
        "Add every die.",
        "3 + 4 = 7.",
    )
    with pytest.raises(ValueError, match="R7"):
        parse_rules("### R7 Total\n\nNo example here.\n")


def test_every_rule_id_the_project_cites_is_stated():
    cited: set[str] = set()
    for path in [
        *REPO.joinpath("d4cli").rglob("*.py"),
        REPO / "README.md",
        *REPO.joinpath("docs").glob("*.md"),
    ]:
        cited |= set(re.findall(r"\b([RCLN][0-9]{1,2})\b", path.read_text(encoding="utf-8")))
    cited.discard("C0")  # the C0 control characters (errors.escape_control), not a rule
    assert cited - set(RULES) == set()
    assert set(EVERY_ID) <= cited


@pytest.mark.parametrize("word", ["R14", "r14", " R14 "])
def test_help_prints_a_rule_by_id_in_any_case(word):
    result = run("help", word)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("R14  Ending a turn early\n")
    assert "Ending a turn leaves the Load as it is." in result.stdout
    assert "Example" in result.stdout and "Her headroom stays 3" in result.stdout


@pytest.mark.parametrize("rule_id", EVERY_ID)
def test_help_prints_every_rule(rule_id):
    result = run("help", rule_id.lower())
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"{rule_id}  {RULES[rule_id].title}"


def test_help_json_gives_the_rule():
    result = run("help", "--json", "c3")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "rules": [
            {
                "id": "C3",
                "title": "Advantage Level",
                "text": RULES["C3"].text,
                "example": RULES["C3"].example,
            }
        ]
    }
    listing = json.loads(run("help", "--json").stdout)
    assert [rule["id"] for rule in listing["rules"]] == EVERY_ID
    assert listing["topics"][0]["topic"] == "gate"


def test_help_index_lists_topics_and_rules():
    result = run("help")
    assert result.exit_code == 0
    assert (
        "rule-of-three" in result.stdout
        and "R20" in result.stdout
        and "Lasting effects" in result.stdout
    )


@pytest.mark.parametrize(
    ("word", "field"),
    [("R99", "RULE-ID: 'R99'"), ("C0", "RULE-ID: 'C0'"), ("gates", "TOPIC: 'gates'")],
)
def test_unknown_rule_or_topic_is_bad_input(word, field):
    result = run("help", word)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert field in result.stderr


def test_rule_key():
    assert [rule_key(word) for word in ("r14", " N1 ", "R0", "R", "x1", "R14a")] == [
        "R14",
        "N1",
        "R0",
        None,
        None,
        None,
    ]


def test_no_file_refers_outside_the_repository():
    # Spelled in pieces, so that this file does not match itself.
    outside = re.compile("|".join(["shared" + "/", "RUL" + "INGS", "CLI" + r"\.md", "seeds" + "/"]))
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [
            f"{path.relative_to(REPO)}:{n}"
            for n, line in enumerate(text.splitlines(), 1)
            if outside.search(line)
        ]
    assert found == []


# --- one list of commands, loaded lazily through Typer's public API ---------------------------


def test_every_listed_command_is_in_the_help_in_order():
    result = run("--help")
    assert result.exit_code == 0
    found = [
        re.search(rf"^\S {re.escape(name)} ", result.stdout, re.MULTILINE) for name in COMMANDS
    ]
    assert None not in found
    positions = [match.start() for match in found if match is not None]
    assert positions == sorted(positions)


def test_a_run_imports_only_what_its_command_needs():
    code = (
        "import sys\n"
        "from d4cli.cli.main import main\n"
        "try:\n    main(['roll', 'pool', '4', '--json', '--seed', '1'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('d4cli.cli.commands', 'tomli_w', 'filelock'))), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert json.loads(result.stdout)["pool_size"] == 4
    # One command module (and the options it shares); the printers of d4cli.output load Rich
    # with their imports at the top, so Rich is no longer counted here.
    assert result.stderr.strip() == "['d4cli.cli.commands', 'd4cli.cli.commands.roll']"


def test_a_group_builds_only_the_sub_command_it_runs():
    from d4cli.cli.commands.roll import app as roll_app
    from d4cli.cli.lazy import build

    registered = list(roll_app.registered_commands)
    group = build("roll", COMMANDS["roll"])
    ctx = group.make_context("roll", ["pool", "3"])
    assert group.list_commands(ctx) == ["pool", "check", "dice"]
    assert group.get_command(ctx, "pool").name == "pool"
    assert "check" not in group.commands
    assert roll_app.registered_commands == registered  # Typer's own lists are only read


def test_a_command_is_one_spec():
    from d4cli.cli.lazy import build

    command = build("explain", "d4cli.cli.commands.help:help_command")
    assert command.name == "explain"
    assert [param.name for param in command.params] == ["topic", "json_"]
