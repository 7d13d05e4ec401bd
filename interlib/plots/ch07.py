"""Chapter 7 figures: the bandwidth ladder and a 3D-parallel layout on it.

Each figure is built in two steps, so that a demo can redraw it in place on a slider move
(``interlib.widgets.Demo.update``): the plot function builds the static skeleton (axes,
fixed limits, labels, and every artist that changes, created empty), then calls one fill
function, ``_fill_<name>(fig, **params)``, which sets everything that depends on the
parameters and returns the artists it changed (always the same ones). The demo's update
hook is that fill function, so the figure and its live update cannot drift apart.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import _validate as v
from .. import display, hierarchy, steptime
from . import COLORS, new_figure, si_axis

_RUNG_COLORS = {"HBM": COLORS["grey"], "NVLink": COLORS["blue"], "PCIe": COLORS["orange"],
                "NVLink-C2C": COLORS["orange"],
                "Scale-out NIC": COLORS["purple"], "Spine": COLORS["vermillion"],
                "none": COLORS["grey"]}

# ------------------------------------------------------------------------ the ladder
#: Generations whose line rates are drawn as dots for comparison, with their markers.
_REFERENCE_GENERATIONS = (("A100", "s"), ("H100", "o"), ("B200", "^"))
_LADDER_XLIM = (5e8, 3e13)  # down to a TPU v5p's DCN share at 8:1 (0.78 GB/s)
_RATIO_X = 6.5e8  # where the "× the next rung" labels sit
_NOTE_X = 9e9  # where a row's "none in ..." / "not in our sources" note starts


def _row_label(name: str) -> str:
    return "HBM (read + write)" if name == "HBM" else name


def ladder(generation: str = "H100", oversubscription: float = 1.0):
    """The ladder of one GPU generation (or another vendor's accelerator, see
    :data:`interlib.hierarchy.LADDER_OTHER`) on a log scale: line rate (light bar) and
    achieved (dark bar, where a source gives it) per GPU or chip, with the ratio to the next
    rung; dots mark the same rung in NVIDIA's other generations. Each row is a tier (memory,
    scale-up, host link, scale-out, spine); its label names the system's own link there
    (NVLink, or a TPU's ICI), and a rung no source gives says so."""
    _check_ladder_args(generation, oversubscription)
    fig, ax = new_figure(figsize=(7.5, 4.2))
    fig.subplots_adjust(left=0.2, right=0.96)
    ax.set_axisbelow(True)  # bars over the grid, as a blitted frame draws them
    names = list(hierarchy.RUNG_NAMES)
    y = {n: i for i, n in enumerate(reversed(names))}
    # Row labels are texts the fill sets (a TPU's scale-up row reads "ICI"), not tick
    # labels, so a live update changes them like any other artist; same size as ticks.
    ax.set_yticks(list(y.values()), [_row_label(n) for n in y])
    size = ax.get_yticklabels()[0].get_fontsize()
    ax.set_yticklabels([""] * len(y))
    rows = {n: ax.text(-0.015, y[n], _row_label(n), transform=ax.get_yaxis_transform(),
                       ha="right", va="center", fontsize=size) for n in names}
    dots = [ax.plot([], [], marker, color=COLORS["black"], ms=5, alpha=0.45)[0]
            for _, marker in _REFERENCE_GENERATIONS]
    bars = {}
    for name in names:
        col = _RUNG_COLORS[name]
        bars[name] = (ax.barh(y[name], 1.0, color=col, alpha=0.35, height=0.6)[0],
                      ax.barh(y[name], 1.0, color=col, height=0.35)[0],
                      ax.text(1.0, y[name] + 0.12, "", va="center", fontsize=9,
                              fontweight="bold"))
    ratios = [ax.annotate("", (_RATIO_X, 0.0), fontsize=8, color=COLORS["black"],
                          va="center") for _ in names[1:]]
    ax.set_xscale("log")
    ax.set_xlim(*_LADDER_XLIM)
    ax.set_ylim(-0.6, len(names) - 0.4)
    si_axis(ax, "x", "B/s")
    # a grid line every decade, a label every other one (1 GB/s, 100 GB/s, 10 TB/s), so
    # the labels do not run together in the phone layout
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    eng = ax.xaxis.get_major_formatter()
    decades = [10.0 ** k for k in range(9, 14)]
    ax.xaxis.set_major_locator(FixedLocator(decades))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, pos: eng(x, pos) if round(np.log10(x)) % 2 == 1 else ""))
    ax.set_xlabel("bandwidth per GPU or chip (log scale)\nlinks: per direction")
    ax.set_title(" ", fontsize=10)
    # One legend row per reference generation; the fill blanks the rows it does not need
    # (the top ones, so the rows shown sit where a shorter legend would put them).
    ax.legend(dots, [" "] * len(dots), fontsize=8, loc="lower right", frameon=False)
    fig._ch07_ladder = {"y": y, "dots": dots, "bars": bars, "ratios": ratios, "rows": rows}
    _fill_ladder(fig, generation, oversubscription)
    return fig


