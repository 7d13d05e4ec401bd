"""Pure plot functions: parameters -> matplotlib Figure. One module per chapter.

Shared conventions live here so every figure in the book looks the same and reads in
light and dark page themes: an opaque white background, the Okabe-Ito colour-blind-safe
palette, SI tick labels (matplotlib's EngFormatter), and a fixed layout so a figure does
not jump while a slider moves.
"""

from __future__ import annotations

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter, LogLocator

from .. import _validate as v

#: Okabe & Ito (2008) colour-blind-safe palette.
COLORS = {
    "blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "vermillion": "#D55E00",
    "purple": "#CC79A7", "sky": "#56B4E9", "yellow": "#F0E442", "black": "#000000",
    "grey": "#999999",
}
CYCLE = [COLORS[c] for c in ("blue", "vermillion", "green", "orange", "purple", "sky",
                             "black")]

FIGSIZE = (7.5, 4.2)
DPI = 96

PHONE_METADATA = "interlib/phone-png"
"""Key of a displayed figure's output metadata holding its phone rendering (base64 PNG,
:func:`interlib.plots.phone.phone_png`); the site's build shows it below 600 px
(book/_ext/book_site.py). Metadata, so a notebook's viewers and nbval ignore it."""


class _MinorLogTicksInView(LogLocator):
    """A log axis's minor ticks (matplotlib's own :class:`~matplotlib.ticker.LogLocator`,
    same base, subs and numticks) with only those within 1 % of the view's span (in log
    space) beyond its ends: the ticks matplotlib draws. LogLocator also returns a decade
    or more on each side, outside the view: matplotlib makes a Tick (three lines, two
    texts) for each and labels it at every draw, then leaves it out (Axis._update_ticks
    draws only ticks within the view, to a relative 1e-10). A book figure's log axis
    spans up to 10 decades with 8 minor ticks each; about a third of them were outside.
    The minor formatter labels a value by the view alone (LogFormatter.set_locs ignores
    the other locations), so every drawn tick and label is the same."""

    def __call__(self):
        import numpy as np

        locs = super().__call__()
        lo, hi = sorted(self.axis.get_view_interval())
        if not (0 < lo and np.isfinite(hi)) or len(locs) == 0:
            return locs
        lo, hi = np.log(lo), np.log(hi)
        margin = 0.01 * (hi - lo)
        x = np.log(np.asarray(locs, float))
        return np.asarray(locs)[(x >= lo - margin) & (x <= hi + margin)]


