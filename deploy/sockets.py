"""Which TCP ports a process and its children listen on, and on which address, read from ``/proc``.

``ss -ltnp`` says the same, but only root sees every process's sockets in it; this reads what
the server's own user may read: its processes' open files (``/proc/<pid>/fd``, a socket shows
as ``socket:[inode]``) and the kernel's socket tables (``/proc/net/tcp`` and ``tcp6``, where a
listening socket has state ``0A``).  The launcher uses it to make sure that Ray listens on
loopback only; the tests use it to check nginx, the replicas and Ray alike.

>>> address_of("0100007F:1F90")
('127.0.0.1', 8080)
>>> address_of("0000000000000000FFFF00000100007F:9C40")
('::ffff:7f00:1', 40000)
>>> on_loopback("::ffff:7f00:1"), on_loopback("0.0.0.0"), on_loopback("::")
(True, False, False)
"""

from __future__ import annotations

import ipaddress
import os
import socket
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's "st" column


@dataclass(frozen=True)
class Listening:
    """One listening socket: its address, port, and the process holding it."""

    address: str
    port: int
    pid: int

    def __str__(self) -> str:
        return f"{self.address}:{self.port} ({command_name(self.pid)}, pid {self.pid})"


def address_of(field: str) -> tuple[str, int]:
    """A ``/proc/net/tcp*`` address (hex, each 32-bit word in the host's little-endian order)."""
    text, port = field.split(":")
    raw = b"".join(bytes.fromhex(text[i:i + 8])[::-1] for i in range(0, len(text), 8))
    return str(ipaddress.ip_address(raw)), int(port, 16)


def on_loopback(address: str) -> bool:
    """127.0.0.0/8, ::1, or an IPv4 loopback address written as IPv6 (``::ffff:127.0.0.1``)."""
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool((mapped or ip).is_loopback)


def children_of() -> dict[int, list[int]]:
    """Every process's children, from the parent id in ``/proc/<pid>/stat``."""
    tree: dict[int, list[int]] = {}
    for stat in PROC.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        tree.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return tree


def descendants(root: int) -> list[int]:
    """``root`` and every process started under it, parents before children."""
    tree, found = children_of(), [root]
    for pid in found:
        found.extend(tree.get(pid, []))
    return found


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets ``pid`` holds open (none if it ended, or is not ours to read)."""
    try:
        links = [os.readlink(fd) for fd in (PROC / str(pid) / "fd").iterdir()]
    except OSError:
        return set()
    return {link[8:-1] for link in links if link.startswith("socket:[")}


def listening_table() -> dict[str, tuple[str, int]]:
    """Every listening TCP socket of the machine: inode → (address, port)."""
    table = {}
    for name in ("tcp", "tcp6"):
        for line in (PROC / "net" / name).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == LISTEN:
                table[fields[9]] = address_of(fields[1])
    return table


def listening(pids: list[int]) -> list[Listening]:
    """The sockets the processes ``pids`` listen on."""
    table = listening_table()
    return [Listening(*table[inode], pid) for pid in pids for inode in socket_inodes(pid) if inode in table]


def exposed(root: int) -> list[Listening]:
    """The sockets that ``root`` or a process under it listens on beyond loopback."""
    return [s for s in listening(descendants(root)) if not on_loopback(s.address)]


def free_ports(n: int) -> list[int]:
    """``n`` distinct free ports of 127.0.0.1 (the sockets are held together, so none comes twice)."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


def command_name(pid: int) -> str:
    try:
        return (PROC / str(pid) / "comm").read_text().strip()
    except OSError:
        return "?"
