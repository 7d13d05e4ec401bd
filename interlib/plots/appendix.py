"""Appendix A figures: the collective model against published measurements."""

from __future__ import annotations

import functools

import numpy as np

from .. import collectives, validation
from ..units import GiB
from . import COLORS, CYCLE, binary_size_axis, new_figure, si_axis

SIZES = 2.0 ** np.arange(10, 35)
"""Sizes the model curves are drawn at: 1 KiB to 16 GiB, powers of two (as nccl-tests)."""

_SYSTEM_ORDER = ("dgx-h100", "hgx-h200", "dgx-a100", "dgx-b200", "gb200-nvl72")
CLIP_PCT = 200.0
"""Errors above this (per cent) are drawn at it, so a few wild small-message points do not
squash the rest."""
_MARKERS = ("o", "s", "^")


def _systems(curves):
    present = {c["system"] for c in curves}
    return [s for s in _SYSTEM_ORDER if s in present] + sorted(present - set(_SYSTEM_ORDER))


def _label(c) -> str:
    gpus = f"{c['gpus_per_node']} GPUs" if c["nodes"] == 1 else \
        f"{c['nodes']} nodes x {c['gpus_per_node']} GPUs"
    return f"{gpus}, {c['collective']} ({c['algorithm']}) [{validation.id_runs(c['ids'])}]"


def _size_ticks(ax):
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    from ..display import fmt_bytes

    ax.xaxis.set_major_locator(FixedLocator(2.0 ** np.array([10, 15, 20, 25, 30, 34])))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_bytes(x, binary=True)))


def error_by_size(results=None):
    """Every point's error (predicted / measured - 1) against message size, with the size
    regimes of :data:`interlib.validation.REGIMES` shaded, one marker per GPU-count bucket
    (errors above :data:`CLIP_PCT` drawn at that line). Pass cross-validated results
    (:func:`interlib.crossval.cross_validate`) to draw out-of-sample errors."""
    results = validation._results(results)
    fig, ax = new_figure(figsize=(7.5, 4.2))
    shades = (COLORS["sky"], None, COLORS["orange"])
    for (name, lo, hi), shade in zip(validation.REGIMES, shades):
        lo_p, hi_p = max(lo, 4.0), min(hi, 64 * GiB)
        if shade:
            ax.axvspan(lo_p, hi_p, color=shade, alpha=0.12, linewidth=0)
        ax.text(np.sqrt(lo_p * hi_p), -92, name, ha="center", fontsize=8)
    for (bucket, lo, hi), marker, color in zip(
            validation.SCALES, ("o", "s", "D", "^"),
            (COLORS["blue"], COLORS["green"], COLORS["vermillion"], COLORS["black"])):
        pts = [r for r in results if lo <= r.measurement.total_gpus <= hi]
        if not pts:
            continue
        ax.plot([r.measurement.size_bytes for r in pts],
                [min(100 * (r.ratio - 1), CLIP_PCT) for r in pts],
                marker, color=color, markersize=4.5, linestyle="none",
                label=f"{bucket} GPUs", markerfacecolor="white")
    ax.axhline(0, color=COLORS["black"], linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlim(4, 64 * GiB)
    binary_size_axis(ax)
    ax.axhline(CLIP_PCT, color=COLORS["grey"], linewidth=0.8, linestyle=":")
    ax.text(6, CLIP_PCT - 12, f"points above +{CLIP_PCT:g} % drawn at the line",
            fontsize=7)
    ax.set_ylim(-100, CLIP_PCT + 15)
    ax.set_xlabel("message size")
    ax.set_ylabel("predicted / measured - 1, %")
    ax.set_title("Error of every published point, by size regime", fontsize=10)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    return fig


def busbw_vs_gpus(size_gib: float = 8.0, rows=None):
    """Predicted all-reduce busbw against total GPU count (8 to 1,440; NCCL's own choice of
    algorithm) for DGX H100 nodes and GB200 NVL72 racks at ``size_gib`` GiB, with its 80 %
    prediction interval (shaded; :attr:`interlib.collectives.Prediction.busbw_low`) and
    every published all-reduce point of 1 GiB or more (labels: series)."""
    from .. import _validate as v

    v.number("size_gib", size_gib, lo=1.0, hi=16.0)
    fig, ax = new_figure(figsize=(9.0, 5.0))
    fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.12)
    sweep = validation.gpu_count_sweep(size_gib * GiB)
    for (label, (n, bb, lo, hi)), color in zip(sweep.items(), (COLORS["blue"], COLORS["green"])):
        ax.fill_between(n, lo / 1e9, hi / 1e9, color=color, alpha=0.15, linewidth=0)
        ax.plot(n, bb / 1e9, "-", color=color, linewidth=1.8,
                label=f"model, {label}, {size_gib:g} GiB (band: 80 % interval)")
    pts = validation.published_at_scale(1 * GiB, rows)
    for p in pts:
        color = COLORS["green"] if p["system"] == "gb200-nvl72" else \
            COLORS["blue"] if p["system"] in ("dgx-h100", "hgx-h200") else COLORS["orange"]
        ax.plot(p["gpus"], p["busbw"] / 1e9, "o", color=color, markerfacecolor="white",
                markersize=5)
    # one label per (series, GPU count): the largest size's point
    seen = {}
    for p in pts:
        key = (p["id"].split("-")[0], p["gpus"])
        if key not in seen or p["size"] > seen[key]["size"]:
            seen[key] = p
    for p in seen.values():
        ax.annotate(p["id"].split("-")[0], (p["gpus"], p["busbw"] / 1e9), fontsize=6.5,
                    xytext=(4, 2), textcoords="offset points", color=COLORS["black"])
    ax.set_xscale("log", base=2)
    ax.set_xlim(3, 2048)
    ax.set_ylim(0, 1000)
    ax.set_xlabel("GPUs taking part (total)")
    ax.set_ylabel("all-reduce busbw, GB/s per GPU")
    ax.plot([], [], "o", color=COLORS["grey"], markerfacecolor="white",
            label="published all-reduce, 1 GiB and more (blue: H100/H200, green: GB200, "
                  "orange: others)")
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    ax.set_title("All-reduce busbw from one node to 1,440 GPUs: model, its 80 % interval "
                 "and published runs", fontsize=10)
    return fig


