"""Chapter 2 figures: PCIe transfers, shared uplinks, all-reduce over PCIe vs NVLink.

Each figure is built in two parts, so that an interactive demo can change one live figure
in place (``interlib.widgets.Demo.update``) and draw exactly what the pure function draws:

* the public function builds the *skeleton*: figure, axes, limits fixed over every valid
  parameter value, static labels, and the changing artists with placeholder data;
* one private ``_fill_<name>(fig, **params)`` sets everything that depends on the
  parameters and returns the artists it changed (always the same ones, in drawing order).

The public function returns the skeleton after calling the fill; the demo's update hook is
the same fill, so the two cannot drift apart.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import _validate as v
from .. import collectives, display, pcie, specs
from ..specs import PCIE
from ..units import GB, GiB, KiB, MiB
from . import COLORS, binary_size_axis, new_figure, si_axis

_GEN_COLORS = {"3.0": COLORS["grey"], "4.0": COLORS["sky"], "5.0": COLORS["blue"],
               "6.0": COLORS["green"]}
_SIZES = np.logspace(3, 11, 81)  # 1 kB .. 100 GB

_NOTE_WIDTH_PER_CHAR = 0.7
"""Upper bound of a bold character's width in ems (measured: 0.57-0.65 for the short
time and rate labels these figures print); used to keep a value label inside its axes."""
_NOTE_ASCENT, _NOTE_DESCENT = 0.75, 0.25
"""Height of a label above and below its baseline, in ems (an estimate, as above)."""


def _check_lanes(name, lanes):
    """ValueError naming ``name`` unless ``lanes`` is one of :data:`interlib.pcie.LANES`."""
    v.integer(name, lanes)
    if lanes not in pcie.LANES:
        raise ValueError(f"{name}={lanes!r} is not one of {list(pcie.LANES)}")


def _place_note(note, ax, xy, offset, text, other_side=None, flip_y=True):
    """Set ``note`` (an Annotation in offset points, baseline-aligned) to ``text`` at the
    data point ``xy``, left-aligned at ``offset`` (points) from it, unless it does not fit.

    A label whose estimated box would cross the left or right side of the axes goes to
    the other side of the point when it crosses less there: left-aligned at
    ``other_side`` (an offset in points) where given, else mirrored (right-aligned at
    ``(-dx, dy)``). With ``flip_y``, one that would cross the bottom or top is mirrored
    vertically the same way. Keeps the labels of points at either end of a fixed axis
    range inside the axes, and so inside the figure. Sizes are estimated from the font
    size (:data:`_NOTE_WIDTH_PER_CHAR`), without drawing."""
    px = ax.figure.dpi / 72.0  # pixels per point
    size = note.get_fontsize()  # points
    width = _NOTE_WIDTH_PER_CHAR * size * len(text) * px
    x, y = ax.transData.transform(xy)
    box = ax.bbox

    def over(lo, hi, a, b):  # pixels of [a, b] outside [lo, hi]
        return max(0.0, lo - a) + max(0.0, b - hi)

    def x_over(dx, ha):
        x0 = x + dx * px - (width if ha == "right" else 0.0)
        return over(box.x0, box.x1, x0, x0 + width)

    def y_over(dy):
        base = y + dy * px
        return over(box.y0, box.y1, base - _NOTE_DESCENT * size * px,
                    base + _NOTE_ASCENT * size * px)

    (dx, dy), ha = offset, "left"
    other, other_ha = (other_side, "left") if other_side else ((-dx, dy), "right")
    if x_over(other[0], other_ha) < x_over(dx, ha):
        (dx, dy), ha = other, other_ha
    flipped = -dy - (_NOTE_ASCENT - _NOTE_DESCENT) * size
    if flip_y and y_over(flipped) < y_over(dy):
        dy = flipped
    note.set_horizontalalignment(ha)
    note.xyann = (dx, dy)
    note.xy = xy
    note.set_text(text)


# ----------------------------------------------------------------- pcie_transfer
def pcie_transfer(gen: str = "5.0", lanes: int = 16, size_gb: float = 1.0):
    """Effective bandwidth of a host<->device copy vs copy size, every generation at
    ``lanes`` lanes (chosen generation bold); dashed: the usable line rate. The marker is
    the chosen size.

    Args:
        gen: PCIe generation, a key of :data:`interlib.specs.PCIE`.
        lanes: Link width, one of :data:`interlib.pcie.LANES`.
        size_gb: Copy size in GB (> 0); the x axis spans 1 kB to 100 GB.

    Raises:
        ValueError: naming the parameter, e.g. ``lanes=3 is not one of [1, 2, 4, 8, 16]``.

    >>> pcie_transfer("4.0", 8, 0.001).axes[0].get_title()
    'Host-to-device copy over PCIe x8 (dashed: usable line rate of PCIe 4.0)'
    """
    fig, ax = new_figure()
    # right=0.96: the "100 GB" tick label at the right end stays inside the figure.
    fig.subplots_adjust(left=0.14, right=0.96)
    for g in PCIE:  # data, widths and labels: _fill_pcie_transfer
        ax.plot(_SIZES, np.full_like(_SIZES, np.nan), color=_GEN_COLORS[g], label=f"PCIe {g}")
    ax.axhline(np.nan, ls="--", lw=1)  # usable line rate of the chosen generation
    ax.plot([np.nan], [np.nan], "o", color="black", ms=8, zorder=5)
    ax.annotate("", (np.nan, np.nan), textcoords="offset points", xytext=(8, -16),
                fontsize=10, fontweight="bold")
    ax.set_xscale("log")
    ax.set_xlim(_SIZES[0], _SIZES[-1])
    top = max(pcie.link_bandwidth(g, max(pcie.LANES), "usable") for g in PCIE)
    ax.set_ylim(0, 1.1 * top)
    si_axis(ax, "x", "B")
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("copy size (log)")
    ax.set_ylabel("effective bandwidth, per direction")
    ax.set_title("", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_pcie_transfer(fig, gen, lanes, size_gb)
    return fig


def _fill_pcie_transfer(fig, gen, lanes, size_gb):
    """Set every parameter-dependent artist of :func:`pcie_transfer`'s figure; returns
    them (curves, dashed line rate, marker, value label, legend, title)."""
    v.choice("gen", gen, PCIE)
    _check_lanes("lanes", lanes)
    v.positive("size_gb", size_gb)
    ax = fig.axes[0]
    *curves, rate, marker = ax.lines
    legend = ax.get_legend()
    for g, line, handle, text in zip(PCIE, curves, legend.get_lines(), legend.get_texts()):
        bold = g == gen
        label = (f"PCIe {g} x{lanes}: {display.fmt_rate(pcie.link_bandwidth(g, lanes))}"
                 " achieved")
        line.set_ydata(pcie.effective_bandwidth(_SIZES, g, lanes))
        line.set_label(label)
        text.set_text(label)
        for artist in (line, handle):
            artist.set_linewidth(2.6 if bold else 1.1)
            artist.set_alpha(1 if bold else 0.7)
    usable = pcie.link_bandwidth(gen, lanes, "usable")
    rate.set_ydata([usable, usable])
    rate.set_color(_GEN_COLORS[gen])
    s = size_gb * GB
    b = pcie.effective_bandwidth(s, gen, lanes)
    marker.set_data([s], [b])
    note = ax.texts[0]
    _place_note(note, ax, (s, b), (8, -16),
                f"{display.fmt_bytes(s)} in {display.fmt_time(pcie.transfer_time(s, gen, lanes))}")
    ax.title.set_text(f"Host-to-device copy over PCIe x{lanes} (dashed: usable line rate of "
                      f"PCIe {gen})")
    return [*curves, rate, marker, note, legend, ax.title]


# ------------------------------------------------------------------ shared_uplink
_DEVICES = np.arange(1, 17)
"""Device counts on the x axis (the demo's slider covers the same range)."""


def shared_uplink(devices: int = 4, gen: str = "5.0", uplink_lanes: int = 16):
    """Per-device bandwidth vs number of devices under one PCIe switch: traffic to the host
    (through the shared uplink) vs traffic between devices under the switch.

    Args:
        devices: Devices transferring at once (the marker), 1 to 16.
        gen: PCIe generation of every link.
        uplink_lanes: Width of the switch's uplink, one of :data:`interlib.pcie.LANES`.

    Raises:
        ValueError: naming the parameter, e.g. ``devices=0 is out of range``.

    >>> shared_uplink(16, "4.0", 8).axes[0].get_legend().get_texts()[1].get_text()
    'device <-> host through one x8 uplink'
    """
    fig, ax = new_figure()
    fig.subplots_adjust(left=0.14)
    nan = np.full(_DEVICES.shape, np.nan)  # data: _fill_shared_uplink
    ax.plot(_DEVICES, nan, "s-", color=COLORS["green"], lw=2,
            label="device <-> device under the switch (GPUDirect P2P / RDMA)")
    ax.plot(_DEVICES, nan, "o-", color=COLORS["vermillion"], lw=2,
            label="device <-> host through one uplink")
    ax.plot([np.nan], [np.nan], "o", color="black", ms=10, zorder=5)
    ax.annotate("", (np.nan, np.nan), textcoords="offset points", xytext=(8, 8),
                fontsize=10, fontweight="bold")
    ax.set_xlim(_DEVICES[0] - 0.5, _DEVICES[-1] + 0.5)
    # peer traffic keeps a device's whole x16 link: the top curve at the fastest generation
    ax.set_ylim(0, 1.15 * max(pcie.link_bandwidth(g, max(pcie.LANES)) for g in PCIE))
    si_axis(ax, "y", "B/s")
    ax.set_xlabel("devices transferring at the same time under one PCIe switch")
    ax.set_ylabel("achieved bandwidth per device, per direction")
    ax.set_title("", fontsize=10)
    ax.legend(fontsize=8, loc="upper right", frameon=False)
    _fill_shared_uplink(fig, devices, gen, uplink_lanes)
    return fig


def _fill_shared_uplink(fig, devices, gen, uplink_lanes):
    """Set every parameter-dependent artist of :func:`shared_uplink`'s figure; returns
    them (both curves, marker, value label, legend, title)."""
    v.integer("devices", devices, lo=int(_DEVICES[0]), hi=int(_DEVICES[-1]))
    v.choice("gen", gen, PCIE)
    _check_lanes("uplink_lanes", uplink_lanes)
    ax = fig.axes[0]
    peer, host, marker = ax.lines
    legend = ax.get_legend()
    peer.set_ydata(pcie.switch_bandwidth_per_device(_DEVICES, gen, "peer", uplink_lanes))
    host.set_ydata(pcie.switch_bandwidth_per_device(_DEVICES, gen, "host", uplink_lanes))
    label = f"device <-> host through one x{uplink_lanes} uplink"
    host.set_label(label)
    legend.get_texts()[1].set_text(label)
    b = pcie.switch_bandwidth_per_device(devices, gen, "host", uplink_lanes)
    marker.set_data([devices], [b])
    note = ax.texts[0]
    _place_note(note, ax, (devices, b), (8, 8), display.fmt_rate(b))
    ax.title.set_text(f"PCIe {gen}: devices x16 each, sharing one uplink to the CPU")
    return [peer, host, marker, note, legend, ax.title]


# ------------------------------------------------------- allreduce_pcie_vs_nvlink
_AR_SIZES = np.logspace(np.log2(64 * KiB), np.log2(16 * GiB), 57, base=2)
_SYSTEMS = (("h100-pcie-only", "ring", COLORS["orange"], "8 x H100, PCIe only: ring", (-58, 6)),
            ("dgx-h100", "ring", COLORS["blue"], "DGX H100, NVLink: ring", (-12, 12)),
            ("dgx-h100", "auto", COLORS["green"], "DGX H100, NVLink: NCCL's choice", (8, -16)))
"""(system, algorithm, colour, legend label, value label's offset in points)."""
_AR_OTHER_SIDE = {0: (30, 6)}
"""Offsets (points, left-aligned) for value labels that do not fit on their usual side:
the PCIe label at the smallest sizes goes right of its point, clear of the NVLink ring's
label above it. Others are mirrored (see :func:`_place_note`)."""
_AR_GPUS = range(2, min(specs.system(s[0]).gpus_per_node for s in _SYSTEMS) + 1)
"""GPU counts the figure accepts: an all-reduce needs two, and both boxes have so many."""


@lru_cache(maxsize=None)
def _ar_curves(gpus: int) -> tuple:
    """All-reduce time over ``_AR_SIZES`` for each of ``_SYSTEMS`` on ``gpus`` GPUs
    (read-only arrays; memoised: the demo asks for the same few GPU counts again)."""
    curves = []
    for sys_, alg, *_ in _SYSTEMS:
        t = collectives.predict("all_reduce", _AR_SIZES, sys_, gpus, 1, alg).time_s
        t.flags.writeable = False
        curves.append(t)
    return tuple(curves)


def _ar_points(size_bytes: float, gpus: int) -> tuple:
    """The all-reduce of ``size_bytes`` on ``gpus`` GPUs for each of ``_SYSTEMS``, in order
    (PCIe-only ring, NVLink ring, NCCL's choice on NVLink): the comparison the demo draws,
    for its summary and its answers."""
    return tuple(collectives.predict("all_reduce", size_bytes, sys_, gpus, 1, alg)
                 for sys_, alg, *_ in _SYSTEMS)


def _ar_fill_saturates() -> float:
    """Buffer size (bytes) above which the model's pipeline fill stops growing: the
    calibrated window (``PIPELINE_WINDOW``, fitted) times the chunks a message is cut into
    before chunks reach it (``PIPELINE_CHUNKS``). Every curve with more than two GPUs bends
    there (its marginal cost per byte drops by up to about a quarter): a feature of the
    model's ``min(window, size / chunks)``, which the figure marks rather than hides."""
    from ..specs import calibration as C

    return C.PIPELINE_WINDOW.value * C.PIPELINE_CHUNKS.value


def _ar_switches(gpus: int) -> list:
    """``[(size_bytes, "from", "to"), ...]``: where NCCL's choice (the third curve) changes
    algorithm or protocol over ``_AR_SIZES`` on ``gpus`` GPUs (the first size of each new
    choice). Its curve is the lower envelope of the pairs NCCL picks between, so it bends
    at each of these."""
    p = collectives.predict("all_reduce", _AR_SIZES, _SYSTEMS[2][0], gpus, 1, _SYSTEMS[2][1])
    pairs = [f"{a}/{q}" for a, q in zip(np.atleast_1d(p.algorithm), np.atleast_1d(p.protocol))]
    return [(float(_AR_SIZES[i]), pairs[i - 1], pairs[i]) for i in range(1, len(pairs))
            if pairs[i] != pairs[i - 1]]


@lru_cache(maxsize=1)
def _ar_ylim() -> tuple:
    """Whole decades around every curve at every GPU count in ``_AR_GPUS``, plus one
    decade on top for the legend, so the axes do not move with the GPU count."""
    ts = np.concatenate([t for g in _AR_GPUS for t in _ar_curves(g)])
    return (10.0 ** np.floor(np.log10(ts.min())), 10.0 ** (np.ceil(np.log10(ts.max())) + 1))


def allreduce_pcie_vs_nvlink(size_mib: float = 1024.0, gpus: int = 8):
    """All-reduce time vs buffer size on ``gpus`` GPUs of a PCIe-only box and of a DGX
    H100 (collectives.predict).

    Args:
        size_mib: Buffer per GPU in MiB (> 0), the markers; the x axis spans 64 KiB to
            16 GiB.
        gpus: GPUs taking part, 2 to 8 (both boxes hold eight).

    Raises:
        ValueError: naming the parameter, e.g. ``gpus=1 is out of range``.

    >>> allreduce_pcie_vs_nvlink(1.0, 2).axes[0].get_title()
    'All-reduce on 2 GPUs: PCIe only vs NVLink + NVSwitch (model)'
    """
    fig, ax = new_figure()
    nan = np.full(_AR_SIZES.shape, np.nan)  # data: _fill_allreduce_pcie_vs_nvlink
    for _sys, _alg, col, label, _offset in _SYSTEMS:
        ax.plot(_AR_SIZES, nan, color=col, lw=2, label=label)
        ax.plot([np.nan], [np.nan], "o", color=col, ms=8, zorder=5)
    for _sys, _alg, col, _label, offset in _SYSTEMS:
        ax.annotate("", (np.nan, np.nan), textcoords="offset points", xytext=offset,
                    fontsize=9, color=col, fontweight="bold")
    # NCCL's choice changes algorithm or protocol (points set by the fill)
    ax.plot([np.nan], [np.nan], "|", color=COLORS["green"], ms=14, mew=2, zorder=6)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(_AR_SIZES[0], _AR_SIZES[-1])
    ax.set_ylim(*_ar_ylim())
    sat = _ar_fill_saturates()
    ax.axvline(sat, color="0.6", lw=0.8, ls=":", zorder=1)
    ax.text(sat * 1.15, _ar_ylim()[0] * 1.6, "model: pipeline fill\nstops growing here",
            fontsize=7, color="0.4", va="bottom", ha="left")
    binary_size_axis(ax, "x")
    si_axis(ax, "y", "s")
    ax.set_xlabel("all-reduce buffer per GPU (log)")
    ax.set_ylabel("time (log)")
    ax.set_title("", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    _fill_allreduce_pcie_vs_nvlink(fig, size_mib, gpus)
    return fig


def _fill_allreduce_pcie_vs_nvlink(fig, size_mib, gpus):
    """Set every parameter-dependent artist of :func:`allreduce_pcie_vs_nvlink`'s figure;
    returns them (curves, markers, value labels, title)."""
    v.positive("size_mib", size_mib)
    v.integer("gpus", gpus, lo=_AR_GPUS[0], hi=_AR_GPUS[-1])
    ax = fig.axes[0]
    s = size_mib * MiB
    pairs = ax.lines[:2 * len(_SYSTEMS)]
    for i, ((sys_, alg, *_, offset), curve, marker, note, times) in enumerate(zip(
            _SYSTEMS, pairs[0::2], pairs[1::2], ax.texts, _ar_curves(gpus))):
        curve.set_ydata(times)
        t = collectives.predict("all_reduce", s, sys_, gpus, 1, alg).time_s
        marker.set_data([s], [t])
        # The NVLink ring and NCCL's choice often coincide: their labels stay on opposite
        # sides vertically (one may then touch the x axis at the smallest sizes).
        _place_note(note, ax, (s, t), offset, display.fmt_time(t),
                    other_side=_AR_OTHER_SIDE.get(i), flip_y=False)
    switches = _ar_switches(gpus)
    auto_curve = _ar_curves(gpus)[2]
    ticks = ax.lines[2 * len(_SYSTEMS)]
    xs = [x for x, *_ in switches]
    ticks.set_data(xs, [float(np.interp(np.log(x), np.log(_AR_SIZES), auto_curve)) for x in xs])
    label = _SYSTEMS[2][3] + (" (| marks a switch)" if switches else "")
    ax.get_legend().get_texts()[2].set_text(label)
    ax.title.set_text(f"All-reduce on {gpus} GPUs: PCIe only vs NVLink + NVSwitch (model)")
    return [*ax.lines, *ax.texts, ax.title, ax.get_legend()]


__all__ = ["pcie_transfer", "shared_uplink", "allreduce_pcie_vs_nvlink"]
