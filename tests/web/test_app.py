"""The web app as an attacker meets it, in process (httpx over ASGI): hosts, methods, paths,
headers on every answer, bodies, the stream cap, a file that turns invalid, hostile names."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from _cli import ok
from _serve import SECRETS, hidden_skirmish
from _web import SECURITY, Served, close_stream, events, open_stream

FILE = Path("encounter.toml")
HOSTILE = '<img src=x onerror="alert(1)">&amp;</script>'


@pytest.fixture
def served() -> Served:
    hidden_skirmish()
    return Served()


def get_all(served: Served, requests: list[tuple[str, str, dict]], host: str = "127.0.0.1"):
    async def work(client: httpx.AsyncClient) -> list[httpx.Response]:
        return [await client.request(m, p, headers=h) for m, p, h in requests]

    return served.run(work, host)


def secure(response: httpx.Response) -> bool:
    return all(response.headers.get(k) == v for k, v in SECURITY.items()) and not any(
        k.lower().startswith("access-control-") for k in response.headers
    )


def test_the_routes_answer_with_the_projection_only_and_every_security_header(served: Served):
    page, view, css, js, index = get_all(
        served,
        [
            ("GET", p, {})
            for p in ("/", "/view.json", "/assets/page.css", "/assets/page.js", "/index.html")
        ],
    )
    assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    assert "Goblin 2" in page.text and "Now: Aria" in page.text and "blessed" in page.text
    assert '<script src="/assets/page.js"></script>' in page.text
    assert "<style" not in page.text and "style=" not in page.text and "<script>" not in page.text
    assert view.json()["readable"] is True and view.json()["seq"] == 1
    assert [c["name"] for c in view.json()["creatures"]] == ["Aria", "Borin", "Goblin 2"]
    assert (
        css.headers["content-type"] == "text/css; charset=utf-8" and ".p35{width:35%}" in css.text
    )
    assert js.headers["content-type"] == "text/javascript; charset=utf-8"
    assert "innerHTML" not in js.text and "replaceChildren" in js.text
    assert index.text == page.text
    for response in (page, view, css, js):
        assert secure(response) and response.headers["cache-control"] == "no-cache"
        assert [s for s in SECRETS if s in response.text] == []


def test_the_icon_browsers_ask_for_is_an_empty_answer_not_a_404(served: Served):
    (icon,) = get_all(served, [("GET", "/favicon.ico", {})])
    assert icon.status_code == 204 and icon.content == b"" and secure(icon)


def test_a_foreign_host_is_421_on_every_route_and_the_loopback_names_pass(served: Served):
    for host in (
        "evil.example",
        "attacker.127.0.0.1.nip.io",
        "localhost.evil",
        "127.0.0.2",
        "0.0.0.0",
    ):
        for path in ("/", "/view.json", "/events", "/assets/page.js", "/nope"):
            (answer,) = get_all(served, [("GET", path, {"Host": host})])
            assert answer.status_code == 421, (host, path)
            assert answer.json() == {"error": "this server does not serve that host name"}
            assert secure(answer) and "Aria" not in answer.text
    for host in ("localhost:8765", "LOCALHOST", "127.0.0.1:1", "[::1]:8765", "localhost."):
        (answer,) = get_all(served, [("GET", "/view.json", {"Host": host})])
        assert answer.status_code == 200, host
    (no_host,) = get_all(served, [("GET", "/view.json", {"Host": ""})])
    assert no_host.status_code == 421


@pytest.mark.parametrize(
    "host",
    ["localhost:abc", "[::1]evil.example", "::1", "localhost..", "localhost:123456", "[::1"],
)
def test_a_host_that_is_no_host_and_port_is_400_json(served: Served, host: str):
    (answer,) = get_all(served, [("GET", "/view.json", {"Host": host})])
    assert answer.status_code == 400
    assert answer.json() == {"error": f"Host {host!r} is not a host name and port"}
    assert secure(answer) and "Aria" not in answer.text


def test_only_get_and_head_on_the_read_routes_and_unknown_paths_are_404_json(served: Served):
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW"):
        (answer,) = get_all(served, [(method, "/", {})])
        allow = set(answer.headers["allow"].split(", "))
        assert answer.status_code == 405 and allow == {"GET", "HEAD"}, method
        assert secure(answer) and answer.json() == {"error": "Method Not Allowed"}
    (head,) = get_all(served, [("HEAD", "/view.json", {})])
    assert head.status_code == 200 and head.content == b"" and secure(head)
    for path in (
        "/nope",
        "/encounter.toml",
        "/../encounter.toml",
        "/%2e%2e/encounter.toml",
        "/assets/../encounter.toml",
        "/assets/%2e%2e%2fencounter.toml",
        "/assets/page.py",
        "/assets/",
        "//etc/passwd",
    ):
        (answer,) = get_all(served, [("GET", path, {})])
        assert answer.status_code == 404 and answer.json() == {"error": "not found"}, path
        assert secure(answer)


def test_a_body_over_the_limit_is_413_before_it_is_read(served: Served):
    (declared,) = get_all(served, [("POST", "/", {"Content-Length": "999999"})])
    assert declared.status_code == 413 and secure(declared)
    assert declared.json() == {"error": "the body is over 4096 bytes"}
    (garbage,) = get_all(served, [("GET", "/", {"Content-Length": "-1"})])
    assert garbage.status_code == 400


def test_an_invalid_file_says_only_not_ready_and_the_reason_goes_to_the_gm(served: Served):
    good = FILE.read_bytes()
    FILE.write_text(
        'schema_version = 3\nmode = "turn"\nround = 1\n[[creature]]\nname = "Goblin Brute"\nhp = "x"\n'
    )

    async def work(client: httpx.AsyncClient):
        await served.broadcaster.check()
        task, seen = await open_stream(served.app)
        page, view = await client.get("/"), await client.get("/view.json")
        await close_stream(task, seen)
        return page, view, seen

    page, view, seen = served.run(work)
    assert "The table is not ready yet." in page.text and "<li " not in page.text
    assert view.json() == {"kind": "player-view", "readable": False, "seq": 2}
    (event,) = events(seen["body"])
    assert event["readable"] is False and event["view"] is None and "not ready" in event["html"]
    for text in (page.text, view.text, seen["body"].decode()):
        assert "Goblin" not in text and "Aria" not in text and "hp" not in text.replace("http", "")
    assert len(served.warnings) == 1 and "Goblin Brute" in served.warnings[0]
    FILE.write_bytes(good)
    asyncio.run(served.broadcaster.check())
    assert served.broadcaster.current.seq == 3 and served.broadcaster.current.view is not None


def test_hostile_names_are_escaped_in_page_json_and_stream(tmp_path: Path):
    ok("init", "--from", "skirmish")
    ok("alias", "Aria", HOSTILE)
    ok("effect", "add", "Borin", HOSTILE, "--adv")
    served = Served()

    async def work(client: httpx.AsyncClient):
        task, seen = await open_stream(served.app)
        page, view = await client.get("/"), await client.get("/view.json")
        await close_stream(task, seen)
        return page, view, seen

    page, view, seen = served.run(work)
    escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;&lt;/script&gt;"
    # Aria's row, the next cue (she goes first) and Borin's effect chip
    assert HOSTILE not in page.text and page.text.count(escaped) == 3
    assert (
        view.json()["creatures"][0]["name"] == HOSTILE
    )  # JSON data, served as JSON, never as HTML
    (event,) = events(seen["body"])
    assert HOSTILE not in event["html"] and event["html"].count(escaped) == 3


def test_the_stream_cap_refuses_with_503_json_and_takes_streams_again_once_they_go():
    hidden_skirmish()
    served = Served(max_streams=3)

    async def work(client: httpx.AsyncClient):
        opened = [await open_stream(served.app) for _ in range(3)]
        refused = await client.get("/events")
        page = await client.get("/view.json")
        await close_stream(*opened[0])
        again = await open_stream(served.app)
        for stream in [*opened[1:], again]:
            await close_stream(*stream)
        return opened, refused, page, again, len(served.broadcaster.queues)

    opened, refused, page, again, left = served.run(work)
    assert [seen["status"] for _, seen in opened] == [200, 200, 200]
    assert opened[0][1]["headers"]["content-security-policy"] == SECURITY["content-security-policy"]
    assert refused.status_code == 503 and refused.headers["retry-after"] == "5" and secure(refused)
    assert refused.json() == {
        "error": "3 streams are open, the most this server takes: try again later"
    }
    assert page.status_code == 200  # the other routes still answer
    assert again[1]["status"] == 200 and len(events(again[1]["body"])) == 1
    assert left == 0


def test_one_change_is_rendered_once_and_the_same_bytes_reach_every_stream(served: Served):
    async def work(client: httpx.AsyncClient):
        streams = [await open_stream(served.app) for _ in range(20)]
        ok("damage", "Goblin Archer", "9")
        await served.broadcaster.check()
        for _ in range(50):
            await asyncio.sleep(0)
        for stream in streams:
            await close_stream(*stream)
        return [seen["body"] for _, seen in streams]

    bodies = served.run(work)
    assert len(set(bodies)) == 1
    first, second = events(bodies[0])
    assert (first["seq"], second["seq"]) == (1, 2)
    assert second["view"]["creatures"][2]["hp_label"] == "Down"
    assert served.broadcaster.current.event.decode() in bodies[0].decode()
