"""Chapter 1 figures: the ring all-reduce, gradient-sync time, stragglers, traffic.

Every figure here is built in two parts, so the interactive demos can change one live
figure in place (``Demo.update``, blitted by :class:`interlib.widgets.LiveFigure`):

* the public plot function builds a *skeleton*: the figure, axes, fixed limits and ticks,
  static lines and labels, and every artist that can change, empty or with placeholder
  data (the most that any setting needs; unused ones are hidden);
* one shared ``_fill_<name>(fig, **params)`` sets everything that depends on the
  parameters and returns the list of artists it may have changed, the same list at every
  setting. The plot function calls it once; the demo calls it on every slider move.

Axes limits and tick labels never depend on the parameters (they cover the demos' whole
control ranges), and nothing is drawn outside the figure, so a move only redraws the
returned artists over a cached background.
"""

from __future__ import annotations

import inspect

import functools
import math

import numpy as np
from matplotlib import rcParams
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.font_manager import FontProperties
from matplotlib.markers import TICKDOWN, TICKLEFT
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from .. import _validate as v
from .. import collectives, display, hierarchy, scaling
from ..units import MB, billion
from . import COLORS, new_figure, si_axis

#: Largest ring the ring all-reduce demo offers; its figure keeps room for this many GPUs.
RING_MAX_N = 8

#: The parallelism degrees the traffic demo offers; its fixed x range covers all of them.
TRAFFIC_OPTIONS = {"tp": (1, 2, 4, 8), "pp": (1, 2, 4, 8, 16), "dp": (1, 2, 8, 16, 64, 256)}

#: Largest jitter the straggler demo offers; the figure's fixed y range holds its curve up
#: to the largest GPU count (higher jitter would draw the chosen curve off the axes).
STRAGGLER_JITTER_MAX = 0.12

# A point annotation whose x is this far (axes fraction) to the right is written on the
# left of its point, so its text stays inside the figure.
_FLIP_AT = 0.85


def _place_note(ax, note, x, y, dx, dy):
    """Put an ``offset points`` annotation of point (x, y) at (dx, dy) from it, mirrored
    through the point, to (-dx, -dy), when the point is near the right edge of the axes.

    Both curves that get a label here rise to the right: a label below and right of its
    point stays off the curve, and so does one above and left of it."""
    right = ax.transAxes.inverted().transform(ax.transData.transform((x, y)))[0] > _FLIP_AT
    note.xy = (x, y)
    note.set_position((-dx, -dy) if right else (dx, dy))
    note.set_horizontalalignment("right" if right else "left")


# ----------------------------------------------------------------- ring all-reduce
class _CellLabels(Artist):
    """Short labels centred on points, in one artist: the cell labels of
    :func:`ring_all_reduce` (up to 64 of them, redrawn on every slider move).

    Each label lands exactly where ``Axes.text(x, y, s, ha="center", va="center")`` puts
    it (same metrics, same renderer call), without the per-Text overhead, which made
    the cells most of a frame. ``labels`` holds ``(x, y, text, color, bold)`` tuples in
    data coordinates.
    """

    zorder = Text.zorder

    def __init__(self, fontsize):
        super().__init__()
        self.labels: list = []
        self._props = {w: FontProperties(size=fontsize, weight=w) for w in ("normal", "bold")}
        self._metrics: dict = {}

    def _extent(self, renderer, s, weight):
        """``(width, height, descent)`` of ``s`` in pixels as Text lays out one line: at
        least as tall and deep as "lp"."""
        key = (s, weight, renderer.points_to_pixels(1.0))
        if key not in self._metrics:
            w, h, d = renderer.get_text_width_height_descent(s, self._props[weight], False)
            _, lp_h, lp_d = renderer.get_text_width_height_descent(
                "lp", self._props[weight], False)
            self._metrics[key] = (w, max(h, lp_h), max(d, lp_d))
        return self._metrics[key]

    def draw(self, renderer):
        if not self.get_visible():
            return
        gc = renderer.new_gc()
        self._set_gc_clip(gc)
        canvas_h = renderer.get_canvas_width_height()[1]
        xy = self.get_transform().transform([(x, y) for x, y, *_ in self.labels] or
                                            np.empty((0, 2)))
        for (px, py), (_, _, s, color, bold) in zip(xy, self.labels):
            weight = "bold" if bold else "normal"
            w, h, d = self._extent(renderer, s, weight)
            y = py - h / 2 + d  # the baseline of a box of height h centred on py
            gc.set_foreground(color)
            renderer.draw_text(gc, px - w / 2, canvas_h - y if renderer.flipy() else y, s,
                               self._props[weight], 0)
        gc.restore()
        self.stale = False


