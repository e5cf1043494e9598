"""A real ``d4cli serve`` for the tests: start it on a free port, talk HTTP and event streams to it, stop it."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from _cli import ok

FILE = Path("encounter.toml")
SECRETS = ("Goblin Brute", "Goblin Archer", "cursed", "a hidden foe")
D4CLI = Path(sys.executable).parent / "d4cli"


def hidden_skirmish() -> None:
    """The skirmish with one foe hidden, one aliased, one GM-only effect and a note."""
    ok("init", "--from", "skirmish")
    ok("conceal", "Goblin Brute")
    ok("alias", "Goblin Archer", "Goblin 2")
    ok("effect", "add", "Borin", "cursed", "--dis", "--gm-only")
    ok("effect", "add", "Aria", "blessed", "--adv", "--rounds", "2")
    ok("turn", "start")
    ok("damage", "Goblin Archer", "3", "--note", "a hidden foe watches")


class Server:
    """A running ``d4cli serve --port 0`` in its own process group, and its port."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(D4CLI), "serve", "--port", "0", *args],
            cwd=folder,
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "D4CLI_FILE": str(folder / "encounter.toml")},
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        assert self.process.stderr is not None
        self.banner = ""
        while "serving" not in self.banner:
            line = self.process.stderr.readline().decode()
            assert line, "the server ended before it served"
            self.banner += line
        found = re.search(r"http://([^/]+):(\d+)/", self.banner)
        assert found is not None, self.banner
        self.host, self.port = found.group(1).strip("[]"), int(found.group(2))

    def get(
        self, path: str, method: str = "GET", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            connection.request(method, path, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def close(self) -> None:
        """Kill it if it still runs; close its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=20)

    def threads(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def sockets(self) -> int:
        """How many sockets the server holds open (the listening one included)."""
        folder = f"/proc/{self.process.pid}/fd"
        links = []
        for name in os.listdir(folder):
            try:
                links.append(os.readlink(f"{folder}/{name}"))
            except OSError:
                pass  # closed meanwhile
        return sum(link.startswith("socket:") for link in links)

    def stop(self) -> tuple[int, str]:
        os.killpg(self.process.pid, signal.SIGINT)
        _, err = self.process.communicate(timeout=20)
        return self.process.returncode, err.decode()


class Stream:
    """A raw ``GET /events`` connection, its headers read."""

    def __init__(self, server: Server) -> None:
        self.sock = socket.create_connection((server.host, server.port), timeout=10)
        host = f"{server.host}:{server.port}".encode()
        self.sock.sendall(
            b"GET /events HTTP/1.1\r\nHost: " + host + b"\r\nAccept: text/event-stream\r\n\r\n"
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            assert chunk, head
            head += chunk
        assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def next_message(self) -> dict:
        """The next ``data:`` message (keep-alive comments skipped)."""
        while True:
            while b"\n\n" in self.buffer:
                message, self.buffer = self.buffer.split(b"\n\n", 1)
                data = [line[6:] for line in message.split(b"\n") if line.startswith(b"data: ")]
                if data:
                    return json.loads(b"\n".join(data))
            chunk = self.sock.recv(65536)
            assert chunk, "the stream ended"
            self.buffer += chunk

    def close(self) -> None:
        self.sock.close()


def open_stream(server: Server) -> Stream:
    return Stream(server)


def next_message(stream: Stream) -> dict:
    return stream.next_message()


def gm(folder: Path, *args: str) -> float:
    """Run a GM command in its own process; its wall time."""
    start = time.monotonic()
    subprocess.run(
        [str(D4CLI), *args],
        cwd=folder,
        check=True,
        capture_output=True,
        env={**os.environ, "D4CLI_FILE": str(folder / "encounter.toml")},
    )
    return time.monotonic() - start
