"""A figure laid out again for a phone: the phone layout of every figure the book shows.

A demo's figure has a phone rendering on the site (``interlib.widgets``: the page picks it
below :data:`NARROW_BELOW_PX`); so does a static figure a notebook shows
(:class:`interlib.plots.BookFigure`, whose display carries a phone PNG that the site's build
shows on a phone). Both use :func:`narrow_figure`.

It moved here from ``interlib.widgets.core`` unchanged (issue 34 asks for static figures
laid out like the demos, and plots cannot import widgets); core imports it back under the
same names.
"""

from __future__ import annotations

from .. import _validate as v


def _check_fig(fig):
    from matplotlib.figure import Figure

    v.instance("fig", fig, Figure, "a matplotlib Figure")


NARROW_WIDTH_IN = 4.0
"""Width of a demo's phone figure, inches (384 px at the book's 96 dpi: shown in a
330-390 px box, its 10-point text stays about 11 px tall)."""

NARROW_MIN_PT = 9.5
"""Smallest tick and axis-label type of a phone figure (pt): the 384 px figure is shown in
a box of about 330 px on a 390 px phone, where 9.5 pt reads as about 8 pt."""

NARROW_BELOW_PX = 600
"""The page shows the phone figure when the demo's box is narrower than this (CSS px)."""


def narrow_figure(fig):
    """Re-lay ``fig`` out, in place, for a phone: :data:`NARROW_WIDTH_IN` wide, panels
    side by side stacked into one column (reading order), margins from the text sizes
    (matplotlib's constrained layout, run once and then frozen, so an ``update`` hook's
    later changes keep one layout). Returns ``fig``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.gridspec import GridSpec

    _check_fig(fig)
    # A colour bar is part of its panel, not a panel: fig.colorbar (with no layout engine)
    # puts the two in a grid of their own, with empty rows of height 0 that constrained
    # layout cannot solve. The panel gets the width less a band on the right, where the
    # bar is placed by hand after the layout (:func:`_place_colorbars`).
    bars = [ax for ax in fig.axes if hasattr(ax, "_colorbar")]
    axes = [ax for ax in fig.axes if ax.get_subplotspec() is not None and ax not in bars]
    w, h = fig.get_size_inches()
    if not axes:
        return fig
    if bars and len(axes) > 1:
        bars = []  # (no demo has one: left to the figure's own layout)
    if bars:
        axes[0].set_subplotspec(GridSpec(1, 1, figure=fig)[0])
        for bar in bars:
            bar.set_subplotspec(GridSpec(1, 1, figure=fig)[0])
            bar.set_in_layout(False)
    nrows, ncols = axes[0].get_subplotspec().get_gridspec().get_geometry()
    if ncols > 1 and len(axes) > 1:
        order = sorted(axes, key=lambda a: (a.get_subplotspec().rowspan.start,
                                            a.get_subplotspec().colspan.start))
        gs = GridSpec(len(order), 1, figure=fig)
        for i, ax in enumerate(order):
            ax.set_subplotspec(gs[i])
        panel_h = max(2.6, h * NARROW_WIDTH_IN / w * 1.15)
        height = panel_h * len(order) + 0.4
    else:
        height = max(h * 0.85, 2.8 * nrows)
    # Titles and figure-level notes wrap at the new width; legends get smaller type.
    titles = [t for ax in axes for t in (ax.title, ax._left_title, ax._right_title)]
    sup = [fig._suptitle] if getattr(fig, "_suptitle", None) is not None else []
    for t in [*fig.texts, *titles, *sup]:
        t.set_wrap(True)
    for ax in axes:
        leg = ax.get_legend()
        if leg is not None:
            for t in leg.get_texts():
                t.set_fontsize(min(t.get_fontsize(), 7.5))
        if leg is not None and getattr(leg, "_ncols", 1) > 3:  # a wide one-row legend
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles, labels, ncol=3, fontsize=7.5, loc=leg._loc,
                      frameon=leg.get_frame_on()).set_zorder(leg.get_zorder())
        elif leg is not None and leg.get_bbox_to_anchor().x0 >= ax.bbox.x1 - 1:
            # A legend right of the axes would squeeze them to a sliver: below the figure.
            handles, labels = ax.get_legend_handles_labels()
            leg.remove()
            fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=7.5,
                       frameon=False)
            height += 0.2 * -(-len(labels) // 2) + 0.1
    # Tick and axis labels no smaller than a phone can show legibly.
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if any(t.get_fontsize() < NARROW_MIN_PT for t in axis.get_ticklabels(which="both")):
                ax.tick_params(axis=axis.axis_name, which="both", labelsize=NARROW_MIN_PT)
            if axis.label.get_fontsize() < NARROW_MIN_PT:
                axis.label.set_fontsize(NARROW_MIN_PT)
    # Notes written under the axes (figure text low on the figure) get a band of their own.
    notes = [t for t in fig.texts if t.get_position()[1] < 0.2]
    band = 1.1 if notes else 0.0
    for t in notes:
        t.set_position((0.03, 0.01))
        t.set_verticalalignment("bottom")
    height += band
    fig.set_size_inches(NARROW_WIDTH_IN, height)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    # Long labels are broken before the layout (text widths need no layout), so one
    # layout pass serves: a phone frame of a demo without an update hook pays it per move.
    rows = len(order) if ncols > 1 and len(axes) > 1 else nrows
    _wrap_labels(fig, canvas.get_renderer(), (height - band) * fig.dpi / rows * 0.72)
    right = 1 - (NARROW_COLORBAR_IN / NARROW_WIDTH_IN if bars else 0)
    fig.set_layout_engine("constrained",
                          rect=(0, band / height, right, 1 - band / height))
    canvas.draw()
    _place_colorbars(axes[0], bars)
    fig.set_layout_engine("none")
    if bars:
        canvas.draw()  # the bars' ticks where they now are
    renderer = canvas.get_renderer()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            _thin_tick_labels(axis, renderer)
    return fig


NARROW_COLORBAR_IN = 0.8
"""Band on the right of a phone figure for a panel's colour bar, its ticks and label (in)."""


