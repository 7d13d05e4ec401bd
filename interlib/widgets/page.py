"""A demo as a reader's page shows it: static, accessible HTML that the site renders.

``show(name)`` returns a :class:`DemoBox`: in JupyterLab it is the ipywidgets box; its MIME
bundle also carries ``text/html`` from :func:`static_html`, which the static site prefers
(``nb_mime_priority_overrides`` in ``_config.yml``). That HTML has native, labelled controls
(``<input type="range">``, ``<select>``) with the demo's ranges and defaults, the default
figure and numbers, and the thought questions. On the site, ``interlib-live.js`` makes it
live with the same ``interlib`` running in the reader's browser (Pyodide): it reads each
control's value with the typing rules written into its ``data-`` attributes here and calls
:func:`interlib.widgets.live.frame`.

Control encoding (the contract with the browser script):

- ``data-kind="int"`` / ``"float"``: a linear slider, ``<input type=range>`` over its values
  (``min``, ``max``, ``step``: its step grid, which its ends and default are on; a slider
  whose range follows other controls has the range at the defaults); value is the number.
- ``data-kind="intlog"`` / ``"log"``: a logarithmic slider, ``<input type=range>`` over the
  *indices* ``0 .. n-1`` of its positions, listed in ``data-values`` (JSON, Python's values,
  :func:`~interlib.widgets.core.log_positions`; for one whose valid values follow other
  controls, only the valid ones at the defaults); value is ``data-values[index]``. So its
  ends are its labelled ends and its default is a position: moved away and back, it
  returns to it.
- Every slider's ``aria-valuetext`` is its readout (a screen reader says "1,024").
- ``data-kind="choice"``: ``<select>``; each option's ``value`` is the JSON of the Python
  value (so ``16`` stays an int and ``"5.0"`` a string), its text the option's label.
- ``data-format``: the readout's format (``<output>`` beside the slider): a Python format
  spec, or ``num`` (:func:`interlib.display.fmt_num`).
- A log slider also has ``<input type=number class="interlib-typed">`` (plain decimals,
  no exponent): a value typed there is used exactly if the demo can use it, and refused
  in place otherwise (:meth:`~interlib.widgets.core.Demo.refusal`'s words), leaving the
  figure, the readout and the box at the value in use.
- A slider whose valid values follow other controls (``Demo.limits``) has ``data-lo``,
  ``data-hi`` (values) and ``data-multiple`` (every valid value is a multiple of it; 1:
  any), and ``data-why`` (the reason in words), at the defaults; live mode updates them
  and ``data-values`` from each frame's ``limits``.
- ``data-kind="text"``: a ``<textarea>`` (``maxlength``: the control's ``max_chars``); value
  is its text. Beside it an ``<input type=file data-file-for=ID data-max-chars=N>``: the
  script reads the chosen file in the browser (never uploaded) into that textarea, refusing
  a file over ``N`` characters with a message.
- Controls may sit in groups (``Demo.groups``), in the order the demo declares them: each a
  ``<details class="interlib-group" open>`` whose ``<summary>`` is its title, holding a
  ``<fieldset>`` named by it. On a phone (a demo box under
  :data:`~interlib.widgets.core.NARROW_BELOW_PX`) the script closes every group but the
  first, so the figure is within the first screen; a tap opens one.
"""

from __future__ import annotations

import functools
import html
import json
import math

from .. import _validate as v


def _attr(value) -> str:
    return html.escape(str(value), quote=True)


def _readout(value, fmt: str) -> str:
    from .. import display

    return display.fmt_readout(value, fmt)