def ring_all_reduce(n: int = 4, step: int = 3):
    """Grid of GPUs x chunks after ``step`` steps of a ring all-reduce on ``n`` GPUs.

    Each cell shows how many GPUs' contributions that copy of the chunk holds (``k/n``);
    dark cells are fully reduced. Arrows mark what each GPU sends in the next step.
    ``step`` is clamped to 2(n-1). The default, 3 steps on 4 GPUs, is the end of
    reduce-scatter: every GPU holds one fully reduced chunk.
    """
    n = v.integer("n", n, lo=2)
    slots = max(n, RING_MAX_N)
    fig, ax = new_figure(figsize=(7.5, 4.6))
    fig.subplots_adjust(left=0.12, right=0.78, top=0.86, bottom=0.12)
    ax.grid(False)
    # The grid lives in the unit square (row 0 on top) whatever n is, so the limits and
    # ticks stay fixed; chunk/GPU labels and tick marks are artists of their own.
    # The shares are coloured here, not by the image: resampling ready RGBA cells to
    # the axes (nearest, as the default interpolation does at this zoom) is much faster.
    shades = ScalarMappable(Normalize(0, 1), "Blues")
    im = ax.imshow(np.zeros((1, 1, 4)), aspect="auto", extent=(0, 1, 1, 0),
                   interpolation="nearest")
    ax.set_xlim(0, 1)
    ax.set_ylim(1, 0)
    ax.set_xticks([])
    ax.set_yticks([])
    cells = ax.add_artist(_CellLabels(fontsize=9))
    boxes = [ax.add_patch(Rectangle((0, 0), 0, 0, fill=False, edgecolor=COLORS["vermillion"],
                                    linewidth=2)) for _ in range(slots)]
    ticks, labels = {}, {}
    for axis, marker in (("x", TICKDOWN), ("y", TICKLEFT)):
        size, pad = rcParams[f"{axis}tick.major.size"], rcParams[f"{axis}tick.major.pad"]
        ticks[axis], = ax.plot([], [], ls="none", marker=marker, ms=size, clip_on=False,
                               mew=rcParams[f"{axis}tick.major.width"],
                               color=rcParams[f"{axis}tick.color"],
                               transform=getattr(ax, f"get_{axis}axis_transform")("tick1"))
        trans, va, ha = getattr(ax, f"get_{axis}axis_text1_transform")(size + pad)
        labels[axis] = [ax.text(0, 0, "", transform=trans, va=va, ha=ha, fontsize=8,
                                color=rcParams[f"{axis}tick.color"], clip_on=False)
                        for _ in range(slots)]
    cb = fig.colorbar(shades, ax=ax, fraction=0.05, pad=0.03)
    cb.set_label("share of GPUs summed into this copy")
    fig.ch01_artists = dict(image=im, shades=shades, cells=cells, boxes=boxes, ticks=ticks,
                            labels=labels)
    _fill_ring_all_reduce(fig, n, step)
    return fig


def _fill_ring_all_reduce(fig, n, step):
    """Set the cells, send boxes, labels and title of a :func:`ring_all_reduce` figure.

    Returns the same artists at every setting (so a blitted background stays valid):

    >>> fig = ring_all_reduce(4, 0)
    >>> _fill_ring_all_reduce(fig, 8, 14) == _fill_ring_all_reduce(fig, 2, 1)
    True
    """
    a = fig.ch01_artists
    ax = fig.axes[0]
    n = v.integer("n", n, lo=2)
    step = v.integer("step", step, lo=0)
    if n > len(a["boxes"]):
        raise ValueError(f"n={n} is out of range: this figure has room for "
                         f"{len(a['boxes'])} GPUs")
    step = min(step, 2 * (n - 1))
    counts = collectives.ring_all_reduce_state(n, step)
    a["image"].set_data(a["shades"].to_rgba(counts / n, bytes=True))
    centre = (np.arange(len(a["boxes"])) + 0.5) / n
    a["cells"].labels = [(centre[c], centre[g], f"{counts[g, c]}/{n}",
                          "white" if counts[g, c] / n > 0.6 else "black", counts[g, c] == n)
                         for g in range(n) for c in range(n)]
    a["cells"].stale = True
    if step < 2 * (n - 1):
        sends, phase = collectives.ring_step_sends(n, step)
        nxt = f"next: step {step + 1} ({phase}), outlined chunks move to GPU g+1"
    else:
        sends = []
        nxt = "done: every GPU holds every fully reduced chunk"
    for g, box in enumerate(a["boxes"]):
        box.set_visible(g < len(sends))
        if g < len(sends):  # the outline of cell (GPU g, chunk sends[g]), 0.9 of a cell
            box.set_bounds((sends[g] + 0.05) / n, (g + 0.05) / n, 0.9 / n, 0.9 / n)
    a["ticks"]["x"].set_data(centre[:n], np.zeros(n))
    a["ticks"]["y"].set_data(np.zeros(n), centre[:n])
    for i, (xl, yl) in enumerate(zip(a["labels"]["x"], a["labels"]["y"])):
        xl.set_visible(i < n)
        yl.set_visible(i < n)
        xl.set_text(f"chunk {i}")
        yl.set_text(f"GPU {i}")
        xl.set_x(centre[i])
        yl.set_y(centre[i])
        xl.set_rotation(30 if n > 6 else 0)
    ax.set_title(f"Ring all-reduce, {n} GPUs: after {step} of {2 * (n - 1)} steps\n{nxt}",
                 fontsize=10)
    # The image fills the axes: the spines are redrawn over it, as a full draw does.
    return [a["image"], a["cells"], *a["boxes"],
            *a["ticks"].values(), *a["labels"]["x"], *a["labels"]["y"], ax.title,
            *(s for s in ax.spines.values() if s.get_visible())]


