"""Chapter 5 figures: multi-node all-reduce, fat-tree sizing, credit flow control."""

from __future__ import annotations

import numpy as np

from .. import display, flowcontrol, scaleout, topology
from ..units import MiB
from . import COLORS, binary_size_axis, new_figure, si_axis

_ALG_STYLE = {
    "ring": (COLORS["blue"], "-", "flat ring (all GPUs, NCCL channels over every NIC)"),
    "hierarchical": (COLORS["green"], "-", "hierarchical: NVLink RS, NIC all-reduce, NVLink AG"),
    "sharp": (COLORS["purple"], "-", "hierarchical + SHARP (switches reduce)"),
    "auto": (COLORS["black"], "--", "NCCL's choice (ring / tree / NVLS)"),
}
_SIZES = 2.0 ** np.arange(20, 33)     # 1 MiB .. 4 GiB


def allreduce_multinode(nodes: int = 16, nic: str = "connectx-7", nics_per_node: int = 8,
                        size_mib: float = 1024.0):
    """All-reduce time vs message size on ``nodes`` DGX H100-class nodes, for each
    algorithm, with a what-if NIC model and NIC count; the marker is the chosen size."""
    sys_ = scaleout.with_nics("dgx-h100", nic, nics_per_node)
    preds = scaleout.multinode_all_reduce(_SIZES, nodes, sys_)
    fig, ax = new_figure()
    for alg, p in preds.items():
        col, ls, label = _ALG_STYLE[alg]
        ax.plot(_SIZES, p.time_s, color=col, ls=ls, lw=2.2 if alg == "auto" else 1.6,
                label=label)
    size = size_mib * MiB
    chosen = scaleout.multinode_all_reduce(size, nodes, sys_)
    for alg, p in chosen.items():
        ax.plot([size], [p.time_s], "o", color=_ALG_STYLE[alg][0], ms=6, zorder=5)
    best = chosen["auto"]
    ax.annotate(display.fmt_time(best.time_s), (size, best.time_s), textcoords="offset points",
                xytext=(8, -14), fontsize=10, fontweight="bold")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(1e-5, 10.0)
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "s")
    ax.set_xlabel("all-reduce size per GPU")
    ax.set_ylabel("time (log)")
    ax.set_title(f"{nodes} nodes × 8 GPUs ({nodes * 8} GPUs), "
                 f"{scaleout.fmt_nic(sys_)}", fontsize=9)
    ax.legend(fontsize=7.5, loc="upper left", frameon=False)
    return fig


def fat_tree_sizing(hosts: int = 4096, radix: int = 64, oversubscription: float = 1.0):
    """Switches and cables vs hosts for ``radix``-port switches (left) and the chosen
    build's bisection against full bisection (right)."""
    ft = topology.fat_tree(hosts, radix, oversubscription)
    xs = np.unique(np.rint(np.logspace(1, 6, 120)).astype(int))
    cap = topology.max_hosts(radix, 5, oversubscription)
    xs = xs[xs <= cap]
    _, sw, cab = topology.fat_tree_counts(xs, radix, oversubscription)
    fig, (ax, bx) = new_figure(1, 2, gridspec_kw={"width_ratios": [2.2, 1]})
    ax.plot(xs, sw, color=COLORS["blue"], label="switches")
    ax.plot(xs, cab, color=COLORS["vermillion"], label="cables")
    for t in range(1, 5):
        edge = topology.max_hosts(radix, t, oversubscription)
        if edge < 1e6:
            ax.axvline(edge, color=COLORS["grey"], lw=0.8, ls=":")
            ax.text(edge, 1.3, f" {t} tier{'s' if t > 1 else ''} max", fontsize=7,
                    rotation=90, va="bottom", color=COLORS["grey"])
    ax.plot([ft.hosts], [ft.switches], "o", color=COLORS["blue"], ms=7)
    ax.plot([ft.hosts], [ft.cables], "o", color=COLORS["vermillion"], ms=7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(10, 1e6)
    ax.set_ylim(1, 1e7)
    si_axis(ax, "x", "")
    si_axis(ax, "y", "")
    ax.set_xlabel("hosts (NIC ports)")
    ax.set_ylabel("count (log)")
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    ax.set_title(f"{radix}-port switches, leaf {ft.leaf_down}:{ft.leaf_up} down:up",
                 fontsize=9)
    bx.bar(["full", "this build"], [ft.full_bisection_per_direction,
                                    ft.bisection_per_direction],
           color=[COLORS["grey"], COLORS["green"]])
    bx.set_ylim(0, ft.full_bisection_per_direction * 1.25)
    si_axis(bx, "y", "B/s")
    bx.set_title("bisection, per direction", fontsize=9)
    bx.text(1, ft.bisection_per_direction, display.fmt_ratio(ft.bisection_ratio),
            ha="center", va="bottom", fontsize=9)
    return fig


def credit_flow(buffer_packets: int = 16, load: float = 0.5, rtt_steps: int = 32):
    """Credit-based (lossless) vs lossy sender: cumulative in-order delivery (left) and
    receive-buffer occupancy (right) over time."""
    runs = {m: flowcontrol.credit_vs_lossy(m, buffer_packets, load, rtt_steps, steps=2000)
            for m in ("credit", "lossy")}
    fig, (ax, bx) = new_figure(1, 2)
    t = np.arange(2000)
    cols = {"credit": COLORS["blue"], "lossy": COLORS["vermillion"]}
    names = {"credit": "credit-based (InfiniBand)", "lossy": "lossy, go-back-N"}
    ax.plot(t, (1 - load) * t, color=COLORS["grey"], ls=":", lw=1,
            label="receiver's drain rate")
    for m, r in runs.items():
        ax.plot(t, r.delivered, color=cols[m], label=f"{names[m]}: {r.goodput:.2f}")
        bx.plot(t, r.occupancy, color=cols[m], lw=0.8)
    ax.set_xlim(0, 2000)
    ax.set_ylim(0, 2000)
    ax.set_xlabel("time (packet times)")
    ax.set_ylabel("packets delivered in order")
    ax.legend(fontsize=7.5, loc="upper left", frameon=False)
    ax.set_title(f"goodput (share of link) with {buffer_packets} credits, "
                 f"RTT {rtt_steps}", fontsize=9)
    bx.axhline(buffer_packets, color=COLORS["grey"], ls="--", lw=0.8)
    bx.set_xlim(0, 2000)
    bx.set_ylim(0, max(buffer_packets, 1) * 1.15)
    bx.set_xlabel("time (packet times)")
    bx.set_ylabel("receive buffer (packets)")
    bx.set_title("buffer occupancy (dashed: size)", fontsize=9)
    return fig
