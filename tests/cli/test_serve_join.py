"""``serve``'s join URLs: a line per seat with its URL, and with ``--qr`` a QR code of each."""

from __future__ import annotations

import pytest
import segno

from d4cli.api.seats import Seat
from d4cli.cli.serve_join import LOOPBACK_HINT, join_lines, join_url, public_origin, qr_text
from d4cli.rules.errors import InputError

ORIGIN = "http://192.168.1.20:8765"
ARIA = Seat("Aria", "A" * 32)
BORIN = Seat("Borin", "b" * 32)


def test_each_seat_has_a_line_with_its_join_url():
    text = join_lines(ORIGIN, [("Aria", ARIA), ("Borin", BORIN)], qr=False)
    assert text == (
        f"d4cli: Aria's seat: {ORIGIN}/seat/{'A' * 32}\n"
        f"d4cli: Borin's seat: {ORIGIN}/seat/{'b' * 32}\n"
    )
    assert join_url(ORIGIN, ARIA) == ORIGIN + ARIA.join_path


def test_no_seat_says_how_to_give_one_and_the_tv_page_still_has_its_code():
    none = "d4cli: no seats yet ('d4cli seat add NAME' gives a creature one)\n"
    assert join_lines(ORIGIN, [], qr=False) == none
    tv = f"{ORIGIN}/"
    assert join_lines(ORIGIN, [], qr=True) == none + qr_text(tv) + f"the TV page: {tv}\n"


def test_each_seat_has_a_code_with_its_creature_and_url_under_it_and_the_tv_page_one_more():
    text = join_lines(ORIGIN, [("Aria", ARIA), ("Borin", BORIN)], qr=True)
    aria, borin = join_url(ORIGIN, ARIA), join_url(ORIGIN, BORIN)
    assert text == (
        f"d4cli: Aria's seat: {aria}\n"
        f"d4cli: Borin's seat: {borin}\n"
        + qr_text(aria)
        + f"Aria's seat: {aria}\n"
        + qr_text(borin)
        + f"Borin's seat: {borin}\n"
        + qr_text(ORIGIN + "/")
        + f"the TV page: {ORIGIN}/\n"
    )
    assert LOOPBACK_HINT not in text


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.100.200:65535/seat/" + "A" * 32,
        "http://[2001:db8:1234:5678:9abc:def0:1234:5678]:8765/seat/" + "A" * 32,
        "https://a-long-tunnel-name-of-a-service.trycloudflare.com/seat/" + "A" * 32,
    ],
)
def test_a_code_in_half_blocks_and_its_line_fit_80_by_24(url: str):
    drawing = qr_text(url)
    rows = drawing.rstrip("\n").split("\n")
    code = segno.make(url, error="l", micro=False)
    assert set(drawing) <= {"█", "▀", "▄", " ", "\n"}
    assert {len(row) for row in rows} <= set(range(code.symbol_size(border=0)[0] + 4, 81))
    assert len(rows) + 1 <= 24  # the line under it
    assert len(rows) == (len(rows[0]) + 1) // 2  # two rows of modules a line, square


def test_codes_for_loopback_say_how_to_open_the_table_to_the_network():
    text = join_lines("http://127.0.0.1:8765", [("Aria", ARIA)], qr=True)
    assert text.endswith(LOOPBACK_HINT) and "--lan" in LOOPBACK_HINT
    assert join_lines("http://[::1]:8765", [], qr=True).endswith(LOOPBACK_HINT)
    assert LOOPBACK_HINT not in join_lines("http://127.0.0.1:8765", [("Aria", ARIA)], qr=False)


@pytest.mark.parametrize(
    ("given", "origin"),
    [
        ("https://Table.Example.org", "https://table.example.org"),
        ("https://table.example.org/", "https://table.example.org"),
        ("http://203.0.113.9:8080", "http://203.0.113.9:8080"),
        ("https://[2001:DB8::1]:8443/", "https://[2001:db8::1]:8443"),
    ],
)
def test_a_public_url_is_its_origin(given: str, origin: str):
    assert public_origin(given) == origin


@pytest.mark.parametrize(
    "given",
    [
        "table.example.org",
        "ftp://table.example.org",
        "https://",
        "https://u@table.example.org",
        "https://table.example.org/seat",
        "https://table.example.org/?q=1",
        "https://x:99999",
        "/x",
    ],
)
def test_a_public_url_that_is_not_an_absolute_http_origin_is_refused_naming_the_option(given: str):
    with pytest.raises(InputError) as refused:
        public_origin(given)
    assert str(refused.value).startswith(f"--public-url: '{given}': ")