def _check_ladder_args(generation, oversubscription):
    """ValueError naming the parameter unless :func:`ladder` can draw these arguments."""
    from ..specs import SYSTEMS, System

    if not isinstance(generation, System):
        v.choice("generation", generation, [*hierarchy.LADDER_CHOICES, *SYSTEMS])
    if np.ndim(oversubscription) != 0:
        raise ValueError(f"oversubscription={oversubscription!r} must be a single number")
    hierarchy.ladder(generation, oversubscription)  # checks the range


def _fill_ladder(fig, generation, oversubscription):
    """Set the bars, value labels, ratios, comparison dots, legend and title of a
    :func:`ladder` figure; returns the artists it changed."""
    _check_ladder_args(generation, oversubscription)
    ladder_ = hierarchy.ladder(generation, oversubscription)
    rungs = {r.row: r for r in ladder_}
    gaps = hierarchy.ladder_gaps(generation)
    art = fig._ch07_ladder
    ax, y = fig.axes[0], art["y"]
    refs = {gen: hierarchy.ladder(gen, oversubscription)
            for gen, _ in _REFERENCE_GENERATIONS if gen != generation}
    # A row's "none"/"not in our sources" note sits at the left, or right of the
    # comparison dots where they would fall under it.
    note_x0 = _NOTE_X
    note_x = {}
    for other in refs.values():
        for r in other:
            if r.peak < note_x0 * 12:
                note_x[r.row] = max(note_x.get(r.row, note_x0), r.peak * 1.6)
    for name, (line_rate, achieved, label) in art["bars"].items():
        r = rungs.get(name)
        line_rate.set_visible(r is not None)
        achieved.set_visible(r is not None and r.effective is not None)
        art["rows"][name].set_text(_row_label(r.name if r is not None
                                              else gaps.get(name, name)))
        if r is not None:
            line_rate.set_width(r.peak)
            achieved.set_width(r.effective if r.effective is not None else 1.0)
            label.set_position((max(r.peak, _LADDER_XLIM[0]) * 1.15, y[name] + 0.12))
            label.set_text(display.fmt_rate(r.peak))
            label.set_fontweight("bold")
            label.set_color(COLORS["black"])
        else:  # a rung this system does not have, or no source gives: say which
            label.set_position((note_x.get(name, note_x0), y[name]))
            label.set_text("not in our sources" if name in gaps else f"none in {generation}")
            label.set_fontweight("normal")
            label.set_color(COLORS["grey"])
    for i, note in enumerate(art["ratios"]):
        note.set_visible(i < len(ladder_) - 1)
        if i < len(ladder_) - 1:
            upper, lower = ladder_[i], ladder_[i + 1]
            note.xy = (_RATIO_X, (y[upper.row] + y[lower.row]) / 2)
            note.set_position(note.xy)
            note.set_text(display.fmt_ratio(upper.peak / lower.peak))
    shown = []
    for (gen, marker), dots in zip(_REFERENCE_GENERATIONS, art["dots"]):
        dots.set_visible(gen in refs)
        if gen in refs:
            dots.set_data([r.peak for r in refs[gen]], [y[r.row] for r in refs[gen]])
            shown.append((gen, marker))
    legend = ax.get_legend()
    rows = [None] * (len(art["dots"]) - len(shown)) + shown
    for row, text, handle in zip(rows, legend.get_texts(), legend.get_lines()):
        handle.set_visible(row is not None)
        text.set_text(" " if row is None else f"{row[0]} line rate")
        if row is not None:
            handle.set_marker(row[1])
    if any(r.effective is None for r in ladder_):
        ax.title.set_text(f"{generation}: line rates only, achieved not sourced; "
                          f"spine {oversubscription:g}:1")
    else:
        # short enough to wrap onto two lines in the phone layout (its height is set once)
        ax.title.set_text(f"{generation} ladder: line rate (light), achieved (dark); "
                          f"spine {oversubscription:g}:1")
    return [*(a for trio in art["bars"].values() for a in trio), *art["dots"],
            *art["ratios"], *art["rows"].values(), ax.title, legend]


