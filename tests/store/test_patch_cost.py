"""The line patch costs time linear in the file: a middle too big for difflib (the first
change of a hand-written file) is one hunk; smaller ones still get difflib's small patch.
Checked by what is handed to difflib, not by a clock; benchmarks/store_costs.py measures."""

from __future__ import annotations

import difflib

import pytest

from d4cli.store import journal


def _layouts(creatures: int) -> tuple[str, str]:
    hand = "".join(
        f'[[creature]]\n# {n}\nname = "C{n}"\nexhaustion = 0\nload = -1\n' for n in range(creatures)
    )
    ours = "".join(
        f'[[creature]]\nname = "C{n}"\nload = -1\nexhaustion = 0\nevasion = 0\n\n'
        for n in range(creatures)
    )
    return hand, ours


@pytest.fixture
def difflib_work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    work: list[int] = []
    real = difflib.SequenceMatcher

    def counted(junk, a, b, autojunk=True):  # type: ignore[no-untyped-def]
        work.append(len(a) * len(b))
        return real(junk, a, b, autojunk=autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", counted)
    return work


@pytest.mark.parametrize("creatures", [300, 1000])
def test_a_rewritten_file_is_one_hunk_and_never_goes_through_difflib(difflib_work, creatures):
    hand, ours = _layouts(creatures)
    patch = journal.make_patch(hand, ours)
    assert difflib_work == [] and len(patch) == 1
    assert journal.apply_patch(hand, patch) == ours
    assert journal.apply_patch(ours, patch, reverse=True) == hand


def test_a_small_middle_still_gets_difflibs_patch(difflib_work):
    old = "".join(f"line {n}\n" for n in range(100))
    new = old.replace("line 40\n", "line 40\nnew a\nnew b\n").replace("line 60\n", "")
    patch = journal.make_patch(old, new)
    assert difflib_work and max(difflib_work) <= journal.MAX_DIFF_WORK
    assert (
        sum(len(removed) + len(added) for _, removed, added in patch) == 3
    )  # only the lines that changed
    assert (
        journal.apply_patch(old, patch) == new
        and journal.apply_patch(new, patch, reverse=True) == old
    )
