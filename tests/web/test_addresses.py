"""The join address: this machine's address on its default route's interface, never a name that
resolves to loopback; and every address and name of the machine served. The chooser reads an
injected machine (interfaces, route table, host name, hosts file); the live test talks to
loopback only, sending the chosen address as the ``Host``."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest
from _serve import Server, hidden_skirmish

from d4cli.cli.web_server import join_origin, served_hosts
from d4cli.web.addresses import (
    Interface,
    Machine,
    default_interface,
    hosts_names,
    is_loopback,
    join_address,
    machine_names,
    this_machine,
)

ROUTES = (
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
    "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
    "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
    "wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n"
)
# Debian's and Ubuntu's default: the machine's name maps to loopback.
DEBIAN_HOSTS = (
    "127.0.0.1\tlocalhost\n127.0.1.1\ttablebox.lan tablebox\n"
    "# The following lines are desirable for IPv6 capable hosts\n"
    "::1     localhost ip6-localhost ip6-loopback\nff02::1 ip6-allnodes\n"
)
LO = Interface("lo", ("127.0.0.1", "::1"))
DOCKER = Interface("docker0", ("172.17.0.1",))
WLAN = Interface("wlan0", ("fe80::1a2b", "192.168.1.20", "2001:db8::20"))
ETH = Interface("eth0", ("10.0.0.7",))


def machine(*interfaces: Interface, default: str | None = "wlan0") -> Machine:
    return Machine((LO, *interfaces), default, "tablebox", DEBIAN_HOSTS)


def test_the_default_route_is_the_up_gateway_route_of_lowest_metric():
    assert default_interface(ROUTES) == "eth0"
    assert default_interface(ROUTES.replace("\t100\t", "\t900\t")) == "wlan0"
    down = ROUTES.replace("eth0\t00000000\t0100000A\t0003", "eth0\t00000000\t0100000A\t0002")
    assert default_interface(down) == "wlan0"
    assert default_interface(ROUTES.splitlines()[0] + "\n") is None
    assert default_interface("") is None and default_interface("junk\nx y z\n") is None


def test_the_join_address_is_the_default_interfaces_and_never_a_name_or_loopback():
    assert join_address(machine(DOCKER, WLAN, ETH)) == "192.168.1.20"
    assert join_address(machine(DOCKER, WLAN, ETH, default="eth0")) == "10.0.0.7"
    # no default route (a table's own hotspot): a private address of any interface
    assert join_address(machine(WLAN, default=None)) == "192.168.1.20"
    assert join_address(
        machine(Interface("tun0", ("100.64.0.9", "192.168.7.2")), default=None)
    ) == ("192.168.7.2")
    # IPv6 only: a global address, never a link-local one (it needs a zone a phone lacks)
    six = Interface("wlan0", ("fe80::1a2b", "2001:db8::20"))
    assert join_address(machine(six)) == "2001:db8::20"
    assert join_address(machine(Interface("wlan0", ("fe80::1a2b",)))) is None
    assert join_address(machine()) is None  # loopback alone
    assert join_origin("0.0.0.0", 8765, machine(WLAN)) == "http://192.168.1.20:8765"
    assert join_origin("::", 8765, machine(six)) == "http://[2001:db8::20]:8765"
    assert join_origin("0.0.0.0", 8765, machine()) == "http://127.0.0.1:8765"
    assert join_origin("192.168.1.20", 80, machine(WLAN)) == "http://192.168.1.20:80"


def test_every_address_and_name_of_the_machine_is_served():
    names = machine_names(machine(DOCKER, WLAN))
    assert names == {
        "localhost",
        "127.0.0.1",
        "::1",
        "172.17.0.1",
        "fe80::1a2b",
        "192.168.1.20",
        "2001:db8::20",
        "tablebox",
        "tablebox.lan",
        "ip6-localhost",
        "ip6-loopback",
    }
    assert "ip6-allnodes" not in names  # a multicast address is not this machine's
    every = served_hosts("0.0.0.0", "0.0.0.0", ["Table.Example"], machine(WLAN))
    assert {"192.168.1.20", "tablebox", "table.example"} <= every and "0.0.0.0" not in every
    public = served_hosts("127.0.0.1", "127.0.0.1", (), None, "https://table.example.org")
    assert public == {"127.0.0.1", "localhost", "::1", "table.example.org"}
    assert served_hosts("192.168.1.20", "192.168.1.20", ()) == {"192.168.1.20"}


def test_a_hosts_file_is_read_by_address_and_its_comments_skipped():
    assert hosts_names("10.0.0.1 a B # c d\n#x 1.2.3.4\nnot-an-address y\nfe80::1%eth0 z\n") == {
        "10.0.0.1": {"a", "b"},
        "fe80::1": {"z"},
    }
    assert is_loopback("127.0.1.1") and is_loopback("[::1]") and is_loopback("LOCALHOST")
    assert not is_loopback("192.168.1.20") and not is_loopback("tablebox")


@pytest.mark.slow
def test_the_printed_join_url_names_the_lan_address_and_the_server_answers_it(tmp_path: Path):
    chosen = join_address(this_machine())
    if chosen is None:
        pytest.skip("this machine has no address but loopback")
    hidden_skirmish()
    running = Server(tmp_path, "--lan")
    shown = f"[{chosen}]" if ":" in chosen else chosen
    try:
        assert f"at http://{shown}:{running.port}/ " in running.banner
        # Traffic goes to loopback alone; the request names the chosen address as a phone would.
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
        connection.request("GET", "/view.json", headers={"Host": f"{shown}:{running.port}"})
        response = connection.getresponse()
        assert response.status == 200 and b'"readable": true' in response.read()
        connection.close()
    finally:
        running.close()
