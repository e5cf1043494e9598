"""The seats' side files while serving: a bad drafts file never stops an act (drafts are best
effort), every bad side file is named on the GM's terminal, a full disk is told to the GM once
and answered 503 in plain words, leftover temp files of every side file go with the next change,
and a long value is echoed by its first 60 characters and its length."""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest
from _cli import ok
from _seat_web import FILE, seated

from d4cli.api.encounter import side_problems
from d4cli.store import files
from d4cli.web.notices import Notices, follow_side_files
from d4cli.web.seat_routes import UNSAVED

DRAFTS = Path("encounter.toml.drafts")


@pytest.mark.parametrize("bad", ["damaged", "symlinked"])
def test_a_bad_drafts_file_stops_no_preview_nor_act_and_is_named(bad: str, tmp_path: Path):
    served = seated()
    if bad == "damaged":
        DRAFTS.write_text("{not json")
        os.chmod(DRAFTS, 0o600)
    else:
        (tmp_path / "elsewhere.json").write_text('{"version": 1, "drafts": []}')
        DRAFTS.symlink_to(tmp_path / "elsewhere.json")
    preview = served.post(f"/seat/{served.aria}/preview", {"aspect": "Finesse"})
    assert preview.status_code == 200 and preview.json()["allowed"] is True
    act = served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse"})
    assert act.status_code == 202 and act.json()["request"]["status"] == "pending"
    reason = "is not valid JSON" if bad == "damaged" else "is a symlink"
    [problem] = side_problems(FILE.resolve())
    assert str(problem).startswith(str(Path.cwd() / DRAFTS)) and reason in str(problem)
    for command in (["status"], ["requests"], ["seat", "list"], ["board", "--once"]):
        out = ok(*command)
        warning = [line for line in out.stderr.splitlines() if "d4cli: warning:" in line]
        assert len(warning) == 1 and "encounter.toml.drafts" in warning[0]
        assert reason in warning[0]
    assert "d4cli: warning:" not in ok("board", "--players", "--once").stderr


def test_serve_names_each_bad_side_file_once_with_what_it_stops():
    seated()
    said: list[str] = []
    notices = Notices(said.append)
    Path("encounter.toml.requests").write_text("[]")
    os.chmod("encounter.toml.requests", 0o600)
    DRAFTS.write_text("{")
    os.chmod(DRAFTS, 0o600)

    async def twice() -> None:
        task = asyncio.create_task(
            follow_side_files(lambda: side_problems(FILE.resolve()), notices, 0.01)
        )
        await asyncio.sleep(0.1)
        task.cancel()

    asyncio.run(twice())
    assert len(said) == 2, said  # each said once however many reads
    assert "encounter.toml.requests" in said[0] and "must hold a JSON object" in said[0]
    assert said[0].endswith("the seats' pages and requests wait until it is fixed")
    assert "encounter.toml.drafts" in said[1] and "acts go on" in said[1]


def test_a_full_disk_is_a_plain_503_and_one_line_for_the_gm(monkeypatch):
    served = seated()

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(files, "replace_file", full)
        for _ in range(3):
            answer = served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse"})
            assert answer.status_code == 503 and answer.json() == {"error": UNSAVED}
            assert answer.headers["retry-after"] == "5"
    assert len(served.warnings) == 1, served.warnings
    assert "No space left on device" in served.warnings[0]
    assert served.post(f"/seat/{served.aria}/act", {"aspect": "Finesse"}).status_code == 202


def test_leftover_temp_files_of_every_side_file_go_with_the_next_change():
    seated()
    names = [f".encounter.toml.{side}.k3x9_q1z.tmp" for side in ("requests", "seats", "drafts")]
    names += [".encounter.toml.abc123.tmp", ".encounter.toml.redo.zz9.tmp"]
    kept = [".encounter.toml.x.seats.tmp", ".other.toml.requests.abc.tmp"]
    for name in names + kept:
        Path(name).write_text("torn")
    ok("damage", "Aria", "1")
    assert not [name for name in names if Path(name).exists()]
    assert all(Path(name).exists() for name in kept)


@pytest.mark.parametrize("key", ["cost", "faces"])
def test_a_long_value_in_a_400_is_its_first_60_characters_and_its_length(key: str):
    served = seated()
    number = int("9" * 4000)
    body = {"aspect": "Finesse", key: number if key == "cost" else [number]}
    answer = served.post(f"/seat/{served.aria}/act", body)
    assert answer.status_code == 400 and answer.json()["field"] == key
    error = answer.json()["error"]
    assert "9" * 60 + "..." in error and "(4,000 characters)" in error and "9" * 61 not in error
