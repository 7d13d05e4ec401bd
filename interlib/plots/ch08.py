"""Chapter 8 figures: scaling efficiency, the cost of waiting, the capstone design."""

from __future__ import annotations

import numpy as np

from matplotlib.ticker import FuncFormatter, NullFormatter

from .. import capstone, cost, display, scaling, steptime
from ..units import day
from . import COLORS, new_figure, si_axis

_FABRIC_COLORS = {"NVLink + NDR InfiniBand": COLORS["blue"],
                  "PCIe + 100 GbE": COLORS["vermillion"]}
GPU_COUNTS = 8 * 2 ** np.arange(0, 12)
"""8 .. 16,384 GPUs (multiples of TP 8)."""


def scaling_efficiency(model: str = "llama-3-70b", mfu: float = 0.4, overlap: float = 0.8):
    """compute / step time vs GPU count for the two fabrics (weak scaling, TP 8 x DP)."""
    fig, ax = new_figure()
    for fab, col in _FABRIC_COLORS.items():
        eff = steptime.scaling_efficiency(fab, model, GPU_COUNTS, tp=8, pp=1, mfu=mfu,
                                          overlap=overlap)
        ax.plot(GPU_COUNTS, eff, "o-", color=col, lw=2, ms=4, label=fab)
        for n in cost.SCALES:
            e = eff[list(GPU_COUNTS).index(n)]
            ax.annotate(display.fmt_pct(e), (n, e), textcoords="offset points",
                        xytext=(0, 8), ha="center", fontsize=8, color=col)
    ax.set_xscale("log", base=2)
    ax.set_xlim(6, 2.2e4)
    ax.set_ylim(0, 1.05)
    ticks = GPU_COUNTS[::2]
    ax.set_xticks(ticks, [f"{n:,}" for n in ticks])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("GPUs (TP 8 inside each server, data parallel across servers)")
    ax.set_ylabel("efficiency = compute / step time")
    ax.set_title(f"{scaling.model(model).name}: scaling efficiency, MFU {display.fmt_pct(mfu)}, overlap "
                 f"{display.fmt_pct(overlap)}", fontsize=10)
    ax.legend(fontsize=8, loc="lower left", frameon=False)
    return fig


def idle_cost(price_per_gpu_hour: float = cost.DEFAULT_PRICE_PER_GPU_HOUR,
              days: float = 30.0, mfu: float = 0.4, overlap: float = 0.8):
    """Dollars lost to exposed communication over ``days`` at 8, 1K and 16K GPUs for the
    two fabrics (log scale)."""
    fig, ax = new_figure()
    width = 0.38
    x = np.arange(len(cost.SCALES))
    for i, (fab, col) in enumerate(_FABRIC_COLORS.items()):
        rows = cost.communication_cost(fab, cost.SCALES, mfu=mfu, overlap=overlap,
                                       period_s=days * day,
                                       price_per_gpu_hour=price_per_gpu_hour)
        vals = np.array([max(r[2].dollars_lost, 1.0) for r in rows])
        ax.bar(x + (i - 0.5) * width, vals, width, color=col, label=fab)
        for xi, val in zip(x, vals):
            ax.text(xi + (i - 0.5) * width, val * 1.15, _dollars(val), ha="center",
                    fontsize=8)
    ax.set_xticks(x, [f"{n:,} GPUs" for n in cost.SCALES])
    ax.set_yscale("log")
    ax.set_ylim(1, 1e10)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: _dollars(y)))
    ax.set_ylabel("dollars lost to waiting (log)")
    ax.set_title(f"Cost of communication over {days:g} days at ${price_per_gpu_hour:.2f} "
                 "per GPU-hour (your assumption)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    return fig


def _dollars(x: float) -> str:
    """``$2.05k``, ``$17.2M``."""
    return "$" + display.fmt_si(x, "").replace(" ", "")


_PARTS = (("compute", COLORS["green"]), ("bubble", COLORS["grey"]),
          ("TP", COLORS["blue"]), ("PP", COLORS["sky"]), ("DP", COLORS["purple"]))


def capstone_design(**params):
    """The capstone's step-time breakdown (stacked bar; the hatched part is hidden by
    overlap) and the network it needs. Parameters: :func:`interlib.capstone.design`."""
    fig, ax = new_figure(figsize=(7.5, 3.4))
    fig.subplots_adjust(left=0.05, right=0.97, top=0.9, bottom=0.33)
    try:
        d = capstone.design(**params)
    except ValueError as e:
        ax.axis("off")
        ax.text(0.5, 0.5, f"Not a valid design:\n{e}", ha="center", va="center", fontsize=9,
                wrap=True, transform=ax.transAxes)
        return fig
    s = d.step
    left = 0.0
    for name, col in _PARTS:
        val = {"compute": s.compute, "bubble": s.bubble, "TP": s.tp, "PP": s.pp,
               "DP": s.dp}[name]
        ax.barh(0, val, left=left, color=col, label=name, height=0.5)
        left += val
    ax.barh(0, s.hidden, left=left - s.hidden, color="white", alpha=0.6, hatch="//",
            height=0.5, label="hidden by overlap")
    ax.axvline(s.step, color="black", lw=1.5)
    ax.set_yticks([])
    ax.set_ylim(-0.4, 1.0)
    ax.set_xlim(0, max(left, 1e-3) * 1.05)
    si_axis(ax, "x", "s")
    ax.set_xlabel("time per training step")
    ax.legend(fontsize=8, ncol=6, loc="upper center", frameon=False)
    t = d.tree
    ax.set_title(f"{d.n_gpus:,} GPUs: step {display.fmt_time(s.step)}, efficiency "
                 f"{display.fmt_pct(s.efficiency)} (the black line ends the step)", fontsize=10)
    fig.text(0.05, 0.03,
             f"Network: {t.switches:,} switches {t.switches_per_tier}, {t.cables:,} cables, "
             f"{t.tiers} tiers, bisection {display.fmt_rate(t.bisection_per_direction)} per "
             f"direction\nLost to waiting: {d.idle.gpu_hours_lost:,.0f} GPU-hours = "
             f"${d.idle.dollars_lost:,.0f} per {display.fmt_time(d.period_s)}; "
             f"interruption every {display.fmt_time(d.mtbi_s)} on average", fontsize=8)
    return fig
