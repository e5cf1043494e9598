"""This machine's addresses and names, and the one a phone on its network can open.

With ``serve --lan`` (``--host 0.0.0.0``) the server listens on every address, and the join URLs
and QR codes must name one a phone at the table can reach. The machine's *name* will not do:
Debian and Ubuntu map it to loopback in ``/etc/hosts`` (``127.0.1.1 NAME``), and a phone seldom
resolves it anyway. `join_address` takes this machine's address on the interface of its default
route, the interface traffic to the rest of the network leaves by.

Everything is read into a `Machine` first (`this_machine`: the interfaces by the ``ifaddr``
library, the default route from the kernel's table, the host name and the hosts file), and the
choices are pure functions of it, so tests give them any machine they like.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import ifaddr

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
ROUTE_TABLE = Path("/proc/net/route")
HOSTS_FILE = Path("/etc/hosts")
# A documentation address (RFC 5737): connecting a UDP socket to it sends nothing.
PROBE = ("192.0.2.1", 9)
# /proc/net/route flags: the route is up (RTF_UP) and goes through a gateway (RTF_GATEWAY).
_UP_VIA_GATEWAY = 0x1 | 0x2


class Interface(NamedTuple):
    """A network interface: its name (``eth0``) and addresses (IPv4 and IPv6, no zone)."""

    name: str
    addresses: tuple[str, ...]


class Machine(NamedTuple):
    """What the choices read of this machine.

    Attributes:
        interfaces: every interface that has an address.
        default: the name of the default route's interface, or None (no default route).
        hostname: the machine's name.
        hosts: the text of its hosts file ("" when it has none).
    """

    interfaces: tuple[Interface, ...]
    default: str | None
    hostname: str
    hosts: str


def this_machine() -> Machine:
    """This machine as `Machine` holds it, read now (nothing is sent on the network)."""
    interfaces = tuple(
        Interface(adapter.nice_name, tuple(_text(ip.ip) for ip in adapter.ips))
        for adapter in ifaddr.get_adapters()
        if adapter.ips
    )
    try:
        table = ROUTE_TABLE.read_text(encoding="ascii", errors="replace")
    except OSError:
        table = ""
    default = default_interface(table)
    if default is None and not table:
        default = _probed_interface(interfaces)
    try:
        hosts = HOSTS_FILE.read_text(encoding="utf-8", errors="replace")
    except OSError:
        hosts = ""
    return Machine(interfaces, default, socket.gethostname(), hosts)


def _text(ip: str | tuple[str, int, int]) -> str:
    """An ``ifaddr`` address as text: IPv6 comes as (address, flow info, scope id)."""
    return ip if isinstance(ip, str) else ip[0]


def default_interface(route_table: str) -> str | None:
    """The interface of the default route in *route_table* (the text of Linux's
    ``/proc/net/route``: destination 0, up, through a gateway; the lowest metric wins), or None."""
    best: tuple[int, str] | None = None
    for line in route_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 7:
            continue
        name, destination, flags, metric = fields[0], fields[1], fields[3], fields[6]
        try:
            up = int(flags, 16) & _UP_VIA_GATEWAY == _UP_VIA_GATEWAY
            rank = (int(metric), name)
        except ValueError:
            continue
        if destination == "00000000" and up and (best is None or rank < best):
            best = rank
    return None if best is None else best[1]


def _probed_interface(interfaces: Iterable[Interface]) -> str | None:
    """Where there is no ``/proc/net/route`` (macOS, BSD): the interface of the address the
    system would send from. Connecting a UDP socket only picks the route and that address;
    unlike TCP it sends no packet, so nothing leaves the machine."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            source = str(probe.getsockname()[0])
    except OSError:
        return None
    return next((i.name for i in interfaces if source in i.addresses), None)


def _reachable(address: str) -> bool:
    """An address another machine can open: not loopback, unspecified, link-local or multicast."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def join_address(machine: Machine) -> str | None:
    """The address join URLs name when every address is served: an IPv4 address of the default
    route's interface that another machine can open, else one of any interface (private
    first), else such an IPv6 address the same way; None when the machine has only loopback.
    Never a name: a name may resolve to loopback (``127.0.1.1 NAME``)."""
    default = [i for i in machine.interfaces if i.name == machine.default]
    others = [i for i in machine.interfaces if i.name != machine.default]
    for version in (4, 6):
        for group in (default, others):
            found = [
                address
                for interface in group
                for address in interface.addresses
                if ipaddress.ip_address(address).version == version and _reachable(address)
            ]
            found.sort(key=lambda address: not ipaddress.ip_address(address).is_private)
            if found:
                return found[0]
    return None


def hosts_names(hosts: str) -> dict[str, set[str]]:
    """The names of a hosts file's text, by address (lower case; comments and bad lines skipped)."""
    names: dict[str, set[str]] = {}
    for line in hosts.splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) < 2:
            continue
        try:
            address = str(ipaddress.ip_address(fields[0].split("%", 1)[0]))
        except ValueError:
            continue
        names.setdefault(address, set()).update(name.lower() for name in fields[1:])
    return names


def machine_names(machine: Machine) -> frozenset[str]:
    """Every name and address a request to this machine may give as its ``Host``: the loopback
    names, every interface's address, the machine's name, and the hosts file's names of any of
    its addresses (loopback's included: ``127.0.1.1 NAME`` is this machine too). Lower case."""
    addresses = {str(ipaddress.ip_address(a)) for i in machine.interfaces for a in i.addresses}
    names = {*LOOPBACK_NAMES, *addresses, machine.hostname.lower()}
    for address, named in hosts_names(machine.hosts).items():
        if address in addresses or ipaddress.ip_address(address).is_loopback:
            names.update(named)
    return frozenset(name for name in names if name)


def is_loopback(host: str) -> bool:
    """Whether *host* (an address, or ``localhost``) names this machine's loopback alone."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
