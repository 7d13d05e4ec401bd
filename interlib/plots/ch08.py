"""Chapter 8 figures: scaling efficiency, the cost of waiting, the capstone design.

Each figure is built in two parts so that the interactive demos can update it in place:
a static skeleton (axes, fixed limits, labels, and the changing artists created empty),
then one ``_fill_<name>(fig, **params)`` that sets everything that depends on the
parameters and returns the artists it changed. The plot function calls the fill once; the
demo in :mod:`interlib.widgets.ch08` calls the same fill on every slider move.
"""

from __future__ import annotations

import functools

import numpy as np

from matplotlib.ticker import FuncFormatter, NullFormatter

from .. import _validate as v
from .. import capstone, cost, display, scaling, steptime
from ..units import day
from . import COLORS, new_figure

_FABRIC_COLORS = {"NVLink + NDR InfiniBand": COLORS["blue"],
                  "PCIe + 100 GbE": COLORS["vermillion"]}
GPU_COUNTS = 8 * 2 ** np.arange(0, 12)
"""8 .. 16,384 GPUs (multiples of TP 8)."""
_SCALE_INDEX = [list(GPU_COUNTS).index(n) for n in cost.SCALES]  # cost.SCALES in GPU_COUNTS


def _memoised(func):
    """``func`` with an LRU cache for hashable arguments (a slider revisits its values).
    Unhashable arguments bypass the cache, so ``func`` validates them as usual."""
    cached = functools.lru_cache(maxsize=512, typed=True)(func)

    @functools.wraps(func)
    def call(*args, **kw):
        try:
            hash((args, tuple(kw.items())))
        except TypeError:
            return func(*args, **kw)
        return cached(*args, **kw)

    return call


