"""``simulate --scheduler``: play the simulator's pieces on an existing Dask cluster.

Dask's ``distributed`` is an optional extra (``pip install 'd4cli[cluster]'``),
imported here only, and only when ``--scheduler`` is given. The pieces go
through the client's concurrent-futures executor
(``distributed.Client.get_executor``), the interface the local process pool
offers, so `d4cli.sim.pieces.run_all` plays them unchanged; every run has its own
seed, so the report is the same wherever a piece ran. Every worker needs the
same d4cli installed (the pieces name its functions, they do not carry them).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from d4cli import __version__
from d4cli.rules.errors import D4Error, InputError, InternalError

# The field of every error about the cluster: `connect`'s address.
FIELD = "scheduler"
# Seconds to reach the scheduler (and to close the connection) before giving up.
CONNECT_TIMEOUT = 5.0
# Seconds a cluster without workers is given for one to join before it is refused.
WORKERS_WAIT = 2.0
# Seconds between two looks at the cluster's workers while pieces are pending.
POLL = 0.5
SCHEMES = ("tcp", "tls", "ws", "wss")
INSTALL = "needs Dask's distributed, the cluster extra: pip install 'd4cli[cluster]'"
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})"
)


class ClusterError(InternalError):
    """The cluster failed during a run (a worker died, the scheduler went away).

    Its message names the address as an `InputError` would: ``scheduler: 'ADDRESS': PROBLEM``.
    """

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem
        super().__init__(self.render())

    def render(self, spell: Callable[[str], str] = str) -> str:
        return f"{spell(FIELD)}: {self.text!r}: {self.problem}"


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
        InputError: anything else (``scheduler``, the value).
    """
    found = _ADDRESS.fullmatch(text)
    if found is None:
        raise InputError(
            FIELD, text, "must be a Dask scheduler address such as tcp://host:8786 or host:8786"
        )
    scheme = (found["scheme"] or "tcp").lower()
    if scheme not in SCHEMES:
        raise InputError(FIELD, text, f"unknown scheme {scheme!r}; one of " + ", ".join(SCHEMES))
    if not 1 <= int(found["port"]) <= 65535:
        raise InputError(FIELD, text, "the port must be 1..65535")
    return f"{scheme}://{found['host']}:{int(found['port'])}"


@contextmanager
def connect(text: str, timeout: float | None = None) -> Iterator[Cluster]:
    """Connect to the scheduler at *text* for the length of the ``with`` block.

    Before anything is submitted every worker is asked for its d4cli version
    (outside Dask's task queue), so a worker that lacks d4cli
    is found at once rather than ending on its first piece. While pieces are
    pending, a watch ends the run if the cluster has had no workers (or no
    answering scheduler) for *timeout* seconds. On leaving, pieces still queued
    are cancelled and the client is closed (also on Ctrl-C). Dask's own log
    lines are silenced meanwhile: a failure is one line.

    Raises:
        InputError: a malformed address; ``distributed`` not installed; no Dask
            scheduler answered within *timeout* (default `CONNECT_TIMEOUT`)
            seconds, or something that is not a Dask scheduler answered;
            ``tls://`` or ``wss://`` without Dask's TLS settings; a cluster with
            no workers (after `WORKERS_WAIT` seconds); a worker that cannot import
            d4cli or has another version of it.
        ClusterError: the cluster failed during the run (all workers lost, the
            scheduler gone, a worker killed).
    """
    address = check_address(text)
    distributed = _import_distributed()
    seconds = CONNECT_TIMEOUT if timeout is None else timeout
    was_disabled = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        _check_tls(distributed, address, text)
        threads = _reach(distributed, address, text, seconds)
        start = time.monotonic()
        try:
            client = distributed.Client(address, timeout=seconds, set_as_default=False)
        except Exception as error:  # noqa: BLE001 - whatever the peer did, the address is at fault
            raise InputError(
                FIELD, text, _no_scheduler(error, time.monotonic() - start, seconds)
            ) from None
        executor = _Watched(client, text, seconds)
        try:
            yield Cluster(executor, threads)
        except ImportError as error:
            raise InputError(
                FIELD, text, f"a worker cannot import d4cli ({error}): {_same()}"
            ) from None
        except (OSError, distributed.CancelledError, distributed.KilledWorker) as error:
            raise ClusterError(
                text, f"the cluster failed during the run ({type(error).__name__})"
            ) from None
        finally:
            try:
                executor.shutdown(wait=False)
                client.close(timeout=seconds)
            except Exception:  # noqa: BLE001 - closing a lost cluster must not hide why it was left
                pass
    finally:
        logging.disable(was_disabled)


