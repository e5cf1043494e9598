"""`d4cli simulate --scheduler`: the same runs on a Dask cluster, the same report; bad addresses (issue: cluster extra)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from _cli import fails, ok, run

from d4cli import __version__ as VERSION
from d4cli.rules.errors import InputError
from d4cli.sim import cluster

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "d4cli"
SKIRMISH = ("simulate", "--from", "skirmish", "--runs", "60", "--seed", "5", "--json")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_readme_and_ci_install_and_test_the_same_way():
    """README's second command is what `.ci/run` does: the same extras, the same test command."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = re.findall(r"^python3 -m venv .*$", readme, flags=re.MULTILINE)
    install, test = commands[1].rsplit(" && ", 1)
    assert install in ci
    assert test == ".venv/bin/python -m pytest" and test in ci
    # The cluster tests and the odds benchmark's comparison with icepool run in CI, not skipped.
    assert "'.[test,cluster,bench]'" in install


@pytest.mark.parametrize(
    ("text", "full"),
    [
        ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("tcp://scheduler.example:8786", "tcp://scheduler.example:8786"),
        ("TLS://h-1:443", "tls://h-1:443"),
        ("[::1]:8786", "tcp://[::1]:8786"),
        ("ws://10.0.0.2:08786", "ws://10.0.0.2:8786"),
    ],
)
def test_addresses_are_read_as_dask_writes_them(text, full):
    assert cluster.check_address(text) == full


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("foo", "tcp://host:8786"),
        ("tcp://127.0.0.1", "tcp://host:8786"),
        ("127.0.0.1:", "tcp://host:8786"),
        ("http://127.0.0.1:8786", "unknown scheme 'http'"),
        ("tcp://127.0.0.1:99999", "1..65535"),
        ("tcp://127.0.0.1:0", "1..65535"),
        ("", "tcp://host:8786"),
        ("tcp://a b:1", "tcp://host:8786"),
    ],
)
def test_a_malformed_address_is_one_line_exit_2(isolated_env, address, words):
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert line.startswith("d4cli: ") or "--scheduler" in line
    assert "--scheduler" in line and repr(address) in line and words in line


def test_without_the_extra_the_line_says_how_to_install_it(isolated_env, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        "127.0.0.1:8786",
    )
    assert "--scheduler" in line and "pip install 'd4cli[cluster]'" in line


def test_bad_input_is_reported_before_connecting(isolated_env):
    """A bad --runs with a good-looking address: the --runs line at once, no connection tried."""
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "0",
        "--scheduler",
        f"127.0.0.1:{_free_port()}",
    )
    assert "--runs" in line  # refused before any connection is tried


@pytest.mark.slow
def test_no_scheduler_there_is_one_line_exit_2_within_the_timeout(isolated_env, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert line == f"d4cli: error: --scheduler: {address!r}: no Dask scheduler answered within 1 s"


@pytest.mark.slow
def test_something_that_is_not_a_scheduler_does_not_hang_and_dask_stays_quiet():
    """A port that accepts and never answers (not Dask): the deadline holds; stderr is the one line."""
    pytest.importorskip("distributed")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        start = time.monotonic()
        done = subprocess.run(
            [str(SCRIPT), "simulate", "--from", "duel", "--runs", "10", "--scheduler", address],
            capture_output=True,
            timeout=60,
            check=False,
        )
        elapsed = time.monotonic() - start
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        f"d4cli: error: --scheduler: {address!r}: no Dask scheduler answered within {cluster.CONNECT_TIMEOUT:g} s"
    ]
    assert elapsed < cluster.CONNECT_TIMEOUT + 10


@pytest.fixture
def junk_peer():
    """A TCP listener that answers every connection with bytes that are not Dask's and closes it."""
    import socketserver

    class Junk(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.sendall(b"\0" * 64 + b"junk junk\r\n")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Junk)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def web_server():
    """A plain HTTP server (not Dask) on a free local port."""
    import http.server

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.slow
def test_a_peer_that_sends_junk_is_not_a_scheduler_exit_2_at_once(isolated_env, junk_peer):
    pytest.importorskip("distributed")
    address = f"127.0.0.1:{junk_peer}"
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    # a handshake failure, not a timeout: the message says which
    assert line.startswith(
        f"d4cli: error: --scheduler: {address!r}: no Dask scheduler answered "
        "(something there did not answer as a Dask scheduler: struct.error: unpack_from"
    )


