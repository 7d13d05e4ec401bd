"""NVLink, the GPU-to-GPU highway: generations, achieved vs line rate, point-to-point
copies and copies staged through the host. Chapter 3 introduces it.

Every bandwidth is per direction unless a name or column says "both directions". The
per-GPU line rate is links x per-link rate (18 x 25 GB/s = 450 GB/s for NVLink 4); the
vendor headline (900 GB/s) adds both directions. What applications get is NCCL's
per-link effective bandwidth (``topo.h``) x links, about 80 % of the line rate.

>>> from interlib.units import GB_per_s
>>> round(gpu_bandwidth(4, "line") / GB_per_s)
450
>>> round(gpu_bandwidth(4, "headline") / GB_per_s)
900
"""

from __future__ import annotations

import numpy as np

from . import _validate as v
from . import display, pcie, transfer
from .specs import NVLINK, calibration as C
from .specs.inside_box import NVLINK_APP_EFFICIENCY, NVLINK_REPORTED_PER_LINK, P2P
from .units import Gbit_per_s

LEVELS = ("line", "effective", "headline")
LATENCY = C.HOP_LATENCY[("nvlink", "ring", "Simple")]
"""Per-transfer start-up latency for NVLink copies: NCCL's NVLink hop latency (tuning.cc,
Ring/Simple), a model constant."""


def prose_figures() -> dict:
    """Figures Chapter 3's prose quotes, as display strings (glued into the text, so none
    is typed by hand): the NCCL maintainers' application-level share of the NVLink line
    rate, and the share of link bandwidth NCCL's model credits the LL128 protocol with.

    >>> prose_figures()["nvlink_app_efficiency"]
    '80 %'
    """
    from .specs import (NVLINK_C2C, NVLINK_MAX_PAYLOAD, PCIE, REDUCED_NVLINK, gpu)

    c2c, h800, a800 = NVLINK_C2C, REDUCED_NVLINK["h800"], REDUCED_NVLINK["a800"]
    pcie5 = PCIE["5.0"].usable_per_direction(16)
    nv4 = NVLINK[4]
    return {"nvlink_app_efficiency": display.fmt_pct(NVLINK_APP_EFFICIENCY.value),
            "ll128_efficiency": display.fmt_pct(C.PROTOCOL_EFFICIENCY["LL128"].value),
            "nccl_link_share": display.fmt_pct(nv4.nccl_effective_per_link.value
                                               / nv4.per_link.value),
            "sm_payload": f"{NVLINK_MAX_PAYLOAD['SM'].value:g} bytes",
            "ce_payload": f"{NVLINK_MAX_PAYLOAD['copy engine'].value:g} bytes",
            "c2c_per_direction": display.fmt_rate(c2c.per_direction.value),
            "c2c_headline": display.fmt_rate(c2c.bidirectional),
            "c2c_h2d": display.fmt_rate(c2c.measured_h2d.value),
            "c2c_d2h": display.fmt_rate(c2c.measured_d2h.value),
            "c2c_over_pcie5": display.fmt_ratio(c2c.per_direction.value / pcie5),
            "pcie5_usable": display.fmt_rate(pcie5),
            "gb200_host": gpu("gb200").host.name,
            "h800_headline": display.fmt_rate(h800.headline.value),
            "h800_per_direction": display.fmt_rate(h800.per_direction),
            "h800_measured": display.fmt_rate(h800.measured.value),
            "h800_share": display.fmt_pct(h800.share_of_full),
            "h100_per_direction": display.fmt_rate(nv4.per_gpu_per_direction),
            "a800_headline": display.fmt_rate(a800.headline.value),
            "a800_share": display.fmt_pct(a800.share_of_full),
            **_superchip_figures()}


def _superchip_figures() -> dict:
    """Chapter 3's figures for the GB200/GB300 superchip's NVLink-C2C and the NIC path of
    GB300 (issue 28, errors 1 and 2)."""
    from .specs import NVLINK_C2C_SUPERCHIP, gpu, nic, system

    sc = NVLINK_C2C_SUPERCHIP
    cx8, gb300 = nic("connectx-8"), system("gb300-nvl72")
    return {"superchip_headline": display.fmt_rate(sc.bidirectional),
            "superchip_per_direction": display.fmt_rate(sc.per_direction.value),
            "superchip_gpus": f"{sc.gpus}",
            "superchip_even_split": display.fmt_rate(sc.per_gpu_even_split),
            "gb300_pcie": gpu("gb300").pcie.name,
            "cx8_rate": display.fmt_bits(cx8.rate.value * 8),
            "cx8_per_gpu": display.fmt_rate(gb300.nic_bw_per_gpu),
            "gb300_status": str(gb300.status)}


def gpu_bandwidth(gen: int = 4, level: str = "line") -> float:
    """One GPU's NVLink bandwidth, bytes/s.

    Args:
        gen: NVLink generation 1..5.
        level: ``"line"`` (links x per-link rate, per direction), ``"effective"`` (links
            x NCCL's per-link effective bandwidth, per direction) or ``"headline"`` (line
            rate with both directions added: the vendor figure).
    """
    nv = NVLINK[v.integer("gen", gen, lo=1, hi=5)]
    v.choice("level", level, LEVELS)
    if level == "line":
        return nv.per_gpu_per_direction
    if level == "effective":
        return nv.per_gpu_effective
    return nv.per_gpu_bidirectional


