"""``d4cli serve``: routes, methods, the live event stream, a damaged file, 50 streams, Ctrl-C, bad input.

The attacker's side (hosts, headers, bodies, writes, the cap) is in tests/web/.

The slow tests start a real server on a free port of 127.0.0.1 (``--port 0``).
conftest's autouse fixture points D4CLI_FILE at a temp folder and chdirs there.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _cli import fails
from _serve import FILE, SECRETS, Server, gm, hidden_skirmish, next_message, open_stream

from d4cli.cli.web_server import served_hosts


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    hidden_skirmish()
    running = Server(tmp_path)
    yield running
    running.close()


@pytest.mark.slow
def test_routes_show_the_projection_only(server: Server):
    status, headers, body = server.get("/")
    page = body.decode()
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert "Goblin 2" in page and "Round 1" in page and "Now: Aria" in page and "blessed" in page
    assert "http://" not in page and "https://" not in page  # nothing from a CDN: it works offline
    status, headers, body = server.get("/view.json")
    view = json.loads(body)
    assert status == 200 and headers["content-type"] == "application/json"
    assert [c["name"] for c in view["creatures"]] == ["Aria", "Borin", "Goblin 2"]
    assert view["creatures"][2]["hp_label"] == "Hurt" and view["creatures"][2]["hp"] is None
    assert view["readable"] is True and view["turn"] == "Aria"
    for path in ("/", "/view.json"):
        text = server.get(path)[2].decode()
        assert [secret for secret in SECRETS if secret in text] == []


@pytest.mark.slow
def test_get_and_head_only_and_unknown_paths_are_404(server: Server):
    for method in ("POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW"):
        status, headers, _ = server.get("/", method)
        if method == "HEAD":
            assert status == 200
            continue
        assert status == 405 and set(headers["allow"].split(", ")) == {"GET", "HEAD"}, method
    for path in (
        "/nope",
        "/encounter.toml",
        "/../encounter.toml",
        "/%2e%2e/encounter.toml",
        "/static/",
        "//etc/passwd",
    ):
        status, _, body = server.get(path)
        assert status == 404 and b"Aria" not in body, path
    assert server.get("/view.json?cache=1")[0] == 200


@pytest.mark.slow
def test_events_push_a_change(server: Server, tmp_path: Path):
    stream = open_stream(server)
    first = next_message(stream)
    assert first["view"]["creatures"][2]["hp_label"] == "Hurt" and "Goblin 2" in first["html"]
    gm(tmp_path, "damage", "Goblin Archer", "9")
    second = next_message(stream)  # pushed, not polled for: the next message is the change
    assert second["seq"] > first["seq"]
    assert (
        second["view"]["creatures"][2]["hp_label"] == "Down"
        and second["view"]["creatures"][2]["down"] is True
    )
    stream.close()


@pytest.mark.slow
def test_a_damaged_file_says_the_table_is_not_ready_and_the_server_lives(
    server: Server, tmp_path: Path
):
    stream = open_stream(server)
    next_message(stream)
    good = FILE.read_bytes()
    FILE.write_text(
        'schema_version = 3\nmode = "turn"\nround = 1\n[[creature]]\nname = "Goblin Brute"\nhp = "x"\n'
    )
    broken = next_message(stream)
    assert broken["readable"] is False and broken["view"] is None
    assert broken["html"] == '<p class="warning">The table is not ready yet.</p>'
    # the reason (naming a hidden creature) goes to the GM's stderr, not to the page
    assert "Goblin" not in json.dumps(broken) and "Aria" not in json.dumps(broken)
    view = json.loads(server.get("/view.json")[2])
    assert view == {"kind": "player-view", "readable": False, "seq": broken["seq"]}
    FILE.write_bytes(good)
    assert next_message(stream)["readable"] is True
    stream.close()
    code, err = server.stop()
    assert code == 130 and "Traceback" not in err
    assert "warning" in err and "Goblin Brute" in err and "the table is not ready" in err


@pytest.mark.slow
def test_fifty_streams_do_not_slow_gm_commands_nor_take_a_thread_each(
    server: Server, tmp_path: Path
):
    quiet = min(gm(tmp_path, "damage", "Borin", "1") for _ in range(2))
    idle_threads, idle_sockets = server.threads(), server.sockets()
    streams = [open_stream(server) for _ in range(50)]
    for stream in streams:
        next_message(stream)
    assert server.threads() <= idle_threads + 3  # one event loop (and a reading worker or two)
    busy = min(gm(tmp_path, "damage", "Borin", "1") for _ in range(2))
    assert busy < quiet * 2 + 0.5  # the server never takes the lock: the command does not wait
    for stream in streams:
        assert next_message(stream)["view"]["creatures"][1]["hp"] is not None
    for stream in streams:
        stream.close()
    deadline = time.monotonic() + 10
    while server.sockets() > idle_sockets and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.sockets() <= idle_sockets  # every stream's connection closed with its client
    code, err = server.stop()
    assert code == 130 and "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_with_130(server: Server):
    stream = open_stream(server)
    code, err = server.stop()
    assert code == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    stream.close()


@pytest.mark.slow
def test_a_host_other_than_loopback_says_who_can_read(tmp_path: Path):
    hidden_skirmish()
    running = Server(tmp_path, "--host", "0.0.0.0")
    running.host = "127.0.0.1"
    try:
        assert "anyone on that network can read the player view" in running.banner
        assert running.get("/view.json")[0] == 200
    finally:
        code, _ = running.stop()
        running.close()
    assert code == 130


def test_bad_ports_and_hosts_are_one_line_exit_2():
    hidden_skirmish()
    assert "--port: 70000: must be within 0..65535" in fails(2, FILE, "serve", "--port", "70000")
    assert "--port: 'eighty'" in fails(2, FILE, "serve", "--port", "eighty")
    assert "--port: -1" in fails(2, FILE, "serve", "--port", "-1")
    assert "--host: '192.0.2.1': cannot be bound" in fails(
        2, FILE, "serve", "--host", "192.0.2.1", "--port", "0"
    )
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        assert f"--port: {port}: is in use" in fails(2, FILE, "serve", "--port", str(port))
    finally:
        taken.close()


def test_bad_public_urls_and_lan_beside_another_host_are_one_line_exit_2():
    hidden_skirmish()
    assert (
        "--public-url: 'table.example.org': must be an absolute http:// or https:// URL"
        in fails(2, FILE, "serve", "--public-url", "table.example.org", "--port", "0")
    )
    assert "--lan: is --host 0.0.0.0: give one of --lan and --host" in fails(
        2, FILE, "serve", "--lan", "--host", "192.0.2.7", "--port", "0"
    )


def test_the_served_host_names():
    loopback = {"127.0.0.1", "localhost", "::1"}
    assert served_hosts("127.0.0.1", "127.0.0.1", ()) == loopback
    assert served_hosts("localhost", "::1", ["Table.LAN"]) == loopback | {"table.lan"}
    assert served_hosts("192.0.2.7", "192.0.2.7", ["[2001:db8::1]"]) == {"192.0.2.7", "2001:db8::1"}
    every = served_hosts("0.0.0.0", "0.0.0.0", ["table.lan"])
    assert loopback | {"table.lan", socket.gethostname().lower()} <= every
    assert "0.0.0.0" not in every and "::" not in served_hosts("::", "::", ())


def test_bad_stream_caps_and_allowed_hosts_are_one_line_exit_2():
    hidden_skirmish()
    assert "--max-streams: 0: must be within 1..10000" in fails(
        2, FILE, "serve", "--max-streams", "0"
    )
    assert "--max-streams: 'many'" in fails(2, FILE, "serve", "--max-streams", "many")
    assert "--allow-host" in fails(2, FILE, "serve", "--allow-host", "bad\tname", "--port", "0")
    for name in ("bad host!", "a/b", "*", "-x", "a..b", "evil.com:99999", "x" * 64 + ".lan"):
        error = fails(2, FILE, "serve", "--allow-host", name, "--port", "0")
        assert error.startswith("d4cli: error: --allow-host: ") and "without a port" in error


def test_an_allowed_name_is_a_host_name_or_an_address():
    from d4cli.web.guard import allowable_name

    assert allowable_name("Table.LAN.") == "table.lan"
    assert allowable_name("[2001:DB8::1]") == "2001:db8::1"
    assert allowable_name("192.168.1.20") == "192.168.1.20"
    assert allowable_name("gm-laptop") == "gm-laptop"
    assert [allowable_name(bad) for bad in ("-x", "x-", "a..b", "evil.com:80", "")] == [None] * 5


@pytest.mark.slow
def test_an_allowed_host_is_served_and_others_are_421(tmp_path: Path):
    hidden_skirmish()
    running = Server(tmp_path, "--allow-host", "table.lan")
    try:
        assert running.get("/view.json", headers={"Host": "table.lan:8765"})[0] == 200
        assert running.get("/view.json", headers={"Host": "other.lan"})[0] == 421
    finally:
        running.stop()
        running.close()


def test_serve_on_an_unreadable_file_is_bad_input():
    FILE.write_text("not toml [")
    assert "not valid TOML" in fails(2, FILE, "serve", "--port", "0")