@pytest.mark.slow
def test_websocket_to_a_web_server_is_not_a_scheduler_exit_2(isolated_env, web_server):
    pytest.importorskip("distributed")
    address = f"ws://127.0.0.1:{web_server}"
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert line == (
        f"d4cli: error: --scheduler: {address!r}: no Dask scheduler answered "
        "(something there did not answer as a Dask scheduler: WebSocketError: Non-websocket response)"
    )


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["tls", "wss"])
def test_tls_without_dask_tls_settings_says_so_and_tries_nothing(isolated_env, web_server, scheme):
    pytest.importorskip("distributed")
    import dask

    address = f"{scheme}://127.0.0.1:{web_server}"
    with dask.config.set(
        {
            "distributed.comm.tls.ca-file": None,
            "distributed.comm.tls.client.cert": None,
            "distributed.comm.tls.client.key": None,
        }
    ):
        line = fails(
            2,
            isolated_env / "encounter.toml",
            "simulate",
            "--from",
            "duel",
            "--runs",
            "10",
            "--scheduler",
            address,
        )
    assert line == (
        f"d4cli: error: --scheduler: {address!r}: {scheme}:// needs TLS settings in Dask's configuration "
        "(distributed.comm.tls), and none are set"
    )


@pytest.mark.slow
def test_any_failure_while_connecting_is_the_address_fault_exit_2(isolated_env, monkeypatch):
    """Whatever the connection raises (here a made-up error), it is bad input, never an internal error."""
    distributed = pytest.importorskip("distributed")

    class Strange(Exception):
        pass

    def refuse(*args, **kwargs):
        raise Strange("the peer said something odd")

    monkeypatch.setattr(distributed, "Client", refuse)
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        "127.0.0.1:8786",
    )
    assert line == (
        "d4cli: error: --scheduler: '127.0.0.1:8786': no Dask scheduler answered "
        "(something there did not answer as a Dask scheduler: Strange: the peer said something odd)"
    )


def test_the_help_names_the_option():
    text = " ".join(run("simulate", "--help", env={"COLUMNS": "300"}).stdout.split())
    assert (
        "--scheduler ADDRESS Play on an existing Dask cluster (tcp://host:8786); needs the cluster extra of d4cli."
        in text
    )


# --- On a real (local) cluster ------------------------------------------------------


@pytest.fixture(scope="module")
def scheduler():
    """A local Dask cluster of one worker process with two threads, over TCP, for this module.

    A worker process of its own, as on a real cluster: it imports d4cli afresh and
    plays two pieces at once. Shut down at the end of the module, threads and all.
    """
    distributed = pytest.importorskip("distributed")
    before = set(threading.enumerate())
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=True,
        host="127.0.0.1",
        protocol="tcp",
        dashboard_address=":0",
        silence_logs=50,
    ) as local:
        yield local.scheduler_address
    deadline = time.monotonic() + 10
    while [
        t for t in threading.enumerate() if t not in before and not t.daemon
    ] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [t.name for t in threading.enumerate() if t not in before and not t.daemon] == []


@pytest.mark.slow
def test_the_cluster_gives_the_report_of_jobs_1(scheduler):
    local = json.loads(ok(*SKIRMISH, "--jobs", "1").stdout)
    remote = json.loads(ok(*SKIRMISH, "--scheduler", scheduler).stdout)
    assert remote == local
    assert [m["runs"] for m in remote["modes"]] == [60, 60, 60]
    # --jobs cuts the runs into other pieces (about four per job): still the same report.
    many = json.loads(
        ok(*SKIRMISH, "--scheduler", scheduler.removeprefix("tcp://"), "--jobs", "5").stdout
    )
    assert many == local


@pytest.mark.slow
def test_the_cluster_gives_each_engines_report_of_jobs_1(scheduler):
    # The batch engine over three blocks of runs, cut into three pieces on the cluster.
    args = ("simulate", "--from", "ambush", "--runs", "17000", "--seed", "3", "--modes", "turn")
    local = json.loads(ok(*args, "--jobs", "1", "--json").stdout)
    remote = json.loads(ok(*args, "--scheduler", scheduler, "--jobs", "3", "--json").stdout)
    assert remote == local and local["engine"] == {"name": "batch", "reason": None}
    reference = (
        "simulate",
        "--from",
        "duel",
        "--runs",
        "40",
        "--seed",
        "3",
        "--engine",
        "reference",
    )
    remote = json.loads(ok(*reference, "--scheduler", scheduler, "--json").stdout)
    assert remote == json.loads(ok(*reference, "--jobs", "1", "--json").stdout)
    assert remote["engine"] == {"name": "reference", "reason": None}


