"""Chapter 3 figures: NVLink copies, tensor-parallel communication share, p2p vs staged.

Each figure is built in two steps, so an interactive demo can redraw it in place: a
*skeleton* (figure, axes, fixed limits, static lines and labels, and the changing artists
created empty) and one *fill* function, ``_fill_<name>(fig, **params)``, that sets every
changing thing and returns the artists it changed (always the same ones). The public plot
function is the skeleton followed by the fill; :mod:`interlib.widgets.ch03` passes the
same fill as the demo's ``update`` hook, so the two cannot drift apart.

Axis limits are fixed over the whole range of the parameters (computed from the
catalogue), so a changed parameter never moves an axis, and annotations are kept inside
the axes.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.textpath import text_to_path

from .. import _validate as v
from .. import display, nvlink, tensor_parallel as TP
from ..specs import NVLINK, PCIE
from ..units import GB, MB
from . import COLORS, new_figure, si_axis

_GEN_COLORS = {1: COLORS["grey"], 2: COLORS["purple"], 3: COLORS["sky"], 4: COLORS["blue"],
               5: COLORS["green"]}
_SIZES = np.logspace(3, 11, 81)  # 1 kB .. 100 GB
#: Right margin of the two copy-size figures: room for the last x tick label ("100 GB")
#: inside the figure (the default margin lets it stick out).
_SIZE_AXES_RIGHT = 0.95


def _scalar(name: str, value):
    """Check one finite number (not an array): the interactive figures memoise on it."""
    if np.ndim(value) != 0:
        raise ValueError(f"{name}={value!r} must be a single number, not an array")
    return v.number(name, value)


def _decades(values) -> tuple[float, float]:
    """Log-axis limits: the whole decades enclosing every one of ``values`` (> 0)."""
    vals = np.concatenate([np.ravel(x) for x in values])
    return (10.0 ** math.floor(math.log10(vals.min())),
            10.0 ** math.ceil(math.log10(vals.max())))


def _place_note(note, ax, x, y, text, offset):
    """Point annotation ``note`` at ``(x, y)`` with ``text``, its text (left-aligned,
    baseline) at ``offset`` points from the point; where that would leave the axes, the
    offset is mirrored through the point on that side, so the text stays inside."""
    note.set_text(text)
    note.xy = (x, y)
    w, h, d = text_to_path.get_text_width_height_descent(
        text, FontProperties(size=note.get_fontsize(), weight=note.get_fontweight()),
        ismath=False)
    px, py = ax.transData.transform((x, y))
    to_px = ax.figure.dpi / 72
    box = ax.bbox
    dx, dy = offset
    if px + (dx + w) * to_px > box.x1 or px + dx * to_px < box.x0:
        dx = -dx - w
    if py + (dy + h) * to_px > box.y1 or py + (dy - d) * to_px < box.y0:
        dy = -dy - h + d
    note.xyann = (dx, dy)
    return note


def _legend_swatches(ax) -> list:
    """Move the legend's line samples out of it: each is hidden in the legend and drawn
    instead by a twin line on the axes, just after the legend (which places it), so the
    picture is the same. A fill that changes the samples (the chosen curve is bold) then
    returns these few lines rather than the whole legend, whose texts make it the slowest
    artist to redraw. Returns the twins, in legend order."""
    legend = ax.get_legend()
    twins = []
    for sample in legend.get_lines():
        twin = Line2D(sample.get_xdata(), sample.get_ydata())
        twin.update_from(sample)
        twin.set_transform(sample.get_transform())  # moves with the legend's layout
        twin.set_zorder(np.nextafter(legend.get_zorder(), np.inf))
        ax.add_artist(twin)
        sample.set_visible(False)
        twins.append(twin)
    return twins


# --- NVLink copy time ------------------------------------------------------------------

_TRANSFER_NOTE_OFFSET = (-60, 8)


@functools.lru_cache(maxsize=1)
def _transfer_ylim() -> tuple[float, float]:
    """Time limits covering every generation's curves (achieved and line rate)."""
    return _decades([nvlink.transfer_time(_SIZES, g, achieved=a)
                     for g in NVLINK for a in (True, False)])


