"""Appendix A figures: the collective model against published measurements."""

from __future__ import annotations

import numpy as np

from .. import collectives, validation
from ..units import GiB
from . import COLORS, CYCLE, binary_size_axis, new_figure, si_axis

SIZES = 2.0 ** np.arange(10, 35)
"""Sizes the model curves are drawn at: 1 KiB to 16 GiB, powers of two (as nccl-tests)."""

_SYSTEM_ORDER = ("dgx-h100", "dgx-a100", "gb200-nvl72")
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


def validation_curves(rows=None):
    """Measured busbw (markers: filled = calibration, open = holdout) and the model's
    prediction for the same configuration (line), 1 KiB to 16 GiB, one panel per system.
    The bottom row shows each point's error, predicted / measured - 1."""
    curves = validation.curves(rows)
    systems = _systems(curves)
    fig, axes = new_figure(2, len(systems), figsize=(11.5, 7.0), squeeze=False,
                           gridspec_kw={"height_ratios": [2.2, 1]})
    fig.subplots_adjust(left=0.07, right=0.99, top=0.93, bottom=0.09, wspace=0.22,
                        hspace=0.12)
    for j, sysid in enumerate(systems):
        ax, ex = axes[0, j], axes[1, j]
        for i, c in enumerate([c for c in curves if c["system"] == sysid]):
            color = CYCLE[i % len(CYCLE)]
            marker = _MARKERS[(i // len(CYCLE)) % len(_MARKERS)]  # colours repeat: shapes don't
            pred = collectives.predict(c["collective"], SIZES, sysid, c["gpus_per_node"],
                                       c["nodes"], c["algorithm"]).busbw
            ax.plot(SIZES, pred, color=color, linewidth=1.6)
            at = collectives.predict(c["collective"], c["size"], sysid, c["gpus_per_node"],
                                     c["nodes"], c["algorithm"]).busbw
            face = color if c["role"] == "calibration" else "white"
            ax.plot(c["size"], c["busbw"], marker, color=color, markerfacecolor=face,
                    markersize=5.5, label=_label(c))
            ex.plot(c["size"], 100 * (at / c["busbw"] - 1), marker, color=color,
                    markerfacecolor=face, markersize=5)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlim(SIZES[0] / 1.5, SIZES[-1] * 1.5)
        ax.set_ylim(3e7, 2e12)
        _size_ticks(ax)
        ax.tick_params(labelbottom=False)
        si_axis(ax, "y", "B/s")
        ax.set_title(sysid, fontsize=10)
        ax.legend(fontsize=7, loc="lower right", frameon=False)
        ex.axhspan(-10, 10, color=COLORS["grey"], alpha=0.2, linewidth=0)
        ex.axhline(0, color=COLORS["black"], linewidth=0.8)
        ex.set_xscale("log", base=2)
        ex.set_xlim(ax.get_xlim())
        ex.set_ylim(-60, 60)
        _size_ticks(ex)
        ex.set_xlabel("message size (nccl-tests size)")
        if j == 0:
            ax.set_ylabel("busbw, per direction")
            ex.set_ylabel("error, %")
    fig.suptitle("Model (lines) vs published all-reduce / all-gather busbw (markers: filled "
                 "= calibration, open = holdout; grey band = ±10 %)", fontsize=10)
    return fig


def error_by_size(results=None):
    """Every point's error (predicted / measured - 1) against message size, with the size
    regimes of :data:`interlib.validation.REGIMES` shaded."""
    results = validation._results(results)
    fig, ax = new_figure(figsize=(7.5, 4.2))
    shades = (COLORS["sky"], None, COLORS["orange"])
    for (name, lo, hi), shade in zip(validation.REGIMES, shades):
        lo_p, hi_p = max(lo, 512.0), min(hi, 64 * GiB)
        if shade:
            ax.axvspan(lo_p, hi_p, color=shade, alpha=0.12, linewidth=0)
        ax.text(np.sqrt(lo_p * hi_p), 55, name, ha="center", fontsize=8)
    for role, marker, color in (("calibration", "o", COLORS["blue"]),
                                ("holdout", "D", COLORS["vermillion"])):
        pts = [r for r in results if r.measurement.role == role]
        ax.plot([r.measurement.size_bytes for r in pts], [100 * (r.ratio - 1) for r in pts],
                marker, color=color, markersize=5.5, linestyle="none", label=role)
    ax.axhline(0, color=COLORS["black"], linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlim(512, 32 * GiB)
    binary_size_axis(ax)
    ax.set_ylim(-60, 65)
    ax.set_xlabel("message size")
    ax.set_ylabel("predicted / measured - 1, %")
    ax.set_title("Error of every published point, by size regime", fontsize=10)
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    return fig