# ------------------------------------------------------------- gradient sync time
_LINK_COLORS = {"PCIe 5.0 x16": COLORS["orange"], "NVLink 4": COLORS["blue"],
                "NVLink 5": COLORS["green"], "InfiniBand NDR (1 NIC/GPU)": COLORS["purple"]}


def gradient_sync(params_billion: float = 70.0, n_gpus: int = 8, link: str = "NVLink 4",
                  bytes_per_param: int = 2):
    """Ring all-reduce time of one bf16 gradient vs model size, for each link.

    Solid: achieved bandwidth; dashed: usable line rate (after line coding). The marker
    is the chosen model and link.
    """
    sizes = np.logspace(0, 3, 60) * billion
    fig, ax = new_figure()
    for name, rung in hierarchy.link_options().items():
        col = _LINK_COLORS[name]
        ax.plot(sizes, np.ones_like(sizes), color=col,
                label=f"{name}: {display.fmt_rate(rung.effective)} achieved")
        ax.plot(sizes, np.ones_like(sizes), color=col, lw=0.9, ls="--", alpha=0.8)
    ax.plot([], [], "o", color="black", ms=8, zorder=5)
    ax.annotate("", (sizes[0], 1.0), textcoords="offset points", xytext=(0, 0),
                fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(sizes[0], sizes[-1])
    ax.set_ylim(1e-3, 1e3)
    si_axis(ax, "x", "")
    si_axis(ax, "y", "s")
    ax.set_xlabel("model parameters")
    ax.set_ylabel("gradient all-reduce time (log)")
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_gradient_sync(fig, params_billion, n_gpus, link, bytes_per_param)
    return fig


def _fill_gradient_sync(fig, params_billion, n_gpus, link, bytes_per_param):
    """Set the curves, line widths (plot and legend), marker, its label and the title of a
    :func:`gradient_sync` figure; the same artists at every setting.

    >>> fig = gradient_sync()
    >>> a = _fill_gradient_sync(fig, 1000.0, 1024, "PCIe 5.0 x16", 4)
    >>> a == _fill_gradient_sync(fig, 70.0, 8, "NVLink 4", 2)
    True
    """
    v.positive("params_billion", params_billion)
    v.choice("link", link, hierarchy.link_options())
    p = params_billion * billion
    t = scaling.ring_sync_time(p, n_gpus, link, bytes_per_param)  # validates the rest
    ax = fig.axes[0]
    lines, legend = ax.lines, ax.get_legend()
    sizes = lines[0].get_xdata()
    for i, (name, rung) in enumerate(hierarchy.link_options().items()):
        lw = 2.6 if name == link else 1.2
        lines[2 * i].set_ydata(scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param))
        lines[2 * i].set_linewidth(lw)
        # The chosen link on top: PCIe 5.0 and one NDR NIC nearly coincide.
        lines[2 * i].set_zorder(2.5 if name == link else 2)
        legend.get_lines()[i].set_linewidth(lw)
        lines[2 * i + 1].set_ydata(
            scaling.ring_sync_time(sizes, n_gpus, rung, bytes_per_param, False))
    lines[-1].set_data([p], [t])
    note = ax.texts[-1]
    _place_note(ax, note, p, t, 8, -14)
    note.set_text(display.fmt_time(t))
    ax.set_title(f"Ring all-reduce of the gradient ({bytes_per_param} bytes per parameter) on "
                 f"{n_gpus} GPUs (dashed: usable line rate)", fontsize=10)
    return [*lines, legend, note, ax.title]


