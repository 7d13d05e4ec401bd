"""Drawing helpers shared by the diagrams: a blank canvas with the book's opaque light
panel (readable on the site's light and dark themes alike), boxes, links, labels.

Sizes are for phones as well as screens: figures are :data:`WIDTH` inches wide (shown at
that size, 461 px with the inline backend's padding, on a 1280 px page; scaled to about
0.78 on a 390 px phone), and text is never smaller than :data:`SMALL` points, so the
smallest label stays about 12 px tall on a phone (measured in headless Chromium).
"""

from __future__ import annotations

from matplotlib import rcParams
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from .. import COLORS, DPI

WIDTH = 4.6
"""Figure width, inches (442 px at the book's 96 dpi)."""
HIDPI = 2
"""PNG pixels per CSS pixel: a diagram's Figure has ``DPI x HIDPI`` dots per inch, so the
PNG a notebook stores (the inline backend prints a figure at its own dpi) is sharp on
phones and high-density screens; the chapter's cell metadata gives the display width
(:func:`display_width`), so it keeps its size on the page."""
BIG, TEXT, SMALL = 16, 14, 12
"""Font sizes, points: titles, labels, the smallest annotation."""
INK = "#1a1a1a"
PANEL = "white"
EDGE = "#444444"

#: Fill colours by kind of part (Okabe-Ito hues, lightened so black text reads on them).
FILL = {"gpu": "#a6d8f5", "nic": "#f7d38a", "switch": "#b3e6d5", "cpu": "#e3c1d6",
        "mem": "#d9d9d9", "spine": "#9fd3c1", "host": "#a6d8f5", "leaf": "#b3e6d5",
        "core": "#7fc4ad", "payload": "#e0e0e0"}


def canvas(units_high: float, width: float = WIDTH):
    """A Figure ``width`` inches wide with one borderless Axes whose data units are the
    same size in x and y: x runs from 0 to 10, y from 0 up to ``units_high``, which sets
    the figure's height. Returns ``(fig, ax, units_high)``."""
    height = width * units_high / 10.0
    fig = Figure(figsize=(width, height), dpi=DPI * HIDPI, facecolor=PANEL)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_facecolor(PANEL)
    ax.set_axis_off()
    ax.set_xlim(0.0, 10.0)
    ax.set_ylim(0, units_high)
    return fig, ax, units_high


def box(ax, x, y, w, h, text="", kind="gpu", size=TEXT, bold=False, color=None, **kw):
    """A rounded box centred at (x, y), ``w`` by ``h`` data units, with centred text."""
    patch = FancyBboxPatch((x - w / 2, y - h / 2), w, h,
                           boxstyle="round,pad=0,rounding_size=0.08",
                           facecolor=color or FILL[kind], edgecolor=EDGE, linewidth=1.2,
                           zorder=3, **kw)
    ax.add_patch(patch)
    if text:
        ax.text(x, y, text, ha="center", va="center", fontsize=size, color=INK, zorder=4,
                fontweight="bold" if bold else "normal")
    return patch


def link(ax, p, q, width=1.5, color=EDGE, style="-", zorder=2, alpha=1.0):
    """A straight line from point ``p`` to point ``q``."""
    (line,) = ax.plot([p[0], q[0]], [p[1], q[1]], style, color=color, linewidth=width,
                      zorder=zorder, alpha=alpha, solid_capstyle="butt")
    return line


def label(ax, x, y, text, size=TEXT, ha="center", va="center", color=INK, bold=False,
          **kw):
    """Text at (x, y) in data units."""
    return ax.text(x, y, text, ha=ha, va=va, fontsize=size, color=color,
                   fontweight="bold" if bold else "normal", zorder=5, **kw)


def finish(fig, alt: str, counts: dict):
    """Attach the alt text and the drawn counts to ``fig`` and return it.

    ``fig.interlib_alt`` is what the chapter's cell metadata carries (a test checks they
    agree); ``fig.interlib_counts`` records what was drawn (nodes, links, labels), which the
    tests compare with counts derived independently from the sources.
    """
    fig.interlib_alt = alt
    fig.interlib_counts = dict(counts)
    fig._repr_png_ = lambda: _png(fig)  # where no inline backend prints figures
    return fig


def display_width(fig) -> str:
    """The CSS width a diagram is shown at, e.g. ``"557px"``: its width at the book's 96 dpi,
    plus the padding the inline backend's tight bounding box adds on each side (the page
    scales it down to the column on a phone)."""
    pad = float(rcParams["savefig.pad_inches"])
    return f"{round((fig.get_figwidth() + 2 * pad) * DPI)}px"


def _png(fig) -> bytes:
    """The figure as PNG bytes, as the inline backend prints it (its own dpi, tight
    bounding box; no metadata, so deterministic)."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi, facecolor=PANEL, bbox_inches="tight",
                metadata={"Software": None})
    return buf.getvalue()


RAIL_COLORS = [COLORS[c] for c in ("blue", "vermillion", "green", "orange", "purple", "sky",
                                   "black", "grey")]
"""One colour per rail (NIC index), cycled."""