# ------------------------------------------------------------------------ the layout
_LAYOUT_XLIM = (1e-4, 1e2)
_PHASE_NAMES = ("tensor (TP)", "pipeline (PP)", "data (DP)")


@functools.lru_cache(maxsize=512, typed=True)
def _layout_traffic_cached(system, model, tp, pp, dp, oversubscription):
    return steptime.layout_traffic(system, model, tp, pp, dp,
                                   oversubscription=oversubscription)


def _layout_traffic(system, model, tp, pp, dp, oversubscription):
    """:func:`interlib.steptime.layout_traffic` at its default sequence and batch,
    memoised (the figure and the demo's summary both need it on every move, and a
    dropdown revisits its values). Unhashable arguments are computed (and validated)
    without the cache.

    >>> _layout_traffic("dgx-h100", "llama-3-70b", 8, 4, 8, 1.0).n_gpus
    256
    """
    try:
        return _layout_traffic_cached(system, model, tp, pp, dp, oversubscription)
    except TypeError:  # unhashable argument: let layout_traffic validate it
        return steptime.layout_traffic(system, model, tp, pp, dp,
                                       oversubscription=oversubscription)


def layout(tp: int = 8, pp: int = 4, dp: int = 8, model: str = "llama-3-70b",
           oversubscription: float = 1.0, system: str = "dgx-h100"):
    """Time per step of TP, PP and DP traffic for a 3D layout, coloured by the rung each
    crosses; the slowest is outlined. Bytes per GPU per step are annotated."""
    _layout_traffic(system, model, tp, pp, dp, oversubscription)  # validate first
    fig, ax = new_figure(figsize=(7.5, 3.6))
    fig.subplots_adjust(left=0.2, right=0.8)
    ax.set_axisbelow(True)  # bars over the grid, as a blitted frame draws them
    for i in range(len(_PHASE_NAMES)):
        ax.barh(i, 1.0, height=0.6, linewidth=2)
        ax.text(1.0, i, "", va="center", fontsize=8)
    ax.set_yticks(range(len(_PHASE_NAMES)), _PHASE_NAMES)
    ax.invert_yaxis()
    ax.set_ylim(ax.get_ylim())  # fixed: every bar exists, those of degree-1 phases hidden
    ax.set_xscale("log")
    ax.set_xlim(*_LAYOUT_XLIM)
    si_axis(ax, "x", "s")
    ax.set_xlabel("communication time per training step (log scale)")
    ax.set_title(" ", fontsize=10)
    _fill_layout(fig, tp, pp, dp, model, oversubscription, system)
    return fig


def _fill_layout(fig, tp, pp, dp, model, oversubscription, system="dgx-h100"):
    """Set the bars (length, colour, outline), their labels and the title of a
    :func:`layout` figure; returns the artists it changed."""
    lay = _layout_traffic(system, model, tp, pp, dp, oversubscription)
    ax = fig.axes[0]
    bn = lay.bottleneck
    for ph, bar, label in zip(lay.phases, ax.patches, ax.texts):
        bar.set_visible(ph.time_s > 0)
        if ph.time_s > 0:
            bar.set_width(ph.time_s)
            bar.set_facecolor(_RUNG_COLORS[ph.rung])
            bar.set_edgecolor("black" if ph is bn else "none")
            text = (f"{display.fmt_time(ph.time_s)} over {ph.rung}\n"
                    f"{display.fmt_bytes(ph.bytes)} per GPU")
        else:
            text = "no traffic (degree 1)"
        label.set_x(max(ph.time_s, _LAYOUT_XLIM[0]) * 1.1)
        label.set_text(text)
    ax.title.set_text(f"{lay.n_gpus:,} GPUs on {lay.nodes:,} nodes: TP {tp} × PP {pp} × "
                      f"DP {dp} (outlined: slowest)")
    return [*ax.patches, *ax.texts, ax.title]
