"""Several seats and the GM's CLI at once: no change lost, each journaled exactly once, every
request numbered once (the encounter's lock covers submissions, approvals and CLI changes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _cli import ok, ok_json

from d4cli.api.encounter import Tracker
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import WAITING_MAX, Seats

pytestmark = pytest.mark.slow

# As many as a seat may have waiting at once (approve mode keeps them all waiting).
PER_PROCESS = WAITING_MAX

# A seat sends PER_PROCESS requests for its creature (auto: each carried out at once).
SEAT = """
import sys
from d4cli.api.encounter import Tracker
from d4cli.api.front_ends import SeatAction, SeatDesk
from d4cli.api.encounter import Tracker
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import SeatAction
path, token, creature = sys.argv[1:4]
desk = SeatDesk(Tracker(path, lock_timeout=60))
for _ in range(int(sys.argv[4])):
    desk.submit(token, SeatAction("Might", creature=creature))
"""

# The GM's CLI acts for its own creature PER_PROCESS times meanwhile.
GM = """
import os, sys
from d4cli.cli.main import main
sys.stdout = open(os.devnull, "w")
for i in range(int(sys.argv[2])):
    try:
        main(["act", "Ogre", "Might", "--file", sys.argv[1], "--seed", str(i)])
    except SystemExit as done:
        if done.code != 0:
            raise
"""


@pytest.mark.parametrize("mode", ["auto", "approve"])
def test_seats_and_the_gm_at_once_lose_nothing(tmp_path, mode):
    path = tmp_path / "encounter.toml"
    ok("init")
    for name in ("Aria", "Borin", "Ogre"):
        ok("add", name, "--aspect", "Might=1000")
    Tracker(path).set_view({"seats": mode})
    seats = Seats(path)
    tokens = {name: seats.add(name).token for name in ("Aria", "Borin")}
    env = {**os.environ, "D4CLI_LOCK_TIMEOUT": "60"}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", SEAT, str(path), token, name, str(PER_PROCESS)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, token in tokens.items()
    ]
    workers.append(
        subprocess.Popen(
            [sys.executable, "-c", GM, str(path), str(PER_PROCESS)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    answers = [worker.communicate(timeout=300) for worker in workers]  # every pipe read and closed
    for worker, (_, err) in zip(workers, answers):
        assert worker.returncode == 0, err
    desk = SeatDesk(Tracker(path))
    rows = desk.all()
    assert sorted(row.number for row in rows) == list(range(1, 2 * PER_PROCESS + 1))
    if mode == "approve":
        assert len(desk.pending()) == 2 * PER_PROCESS
        for row in desk.pending():
            # Each approval raises the seat's Load, so the next request of that seat was sent
            # on a pool that has since changed: the GM confirms, as `approve --yes` does.
            desk.approve(row.number, confirmed=True)
    assert all(row.status == "approved" for row in desk.all())
    acts = [e for e in ok_json("log")["entries"] if e["kind"] == "act"]
    assert len(acts) == 3 * PER_PROCESS
    by_seat = [e for e in acts if "seat" in e]
    assert sorted(e["request"] for e in by_seat) == list(range(1, 2 * PER_PROCESS + 1))
    assert {e["actor"] for e in by_seat} == {"Aria", "Borin"}
    # Each act saw the Load the one before it left: no lost update.
    status = json.loads(ok("status", "--json").stdout)
    loads = {c["name"]: c["load"] for c in status["creatures"]}
    for name in ("Aria", "Borin", "Ogre"):
        mine = [e for e in acts if e["actor"] == name]
        assert len(mine) == PER_PROCESS
        assert [e["load_after"] - e["load_before"] for e in mine] == [1] * PER_PROCESS
        assert loads[name] == mine[-1]["load_after"]
        assert all(a["load_after"] == b["load_before"] for a, b in zip(mine, mine[1:]))