@pytest.mark.slow
def test_the_cluster_plays_a_sweep_as_locally(scheduler):
    args = (
        "simulate",
        "--from",
        "duel",
        "--runs",
        "30",
        "--seed",
        "2",
        "--sweep",
        "reserve=0..1",
        "--modes",
        "round",
        "--json",
    )
    assert json.loads(ok(*args, "--scheduler", scheduler).stdout) == json.loads(
        ok(*args, "--jobs", "1").stdout
    )


@pytest.mark.slow
def test_a_bad_encounter_is_reported_without_the_cluster(scheduler):
    result = run("simulate", "--from", "missing-example", "--runs", "10", "--scheduler", scheduler)
    assert result.exit_code == 2 and result.stdout == ""
    assert "missing-example" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_ctrl_c_during_a_cluster_run_exits_130_with_nothing_on_stdout(scheduler):
    from _reliability import interrupted

    code, out, err = interrupted(
        [
            "simulate",
            "--from",
            "skirmish",
            "--runs",
            "3000000",
            "--jobs",
            "100",
            "--seed",
            "1",
            "--scheduler",
            scheduler,
        ],
        3,
    )
    assert code == 130
    assert (
        out == b"" and b"Traceback" not in err and err == b"d4cli: interrupted: nothing was saved\n"
    )
    # The pieces it left are cancelled: the cluster is free again at once.
    import distributed

    with distributed.Client(scheduler, set_as_default=False, timeout=10) as client:
        deadline = time.monotonic() + 20
        while sum(len(v) for v in client.processing().values()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(client.processing().values())


@pytest.mark.slow
def test_the_workers_version_of_d4cli_must_be_this_one(scheduler, isolated_env, monkeypatch):
    """Every worker is asked for its d4cli before a piece is sent; another version is refused."""
    monkeypatch.setattr(cluster, "__version__", "0.0.1")
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        scheduler,
    )
    assert re.fullmatch(
        rf"d4cli: error: --scheduler: {re.escape(repr(scheduler))}: a worker has d4cli {re.escape(VERSION)} "
        r"\(tcp://127\.0\.0\.1:\d+\), this is d4cli 0\.0\.1: install d4cli 0\.0\.1, the same version, on every worker",
        line,
    ), line


