"""Replay, pure: each entry's text rebuilt forward from the init and backward from the file, checked by hash."""

from __future__ import annotations

from d4cli.store.files import digest
from d4cli.store.journal import make_patch
from d4cli.store.patch_replay import rebuild


def h(text: str) -> str:
    return digest(text.encode("utf-8"))


TEXTS = ["a = 1\nb = 2\n", "a = 1\nb = 3\n", "a = 4\nb = 3\nc = 5\n", "a = 4\n"]


def entries(prev_only: int | None = None) -> list[dict]:
    out = [{"seq": 1, "kind": "init", "text": TEXTS[0], "after": h(TEXTS[0])}]
    for n in range(1, len(TEXTS)):
        entry = {
            "seq": n + 1,
            "kind": "act",
            "before": h(TEXTS[n - 1]),
            "after": h(TEXTS[n]),
            "patch": make_patch(TEXTS[n - 1], TEXTS[n]),
        }
        if n == prev_only:
            del entry["patch"]
            entry["prev"] = TEXTS[n - 1]
        out.append(entry)
    return out


def test_forward_from_the_init_alone():
    assert rebuild(entries(), None) == TEXTS


def test_an_entry_with_only_its_previous_text_is_bridged_from_the_file():
    assert rebuild(entries(prev_only=2), None) == [TEXTS[0], TEXTS[1], None, None]
    assert rebuild(entries(prev_only=2), TEXTS[-1]) == TEXTS


def test_a_file_edited_by_hand_is_not_taken_for_the_newest_state():
    assert rebuild(entries(prev_only=2), "a = 9\n") == [TEXTS[0], TEXTS[1], None, None]


def test_a_patch_that_does_not_fit_gives_none_not_a_wrong_text():
    broken = entries()
    broken[2]["patch"] = [[0, ["z = 0\n"], ["y = 0\n"]]]
    assert rebuild(broken, None) == [TEXTS[0], TEXTS[1], None, None]
    assert rebuild(broken, TEXTS[-1]) == TEXTS  # its after text is the next entry's before
