"""Start-up cost pinned: what ``act --json`` loads and which model classes it builds; `frozen_dataclass`."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from d4cli.rules.lazy_dataclass import frozen_dataclass, realize

from d4cli.cli.lazy import YOUNG_THRESHOLD

PROBE = r"""
import json, sys
from d4cli.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
built = sorted(
    f"{name}.{cls.__qualname__}"
    for name, module in list(sys.modules.items()) if name.startswith("d4cli")
    for cls in list(vars(module).values())
    if isinstance(cls, type) and cls.__module__ == name
    and isinstance(vars(cls).get("__dataclass_fields__"), dict)
)
import gc
print(json.dumps({"modules": sorted(sys.modules), "built": built, "young": gc.get_threshold()[0]}), file=sys.stderr)
"""

# Every d4cli module `act --json` may load; a new one on this path must be added here on purpose.
ACT_MODULES = {
    "d4cli", "d4cli.cli.main", "d4cli.cli.app", "d4cli.cli.lazy", "d4cli.cli.root", "d4cli.rules.errors", "d4cli.cli.settings",
    "d4cli.cli.commands", "d4cli.cli.commands.act", "d4cli.cli.commands.common", "d4cli.cli.commands.output",
    "d4cli.cli.commands.pool_view", "d4cli.rules.names", "d4cli.rules.limits",
    "d4cli.fileformat.creature_toml", "d4cli.fight.frozen", "d4cli.fight.kinds",
    "d4cli.rules.lazy_dataclass", "d4cli.fight.actions", "d4cli.fight.effects", "d4cli.fileformat.effects_toml", "d4cli.fight.encounter", "d4cli.rules.dc",
    "d4cli.fileformat.encounter_toml", "d4cli.rules.dice", "d4cli.rules.pool", "d4cli.fight.sheets",
    "d4cli.fight.events", "d4cli.output.serialize", "d4cli.output.serialize.acts", "d4cli.output.serialize.base", "d4cli.output.serialize.changes",
    "d4cli.output.serialize.effects", "d4cli.output.serialize.rolls", "d4cli.store", "d4cli.store.files", "d4cli.store.journal",
    "d4cli.store.lock", "d4cli.store.temp", "d4cli.store.transaction",
}
# Never on this path: Rich, the OpenSSL hash binding, exact arithmetic, the table steps, other commands.
ACT_NEVER = {
    "rich", "hashlib", "_hashlib", "filelock", "decimal", "fractions", "prompt_toolkit", "tempfile",
    "d4cli.fight.sheet_check", "d4cli.cli.completion", "d4cli.cli.completion.sheets", "d4cli.rules.suggest", "d4cli.output.serialize.views",
    "d4cli.output.steps", "d4cli.rules.action_roll", "d4cli.cli.commands.roll", "d4cli.output.render", "d4cli.odds.roll_odds", "d4cli.fight.turns", "d4cli.fight.hitpoints", "d4cli.cli.play_session",
    "d4cli.store.history",
}
# The model classes an act builds (`frozen_dataclass`): the others stay plain classes.
ACT_BUILT = [
    "d4cli.fight.actions.ActRecord", "d4cli.fight.actions.ActRequest", "d4cli.rules.dice.ExtraDice", "d4cli.fight.encounter.Action",
    "d4cli.fight.encounter.Creature", "d4cli.fight.encounter.Encounter", "d4cli.fight.encounter.Pending", "d4cli.rules.pool.Gate",
    "d4cli.rules.pool.PoolPlan", "d4cli.rules.pool.PoolRequest", "d4cli.rules.pool.PoolResult", "d4cli.rules.pool.PoolSize",
]


def _probe(tmp_path: Path, *args: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args, "-f", str(tmp_path / "e.toml")],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False,
    )
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_act_json_loads_only_what_it_needs_and_builds_few_classes(tmp_path: Path) -> None:
    _probe(tmp_path, "init", "--from", "skirmish", "--json")
    before = (tmp_path / "e.toml").read_bytes()
    seen = _probe(tmp_path, "act", "Aria", "Finesse", "--dc", "5", "--seed", "1", "--json")
    assert (tmp_path / "e.toml").read_bytes() != before  # a real write, journal and all
    loaded = set(seen["modules"])
    assert {m for m in loaded if m.startswith("d4cli")} <= ACT_MODULES
    assert not {m for m in loaded if m.split(".")[0] in ACT_NEVER or m in ACT_NEVER}
    assert not any(m.startswith("d4cli.output.render") for m in loaded)
    assert seen["built"] == ACT_BUILT


def test_act_as_a_table_loads_neither_the_d20_rules_nor_the_sheet_checks(tmp_path: Path) -> None:
    _probe(tmp_path, "init", "--from", "skirmish", "--json")
    seen = _probe(tmp_path, "act", "Aria", "Finesse", "--dc", "5", "--seed", "1")
    loaded = set(seen["modules"])
    assert {"rich.table", "d4cli.output.steps", "d4cli.output.render.roll"} <= loaded  # a table was printed
    assert not {"tempfile", "d4cli.rules.action_roll", "d4cli.fight.sheet_check", "d4cli.cli.commands.roll", "hashlib", "d4cli.output.render.encounter"} & loaded
    # Rich is imported while the command runs: the collector, back on, seldom interrupts it.
    assert seen["young"] == YOUNG_THRESHOLD


def test_status_json_builds_only_the_encounter(tmp_path: Path) -> None:
    _probe(tmp_path, "init", "--from", "skirmish", "--json")
    seen = _probe(tmp_path, "status", "--json")
    assert seen["built"] == ["d4cli.rules.dice.ExtraDice", "d4cli.fight.encounter.Action", "d4cli.fight.encounter.Creature", "d4cli.fight.encounter.Encounter", "d4cli.fight.encounter.Pending"]
    assert not {"rich", "_hashlib", "tomli_w", "d4cli.fight.events", "d4cli.fight.actions"} & set(seen["modules"])


# --- frozen_dataclass -------------------------------------------------------------------------


@frozen_dataclass
class _Base:
    kind: ClassVar[str] = "base"
    x: int
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", self.x * 2)


@frozen_dataclass
class _Child(_Base):
    y: int = 0


def test_frozen_dataclass_waits_until_first_use() -> None:
    @frozen_dataclass
    class Waiting:
        """A plain class: it waits."""

        a: int

    assert "__dataclass_fields__" not in vars(Waiting) or not isinstance(vars(Waiting)["__dataclass_fields__"], dict)
    assert Waiting(3) == Waiting(3) and repr(Waiting(3)).endswith("<locals>.Waiting(a=3)")
    assert isinstance(vars(Waiting)["__dataclass_fields__"], dict)


def test_a_class_that_is_not_plain_is_built_at_once_by_dataclasses() -> None:
    @frozen_dataclass
    class Own:
        """With a repr of its own."""

        a: int

        def __repr__(self) -> str:
            return "own"

    assert isinstance(vars(Own)["__dataclass_fields__"], dict)  # no stand-in, nothing waits
    assert repr(Own(1)) == "own" and Own(1) == Own(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Own(1).a = 2  # type: ignore[misc]


def test_frozen_dataclass_behaves_as_a_frozen_dataclass() -> None:
    child = _Child(1, ("a",), "n", 5)
    assert child == _Child(1, ("a",), "other note", 5)  # compare=False is kept
    assert child != _Child(2, ("a",), "n", 5)
    assert hash(child) == hash(_Child(1, ("a",), "x", 5))
    assert repr(child) == "_Child(x=1, tags=('a',), y=5)"
    assert child.double == 2  # __post_init__ ran
    assert dataclasses.replace(child, y=7) == _Child(1, ("a",), "n", 7)
    assert _Base(4).tags == () and _Base(4).kind == "base"
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Base()  # type: ignore[call-arg]
    assert [f.name for f in dataclasses.fields(_Child)] == ["x", "tags", "note", "y"]
    assert _Child.__match_args__ == ("x", "tags", "note", "y")


def test_fields_and_plain_dataclass_subclasses_build_the_class_first() -> None:
    @frozen_dataclass
    class Lazy:
        a: int

    assert dataclasses.is_dataclass(Lazy)  # looking at the fields builds it
    assert [f.name for f in dataclasses.fields(Lazy)] == ["a"]

    @frozen_dataclass
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True)
    class Plain(Base):
        b: int = 2

    assert Plain(1) == Plain(1, 2) and repr(Plain(1)) == "test_fields_and_plain_dataclass_subclasses_build_the_class_first.<locals>.Plain(a=1, b=2)"
    realize(Base)  # a second time does nothing
    assert Base(1) != Plain(1)


def test_frozen_dataclass_refuses_its_own_init() -> None:
    with pytest.raises(TypeError, match="writes __init__"):

        @frozen_dataclass
        class Own:
            a: int

            def __init__(self) -> None:
                pass


@frozen_dataclass
class _Plain:
    """A plain model class (a docstring, plain fields): built compiling only ``__init__``."""

    kind: ClassVar[str] = "plain"
    x: int
    tags: list[str] = dataclasses.field(default_factory=list)
    note: str = dataclasses.field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", self.x * 2)


@frozen_dataclass
class _PlainChild(_Plain):
    """A subclass: its base is built first, its own fields follow."""

    y: int = 0


def test_a_plain_class_is_the_same_frozen_dataclass_compiling_only_its_init() -> None:
    import inspect

    import d4cli.rules.lazy_dataclass

    child = _PlainChild(1, ["a"], "n", 5)
    assert child == _PlainChild(1, ["a"], "other note", 5) and child != _PlainChild(1, ["a"], "n", 6)
    assert repr(child) == "_PlainChild(x=1, tags=['a'], y=5)" and child.double == 2
    assert _Plain(1).tags == [] and _Plain(1).tags is not _Plain(1).tags  # a factory per instance
    assert dataclasses.replace(child, y=7) == _PlainChild(1, ["a"], "n", 7)
    assert _PlainChild.__match_args__ == ("x", "tags", "note", "y")
    assert list(inspect.signature(_PlainChild).parameters) == ["x", "tags", "note", "y"]
    params = _PlainChild.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen and params.init and params.eq and params.repr
    for attempt in (lambda: setattr(child, "x", 3), lambda: setattr(child, "new", 1), lambda: delattr(child, "x")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            attempt()
    with pytest.raises(TypeError):
        _Plain()  # type: ignore[call-arg]
    # One method compiled per class; the frozen checks are closures of this module.
    assert _PlainChild.__init__.__code__.co_filename == "<string>"
    assert _PlainChild.__setattr__.__code__.co_filename == d4cli.rules.lazy_dataclass.__file__
    assert _PlainChild.__delattr__.__code__.co_filename == d4cli.rules.lazy_dataclass.__file__

    @dataclasses.dataclass(frozen=True)
    class Strict(_Plain):
        z: int = 1

    assert Strict(2).z == 1 and Strict(2).double == 4
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):

        @dataclasses.dataclass
        class Loose(_Plain):
            pass


def test_a_plain_class_with_a_field_out_of_order_is_refused_as_dataclasses_does() -> None:
    @frozen_dataclass
    class Wrong:
        """A field without a default after one with."""

        a: int = 0
        b: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        Wrong()


def test_the_model_classes_an_act_builds_compile_only_their_init() -> None:
    from d4cli.fight.actions import ActRecord
    from d4cli.fight.encounter import Creature, Encounter

    for cls in (ActRecord, Creature, Encounter):
        realize(cls)
        assert cls.__init__.__code__.co_filename == "<string>", cls
        assert cls.__setattr__.__code__.co_filename.endswith("lazy_dataclass.py"), cls