def _import_distributed() -> Any:
    """Dask's ``distributed`` module (untyped: its calls are checked by the tests, not by mypy).

    Raises:
        InputError: the cluster extra is not installed.
    """
    try:
        # Deferred: the optional cluster extra, imported only when --scheduler is given.
        import distributed  # type: ignore[import-not-found, unused-ignore]  # absent without the extra
    except ImportError:
        raise InputError(FIELD, None, INSTALL) from None
    return distributed


class _Watched(Executor):
    """The client's executor, with a watch that fails the pending pieces once the cluster is gone.

    `d4cli.sim.pieces.run_all` waits on the futures with no time limit; while some
    are pending, a thread asks the scheduler for its workers every `POLL`
    seconds. With no worker threads (or no answer) for *grace* seconds in a row,
    every pending future fails with a `ClusterError`, so the wait ends.
    """

    def __init__(self, client: Any, text: str, grace: float) -> None:
        self.client = client
        self.inner = client.get_executor(pure=False)
        self.text = text
        self.grace = grace
        self.pending: set[Future[Any]] = set()
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.watch: threading.Thread | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        outer: Future[Any] = Future()
        with self.lock:
            self.pending.add(outer)
            if self.watch is None:
                self.watch = threading.Thread(
                    target=self._watch, name="d4cli-cluster-watch", daemon=True
                )
                self.watch.start()
        self.inner.submit(fn, *args, **kwargs).add_done_callback(
            lambda inner: self._settle(outer, inner)
        )
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.stopped.set()
        self.inner.shutdown(wait=wait)

    def failure(self, why: str) -> ClusterError:
        """The one line for a cluster that failed during the run, saying *why*."""
        return ClusterError(self.text, f"the cluster failed during the run: {why}")

    def _settle(self, outer: Future[Any], inner: Future[Any]) -> None:
        """Pass *inner*'s outcome on to *outer*, unless the watch failed it already."""
        with self.lock:
            self.pending.discard(outer)
            if outer.done():
                return
            if inner.cancelled() and self.stopped.is_set():
                outer.cancel()  # by `shutdown`: the run is being left already
                outer.set_running_or_notify_cancel()
            elif inner.cancelled():
                # Not by d4cli: the client lost its scheduler and cancelled what it had.
                outer.set_exception(self.failure("the scheduler went away"))
            elif inner.exception() is not None:
                outer.set_exception(inner.exception())
            else:
                outer.set_result(inner.result())

    def _watch(self) -> None:
        lost_since: float | None = None
        while not self.stopped.wait(POLL):
            with self.lock:
                if not self.pending:
                    lost_since = None
                    continue
            try:
                threads = sum(self.client.nthreads(callback_timeout=max(POLL, self.grace)).values())
                why = f"it has had no workers for {self.grace:g} s (every worker needs d4cli {__version__})"
            except Exception:  # noqa: BLE001 - any failure to ask is a scheduler that does not answer
                threads, why = 0, f"its scheduler has not answered for {self.grace:g} s"
            if threads:
                lost_since = None
                continue
            now = time.monotonic()
            lost_since = now if lost_since is None else lost_since
            if now - lost_since >= self.grace:
                error = self.failure(why)
                with self.lock:
                    for outer in self.pending:
                        outer.set_exception(error)
                    self.pending.clear()
                return


def _check_tls(distributed: Any, address: str, text: str) -> None:
    """``tls://`` and ``wss://`` need Dask's TLS settings; without them no connection is tried."""
    scheme = address.partition(":")[0]
    if (
        scheme in ("tls", "wss")
        and distributed.Security().get_connection_args("client")["ssl_context"] is None
    ):
        raise InputError(
            FIELD,
            text,
            f"{scheme}:// needs TLS settings in Dask's configuration "
            "(distributed.comm.tls), and none are set",
        )


