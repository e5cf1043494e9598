"""A real ``d4cli serve`` against clients that hold connections with bodies: trickled a byte at
a time, or dropped halfway (a phone off the Wi-Fi). Each test starts a server: slow."""

from __future__ import annotations

import resource
import select
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from _serve import Server, hidden_skirmish

from d4cli.api.seats import Seats
from d4cli.web.guard import PER_SEAT

pytestmark = pytest.mark.slow


@contextmanager
def descriptors(soft: int) -> Iterator[None]:
    """Processes started inside have at most *soft* open files: uvicorn's connection cap is then
    ``soft - 64`` (136 for 200), low enough for one client to fill it."""
    was = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, was[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, was)


def trickle_head(server: Server, token: str, route: bytes = b"act") -> bytes:
    host = f"127.0.0.1:{server.port}".encode()
    return (
        b"POST /seat/" + token.encode() + b"/" + route + b" HTTP/1.1\r\nHost: " + host + b"\r\n"
        b"Origin: http://" + host + b"\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2000\r\n\r\n{"
    )


def answer_or_close(sock: socket.socket) -> bytes:
    """What the server sends before it closes *sock*, trickling a byte every half second meanwhile."""
    sock.settimeout(0.5)
    answer = b""
    for _ in range(60):
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            try:
                sock.sendall(b" ")
            except OSError:
                return answer
            continue
        except OSError:
            return answer
        if not chunk:
            return answer
        answer += chunk
    raise AssertionError(f"the server still holds the connection: {answer[:80]!r}")


def test_trickled_bodies_are_cut_off_and_one_seat_cannot_take_the_tvs_connections(
    tmp_path: Path,
):
    hidden_skirmish()
    token = Seats(Path("encounter.toml")).add("Aria").token
    with descriptors(200):
        running = Server(tmp_path, "--max-streams", "10")
    try:
        socks = []
        for _ in range(140):
            # One at a time, as a client that holds what it gets (a burst of connections is
            # uvicorn's to refuse before any head is read).
            sock = socket.create_connection(("127.0.0.1", running.port), timeout=10)
            sock.sendall(trickle_head(running, token, b"preview"))
            socks.append(sock)
            select.select([sock], [], [], 0.2)
        # The TV goes on reading while the bodies trickle.
        for _ in range(3):
            assert running.get("/view.json")[0] == 200
        answers = [answer_or_close(sock) for sock in socks]
        refused = [a for a in answers if a.startswith(b"HTTP/1.1 429")]
        held = [a for a in answers if not a]
        assert len(refused) >= 140 - PER_SEAT and len(refused) + len(held) == 140, answers[:8]
        assert b"the most one seat may hold" in refused[0]
        for sock in socks:
            sock.close()
        assert running.get("/view.json")[0] == 200
        code, err = running.stop()
    finally:
        running.close()
    assert code == 130 and "Traceback" not in err and "ClientDisconnect" not in err, err


def test_a_client_gone_mid_body_leaves_no_traceback_on_the_gms_terminal(tmp_path: Path):
    hidden_skirmish()
    token = Seats(Path("encounter.toml")).add("Aria").token
    running = Server(tmp_path)
    try:
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", running.port), timeout=10) as sock:
                sock.sendall(trickle_head(running, token))
                time.sleep(0.2)  # the head is read and the route waits for the body
        assert running.get("/view.json")[0] == 200
        code, err = running.stop()
    finally:
        running.close()
    assert code == 130
    assert "Traceback" not in err and "ClientDisconnect" not in err and "Exception" not in err, err