# ------------------------------------------------------------ the "your cluster" demo
YMAX = 1000.0
"""Fixed y range of the demo, GB/s (the fastest published point, one NVL72 rack, is about
850)."""


def _node(gpu, gpus_per_node, intra, nics_per_gpu, nic_gbps, fabric):
    """The reader's node (:func:`interlib.specs.custom.node`), or the ValueError that says
    why it cannot be built."""
    from ..specs import custom

    try:
        return custom.node(gpu, gpus_per_node, nics_per_gpu=nics_per_gpu, nic_gbps=nic_gbps,
                           fabric=fabric, intra=intra, name="your-node")
    except ValueError as e:
        return e


@functools.lru_cache(maxsize=16)
def _published_all_reduce(arch: str) -> tuple:
    """The shipped all-reduce measurements (:func:`interlib.validation.load_measurements`,
    frozen rows) on GPU architecture ``arch``, read once: the your_cluster figure and its
    summary ask at every frame, and a reading costs 26 ms."""
    from ..specs import GPUS

    return tuple(r for r in validation.load_measurements()
                 if r.collective == "all_reduce" and GPUS[r.gpu].arch == arch)


def nearest_published(gpu: str, n_gpus: int, max_curves: int = 2) -> list[dict]:
    """The published all-reduce series (:func:`interlib.validation.curves`) on the same GPU
    architecture whose total GPU count is closest to ``n_gpus`` (log distance), the longest
    first among equals.

    Args:
        gpu: GPU catalogue id.
        n_gpus: Total GPUs of the reader's cluster (>= 1).
        max_curves: How many series to return (1..4).
    """
    from .. import _validate as v
    from ..specs import GPUS

    v.choice("gpu", gpu, GPUS)
    n = v.integer("n_gpus", n_gpus, lo=1)
    v.integer("max_curves", max_curves, lo=1, hi=4)
    rows = list(_published_all_reduce(GPUS[gpu].arch))
    curves = validation.curves(rows) if rows else []
    curves.sort(key=lambda c: (abs(np.log(c["gpus_per_node"] * c["nodes"] / n)),
                               -len(c["size"])))
    return curves[:max_curves]


def _run_words(c) -> str:
    """A published series in words: ids, shape and system by name, the algorithm by NCCL's
    name (``auto``: NCCL's own choice)."""
    from ..display import fmt_count
    from ..specs import SYSTEMS

    alg = {"auto": "NCCL's choice"}.get(c["algorithm"],
                                         collectives.NCCL_NAMES.get(c["algorithm"],
                                                                    c["algorithm"]))
    shape = fmt_count(c["gpus_per_node"], "GPU") if c["nodes"] == 1 else \
        f"{fmt_count(c['nodes'], 'node')} of {fmt_count(c['gpus_per_node'], 'GPU')}"
    return (f"{validation.id_runs(c['ids'])}: {shape}, {SYSTEMS[c['system']].title}, "
            f"{alg}")


def _algorithm_words(a, p) -> str:
    return f"{collectives.NCCL_NAMES.get(str(a), str(a))}/{p}"