def _place_colorbars(panel, bars):
    """Each colour bar 0.12 in wide, 0.15 in right of ``panel``, as tall as it."""
    fig = panel.get_figure()
    w_in = fig.get_size_inches()[0]
    pos = panel.get_position()
    for bar in bars:
        bar.set_position([pos.x1 + 0.15 / w_in, pos.y0, 0.12 / w_in, pos.height])


NARROW_LABEL_GAP = 0.6
"""Least space between two tick labels of a phone figure, in em of their type: closer
ones are thinned (:func:`_thin_tick_labels`)."""


def _wrap_labels(fig, renderer, panel_px: float) -> bool:
    """Break long labels onto lines at spaces, before the layout: an x label or a legend
    wider than :data:`NARROW_TEXT_SHARE` of the figure (about its axes' width; a legend's
    entries, :func:`_wrap_legend`), a y label taller than ``panel_px`` (about a panel's
    height). Returns whether any text changed."""
    room_x = NARROW_TEXT_SHARE * fig.bbox.width
    changed = False
    for leg in fig.legends:
        changed |= _wrap_legend(leg, renderer, room_x)
    for ax in fig.axes:
        changed |= _wrap_legend(ax.get_legend(), renderer, room_x)
        if not (ax.get_visible() and ax.axison):
            continue
        for axis in (ax.xaxis, ax.yaxis):
            label = axis.label
            text = label.get_text()
            if not (axis.get_visible() and label.get_visible() and " " in text.strip()):
                continue
            extent = label.get_window_extent(renderer)
            size, room = ((extent.width, room_x) if axis.axis_name == "x" else
                          (extent.height, panel_px))
            if size <= room:
                continue
            changed |= _wrap_text(label, room, renderer)
    return changed


NARROW_TEXT_SHARE = 0.78
"""Widest x label or legend of a phone figure, as a share of the figure's width (about the
width of its axes): a wider one is broken onto lines."""