@pytest.fixture
def empty_scheduler():
    """A local Dask scheduler with no worker of its own, for one test."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0,
        processes=False,
        host="127.0.0.1",
        protocol="tcp",
        dashboard_address=":0",
        silence_logs=50,
    ) as local:
        yield local.scheduler_address


@pytest.mark.slow
def test_a_cluster_without_workers_is_one_line_exit_2(empty_scheduler, isolated_env, monkeypatch):
    monkeypatch.setattr(cluster, "WORKERS_WAIT", 0.5)
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--jobs",
        "2",
        "--scheduler",
        empty_scheduler,
    )
    assert line == (
        f"d4cli: error: --scheduler: {empty_scheduler!r}: the cluster has no workers: start some "
        f"(dask worker {empty_scheduler}) with d4cli {VERSION} installed"
    )


# A worker process whose Python cannot import d4cli (as on a machine without it).
WITHOUT_D4CLI = """
import sys
sys.modules["d4cli"] = None
from distributed.cli.dask_worker import main
sys.argv = ["dask-worker", sys.argv[1], "--nthreads", "1", "--no-nanny", "--no-dashboard"]
main()
"""


@pytest.fixture
def worker_without_d4cli(empty_scheduler, tmp_path):
    """The scheduler's address, once a worker that cannot import d4cli has joined it; and that worker."""
    import distributed

    process = subprocess.Popen(
        [sys.executable, "-c", WITHOUT_D4CLI, empty_scheduler],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with distributed.Client(empty_scheduler, set_as_default=False, timeout=10) as client:
            client.wait_for_workers(1, timeout=60)
        yield empty_scheduler, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.slow
def test_a_worker_that_cannot_import_d4cli_is_found_before_playing(
    worker_without_d4cli, isolated_env
):
    address, process = worker_without_d4cli
    line = fails(
        2,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert re.fullmatch(
        rf"d4cli: error: --scheduler: {re.escape(repr(address))}: a worker cannot import d4cli "
        r"\(tcp://127\.0\.0\.1:\d+: import of d4cli halted; None in sys\.modules\): "
        rf"install d4cli {re.escape(VERSION)}, the same version, on every worker",
        line,
    ), line
    assert process.poll() is None  # asked, not sent a piece: the worker is still there


@pytest.mark.slow
def test_a_cluster_that_loses_every_worker_during_the_run_ends_it_exit_1(
    worker_without_d4cli, isolated_env, monkeypatch
):
    """Past the check (skipped here), the worker ends on unpacking its first piece and the
    scheduler has none left: the watch ends the run after the grace time, one line, exit 1."""
    address, process = worker_without_d4cli
    monkeypatch.setattr(cluster, "_check_versions", lambda versions, text: None)
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2.0)
    line = fails(
        1,
        isolated_env / "encounter.toml",
        "simulate",
        "--from",
        "duel",
        "--runs",
        "10",
        "--scheduler",
        address,
    )
    assert line == (
        f"d4cli: error: --scheduler: {address!r}: the cluster failed during the run: "
        f"it has had no workers for 2 s (every worker needs d4cli {VERSION})"
    )
    assert process.wait(timeout=10) is not None  # that worker ended, as Dask ends it


def test_the_rules_never_import_dask():
    import tomllib

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    rules = [
        c
        for c in contracts
        if c["type"] == "forbidden" and "d4cli.sim.engine" in c["source_modules"]
    ]
    assert rules and {"distributed", "dask"} <= set(rules[0]["forbidden_modules"])


PROBE = """
import json, sys
from d4cli.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args", [["simulate", "--help"], ["simulate", "--from", "duel", "--runs", "5", "--jobs", "1"]]
)
def test_without_scheduler_simulate_never_imports_dask(args):
    """Start-up: Dask (a second or more to import) loads only when --scheduler is given."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert "d4cli.cli.app" in modules
    assert [
        m for m in modules if m.split(".")[0] in ("distributed", "dask") or m == "d4cli.sim.cluster"
    ] == []


def test_check_address_is_pure_and_raises_input_error():
    with pytest.raises(InputError, match="^scheduler: 'nowhere': "):
        cluster.check_address("nowhere")


class _StuckClient:
    """A stand-in for Dask's client whose pieces never finish and whose scheduler reports *answer*."""

    def __init__(self, answer):
        self.answer = answer
        self.futures: list = []

    def get_executor(self, pure):
        client = self

        class Stuck:
            def submit(self, fn, *args, **kwargs):
                client.futures.append(Future())
                return client.futures[-1]

            def shutdown(self, wait=True):
                for future in client.futures:
                    future.cancel()

        return Stuck()

    def nthreads(self, callback_timeout=None):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({}, f"it has had no workers for 0.3 s (every worker needs d4cli {VERSION})"),
        (
            {"tcp://127.0.0.1:1": 0},
            f"it has had no workers for 0.3 s (every worker needs d4cli {VERSION})",
        ),
        (OSError("gone"), "its scheduler has not answered for 0.3 s"),
    ],
)
def test_the_watch_fails_pending_pieces_once_the_cluster_is_gone(monkeypatch, answer, why):
    """run_all waits on its futures with no time limit: the executor's watch is what ends the wait."""
    from concurrent.futures import wait

    monkeypatch.setattr(cluster, "POLL", 0.05)
    executor = cluster._Watched(_StuckClient(answer), "127.0.0.1:8786", grace=0.3)
    try:
        futures = [executor.submit(print, n) for n in range(3)]
        start = time.monotonic()
        done, pending = wait(futures, timeout=10)
        assert pending == set() and time.monotonic() - start >= 0.3  # it waited out the grace
        for future in futures:
            with pytest.raises(cluster.ClusterError) as caught:
                future.result()
            assert (
                str(caught.value)
                == f"scheduler: '127.0.0.1:8786': the cluster failed during the run: {why}"
            )
    finally:
        executor.shutdown(wait=False)


def test_the_watch_lets_a_cluster_with_workers_be(monkeypatch):
    monkeypatch.setattr(cluster, "POLL", 0.05)
    client = _StuckClient({"tcp://127.0.0.1:1": 2})
    executor = cluster._Watched(client, "127.0.0.1:8786", grace=0.2)
    try:
        future = executor.submit(print, 1)
        time.sleep(0.6)
        assert not future.done()
        client.futures[0].set_result(7)
        assert future.result(timeout=5) == 7
    finally:
        executor.shutdown(wait=False)
