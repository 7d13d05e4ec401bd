"""Chapter 2 figures: PCIe transfers, shared uplinks, all-reduce over PCIe vs NVLink."""

from __future__ import annotations

import numpy as np

from .. import collectives, display, pcie
from ..specs import PCIE
from ..units import GB, GiB, KiB, MiB
from . import COLORS, binary_size_axis, new_figure, si_axis

_GEN_COLORS = {"3.0": COLORS["grey"], "4.0": COLORS["sky"], "5.0": COLORS["blue"],
               "6.0": COLORS["green"]}
_SIZES = np.logspace(3, 11, 81)  # 1 kB .. 100 GB


def pcie_transfer(gen: str = "5.0", lanes: int = 16, size_gb: float = 1.0):
    """Effective bandwidth of a host<->device copy vs copy size, every generation at
    ``lanes`` lanes (chosen generation bold); dashed: the usable line rate. The marker is
    the chosen size."""
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    for g in PCIE:
        bold = g == gen
        col = _GEN_COLORS[g]
        ax.plot(_SIZES, pcie.effective_bandwidth(_SIZES, g, lanes), color=col,
                lw=2.6 if bold else 1.1, alpha=1 if bold else 0.7,
                label=f"PCIe {g} x{lanes}: {display.fmt_rate(pcie.link_bandwidth(g, lanes))}"
                      " achieved")
        if bold:
            ax.axhline(pcie.link_bandwidth(g, lanes, "usable"), color=col, ls="--", lw=1)
    s = size_gb * GB
    b = pcie.effective_bandwidth(s, gen, lanes)
    ax.plot([s], [b], "o", color="black", ms=8, zorder=5)
    ax.annotate(f"{display.fmt_time(pcie.transfer_time(s, gen, lanes))}", (s, b),
                textcoords="offset points", xytext=(8, -16), fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(0, 1.1 * pcie.link_bandwidth("6.0", 16, "usable"))
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("effective bandwidth, per direction")
    ax.set_title(f"Host-to-device copy over PCIe x{lanes} (dashed: usable line rate of "
                 f"PCIe {gen})", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


def shared_uplink(devices: int = 4, gen: str = "5.0", uplink_lanes: int = 16):
    """Per-device bandwidth vs number of devices under one PCIe switch: traffic to the host
    (through the shared uplink) vs traffic between devices under the switch."""
    ks = np.arange(1, 17)
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    host = pcie.switch_bandwidth_per_device(ks, gen, "host", uplink_lanes)
    peer = pcie.switch_bandwidth_per_device(ks, gen, "peer", uplink_lanes)
    ax.plot(ks, peer, "s-", color=COLORS["green"], lw=2,
            label="device <-> device under the switch (GPUDirect P2P / RDMA)")
    ax.plot(ks, host, "o-", color=COLORS["vermillion"], lw=2,
            label=f"device <-> host through one x{uplink_lanes} uplink")
    b = pcie.switch_bandwidth_per_device(devices, gen, "host", uplink_lanes)
    ax.plot([devices], [b], "o", color="black", ms=10, zorder=5)
    ax.annotate(display.fmt_rate(b), (devices, b), textcoords="offset points",
                xytext=(8, 8), fontsize=10, fontweight="bold")
    ax.set_xlim(0.5, 16.5)
    ax.set_ylim(0, 1.15 * pcie.link_bandwidth("6.0", 16))
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("devices transferring at the same time under one PCIe switch")
    ax.set_ylabel("achieved bandwidth per device, per direction")
    ax.set_title(f"PCIe {gen}: devices x16 each, sharing one uplink to the CPU", fontsize=10)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    return fig


_AR_SIZES = np.logspace(np.log2(64 * KiB), np.log2(16 * GiB), 57, base=2)
_SYSTEMS = (("h100-pcie-only", "ring", COLORS["orange"], "8 x H100, PCIe only: ring", (-58, 6)),
            ("dgx-h100", "ring", COLORS["blue"], "DGX H100, NVLink: ring", (-12, 12)),
            ("dgx-h100", "auto", COLORS["green"], "DGX H100, NVLink: NCCL's choice", (8, -16)))


def allreduce_pcie_vs_nvlink(size_mib: float = 1024.0, gpus: int = 8):
    """All-reduce time vs buffer size on ``gpus`` GPUs of a PCIe-only box and of a DGX
    H100 (collectives.predict)."""
    fig, ax = new_figure()
    s = size_mib * MiB
    for sys_, alg, col, label, offset in _SYSTEMS:
        ax.plot(_AR_SIZES, collectives.predict("all_reduce", _AR_SIZES, sys_, gpus, 1,
                                               alg).time_s, color=col, lw=2, label=label)
        t = collectives.predict("all_reduce", s, sys_, gpus, 1, alg).time_s
        ax.plot([s], [t], "o", color=col, ms=8, zorder=5)
        ax.annotate(display.fmt_time(t), (s, t), textcoords="offset points", xytext=offset,
                    fontsize=9, color=col, fontweight="bold")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(_AR_SIZES[0], _AR_SIZES[-1])
    ax.set_ylim(1e-5, 10)
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "s")
    ax.set_xlabel("all-reduce buffer per GPU (log)")
    ax.set_ylabel("time (log)")
    ax.set_title(f"All-reduce on {gpus} GPUs: PCIe only vs NVLink + NVSwitch (model)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


__all__ = ["pcie_transfer", "shared_uplink", "allreduce_pcie_vs_nvlink"]
