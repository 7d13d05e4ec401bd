"""The host data path: a kernel TCP socket vs RDMA, as a latency and CPU-cost budget.

Chapter 5 uses this to show *where* the time and the CPU go, not to predict a benchmark.
Every parameter is an explicit assumption in :class:`HostPathAssumptions`; the host
costs are **illustrative** round numbers for a modern server (stated as such), and the
network figures come from the catalogue, with their sources:

* the adapters: :data:`interlib.specs.ADAPTER_LATENCY` (EDR 0.5 us, a community figure
  from Bekman's table citing Panda and Sur; HDR 0.6 us, NVIDIA's "sub-600ns latency" for
  ConnectX-6), taken as end-to-end latency: the sending and the receiving adapter
  together. It is charged **once** per message, not per NIC;
* one switch hop: the middle of :data:`interlib.specs.SWITCH_HOP_LATENCY`'s quoted range
  ("NIC-to-NIC latency passing through a single switch ASIC usually clocks in somewhere
  in the 100-300 nanosecond range", WWT, a community figure: no NVIDIA switch datasheet
  read gives one; facts.md 1.4).

Model (one message of S bytes, one switch, no pipelining between stages):

* TCP: send syscall, copy user -> kernel (S / copy_bandwidth), protocol processing per
  segment on both ends, NIC + wire + switch + NIC, interrupt and wake-up on the receiver,
  copy kernel -> user, receive syscall. The CPU is busy in every stage except the NICs
  and the wire.
* RDMA: post a work request (write a descriptor, ring the doorbell), NIC reads the
  registered buffer by DMA, wire + switch, remote NIC writes it into memory by DMA,
  the sender polls a completion. The CPU is busy only to post and to poll; no copies, no
  kernel on the data path.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from . import _validate as v
from .display import Table, fmt_time
from .specs import ADAPTER_LATENCY, SWITCH_HOP_LATENCY
from .units import GB_per_s, us

#: The adapter generation whose end-to-end latency the budget uses (the newest published).
ADAPTER_GENERATION = "HDR"


def _adapter_default() -> float:
    return ADAPTER_LATENCY[ADAPTER_GENERATION].value


def _switch_hop_default() -> float:
    return (SWITCH_HOP_LATENCY["low"].value + SWITCH_HOP_LATENCY["high"].value) / 2


@dataclass(frozen=True)
class HostPathAssumptions:
    """Parameters of :func:`path_budget` (seconds, bytes, bytes/s).

    Attributes:
        syscall: One system call's entry and exit (illustrative).
        interrupt: Interrupt, context switch and wake-up of the receiving thread
            (illustrative).
        copy_bandwidth: One core's memcpy rate (illustrative).
        stack_per_segment: TCP/IP processing per segment per end (illustrative).
        segment_bytes: Bytes per TCP segment after offloads (illustrative: a 64 KiB
            TSO/GRO aggregate).
        post: Posting an RDMA work request and ringing the doorbell (illustrative).
        poll: Polling one completion (illustrative).
        adapters: Both adapters of the path together, sending and receiving (the
            end-to-end adapter latency, :data:`interlib.specs.ADAPTER_LATENCY`; default
            HDR).
        switch_hop: One switch ASIC (default: the middle of
            :data:`interlib.specs.SWITCH_HOP_LATENCY`'s quoted range).

    Every field must be a finite number > 0 (``segment_bytes`` >= 1).
    """

    syscall: float = 0.5 * us
    interrupt: float = 3.0 * us
    copy_bandwidth: float = 10.0 * GB_per_s
    stack_per_segment: float = 2.0 * us
    segment_bytes: float = 65536.0
    post: float = 0.2 * us
    poll: float = 0.1 * us
    adapters: float = field(default_factory=_adapter_default)
    switch_hop: float = field(default_factory=_switch_hop_default)

    def __post_init__(self):
        for f in fields(self):
            v.positive(f.name, getattr(self, f.name))
        v.number("segment_bytes", self.segment_bytes, lo=1.0)


@dataclass(frozen=True)
class Budget:
    """A path's stages.

    Attributes:
        path: ``"tcp"`` or ``"rdma"``.
        stages: (name, seconds, cpu_busy) triples in order.
        latency: Sum of stage times, s.
        cpu_time: Sum of CPU-busy stage times (both ends), s.
        size_bytes: Message size.
    """

    path: str
    stages: tuple
    latency: float
    cpu_time: float
    size_bytes: float

    def cores_to_saturate(self, link_rate: float) -> float:
        """CPU cores (both ends together) needed to keep a link of ``link_rate`` bytes/s
        busy with back-to-back messages of this size: ``cpu_time x link_rate / size``."""
        v.positive("link_rate", link_rate)
        return self.cpu_time * link_rate / self.size_bytes


def _assumptions(assumptions):
    if assumptions is None:
        return HostPathAssumptions()
    if not isinstance(assumptions, HostPathAssumptions):
        raise ValueError(f"assumptions={assumptions!r} must be a HostPathAssumptions or "
                         "None")
    return assumptions


def cited_latencies() -> str:
    """The two cited network figures the budget uses, with their sources, as a sentence.

    >>> print(cited_latencies())  # doctest: +ELLIPSIS
    adapter latency, end to end (both NICs together): EDR 500 ns (..., a community figure), HDR 600 ns (NVIDIA ...); one switch ASIC hop: 100 ns to 300 ns (..., a community figure); the budget uses HDR's 600 ns once per message and 200 ns per hop
    """
    ad = ADAPTER_LATENCY
    lo, hi = SWITCH_HOP_LATENCY["low"], SWITCH_HOP_LATENCY["high"]
    gens = ", ".join(f"{g} {fmt_time(sp.value)} ({_cited(sp)})" for g, sp in ad.items())
    return (f"adapter latency, end to end (both NICs together): {gens}; "
            f"one switch ASIC hop: {fmt_time(lo.value)} to {fmt_time(hi.value)} "
            f"({_cited(lo)}); the budget uses "
            f"{ADAPTER_GENERATION}'s {fmt_time(_adapter_default())} once per message and "
            f"{fmt_time(_switch_hop_default())} per hop")


def _cited(spec) -> str:
    """Who gives a latency Spec, in a few words: the source's short name, and "a community
    figure" for a secondary one (no vendor datasheet read)."""
    name = spec.source.title.split(",")[0].split(" (")[0]
    return name + (", a community figure" if spec.kind == "secondary" else "")


def path_budget(size_bytes: float, path: str, link_rate: float,
                assumptions: HostPathAssumptions | None = None) -> Budget:
    """Latency and CPU budget of sending one message over ``path``.

    Args:
        size_bytes: Message size, bytes (1 .. 10^12).
        path: ``"tcp"`` (kernel sockets) or ``"rdma"`` (verbs, RDMA write).
        link_rate: Link rate, bytes/s per direction (> 0).
        assumptions: Parameters (default :class:`HostPathAssumptions`).

    Returns:
        :class:`Budget`.

    >>> from interlib.units import GB_per_s
    >>> round(path_budget(4096, "rdma", 50 * GB_per_s).cpu_time * 1e6, 3)
    0.3
    """
    S = float(v.number("size_bytes", size_bytes, lo=1.0, hi=1e12))
    v.choice("path", path, ("tcp", "rdma"))
    v.positive("link_rate", link_rate)
    a = _assumptions(assumptions)
    wire = S / link_rate
    net = [("adapters, both ends (end-to-end)", a.adapters, False),
           ("wire (serialisation)", wire, False), ("switch hop", a.switch_hop, False)]
    if path == "tcp":
        segs = max(1.0, -(-S // a.segment_bytes))
        stages = [("send() system call", a.syscall, True),
                  ("copy user -> kernel", S / a.copy_bandwidth, True),
                  ("TCP/IP send processing", segs * a.stack_per_segment, True),
                  *net,
                  ("interrupt + wake-up", a.interrupt, True),
                  ("TCP/IP receive processing", segs * a.stack_per_segment, True),
                  ("copy kernel -> user", S / a.copy_bandwidth, True),
                  ("recv() system call", a.syscall, True)]
    else:
        stages = [("post work request + doorbell", a.post, True), *net,
                  ("poll completion", a.poll, True)]
    lat = sum(t for _, t, _ in stages)
    cpu = sum(t for _, t, busy in stages if busy)
    return Budget(path, tuple(stages), lat, cpu, S)


def budget_table(size_bytes: float, link_rate: float,
                 assumptions: HostPathAssumptions | None = None) -> Table:
    """Both paths side by side, stage by stage (CPU-busy stages marked); arguments as in
    :func:`path_budget`."""
    tcp = path_budget(size_bytes, "tcp", link_rate, assumptions)
    rdma = path_budget(size_bytes, "rdma", link_rate, assumptions)
    rows = []
    for name, t, busy in tcp.stages:
        rows.append(["TCP", name, fmt_time(t), "yes" if busy else "no"])
    for name, t, busy in rdma.stages:
        rows.append(["RDMA", name, fmt_time(t), "yes" if busy else "no"])
    rows.append(["TCP", "total", fmt_time(tcp.latency), f"CPU {fmt_time(tcp.cpu_time)}"])
    rows.append(["RDMA", "total", fmt_time(rdma.latency), f"CPU {fmt_time(rdma.cpu_time)}"])
    return Table(["path", "stage", "time", "CPU busy"], rows,
                 "Illustrative host costs (HostPathAssumptions); the adapters "
                 f"({ADAPTER_GENERATION}, {fmt_time(_adapter_default())} end to end) and "
                 f"the switch hop ({fmt_time(SWITCH_HOP_LATENCY['low'].value)} to "
                 f"{fmt_time(SWITCH_HOP_LATENCY['high'].value)} quoted) come from "
                 "specs.ADAPTER_LATENCY and specs.SWITCH_HOP_LATENCY.")
