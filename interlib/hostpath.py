"""The host data path: a kernel TCP socket vs RDMA, as a latency and CPU-cost budget.

Chapter 5 uses this to show *where* the time and the CPU go, not to predict a benchmark.
Every parameter is an explicit assumption in :class:`HostPathAssumptions`; most are
**illustrative** round numbers for a modern server (stated as such), and two come from
cited ranges:

* one switch hop: 100-300 ns ("NIC-to-NIC latency passing through a single switch ASIC
  usually clocks in somewhere in the 100-300 nanosecond range", WWT; facts.md 1.4);
* one adapter traversal: ~0.5-0.6 us (EDR 0.5 us, HDR 0.6 us adapter latency, Bekman's
  table citing Panda and Sur; facts.md 1.4).

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

from dataclasses import dataclass

from . import _validate as v
from .display import Table, fmt_time
from .units import GB_per_s, ns, us


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
        adapter: One NIC traversal, send or receive (cited range 0.5-0.6 us).
        switch_hop: One switch ASIC (cited range 100-300 ns).
    """

    syscall: float = 0.5 * us
    interrupt: float = 3.0 * us
    copy_bandwidth: float = 10.0 * GB_per_s
    stack_per_segment: float = 2.0 * us
    segment_bytes: float = 65536.0
    post: float = 0.2 * us
    poll: float = 0.1 * us
    adapter: float = 0.6 * us
    switch_hop: float = 200 * ns


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
    a = assumptions or HostPathAssumptions()
    wire = S / link_rate
    net = [("sender NIC", a.adapter, False), ("wire (serialisation)", wire, False),
           ("switch hop", a.switch_hop, False), ("receiver NIC", a.adapter, False)]
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
    """Both paths side by side, stage by stage (CPU-busy stages marked)."""
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
                 "Illustrative host costs (HostPathAssumptions); adapter ~0.5-0.6 us and "
                 "switch hop 100-300 ns are cited ranges.")
