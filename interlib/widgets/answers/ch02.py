"""Answers to Chapter 2's thought questions (see :mod:`interlib.widgets.answers`)."""

from __future__ import annotations

from ... import display as D, hierarchy, pcie
from ...plots.ch02 import _ar_points
from ...units import GB, MiB, kB
from . import default, ratio


def _half_size(gen="5.0", lanes=16) -> float:
    return pcie.LATENCY.value * pcie.link_bandwidth(gen, lanes)


def transfer_half() -> str:
    b = pcie.link_bandwidth("5.0", 16)
    s = _half_size()
    got = float(pcie.effective_bandwidth(s, "5.0", 16))
    return ("A copy takes t = α + S/B, so it delivers S/t = B · S/(S + α·B): exactly half of B "
            "when S = α·B, the size whose wire time equals the start-up latency. For PCIe "
            f"5.0 x16, α = {D.fmt_time(pcie.LATENCY.value)} and B = {D.fmt_rate(b)} achieved, "
            f"so S = {D.fmt_bytes(s)} (the model gives {D.fmt_rate(got)} there). Below that "
            "size the latency (driver, DMA set-up, the round trip across the root complex), "
            "not the lanes, sets the time. Slide the size down and watch the delivered curve "
            "bend away from the flat line near that size.")


def transfer_lanes_gen() -> str:
    big, small = 10 * GB, 4 * kB
    t = pcie.transfer_time
    return ("For a large copy, yes to both: bandwidth doubles with the lane count and with "
            f"each generation. A {D.fmt_bytes(big)} copy takes {D.fmt_time(t(big, '5.0', 8))} "
            f"on Gen 5 x8 and {D.fmt_time(t(big, '5.0', 16))} on x16 "
            f"({ratio(t(big, '5.0', 8), t(big, '5.0', 16))}); "
            f"{D.fmt_time(t(big, '4.0', 16))} on Gen 4 x16 "
            f"({ratio(t(big, '4.0', 16), t(big, '5.0', 16))}). A {D.fmt_bytes(small)} copy "
            f"takes {D.fmt_time(t(small, '5.0', 8))}, {D.fmt_time(t(small, '5.0', 16))} and "
            f"{D.fmt_time(t(small, '4.0', 16))}: almost nothing changes, because its time is "
            "almost all start-up latency, which neither more lanes nor a faster signalling "
            "rate removes.")


def transfer_headline() -> str:
    lv = {k: pcie.link_bandwidth("5.0", 16, k) for k in ("headline", "raw", "usable",
                                                          "achieved")}
    return (f"The headline {D.fmt_rate(lv['headline'])} adds both directions of the raw "
            "signalling rate. A single copy moves data one way, so it can use at most one "
            f"direction: {D.fmt_rate(lv['raw'])} raw. Line coding (128b/130b) leaves "
            f"{D.fmt_rate(lv['usable'])} usable, and packet headers, flow control and DMA "
            f"overheads leave the {D.fmt_rate(lv['achieved'])} measured for host copies. Only "
            "two simultaneous copies in opposite directions can use both halves of the "
            "headline, and even they stop at the usable rate each.")


def uplink_share() -> str:
    host = float(pcie.switch_bandwidth_per_device(4, "5.0", "host", 16))
    own = pcie.link_bandwidth("5.0", 16)
    return ("All four transfers go up the switch's single x16 uplink in the same direction "
            f"(towards host memory), so they share it: each gets {D.fmt_rate(host)} of its "
            f"own link's {D.fmt_rate(own)}, a share of {D.fmt_pct(host / own)}. The device "
            "links are not the bottleneck; the uplink is. Set devices to the count in the "
            "question and the bar for host traffic drops to a quarter; the peer bar stays "
            "full.")