def nvlink_transfer(gen: int = 4, size_mb: float = 64.0):
    """GPU-to-GPU copy time vs size for NVLink 1-5 (chosen generation bold; dashed: at
    the line rate). The marker is the chosen size."""
    fig, ax = new_figure()
    fig.subplots_adjust(right=_SIZE_AXES_RIGHT)
    for g, nv in NVLINK.items():
        rate = display.fmt_rate(nvlink.gpu_bandwidth(g, "effective"))
        ax.plot(_SIZES, nvlink.transfer_time(_SIZES, g), color=_GEN_COLORS[g],
                label=f"{nv.name} ({nv.gpu}): {rate} effective")
    ax.plot(_SIZES, np.full_like(_SIZES, np.nan), ls="--", lw=1)  # chosen generation, line rate
    ax.plot([], [], "o", color="black", ms=8, zorder=5, clip_on=False)
    ax.annotate("", (1, 1), textcoords="offset points", xytext=_TRANSFER_NOTE_OFFSET,
                fontsize=10, fontweight="bold", annotation_clip=False)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(*_transfer_ylim())
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("time (log)")
    ax.set_title("One GPU to another over all its NVLinks (dashed: at the line rate)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _legend_swatches(ax)
    _fill_nvlink_transfer(fig, gen, size_mb)
    return fig


def _fill_nvlink_transfer(fig, gen: int = 4, size_mb: float = 64.0) -> list:
    """Set what :func:`nvlink_transfer` varies on a figure it made (line widths and
    alphas, the dashed line-rate curve, the marker and its label); returns those
    artists, the legend's line samples included (see :func:`_legend_swatches`)."""
    s = v.positive("size_mb", _scalar("size_mb", size_mb)) * MB
    t = nvlink.transfer_time(s, gen)  # validates gen's range
    ax = fig.axes[0]
    n = len(NVLINK)
    curves, (dashed, marker), samples = ax.lines[:n], ax.lines[n:n + 2], ax.lines[-n:]
    for g, line, sample in zip(NVLINK, curves, samples):
        bold = g == gen
        for artist in (line, sample):
            artist.set_linewidth(2.6 if bold else 1.1)
            artist.set_alpha(1 if bold else 0.7)
    dashed.set_ydata(nvlink.transfer_time(_SIZES, gen, achieved=False))
    dashed.set_color(_GEN_COLORS[gen])
    marker.set_data([s], [t])
    note = _place_note(ax.texts[0], ax, s, t, display.fmt_time(t), _TRANSFER_NOTE_OFFSET)
    return [*curves, dashed, marker, note, *samples]


# --- tensor-parallel communication share -----------------------------------------------

_HIDDEN = np.arange(TP.FIGURE_WIDTHS[0], TP.FIGURE_WIDTHS[1] + 1, 512)
_LINK_COLORS = dict(zip(TP.LINKS, (COLORS["orange"], COLORS["blue"], COLORS["green"])))
_TP_NOTE_OFFSET = (8, 8)


@functools.lru_cache(maxsize=64)
def _share_curve(tp: int, seq_len, link: str, mfu) -> np.ndarray:
    """Communication share over :data:`_HIDDEN` (read-only; memoised: a demo's other
    controls leave it unchanged)."""
    share = np.asarray(TP.layer_cost(1, seq_len, _HIDDEN, tp, link, mfu).comm_share)
    share.flags.writeable = False
    return share


@functools.lru_cache(maxsize=256)
def _point_cost(tp: int, hidden, link: str, seq_len, mfu) -> TP.LayerCost:
    """:func:`interlib.tensor_parallel.layer_cost` of one sequence, memoised."""
    return TP.layer_cost(1, seq_len, hidden, tp, link, mfu)


def tp_layer_cost(tp: int = 8, hidden: int = 8192, link: str = "NVLink 4 (H100)",
                  seq_len: int = 4096, mfu: float = 0.4) -> TP.LayerCost:
    """The point :func:`tp_comm_share` marks: one layer's forward pass for one sequence of
    ``seq_len`` tokens (:func:`interlib.tensor_parallel.layer_cost`), memoised so a demo's
    figure and its summary compute it once per move.

    >>> c = tp_layer_cost()
    >>> c == tp_layer_cost() and 0 < float(c.comm_share) < 1
    True
    """
    v.integer("tp", tp)
    v.choice("link", link, TP.LINKS)
    return _point_cost(tp, _scalar("hidden", hidden), link, _scalar("seq_len", seq_len),
                       _scalar("mfu", mfu))


def tp_comm_share(tp: int = 8, hidden: int = 8192, link: str = "NVLink 4 (H100)",
                  seq_len: int = 4096, mfu: float = 0.4):
    """Share of a transformer layer's forward pass spent in the two tensor-parallel
    all-reduces, vs model width, for each link (chosen link bold). One sequence of
    ``seq_len`` tokens per micro-batch; compute at ``mfu`` of the GPU's BF16 peak."""
    fig, ax = new_figure()
    for name in TP.LINKS:
        ax.plot(_HIDDEN, np.full(_HIDDEN.shape, np.nan), color=_LINK_COLORS[name], label=name)
    ax.plot([], [], "o", color="black", ms=8, zorder=5, clip_on=False)
    ax.annotate("", (1, 0), textcoords="offset points", xytext=_TP_NOTE_OFFSET, fontsize=10,
                fontweight="bold", annotation_clip=False)
    ax.set_xlim(_HIDDEN[0], _HIDDEN[-1])
    ax.set_ylim(0, 1)  # a share
    ax.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f} %")
    ax.set_xlabel("model width h (hidden size)")
    ax.set_ylabel("share of layer time in all-reduce")
    ax.set_title(" ", fontsize=10)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    _legend_swatches(ax)
    _fill_tp_comm_share(fig, tp, hidden, link, seq_len, mfu)
    return fig