def control_html(demo_name: str, key: str, control, limits=None, positions=None) -> str:
    """One control as a labelled native HTML form field (see the module docstring);
    ``limits``: its ``(lo, hi, multiple, why)`` at the defaults when its valid values
    follow other controls (:meth:`~interlib.widgets.core.Demo.valid`), ``positions``: the
    values it steps through there (default: all of its own)."""
    from .core import Dropdown, FloatSlider, IntSlider, TextArea, plain_decimal
    v.instance("demo_name", demo_name, str, "a demo name")
    v.instance("key", key, str, "a parameter name")
    cid = f"interlib-{demo_name}-{key}"
    label = f'<label for="{cid}">{html.escape(control.label)}</label>'
    common = (f'id="{cid}" name="{_attr(key)}" data-default="{_attr(json.dumps(control.default))}"')
    if isinstance(control, Dropdown):
        opts = "".join(
            f'<option value="{_attr(json.dumps(o))}"{" selected" if o == control.default else ""}>'
            f"{html.escape(text)}</option>" for o, text in zip(control.options, control.shown()))
        field = f'<select {common} data-kind="choice">{opts}</select>'
        return f'<div class="interlib-control interlib-choice">{label}{field}</div>'
    if isinstance(control, TextArea):
        field = (f'<textarea {common} data-kind="text" rows="{control.rows}" '
                 f'maxlength="{control.max_chars}" spellcheck="false" autocomplete="off">'
                 f"{html.escape(control.default)}</textarea>")
        upload = (f'<label for="{cid}-file">Or read a file (it stays in your browser)</label>'
                  f'<input type="file" id="{cid}-file" data-file-for="{cid}" '
                  f'data-max-chars="{control.max_chars}" accept=".log,.txt,.out,text/plain">')
        return f'<div class="interlib-control interlib-text">{label}{field}{upload}</div>'
    if not isinstance(control, (IntSlider, FloatSlider)):
        raise ValueError(f"control={control!r} must be an IntSlider, FloatSlider, Dropdown or "
                         "TextArea")
    whole = isinstance(control, IntSlider)
    kind = ("intlog" if control.log else "int") if whole else ("log" if control.log else "float")
    values = positions if positions is not None else control.positions()
    if control.default not in values:
        raise ValueError(f"positions of {key!r} must include its default {control.default!r}")
    fmt = control.readout_format
    shown = html.escape(_readout(control.default, fmt))
    dep = ""
    if limits is not None:
        lo, hi, m, why = limits
        dep = (f' data-lo="{_attr(json.dumps(lo))}" data-hi="{_attr(json.dumps(hi))}" '
               f'data-multiple="{m}" data-why="{_attr(why)}"')
    if control.log:  # over the indices of its positions
        grid = (f'data-values="{_attr(json.dumps(values))}" min="0" max="{len(values) - 1}" '
                f'step="1" value="{values.index(control.default)}"')
    else:  # over its values, on its step grid (its ends and default are on it)
        grid = (f'min="{values[0]!r}" max="{values[-1]!r}" step="{control.step!r}" '
                f'value="{control.default!r}"')
    field = (f'<input type="range" {common} data-kind="{kind}" data-format="{_attr(fmt)}" '
             f'{grid} aria-valuetext="{shown}"{dep}>')
    out = f'<output for="{cid}" class="interlib-readout">{shown}</output>'
    typed = ""
    if control.log:
        lo, hi = (limits[0], limits[1]) if limits is not None else (control.min, control.max)
        typed = (f'<input type="number" class="interlib-typed" data-for="{cid}" '
                 f'min="{plain_decimal(lo)}" max="{plain_decimal(hi)}" '
                 f'step="{1 if whole else "any"}" '
                 f'value="{plain_decimal(control.default)}" inputmode="decimal" '
                 f'aria-label="{_attr(control.label)}: type an exact value">')
    return (f'<div class="interlib-control interlib-slider">{label}'
            f'<div class="interlib-slider-row">{field}{out}{typed}</div></div>')


def static_html(name: str) -> str:
    """The demo at its defaults as static HTML: controls, figure, numbers, questions."""
    from .core import DEMO_MODULES, NARROW_BELOW_PX, get, render
    from .questions import questions_html

    demo = get(name)
    img, text, _ = render(name)
    phone, _, _ = render(name, narrow=True)
    # A phone (a box under NARROW_BELOW_PX) gets the figure laid out for its width.
    src = phone.split('src="', 1)[1].split('"', 1)[0]
    img = (f'<picture><source media="(max-width: {NARROW_BELOW_PX - 1}px)" srcset="{src}">'
           f"{img}</picture>")
    valid = demo.valid(demo.defaults())
    html_of = {k: control_html(name, k, c, valid.get(k),
                               demo.positions(k) if k in valid else None)
               for k, c in demo.controls.items()}
    if demo.groups:
        controls = "".join(
            f'<details class="interlib-group" open><summary>{html.escape(title)} '
            f'<span class="interlib-group-count">({len(keys)} settings)</span></summary>'
            f'<fieldset aria-label="{_attr(title)}">'
            + "".join(html_of[k] for k in keys) + "</fieldset></details>"
            for title, keys in demo.groups)
    else:
        controls = "".join(html_of.values())
    defaults = _attr(json.dumps(demo.defaults()))
    return (
        f'<div class="interlib-demo" data-demo="{_attr(name)}" '
        f'data-module="{_attr(DEMO_MODULES.get(name, ""))}" data-defaults="{defaults}">'
        f'<form class="interlib-controls" aria-label="Controls of the '
        f'{_attr(name.replace("_", " "))} demo" onsubmit="return false">{controls}</form>'
        '<div class="interlib-live-bar"><button type="button" class="interlib-live-button">'
        "Run live in your browser</button>"
        '<span class="interlib-live-status" role="status">The figure and numbers show the '
        "default settings. Run live (or move a control) to recompute them in your "
        "browser.</span></div>"
        f'<div class="interlib-plot">{img}</div>'
        f'<div class="interlib-numbers">{text}</div>'
        f"{questions_html(name)}</div>")


@functools.cache
def _demo_box_class():
    """The :class:`DemoBox` class (made on first use: ipywidgets is imported only then, so
    the rest of this module runs where ipywidgets is absent, as in the reader's browser)."""
    import ipywidgets as W

    class DemoBox(W.VBox):
        """A demo's widget box: the widget view for JupyterLab, plus ``text/html`` (the
        static rendering at the defaults) for the static site and other viewers."""

        def _repr_mimebundle_(self, **kwargs):
            bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
            bundle["text/html"] = static_html(self._interlib_demo)
            return bundle

    return DemoBox


def make_box(children, name: str):
    """The ipywidgets box of demo ``name``, whose MIME bundle adds :func:`static_html`."""
    from .core import get
    get(name)  # validates the name
    box = _demo_box_class()(children)
    box._interlib_demo = name
    box.add_class("interlib-demo")
    return box
