"""Thin ipywidgets wiring over the pure plot functions in :mod:`interlib.plots`.

A :class:`Demo` names a plot function, its controls (ranges and defaults), an optional text
summary and the thought questions the chapter asks. Demos register themselves in
:data:`DEMOS`; ``show(name)`` builds the sliders, draws the default figure once and redraws
it when a slider moves. Tests drive every demo's function at every slider extreme.
"""

from __future__ import annotations

from .core import (DEMOS, Demo, DemoFrames, Dropdown, FloatSlider, IntSlider,  # noqa: F401
                   LiveFigure, TextArea, figure_alt, figure_bbox, figure_png, get, register, render,
                   summary)
from .core import _img_html, _pre_html  # noqa: F401  (used by show, live and the tests)


def show(name: str):
    """Build the demo's controls, plot and numbers; returns the widget box to display.

    The fast pattern (``make bench`` measures it against ``interactive_output`` + a new
    displayed Figure per move): the plot is one ``ipywidgets.HTML`` holding an ``<img>``
    (PNG as a data URL, with alt text built from the figure's titles and the settings), the
    numbers a second ``HTML`` holding a ``<pre>``. A slider change calls the pure
    ``demo.func`` and renders it once on its Agg canvas; only the two widgets' ``value``
    traits change. A demo with an ``update`` hook keeps one Figure and changes its artists
    in place (no new Figure, axes or ticks per move), redrawing only the artists that
    changed over a cached background where it can (:class:`LiveFigure`). No Output widget, no ``clear_output``/``display`` messages, no second
    draw for a tight bounding box (the render area is measured once, at the defaults:
    :func:`figure_bbox`), fast PNG compression for the updates, and the browser swaps one
    image of constant size, so the page does not re-flow. The returned box's MIME bundle
    also carries ``text/html`` (:func:`interlib.widgets.page.static_html`: labelled native
    controls, the default figure and numbers, the questions with their answers), which the
    static site shows and its live mode drives in the reader's browser.
    """
    import ipywidgets as W

    demo = get(name)
    ctrls = {k: c.make() for k, c in demo.controls.items()}
    img, text, bbox = render(name)
    plot = W.HTML(img, layout=W.Layout(min_height="1px"))
    plot.add_class("interlib-plot")
    numbers = W.HTML(text)
    numbers.add_class("interlib-numbers")

    # With an update hook, one Figure lives as long as the demo and is changed in place.
    frames = DemoFrames(demo, bbox)

    def _update(_change=None):
        kw = {k: demo.controls[k].value_of(c.value) for k, c in ctrls.items()}
        ranges = demo.ranges(kw)
        if ranges:  # sliders that follow other controls (linear ones): range, then value
            for k, (lo, hi) in ranges.items():
                _set_range(ctrls[k], lo, hi)
            kw = demo.resolve({k: demo.controls[k].value_of(c.value) for k, c in ctrls.items()})
        # zlib level 1: about twice as fast to encode as the default, a larger image.
        png, alt, summary_text = frames.frame(kw, compress_level=1)
        with plot.hold_sync(), numbers.hold_sync():
            plot.value = _img_html(png, alt)
            numbers.value = _pre_html(summary_text) if summary_text is not None else ""

    for k, (lo, hi) in demo.ranges(demo.defaults()).items():  # at the defaults
        _set_range(ctrls[k], lo, hi)
    for c in ctrls.values():
        c.observe(_update, names="value")
    from .page import make_box
    from .questions import questions_html

    parts = [W.VBox(list(ctrls.values())), plot, numbers]
    if demo.questions:
        parts.append(W.HTML(questions_html(name)))
    return make_box(parts, name)


def _set_range(w, lo, hi):
    """Set a slider's range in values (its value follows into it, as ipywidgets clamps;
    a log slider's bounds are exponents)."""
    import math

    import ipywidgets as W

    if isinstance(w, W.FloatLogSlider):
        lo, hi = math.log10(lo), math.log10(hi)
    if (w.min, w.max) == (lo, hi):
        return
    if hi < w.min:
        w.min, w.max = lo, hi
    else:
        w.max, w.min = hi, lo


def questions(name: str):
    """The demo's thought questions as a Markdown list (for display in the chapter)."""
    from IPython.display import Markdown

    from .questions import split

    return Markdown("\n".join(f"{i}. {split(q)[0]}"
                              for i, q in enumerate(get(name).questions, 1)))


from . import ch01  # noqa: E402,F401  (registers the chapter's demos)
from . import appendix, ch02, ch03, ch04, ch05, ch06, ch07, ch08  # noqa: E402,F401
from . import check  # noqa: E402,F401  ("Check your cluster": a reader's nccl-tests log)