def your_cluster(gpu: str = "h100-sxm", gpus_per_node: int = 8, intra: str = "nvswitch",
                 nodes: int = 16, nics_per_gpu: float = 1.0, nic_gbps: float = 400.0,
                 fabric: str = "InfiniBand"):
    """Predicted all-reduce busbw against message size on a cluster of your own design
    (:func:`interlib.specs.custom.node`): NCCL's own choice of algorithm with its 80 %
    range shaded (:attr:`interlib.collectives.Prediction.busbw_low`), the best forced
    algorithm, and the nearest published series on the same GPU generation as markers. A
    node that cannot be built says why instead."""
    from ..display import fmt_count
    from ..units import GB_per_s

    fig, ax = new_figure(figsize=(8.6, 4.6))
    fig.subplots_adjust(left=0.09, right=0.98, top=0.86, bottom=0.13)
    ax.set_xscale("log", base=2)
    binary_size_axis(ax, "x")
    ax.set_xlim(SIZES[0], SIZES[-1])
    ax.set_ylim(0, YMAX)
    ax.set_ylabel("all-reduce busbw, GB/s per GPU (per direction)")
    ax.set_xlabel("message size (nccl-tests size)")
    node = _node(gpu, gpus_per_node, intra, nics_per_gpu, nic_gbps, fabric)
    if isinstance(node, ValueError):
        ax.set_title("This node cannot be built", fontsize=11)
        ax.text(0.5, 0.5, str(node), transform=ax.transAxes, ha="center", va="center",
                wrap=True, fontsize=10, color=COLORS["vermillion"])
        return fig
    auto = collectives.predict("all_reduce", SIZES, node, gpus_per_node, nodes)
    best = collectives.predict("all_reduce", SIZES, node, gpus_per_node, nodes, "fastest")
    if auto.busbw_low is not None:
        ax.fill_between(SIZES, auto.busbw_low / GB_per_s,
                        np.minimum(auto.busbw_high / GB_per_s, YMAX), color=COLORS["blue"],
                        alpha=0.12, linewidth=0, label="the model's range (80 %)")
    ax.plot(SIZES, auto.busbw / GB_per_s, color=COLORS["blue"], linewidth=2.0,
            label="model: NCCL's own choice")
    ax.plot(SIZES, best.busbw / GB_per_s, color=COLORS["blue"], linewidth=1.2,
            linestyle="--", label="model: best forced algorithm")
    for c, m, col in zip(nearest_published(gpu, gpus_per_node * nodes), ("o", "s"),
                         (COLORS["vermillion"], COLORS["green"])):
        ax.plot(c["size"], c["busbw"] / GB_per_s, m, color=col, markerfacecolor="white",
                label=f"published {_run_words(c)}")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.set_title(f"{node.title}; {fmt_count(nodes, 'node')}, "
                 f"{fmt_count(gpus_per_node * nodes, 'GPU')}", fontsize=10)
    return fig


def your_cluster_summary(gpu: str = "h100-sxm", gpus_per_node: int = 8,
                         intra: str = "nvswitch", nodes: int = 16, nics_per_gpu: float = 1.0,
                         nic_gbps: float = 400.0, fabric: str = "InfiniBand") -> str:
    """The numbers :func:`your_cluster` draws: busbw at 1 MiB, 64 MiB and 8 GiB with its
    range, the algorithm NCCL would pick, and the nearest published series."""
    from .. import display
    from ..display import fmt_count

    node = _node(gpu, gpus_per_node, intra, nics_per_gpu, nic_gbps, fabric)
    if isinstance(node, ValueError):
        return f"This node cannot be built: {node}"
    sizes = np.array([2.0**20, 2.0**26, 2.0**33])
    p = collectives.predict("all_reduce", sizes, node, gpus_per_node, nodes)
    parts = []
    for i, s in enumerate(sizes):
        rng = "" if p.busbw_low is None else \
            f", range {display.fmt_rate(p.busbw_low[i])} to {display.fmt_rate(p.busbw_high[i])}"
        parts.append(f"{display.fmt_bytes(s, binary=True)} {display.fmt_rate(p.busbw[i])} "
                     f"({_algorithm_words(p.algorithm[i], p.protocol[i])}{rng})")
    near = "; ".join(_run_words(c) for c in nearest_published(gpu, gpus_per_node * nodes))
    return (f"{node.title}, {fmt_count(nodes, 'node')}, "
            f"{fmt_count(gpus_per_node * nodes, 'GPU')}. Predicted busbw: "
            f"{'; '.join(parts)}. Nearest published: {near or 'none on this GPU generation'}")
