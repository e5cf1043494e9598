"""The write side's checks on a small write route built with the app factory: Origin (403),
Content-Type (415), the rate per key (429 with Retry-After), bad JSON (400), size (413)."""

from __future__ import annotations

import time

import httpx
import pytest
from _serve import hidden_skirmish
from _web import SECURITY, Served
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from d4cli.web.writes import RateLimit, read_write

ORIGIN = "http://127.0.0.1"
JSON = {"Origin": ORIGIN, "Content-Type": "application/json"}


@pytest.fixture
def served() -> Served:
    hidden_skirmish()
    limit = RateLimit(3)

    async def echo(request: Request) -> Response:
        body = await read_write(request, limit, request.path_params["key"])
        return JSONResponse({"got": body})

    return Served([Route("/write/{key}", echo, methods=["POST"])])


def post(served: Served, *calls: tuple[str, dict, bytes]) -> list[httpx.Response]:
    async def work(client: httpx.AsyncClient) -> list[httpx.Response]:
        return [await client.post(path, headers=h, content=body) for path, h, body in calls]

    return served.run(work)


def test_a_write_from_the_served_origin_with_json_is_taken(served: Served):
    (answer,) = post(served, ("/write/a", JSON, b'{"act": "Finesse"}'))
    assert answer.status_code == 200 and answer.json() == {"got": {"act": "Finesse"}}
    assert all(answer.headers[k] == v for k, v in SECURITY.items())
    (charset,) = post(
        served, ("/write/a", {**JSON, "Content-Type": "application/json; charset=utf-8"}, b"1")
    )
    assert charset.status_code == 200


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "null",
        "http://evil.example",
        "http://127.0.0.1.evil.example",
        "https://127.0.0.1",
        "http://127.0.0.1:8080",
        "http://localhost",
    ],
)
def test_a_forged_or_missing_origin_is_403(served: Served, origin: str | None):
    headers = {"Content-Type": "application/json"} | ({"Origin": origin} if origin else {})
    (answer,) = post(served, ("/write/a", headers, b"{}"))
    assert (
        answer.status_code == 403
        and "writes are taken from http://127.0.0.1 only" in answer.json()["error"]
    )


@pytest.mark.parametrize(
    "kind",
    [
        None,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "application/jsonp",
    ],
)
def test_a_write_that_is_not_json_is_415(served: Served, kind: str | None):
    headers = {"Origin": ORIGIN} | ({"Content-Type": kind} if kind else {})
    (answer,) = post(served, ("/write/a", headers, b"{}"))
    assert answer.status_code == 415 and "send application/json" in answer.json()["error"]


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", '"iso-8859-1"'])
def test_json_in_another_charset_is_415(served: Served, charset: str):
    headers = {"Origin": ORIGIN, "Content-Type": f"application/json; charset={charset}"}
    (answer,) = post(served, ("/write/a", headers, b"{}"))
    assert answer.status_code == 415 and "send JSON in UTF-8" in answer.json()["error"]


def test_a_body_that_is_not_json_is_400_and_one_too_big_is_413(served: Served):
    bad, binary, big = post(
        served,
        ("/write/a", JSON, b"{nope"),
        ("/write/b", JSON, b"\xff\xfe"),
        ("/write/c", JSON, b"1" * 5000),
    )
    assert bad.status_code == 400 and bad.json()["error"].startswith("the body is not JSON")
    assert binary.status_code == 400
    assert big.status_code == 413 and all(big.headers[k] == v for k, v in SECURITY.items())


def test_a_chunked_body_is_cut_off_at_the_limit(served: Served):
    sent: list[int] = []

    async def chunks():
        for _ in range(100):
            sent.append(1)
            yield b" " * 1024

    async def work(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/write/a", headers=JSON, content=chunks())

    answer = served.run(work)
    assert answer.status_code == 413 and answer.json() == {"error": "the body is too large"}


@pytest.mark.slow
def test_a_flood_of_one_key_is_429_with_retry_after_and_other_keys_go_on(served: Served):
    start = time.monotonic()
    answers = post(served, *[("/write/flood", JSON, b"{}")] * 10, ("/write/other", JSON, b"{}"))
    if time.monotonic() - start < 1.0:  # all ten inside one second (else the window moved on)
        assert [a.status_code for a in answers[:10]] == [200] * 3 + [429] * 7
    limited = answers[9]
    assert limited.status_code == 429 and limited.headers["retry-after"] == "1"
    assert limited.json() == {"error": "too many requests: at most 3 a second"}
    assert answers[10].status_code == 200
    time.sleep(1.05)
    (again,) = post(served, ("/write/flood", JSON, b"{}"))
    assert again.status_code == 200
