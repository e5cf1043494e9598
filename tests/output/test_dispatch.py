"""One table each way: a record's JSON by its type (`SERIALIZERS`), a change's human line by its kind
(`SUMMARIES`), the line read from the same JSON object, so a change and its ``log`` line agree."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re

import pytest
from typer.testing import CliRunner

from d4cli.cli.app import app
from d4cli.fight import closed_sets as kinds
from d4cli.journal.entry import SERIALIZERS, record_json
from d4cli.output.render.entry_lines import SUMMARIES, summary

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def is_record_class(cls: object) -> bool:
    """A dataclass or a NamedTuple: the two shapes a record takes."""
    return isinstance(cls, type) and (
        dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))
    )


def kind_of(cls: type) -> object:
    """A record class's kind: a class attribute, or a property that returns a constant."""
    kind = getattr(cls, "kind", None)
    return kind.fget(None) if isinstance(kind, property) else kind


def test_every_record_type_in_the_table_is_a_record_class_with_a_kind():
    for record_type in SERIALIZERS:
        assert is_record_class(record_type), record_type
        module = importlib.import_module(record_type.__module__)
        assert getattr(module, record_type.__qualname__) is record_type


def test_every_record_class_of_the_model_has_its_serializer():
    from d4cli.fight import actions, events, several, sheet_check, sheets, team, visibility

    found = {
        cls
        for module in (actions, events, several, sheet_check, sheets, team, visibility)
        for cls in vars(module).values()
        if isinstance(cls, type)
        and cls.__module__ == module.__name__
        and not cls.__name__.startswith("_")
        and is_record_class(cls)
        and (
            "kind" in getattr(cls, "__dataclass_fields__", {})
            or "kind" in getattr(cls, "_fields", ())
            or isinstance(kind_of(cls), str)
        )
    }
    assert found == set(SERIALIZERS)


def test_an_unknown_record_type_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match=r"no JSON serializer for a builtins\.dict record"):
        record_json({"kind": "add"})  # type: ignore[arg-type]


def test_a_record_is_serialized_by_its_own_class_not_a_base_class():
    from d4cli.fight.events import DamageEvent

    class Later(DamageEvent):
        pass

    assert DamageEvent in SERIALIZERS
    with pytest.raises(TypeError, match=r"no JSON serializer for a .*Later record"):
        record_json(Later(1, None, "Aria", 1, 1, 0, 1, False, True))


def test_every_kind_of_entry_has_its_line_and_an_unknown_kind_reads_as_its_name():
    assert set(SUMMARIES) == set(kinds.LOG_KINDS)
    assert summary({"kind": "from-the-future", "round": 1}) == "from-the-future"


LOG_LINE = re.compile(r"^#\d+ +\d\d:\d\d R\d+ +")


def test_each_change_prints_the_line_log_shows():
    live = [ok("init", "--name", "Ford")]
    for args in (
        ("add", "Aria", "--aspect", "Finesse=3", "--hp", "8"),
        ("add", "Bram", "--aspect", "Might=2", "--side", "foes"),
        ("turn", "start"),
        ("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2", "--level", "2"),
        ("effect", "add", "Bram", "prone", "--adv", "--against", "--until-start-of", "Aria"),
        ("team", "Aria", "Bram", "--dis", "--aspect", "Finesse"),
        ("damage", "Aria", "3"),
        ("heal", "Aria", "1"),
        ("move", "Bram", "--first"),
        ("exhaust", "Bram", "+1"),
        ("action", "add", "Aria", "stab", "--aspect", "Finesse"),
        ("turn", "end"),
        ("turn", "start"),
        ("effect", "remove", "Aria", "blessed"),
        ("conceal", "Bram"),
        ("alias", "Aria", "The Fox"),
        ("reveal", "Bram"),
        ("remove", "Bram"),
    ):
        out = ok(*args)
        if args[0] != "team":  # a Team Action prints its steps table
            live.append(out)
    logged = [LOG_LINE.sub("", line) for line in ok("log").splitlines()]
    logged = [line for line, kind in zip(logged, _kinds()) if kind != "team"]
    assert len(logged) == 18
    assert [line.rstrip("\n") for line in live][1:] == logged[1:]  # init says which file it made


def _kinds() -> list[str]:
    return [entry["kind"] for entry in json.loads(ok("log", "--json"))["entries"]]


def test_r20_the_line_of_an_effect_added_after_the_last_turn_end_once_its_creature_is_gone(
    tmp_path,
):
    """An effect timed to Bram's turn, added after round 1's last turn end (still round 1, R19):
    its line reads alike as the change, in ``log``, ``status`` and ``effect list``; when Bram
    leaves it ends with the removal, which says so (R17, R20)."""
    for args in (
        ("init",),
        ("add", "Aria", "--aspect", "Might=3"),
        ("add", "Bram", "--aspect", "Might=3"),
        ("turn", "start"),
        ("turn", "start"),
        ("turn", "end"),
    ):
        ok(*args)
    added = ok("effect", "add", "Aria", "marked", "--dis", "--until-end-of", "Bram")
    assert "from_round" not in (tmp_path / "encounter.toml").read_text()
    words = "marked -1d4, until the end of Bram's turn"
    assert added == f"Aria: {words} (R20)\n"
    assert ok("log").splitlines()[-1].endswith(f"Aria: {words} (R20)")
    assert words in ok("status") and words in ok("effect", "list")
    removed = ok("remove", "Bram")
    assert removed.rstrip().endswith(
        "removed Bram (R17); nobody is left to go in round 1, which runs on until the next turn "
        "start: a creature added or healed before then has its turn in it (R19); marked on Aria "
        "ended: Bram removed, and its turn with it (R17) (R20)"
    )
    assert ok("log").splitlines()[-1].endswith(removed.rstrip())
    assert "marked" not in ok("status") and "marked" not in ok("effect", "list")
    assert json.loads(ok("status", "--json"))["creatures"][0]["effects"] == []
