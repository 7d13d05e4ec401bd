"""No text cut off at a demo figure's edge (issue 34: "text inside its figure is clipped at
16,384 GPUs", the capstone's note under the axes).

A live demo renders every frame into the area measured once at its defaults
(:func:`interlib.widgets.core.figure_bbox`, kept by :class:`~interlib.widgets.core.LiveFigure`);
a text that grows past it later is cut. The capstone is drawn here as the site draws it, at
the desktop layout (the one image the page scales to 1280 and 960 px) and at the phone's
(:func:`interlib.plots.phone.narrow_figure`, 390 px), with each control alone at its ends and
every option, and at the largest designs (2,048 servers = 16,384 GPUs at every switch radix:
radix 32 needs four tiers, the longest network text). Every text drawn (titles, legend,
drawn tick labels, the note) must lie inside the rendered area (``get_window_extent``, which
measures a wrapped text as wrapped), and the note must not run into the x-axis label.
"""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from interlib.plots.phone import _drawn_tick_labels  # noqa: E402
from interlib.widgets import DEMOS  # noqa: E402
from interlib.widgets.core import LiveFigure  # noqa: E402

CAPSTONE = DEMOS["capstone"]


def texts_outside(fig, bbox_in) -> list[str]:
    """The visible texts of ``fig`` drawn (partly) outside ``bbox_in`` (inches): each as
    "text…: x0..x1, y0..y1 px outside 0..W, 0..H". Tick labels count only where a tick is
    drawn (within the view)."""
    canvas = fig.canvas
    canvas.draw()
    renderer = canvas.get_renderer()
    x0, y0, x1, y1 = (c * fig.dpi for c in bbox_in.extents)
    ticks, drawn = set(), []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which in ("major", "minor"):
                ticks |= {id(t) for t in axis.get_ticklabels(which=which)}
                drawn += [t for _, t in _drawn_tick_labels(axis, which)]
    out = []
    for t in [t for t in fig.findobj(Text) if id(t) not in ticks] + drawn:
        if not (t.get_visible() and t.get_text().strip()):
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        e = t.get_window_extent(renderer)
        if e.x0 < x0 - 0.5 or e.y0 < y0 - 0.5 or e.x1 > x1 + 0.5 or e.y1 > y1 + 0.5:
            out.append(f"{t.get_text()[:50]!r}…: {e.x0:.0f}..{e.x1:.0f}, {e.y0:.0f}..{e.y1:.0f} "
                       f"px outside {x0:.0f}..{x1:.0f}, {y0:.0f}..{y1:.0f}")
    return out


def _settings() -> list[dict]:
    base = CAPSTONE.defaults()
    out = [base]
    for key, control in CAPSTONE.controls.items():
        out += [{**base, key: value} for value in control.values()]
    biggest = {**base, "nodes": CAPSTONE.controls["nodes"].max, "nics_per_node": 8,
               "price_per_gpu_hour": CAPSTONE.controls["price_per_gpu_hour"].max}
    out += [{**biggest, "radix": r, "pp": pp}
            for r in CAPSTONE.controls["radix"].options for pp in (1, 8)]
    return out


@pytest.mark.parametrize("narrow", [False, True], ids=["desktop", "phone"])
def test_capstone_text_stays_inside_at_its_ends(narrow):
    live = LiveFigure(CAPSTONE, None, narrow)  # the area measured at the defaults
    problems = []
    for params in _settings():
        kw = CAPSTONE.resolve(params)
        live.frame(kw)
        fig = live.fig
        changed = {k: v for k, v in kw.items() if v != CAPSTONE.defaults()[k]}
        problems += [f"{changed}: {p}" for p in texts_outside(fig, live.bbox)]
        note = fig.texts[0]
        if note.get_visible() and fig.axes[0].axison:
            r = fig.canvas.get_renderer()
            if note.get_window_extent(r).overlaps(fig.axes[0].xaxis.label.get_window_extent(r)):
                problems.append(f"{changed}: the note runs into the x-axis label")
    assert not problems, "\n".join(problems[:20])


def test_the_check_sees_a_cut_text():
    """The checker flags a note wider than its figure (the defect as it was)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox

    fig = Figure(figsize=(7.5, 3.4))
    FigureCanvasAgg(fig)
    fig.add_subplot().set_title("inside")
    fig.text(0.05, 0.03, "Network: 3,584 switches (1,024 tier 1 + 1,024 tier 2 + 1,024 tier 3 "
             "+ 512 tier 4), 65,536 cables, bisection 410 TB/s per direction. Memory: 15.8 GB",
             fontsize=8)
    full = Bbox.from_bounds(0, 0, *fig.get_size_inches())
    got = texts_outside(fig, full)
    assert len(got) == 1 and got[0].startswith("'Network: 3,584"), got
