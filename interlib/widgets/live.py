"""The Python side of the static site's live demos (``interlib-live.js`` calls it in Pyodide).

The site shows each demo as static HTML (:mod:`interlib.widgets.page`). When the reader
goes live, the browser runs this ``interlib`` (a wheel the book build packs from the same
sources as the stored outputs) and calls :func:`frame` with the values of the demo's native
controls. ``frame`` checks them against the demo's controls, updates the demo's figure with
the same code path as JupyterLab's :func:`interlib.widgets.show`
(:class:`~interlib.widgets.DemoFrames`: one figure per demo changed in place by its
``update`` hook, or a new figure per frame without one, in the render area measured at the
defaults) and returns the picture, its alt text
and the printed numbers. It never raises: a bad value or a computation that raises comes
back as ``{"ok": false, "error": "..."}`` so the page can show the message in the demo.
"""

from __future__ import annotations

import json
import math

from .. import _validate as v

_FRAMES: dict = {}  # (demo name, narrow) -> its DemoFrames (one live figure per demo and
#                      layout, as in show())


def _close(value, bound) -> bool:
    return abs(value - bound) <= 1e-9 * max(1.0, abs(bound))


def check_params(name: str, params) -> dict:
    """Every control value of demo ``name``: the defaults updated by ``params``, each value
    checked and typed as its control gives it (IntSlider: int; FloatSlider: float within its
    range, a value outside it by rounding only (1e-9, relative) moved onto the bound;
    Dropdown: the option itself; TextArea: a string of at most its ``max_chars``), then
    every slider whose range follows the others moved into it
    (:meth:`~interlib.widgets.Demo.resolve`). Raises ValueError naming the parameter
    otherwise."""
    from .core import Dropdown, TextArea, get
    demo = get(name)
    v.instance("params", params, dict, "a dict of control values")
    for key in params:
        v.choice("params", key, list(demo.controls))
    out, refused = {}, None
    for key, control in demo.controls.items():
        try:
            out[key] = _typed(key, control, params.get(key, control.default))
        except ValueError as e:
            refused = refused or (key, e)
    if refused is not None:
        key, e = refused
        control, value = demo.controls[key], params.get(key)
        label = control.label
        if isinstance(control, Dropdown):
            plain = f"{label}: that choice is not one of its options."
        elif isinstance(control, TextArea):
            plain = (f"{label}: {len(value):,} characters; the limit is {control.max_chars:,}."
                     if isinstance(value, str) else f"{label}: not text.")
        else:
            plain = (demo.refusal(key, value, {**demo.defaults(), **out}, keeps=False)
                     or f"{label}: this value cannot be used.")
        raise ControlError(str(e), plain)
    return demo.resolve(out)


def _typed(key, control, value):
    """``value`` checked and typed as ``control`` gives it (see :func:`check_params`)."""
    from .core import Dropdown, FloatSlider, IntSlider, TextArea

    if isinstance(control, Dropdown):
        match = [o for o in control.options if o == value and (
            type(o) is type(value) or (isinstance(o, float) and type(value) is int))]
        if not match:
            raise ValueError(f"{key}={value!r} must be one of {list(control.options)}")
        return match[0]
    if isinstance(control, IntSlider):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return v.integer(key, value, lo=control.min, hi=control.max)
    if isinstance(control, FloatSlider):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value):
            raise ValueError(f"{key}={value!r} must be a finite number")
        value = float(value)
        if value < control.min and _close(value, control.min):
            value = float(control.min)
        if value > control.max and _close(value, control.max):
            value = float(control.max)
        return float(v.number(key, value, lo=control.min, hi=control.max))
    if isinstance(control, TextArea):
        v.instance(key, value, str, "text")
        if len(value) > control.max_chars:
            raise ValueError(f"{key} has {len(value):,} characters; the limit is "
                             f"{control.max_chars:,}")
        return value
    raise ValueError(f"control {key!r} has an unknown type {type(control).__name__}")


class ControlError(ValueError):
    """A control value the demo cannot use: ``str(e)`` names the parameter (for
    developers), ``e.plain`` says it in the reader's words (the control's label, the range,
    the value the demo keeps), which :func:`frame` shows."""

    def __init__(self, message: str, plain: str):
        super().__init__(message)
        self.plain = plain


def frame(name: str, params_json: str, narrow: bool = False) -> str:
    """Demo ``name`` at the control values ``params_json`` (a JSON object; missing values:
    the defaults), as JSON: ``{"ok": true, "src": PNG data URL, "alt": alt text,
    "summary_html": the numbers as a <pre>, "summary": their text, "params": the values
    used, as a JSON string, "ranges": {key: [lo, hi]} of the sliders whose range follows
    the others, "limits": {key: {"lo", "hi", "multiple", "why", "values"}} of the same
    sliders (their valid values now, :meth:`~interlib.widgets.core.Demo.valid` and
    :meth:`~interlib.widgets.core.Demo.positions`)}``, or ``{"ok": false, "error": the
    reason in the reader's words, "detail": the developer's message}``. ``narrow``: the
    figure laid out for a phone (:func:`interlib.widgets.core.narrow_figure`). Never
    raises."""
    try:
        v.instance("name", name, str, "a demo name")
        v.instance("params_json", params_json, str, "a JSON object")
        try:
            params = json.loads(params_json)
        except ValueError as e:
            raise ValueError(f"params_json is not JSON: {e}") from None
        v.flag("narrow", narrow)
        return json.dumps(_frame(name, params, narrow))
    except ControlError as e:
        return json.dumps({"ok": False, "error": e.plain, "detail": str(e)})
    except Exception as e:  # noqa: BLE001 - the page shows the message in the demo
        return json.dumps({"ok": False, "error": f"interlib could not compute this setting "
                                                 f"({e})", "detail": f"{type(e).__name__}: {e}"})


def _frame(name: str, params: dict, narrow: bool = False) -> dict:
    import base64

    from .core import DemoFrames, _pre_html, get
    kw = check_params(name, params)
    demo = get(name)
    frames = _FRAMES.get((name, narrow))
    if frames is None:
        frames = _FRAMES[(name, narrow)] = DemoFrames(demo, narrow=narrow)
    png, alt, text = frames.frame(kw)
    src = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"ok": True, "src": src, "alt": alt, "summary": text or "",
            "summary_html": _pre_html(text) if text is not None else "",
            "params": json.dumps(kw),
            "ranges": {k: list(r) for k, r in demo.ranges(kw).items()},
            "limits": {k: {"lo": lo, "hi": hi, "multiple": m, "why": why,
                           "values": demo.positions(k, kw)}
                       for k, (lo, hi, m, why) in demo.valid(kw).items()}}


def versions() -> str:
    """Python, numpy and matplotlib versions, as JSON (the page logs what it runs on)."""
    import platform

    import matplotlib
    import numpy

    return json.dumps({"python": platform.python_version(), "numpy": numpy.__version__,
                       "matplotlib": matplotlib.__version__})
