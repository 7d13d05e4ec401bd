"""Appendix A's "your cluster" demo: predicted all-reduce busbw on a node of your own
design (:func:`interlib.specs.custom.node`), with the nearest published measurements."""

from __future__ import annotations

import numpy as np

from .. import collectives, display, validation
from ..specs import GPUS, SYSTEMS, custom
from ..units import GB_per_s
from . import COLORS, binary_size_axis, new_figure

SIZES = 2.0 ** np.arange(10, 35)
"""1 KiB to 16 GiB, powers of two, as nccl-tests sweeps."""

YMAX = 1000.0
"""Fixed y range, GB/s (the fastest published point, one NVL72 rack, is about 850)."""


def build(gpu: str, gpus_per_node: int, intra: str, nodes: int, nics_per_gpu: float,
          nic_gbps: float, fabric: str):
    """The node, or the ValueError that says why it cannot be built."""
    try:
        return custom.node(gpu, gpus_per_node, nics_per_gpu=nics_per_gpu, nic_gbps=nic_gbps,
                           fabric=fabric, intra=intra, name="your-node")
    except ValueError as e:
        return e


def system_title(system: str) -> str:
    """A published run's system as a reader knows it (``NVIDIA DGX H100``), not its
    catalogue id; without the title's note on its size ("(one rack)"), since a run may span
    several."""
    s = SYSTEMS.get(system)
    return s.title.split(" (")[0] if s is not None else system


def _nodes_of(nodes: int, gpus_per_node: int) -> str:
    """``2 nodes of 64 GPUs``, ``1 node of 8 GPUs``."""
    return (f"{display.fmt_count(nodes, 'node')} of "
            f"{display.fmt_count(gpus_per_node, 'GPU')}")


def nearest_published(gpu: str, n_gpus: int, max_curves: int = 2) -> list[dict]:
    """The published all-reduce series (:func:`interlib.validation.curves`) on the same GPU
    architecture whose total GPU count is closest to ``n_gpus`` (log distance).

    Args:
        gpu: GPU catalogue id.
        n_gpus: Total GPUs of the reader's cluster (>= 1).
        max_curves: How many series to return (1..4).
    """
    arch = GPUS[gpu].arch if gpu in GPUS else None
    if arch is None:
        raise ValueError(f"gpu={gpu!r} is not one of {sorted(GPUS)}")
    n = int(n_gpus)
    if n < 1:
        raise ValueError(f"n_gpus={n_gpus!r} is out of range: must be >= 1")
    if not 1 <= int(max_curves) <= 4:
        raise ValueError(f"max_curves={max_curves!r} is out of range: 1..4")
    rows = [r for r in validation.load_measurements()
            if r.collective == "all_reduce" and GPUS[r.gpu].arch == arch]
    curves = validation.curves(rows) if rows else []
    curves.sort(key=lambda c: (abs(np.log(c["gpus_per_node"] * c["nodes"] / n)),
                               -len(c["size"])))
    return curves[:max_curves]


def your_cluster(gpu: str = "h100-sxm", gpus_per_node: int = 8, intra: str = "nvswitch",
                 nodes: int = 16, nics_per_gpu: float = 1.0, nic_gbps: float = 400.0,
                 fabric: str = "InfiniBand"):
    """Predicted all-reduce busbw against message size on your cluster (NCCL's own choice
    of algorithm, and the best forced one), with the nearest published measurements on the
    same GPU generation as markers. A node that cannot be built says why instead."""
    fig, ax = new_figure(figsize=(8.6, 4.6))
    fig.subplots_adjust(left=0.09, right=0.98, top=0.86, bottom=0.13)
    ax.set_xscale("log", base=2)
    binary_size_axis(ax, "x")
    ax.set_xlim(SIZES[0], SIZES[-1])
    ax.set_ylim(0, YMAX)
    ax.set_ylabel("all-reduce busbw, GB/s per GPU (per direction)")
    ax.set_xlabel("message size (nccl-tests size)")
    node = build(gpu, gpus_per_node, intra, nodes, nics_per_gpu, nic_gbps, fabric)
    if isinstance(node, ValueError):
        ax.set_title("This node cannot be built", fontsize=11)
        ax.text(0.5, 0.5, str(node), transform=ax.transAxes, ha="center", va="center",
                wrap=True, fontsize=10, color=COLORS["vermillion"])
        return fig
    auto = collectives.predict("all_reduce", SIZES, node, gpus_per_node, nodes)
    best = collectives.predict("all_reduce", SIZES, node, gpus_per_node, nodes, "fastest")
    ax.plot(SIZES, auto.busbw / GB_per_s, color=COLORS["blue"], linewidth=2.0,
            label="model: NCCL's own choice (auto)")
    ax.plot(SIZES, best.busbw / GB_per_s, color=COLORS["blue"], linewidth=1.2,
            linestyle="--", label="model: best forced algorithm")
    for c, m, col in zip(nearest_published(gpu, gpus_per_node * nodes), ("o", "s"),
                         (COLORS["vermillion"], COLORS["green"])):
        g, k = c["gpus_per_node"], c["nodes"]
        ax.plot(c["size"], c["busbw"] / GB_per_s, m, color=col, markerfacecolor="white",
                label=f"published {validation.id_runs(c['ids'])}: {_nodes_of(k, g)}, "
                      f"{system_title(c['system'])} ({c['algorithm']})")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.set_title(f"{node.title}; {nodes} node{'s' if nodes > 1 else ''}, "
                 f"{gpus_per_node * nodes:,} GPUs", fontsize=10)
    return fig


def your_cluster_summary(gpu: str = "h100-sxm", gpus_per_node: int = 8,
                         intra: str = "nvswitch", nodes: int = 16, nics_per_gpu: float = 1.0,
                         nic_gbps: float = 400.0, fabric: str = "InfiniBand") -> str:
    """The numbers :func:`your_cluster` draws: busbw at 1 MiB, 64 MiB and 8 GiB, the
    algorithm NCCL would pick, and the nearest published series."""
    node = build(gpu, gpus_per_node, intra, nodes, nics_per_gpu, nic_gbps, fabric)
    if isinstance(node, ValueError):
        return f"This node cannot be built: {node}"
    sizes = np.array([2.0**20, 2.0**26, 2.0**33])
    p = collectives.predict("all_reduce", sizes, node, gpus_per_node, nodes)
    parts = ", ".join(f"{display.fmt_bytes(s, binary=True)} {display.fmt_rate(b)} "
                      f"({a}/{pr})" for s, b, a, pr in zip(sizes, p.busbw, p.algorithm,
                                                          p.protocol))
    near = "; ".join(f"{validation.id_runs(c['ids'])} ({_nodes_of(c['nodes'], c['gpus_per_node'])}"
                     f", {system_title(c['system'])})" for c in nearest_published(
                         gpu, gpus_per_node * nodes))
    return (f"{node.title}, {display.fmt_count(nodes, 'node')}, {gpus_per_node * nodes:,} GPUs. "
            f"Predicted "
            f"busbw: {parts}. Nearest published: {near or 'none on this GPU generation'}")
