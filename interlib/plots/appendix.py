"""Appendix A figures: the collective model against published measurements."""

from __future__ import annotations

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


def validation_curves(rows=None):
    """Measured busbw (markers: filled = calibration, open = holdout) and the model's
    prediction for the same configuration (line), 1 KiB to 16 GiB, one panel per system.
    The bottom row shows each point's error, predicted / measured - 1."""
    curves = validation.curves(rows)
    systems = _systems(curves)
    fig, axes = new_figure(2, len(systems), figsize=(2.7 * len(systems) + 1.0, 7.0),
                           squeeze=False,
                           gridspec_kw={"height_ratios": [2.2, 1]})
    fig.subplots_adjust(left=0.07, right=0.99, top=0.89, bottom=0.09, wspace=0.22,
                        hspace=0.12)
    for j, sysid in enumerate(systems):
        ax, ex = axes[0, j], axes[1, j]
        for i, c in enumerate([c for c in curves if c["system"] == sysid]):
            color = CYCLE[i % len(CYCLE)]
            marker = _MARKERS[(i // len(CYCLE)) % len(_MARKERS)]  # colours repeat: shapes don't
            pred = collectives.predict(c["collective"], SIZES, c["node"], c["gpus_per_node"],
                                       c["nodes"], c["algorithm"]).busbw
            ax.plot(SIZES, pred, color=color, linewidth=1.6)
            at = collectives.predict(c["collective"], c["size"], c["node"],
                                     c["gpus_per_node"], c["nodes"], c["algorithm"]).busbw
            face = color if c["role"] == "calibration" else "white"
            ax.plot(c["size"], c["busbw"], marker, color=color, markerfacecolor=face,
                    markersize=5.5, label=_label(c))
            ex.plot(c["size"], np.clip(100 * (at / c["busbw"] - 1), -95, 95), marker,
                    color=color, markerfacecolor=face, markersize=5)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlim(SIZES[0] / 1.5, SIZES[-1] * 1.5)
        ax.set_ylim(3e7, 2e12)
        _size_ticks(ax)
        ax.tick_params(labelbottom=False)
        si_axis(ax, "y", "B/s")
        n_series = sum(1 for c in curves if c["system"] == sysid)
        ax.set_title(f"{sysid} ({n_series} series)", fontsize=10)
        ex.axhspan(-10, 10, color=COLORS["grey"], alpha=0.2, linewidth=0)
        ex.axhline(0, color=COLORS["black"], linewidth=0.8)
        ex.set_xscale("log", base=2)
        ex.set_xlim(ax.get_xlim())
        ex.set_ylim(-100, 100)
        _size_ticks(ex)
        ex.set_xlabel("message size (nccl-tests size)")
        if j == 0:
            ax.set_ylabel("busbw, per direction")
            ex.set_ylabel("error, %")
    fig.suptitle("Model (lines) vs published all-reduce / all-gather busbw (markers: filled "
                 "= calibration, open = holdout; grey band = ±10 %; each series is listed, "
                 "with its ids, in the table of points)", fontsize=10)
    return fig


def error_by_size(results=None):
    """Every point's error (predicted / measured - 1) against message size, with the size
    regimes of :data:`interlib.validation.REGIMES` shaded (filled: calibration, open:
    holdout; errors above :data:`CLIP_PCT` drawn at that line)."""
    results = validation._results(results)
    fig, ax = new_figure(figsize=(7.5, 4.2))
    shades = (COLORS["sky"], None, COLORS["orange"])
    for (name, lo, hi), shade in zip(validation.REGIMES, shades):
        lo_p, hi_p = max(lo, 512.0), min(hi, 64 * GiB)
        if shade:
            ax.axvspan(lo_p, hi_p, color=shade, alpha=0.12, linewidth=0)
        ax.text(np.sqrt(lo_p * hi_p), -92, name, ha="center", fontsize=8)
    for role, marker, color in (("calibration", "o", COLORS["blue"]),
                                ("holdout", "D", COLORS["vermillion"])):
        pts = [r for r in results if r.measurement.role == role]
        ax.plot([r.measurement.size_bytes for r in pts],
                [min(100 * (r.ratio - 1), CLIP_PCT) for r in pts],
                marker, color=color, markersize=5.5, linestyle="none", label=role,
                markerfacecolor=color if role == "calibration" else "white")
    ax.axhline(0, color=COLORS["black"], linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlim(512, 32 * GiB)
    binary_size_axis(ax)
    ax.axhline(CLIP_PCT, color=COLORS["grey"], linewidth=0.8, linestyle=":")
    ax.text(600, CLIP_PCT - 12, f"points above +{CLIP_PCT:g} % drawn at the line",
            fontsize=7)
    ax.set_ylim(-100, CLIP_PCT + 15)
    ax.set_xlabel("message size")
    ax.set_ylabel("predicted / measured - 1, %")
    ax.set_title("Error of every published point, by size regime", fontsize=10)
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    return fig


def busbw_vs_gpus(size_gib: float = 8.0, rows=None):
    """Predicted all-reduce busbw against total GPU count (8 to 1,440; NCCL's own choice of
    algorithm) for DGX H100 nodes and GB200 NVL72 racks at ``size_gib`` GiB, with every
    published all-reduce point of 1 GiB or more (filled: calibration, open: holdout;
    labels: row ids)."""
    from .. import _validate as v

    v.number("size_gib", size_gib, lo=1.0, hi=16.0)
    fig, ax = new_figure(figsize=(9.0, 5.0))
    fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.12)
    sweep = validation.gpu_count_sweep(size_gib * GiB)
    for (label, (n, bb)), color in zip(sweep.items(), (COLORS["blue"], COLORS["green"])):
        ax.plot(n, bb / 1e9, "-", color=color, linewidth=1.8,
                label=f"model, {label}, {size_gib:g} GiB")
    pts = validation.published_at_scale(1 * GiB, rows)
    for p in pts:
        color = COLORS["green"] if p["system"] == "gb200-nvl72" else \
            COLORS["blue"] if p["system"] in ("dgx-h100", "hgx-h200") else COLORS["orange"]
        face = color if p["role"] == "calibration" else "white"
        ax.plot(p["gpus"], p["busbw"] / 1e9, "o", color=color, markerfacecolor=face,
                markersize=5)
    # one label per (source, GPU count): the largest size's point
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
    ax.plot([], [], "o", color=COLORS["grey"], label="published, filled = calibration, "
            "open = holdout (1 GiB and more)")
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    ax.set_title("All-reduce busbw from one node to 1,440 GPUs: model and published runs",
                 fontsize=10)
    return fig
