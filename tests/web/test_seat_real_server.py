"""The seats on a real ``d4cli serve`` (uvicorn): the join URLs on the GM's terminal, and ten
seats writing at once with the GM's CLI, every change journaled exactly once. Slow: each test
starts a server and processes."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path

import pytest
from _cli import ok, ok_json
from _serve import Server, gm

from d4cli.api.encounter import Tracker
from d4cli.api.seat_requests import SeatDesk
from d4cli.api.seats import Seats

pytestmark = pytest.mark.slow

SEATS = [f"Hero {n}" for n in range(10)]
PER_SEAT = 5


def _post(server: Server, path: str, body: dict) -> tuple[int, dict, dict]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    origin = f"http://{server.host}:{server.port}"
    try:
        connection.request(
            "POST",
            path,
            body=json.dumps(body),
            headers={"Origin": origin, "Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), json.loads(answer.read())
    finally:
        connection.close()


def test_serve_prints_each_seats_join_url_and_its_qr_code(tmp_path: Path):
    ok("init", "--from", "skirmish")
    aria = Seats("encounter.toml").add("Aria")
    server = Server(tmp_path, "--qr")
    try:
        assert server.process.stderr is not None
        lines = []
        while len(lines) < 3:
            lines.append(server.process.stderr.readline().decode())
        url = f"http://{server.host}:{server.port}/seat/{aria.token}"
        assert lines[0] == f"d4cli: Aria's seat: {url}\n"
        assert set(lines[1] + lines[2]) <= {"█", "▀", "▄", " ", "\n"}
        status, _, body = server.get(f"/seat/{aria.token}")
        assert status == 200 and b"/seat-assets/seat.js" in body
    finally:
        server.close()


def _seat_writes(server: Server, token: str, name: str, answers: list) -> None:
    """One seat sends PER_SEAT acts, at its pace: a 429, or a 503 while the GM's command holds
    the table (a busy machine makes the wait longer, not the answer wrong), waits its
    Retry-After and sends again, as the seat's page does; nothing was done then."""
    sent = 0
    while sent < PER_SEAT:
        status, headers, body = _post(
            server, f"/seat/{token}/act", {"aspect": "Might", "creature": name}
        )
        if status == 429 or (status == 503 and "holds the table" in str(body)):
            time.sleep(int(headers["retry-after"]))
            continue
        answers.append((name, status, body))
        sent += 1


@pytest.mark.parametrize("mode", ["auto", "approve"])
def test_ten_seats_and_the_gms_cli_at_once_journal_every_change_once(tmp_path: Path, mode):
    ok("init")
    for name in [*SEATS, "Ogre"]:
        ok("add", name, "--aspect", "Might=1000", "--hp", "1000")
    Tracker("encounter.toml").set_view({"seats": mode})
    seats = Seats("encounter.toml")
    tokens = {name: seats.add(name).token for name in SEATS}
    server = Server(tmp_path)
    answers: list = []
    try:
        threads = [
            threading.Thread(target=_seat_writes, args=(server, token, name, answers))
            for name, token in tokens.items()
        ]
        for thread in threads:
            thread.start()
        for n in range(PER_SEAT):
            gm(tmp_path, "act", "Ogre", "Might", "--seed", str(n))
            gm(tmp_path, "damage", "Ogre", "1")
            if mode == "approve":
                for row in SeatDesk(Tracker("encounter.toml")).pending()[:2]:
                    # Each approval raises the Load its seat's later requests saw: --yes.
                    gm(tmp_path, "approve", str(row.number), "--yes")
        for thread in threads:
            thread.join(120)
        desk = SeatDesk(Tracker("encounter.toml"))
        for row in desk.pending():  # the rest, once the seats are done
            desk.approve(row.number, confirmed=True)
        assert server.process.poll() is None
    finally:
        code, err = server.stop()
        server.close()
    assert code == 130 and "Traceback" not in err
    assert len(answers) == len(SEATS) * PER_SEAT
    assert {status for _, status, _ in answers} == {200 if mode == "auto" else 202}
    expected = "approved" if mode == "auto" else "pending"
    assert {body["request"]["status"] for _, _, body in answers} == {expected}
    entries = ok_json("log")["entries"]
    by_seat = [e for e in entries if e["kind"] == "act" and "seat" in e]
    numbers = sorted(e["request"] for e in by_seat)
    assert numbers == list(range(1, len(SEATS) * PER_SEAT + 1))  # each once
    assert len([e for e in entries if e["kind"] == "act" and "seat" not in e]) == PER_SEAT
    assert len([e for e in entries if e["kind"] == "damage"]) == PER_SEAT
    assert all(row.status == "approved" for row in SeatDesk(Tracker("encounter.toml")).all())
    status = json.loads(ok("status", "--json").stdout)
    loads = {c["name"]: c["load"] for c in status["creatures"]}
    for name in SEATS:
        mine = [e for e in by_seat if e["actor"] == name]
        assert [e["load_after"] - e["load_before"] for e in mine] == [1] * PER_SEAT
        assert all(a["load_after"] == b["load_before"] for a, b in zip(mine, mine[1:]))
        assert loads[name] == mine[-1]["load_after"]