def efficiency(gen: int = 4) -> float:
    """Achieved share of the line rate NCCL assumes: effective / line (compare
    :data:`interlib.specs.inside_box.NVLINK_APP_EFFICIENCY`, the maintainers' rule of
    thumb).

    Args:
        gen: NVLink generation 1..5.
    """
    return gpu_bandwidth(gen, "effective") / gpu_bandwidth(gen, "line")


def transfer_time(size_bytes, gen: int = 4, achieved: bool = True):
    """Seconds to copy ``size_bytes`` from one GPU to another over all its NVLinks
    (through NVSwitch, so every link carries a share): ``t = alpha + S / B``.

    Args:
        size_bytes: Bytes (>= 0), scalar or array.
        gen: NVLink generation 1..5.
        achieved: NCCL's effective bandwidth (True) or the line rate (False).
    """
    achieved = v.flag("achieved", achieved)
    bw = gpu_bandwidth(gen, "effective" if achieved else "line")
    return transfer.transfer_time(size_bytes, bw, latency=LATENCY.value)


def effective_bandwidth(size_bytes, gen: int = 4, achieved: bool = True):
    """Delivered bytes/s for a copy of ``size_bytes`` (``S / t``), per direction."""
    v.positive("size_bytes", size_bytes)
    return v.result(np.asarray(size_bytes, dtype=float) / transfer_time(size_bytes, gen, achieved))


def p2p_vs_staged(size_bytes, gen: int = 4, pcie_gen: str = "5.0") -> dict:
    """GPU-to-GPU copy times, seconds, three ways:

    * ``"nvlink"``: direct peer-to-peer over NVLink (:func:`transfer_time`);
    * ``"pcie_p2p"``: direct peer-to-peer over PCIe, both GPUs under one switch
      (:func:`interlib.pcie.transfer_time`);
    * ``"staged"``: through host memory, the two PCIe legs pipelined
      (:func:`interlib.pcie.staged_copy_time`);
    * ``"staged_serial"``: through host memory, one leg after the other.

    Args:
        size_bytes: Bytes (>= 0), scalar or array.
        gen: NVLink generation.
        pcie_gen: PCIe generation of the GPUs' host links.
    """
    v.choice("pcie_gen", pcie_gen, pcie.PCIE)
    return {"nvlink": transfer_time(size_bytes, gen),
            "pcie_p2p": pcie.transfer_time(size_bytes, pcie_gen),
            "staged": pcie.staged_copy_time(size_bytes, pcie_gen, pipelined=True),
            "staged_serial": pcie.staged_copy_time(size_bytes, pcie_gen, pipelined=False)}


def generation_table() -> display.Table:
    """NVLink 1-5: links per GPU, per-link and per-GPU rates per direction and both
    directions, lane signalling, NCCL's effective rate. Generated from
    :data:`interlib.specs.NVLINK`."""
    rows = []
    for gen, nv in NVLINK.items():
        rows.append([
            nv.name, nv.gpu, f"{nv.links_per_gpu.value:g}",
            display.fmt_rate(nv.per_link.value), display.fmt_rate(nv.per_link_bidirectional),
            display.fmt_rate(nv.per_gpu_per_direction),
            display.fmt_rate(nv.per_gpu_bidirectional),
            f"{nv.lanes_per_direction} x {nv.lane_signalling.value / Gbit_per_s:g} Gb/s",
            display.fmt_rate(nv.per_gpu_effective), display.fmt_pct(efficiency(gen)),
        ])
    return display.Table(
        ["generation", "GPU", "links", "per link, per direction",
         "per link, both directions", "per GPU, per direction",
         "per GPU, both directions (headline)", "lanes per direction x lane data rate",
         "NCCL effective per GPU, per direction", "effective / line"],
        rows,
        "Sources: NVIDIA's P100, A100 and H100 architecture whitepapers (NVLink 1-4; the "
        "A100 whitepaper also gives V100's NVLink 2) and NVLink page (NVLink 5); Bekman "
        "(NVLink 5's lanes); NCCL topo.h (effective per-link bandwidth). The lane rate is "
        "data after encoding; the wires run slightly faster.")


def p2p_table() -> display.Table:
    """Published GPU-to-GPU copy measurements next to the line rate and NCCL's effective
    rate (:data:`interlib.specs.inside_box.P2P`)."""
    rows = []
    for m in P2P.values():
        line = gpu_bandwidth(m.nvlink_gen, "line")
        rows.append([m.system, f"NVLink {m.nvlink_gen}", display.fmt_rate(m.per_direction.value),
                     display.fmt_rate(line), display.fmt_pct(m.per_direction.value / line),
                     display.fmt_rate(m.bidirectional.value) if m.bidirectional else "—",
                     _short(m.per_direction.source.title)])
    return display.Table(
        ["system", "link", "measured, per direction", "line rate, per direction",
         "measured / line", "measured, both directions", "source"], rows,
        "Copies between two GPUs of one node (p2pBandwidthLatencyTest or nvbandwidth).")


def _short(title: str) -> str:
    return title.split(",")[0].split(" (")[0]


def reported_link_rate(gen: int) -> float:
    """Per-link rate that ``nvidia-smi nvlink -s`` reports, bytes/s per direction (NVLink 4
    and 5 only): the rate on the wire, encoding overhead included, slightly above the data
    rate of :func:`gpu_bandwidth` (Bekman: the ratio is the encoding overhead).

    Args:
        gen: 4 or 5.
    """
    if gen not in NVLINK_REPORTED_PER_LINK:
        raise ValueError(f"gen={gen!r} is not one of {sorted(NVLINK_REPORTED_PER_LINK)}")
    return NVLINK_REPORTED_PER_LINK[gen].value
