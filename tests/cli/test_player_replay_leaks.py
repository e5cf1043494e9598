"""A players' replay never shows what the GM hid later (R20): ``board --players --at SEQ``, as
text and as JSON, projects the state at SEQ hiding whatever it or any later state hides. A
creature concealed after SEQ, or the real name behind an alias set after SEQ, is never on it;
and on a file that does not validate, neither stream says anything of the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from _cli import files, ok, ok_json, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NOT_READY = "d4cli: error: the table is not ready: the GM's 'd4cli status' says why\n"


def _replays(path: Path) -> dict[str, str]:
    """Every players' replay of every entry, as text and JSON, stdout and stderr together."""
    seqs = [entry["seq"] for entry in ok_json("log", file=path)["entries"]]
    out = {}
    for seq in seqs:
        for mode in ("--once", "--json"):
            answer = run("board", "--players", "--at", str(seq), mode, file=path)
            assert answer.exit_code == 0, str(answer)
            out[f"{seq} {mode}"] = answer.stdout + answer.stderr
    return out


def _fight(path: Path) -> None:
    ok("init", "--name", "Night", file=path)
    ok("add", "QdragonX", "--aspect", "Might=3", "--hp", "9", "--side", "foes", file=path)
    ok("add", "QarcherX", "--aspect", "Might=2", "--hp", "5", "--side", "foes", file=path)
    ok("add", "Aria", "--aspect", "Might=3", "--hp", "8", "--side", "party", file=path)
    ok("turn", "start", file=path)
    ok("damage", "QdragonX", "2", file=path)


def test_a_creature_concealed_later_is_never_on_an_earlier_replay(isolated_env):
    path = isolated_env / "encounter.toml"
    _fight(path)
    ok("conceal", "QdragonX", file=path)
    ok("alias", "QarcherX", "Shadow", file=path)
    before = files(path)
    replays = _replays(path)
    assert files(path) == before
    assert [where for where, text in replays.items() if "QdragonX" in text] == []
    assert [where for where, text in replays.items() if "QarcherX" in text] == []
    after_add = {where: text for where, text in replays.items() if int(where.split()[0]) >= 4}
    assert len(after_add) == 10  # entries 4 to 8, text and JSON
    assert all("Shadow" in text for text in after_add.values())  # the later alias, from its add
    assert all("Aria" in text for text in after_add.values())
    # The GM's own replay still shows everything as it stood.
    assert "QdragonX" in run("board", "--at", "2", "--once", file=path).stdout


def test_a_players_board_on_a_file_that_does_not_validate_says_only_not_ready(isolated_env):
    path = isolated_env / "encounter.toml"
    _fight(path)
    ok("conceal", "QdragonX", file=path)
    path.write_text(path.read_text("utf-8").replace("hp = 7", 'hp = "QsevenX"'), "utf-8")
    before = files(path)
    for args in (["--once"], ["--json"], ["--at", "3"], ["--at", "3", "--json"], []):
        answer = run("board", "--players", *args, file=path)
        assert (answer.exit_code, answer.stdout, answer.stderr) == (2, "", NOT_READY), args
    assert files(path) == before
    gm = run("board", "--once", file=path)
    assert gm.exit_code == 2 and "QdragonX" in gm.stderr  # the GM is told what and where


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["conceal", "alias", "damage", "heal", "turn"]), st.integers(0, 3)),
    min_size=1,
    max_size=10,
)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ACTIONS, st.booleans())
def test_no_later_secret_reaches_any_replay(isolated_env, actions, damaged):
    path = isolated_env / f"e{abs(hash((tuple(actions), damaged)))}.toml"
    names = [f"Q{index}Z{mark}X" for index, mark in enumerate(["kest", "vorn", "mald", "trib"])]
    ok("init", file=path)
    for index, name in enumerate(names):
        ok(
            "add",
            name,
            "--aspect",
            "Might=3",
            "--hp",
            "20",
            "--side",
            "foes" if index else "party",
            file=path,
        )
    secrets: set[str] = set()
    aliases = 0
    for action, who in actions:
        name = names[who]
        if action == "conceal":
            ok("conceal", name, file=path)
            secrets.add(name)
        elif action == "alias":
            aliases += 1
            ok("alias", name, f"Alias {aliases}", file=path)
            secrets.add(name)
        elif action == "turn":
            run("turn", "start", file=path)
        else:
            ok(action, name, "1", file=path)
    if damaged:
        text = path.read_text("utf-8")
        path.write_text(text.replace("hp = 20", 'hp = "QtwentyX"', 1), "utf-8")
        for seq in range(1, 6):
            answer = run("board", "--players", "--at", str(seq), "--json", file=path)
            assert (answer.exit_code, answer.stdout, answer.stderr) == (2, "", NOT_READY)
        return
    for where, text in _replays(path).items():
        leaked = sorted(secret for secret in secrets if secret in text)
        assert leaked == [], where
