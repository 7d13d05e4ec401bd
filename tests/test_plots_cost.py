"""What makes the book's figures cheaper to draw leaves every figure as it was.

``interlib.plots.new_figure`` fixes each title's height (``axes.titley``) instead of letting
matplotlib place it at every draw, and :class:`interlib.plots.BookFigure` limits a log
axis's minor ticks to its view; ``interlib.plots.appendix`` reads the shipped measurements
once. Each holds only under a condition, checked here: every
title stays where matplotlib's own placement puts it, the drawn ticks are matplotlib's, a
cached row list is what a fresh reading gives and no caller can change it.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.ticker import LogLocator  # noqa: E402

from interlib import plots, validation  # noqa: E402
from interlib.widgets import DEMOS, figure_png  # noqa: E402

NAMES = sorted(DEMOS)


def _drawn_ticks(axis):
    """(location, label, label shown) of every tick matplotlib draws on ``axis``."""
    return [(float(t.get_loc()), t.label1.get_text(), t.label1.get_visible())
            for t in axis._update_ticks()]


def _matplotlibs_own(axis):
    """``axis`` given back a plain LogLocator with the in-view locator's settings."""
    loc = axis.get_minor_locator()
    plain = LogLocator.__new__(LogLocator)
    plain.__dict__.update(loc.__dict__)
    axis.set_minor_locator(plain)


def test_titles_and_minor_ticks_as_matplotlib_draws_them():
    """Every demo at its defaults, drawn: (1) matplotlib's automatic title placement,
    switched back on, leaves every title at the height new_figure fixes (1.0): nothing
    (tick labels or an axis label on top, the y axis's offset text) pushes it up; (2) on
    every log axis the ticks drawn (location and label) with the in-view minor locator are
    those matplotlib's own LogLocator draws, and the in-view one makes fewer ticks."""
    moved, fixed, log_axes, fewer = [], 0, 0, 0
    for name in NAMES:
        demo = DEMOS[name]
        fig = demo.func(**demo.defaults())
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        for i, ax in enumerate(fig.axes):
            fixed += ax._autotitlepos is False
            ax._autotitlepos = True
            ax._update_title_position(canvas.get_renderer())
            ys = [t.get_position()[1] for t in (ax.title, ax._left_title, ax._right_title)]
            if any(y != 1.0 for y in ys):
                moved.append(f"{name} axes {i}: title heights {ys}")
            for axis in (ax.xaxis, ax.yaxis):
                if not isinstance(axis.get_minor_locator(), plots._MinorLogTicksInView):
                    continue
                log_axes += 1
                inview = _drawn_ticks(axis)
                made = len(axis.get_minorticklocs())
                _matplotlibs_own(axis)
                assert _drawn_ticks(axis) == inview, f"{name}: {axis.axis_name} axis"
                fewer += made < len(axis.get_minorticklocs())
    assert not moved, "\n".join(moved)
    assert fixed >= len(NAMES), "new_figure no longer fixes the titles' height"
    assert log_axes >= 10 and fewer >= 10, (log_axes, fewer)


def test_a_title_pushed_up_is_seen():
    """The check above can fail: tick labels on top of the axes push a title up."""
    fig, ax = plots.new_figure()
    ax.set_title("a title")
    ax.xaxis.tick_top()
    ax._autotitlepos = True
    ax._update_title_position(FigureCanvasAgg(fig).get_renderer())
    assert ax.title.get_position()[1] > 1.0


@pytest.mark.parametrize("xlim", [(3.0, 7e8), (1e3, 1e11), (7e8, 3.0), (2.0, 9.0),
                                  (1e-6, 1e-5)], ids=str)
def test_minor_log_ticks_in_view_same_pixels(xlim, monkeypatch):
    """A log-log figure drawn with the in-view minor locator and with matplotlib's own is
    the same PNG, byte for byte: limits between decades, on decades, inverted, within one
    decade (minor ticks labelled) and below 1."""
    def draw():
        fig, ax = plots.new_figure()
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.plot([xlim[0], xlim[1]], [1.0, 1e4])
        ax.set_xlim(*xlim)
        ax.set_title("title")
        return figure_png(fig), type(ax.xaxis.get_minor_locator())

    inview, kind = draw()
    assert kind is plots._MinorLogTicksInView
    monkeypatch.setattr(plots, "_minor_log_ticks_in_view", lambda fig: None)
    own, kind = draw()
    assert kind is LogLocator
    assert inview == own


def test_nearest_published_reads_the_measurements_once_and_returns_fresh_curves():
    """plots.appendix keeps the shipped all-reduce rows per GPU architecture (frozen rows
    in a tuple): nearest_published gives what the rows read now give, and a caller that
    changes the curves it got changes nothing for the next call."""
    from interlib.plots import appendix
    from interlib.specs import GPUS

    a = appendix.nearest_published("h100-sxm", 128)
    fresh = [r for r in validation.load_measurements()
             if r.collective == "all_reduce" and GPUS[r.gpu].arch == GPUS["h100-sxm"].arch]
    assert list(appendix._published_all_reduce(GPUS["h100-sxm"].arch)) == fresh
    ids = [c["ids"] for c in a]
    a[0]["busbw"][:] = 0.0
    a.clear()
    b = appendix.nearest_published("h100-sxm", 128)
    assert [c["ids"] for c in b] == ids and b[0]["busbw"].min() > 0
    with pytest.raises(AttributeError):
        fresh[0].busbw = 0.0