def _fill_tp_comm_share(fig, tp: int = 8, hidden: int = 8192, link: str = "NVLink 4 (H100)",
                        seq_len: int = 4096, mfu: float = 0.4) -> list:
    """Set what :func:`tp_comm_share` varies on a figure it made (the curves, their and
    legend's line samples' widths, the marker and its label, the title); returns those
    artists."""
    c = tp_layer_cost(tp, hidden, link, seq_len, mfu)  # validates every parameter
    ax = fig.axes[0]
    n = len(TP.LINKS)
    curves, marker, samples = ax.lines[:n], ax.lines[n], ax.lines[-n:]
    for name, line, sample in zip(TP.LINKS, curves, samples):
        line.set_ydata(_share_curve(tp, seq_len, name, mfu))
        lw = 2.6 if name == link else 1.2
        line.set_linewidth(lw)
        sample.set_linewidth(lw)
    share = float(c.comm_share)
    marker.set_data([hidden], [share])
    note = _place_note(ax.texts[0], ax, hidden, share, display.fmt_pct(share),
                       _TP_NOTE_OFFSET)
    ax.set_title(f"Tensor parallelism over {tp} GPUs, {seq_len} tokens, MFU "
                 f"{display.fmt_pct(mfu)} (forward pass, no overlap)", fontsize=10)
    return [*curves, marker, note, ax.title, *samples]


# --- peer-to-peer vs staged copies -----------------------------------------------------

_P2P_STYLE = {"nvlink": (COLORS["blue"], "-", "direct over NVLink"),
              "pcie_p2p": (COLORS["orange"], "-", "direct over PCIe (same switch)"),
              "staged": (COLORS["vermillion"], "--", "through host memory, pipelined"),
              "staged_serial": (COLORS["purple"], ":", "through host memory, one leg then "
                                                     "the other")}
#: Labelled points: key -> offset of the time label, points.
_P2P_NOTES = {"nvlink": (8, -14), "staged_serial": (-50, 8)}


@functools.lru_cache(maxsize=1)
def _p2p_ylim() -> tuple[float, float]:
    """Time limits covering every curve for every NVLink and PCIe generation."""
    return _decades([t for g in NVLINK for p in PCIE
                     for t in nvlink.p2p_vs_staged(_SIZES, g, p).values()])


def p2p_vs_staged(size_gb: float = 1.0, gen: int = 4, pcie_gen: str = "5.0"):
    """GPU-to-GPU copy time vs size: direct over NVLink, direct over PCIe, and staged
    through host memory (pipelined or not)."""
    fig, ax = new_figure()
    fig.subplots_adjust(right=_SIZE_AXES_RIGHT)
    for col, ls, label in _P2P_STYLE.values():
        ax.plot(_SIZES, np.full_like(_SIZES, np.nan), color=col, ls=ls, lw=2, label=label)
        ax.plot([], [], "o", color=col, ms=7, zorder=5, clip_on=False)
    for offset in _P2P_NOTES.values():
        ax.annotate("", (1, 1), textcoords="offset points", xytext=offset, fontsize=9,
                    fontweight="bold", annotation_clip=False)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(*_p2p_ylim())
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("time (log)")
    ax.set_title(" ", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_p2p_vs_staged(fig, size_gb, gen, pcie_gen)
    return fig


def _fill_p2p_vs_staged(fig, size_gb: float = 1.0, gen: int = 4, pcie_gen: str = "5.0") -> list:
    """Set what :func:`p2p_vs_staged` varies on a figure it made (curves, markers, the
    two time labels, the title); returns those artists. The legend does not change."""
    s = v.positive("size_gb", _scalar("size_gb", size_gb)) * GB
    v.choice("pcie_gen", pcie_gen, PCIE)
    point = nvlink.p2p_vs_staged(s, gen, pcie_gen)  # validates gen
    times = nvlink.p2p_vs_staged(_SIZES, gen, pcie_gen)
    ax = fig.axes[0]
    changed = []
    for i, key in enumerate(_P2P_STYLE):
        curve, marker = ax.lines[2 * i], ax.lines[2 * i + 1]
        curve.set_ydata(times[key])
        marker.set_data([s], [point[key]])
        changed += [curve, marker]
    for note, (key, offset) in zip(ax.texts, _P2P_NOTES.items()):
        changed.append(_place_note(note, ax, s, point[key], display.fmt_time(point[key]),
                                   offset))
    ax.set_title(f"GPU to GPU: NVLink {gen} vs PCIe {pcie_gen} x16 (achieved rates)",
                 fontsize=10)
    return [*changed, ax.title]