# ---------------------------------------------------------------------- stragglers
_STRAGGLER_NS = np.unique(np.rint(np.logspace(0, 5, 40)))


@functools.lru_cache(maxsize=256, typed=True)
def _step_curve(jitter):
    """:func:`interlib.scaling.expected_step_time` over the figure's GPU counts (memoised:
    the jitter slider revisits its values)."""
    curve = scaling.expected_step_time(_STRAGGLER_NS, 1.0, jitter)
    curve.flags.writeable = False
    return curve


@functools.lru_cache(maxsize=1024, typed=True)
def _simulated_step_time(n_gpus, jitter):
    """:func:`interlib.scaling.simulated_step_time` at mean 1, memoised (the figure and the
    demo's summary both need it; 10^5 GPUs take tens of ms)."""
    return scaling.simulated_step_time(n_gpus, 1.0, jitter)


def straggler(n_gpus: int = 64, jitter: float = 0.05):
    """Expected synchronous step time (in units of the mean compute time) vs GPU count.

    Curves for three jitters, the chosen one bold; the dot is the formula and the cross a
    seeded simulation at the chosen GPU count (the mean over
    :func:`interlib.scaling.simulation_steps` steps of the slowest GPU). The value label
    sits below and right of the dot, under the rising curve.
    """
    ns = _STRAGGLER_NS
    fig, ax = new_figure()
    for j, col in ((0.02, COLORS["sky"]), (0.05, COLORS["blue"]), (0.10, COLORS["purple"])):
        ax.plot(ns, _step_curve(j), color=col, lw=1.0, alpha=0.7,
                label=f"jitter {display.fmt_pct(j)}")
    ax.plot(ns, np.ones_like(ns), color="black", lw=2.4, label=" ")
    ax.plot([], [], "o", color="black", ms=8)
    ax.plot([], [], "x", color=COLORS["vermillion"], ms=10, mew=2, label=" ")
    ax.annotate("", (ns[0], 1.0), textcoords="offset points", xytext=(0, 0), fontsize=10,
                fontweight="bold")
    ax.set_xscale("log")
    ax.set_xlim(1, 1e5)
    ax.set_ylim(0.95, 1 + 1.2 * (_step_curve(STRAGGLER_JITTER_MAX)[-1] - 1))
    si_axis(ax, "x", "")
    ax.set_xlabel("GPUs that must finish before the step ends")
    ax.set_ylabel("expected step time / mean GPU time")
    ax.set_title("Everyone waits for the slowest GPU", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_straggler(fig, n_gpus, jitter)
    return fig


def _fill_straggler(fig, n_gpus, jitter):
    """Set the chosen-jitter curve, the marker, the simulated point, their legend texts
    and the label of a :func:`straggler` figure; the same artists at every setting.

    >>> fig = straggler()
    >>> _fill_straggler(fig, 1, 0.0) == _fill_straggler(fig, 64, 0.3)
    True
    """
    if np.ndim(jitter) != 0:
        raise ValueError(f"jitter={jitter!r} must be a single number")
    steps = scaling.simulation_steps(n_gpus)  # validates n_gpus
    t = scaling.expected_step_time(n_gpus, 1.0, jitter)  # validates jitter
    sim = _simulated_step_time(n_gpus, jitter)
    ax = fig.axes[0]
    lines, legend = ax.lines, ax.get_legend()
    lines[3].set_ydata(_step_curve(jitter))
    legend.get_texts()[3].set_text(f"chosen jitter {display.fmt_pct(jitter)}")
    lines[4].set_data([n_gpus], [t])
    lines[5].set_data([n_gpus], [sim])
    legend.get_texts()[4].set_text(f"simulated ({steps} steps)")
    note = ax.texts[-1]
    _place_note(ax, note, n_gpus, t, 8, -14)  # below the curve, which rises to the right
    note.set_text(f"{t:.3f}× the mean")
    return [*lines[3:], legend, note]


# ------------------------------------------------------------- parallelism traffic
def _traffic(model, seq_len, micro_batches, tp, pp, dp):
    """The model's shape and :func:`interlib.scaling.parallelism_traffic` (one sequence
    per micro-batch); validates every argument."""
    m = scaling.model(v.choice("model", model, scaling.MODELS))
    return m, scaling.parallelism_traffic(m.params, m.layers, m.hidden, seq_len, 1,
                                          micro_batches, tp=tp, pp=pp, dp=dp)


@functools.lru_cache(maxsize=64)
def _most_traffic(model, seq_len, micro_batches, tps, pps, dps):
    """The largest of the three traffics over every combination of the given degrees
    (pipeline degrees above the model's layer count are skipped)."""
    layers = scaling.model(model).layers
    return max(max(tr.dp, tr.tp, tr.pp)
               for tr in (_traffic(model, seq_len, micro_batches, t, p, d)[1]
                          for t in tps for p in pps for d in dps if p <= layers))


#: Left end of the traffic axis, 100 MB (below every non-zero traffic of the options).
_TRAFFIC_FLOOR = 100 * MB


def parallelism_traffic(tp: int = 8, pp: int = 4, dp: int = 16, model: str = "llama-3-70b",
                        seq_len: int = 4096, micro_batches: int = 8):
    """Bytes one GPU sends per step for DP, TP and PP (bf16), one sequence per
    micro-batch.

    The x range is fixed by the largest traffic over the demo's options
    (:data:`TRAFFIC_OPTIONS`, and the given degrees), so settings compare on one scale.
    """
    m, tr = _traffic(model, seq_len, micro_batches, tp, pp, dp)  # validates everything
    most = _most_traffic(model, seq_len, micro_batches, TRAFFIC_OPTIONS["tp"] + (tp,),
                         TRAFFIC_OPTIONS["pp"] + (pp,), TRAFFIC_OPTIONS["dp"] + (dp,))
    fig, ax = new_figure(figsize=(7.5, 3.4))
    fig.subplots_adjust(left=0.17)  # room for the longest category label
    ax.set_axisbelow(True)  # bars over the grid, as a blitted frame draws them
    # A log axis: the three traffics differ by orders of magnitude (PP's ~1 GB beside
    # TP's ~100 GB), and a linear axis fixed for the largest setting left the default
    # bars in its first fifth. The range is fixed (decades around every option's traffic),
    # so settings compare on one scale; a 0 B bar (that parallelism switched off) is empty.
    ax.set_xscale("log")
    ax.set_xlim(_TRAFFIC_FLOOR, 10 ** math.ceil(math.log10(max(most, 1.0) * 3)))
    names = ["data (DP)", "tensor (TP)", "pipeline (PP)"]
    ax.barh(names, [0.0] * len(names), color=[COLORS["blue"], COLORS["vermillion"],
                                              COLORS["green"]])
    for i in range(len(names)):
        ax.text(0, i, "", va="center", fontsize=9)
    si_axis(ax, "x", "B")
    ax.set_xlim(_TRAFFIC_FLOOR, 10 ** math.ceil(math.log10(max(most, 1.0) * 3)))
    ax.set_xlabel("bytes sent per GPU per training step (log scale)")
    _fill_parallelism_traffic(fig, tp, pp, dp, model, seq_len, micro_batches)
    return fig


def _fill_parallelism_traffic(fig, tp, pp, dp, model, seq_len, micro_batches):
    """Set the bars, their value labels and the title of a :func:`parallelism_traffic`
    figure; the same artists at every setting.

    >>> fig = parallelism_traffic()
    >>> a = _fill_parallelism_traffic(fig, 1, 1, 256, "llama-3-70b", 4096, 8)
    >>> a == _fill_parallelism_traffic(fig, 8, 4, 16, "llama-3-70b", 4096, 8)
    True
    """
    m, tr = _traffic(model, seq_len, micro_batches, tp, pp, dp)
    ax = fig.axes[0]
    for bar, label, val in zip(ax.patches, ax.texts, (tr.dp, tr.tp, tr.pp)):
        bar.set_width(val)
        label.set_x(max(val, _TRAFFIC_FLOOR))
        label.set_text(" " + (display.fmt_bytes(val) if val else "0 B (not used)"))
    ax.set_title(f"{m.name}: traffic per GPU per step, TP={tp} × PP={pp} × DP={dp}\n"
                 f"({micro_batches} micro-batches of one {seq_len:,}-token sequence)",
                 fontsize=10)
    # The bars start on the left spine: it is redrawn over them, as a full draw does.
    return [*ax.patches, *ax.texts, ax.title,
            *(s for s in ax.spines.values() if s.get_visible())]


TRAFFIC_FIXED = {k: p.default for k, p in inspect.signature(parallelism_traffic)
                 .parameters.items() if k not in TRAFFIC_OPTIONS}
"""What Chapter 1's traffic demo holds fixed (the model, sequence length and micro-batches
at :func:`parallelism_traffic`'s defaults) while it moves tp, pp and dp."""
