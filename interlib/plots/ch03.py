"""Chapter 3 figures: NVLink copies, tensor-parallel communication share, p2p vs staged."""

from __future__ import annotations

import numpy as np

from .. import display, nvlink, tensor_parallel as TP
from ..specs import NVLINK
from ..units import GB, MB
from . import COLORS, new_figure, si_axis

_GEN_COLORS = {1: COLORS["grey"], 2: COLORS["purple"], 3: COLORS["sky"], 4: COLORS["blue"],
               5: COLORS["green"]}
_SIZES = np.logspace(3, 11, 81)  # 1 kB .. 100 GB


def nvlink_transfer(gen: int = 4, size_mb: float = 64.0):
    """GPU-to-GPU copy time vs size for NVLink 1-5 (chosen generation bold; dashed: at
    the line rate). The marker is the chosen size."""
    fig, ax = new_figure()
    for g, nv in NVLINK.items():
        bold = g == gen
        col = _GEN_COLORS[g]
        ax.plot(_SIZES, nvlink.transfer_time(_SIZES, g), color=col, lw=2.6 if bold else 1.1,
                alpha=1 if bold else 0.7,
                label=f"{nv.name} ({nv.gpu}): {display.fmt_rate(nvlink.gpu_bandwidth(g, 'effective'))}"
                      " effective")
        if bold:
            ax.plot(_SIZES, nvlink.transfer_time(_SIZES, g, achieved=False), color=col,
                    ls="--", lw=1)
    s = size_mb * MB
    t = nvlink.transfer_time(s, gen)
    ax.plot([s], [t], "o", color="black", ms=8, zorder=5)
    ax.annotate(display.fmt_time(t), (s, t), textcoords="offset points", xytext=(-60, 8),
                fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(1e-6, 10)
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("time (log)")
    ax.set_title("One GPU to another over all its NVLinks (dashed: at the line rate)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


_HIDDEN = np.arange(1024, 16384 + 1, 512)
_LINK_COLORS = dict(zip(TP.LINKS, (COLORS["orange"], COLORS["blue"], COLORS["green"])))


def tp_comm_share(tp: int = 8, hidden: int = 8192, link: str = "NVLink 4 (H100)",
                  seq_len: int = 4096, mfu: float = 0.4):
    """Share of a transformer layer's forward pass spent in the two tensor-parallel
    all-reduces, vs model width, for each link (chosen link bold). One sequence of
    ``seq_len`` tokens per micro-batch; compute at ``mfu`` of the GPU's BF16 peak."""
    fig, ax = new_figure()
    for name in TP.LINKS:
        c = TP.layer_cost(1, seq_len, _HIDDEN, tp, name, mfu)
        ax.plot(_HIDDEN, c.comm_share, color=_LINK_COLORS[name],
                lw=2.6 if name == link else 1.2, label=f"{name}")
    c = TP.layer_cost(1, seq_len, hidden, tp, link, mfu)
    ax.plot([hidden], [c.comm_share], "o", color="black", ms=8, zorder=5)
    ax.annotate(display.fmt_pct(float(c.comm_share)), (hidden, c.comm_share),
                textcoords="offset points", xytext=(8, 8), fontsize=10, fontweight="bold")
    ax.set_xlim(_HIDDEN[0], _HIDDEN[-1])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f} %")
    ax.set_xlabel("model width h (hidden size)")
    ax.set_ylabel("share of layer time in all-reduce")
    ax.set_title(f"Tensor parallelism over {tp} GPUs, {seq_len} tokens, MFU "
                 f"{display.fmt_pct(mfu)} (forward pass, no overlap)", fontsize=10)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    return fig


_P2P_STYLE = {"nvlink": (COLORS["blue"], "-", "direct over NVLink"),
              "pcie_p2p": (COLORS["orange"], "-", "direct over PCIe (same switch)"),
              "staged": (COLORS["vermillion"], "--", "through host memory, pipelined"),
              "staged_serial": (COLORS["purple"], ":", "through host memory, one leg then "
                                                     "the other")}


def p2p_vs_staged(size_gb: float = 1.0, gen: int = 4, pcie_gen: str = "5.0"):
    """GPU-to-GPU copy time vs size: direct over NVLink, direct over PCIe, and staged
    through host memory (pipelined or not)."""
    fig, ax = new_figure()
    times = nvlink.p2p_vs_staged(_SIZES, gen, pcie_gen)
    s = size_gb * GB
    point = nvlink.p2p_vs_staged(s, gen, pcie_gen)
    for key, (col, ls, label) in _P2P_STYLE.items():
        ax.plot(_SIZES, times[key], color=col, ls=ls, lw=2, label=label)
        ax.plot([s], [point[key]], "o", color=col, ms=7, zorder=5)
    ax.annotate(display.fmt_time(point["nvlink"]), (s, point["nvlink"]),
                textcoords="offset points", xytext=(8, -14), fontsize=9, fontweight="bold")
    ax.annotate(display.fmt_time(point["staged_serial"]), (s, point["staged_serial"]),
                textcoords="offset points", xytext=(-50, 8), fontsize=9, fontweight="bold")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(1e-6, 10)
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("time (log)")
    ax.set_title(f"GPU to GPU: NVLink {gen} vs PCIe {pcie_gen} x16 (achieved rates)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig
