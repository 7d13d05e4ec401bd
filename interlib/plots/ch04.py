"""Chapter 4 figures: mesh vs switch, ring vs NVLS all-reduce, bisection of a cut.

Each figure is built in two steps so that a demo can redraw it in place: a *skeleton*
(figure, axes, fixed limits and ticks, static lines and labels, and every changing artist
created empty), then one ``_fill_<name>(fig, **params)`` that sets everything that depends
on the parameters and returns those artists. The public function is skeleton + fill; the
demos in :mod:`interlib.widgets.ch04` use the same fill as their ``update`` hook, so the
two cannot drift apart. The axes limits never depend on the parameters (they cover every
value the function accepts), which is what lets a demo blit only the changed artists.

>>> fig = bisection("dgx-h100", k=7)
>>> fig.axes[0].texts[0].get_text()
'7 | 1: 450 GB/s'
>>> changed = _fill_bisection(fig, "gb200-nvl72", 36)  # the same figure, redrawn in place
>>> fig.axes[0].texts[0].get_text(), changed == _fill_bisection(fig, "gb200-nvl576", 1)
('36 | 36: 32.4 TB/s', True)
>>> mesh_vs_switch(n=73)
Traceback (most recent call last):
    ...
ValueError: n=73 is out of range: must be between 2 and 72
"""

from __future__ import annotations

import functools
from types import MappingProxyType

import numpy as np
from matplotlib.patches import Rectangle

from .. import _validate as v
from .. import display, nvswitch
from ..specs import NVLINK, system as _system
from ..specs.inside_box import NVLINK_DOMAINS
from ..units import GiB, KiB, MiB
from . import COLORS, binary_size_axis, new_figure, si_axis


def _keep(fig, **artists):
    """Remember the changing artists of ``fig`` by name (for its fill function)."""
    fig._interlib_parts = artists


def _parts(fig) -> dict:
    """The changing artists :func:`_keep` stored on a figure this module built."""
    try:
        return fig._interlib_parts
    except AttributeError:
        raise ValueError("fig must be a Figure made by this module's plot function") from None


def _label_side(ann, right: bool, dx: float, dy: float):
    """Put annotation ``ann`` ``dx`` points right of its point (``right``) or left of it,
    ``dy`` points up, so a label near an axis' right end stays inside the figure."""
    ann.xyann = (dx if right else -dx, dy)
    ann.set_horizontalalignment("left" if right else "right")


# --- mesh vs switch ----------------------------------------------------------------------

#: Largest GPU count of the mesh-vs-switch figure: the largest single-rack NVLink domain.
MESH_MAX_GPUS = int(NVLINK_DOMAINS["gb200-nvl72"].gpus.value)
_MESH_NS = np.arange(2, MESH_MAX_GPUS + 1)


def mesh_vs_switch(n: int = 8, gen: int = 4):
    """Left: cables for a full mesh (n(n-1)/2) vs GPU-to-switch links (n x links per GPU).
    Right: per-pair bandwidth, per direction, when the GPU's links are split into a mesh
    vs through a switch (every pair can use all links). ``n``: 2 to
    :data:`MESH_MAX_GPUS`; ``gen``: an NVLink generation."""
    fig = _mesh_vs_switch_skeleton()
    _fill_mesh_vs_switch(fig, n, gen)
    return fig


def _mesh_vs_switch_skeleton():
    """Axes, limits (covering every NVLink generation), the mesh-links curve; the rest
    empty."""
    ns = _MESH_NS
    fig, (a1, a2) = new_figure(1, 2, figsize=(9.0, 4.2))
    fig.subplots_adjust(left=0.08, right=0.98, wspace=0.32)
    a1.plot(ns, nvswitch.mesh_links(ns), color=COLORS["vermillion"], lw=2,
            label="full mesh: n(n-1)/2 links")
    switched, = a1.plot([], [], color=COLORS["blue"], lw=2, label="switched")
    cursor = a1.axvline(ns[0], color="black", lw=1, ls=":")
    a1.set_xlabel("GPUs n")
    a1.set_ylabel("cables (GPU links)")
    a1.set_xlim(ns[0], ns[-1])
    a1.set_ylim(0, 1.05 * max(nvswitch.mesh_links(ns[-1]),
                              *(nvswitch.switch_links(ns[-1], g) for g in NVLINK)))
    a1.set_title("How many links?", fontsize=10)
    leg1 = a1.legend(fontsize=8, loc="upper left", frameon=False)
    mesh, = a2.step([], [], where="post", color=COLORS["vermillion"], lw=2, label="mesh")
    switch, = a2.plot([], [], color=COLORS["blue"], lw=2, label="through a switch: all links")
    marker, = a2.plot([], [], "o", color="black", ms=8)
    # Where the GPU has fewer links than peers there is no full mesh at all: shade that
    # range and say so (above the grid, below the curves: a blitted frame draws it there).
    # An explicit Rectangle (x in data, y across the axes): axvspan returns a Polygon on
    # matplotlib 3.8 (the browser's Pyodide) and a Rectangle on 3.9+, and the update hook
    # moves it with set_x / set_width.
    no_mesh = a2.add_patch(Rectangle((ns[-1], 0), 0, 1, transform=a2.get_xaxis_transform(),
                                     color="#e8e8e8", zorder=1.6, lw=0))
    no_mesh_note = a2.text(0, 0.3, "", transform=a2.get_xaxis_transform(), ha="center",
                           va="center", fontsize=9, color="#333333", zorder=1.7)
    a2.set_xlabel("GPUs n")
    a2.set_ylabel("one pair's bandwidth, per direction")
    a2.set_xlim(ns[0], ns[-1])
    a2.set_ylim(0, 1.1 * max(nv.per_gpu_per_direction for nv in NVLINK.values()))
    si_axis(a2, "y", "B/s")
    a2.set_title(" ", fontsize=10)
    leg2 = a2.legend(fontsize=8, loc="upper right", frameon=False)
    _keep(fig, switched=switched, cursor=cursor, leg1=leg1, mesh=mesh, switch=switch,
          marker=marker, title2=a2.title, leg2=leg2, no_mesh=no_mesh,
          no_mesh_note=no_mesh_note)
    return fig


def _fill_mesh_vs_switch(fig, n: int = 8, gen: int = 4) -> list:
    """Set everything of :func:`mesh_vs_switch` that depends on ``n`` and ``gen``;
    returns the artists (the same ones for any parameters)."""
    n = v.integer("n", n, lo=int(_MESH_NS[0]), hi=int(_MESH_NS[-1]))
    gen = v.integer("gen", gen, lo=min(NVLINK), hi=max(NVLINK))
    p = _parts(fig)
    ns = _MESH_NS
    nv = NVLINK[gen]
    p["switched"].set_data(ns, nvswitch.switch_links(ns, gen))
    p["leg1"].get_texts()[1].set_text(f"switched: n x {nv.links_per_gpu.value:g} links")
    p["cursor"].set_xdata([n, n])
    pair = nvswitch.mesh_pair_bandwidth(ns, gen)
    p["mesh"].set_data(ns, np.where(pair > 0, pair, np.nan))  # no line where no mesh
    p["switch"].set_data(ns, np.full(ns.shape, nv.per_gpu_per_direction))
    p["marker"].set_data([n], [nvswitch.mesh_pair_bandwidth(n, gen)])
    links = int(nv.links_per_gpu.value)
    first = links + 2  # the first n whose n - 1 peers outnumber the GPU's links
    p["no_mesh"].set_x(first - 0.5)
    p["no_mesh"].set_width(max(0.0, ns[-1] - first + 0.5))
    p["no_mesh_note"].set_x((first + ns[-1]) / 2)
    p["no_mesh_note"].set_text(f"no full mesh from n = {first}:\n{links} links per GPU "
                               f"cannot reach\nn - 1 peers (0 B/s per pair)"
                               if first <= ns[-1] else "")
    p["title2"].set_text(f"{nv.name}: bandwidth between two GPUs")
    p["leg2"].get_texts()[0].set_text(
        f"mesh: {nv.links_per_gpu.value:g} links split among n-1 peers")
    return [p[k] for k in ("switched", "cursor", "leg1", "no_mesh", "no_mesh_note", "mesh",
                           "switch", "marker", "title2", "leg2")]


# --- ring vs NVLS --------------------------------------------------------------------------

#: Buffer sizes of the ring-vs-NVLS figure: from 8 KiB, where the ring's smaller fixed
#: latency still wins on every system, to 16 GiB, the large-message plateau.
_SIZES = np.logspace(np.log2(8 * KiB), np.log2(16 * GiB), 64, base=2)
SYSTEMS = ("dgx-h100", "dgx-b200", "gb200-nvl72")
#: The buffer sizes the figure's x axis covers, MiB (smallest, largest).
SIZE_MIB_RANGE = (float(_SIZES[0] / MiB), float(_SIZES[-1] / MiB))
#: Largest GPU count of :data:`SYSTEMS`' NVLink domains.
NVLS_MAX_GPUS = max(_system(s).gpus_per_node for s in SYSTEMS)
_RING_NVLS = (("ring", COLORS["orange"], "ring", -14),
              ("nvls", COLORS["green"], "NVLS (reduction in the switch)", 6))
#: Share of the x axis (log) past which the time labels go left of their markers.
_FLIP_AT = 0.9
#: Share of the y axis below which the ring's marker is too low for a label under it; the
#: labels' offsets (points) then.
_LOW_LABEL_AT = 0.08
_LOW_LABEL_DY = {"ring": 20, "nvls": 6}


@functools.lru_cache(maxsize=256)
def _busbw_curves(system: str, gpus: int) -> MappingProxyType:
    """Ring and NVLS busbw over the figure's sizes on ``gpus`` GPUs of ``system``, as
    read-only arrays (memoised: a slider move that changes only the size reuses them)."""
    r = nvswitch.ring_vs_nvls(_SIZES, system, gpus)
    out = {}
    for key, *_ in _RING_NVLS:
        out[key] = np.array(r[key].busbw, dtype=float)
        out[key].flags.writeable = False
    return MappingProxyType(out)


@functools.lru_cache(maxsize=64)
def _predictions(system: str, gpus: int, size_mib: float) -> MappingProxyType:
    """:func:`interlib.nvswitch.ring_vs_nvls` for a ``size_mib`` MiB buffer on ``gpus``
    GPUs of ``system`` (memoised; the figure and the demo's summary share it)."""
    return MappingProxyType(nvswitch.ring_vs_nvls(size_mib * MiB, system, gpus))


def ring_vs_nvls(system: str = "dgx-h100", gpus: int = 8, size_mib: float = 1024.0):
    """All-reduce busbw vs size with the ring and with NVLS (in-switch reduction) on
    ``gpus`` GPUs of ``system`` (clamped to its domain size); dashed: per-GPU NVLink line
    rate, dotted: NCCL's effective rate. ``system``: one of :data:`SYSTEMS`;
    ``size_mib``: within the x axis, :data:`SIZE_MIB_RANGE`."""
    fig = _ring_vs_nvls_skeleton()
    _fill_ring_vs_nvls(fig, system, gpus, size_mib)
    return fig


def _ring_vs_nvls_skeleton():
    """Axes with fixed limits (every system of :data:`SYSTEMS`), labels and legend; the
    curves, markers, time labels, rate lines and title empty."""
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    parts = {}
    for key, col, label, dy in _RING_NVLS:
        parts[key], = ax.plot([], [], color=col, lw=2, label=label)
        parts[key + "_dot"], = ax.plot([], [], "o", color=col, ms=8, zorder=5)
        parts[key + "_time"] = ax.annotate("", (_SIZES[0], 0), textcoords="offset points",
                                           xytext=(8, dy), fontsize=9, color=col,
                                           fontweight="bold",
                                           bbox=dict(boxstyle="square,pad=0.1", fc="white",
                                                     ec="none", alpha=0.8))
    parts["line_rate"] = ax.axhline(0, color="black", ls="--", lw=1,
                                    label="NVLink line rate per GPU, per direction")
    parts["effective"] = ax.axhline(0, color="black", ls=":", lw=1,
                                    label="NCCL's effective NVLink rate")
    parts["full_chunks"] = ax.axvline(_SIZES[0], color="0.55", lw=0.8, ls=":", zorder=1)
    parts["full_chunks_note"] = ax.annotate(
        "model: pipeline chunks\nfull size from here", (_SIZES[0], 0.0),
        xycoords=("data", "axes fraction"), textcoords="offset points", xytext=(3, 3),
        fontsize=7, color="0.4", va="bottom", ha="left")
    ax.set_xscale("log", base=2)
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    ax.set_ylim(0, 1.6 * max(_system(s).gpu.nvlink.per_gpu_per_direction for s in SYSTEMS))
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("all-reduce buffer per GPU (log)")
    ax.set_ylabel("bus bandwidth (nccl-tests busbw)")
    ax.set_title(" ", fontsize=10)
    parts["title"] = ax.title
    parts["legend"] = ax.legend(fontsize=8, loc="upper left", frameon=False)
    _keep(fig, **parts)
    return fig


def _fill_ring_vs_nvls(fig, system: str = "dgx-h100", gpus: int = 8,
                       size_mib: float = 1024.0) -> list:
    """Set everything of :func:`ring_vs_nvls` that depends on the parameters; returns the
    artists (the same ones for any parameters). The legend is not among them: it never
    changes, and the y limits keep every curve, marker and label below it."""
    sys_ = _system(v.choice("system", system, SYSTEMS))
    g = min(v.integer("gpus", gpus, lo=2), sys_.gpus_per_node)
    v.number("size_mib", size_mib, lo=SIZE_MIB_RANGE[0], hi=SIZE_MIB_RANGE[1])
    p = _parts(fig)
    curves = _busbw_curves(system, g)
    s = size_mib * MiB
    at = _predictions(system, g, size_mib)
    right = np.log(s / _SIZES[0]) <= _FLIP_AT * np.log(_SIZES[-1] / _SIZES[0])
    # near the x axis (small buffers) the ring's label, normally below its marker, would
    # fall on the tick labels: stack both labels above the markers instead
    low = at["ring"].busbw < _LOW_LABEL_AT * fig.axes[0].get_ylim()[1]
    for key, _, _, dy in _RING_NVLS:
        if low:
            dy = _LOW_LABEL_DY[key]
        p[key].set_data(_SIZES, curves[key])
        p[key + "_dot"].set_data([s], [at[key].busbw])
        note = p[key + "_time"]
        note.xy = (s, at[key].busbw)
        note.set_text(display.fmt_time(at[key].time_s))
        _label_side(note, right, 8, dy)
    full = full_chunk_size(g)
    p["full_chunks"].set_xdata([full] * 2)
    p["full_chunks_note"].xy = (full, 0.0)
    # right of its line, or left of it in the right 40 % of the axis (room for the text)
    _label_side(p["full_chunks_note"],
                np.log(full / _SIZES[0]) <= 0.6 * np.log(_SIZES[-1] / _SIZES[0]), 3, 3)
    nv = sys_.gpu.nvlink
    p["line_rate"].set_ydata([nv.per_gpu_per_direction] * 2)
    p["effective"].set_ydata([nv.per_gpu_effective] * 2)
    p["title"].set_text(f"{sys_.title}: all-reduce on {g} GPUs, ring vs NVLS (model)")
    return [p[k] for k in ("ring", "ring_dot", "ring_time", "nvls", "nvls_dot", "nvls_time",
                           "full_chunks", "full_chunks_note", "line_rate", "effective",
                           "title")]


def full_chunk_size(gpus: int) -> float:
    """Buffer size (bytes) from which the model's pipeline chunks have their full size on
    one node of ``gpus`` GPUs: the calibrated window (``PIPELINE_WINDOW``, fitted) times
    ``max(PIPELINE_CHUNKS, gpus)`` (the ring cuts a buffer into a slice per GPU, NVLS into a
    share per GPU, and a message into at least ``PIPELINE_CHUNKS`` chunks). Below it a chunk
    grows with the buffer, so the pipeline fill (the first chunk crossing every stage:
    2(g-1) for a ring, ``NVLS_PIPELINE_STEPS_PER_GPU`` x g for NVLS) grows in proportion to
    the buffer and busbw stalls; above it the fill is fixed and busbw climbs again. On 72
    GPUs NVLS's deep pipeline makes this a visible plateau then a rise: a feature of the
    model's ``min(window, size / chunks)``, which the figure marks."""
    from ..specs import calibration as C

    v.integer("gpus", gpus, lo=1)
    return C.PIPELINE_WINDOW.value * max(C.PIPELINE_CHUNKS.value, gpus)


