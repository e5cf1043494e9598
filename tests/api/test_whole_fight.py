"""A whole fight through `d4cli.api` alone, as a designer's script drives it: no CLI, no store.

The dice are scripted, so each number below follows from the rules: the pool's size (R5), the
total (R6), damage against Evasion (R7), the Load after (R8), the gate (R2), Team Action grants
(R11), hp and healing (R16, R18), and the journal that ``undo``/``redo`` walk (byte for byte).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from d4cli import api
from d4cli.api import InputError, encounter, odds, rolls
from d4cli.api.encounter import Tracker
from d4cli.api.rolls import ScriptedDice


def _files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


@pytest.fixture
def duel(tmp_path: Path) -> Tracker:
    # d4s first, then the rapier's / sabre's d6 (R6)
    dice = ScriptedDice([4, 3, 2, 1, 4, 2, 4, 4, 1, 3])
    return Tracker.init(tmp_path / "duel.toml", template="duel", rng=dice)


def test_a_round_of_the_duel(duel: Tracker) -> None:
    start = duel.status()
    assert (start.round, start.mode, [c.name for c in start.creatures]) == (
        0,
        "round",
        ["Sera", "The Masked Blade"],
    )

    turn = duel.turn_start()
    assert (turn.record.round, turn.record.turn, turn.written) == (1, "Sera", True)

    # Sera's rapier (Finesse 5, Cost 1, +1d6) at the Blade (Evasion 11): 5 d4s (R5) 4+3+2+1+4,
    # the d6 2: total 16, damage 5 (R7); her Load -1 -> 0 (R8).
    hit = duel.act("Sera", "rapier", target="The Masked Blade")
    assert hit.written and hit.record.action == "rapier"
    assert hit.record.result.dice == (4, 3, 2, 1, 4) and hit.record.result.total == 16
    assert (hit.record.hp_before, hit.record.hp_after) == (14, 9)
    assert (hit.record.load_before, hit.record.load_after) == (-1, 0)
    assert hit.encounter.find("The Masked Blade").hp == 9

    # A Team Action: Sera pays Cost 1 (Load 0 -> 1) so the Blade's next roll has Disadvantage (R11).
    team = duel.team("Sera", "The Masked Blade", "disadvantage", aspect="Finesse")
    assert team.written and team.record.load_after == 1

    duel.turn_end()
    assert duel.turn_start("The Masked Blade").record.turn == "The Masked Blade"
    # The sabre (Finesse 4) with the grant's Disadvantage: Net Advantage -1, 3 d4s (R4, R5)
    # 4+4+1 and the d6 3: total 12 against Sera's Evasion 11: 1 damage.
    riposte = duel.act("The Masked Blade", "sabre", target="Sera")
    assert riposte.record.result.plan.net_advantage == -1
    assert riposte.record.result.dice == (4, 4, 1) and riposte.record.result.total == 12
    assert (riposte.record.hp_before, riposte.record.hp_after) == (14, 13)
    assert riposte.record.grants_used.disadvantage == ("team action",)

    assert duel.damage("Sera", 3).encounter.find("Sera").hp == 10
    assert duel.heal("Sera", 2).encounter.find("Sera").hp == 12


def test_refusals_and_no_ops_write_nothing(duel: Tracker) -> None:
    duel.turn_start()
    before = _files(duel.path)
    # Sera's Finesse 5 at Load -1 has headroom 6: a Cost 7 is refused by the gate (R2).
    refused = duel.act("Sera", "Finesse", cost=7)
    assert not refused.written and not refused.record.result.allowed
    assert refused.record.result.plan.gate.headroom == 6
    # Healing at max_hp changes nothing: nothing written or logged.
    same = duel.heal("Sera", 3)
    assert same.unchanged and not same.written
    # Bad input names the field and the value; nothing is written.
    with pytest.raises(InputError, match="Nobody"):
        duel.damage("Nobody", 1)
    dry = duel.act("Sera", "rapier", target="The Masked Blade", dry_run=True)
    assert dry.dry_run and not dry.written and dry.record.hp_after == 9
    assert _files(duel.path) == before


def test_undo_redo_log_and_the_players_view(duel: Tracker) -> None:
    duel.turn_start()
    duel.effect_add("Sera", "blessed", "advantage", rounds=1)
    duel.conceal("The Masked Blade")
    kinds = [entry["kind"] for entry in duel.log().entries()]
    assert kinds == ["init", "turn-start", "effect", "conceal"]
    assert [c.name for c in duel.view().creatures] == ["Sera"]  # the hidden one is not shown (R20)

    text = duel.path.read_bytes()
    undone = duel.undo()
    assert undone.entry["kind"] == "conceal"
    assert [c.name for c in duel.view().creatures] == ["Sera", "The Masked Blade"]
    redone = duel.redo()
    assert redone.entry["kind"] == "conceal" and duel.path.read_bytes() == text


def test_rolls_and_odds_need_no_file() -> None:
    pool = rolls.roll_pool(4, advantage=["torch"], dc=10, rng=ScriptedDice([4, 4, 1, 2, 3]))
    assert pool.dice == (4, 4, 1, 2, 3) and pool.total == 14 and pool.success
    check = rolls.roll_check(attribute=3, dc=15, rng=ScriptedDice([12]))
    assert check.total == 15 and check.success
    assert rolls.roll_dice("2d6+1", rng=ScriptedDice([6, 5])).total == 12
    hits = sum(sum(faces) >= 10 for faces in itertools.product(range(1, 5), repeat=4))
    assert odds.pool_odds(rolls.pool_plan(4, dc=10)).p_success == pytest.approx(hits / 4**4)
    assert odds.p_pool_success(4, 10) == pytest.approx(hits / 4**4)


def test_the_public_names_are_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    names = [*api.__all__, *rolls.__all__, *odds.__all__, *encounter.__all__]
    missing = [name for name in names if f"`{name}" not in doc]
    assert missing == []


def test_the_readme_python_example_runs_as_shown(tmp_path: Path, monkeypatch, capsys) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", readme, re.S | re.M)
    assert blocks
    monkeypatch.chdir(tmp_path)
    Tracker.init(tmp_path / "encounter.toml", template="skirmish")
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the README's own example
    assert capsys.readouterr().out == "7 -> 4 True\n"
    log = Tracker(tmp_path / "encounter.toml").history().entries
    assert (log[-1]["kind"], log[-1]["note"]) == ("damage", "falling rocks")
