"""Pure plot functions: parameters -> matplotlib Figure. One module per chapter.

Shared conventions live here so every figure in the book looks the same and reads in
light and dark page themes: an opaque white background, the Okabe-Ito colour-blind-safe
palette, SI tick labels (matplotlib's EngFormatter), and a fixed layout so a figure does
not jump while a slider moves.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter

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


class BookFigure(Figure):
    """The book's Figure (:func:`new_figure` makes them). Shown in a notebook, it is printed
    as any figure is, and its output also carries a phone layout of itself
    (:data:`PHONE_METADATA`), so a static figure reads on a phone the way a demo's does:
    the notebook needs no change, only to be executed again."""

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
    book's style: opaque white background, fixed margins. Returns ``(fig, axes)``."""
    fig = BookFigure(figsize=figsize, dpi=DPI, facecolor="white")
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