def _no_scheduler(error: BaseException, elapsed: float, seconds: float) -> str:
    """Why the handshake with the address failed, in words: a timeout or a wrong peer."""
    if isinstance(error, TimeoutError) or elapsed >= seconds or str(error).startswith("Timed out"):
        return f"no Dask scheduler answered within {seconds:g} s"
    detail = " ".join(str(error).split())
    kind = type(error).__name__
    kind = kind if kind[:1].isupper() else f"{type(error).__module__}.{kind}"  # struct.error
    detail = f"{kind}: {detail}" if detail else kind
    if len(detail) > 80:
        detail = detail[:77] + "..."
    return (
        f"no Dask scheduler answered (something there did not answer as a Dask scheduler: {detail})"
    )


def _reach(distributed: Any, address: str, text: str, seconds: float) -> int:
    """Check the cluster at *address* can play d4cli's pieces; its worker threads.

    A client of its own, asynchronous, every step under a deadline of *seconds*
    (something that is not a Dask scheduler would otherwise keep the handshake
    waiting): the scheduler answers, it has workers (waiting up to
    `WORKERS_WAIT` seconds for one to join), and every worker imports this
    version of d4cli (a probe run outside the task queue: a worker
    that lacks d4cli would end on unpacking its first piece).

    Raises:
        InputError: any of these fails (``scheduler``, the address as typed).
    """

    def probe() -> str:
        # Deferred and local, so it travels by value: unpacking it on a worker needs no d4cli,
        # this import does (a worker without d4cli answers with the ImportError).
        import d4cli

        return d4cli.__version__

    async def survey() -> int:
        client = distributed.Client(
            address, asynchronous=True, timeout=seconds, set_as_default=False
        )
        try:
            start = time.monotonic()
            try:
                await asyncio.wait_for(client, seconds)
            except Exception as error:  # noqa: BLE001 - whatever the peer did, the address is at fault
                raise InputError(
                    FIELD, text, _no_scheduler(error, time.monotonic() - start, seconds)
                ) from None
            deadline = time.monotonic() + WORKERS_WAIT
            threads: int = sum((await asyncio.wait_for(client.nthreads(), seconds)).values())
            while not threads and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                threads = sum((await asyncio.wait_for(client.nthreads(), seconds)).values())
            if not threads:
                raise InputError(
                    FIELD,
                    text,
                    "the cluster has no workers: start some (dask worker "
                    f"{address}) with d4cli {__version__} installed",
                )
            try:
                versions = await asyncio.wait_for(client.run(probe, on_error="return"), seconds)
            except TimeoutError:
                raise InputError(
                    FIELD, text, f"its workers did not answer within {seconds:g} s"
                ) from None
            _check_versions(versions, text)
            return threads
        finally:
            try:
                await client.close()
            except Exception:  # noqa: BLE001 - closing must not hide why the address was left
                pass

    try:
        return asyncio.run(survey())
    except D4Error:
        raise
    except Exception as error:  # noqa: BLE001 - the scheduler failed while asked: still the address
        raise InputError(FIELD, text, _no_scheduler(error, 0.0, seconds)) from None


def _same() -> str:
    return f"install d4cli {__version__}, the same version, on every worker"


def _check_versions(versions: dict[str, Any], text: str) -> None:
    """Every worker's probe outcome is this d4cli's version.

    Raises:
        InputError: a worker that could not import d4cli, or has another version.
    """
    for worker, found in sorted(versions.items()):
        if isinstance(found, BaseException):
            problem = " ".join(str(found).split()) or type(found).__name__
            raise InputError(
                FIELD, text, f"a worker cannot import d4cli ({worker}: {problem}): {_same()}"
            )
        if found != __version__:
            raise InputError(
                FIELD,
                text,
                f"a worker has d4cli {found} ({worker}), this is d4cli {__version__}: {_same()}",
            )
