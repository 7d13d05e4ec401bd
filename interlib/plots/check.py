"""'Check your cluster': a reader's nccl-tests run against the model and published runs."""

from __future__ import annotations

import numpy as np

from .. import intervals, nccltests
from ..display import fmt_bytes
from . import COLORS, new_figure, si_axis

_PUBLISHED = (COLORS["grey"], COLORS["sky"], COLORS["purple"])


def comparison(cmp_):
    """Measured busbw against size (points) over the model's prediction (line) and its band
    (shaded), with the nearest published runs (thin lines) and the size regimes marked.

    Args:
        cmp_: A :class:`interlib.nccltests.Comparison` (from ``nccltests.compare``).

    Returns:
        A matplotlib Figure. Its axes carry no host name or address from the log.
    """
    from .. import _validate as v

    v.instance("cmp_", cmp_, nccltests.Comparison, "a Comparison from nccltests.compare")
    fig, ax = new_figure()
    fig.subplots_adjust(right=0.72)
    S = np.asarray(cmp_.sizes, dtype=float)
    ax.fill_between(S, cmp_.low, cmp_.high, color=COLORS["blue"], alpha=0.15, linewidth=0,
                    label="expected band")
    ax.plot(S, cmp_.predicted, color=COLORS["blue"], linewidth=1.8, label="model")
    from ..specs import GPUS

    for color, p in zip(_PUBLISHED, cmp_.published):
        gpu = GPUS[p.gpu].name if p.gpu in GPUS else p.gpu
        ax.plot(p.sizes, p.busbw, color=color, linewidth=1.0, marker=".", markersize=4,
                label=f"{p.series}: {p.gpus_per_node * p.nodes} x {gpu}")
    below = np.array([x.status for x in _status_by_size(cmp_)]) == "below"
    ax.plot(S, cmp_.measured, "o", color=COLORS["vermillion"], markersize=4,
            label="your run")
    if np.any(below):
        ax.plot(S[below], cmp_.measured[below], "o", markerfacecolor="none",
                markeredgecolor=COLORS["black"], markersize=8, label="below the band")
    for r in intervals.REGIMES[1:]:
        lo = r[1]
        if S.min() < lo < S.max():
            ax.axvline(lo, color=COLORS["grey"], linewidth=0.8, linestyle=":")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    _axes_ticks(ax, S)
    si_axis(ax, "y", "B/s")
    shown = [b for p in cmp_.published for x, b in zip(p.sizes, p.busbw)
             if S.min() <= x <= S.max()]
    top = max(np.max(cmp_.high), np.max(cmp_.measured), *shown)
    floor = np.min(cmp_.measured[cmp_.measured > 0]) if np.any(cmp_.measured > 0) else top
    ax.set_ylim(max(floor / 2, top * 1e-7), top * 1.5)
    ax.set_xlabel("message size (nccl-tests)")
    ax.set_ylabel("bus bandwidth")
    n = cmp_.gpus_per_node * cmp_.nodes
    ax.set_title(f"{cmp_.collective} on {n} GPUs: your run against the model\n"
                 f"({cmp_.system})", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


def _axes_ticks(ax, sizes):
    """Few, fixed ticks (a size every 2^5, no minor ticks): matplotlib's log locators make
    over a hundred tick objects per draw, most of the frame's time in the browser."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    lo, hi = np.log2(np.min(sizes)), np.log2(np.max(sizes))
    ax.xaxis.set_major_locator(FixedLocator(2.0 ** np.arange(5 * np.floor(lo / 5),
                                                             hi + 1, 5)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_bytes(x, binary=True)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_minor_locator(NullLocator())


def _status_by_size(cmp_):
    """The regime verdict of each size (for marking the points below)."""
    by = {x.regime: x for x in cmp_.verdicts}
    return [by[str(r)] for r in intervals.regime_names(np.asarray(cmp_.sizes, dtype=float))]


def alt_text(cmp_) -> str:
    """What :func:`comparison` shows, in words (the verdict per regime)."""
    parts = [f"{x.regime}: {x.text}" for x in cmp_.verdicts]
    return (f"Bus bandwidth against message size, {fmt_bytes(cmp_.sizes[0], binary=True)} to "
            f"{fmt_bytes(cmp_.sizes[-1], binary=True)}, of the reader's {cmp_.collective} run "
            f"over the model's prediction and band for {cmp_.system}; " + "; ".join(parts))


def message(text: str, read: bool = False):
    """A figure that says why there is no comparison: a log that could not be read, or
    (``read=True``) one read exactly that the book does not model."""
    from .. import _validate as v

    v.instance("text", text, str, "a string")
    v.flag("read", read)
    fig, ax = new_figure()
    ax.set_axis_off()
    lead = "Read, not compared: " if read else "No comparison: "
    ax.text(0.02, 0.6, lead + text, wrap=True, fontsize=9 if len(text) > 400 else 10,
            va="center", ha="left", transform=ax.transAxes)
    ax.set_title("Check your cluster: read, but not modelled" if read else
                 "Check your cluster: the log could not be read", fontsize=10)
    return fig
