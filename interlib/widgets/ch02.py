"""Chapter 2 demos: PCIe.

Every demo's ``update`` hook is the plot's own fill function (``plots.ch02._fill_*``),
which the pure plot function also calls: one live figure per demo, changed in place and
blitted on every move.
"""

from __future__ import annotations

from .. import display, pcie
from ..plots import ch02 as P
from ..specs import PCIE
from ..units import GB, MiB
from .core import Demo, Dropdown, FloatSlider, IntSlider, register
from .answers import ch02 as A

_PCIE_LABELS = tuple(f"PCIe {g}" for g in PCIE)


def _transfer_summary(gen, lanes, size_gb):
    s = size_gb * GB
    return (f"PCIe {gen} x{lanes}, {display.fmt_bytes(s)}: "
            f"{display.fmt_time(pcie.transfer_time(s, gen, lanes))} at "
            f"{display.fmt_rate(pcie.effective_bandwidth(s, gen, lanes))} effective "
            f"({display.fmt_time(pcie.transfer_time(s, gen, lanes, achieved=False))} at the "
            f"{display.fmt_rate(pcie.link_bandwidth(gen, lanes, 'usable'))} usable line rate; "
            f"vendor headline {display.fmt_rate(pcie.link_bandwidth(gen, lanes, 'headline'))} "
            "counts both directions)")


register(Demo(
    "pcie_transfer", P.pcie_transfer,
    {"gen": Dropdown(tuple(PCIE), "5.0", "PCIe generation", _PCIE_LABELS),
     "lanes": Dropdown(pcie.LANES, 16, "lanes"),
     "size_gb": FloatSlider(1e-6, 100.0, 1.0, "copy size (GB)", step=0.01, log=True,
                            readout_format="num")},
    _transfer_summary,
    (("Below what copy size does a PCIe 5.0 x16 link deliver less than half its achieved "
      "bandwidth? What sets that size?",
      A.transfer_half),
     ("Does going from x8 to x16 lanes double a large copy's speed? Does going from Gen 4 "
      "to Gen 5? Does either help a 4 kB copy, and why?",
      A.transfer_lanes_gen),
     ("The vendor headline for PCIe 5.0 x16 is the right-hand column of the table. Why can "
      "no single copy ever reach it?",
      A.transfer_headline)),
    update=P._fill_pcie_transfer))


def _uplink_summary(devices, gen, uplink_lanes):
    host = pcie.switch_bandwidth_per_device(devices, gen, "host", uplink_lanes)
    peer = pcie.switch_bandwidth_per_device(devices, gen, "peer", uplink_lanes)
    return (f"{display.fmt_count(devices, 'device')} under one PCIe {gen} switch with an "
            f"x{uplink_lanes} uplink: "
            f"{display.fmt_rate(host)} each to or from the host, {display.fmt_rate(peer)} "
            "each between devices under the switch (per direction, achieved)")


register(Demo(
    "pcie_shared_uplink", P.shared_uplink,
    {"devices": IntSlider(1, 16, 4, "devices transferring"),
     "gen": Dropdown(tuple(PCIE), "5.0", "PCIe generation", _PCIE_LABELS),
     "uplink_lanes": Dropdown((8, 16), 16, "uplink lanes")},
    _uplink_summary,
    (("Two GPUs and two NICs sit under one switch. The GPUs copy checkpoint shards to host "
      "memory while the NICs write incoming data into host memory, all four at once (the "
      "same direction on the uplink). What share of its own link does each get?",
      A.uplink_share),
     ("Why do servers put each GPU's NIC under the same PCIe switch as the GPU?",
      A.uplink_nic_placement)),
    update=P._fill_shared_uplink))


def _ar_summary(size_mib, gpus):
    s = size_mib * MiB
    pc, nv, au = P._ar_points(s, gpus)
    return (f"{display.fmt_bytes(s, binary=True)} all-reduce on {gpus} GPUs: PCIe only "
            f"{display.fmt_time(pc.time_s)} (busbw {display.fmt_rate(pc.busbw)}); NVLink ring "
            f"{display.fmt_time(nv.time_s)} (busbw {display.fmt_rate(nv.busbw)}); NCCL's choice "
            f"on NVLink ({au.algorithm}) {display.fmt_time(au.time_s)}; PCIe takes "
            f"{display.fmt_ratio(pc.time_s / au.time_s)} as long" + _switches_text(gpus))


def _switches_text(gpus):
    sw = P._ar_switches(gpus)
    if not sw:
        return ""
    return "; NCCL's choice changes " + ", ".join(
        f"from {a} to {b} at {display.fmt_bytes(x, binary=True)}" for x, a, b in sw)


register(Demo(
    "allreduce_pcie_vs_nvlink", P.allreduce_pcie_vs_nvlink,
    {"size_mib": FloatSlider(0.0625, 16384.0, 1024.0, "buffer per GPU (MiB)", step=0.01,
                             log=True, readout_format="num"),
     "gpus": IntSlider(2, 8, 8, "GPUs")},
    _ar_summary,
    (("At large sizes the PCIe-only box is slower than the NVLink ring by roughly the ratio "
      "of two bandwidths. Which two? Check against the tables in this chapter.",
      A.ar_ratio),
     ("Why does the gap shrink for small buffers?",
      A.ar_small),
     ("This model gives every GPU its full x16 link at once. Put the eight GPUs under two "
      "switches, four each. If the ring visits all four GPUs of one switch before crossing "
      "to the other, how many ring transfers cross each uplink in each direction? If it "
      "alternates between the switches at every hop, how many, and what does the "
      "shared-uplink demo give each of them?",
      A.ar_two_switches)),
    update=P._fill_allreduce_pcie_vs_nvlink))
