"""``d4cli play`` keeps the seats' requests in view: a request that comes is printed above the
prompt without Enter, the waiting ones are named in a bottom toolbar, and Tab after
``approve `` or ``deny `` completes their numbers (`d4cli.cli.play_requests`,
`d4cli.cli.completion.requests`, `d4cli.cli.play_prompt`). conftest's autouse fixture points
D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer.main
from _cli import ok

from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatAction, SeatDesk
from d4cli.cli.app import app
from d4cli.cli.completion.requests import complete_request
from d4cli.cli.play_prompt import completions, message, toolbar_of
from d4cli.cli.play_requests import RequestWatch, arrived_line, toolbar_text
from d4cli.cli.play_session import Session
from d4cli.store.seat_files import SeatRow, write_seats

ARIA = "A" * 30 + "ar"
BORIN = "B" * 30 + "bo"


def _row(number: int, creature: str, aspect: str, target: str | None = None) -> SimpleNamespace:
    act = {"aspect": aspect, "cost": None, "target": target, "extra": [], "faces": None}
    return SimpleNamespace(number=number, creature=creature, act=act)


@pytest.fixture
def seated(tmp_path: Path) -> Path:
    """Aria and Borin seated, one request from each waiting."""
    path = tmp_path / "encounter.toml"
    ok("init", "--from", "skirmish")
    write_seats(path, (SeatRow("Aria", ARIA), SeatRow("Borin", BORIN)))
    desk = SeatDesk(Tracker(path))
    desk.submit(ARIA, SeatAction("Finesse", target="Goblin Archer"))
    desk.submit(BORIN, SeatAction("Might", cost=2))
    return path


# --- the watch and its words --------------------------------------------------------------------


def test_the_watch_gives_each_request_once_and_keeps_what_it_read() -> None:
    reads = [
        [_row(1, "Aria", "Finesse")],
        [_row(1, "Aria", "Finesse"), _row(2, "Borin", "Might")],
        [_row(2, "Borin", "Might")],
    ]
    watch = RequestWatch(None, read=lambda: reads.pop(0))
    assert [row.number for row in watch.poll()] == [1]
    assert [row.number for row in watch.poll()] == [2]
    assert watch.poll() == []  # 1 was answered: gone from the rows, never new again
    assert [row.number for row in watch.rows] == [2]


def test_a_read_that_fails_keeps_the_last_rows() -> None:
    def broken() -> list[SimpleNamespace]:
        raise OSError("gone")

    watch = RequestWatch(None, read=lambda: [_row(4, "Aria", "Wits")])
    watch.poll()
    watch.read = broken
    assert watch.poll() == []
    assert [row.number for row in watch.rows] == [4]


def test_the_line_of_a_request_that_comes() -> None:
    assert arrived_line(_row(3, "Aria", "Finesse", "Goblin Archer")) == (
        "request 3 from Aria's seat: Aria: Finesse at Goblin Archer; approve 3 or deny 3"
    )
    assert arrived_line(_row(4, "Borin", "Might")) == (
        "request 4 from Borin's seat: Borin: Might; approve 4 or deny 4"
    )


def test_the_toolbar_names_the_waiting_requests_or_is_not_there() -> None:
    assert toolbar_text([]) is None
    rows = [_row(3, "Aria", "Finesse", "Goblin Archer"), _row(4, "Borin", "Might")]
    assert toolbar_text(rows) == (
        "waiting: 3 Aria: Finesse at Goblin Archer | 4 Borin: Might"
        "  (approve N, deny N; Tab completes N)"
    )
    many = [_row(n, "Aria", "Wits") for n in range(1, 7)]
    assert toolbar_text(many) == (
        "waiting: 1 Aria: Wits | 2 Aria: Wits | 3 Aria: Wits | 4 Aria: Wits | 2 more"
        "  (approve N, deny N; Tab completes N)"
    )
    watch = RequestWatch(None, read=lambda: rows)
    assert toolbar_of(watch) is None  # nothing read yet
    watch.poll()
    toolbar = toolbar_of(watch)
    assert toolbar is not None and toolbar() == toolbar_text(rows)


def test_the_prompt_counts_what_the_watch_read(seated: Path) -> None:
    session = Session(None)
    watch = RequestWatch(None)
    watch.poll()
    assert message(session, "round 1: Aria", watch) == "[round 1: Aria, 2 requests] d4cli> "
    assert session.prompt() == "[not started, 2 requests] d4cli> "


# --- Tab ----------------------------------------------------------------------------------------


def test_tab_after_approve_and_deny_completes_the_waiting_numbers(seated: Path) -> None:
    root = typer.main.get_command(app)
    assert completions(root, "approve ") == [
        ("1", "1", "Aria: Finesse at Goblin Archer"),
        ("2", "2", "Borin: Might"),
    ]
    assert [value for value, _, _ in completions(root, "deny 2")] == ["2"]
    ok("deny", "1")
    assert [value for value, _, _ in completions(root, "approve ")] == ["2"]


def test_the_completer_gives_nothing_without_a_file_or_requests(tmp_path: Path) -> None:
    ctx = SimpleNamespace(params={"file": str(tmp_path / "none.toml")}, parent=None)
    assert complete_request(ctx, "") == []
    ok("init", "--from", "skirmish")
    assert complete_request(SimpleNamespace(params={}, parent=None), "") == []


# --- live, in a terminal ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_a_request_shows_above_the_prompt_without_enter(seated: Path, tmp_path: Path) -> None:
    SeatDesk(Tracker(seated)).deny(2, None)
    name = f"d4live{os.getpid()}"
    command = (
        f"cd {tmp_path} && D4CLI_HISTORY={tmp_path / 'history'} NO_COLOR=1 "
        f"{sys.executable} -m d4cli play"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("D4CLI_")}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "30", command],
        check=True,
        env=env,
    )

    def screen() -> list[str]:
        out = subprocess.run(
            ["tmux", "capture-pane", "-t", name, "-p"], capture_output=True, text=True
        ).stdout
        return [line.rstrip() for line in out.splitlines() if line.strip()]

    def wait_for(*texts: str) -> list[str]:
        for _ in range(200):  # polls the screen; no assertion on how long it took
            lines = screen()
            if all(any(text in line for line in lines) for text in texts):
                return lines
            time.sleep(0.1)
        raise AssertionError(screen())

    def keys(*words: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", name, *words], check=True)

    try:
        lines = wait_for("[not started, 1 request] d4cli>", "waiting: 1 Aria")
        assert lines[-1] == (
            "waiting: 1 Aria: Finesse at Goblin Archer  (approve N, deny N; Tab completes N)"
        )
        keys("status Ar")  # half a line typed, no Enter
        wait_for("d4cli> status Ar")
        SeatDesk(Tracker(seated)).submit(BORIN, SeatAction("Wits"))
        lines = wait_for("request 3 from Borin's seat", "| 3 Borin: Wits")
        assert lines[-3:] == [
            "request 3 from Borin's seat: Borin: Wits; approve 3 or deny 3",
            "[not started, 2 requests] d4cli> status Ar",  # the line typed is still there
            "waiting: 1 Aria: Finesse at Goblin Archer | 3 Borin: Wits"
            "  (approve N, deny N; Tab completes N)",
        ]
        keys("C-u", "approve 3", "Tab")
        wait_for("d4cli> approve 3")
        keys("Enter")
        wait_for("(request 3 from Borin's seat)", "[not started, 1 request] d4cli>")
        keys("deny ", "Tab")  # one waits: Tab completes its number
        wait_for("d4cli> deny 1")
        keys("Enter")
        lines = wait_for("[not started] d4cli>")
        assert not any(line.startswith("waiting:") for line in lines[-2:])  # no toolbar now
        keys("C-d")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    assert [row.status for row in SeatDesk(Tracker(seated)).all()] == [
        "denied",
        "denied",
        "approved",
    ]


def test_the_background_task_prints_new_requests_and_redraws_only_on_a_change(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    import prompt_toolkit.application

    from d4cli.cli.play_prompt import watch_requests

    printed: list[str] = []

    async def in_terminal(function):  # prompt_toolkit's run_in_terminal, without an app
        function()
        printed.append(capsys.readouterr().out)

    monkeypatch.setattr(prompt_toolkit.application, "run_in_terminal", in_terminal)
    reads = [
        [],
        [],
        [_row(1, "Aria", "Finesse")],
        [_row(1, "Aria", "Finesse")],
        [],
    ]
    watch = RequestWatch(None, read=lambda: reads.pop(0) if reads else [])
    redraws: list[object] = []
    prompt = SimpleNamespace(
        bottom_toolbar=None,
        app=SimpleNamespace(invalidate=lambda: redraws.append(prompt.bottom_toolbar)),
    )

    async def drive() -> None:
        task = asyncio.ensure_future(watch_requests(prompt, watch, seconds=0))
        while reads:
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        task.cancel()

    asyncio.run(drive())
    assert printed == [
        "request 1 from Aria's seat: Aria: Finesse; approve 1 or deny 1\n",
    ]
    # Two redraws: the request came (a toolbar), and it went (none); never on an idle poll.
    assert len(redraws) == 2
    assert redraws[0] is not None and redraws[1] is None