# --- bisection -----------------------------------------------------------------------------

DOMAINS = ("dgx-h100", "gb200-nvl72", "gb200-nvl576")
#: Top of the y axis over the largest bisection: room for the cut's label above the peak.
_BIS_HEADROOM = 4.0


def _domain(name: str):
    """``(domain, n, per-GPU bandwidth per direction)`` of an NVLink domain."""
    d = NVLINK_DOMAINS[name]
    return d, int(d.gpus.value), NVLINK[d.nvlink_gen].per_gpu_per_direction


def bisection(domain: str = "gb200-nvl72", k: int = 36):
    """Bandwidth across a cut of an NVLink domain into ``k`` (>= 1; clamped to at most
    n - 1) and ``n - k`` GPUs, per direction; the marker is the chosen cut, the peak is the bisection.
    The y axis is logarithmic and the same for every domain, from an eighth of the
    smallest one-GPU cut to four times the largest bisection, so domains of 8 and of 576
    GPUs compare on one scale."""
    fig = _bisection_skeleton()
    _fill_bisection(fig, domain, k)
    return fig


def _bisection_skeleton():
    """Axes with fixed limits (every domain of the catalogue), labels; the curve, marker,
    label, bisection line, title and legend text empty."""
    doms = [_domain(name) for name in NVLINK_DOMAINS]
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    curve, = ax.plot([], [], color=COLORS["blue"], lw=2,
                     label="bandwidth across the cut, per direction")
    marker, = ax.plot([], [], "o", color="black", ms=8, zorder=5)
    note = ax.annotate("", (0, 1), textcoords="offset points", xytext=(8, -16),
                       fontsize=10, fontweight="bold")
    bis = ax.axhline(1, color=COLORS["vermillion"], ls="--", lw=1, label="bisection")
    ax.set_yscale("log")
    ax.set_xlim(0, 1)
    ax.set_ylim(min(per_gpu for _, _, per_gpu in doms) / 8,
                _BIS_HEADROOM * max(nvswitch.bisection_bandwidth(n, per_gpu)
                                    for _, n, per_gpu in doms))
    ax.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f} %")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("share of the domain's GPUs on one side of the cut")
    ax.set_ylabel("bandwidth across the cut (log)")
    ax.set_title(" ", fontsize=10)
    legend = ax.legend(fontsize=8, loc="lower center", frameon=False)
    _keep(fig, curve=curve, marker=marker, note=note, bis=bis, title=ax.title, legend=legend)
    return fig


def _fill_bisection(fig, domain: str = "gb200-nvl72", k: int = 36) -> list:
    """Set everything of :func:`bisection` that depends on ``domain`` and ``k``; returns
    the artists (the same ones for any parameters)."""
    d, n, per_gpu = _domain(v.choice("domain", domain, NVLINK_DOMAINS))
    k = min(v.integer("k", k, lo=1), n - 1)
    p = _parts(fig)
    ks = np.arange(1, n)
    p["curve"].set_data(ks / n, nvswitch.cut_bandwidth(n, ks, per_gpu))
    b = nvswitch.cut_bandwidth(n, k, per_gpu)
    p["marker"].set_data([k / n], [b])
    p["note"].xy = (k / n, b)
    p["note"].set_text(f"{k} | {n - k}: {display.fmt_rate(b)}")
    if k in (n // 2, n - n // 2):
        # at the bisection the curve falls away on both sides: label above the peak
        p["note"].xyann = (0, 8)
        p["note"].set_horizontalalignment("center")
    else:
        _label_side(p["note"], 2 * k <= n, 8, -16)
    bis = nvswitch.bisection_bandwidth(n, per_gpu)
    p["bis"].set_ydata([bis, bis])
    p["legend"].get_texts()[1].set_text(f"bisection: {display.fmt_rate(bis)} per direction")
    how = "one switch tier: non-blocking" if d.bisection_known else "assuming non-blocking"
    p["title"].set_text(f"{d.name}: cutting the domain in two ({how})")
    return [p[a] for a in ("curve", "marker", "note", "bis", "title", "legend")]
