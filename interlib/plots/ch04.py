"""Chapter 4 figures: mesh vs switch, ring vs NVLS all-reduce, bisection of a cut."""

from __future__ import annotations

import numpy as np

from .. import display, nvswitch
from ..specs import NVLINK, system as _system
from ..specs.inside_box import NVLINK_DOMAINS
from ..units import GiB, KiB, MiB
from . import COLORS, binary_size_axis, new_figure, si_axis


def mesh_vs_switch(n: int = 8, gen: int = 4):
    """Left: cables for a full mesh (n(n-1)/2) vs GPU-to-switch links (n x links per GPU).
    Right: per-pair bandwidth, per direction, when the GPU's links are split into a mesh
    vs through a switch (every pair can use all links)."""
    ns = np.arange(2, 73)
    nv = NVLINK[gen]
    fig, (a1, a2) = new_figure(1, 2, figsize=(9.0, 4.2))
    fig.subplots_adjust(left=0.08, right=0.98, wspace=0.32)
    a1.plot(ns, nvswitch.mesh_links(ns), color=COLORS["vermillion"], lw=2,
            label="full mesh: n(n-1)/2 links")
    a1.plot(ns, nvswitch.switch_links(ns, gen), color=COLORS["blue"], lw=2,
            label=f"switched: n x {nv.links_per_gpu.value:g} links")
    a1.axvline(n, color="black", lw=1, ls=":")
    a1.set_xlabel("GPUs n")
    a1.set_ylabel("cables (GPU links)")
    a1.set_xlim(2, 72)
    a1.set_ylim(0, nvswitch.mesh_links(72) * 1.05)
    a1.set_title("How many links?", fontsize=10)
    a1.legend(fontsize=8, loc="upper left", frameon=False)
    pair = nvswitch.mesh_pair_bandwidth(ns, gen)
    a2.step(ns, pair, where="post", color=COLORS["vermillion"], lw=2,
            label=f"mesh: {nv.links_per_gpu.value:g} links split among n-1 peers")
    a2.plot(ns, np.full(ns.shape, nv.per_gpu_per_direction), color=COLORS["blue"], lw=2,
            label="through a switch: all links")
    a2.plot([n], [nvswitch.mesh_pair_bandwidth(n, gen)], "o", color="black", ms=8)
    a2.set_xlabel("GPUs n")
    a2.set_ylabel("one pair's bandwidth, per direction")
    a2.set_xlim(2, 72)
    a2.set_ylim(0, 1.1 * NVLINK[5].per_gpu_per_direction)
    si_axis(a2, "y", "B/s")
    a2.set_title(f"{nv.name}: bandwidth between two GPUs", fontsize=10)
    a2.legend(fontsize=8, loc="upper right", frameon=False)
    return fig


_SIZES = np.logspace(np.log2(64 * KiB), np.log2(16 * GiB), 57, base=2)
SYSTEMS = ("dgx-h100", "dgx-b200", "gb200-nvl72")


def ring_vs_nvls(system: str = "dgx-h100", gpus: int = 8, size_mib: float = 1024.0):
    """All-reduce busbw vs size with the ring and with NVLS (in-switch reduction) on
    ``gpus`` GPUs of ``system`` (clamped to its domain size); dashed: per-GPU NVLink line
    rate, dotted: NCCL's effective rate."""
    sys_ = _system(system)
    g = min(gpus, sys_.gpus_per_node)
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    r = nvswitch.ring_vs_nvls(_SIZES, system, g)
    s = size_mib * MiB
    p = nvswitch.ring_vs_nvls(s, system, g)
    for key, col, label in (("ring", COLORS["orange"], "ring"),
                            ("nvls", COLORS["green"], "NVLS (reduction in the switch)")):
        ax.plot(_SIZES, r[key].busbw, color=col, lw=2, label=label)
        ax.plot([s], [p[key].busbw], "o", color=col, ms=8, zorder=5)
        ax.annotate(display.fmt_time(p[key].time_s), (s, p[key].busbw),
                    textcoords="offset points", xytext=(8, -14 if key == "ring" else 6),
                    fontsize=9, color=col, fontweight="bold")
    nv = sys_.gpu.nvlink
    ax.axhline(nv.per_gpu_per_direction, color="black", ls="--", lw=1,
               label="NVLink line rate per GPU, per direction")
    ax.axhline(nv.per_gpu_effective, color="black", ls=":", lw=1,
               label="NCCL's effective NVLink rate")
    ax.set_xscale("log", base=2)
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(0, 1.6 * NVLINK[5].per_gpu_per_direction)
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("all-reduce buffer per GPU (log)")
    ax.set_ylabel("bus bandwidth (nccl-tests busbw)")
    ax.set_title(f"{sys_.title}: all-reduce on {g} GPUs, ring vs NVLS (model)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


DOMAINS = ("dgx-h100", "gb200-nvl72", "gb200-nvl576")


def bisection(domain: str = "gb200-nvl72", k: int = 36):
    """Bandwidth across a cut of an NVLink domain into ``k`` and ``n - k`` GPUs (clamped
    to 1..n-1), per direction; the marker is the chosen cut, the peak is the bisection."""
    d = NVLINK_DOMAINS[domain]
    n = int(d.gpus.value)
    k = max(1, min(k, n - 1))
    per_gpu = NVLINK[d.nvlink_gen].per_gpu_per_direction
    ks = np.arange(1, n)
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    ax.plot(ks / n, nvswitch.cut_bandwidth(n, ks, per_gpu), color=COLORS["blue"], lw=2,
            label="bandwidth across the cut, per direction")
    b = nvswitch.cut_bandwidth(n, k, per_gpu)
    ax.plot([k / n], [b], "o", color="black", ms=8, zorder=5)
    ax.annotate(f"{k} | {n - k}: {display.fmt_rate(b)}", (k / n, b),
                textcoords="offset points", xytext=(8, -16), fontsize=10, fontweight="bold")
    bis = nvswitch.bisection_bandwidth(n, per_gpu)
    ax.axhline(bis, color=COLORS["vermillion"], ls="--", lw=1,
               label=f"bisection: {display.fmt_rate(bis)} per direction")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.15 * bis)
    ax.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f} %")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("share of the domain's GPUs on one side of the cut")
    ax.set_ylabel("bandwidth across the cut")
    ax.set_title(f"{d.name}: cutting the domain in two (non-blocking switches)", fontsize=10)
    ax.legend(fontsize=8, loc="lower center", frameon=False)
    return fig


