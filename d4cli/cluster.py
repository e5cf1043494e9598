"""``simulate --scheduler``: play the simulator's pieces on an existing Dask cluster.

Dask's ``distributed`` is an optional extra (``pip install 'd4cli[cluster]'``),
imported here only, and only when ``--scheduler`` is given. The pieces go
through the client's concurrent-futures executor
(``distributed.Client.get_executor``), the interface the local process pool
offers, so `d4cli.simulate.run_all` plays them unchanged; every run has its own
seed, so the report is the same wherever a piece ran. Every worker needs the
same d4cli installed (the pieces name its functions, they do not carry them).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from d4cli.errors import EXIT_INTERNAL, D4Error, InputError

FIELD = "--scheduler"
# Seconds to reach the scheduler (and to close the connection) before giving up.
CONNECT_TIMEOUT = 5.0
SCHEMES = ("tcp", "tls", "ws", "wss")
INSTALL = "needs Dask's distributed, the cluster extra: pip install 'd4cli[cluster]'"
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})"
)


class ClusterError(D4Error):
    """The cluster failed during a run (a worker died, the scheduler went away): exit 1."""

    exit_code = EXIT_INTERNAL


@dataclass(frozen=True)
class Cluster:
    """A connected cluster: its executor and how many worker threads it had when reached."""

    executor: Executor
    threads: int


def check_address(text: str) -> str:
    """A scheduler address as typed -> the full address (``host:port`` -> ``tcp://host:port``).

    Accepted: ``[SCHEME://]HOST:PORT`` with SCHEME one of `SCHEMES` (default
    ``tcp``), HOST a name, an IPv4 address or a bracketed IPv6 address, PORT
    1..65535. Nothing is imported or contacted.

    Raises:
        InputError: anything else (``--scheduler``, the value).
    """
    found = _ADDRESS.fullmatch(text)
    if found is None:
        raise InputError(FIELD, text, "must be a Dask scheduler address such as tcp://host:8786 or host:8786")
    scheme = (found["scheme"] or "tcp").lower()
    if scheme not in SCHEMES:
        raise InputError(FIELD, text, f"unknown scheme {scheme!r}; one of " + ", ".join(SCHEMES))
    if not 1 <= int(found["port"]) <= 65535:
        raise InputError(FIELD, text, "the port must be 1..65535")
    return f"{scheme}://{found['host']}:{int(found['port'])}"


@contextmanager
def connect(text: str, timeout: float | None = None) -> Iterator[Cluster]:
    """Connect to the scheduler at *text* for the length of the ``with`` block.

    On leaving, pieces still queued are cancelled and the client is closed (also
    on Ctrl-C). Dask's own log lines are silenced meanwhile: a failure is one line.

    Raises:
        InputError: a malformed address; ``distributed`` not installed; no Dask
            scheduler answered within *timeout* (default `CONNECT_TIMEOUT`)
            seconds; a worker that cannot import d4cli.
        ClusterError: the cluster failed during the run.
    """
    address = check_address(text)
    try:
        import distributed  # type: ignore[import-not-found, unused-ignore]  # the optional extra
    except ImportError:
        raise InputError(FIELD, None, INSTALL) from None
    import logging

    seconds = CONNECT_TIMEOUT if timeout is None else timeout
    was_disabled = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        threads = _reach(distributed, address, text, seconds)
        client = distributed.Client(address, timeout=seconds, set_as_default=False)
        executor = _Warming(client.get_executor(pure=False))
        try:
            yield Cluster(executor, threads)
        except ImportError as error:
            raise InputError(FIELD, text, f"a worker cannot import d4cli ({error}): install it on every worker") from None
        except (OSError, distributed.CancelledError, distributed.KilledWorker) as error:
            raise ClusterError(f"{FIELD}: {text!r}: the cluster failed during the run ({type(error).__name__})") from None
        finally:
            try:
                executor.shutdown(wait=False)
                client.close(timeout=seconds)
            except Exception:  # noqa: BLE001 - closing a lost cluster must not hide why it was left
                pass
    finally:
        logging.disable(was_disabled)


class _Warming(Executor):
    """An executor whose pieces warm their worker process up first (`warmed`)."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.inner.submit(warmed, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait)


_FIRST = threading.Lock()
_warm = False


def warmed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on a worker; the first call of its process plays alone.

    A Dask worker plays pieces on several threads of a fresh process, while d4cli
    builds its model classes on first use (`d4cli.lazy_dataclass`): the first
    piece runs alone and then every class still waiting is built, so the threads
    never build one at the same time.
    """
    global _warm
    if not _warm:
        with _FIRST:
            if not _warm:
                try:
                    return fn(*args, **kwargs)
                finally:
                    from d4cli.lazy_dataclass import realize_all

                    realize_all()
                    _warm = True
    return fn(*args, **kwargs)


def _reach(distributed: Any, address: str, text: str, seconds: float) -> int:
    """Check a Dask scheduler answers at *address* within *seconds*; its worker threads.

    A client of its own, asynchronous, under one deadline: something that is not
    a Dask scheduler (a web server) would otherwise keep the handshake waiting.
    """
    import asyncio

    async def threads() -> int:
        client = distributed.Client(address, asynchronous=True, timeout=seconds, set_as_default=False)
        try:
            await asyncio.wait_for(client, seconds)
            return sum((await client.nthreads()).values())
        finally:
            await client.close()

    try:
        return asyncio.run(threads())
    except (OSError, ValueError, TypeError):  # TimeoutError is an OSError
        raise InputError(FIELD, text, f"no Dask scheduler answered within {seconds:g} s") from None