# ------------------------------------------------------------- scaling efficiency
@_memoised
def fits(model: str = "llama-3-70b", n_gpus=tuple(int(n) for n in GPU_COUNTS)) -> tuple:
    """Whether Chapter 8's sweep (TP 8, PP 1, dp = n / 8, ZeRO-1, 4,096-token sequences) fits
    in each H100's HBM at each GPU count (:func:`interlib.steptime.memory_per_gpu`; both
    fabrics have the same GPU). Weak scaling shards the optimizer state over more
    replicas, so small counts can fail where large ones fit.

    >>> fits("llama-3-70b", (8, 1024))
    (False, True)
    """
    v.choice("model", model, scaling.MODELS)
    return tuple(steptime.memory_per_gpu("dgx-h100", model, 8, 1, int(n) // 8).fits
                 for n in n_gpus)


@_memoised
def _efficiency_sweep(model, mfu, overlap):
    ok = np.array(fits(model))
    return tuple(tuple(np.where(ok, steptime.scaling_efficiency(fab, model, GPU_COUNTS, tp=8,
                                                                pp=1, mfu=mfu,
                                                                overlap=overlap), np.nan))
                 for fab in _FABRIC_COLORS)


def efficiency_sweep(model: str = "llama-3-70b", mfu: float = 0.4,
                     overlap: float = 0.8) -> dict:
    """Scaling efficiency (compute / step) at every :data:`GPU_COUNTS` for each Chapter 8
    fabric: ``{fabric: tuple}``, from :func:`interlib.steptime.scaling_efficiency` (TP 8,
    PP 1, weak scaling); NaN where the design does not fit in HBM (:func:`fits`): no
    efficiency for what cannot run. Memoised: what :func:`scaling_efficiency` draws and its
    demo summary prints, computed once per setting.

    >>> e = efficiency_sweep()
    >>> list(e) == list(steptime.FABRICS), len(e["PCIe + 100 GbE"]) == len(GPU_COUNTS)
    (True, True)
    """
    v.choice("model", model, scaling.MODELS)
    v.fraction("mfu", mfu)
    v.fraction("overlap", overlap, allow_zero=True)
    return dict(zip(_FABRIC_COLORS, _efficiency_sweep(model, mfu, overlap)))


def scaling_efficiency(model: str = "llama-3-70b", mfu: float = 0.4, overlap: float = 0.8):
    """compute / step time vs GPU count for the two fabrics (weak scaling, TP 8 x DP)."""
    fig, ax = new_figure()
    for fab, col in _FABRIC_COLORS.items():
        ax.plot(GPU_COUNTS, np.full(len(GPU_COUNTS), np.nan), "o-", color=col, lw=2, ms=4,
                label=fab)
        for n in cost.SCALES:  # value labels, placed by the fill
            ax.annotate("", (n, 0.0), textcoords="offset points", xytext=(0, 8),
                        ha="center", fontsize=8, color=col)
    ax.set_xscale("log", base=2)
    ax.set_xlim(6, 2.2e4)
    ax.set_ylim(0, 1.05)
    ticks = GPU_COUNTS[::2]
    ax.set_xticks(ticks, [f"{n:,}" for n in ticks])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("GPUs (TP 8 inside each server, data parallel across servers)")
    ax.set_ylabel("efficiency = compute / step time")
    ax.set_title(" ", fontsize=10)
    # under the curves (frameless, so it only matters where a curve crosses it): the demo
    # then redraws the curves without redrawing the legend
    ax.legend(fontsize=8, loc="lower left", frameon=False).set_zorder(1.9)
    _fill_scaling_efficiency(fig, model, mfu, overlap)
    return fig


def _fill_scaling_efficiency(fig, model, mfu, overlap):
    """Set the curves, value labels and title of a :func:`scaling_efficiency` figure;
    returns the artists it changed (always the same ones)."""
    ax = fig.axes[0]
    sweep = efficiency_sweep(model, mfu, overlap)
    notes = iter(ax.texts)
    changed = []
    for line, eff in zip(ax.lines, sweep.values()):
        line.set_ydata(eff)
        changed.append(line)
        for n, i in zip(cost.SCALES, _SCALE_INDEX):
            note = next(notes)
            ok = eff[i] == eff[i]
            note.xy = (n, eff[i] if ok else 0.03)
            note.set_text(display.fmt_pct(eff[i]) if ok else "does not fit")
            changed.append(note)
    ok = fits(model)
    bad = [int(n) for n, f in zip(GPU_COUNTS, ok) if not f]
    if not bad:
        where = ""
    elif len(bad) == len(ok):
        where = "; does not fit in 80 GB at TP 8, PP 1 on any count"
    else:
        where = f"; does not fit below {min(n for n, f in zip(GPU_COUNTS, ok) if f):,} GPUs"
    ax.set_title(f"{scaling.model(model).name}: scaling efficiency, MFU "
                 f"{display.fmt_pct(mfu)}, overlap {display.fmt_pct(overlap)}{where}",
                 fontsize=10)
    return [*changed, ax.title]


# ---------------------------------------------------------------------- idle cost
@_memoised
def _step_times(mfu, overlap):
    # communication_cost's step times do not depend on the period or the price
    return tuple(tuple((n, st) for n, st, _ in cost.communication_cost(
        fab, cost.SCALES, mfu=mfu, overlap=overlap)) for fab in _FABRIC_COLORS)


def communication_costs(price_per_gpu_hour: float = cost.DEFAULT_PRICE_PER_GPU_HOUR,
                        days: float = 30.0, mfu: float = 0.4, overlap: float = 0.8) -> dict:
    """:func:`interlib.cost.communication_cost` at :data:`interlib.cost.SCALES` for each
    Chapter 8 fabric, ``{fabric: [(n, StepTime, IdleCost), ...]}``, over ``days`` at the
    reader's price; the cost is None where the design does not fit in HBM (Llama 3 70B on
    8 GPUs at TP 8). The step times are memoised per (mfu, overlap); only the pricing
    (:func:`interlib.cost.idle_cost`) runs again when the price or the days change.

    >>> rows = communication_costs()["PCIe + 100 GbE"]
    >>> [n for n, _, _ in rows] == list(cost.SCALES)
    True
    """
    v.non_negative("price_per_gpu_hour", price_per_gpu_hour)
    v.positive("days", days)
    v.fraction("mfu", mfu)
    v.fraction("overlap", overlap, allow_zero=True)
    return {fab: [(n, st, cost.idle_cost(n, st.comm_fraction, days * day,
                                         price_per_gpu_hour) if st.fits else None)
                  for n, st in rows]
            for fab, rows in zip(_FABRIC_COLORS, _step_times(mfu, overlap))}


def idle_cost(price_per_gpu_hour: float = cost.DEFAULT_PRICE_PER_GPU_HOUR,
              days: float = 30.0, mfu: float = 0.4, overlap: float = 0.8):
    """Dollars lost to exposed communication over ``days`` at 8, 1K and 16K GPUs for the
    two fabrics (log scale)."""
    fig, ax = new_figure()
    ax.set_axisbelow(True)  # grid under the bars (the demo redraws only the bars)
    width = 0.38
    x = np.arange(len(cost.SCALES))
    for i, (fab, col) in enumerate(_FABRIC_COLORS.items()):
        ax.bar(x + (i - 0.5) * width, np.ones(len(x)), width, color=col, label=fab)
    for i in range(len(_FABRIC_COLORS)):  # value labels, placed by the fill
        for xi in x:
            ax.text(xi + (i - 0.5) * width, 1.0, "", ha="center", fontsize=8)
    ax.set_xticks(x, [f"{n:,} GPUs" for n in cost.SCALES])
    ax.set_yscale("log")
    # Fixed: from $1 to a decade above the most any setting of the demo loses (about
    # $300M: 16K GPUs on the commodity fabric, $10/GPU-hour, 90 days, MFU 0.7, no overlap).
    ax.set_ylim(1, 1e9)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: _dollars(y)))
    ax.set_ylabel("dollars lost to waiting (log)")
    ax.set_title(" ", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_idle_cost(fig, price_per_gpu_hour, days, mfu, overlap)
    return fig


def _fill_idle_cost(fig, price_per_gpu_hour, days, mfu, overlap):
    """Set the bar heights, value labels and title of an :func:`idle_cost` figure;
    returns the artists it changed (and the bottom spine, which is drawn over the bars)."""
    ax = fig.axes[0]
    rows = communication_costs(price_per_gpu_hour, days, mfu, overlap)
    vals = [max(ic.dollars_lost, 1.0) if ic is not None else None
            for fab_rows in rows.values() for _, _, ic in fab_rows]
    for bar, label, val in zip(ax.patches, ax.texts, vals):
        bar.set_height(val if val is not None else 1.0)
        label.set_y(val * 1.15 if val is not None else 1.5)
        label.set_text(_dollars(val) if val is not None else "does not\nfit in HBM")
    ax.set_title(f"Cost of communication over {display.fmt_count(days, 'day')} at "
                 f"${price_per_gpu_hour:.2f} "
                 "per GPU-hour (your assumption)", fontsize=10)
    return [*ax.patches, ax.spines["bottom"], *ax.texts, ax.title]


def _dollars(x: float) -> str:
    """``$2.05k``, ``$17.2M``."""
    return "$" + display.fmt_si(x, "").replace(" ", "")


# ----------------------------------------------------------------------- capstone
_PARTS = (("compute", COLORS["green"]), ("bubble", COLORS["grey"]),
          ("TP", COLORS["blue"]), ("PP", COLORS["sky"]), ("DP", COLORS["purple"]))
_ROWS = {"step": 0.35, "overlap": -0.2}
"""y of the two bars: the step itself (its parts end-to-end make 100 %) and, below it,
the pipeline and data-parallel communication that overlap hides under compute (it runs at
the same time as compute, so it is drawn under the compute part)."""

design = _memoised(capstone.design)
""":func:`interlib.capstone.design`, memoised (the capstone figure and its summary text
both need it on every move)."""


def capstone_design(**params):
    """The capstone's step-time breakdown as shares of the step (stacked bar: compute,
    pipeline bubble and the exposed communication end-to-end make 100 %; below it,
    hatched, the PP and DP communication hidden under compute by overlap) and the network
    it needs. Parameters:
    :func:`interlib.capstone.design`."""
    fig, ax = new_figure(figsize=(7.5, 3.4))
    fig.subplots_adjust(left=0.13, right=0.97, top=0.9, bottom=0.33)
    ax.set_axisbelow(True)  # grid under the bars (the demo redraws only the bars)
    for name, col in _PARTS:
        ax.barh(_ROWS["step"], 0.0, color=col, label=name, height=0.4)
    for name, col in _PARTS[3:]:  # PP and DP hidden by overlap, hatched, under compute
        ax.barh(_ROWS["overlap"], 0.0, color=col, hatch="//", edgecolor="white", lw=0,
                height=0.25, label="hidden under compute" if name == "PP" else None)
    ax.axvline(1.0, color="black", lw=1.5)  # the end of the step
    ax.set_yticks(list(_ROWS.values()), ["step", "overlapped"], fontsize=9)
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(-0.45, 1.0)
    ax.set_xlim(0, 1.04)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: display.fmt_pct(x)))
    ax.set_xlabel("share of the training step (100 % = the step)")
    ax.legend(fontsize=8, ncol=6, loc="upper center", frameon=False)
    ax.text(0.5, 0.5, "", ha="center", va="center", fontsize=9, wrap=True,
            transform=ax.transAxes, visible=False)  # shown for an impossible design
    # The note under the axes: three lines, each broken again at the figure's right edge
    # (wrap) when the design is large (16,384 GPUs name four switch tiers).
    fig.text(0.02, 0.02, "", fontsize=8, va="bottom", wrap=True)
    _fill_capstone_design(fig, **params)
    return fig