def _minor_log_ticks_in_view(fig) -> None:
    """Give every log axis of ``fig`` whose minor locator is still matplotlib's default
    (set by ``set_xscale("log")``) the same locator limited to its view
    (:class:`_MinorLogTicksInView`)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            loc = axis.get_minor_locator()
            if type(loc) is LogLocator:
                default = axis.isDefault_minloc
                inview = _MinorLogTicksInView.__new__(_MinorLogTicksInView)
                inview.__dict__.update(loc.__dict__)
                axis.set_minor_locator(inview)
                axis.isDefault_minloc = default


class BookFigure(Figure):
    """The book's Figure (:func:`new_figure` makes them). Shown in a notebook, it is printed
    as any figure is, and its output also carries a phone layout of itself
    (:data:`PHONE_METADATA`), so a static figure reads on a phone the way a demo's does:
    the notebook needs no change, only to be executed again.

    Before it is measured or drawn, its log axes' minor locators are limited to the view
    (:class:`_MinorLogTicksInView`: the same picture, fewer ticks to make)."""

    def draw(self, renderer):
        _minor_log_ticks_in_view(self)
        super().draw(renderer)

    def get_tightbbox(self, renderer=None, *, bbox_extra_artists=None):
        _minor_log_ticks_in_view(self)
        return super().get_tightbbox(renderer, bbox_extra_artists=bbox_extra_artists)

    def _repr_mimebundle_(self, include=None, exclude=None):
        import base64

        from .phone import phone_png

        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover (plots run without IPython in Pyodide)
            return None
        if get_ipython() is None:
            return None
        try:
            phone = base64.b64encode(phone_png(self)).decode("ascii")
        except Exception:  # noqa: BLE001 (the figure itself must still show; the site's
            return None    # layout test finds a static figure without its phone layout)
        # No data of its own: the notebook's own formatters print the figure as before.
        return {}, {PHONE_METADATA: phone}


def new_figure(nrows: int = 1, ncols: int = 1, figsize=FIGSIZE, **kw):
    """A :class:`BookFigure` (not registered with pyplot, so it never leaks) with the
    book's style: opaque white background, fixed margins, titles just above the axes (a
    figure that draws x tick labels or the x label above the axes places its title itself:
    ``set_title(..., y=...)``). Returns ``(fig, axes)``."""
    fig = BookFigure(figsize=figsize, dpi=DPI, facecolor="white")
    # Titles are made at a fixed height (axes.titley = 1.0, read when the axes are made)
    # instead of matplotlib's automatic placement, which runs at every draw of an axes
    # with a title, measures the y axis (every tick label) to find its offset text, and
    # moves a title up from 1.0 only past what reaches above the axes into it: x tick
    # labels or the x label on top, the y axis's offset text ("1e6"; EngFormatter, the
    # book's SI labels, writes none). No book figure has any of these under a title, so
    # the pixels are the same: checked with automatic placement switched back on for
    # every demo at every combination tests/test_demos_extremes.py tries (2,425 figures)
    # and at 4 of them in the phone layout, by tests/test_plots_cost.py at the defaults, and for
    # the notebooks' figures by executing them again (byte-identical). Axes added later
    # (twinx) keep the automatic placement.
    with matplotlib.rc_context({"axes.titley": 1.0}):
        axes = fig.subplots(nrows, ncols, **kw)
    fig.subplots_adjust(left=0.11, right=0.97, top=0.88, bottom=0.14, wspace=0.3, hspace=0.35)
    for ax in (axes.flat if hasattr(axes, "flat") else [axes]):
        ax.set_facecolor("white")
        ax.set_prop_cycle(color=CYCLE)
        ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
        ax.spines[["top", "right"]].set_visible(False)
    return fig, axes


def _check_axes(ax, which):
    from matplotlib.axes import Axes

    v.instance("ax", ax, Axes, "a matplotlib Axes")
    v.choice("which", which, ("x", "y"))


def si_axis(ax, which: str, unit: str, places=None):
    """Label an axis with SI prefixes, e.g. ``si_axis(ax, "y", "B/s")`` -> '450 GB/s'.

    Args:
        ax: A matplotlib Axes.
        which: ``"x"`` or ``"y"``.
        unit: Unit text after the prefix, e.g. ``"B/s"``.
        places: Digits after the decimal point (>= 0), or None for as many as needed.
    """
    _check_axes(ax, which)
    v.instance("unit", unit, str, "a string, e.g. 'B/s'")
    if places is not None:
        v.integer("places", places, lo=0, hi=20)
    fmt = EngFormatter(unit=unit, places=places, sep=" ")
    (ax.xaxis if which == "x" else ax.yaxis).set_major_formatter(fmt)


def binary_size_axis(ax, which: str = "x"):
    """Label a log2 size axis in KiB/MiB/GiB (message sizes are powers of two, as in
    nccl-tests)."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    from ..display import fmt_bytes

    _check_axes(ax, which)
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_locator(LogLocator(base=2, numticks=30))
    axis.set_major_formatter(FuncFormatter(
        lambda x, _: fmt_bytes(x, binary=True) if x >= 1 and int(x).bit_count() == 1
        and int(x).bit_length() % 3 == 1 else ""))


__all__ = ["COLORS", "CYCLE", "FIGSIZE", "BookFigure", "Figure", "PHONE_METADATA", "new_figure",
           "si_axis", "binary_size_axis"]
