"""What a log says about how NCCL ran (:class:`RunSetup`), read from its own lines.

With ``NCCL_DEBUG=INFO`` NCCL prints which library version ran, which transport joins each
pair of ranks (``via P2P/IPC``, ``via SHM``, ``via NET/IB/0/GDRDMA``, ``via NET/Socket/0``),
the network it chose (``Using network IB``), the NICs (``NET/IB : Using [0]mlx5_0:1/IB
...``), how many channels it built, which rings, trees and NVLS heads it connected, and the
``NCCL_*`` variables set by the environment; a pasted command line shows the ones passed
with ``-x NCCL_...=``. Each fact keeps the line it came from (host names and addresses
blanked), so a diagnosis can cite it. The formats are NCCL's own (``src/transport/*.cc``,
``src/init.cc``, ``src/graph/connect.cc`` in NVIDIA/nccl); RCCL prints the same ones.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .text import is_nccl_line, scrub

_VERSION = re.compile(r"\b(NCCL|RCCL) version\s*:?\s*(\d+\.\d+\.\d+)")
_LIB_CODE = re.compile(r"nccl-library=(\d{4,6})\b")
_VIA = re.compile(r"\bvia\s+(NET/(?:AWS Libfabric|[^/\s]+)(?:/\d+)*(?:/GDRDMA)?|P2P/direct pointer"
                  r"|P2P/\w+|SHM(?:/[\w/]+)?|NVLS|CollNet\w*)")
_NET_USING = re.compile(r"\bUsing network (\S.*?)\s*$")
_NIC_LIST = re.compile(r"\bNET/(IB|Socket|OFI|AWS Libfabric)\s*:\s*Using\s+(.*)$")
_NIC = re.compile(r"\[\d+\]([\w.-]+)")
_NO_IB = re.compile(r"\bNET/IB\s*:\s*No device found")
_CHANNELS = re.compile(r"\b(\d+) coll channels\b")
_CHANNEL_OF = re.compile(r"\bChannel \d+/(\d+)\s*:")
_GDR_RING = re.compile(r"\bGDR\s+([01])\b")
_ENV = re.compile(r"\b(NCCL_[A-Z0-9_]+) set by environment to\s+(\S+?)\.?\s*$")
_ENV_CMD = re.compile(r"(?:^|\s)(?:-x\s+|--env\s+|export\s+)?(NCCL_[A-Z0-9_]+)=(\S+)")
_COMM = re.compile(r"\bnRanks (\d+) nNodes (\d+) localRanks (\d+)")
_NRANKS = re.compile(r"\bnranks (\d+)\b")
_SPEED = re.compile(r"\bspeed=\"?(\d+)\"?")
_ALGO_LINES = (("ring", re.compile(r"Connected all rings")),
               ("tree", re.compile(r"Connected all trees|\bTrees \[0\]")),
               ("NVLS", re.compile(r"Connected NVLS|NVLS multicast support is available|"
                                   r"NVLS Head")),
               ("CollNet", re.compile(r"CollNet \w+ (?:enabled|connected)|Connected "
                                      r"[Cc]oll[Nn]et")))


@dataclass(frozen=True)
class Fact:
    """One statement of the log: its value and the line (number and text) it came from."""

    value: object
    lineno: int | None
    line: str

    def cite(self) -> str:
        """``line N: '...'`` for a diagnosis to quote (a JSON file: the key's text)."""
        text = self.line.strip()
        text = f"'{text[:160]}{'...' if len(text) > 160 else ''}'"
        return f"line {self.lineno}: {text}" if self.lineno else f"the JSON's {text}"


@dataclass(frozen=True)
class RunSetup:
    """How NCCL (or RCCL) ran, as the log states it; every field is empty when the log does
    not say (a log without ``NCCL_DEBUG=INFO`` says little).

    Attributes:
        library: ``"NCCL"`` or ``"RCCL"`` (a :class:`Fact`), or None.
        version: ``"2.21.5"`` (a :class:`Fact`), or None.
        transports: Transports joining pairs of ranks (``"NET/IB/GDRDMA"``, ``"P2P/IPC"``,
            ``"SHM"``, ``"NET/Socket"``, ...): a :class:`Fact` each, first line seen.
        network: The network NCCL chose (``"IB"``, ``"Socket"``, ``"AWS Libfabric"``).
        nics: NIC names of the ``NET/...: Using`` line.
        nic_speeds: Port speeds the log prints, Mb/s.
        gdr: GPUDirect RDMA on (True) or off (False) as a ring's ``GDR`` flag or the
            ``/GDRDMA`` of a network transport says, or None.
        channels: Collective channels NCCL built.
        algorithms: ``"ring"``, ``"tree"``, ``"NVLS"``, ``"CollNet"`` the log shows built.
        env: ``NCCL_*`` variables the log echoes (``set by environment``) or the pasted
            command line passes, name to :class:`Fact`.
        ranks, nodes, local_ranks: From NCCL's ``nRanks N nNodes M localRanks L`` line.
        warnings: NCCL's ``WARN`` lines (first few).
    """

    library: Fact | None = None
    version: Fact | None = None
    transports: dict = field(default_factory=dict)
    network: Fact | None = None
    nics: Fact | None = None
    nic_speeds: Fact | None = None
    gdr: Fact | None = None
    channels: Fact | None = None
    algorithms: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)
    ranks: Fact | None = None
    nodes: Fact | None = None
    local_ranks: Fact | None = None
    warnings: tuple = ()

    @property
    def empty(self) -> bool:
        """Whether the log said nothing about the setup."""
        return not any((self.library, self.version, self.transports, self.network,
                        self.nics, self.gdr, self.channels, self.algorithms, self.env,
                        self.ranks, self.warnings))

    def lines(self) -> list:
        """The setup in words, one fact per line, each with the log line it came from."""
        out = []
        if self.version:
            lib = self.library.value if self.library else "NCCL"
            out.append(f"{lib} {self.version.value} ({self.version.cite()})")
        if self.network:
            out.append(f"network: {self.network.value} ({self.network.cite()})")
        for name, f in self.transports.items():
            out.append(f"transport {name} ({f.cite()})")
        if self.gdr is not None:
            out.append(f"GPUDirect RDMA {'on' if self.gdr.value else 'off'} "
                       f"({self.gdr.cite()})")
        if self.nics:
            out.append(f"NICs: {', '.join(self.nics.value)} ({self.nics.cite()})")
        if self.nic_speeds:
            out.append("NIC speeds: " + ", ".join(f"{s / 1000:g} Gb/s" for s in
                                                  self.nic_speeds.value)
                       + f" ({self.nic_speeds.cite()})")
        if self.channels:
            out.append(f"{self.channels.value} channels ({self.channels.cite()})")
        for name, f in self.algorithms.items():
            out.append(f"{name} built ({f.cite()})")
        if self.ranks:
            out.append(f"{self.ranks.value} ranks on {self.nodes.value} node(s), "
                       f"{self.local_ranks.value} per node ({self.ranks.cite()})")
        for name, f in self.env.items():
            out.append(f"{name}={f.value} ({f.cite()})")
        out += [f"warning: {f.cite()}" for f in self.warnings]
        return out