def _wrap_legend(leg, renderer, room) -> bool:
    """Break the entries of a legend wider than ``room`` px onto lines so it fits (each
    column loses the excess). Returns whether any entry changed."""
    if leg is None or not leg.get_visible():
        return False
    excess = leg.get_window_extent(renderer).width - room
    if excess <= 0:
        return False
    ncols = max(1, getattr(leg, "_ncols", 1))
    changed = False
    for t in leg.get_texts():
        width = t.get_window_extent(renderer).width
        limit = max(width - excess / ncols, 60.0)
        if " " not in t.get_text().strip() or width <= limit:
            continue
        changed |= _wrap_text(t, limit, renderer)
    return changed


def _wrap_text(t, room, renderer) -> bool:
    """Break a matplotlib Text's words onto lines no wider than ``room`` px; whether it
    changed (a text of one word, or one that fits, stays as it is)."""
    lines = _wrap_words(t.get_text().replace("\n", " ").split(), room, renderer,
                        t.get_fontproperties())
    if len(lines) > 1:
        t.set_text("\n".join(lines))
        return True
    return False


def _wrap_words(words, room, renderer, prop) -> list[str]:
    """``words`` into lines no wider than ``room`` px (a longer single word stays whole),
    as balanced as the same number of lines allows."""
    def width(s):
        return renderer.get_text_width_height_descent(s, prop, ismath=False)[0]

    lines = [words[0]] if words else []
    for word in words[1:]:
        if width(lines[-1] + " " + word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) == 2:  # balance two lines: the split nearest the middle that fits
        best = None
        for i in range(1, len(words)):
            a, b = " ".join(words[:i]), " ".join(words[i:])
            wa, wb = width(a), width(b)
            if max(wa, wb) <= room and (best is None or max(wa, wb) < best[0]):
                best = (max(wa, wb), [a, b])
        if best is not None:
            lines = best[1]
    return lines


def _drawn_tick_labels(axis, which):
    """The ``which`` ("major", "minor") tick labels drawn on ``axis``: visible, non-empty,
    at a tick within the view, in axis order."""
    import numpy as np

    ax = axis.axes
    if not (ax.get_visible() and ax.axison and axis.get_visible()):
        return []
    trans = axis.get_transform()
    a, b = sorted(trans.transform(np.asarray(axis.get_view_interval(), float)))
    tol = 1e-9 * max(b - a, 1e-300)
    i = 0 if axis.axis_name == "x" else 1
    out = []
    for t in axis.get_ticklabels(which=which):
        if t.get_visible() and t.get_text().strip():
            p = trans.transform(np.array([t.get_position()[i]], float))[0]
            if np.isfinite(p) and a - tol <= p <= b + tol:
                out.append((t.get_position()[i], t))
    return sorted(out, key=lambda pt: pt[0])


def _crowded(labels, renderer, gap) -> bool:
    """Whether any two of ``labels`` (``(loc, Text)``) overlap or are closer than ``gap``."""
    boxes = [t.get_window_extent(renderer) for _, t in labels]
    for i, e1 in enumerate(boxes):
        for e2 in boxes[i + 1:]:
            if (e1.x0 < e2.x1 + gap and e2.x0 < e1.x1 + gap and
                    e1.y0 < e2.y1 + gap and e2.y0 < e1.y1 + gap):
                return True
    return False


def _thinned_formatter(inner, every: int, step: float, log: bool):
    """A formatter that labels only every ``every``-th tick of a lattice of ``step`` (in
    log10 of the value on a log axis, in the value on a linear one) anchored at 0 (a value
    of 1 on a log axis), with ``inner``'s labels; the other ticks keep their marks,
    unlabelled. Anchored to values, not to positions, so labels stay put as the view moves."""
    import math

    from matplotlib.ticker import Formatter

    def keep(x):
        if log:
            if not x > 0:
                return False
            x = math.log10(x)
        return round(x / step) % every == 0

    class Thinned(Formatter):
        def set_axis(self, axis):
            super().set_axis(axis)
            inner.set_axis(axis)

        def set_locs(self, locs):
            inner.set_locs(locs)

        def __call__(self, x, pos=None):
            return inner(x, pos) if keep(x) else ""

        def format_ticks(self, values):
            return [s if keep(x) else "" for x, s in zip(values, inner.format_ticks(values))]

        def get_offset(self):
            return inner.get_offset()

        def format_data(self, value):
            return inner.format_data(value)

        def format_data_short(self, value):
            return inner.format_data_short(value)

    return Thinned()