def uplink_nic_placement() -> str:
    host = float(pcie.switch_bandwidth_per_device(4, "5.0", "host", 16))
    peer = float(pcie.switch_bandwidth_per_device(4, "5.0", "peer", 16))
    return ("With GPUDirect RDMA the NIC reads and writes GPU memory directly. If both sit "
            "under the same switch, that traffic turns around inside the switch and never "
            "touches the uplink or host memory: in the demo, with four devices busy, peer "
            f"traffic keeps {D.fmt_rate(peer)} each while host traffic gets "
            f"{D.fmt_rate(host)}. Pairing each GPU with its own NIC under one switch "
            "(as DGX servers do) keeps network traffic off the shared uplink and the CPU's "
            "memory, and lets each GPU use a full NIC.")


def ar_ratio() -> str:
    s = default("allreduce_pcie_vs_nvlink", "size_mib") * MiB
    gpus = default("allreduce_pcie_vs_nvlink", "gpus")
    pc, nv, _ = _ar_points(s, gpus)
    return (f"At {D.fmt_bytes(s, binary=True)} on {gpus} GPUs the PCIe-only ring takes "
            f"{D.fmt_time(pc.time_s)} and the NVLink ring {D.fmt_time(nv.time_s)}, "
            f"{ratio(pc.time_s, nv.time_s)} as long. Their bus bandwidths are "
            f"{D.fmt_rate(pc.busbw)} and {D.fmt_rate(nv.busbw)} "
            f"({ratio(nv.busbw, pc.busbw)}): the ratio of the bandwidth each GPU gets per "
            "direction on its link, NVLink 4's achieved per-GPU rate "
            f"({D.fmt_rate(hierarchy.link('NVLink 4').effective)} in the first chapter's table) over "
            "PCIe 5.0 x16's achieved rate for GPU traffic. A large ring all-reduce moves "
            "2(n − 1)/n of the buffer per GPU whatever the link, so only the bandwidth "
            "differs.")


def ar_small() -> str:
    s = MiB / 16
    gpus = default("allreduce_pcie_vs_nvlink", "gpus")
    pc, nv, _ = _ar_points(s, gpus)
    return (f"For a small buffer the time is mostly per-step latency, not bytes. At "
            f"{D.fmt_bytes(s, binary=True)} PCIe takes {D.fmt_time(pc.time_s)} and NVLink "
            f"{D.fmt_time(nv.time_s)}, only {ratio(pc.time_s, nv.time_s)} as long: both "
            "rings take the same 2(n − 1) steps, each with a start-up cost of a few "
            "microseconds that a faster link does not shorten. The bandwidth advantage only "
            "shows once the bytes take longer than the steps' latency.")


def ar_two_switches() -> str:
    sw = {g: g // 4 for g in range(8)}

    def crossings(order):
        up = [0, 0]
        for a, b in zip(order, order[1:] + order[:1]):
            if sw[a] != sw[b]:
                up[sw[a]] += 1  # leaves switch sw[a] upwards, enters the other downwards
        return up

    blocked = crossings(list(range(8)))
    alt = crossings([0, 4, 1, 5, 2, 6, 3, 7])
    one = float(pcie.switch_bandwidth_per_device(blocked[0], "5.0", "host", 16))
    many = float(pcie.switch_bandwidth_per_device(alt[0], "5.0", "host", 16))
    return ("Count the ring's hops that change switch. Visiting one switch's GPUs first "
            f"(all of one switch, then all of the other), the ring crosses between the switches {sum(blocked)} times: "
            f"{blocked[0]} transfer up each uplink and {blocked[1]} down it, so each "
            "uplink carries one transfer per direction, and gets its full rate "
            f"({D.fmt_rate(one)}). Alternating switches at every hop, all {sum(alt)} hops "
            f"cross: {alt[0]} transfers share each uplink in each direction, and the "
            f"shared-uplink demo with that many devices gives each {D.fmt_rate(many)}, so the "
            f"whole ring runs {ratio(one, many)} slower. This is why NCCL orders the ring by "
            "PCIe topology.")
