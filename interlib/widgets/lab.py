"""A demo in JupyterLab: ipywidgets controls over :class:`~interlib.widgets.core.DemoFrames`.

:func:`show` is ``interlib.widgets.show``. The same rules as the site's page and its live
mode (:mod:`interlib.widgets.page`, ``interlib-live.js``):

* a logarithmic slider is a ``SelectionSlider`` over its positions
  (:meth:`~interlib.widgets.core.Demo.positions`: its ends and default exact), with a box
  beside it to type an exact value;
* a slider whose valid values follow other controls (``Demo.limits``) steps through the
  valid ones only, and a value the others made invalid moves to the nearest valid one
  (:meth:`~interlib.widgets.core.Demo.resolve`), so the readout is the value drawn;
* a typed value the demo cannot use is refused in place, in words
  (:meth:`~interlib.widgets.core.Demo.refusal`), with the figure, the readout and the box
  left at the value in use.
"""

from __future__ import annotations

from .core import DemoFrames, _img_html, _pre_html, get, plain_decimal, position_options, render


def show(name: str):
    """Build the demo's controls, plot and numbers; returns the widget box to display.

    The fast pattern (``make bench`` measures it against ``interactive_output`` + a new
    displayed Figure per move): the plot is one ``ipywidgets.HTML`` holding an ``<img>``
    (PNG as a data URL, with alt text built from the figure's titles and the settings), the
    numbers a second ``HTML`` holding a ``<pre>``. A slider change calls the pure
    ``demo.func`` and renders it once on its Agg canvas; only the two widgets' ``value``
    traits change. A demo with an ``update`` hook keeps one Figure and changes its artists
    in place (no new Figure, axes or ticks per move), redrawing only the artists that
    changed over a cached background where it can (:class:`~interlib.widgets.LiveFigure`).
    No Output widget, no ``clear_output``/``display`` messages, no second draw for a tight
    bounding box (the render area is measured once, at the defaults:
    :func:`~interlib.widgets.figure_bbox`), fast PNG compression for the updates, and the
    browser swaps one image of constant size, so the page does not re-flow. The returned
    box's MIME bundle also carries ``text/html``
    (:func:`interlib.widgets.page.static_html`: labelled native controls, the default
    figure and numbers, the questions with their answers), which the static site shows and
    its live mode drives in the reader's browser.
    """
    import html

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
    boxes, notes = {}, {}
    for k, c in demo.controls.items():
        if getattr(c, "log", False):
            boxes[k] = W.Text(value=plain_decimal(c.default), description="exact value",
                              continuous_update=False, style={"description_width": "initial"},
                              layout=W.Layout(width="16em"))
            boxes[k].add_class("interlib-typed")
            notes[k] = W.HTML("", layout=W.Layout(display="none"))
            notes[k].add_class("interlib-control-msg")
    state = {"busy": False}

    def values() -> dict:
        return {k: demo.controls[k].value_of(c.value) for k, c in ctrls.items()}

    def follow(kw: dict) -> dict:
        """Each dependent slider's positions at the others' values; the values used."""
        used = demo.resolve(kw)
        for k in demo.valid(kw):
            _set_positions(demo, k, ctrls[k], used)
        for k, box in boxes.items():
            box.value = plain_decimal(used[k])
        return used

    def _update(_change=None):
        if state["busy"]:
            return
        state["busy"] = True
        try:
            for note in notes.values():
                _say(note, "")
            kw = follow(values())
            # zlib level 1: about twice as fast to encode as the default, a larger image.
            png, alt, summary_text = frames.frame(kw, compress_level=1)
            with plot.hold_sync(), numbers.hold_sync():
                plot.value = _img_html(png, alt)
                numbers.value = _pre_html(summary_text) if summary_text is not None else ""
        finally:
            state["busy"] = False

    def _typed(key):
        def on_submit(change):
            if state["busy"]:
                return
            kw = values()
            refused = demo.refusal(key, change["new"], kw)
            if refused is not None:
                state["busy"] = True
                try:
                    boxes[key].value = plain_decimal(kw[key])
                finally:
                    state["busy"] = False
                _say(notes[key], refused)
                return
            x = float(change["new"].strip().replace(",", ""))
            x = demo.controls[key].value_of(x)
            if x == kw[key]:
                return
            state["busy"] = True
            try:  # the typed value joins the slider's positions, then is set
                _set_positions(demo, key, ctrls[key], {**kw, key: x}, keep=kw[key])
            finally:
                state["busy"] = False
            ctrls[key].value = x  # -> _update
        return on_submit

    follow(demo.defaults())
    for c in ctrls.values():
        c.observe(_update, names="value")
    for k, box in boxes.items():
        box.observe(_typed(k), names="value")
    from .page import make_box
    from .questions import questions_html

    rows = {k: W.VBox([W.HBox([c, boxes[k]]), notes[k]]) if k in boxes else c
            for k, c in ctrls.items()}
    if demo.groups:
        groups = [W.VBox([W.HTML(f"<b>{html.escape(title)}</b>")] + [rows[k] for k in keys])
                  for title, keys in demo.groups]
        for g in groups:
            g.add_class("interlib-group")
        controls = W.VBox(groups)
    else:
        controls = W.VBox(list(rows.values()))
    parts = [controls, plot, numbers]
    if demo.questions:
        parts.append(W.HTML(questions_html(name)))
    return make_box(parts, name)


def _say(note, text: str):
    """Show ``text`` (a refusal) under its control, or hide the note when empty."""
    import html

    note.value = f'<span role="status">{html.escape(text)}</span>' if text else ""
    note.layout.display = None if text else "none"


def _set_positions(demo, key, w, used, keep=None):
    """Point widget ``w`` of slider ``key`` at its valid values at the control values
    ``used`` and at ``used[key]`` (a typed value between two positions joins them);
    ``keep``: a value to leave among the positions and selected (the one in use, while a
    typed value is being added)."""
    import ipywidgets as W

    c = demo.controls[key]
    value = used[key] if keep is None else keep
    if isinstance(w, W.SelectionSlider):
        vals = demo.positions(key, used)
        vals = sorted({*vals, used[key], value})
        opts = position_options(c, vals)
        if list(w.options) != opts:
            with w.hold_sync():
                w.options = opts
                w.value = value
        elif w.value != value:
            w.value = value
        return
    lo, hi = demo.ranges(used)[key]
    if (w.min, w.max) != (lo, hi):  # a linear slider: range, then value (ipywidgets clamps)
        if hi < w.min:
            w.min, w.max = lo, hi
        else:
            w.max, w.min = hi, lo
    if w.value != value:
        w.value = value
