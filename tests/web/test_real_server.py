"""A real ``d4cli serve`` (uvicorn) under attack: huge headers, silent and slow connections, the
stream cap and its recovery, a client that never reads. Each test starts a server: slow."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from _serve import FILE, Server, hidden_skirmish

pytestmark = pytest.mark.slow


def raw(server: Server, request: bytes, timeout: float = 10) -> bytes:
    """Send *request* on a new connection; everything the server answers until it closes or goes quiet."""
    with socket.create_connection((server.host, server.port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and b"content-length" in answer.lower():
                    head, body = answer.split(b"\r\n\r\n", 1)
                    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    if len(body) >= length:
                        break
        except (ConnectionResetError, TimeoutError):
            pass
        return answer


def big_encounter(creatures: int, version: int) -> bytes:
    """An encounter of *creatures* with long names (a view of about 300 bytes each); *version* moves HP."""
    lines = ['schema_version = 3\nname = "Big"\nmode = "turn"\nround = 1\n']
    for n in range(creatures):
        name = f"Creature {n:03d} " + "x" * 60
        lines.append(
            f'[[creature]]\nname = "{name}"\nhp = {10 + version % 5}\nmax_hp = 20\nside = "party"\n'
            "load_buffer = 1\nexhaustion = 0\nload = 0\nevasion = 10\nhad_turn = false\n"
            f"[creature.aspects]\nMight = 3\n"
        )
    return "".join(lines).encode()


@pytest.fixture
def server(tmp_path: Path):
    hidden_skirmish()
    running = Server(tmp_path, "--max-streams", "5")
    yield running
    running.close()


def test_huge_headers_are_refused_and_the_server_goes_on(server: Server):
    host = f"Host: 127.0.0.1:{server.port}\r\n".encode()
    huge = b"GET / HTTP/1.1\r\n" + host + b"X-Junk: " + b"a" * 20000 + b"\r\n\r\n"
    answer = raw(server, huge)
    assert answer.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), answer[:40]
    many = (
        b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: y\r\n" % n for n in range(3000)) + b"\r\n"
    )
    answer = raw(server, many)
    assert answer.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), answer[:40]
    trickled = b"GET / HTTP/1.1\r\n" + host + b"X-Junk: " + b"a" * 2000 + b"\r\n\r\n"
    assert raw(server, trickled).startswith(b"HTTP/1.1 200")
    assert server.get("/view.json")[0] == 200


def test_a_foreign_host_and_a_forged_body_on_the_wire(server: Server):
    answer = raw(
        server, b"GET /view.json HTTP/1.1\r\nHost: rebind.example:%d\r\n\r\n" % server.port
    )
    assert answer.startswith(b"HTTP/1.1 421") and b"Aria" not in answer
    assert b"content-security-policy: default-src 'self'; frame-ancestors 'none'" in answer.lower()
    body = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n" + b"x" * 1000
    assert raw(server, body).startswith(b"HTTP/1.1 413")
    status, headers, _ = server.get("/nope", headers={"Host": "localhost"})
    assert status == 404 and headers["x-frame-options"] == "DENY"
    assert "server" not in {name.lower() for name in headers}


def test_a_request_h11_cannot_parse_is_400_json_with_the_security_headers(server: Server):
    for request in (
        b"GET /view.json HTTP/1.1\r\n\r\n",  # no Host
        b"G@T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /\r\n\r\n",
    ):
        answer = raw(server, request)
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 400"), request
        assert b"content-type: application/json" in head.lower()
        assert b"x-frame-options: deny" in head.lower() and b"Aria" not in answer
        assert json.loads(body)["error"].startswith("not a valid HTTP/1.1 request")


def test_an_absolute_form_target_is_served_by_its_path_and_its_host_is_checked(server: Server):
    def first_line(target: bytes) -> bytes:
        request = b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        return raw(server, request).split(b"\r\n", 1)[0]

    assert first_line(b"http://127.0.0.1:%d/view.json" % server.port) == b"HTTP/1.1 200 OK"
    assert first_line(b"HTTP://LOCALHOST") == b"HTTP/1.1 200 OK"
    # The target's host is the request's host: a foreign one is 421 whatever Host says.
    assert first_line(b"http://rebind.example/view.json") == b"HTTP/1.1 421 Misdirected Request"
    for target in (b"https://localhost/", b"http://user@localhost/", b"*"):
        assert first_line(target) == b"HTTP/1.1 400 Bad Request", target


def test_a_silent_connection_is_closed_within_the_idle_timeout(server: Server):
    with socket.create_connection((server.host, server.port), timeout=15) as sock:
        start = time.monotonic()
        assert sock.recv(10) == b""  # the server closed it
        waited = time.monotonic() - start
    assert 4 < waited < 10
    # a head that trickles in, a byte a second, is closed at the same deadline
    with socket.create_connection((server.host, server.port), timeout=15) as sock:
        start = time.monotonic()
        sock.settimeout(1)
        closed = False
        for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 20:
            try:
                sock.sendall(bytes([byte]))
                closed = sock.recv(10) == b""
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed = True
            if closed:
                break
        assert closed and time.monotonic() - start < 10


def stream(server: Server) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection((server.host, server.port), timeout=10)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    return sock, head


def test_the_stream_cap_refuses_with_503_and_serves_again_once_streams_go(server: Server):
    opened = [stream(server) for _ in range(5)]
    assert all(head.startswith(b"HTTP/1.1 200") for _, head in opened)
    sock, head = stream(server)
    assert head.startswith(b"HTTP/1.1 503") and b"retry-after: 5" in head.lower()
    body = head.split(b"\r\n\r\n", 1)[1] or sock.recv(4096)
    assert json.loads(body) == {
        "error": "5 streams are open, the most this server takes: try again later"
    }
    sock.close()
    assert server.get("/view.json")[0] == 200  # the page still loads
    for sock, _ in opened[:2]:
        sock.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        sock, head = stream(server)
        sock.close()
        if head.startswith(b"HTTP/1.1 200"):
            break
        time.sleep(0.2)
    assert head.startswith(b"HTTP/1.1 200")
    for sock, _ in opened[2:]:
        sock.close()


def test_a_burst_past_the_cap_is_refused_by_the_app_in_json_never_by_uvicorn(server: Server):
    # 150 streams asked for at once against a cap of 5: connections that have not sent their
    # head yet count for uvicorn too, so its own limit must leave room for the app's refusal.
    socks = []
    for _ in range(150):
        sock = socket.create_connection((server.host, server.port), timeout=10)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port)
        socks.append(sock)
    heads = []
    for sock in socks:
        head = b""
        while b"\r\n\r\n" not in head and (chunk := sock.recv(4096)):
            head += chunk
        heads.append(head)
    for sock in socks:
        sock.close()
    assert sum(head.startswith(b"HTTP/1.1 200") for head in heads) == 5
    refused = [head for head in heads if not head.startswith(b"HTTP/1.1 200")]
    assert len(refused) == 145
    for head in refused:
        assert head.startswith(b"HTTP/1.1 503"), head[:80]
        assert b"retry-after: 5" in head.lower() and b"content-security-policy" in head.lower()


def test_a_client_that_never_reads_is_dropped_and_the_others_go_on(tmp_path: Path):
    FILE.write_bytes(big_encounter(600, 0))
    running = Server(tmp_path, "--max-streams", "2")
    try:
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect((running.host, running.port))
        stuck.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % running.port)
        reader, _ = stream(running)
        reader.settimeout(0.05)
        refused, head = stream(running)
        refused.close()
        assert head.startswith(b"HTTP/1.1 503")  # both places taken
        got = b""
        for version in range(1, 31):  # 30 changes of a 330 KB event: past every buffer
            FILE.write_bytes(big_encounter(600, version))
            time.sleep(0.25)
            try:
                while chunk := reader.recv(1 << 20):
                    got += chunk
            except TimeoutError:
                pass
        # The stuck client's place is free (dropped from the broadcast), the reader still reads.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            again, head = stream(running)
            again.close()
            if head.startswith(b"HTTP/1.1 200"):
                break
            time.sleep(0.5)
        assert head.startswith(b"HTTP/1.1 200"), running.stop()
        # The reader goes on: it is sent the state that follows (one creature fewer), however
        # many of the 30 changes a busy machine let the watcher fold together.
        FILE.write_bytes(big_encounter(599, 0))
        reader.settimeout(1)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
            got.endswith(b"\n\n") and b"Creature 599" not in got.rpartition(b"\ndata: ")[2]
        ):
            try:
                got += reader.recv(1 << 20)
            except TimeoutError:
                pass
        events = got.split(b"\ndata: ")
        assert len(events) >= 3 and b"Creature 599" not in events[-1]
        assert b"Creature 598" in events[-1]
        # What it is sent stops: a part of the changes, then the end of the connection.
        stuck.settimeout(10)
        received = b""
        while chunk := stuck.recv(1 << 20):
            received += chunk
        assert len(received) < 30 * 330_000 / 2
        assert running.get("/view.json")[0] == 200
        reader.close()
        stuck.close()
        code, err = running.stop()
        assert code == 130 and "Traceback" not in err and err.count("\n") <= 2, err
    finally:
        running.close()
