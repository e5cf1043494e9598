"""``serve``'s join URLs: a line per seat with its URL, and with ``--qr`` a QR code of each."""

from __future__ import annotations

import segno

from d4cli.api import Seat
from d4cli.cli.serve import reachable
from d4cli.cli.serve_join import join_lines, join_url, qr_text

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


def test_no_seat_says_how_to_give_one():
    assert join_lines(ORIGIN, [], qr=True) == (
        "d4cli: no seats yet ('d4cli seat add NAME' gives a creature one)\n"
    )


def test_the_qr_code_is_a_square_of_blocks_after_its_line():
    url = join_url(ORIGIN, ARIA)
    text = join_lines(ORIGIN, [("Aria", ARIA)], qr=True)
    line, drawing = text.split("\n", 1)
    assert line == f"d4cli: Aria's seat: {url}" and drawing == qr_text(url)
    rows = drawing.rstrip("\n").split("\n")
    width = segno.make(url, error="m").symbol_size()[0]  # modules and the quiet zone
    assert {len(row) for row in rows} == {width}
    assert len(rows) == (width + 1) // 2  # two rows of modules a line
    assert set(drawing) <= {"█", "▀", "▄", " ", "\n"}


def test_every_address_served_shows_a_network_address_a_phone_can_open():
    hosts = {"localhost", "127.0.0.1", "::1", "tablebox", "192.168.1.20", "fe80::1"}
    assert reachable("tablebox", hosts) == "192.168.1.20"
    assert reachable("tablebox", {"localhost", "127.0.0.1"}) == "tablebox"
