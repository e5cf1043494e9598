"""Start-up: the player view's server, board and page load only with ``serve`` and ``board``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = r"""
import json, sys
from d4cli.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""
# Loaded by `serve` or `board` (or a file that hides something) and by nothing else. The records
# of reveal, conceal and alias (d4cli.fight.visibility) are not here: the serializers import the
# record classes they read (d4cli.output.serialize), so every change that prints JSON loads them.
# The projection itself (`d4cli.fight.players_view`) is part of the library every command loads;
# the server, the board and the page are not.
PLAYER_VIEW_MODULES = {
    "d4cli.cli.web_server",
    "d4cli.cli.board_screen",
    "d4cli.cli.commands.player_view",
    "d4cli.output.page",
    "d4cli.output.render.board_frame",
    "d4cli.output.serialize.public_view_json",
    "http.server",
    "socketserver",
    "rich.live",
}


def _loaded(tmp_path: Path, *args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [("roll", "pool", "4", "--json"), ("status", "--json"), ("damage", "Aria", "1", "--json")],
)
def test_other_commands_never_load_the_player_view(tmp_path: Path, args: tuple[str, ...]):
    _loaded(tmp_path, "init", "--from", "skirmish")
    assert _loaded(tmp_path, *args) & PLAYER_VIEW_MODULES == set()


@pytest.mark.slow
def test_board_once_loads_the_board_but_not_the_server(tmp_path: Path):
    _loaded(tmp_path, "init", "--from", "skirmish")
    loaded = _loaded(tmp_path, "board", "--players", "--once")
    assert {
        "d4cli.cli.board_screen",
        "d4cli.fight.players_view",
        "d4cli.output.render.board_frame",
    } <= loaded
    assert {"d4cli.cli.web_server", "http.server", "d4cli.output.page"} & loaded == set()