def _thin_tick_labels(axis, renderer) -> int:
    """On a phone the desktop's tick density crowds the labels ("1 KiB4 KiB16 KiB"): when
    two drawn major labels of ``axis`` come closer than :data:`NARROW_LABEL_GAP`, label
    only every k-th tick (the smallest k that leaves them apart), and drop minor labels.
    Numeric axes only (linear or log); categories keep their labels. Returns k (1: as it
    was)."""
    import math

    from matplotlib.ticker import FixedFormatter, NullFormatter

    if axis.get_scale() not in ("linear", "log") or \
            isinstance(axis.get_major_formatter(), FixedFormatter) or \
            "StrCategory" in type(axis.get_major_formatter()).__name__:
        return 1
    major = _drawn_tick_labels(axis, "major")
    minor = _drawn_tick_labels(axis, "minor")
    if not major:
        return 1
    gap = NARROW_LABEL_GAP * renderer.points_to_pixels(max(t.get_fontsize() for _, t in major))
    if minor and _crowded(major + minor, renderer, gap):
        axis.set_minor_formatter(NullFormatter())  # labelled decades only
    if not _crowded(major, renderer, gap):
        return 1
    log = axis.get_scale() == "log"

    def coord(x):
        return math.log10(x) if log else x

    major = [(x, t) for x, t in major if not log or x > 0]
    u = sorted({round(coord(x), 9) for x, _ in major})
    steps = [b - a for a, b in zip(u, u[1:]) if b - a > 1e-9]
    if not steps:
        return 1
    step = min(steps)
    for every in range(2, len(u) + 1):
        kept = [(x, t) for x, t in major if round(coord(x) / step) % every == 0]
        if kept and not _crowded(kept, renderer, gap):
            axis.set_major_formatter(_thinned_formatter(axis.get_major_formatter(), every,
                                                        step, log))
            return every
    return 1


def phone_png(fig) -> bytes:
    """A PNG of ``fig`` laid out for a phone (:func:`narrow_figure`; a legend inside the
    axes moves below them, where it hides no data at the phone's width), printed as a
    notebook prints a figure (its own dpi, ``bbox_inches="tight"``). ``fig`` itself is left
    as it was: a copy is laid out.

    >>> from interlib.plots import new_figure
    >>> fig, ax = new_figure()
    >>> png = phone_png(fig)
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", fig.get_size_inches().tolist()
    (True, [7.5, 4.2])
    """
    import copy as _copy
    import io

    _check_fig(fig)
    copy = _copy.deepcopy(fig)  # (not pickle: a tick formatter may be a lambda)
    _legends_below(copy)
    narrow_figure(copy)
    buf = io.BytesIO()
    copy.savefig(buf, format="png", dpi=copy.dpi, bbox_inches="tight",
                 facecolor=copy.get_facecolor(), edgecolor=copy.get_edgecolor())
    return buf.getvalue()


def _legends_below(fig) -> None:
    """Move each legend drawn inside an axes to one row of entries below the figure (a
    figure legend, which :func:`narrow_figure` wraps to the phone's width)."""
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None or not leg.get_visible():
            continue
        handles, labels = ax.get_legend_handles_labels()
        if not handles:
            continue
        leg.remove()
        fig.legend(handles, labels, loc="outside lower center", ncol=1, fontsize=7.5,
                   frameon=False)
        # Room for it, so the axes keep their height: about a line per 45 characters.
        lines = sum(-(-len(t) // 45) for t in labels)
        w, h = fig.get_size_inches()
        fig.set_size_inches(w, h + 0.16 * lines / 0.85)