def _transport(via: str) -> str:
    """A transport's name without its device index: ``NET/IB/0/GDRDMA`` -> ``NET/IB/GDRDMA``."""
    parts = [p for p in via.split("/") if not p.isdigit()]
    return "/".join(parts).strip()


def read_setup(lines, hosts=()) -> RunSetup:
    """A :class:`RunSetup` from the log's lines.

    Args:
        lines: ``(lineno, line)`` pairs, 1-based, launcher tags already stripped
            (:func:`.text.strip_tags`).
        hosts: Host names to blank in the quoted lines (:func:`.text.hosts_in`).
    """
    s = dict(transports={}, algorithms={}, env={}, warnings=[])
    speeds = []

    def fact(value, n, line):
        return Fact(value, n, scrub(line, hosts))

    for n, line in lines:
        if "version" in line and "version" not in s:
            m = _VERSION.search(line)
            if m:
                s["library"], s["version"] = (fact(m.group(1), n, line),
                                              fact(m.group(2), n, line))
            m = _LIB_CODE.search(line) if "version" not in s else None
            if m:
                code = int(m.group(1))
                s["version"] = fact(f"{code // 10000}.{code // 100 % 100}.{code % 100}", n,
                                    line)
        nccl = "NCCL " in line and is_nccl_line(line)
        if not nccl:
            if "NCCL_" in line:
                for m in _ENV_CMD.finditer(line):
                    if m.group(1) not in s["env"]:
                        s["env"][m.group(1)] = fact(m.group(2), n, line)
            continue
        if " WARN " in line and len(s["warnings"]) < 5:
            s["warnings"].append(fact(line.split(" WARN ", 1)[1].strip(), n, line))
        if "set by environment" in line:
            m = _ENV.search(line)
            if m and m.group(1) not in s["env"]:
                s["env"][m.group(1)] = fact(m.group(2), n, line)
        if " via " in line:
            m = _VIA.search(line)
            if m:
                name = _transport(m.group(1))
                if name not in s["transports"]:
                    s["transports"][name] = fact(name, n, line)
                if name.startswith("NET/") and "gdr" not in s:
                    s["gdr"] = fact(name.endswith("GDRDMA"), n, line)
        if "use ring" in line:
            m = _GDR_RING.search(line)
            if m:
                s["gdr"] = fact(m.group(1) == "1", n, line)
        if "Using network" in line and "network" not in s:
            m = _NET_USING.search(line)
            if m:
                s["network"] = fact(m.group(1), n, line)
        if "NET/" in line and " Using " in line and "nics" not in s:
            m = _NIC_LIST.search(line)
            if m:
                names = [x.group(1) for x in _NIC.finditer(m.group(2))]
                if names:
                    s["nics"] = fact(tuple(names), n, line)
                if "network" not in s:
                    s["network"] = fact(m.group(1), n, line)
        if "channels" not in s and "hannel" in line:
            m = _CHANNELS.search(line)
            if m is None and " via " not in line:
                m = _CHANNEL_OF.search(line)
            if m:
                s["channels"] = fact(int(m.group(1)), n, line)
        if "Connected" in line or "Trees" in line or "NVLS" in line or "CollNet" in line:
            for name, rx in _ALGO_LINES:
                if name not in s["algorithms"] and rx.search(line):
                    s["algorithms"][name] = fact(True, n, line)
        if "nRanks" in line and "ranks" not in s:
            m = _COMM.search(line)
            if m:
                s["ranks"] = fact(int(m.group(1)), n, line)
                s["nodes"] = fact(int(m.group(2)), n, line)
                s["local_ranks"] = fact(int(m.group(3)), n, line)
        if "speed=" in line:
            m = _SPEED.search(line)
            if m:
                speeds.append((int(m.group(1)), n, line))
    if speeds:
        s["nic_speeds"] = fact(tuple(sorted({x for x, _, _ in speeds})), speeds[0][1],
                               speeds[0][2])
    s["warnings"] = tuple(s["warnings"])
    return RunSetup(**s)


def nranks_in(lines) -> int | None:
    """The largest rank count of NCCL's communicator lines (``(lineno, line)`` pairs, tags
    stripped): ``nranks N`` of its ``Init START``/``Init COMPLETE`` lines, or ``nRanks N`` of
    its ``comm ... nRanks N nNodes M localRanks L`` line (NCCL 2.20 and later: src/init.cc
    at v2.20.3-1), or None."""
    best = None
    for _, line in lines:
        if ("nranks " in line or "nRanks " in line) and is_nccl_line(line):
            m = _NRANKS.search(line) or _COMM.search(line)
            if m:
                best = max(best or 0, int(m.group(1)))
    return best
