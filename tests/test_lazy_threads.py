"""Model classes built on first use (`d4cli.rules.lazy_dataclass`) under threads making first instances at once."""

from __future__ import annotations

import sys
import threading

import pytest

from d4cli.rules.lazy_dataclass import frozen_dataclass


def _first_instances_at_once(doc: str | None) -> list[BaseException]:
    failures: list[BaseException] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(30):
            namespace: dict = {"__annotations__": {f"f{i}": "int" for i in range(12)}, "__doc__": doc}
            namespace.update({f"f{i}": 0 for i in range(12)})
            record = frozen_dataclass(type("Record", (), namespace))
            later = frozen_dataclass(type("Later", (), dict(namespace)))
            gate = threading.Barrier(6)

            def make(gate=gate, record=record, later=later):
                gate.wait()
                try:
                    assert record(f0=1).f0 == 1 and later(f1=2).f1 == 2
                except BaseException as error:  # noqa: BLE001 - collected and asserted below
                    failures.append(error)

            threads = [threading.Thread(target=make) for _ in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(interval)
    return failures


@pytest.mark.parametrize("doc", ["A record of twelve whole numbers.", None])
def test_threads_making_the_first_instances_at_once_never_fail(doc):
    """As on a Dask worker, whose threads play pieces in a fresh process ("Record() takes no
    arguments" was seen there): a plain class (a docstring, plain fields: every model class)
    swaps its stand-in ``__init__`` for the real one in one step, so the other threads wait
    for the build; any other class (here: no docstring) is built at once."""
    assert _first_instances_at_once(doc) == []
