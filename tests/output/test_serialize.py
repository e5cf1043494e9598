"""One record, one JSON object: the serializer modules are the only place that builds one.

`act --json` and the `log --json` entry of the same act carry the same facts
under the same keys and types; every command's JSON comes from `d4cli.output.serialize`
and the journal entry's home, `d4cli.journal`, which writes the facts of every change.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from _cli import ok

PACKAGE = Path(__file__).resolve().parents[2] / "d4cli"
SERIALIZER = PACKAGE / "output" / "serialize"  # the package: every module in it may build one
JOURNAL = PACKAGE / "journal"  # the facts of the journal's entries, which the commands print too

# The store wraps the serializer's object in the journal's bookkeeping (``seq``, ``time``,
# digests, and the ``init`` entry's kind).
ELSEWHERE = {PACKAGE / "store" / "transaction.py"}


def _contract_dicts(path: Path) -> list[str]:
    """Where *path* builds a JSON object itself: a dict literal keyed ``kind``/``entries``/``topics``,
    or ``emit_json`` given anything but a call."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant)}
            if keys & {"kind", "entries", "topics", "undone"}:
                found.append(f"{path.name}:{node.lineno}: a dict keyed {sorted(keys)[:3]}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "emit_json"
            and node.args
            and not isinstance(node.args[0], ast.Call)
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "obj")
        ):
            found.append(f"{path.name}:{node.lineno}: emit_json of a {type(node.args[0]).__name__}")
    return found


def test_no_module_but_the_serializer_builds_a_contract_json_object():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(SERIALIZER) or path.is_relative_to(JOURNAL) or path in ELSEWHERE:
            continue
        offenders += _contract_dicts(path)
    assert offenders == []


def test_the_grep_would_find_a_stray_builder(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text('emit_json({"kind": "act", "total": 3})\n')
    assert len(_contract_dicts(stray)) == 2
    # the serializer's modules do build them: rolls, acts, the event head, the whole file
    built = {
        path.stem
        for folder in (SERIALIZER, JOURNAL)
        for path in folder.glob("*.py")
        if _contract_dicts(path)
    }
    assert {"roll_facts", "acts", "heads", "encounter_json"} <= built


def test_no_record_serializes_itself():
    from d4cli.fight import events as records
    from d4cli.fight.actions import ActRecord
    from d4cli.fight.team import TeamRecord

    for record in (ActRecord, TeamRecord):
        assert not hasattr(record, "log"), record
    for name in ("AddEvent", "RemoveEvent", "TurnStartEvent", "TurnEndEvent", "ExhaustEvent"):
        assert not hasattr(getattr(records, name), "log"), name


def _run(*args: str) -> dict:
    return ok(*args, file="e.toml").json()


def test_act_json_and_its_log_entry_agree_key_for_key():
    ok("init", "--from", "skirmish", file="e.toml")
    _run("turn", "start", "--json")
    _run("team", "Borin", "Aria", "--adv", "--aspect", "Might", "--json")
    acted = _run(
        "act",
        "Aria",
        "Finesse",
        "--extra",
        "1d4+1",
        "--target",
        "Goblin Archer",
        "--seed",
        "7",
        "--json",
    )
    entry = _run("log", "--last", "1", "--json")["entries"][0]
    assert (acted["kind"], entry["kind"]) == ("pool", "act")  # both fixed by the contract
    shared = set(acted) & set(entry) - {"kind"}
    assert set(acted) - {"kind"} <= shared  # the log keeps every fact the command printed
    for key in sorted(shared):
        assert entry[key] == acted[key], key
        assert type(entry[key]) is type(acted[key]), key
    assert (acted["aspect"], acted["aspect_name"], acted["aspect_value"]) == (4, "Finesse", 4)
    assert acted["grants_used"] == {"advantage": ["team action"], "disadvantage": []}
    assert acted["outcome"] in ("damage", "no-damage") and acted["dry_run"] is False
    assert set(entry) - set(acted) == {"seq", "time"}


def test_change_json_is_its_log_entry():
    ok("init", "--from", "skirmish", file="e.toml")
    printed = [
        _run("turn", "start", "--json"),
        _run("exhaust", "Aria", "2", "--json"),
        _run("team", "Borin", "Aria", "--dis", "--aspect", "Might", "--json"),
        _run("turn", "end", "--json"),
        _run("add", "Rat", "--aspect", "Bite=1", "--hp", "3", "--json"),
        _run("remove", "Rat", "--json"),
    ]
    entries = _run("log", "--json")["entries"][1:]
    assert [{k: v for k, v in e.items() if k not in ("seq", "time")} for e in entries] == printed
    assert [obj["kind"] for obj in printed] == [
        "turn-start",
        "exhaust",
        "team",
        "turn-end",
        "add",
        "remove",
    ]


def test_closed_sets_print_as_their_values():
    from d4cli.fight.encounter_state import GRANT_KINDS, MODES
    from d4cli.fight.events import ActOutcome, GrantKind, Mode
    from d4cli.rules.action_roll import Critical, Outcome

    assert (tuple(Mode), tuple(GrantKind)) == (MODES, GRANT_KINDS)

    assert json.dumps(
        [
            Outcome.SUCCESS_AND,
            Critical.FAILURE,
            ActOutcome.NO_DAMAGE,
            GrantKind.ADVANTAGE,
            Mode.ROUND,
        ]
    ) == ('["success-and", "failure", "no-damage", "advantage", "round"]')


@pytest.mark.slow
def test_act_json_loads_its_serializer_and_no_other_commands_output(tmp_path):
    # An act's JSON loads its serializer and no renderer (Rich loads only where something is
    # drawn; a refusal's line is the log's line made plain, so a refused act draws it); the file
    # format (reader and writer in one module) loads tomli_w; what a run loads is bounded by its
    # command: no simulator, board or page.
    import subprocess
    import sys

    def modules(*args: str) -> str:
        done = subprocess.run(
            [
                sys.executable,
                "-X",
                "importtime",
                "-m",
                "d4cli",
                *args,
                "-f",
                str(tmp_path / "e.toml"),
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        return done.stderr

    modules("init", "--from", "skirmish", "--json")
    for args in (
        ("act", "Aria", "Finesse", "--json", "--dry-run"),
        ("act", "Aria", "Finesse", "--cost", "9", "--json"),
    ):
        loaded = modules(*args)
        assert "d4cli.journal.acts" in loaded, args
        if "--dry-run" in args:
            assert " rich\n" not in loaded and " d4cli.output.render\n" not in loaded, args
        for other in ("d4cli.sim", "d4cli.output.render.board_frame", "d4cli.output.page"):
            assert f" {other}\n" not in loaded, (args, other)