def _fill_capstone_design(fig, **params):
    """Set the bars, title and network text of a :func:`capstone_design` figure; returns
    the artists it changed (with the black line and the left spine, drawn over the bars).
    An impossible design hides the axes and shows why: returns None (redraw it all)."""
    ax = fig.axes[0]
    error, note = ax.texts[0], fig.texts[0]
    bars = ax.patches
    plotted = [*bars, *ax.lines, ax.get_legend(), note]
    try:
        d = design(**params)
        why = None if d.fits else (
            "Does not fit in memory: " + d.step.memory.describe()
            + ".\nNo step time or efficiency: raise TP or PP, the ZeRO stage, or the GPU's HBM.")
    except ValueError as e:
        why = f"Not a valid design:\n{e}"
    if why is not None:
        ax.set_axis_off()
        for a in plotted:
            a.set_visible(False)
        ax.set_title("")
        error.set_text(why)
        error.set_visible(True)
        return None
    ax.set_axis_on()
    for a in plotted:
        a.set_visible(True)
    error.set_visible(False)
    s = d.step
    # The hidden time comes out of PP and DP in proportion to their times.
    comm = s.pp + s.dp
    shown = 1.0 - s.hidden / comm if comm > 0 else 1.0
    left = 0.0
    for bar, val in zip(bars[:5], (s.compute, s.bubble, s.tp, s.pp * shown, s.dp * shown)):
        bar.set_x(left / s.step)
        bar.set_width(val / s.step)
        left += val
    left = 0.0
    for bar, val in zip(bars[5:], (s.pp, s.dp)):
        val *= 1.0 - shown
        bar.set_x(left / s.step)
        bar.set_width(val / s.step)
        left += val
    t = d.tree
    ax.set_title(f"{d.n_gpus:,} GPUs: step {display.fmt_time(s.step)}, efficiency "
                 f"{display.fmt_pct(s.efficiency)} (the black line ends the step)", fontsize=10)
    bubble, comm_cost = d.waiting_split
    note.set_text(
        f"Network: {capstone.switches_text(t)}, {display.fmt_count(t.cables, 'cable')}, "
        f"bisection {display.fmt_rate(t.bisection_per_direction)} per direction.\n"
        f"Memory: {display.fmt_bytes(s.memory.total)} of "
        f"{display.fmt_bytes(s.memory.capacity)} per GPU. Not computing: "
        f"{display.fmt_pct(1 - s.efficiency)} of GPU time = "
        f"{_dollars(d.not_computing.dollars_lost)} per {display.fmt_time(d.period_s)}\n"
        f"(bubble {_dollars(bubble)}, communication {_dollars(comm_cost)}); "
        f"an interruption every {display.fmt_time(d.mtbi_s)}."
        .replace("$", r"\$"))  # dollars, not maths
    return [*bars, *ax.lines, ax.spines["left"], ax.title, note]
