"""Chapter 7 figures: the bandwidth ladder and a 3D-parallel layout on it."""

from __future__ import annotations

from .. import display, hierarchy, steptime
from . import COLORS, new_figure, si_axis

_RUNG_COLORS = {"HBM": COLORS["grey"], "NVLink": COLORS["blue"], "PCIe": COLORS["orange"],
                "Scale-out NIC": COLORS["purple"], "Spine": COLORS["vermillion"],
                "none": COLORS["grey"]}


def ladder(generation: str = "H100", oversubscription: float = 1.0):
    """The ladder of one GPU generation on a log scale: line rate (light bar) and achieved
    (dark bar) per GPU, with the ratio to the next rung; dots mark the same rung in the
    other generations."""
    rungs = hierarchy.ladder(generation, oversubscription)
    fig, ax = new_figure(figsize=(7.5, 4.2))
    fig.subplots_adjust(left=0.2, right=0.96)
    names = list(hierarchy.RUNG_NAMES)
    y = {n: i for i, n in enumerate(reversed(names))}
    for gen, marker in (("A100", "s"), ("H100", "o"), ("B200", "^")):
        if gen == generation:
            continue
        for r in hierarchy.ladder(gen, oversubscription):
            ax.plot([r.peak], [y[r.name]], marker, color=COLORS["black"], ms=5, alpha=0.45,
                    label=f"{gen} line rate" if r.name == "HBM" else None)
    for r in rungs:
        col = _RUNG_COLORS[r.name]
        ax.barh(y[r.name], r.peak, color=col, alpha=0.35, height=0.6)
        ax.barh(y[r.name], r.effective, color=col, height=0.35)
        ax.text(r.peak * 1.15, y[r.name] + 0.12, display.fmt_rate(r.peak), va="center",
                fontsize=9, fontweight="bold")
    for upper, lower, pr, _ in hierarchy.rung_ratios(generation, oversubscription):
        ax.annotate(f"{display.fmt_ratio(pr)}", (2e9, (y[upper] + y[lower]) / 2),
                    fontsize=8, color=COLORS["black"], va="center")
    ax.set_yticks(list(y.values()), [("HBM (read + write)" if n == "HBM" else n)
                                     for n in y])
    ax.set_xscale("log")
    ax.set_xlim(1.5e9, 3e13)
    ax.set_ylim(-0.6, len(names) - 0.4)
    si_axis(ax, "x", "B/s")
    ax.set_xlabel("bandwidth per GPU (links: per direction; log scale)")
    ax.set_title(f"{generation}: the bandwidth ladder (light: line rate, dark: achieved; "
                 f"spine {oversubscription:g}:1)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    return fig


def layout(tp: int = 8, pp: int = 4, dp: int = 8, model: str = "llama-3-70b",
           oversubscription: float = 1.0, system: str = "dgx-h100"):
    """Time per step of TP, PP and DP traffic for a 3D layout, coloured by the rung each
    crosses; the slowest is outlined. Bytes per GPU per step are annotated."""
    lay = steptime.layout_traffic(system, model, tp, pp, dp,
                                  oversubscription=oversubscription)
    fig, ax = new_figure(figsize=(7.5, 3.6))
    fig.subplots_adjust(left=0.2, right=0.8)
    bn = lay.bottleneck
    for i, ph in enumerate(lay.phases):
        if ph.time_s > 0:
            ax.barh(i, ph.time_s, color=_RUNG_COLORS[ph.rung], height=0.6,
                    edgecolor="black" if ph is bn else "none", linewidth=2)
            label = (f"{display.fmt_time(ph.time_s)} over {ph.rung}\n"
                     f"{display.fmt_bytes(ph.bytes)} per GPU")
        else:
            label = "no traffic (degree 1)"
        ax.text(max(ph.time_s, 1e-4) * 1.1, i, label, va="center", fontsize=8)
    ax.set_yticks(range(3), ["tensor (TP)", "pipeline (PP)", "data (DP)"])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(1e-4, 1e2)
    si_axis(ax, "x", "s")
    ax.set_xlabel("communication time per training step (log scale)")
    ax.set_title(f"{lay.n_gpus:,} GPUs on {lay.nodes:,} nodes: TP {tp} × PP {pp} × DP {dp}"
                 f" (outlined: slowest)", fontsize=10)
    return fig

