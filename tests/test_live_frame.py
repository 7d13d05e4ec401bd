"""interlib.widgets.live: what the site's live demos call in the browser, checked in CPython.

``frame`` must give the same numbers as ``widgets.summary`` and the alt text of the figure
``demo.func`` draws, at any control values; refuse values outside a control (naming the
parameter) as an error result, never an exception; and type values as the controls do
(JSON from the browser has no int/float distinction).
"""

from __future__ import annotations

import base64
import json

import matplotlib.pyplot as plt
import pytest

from interlib import widgets
from interlib.widgets import Dropdown, FloatSlider, IntSlider, live


def _other_values(demo):
    """Each control at a value other than its default (an extreme or another option)."""
    out = {}
    for key, c in demo.controls.items():
        vals = [x for x in c.values() if x != c.default]
        out[key] = vals[-1] if vals else c.default
    return out


@pytest.mark.parametrize("name", sorted(widgets.DEMOS))
def test_frame_matches_cpython_demo(name):
    demo = widgets.get(name)
    for params in (demo.defaults(), _other_values(demo)):
        r = json.loads(live.frame(name, json.dumps(params)))
        assert r["ok"], r
        typed = json.loads(r["params"])  # a FloatSlider's value is a float, as in JupyterLab
        assert typed == params
        assert r["summary"] == widgets.summary(name, **typed)
        fig = demo.func(**typed)
        try:
            assert r["alt"] == widgets.figure_alt(fig, name, typed)
        finally:
            plt.close(fig)
        png = base64.b64decode(r["src"].split(",", 1)[1])
        assert r["src"].startswith("data:image/png;base64,") and png[:8] == b"\x89PNG\r\n\x1a\n"


def test_frame_reports_errors_instead_of_raising():
    name = "pcie_transfer"
    cases = {
        json.dumps({"lanes": 3}): "lanes=3 must be one of",
        json.dumps({"size_gb": 1e9}): "size_gb=",
        json.dumps({"no_such": 1}): "params='no_such'",
        json.dumps([1, 2]): "params=",
        "{not json": "params_json is not JSON",
    }
    for text, message in cases.items():
        r = json.loads(live.frame(name, text))
        assert r["ok"] is False and message in r["error"], (text, r)
    r = json.loads(live.frame("no_such_demo", "{}"))
    assert r["ok"] is False and "no_such_demo" in r["error"]


def test_check_params_types_values_as_the_controls_do():
    for name, demo in widgets.DEMOS.items():
        for key, c in demo.controls.items():
            if isinstance(c, IntSlider):
                assert type(live.check_params(name, {key: float(c.max)})[key]) is int
                with pytest.raises(ValueError, match=rf"^{key}="):
                    live.check_params(name, {key: c.max + 1})
                with pytest.raises(ValueError, match=rf"^{key}="):
                    live.check_params(name, {key: c.min + 0.5})
            elif isinstance(c, FloatSlider):
                got = live.check_params(name, {key: int(c.max) if float(c.max).is_integer()
                                               else c.max})[key]
                assert type(got) is float and got == c.max
                # a rounding error past a bound (as 10 ** log10(max) in a browser) is the bound
                assert live.check_params(name, {key: c.max * (1 + 1e-12)})[key] == c.max
                with pytest.raises(ValueError, match=rf"^{key}="):
                    live.check_params(name, {key: c.max * 1.01 + 1})
                with pytest.raises(ValueError, match=rf"^{key}="):
                    live.check_params(name, {key: True})
            elif isinstance(c, Dropdown):
                for o in c.options:
                    sent = json.loads(json.dumps(o))
                    if isinstance(o, float) and o.is_integer():
                        sent = int(o)  # what JSON.stringify makes of 4.0
                    got = live.check_params(name, {key: sent})[key]
                    assert got == o and type(got) is type(o)
                if all(isinstance(o, int) and not isinstance(o, bool) for o in c.options):
                    with pytest.raises(ValueError, match=rf"^{key}="):
                        live.check_params(name, {key: str(c.options[0])})


@pytest.mark.parametrize("name", ["mesh_vs_switch", "credit_flow", "capstone", "ladder"])
def test_phone_frame_fits_a_phone(name):
    """``narrow=True`` (a box under 600 px): the figure is laid out 384 px wide (4 in at
    96 dpi), two side-by-side panels stacked, with the same numbers as the wide one."""
    import struct

    from interlib.widgets import core

    demo = widgets.get(name)
    wide = json.loads(live.frame(name, json.dumps(demo.defaults())))
    narrow = json.loads(live.frame(name, json.dumps(demo.defaults()), True))
    assert narrow["ok"] and narrow["summary"] == wide["summary"]
    png = base64.b64decode(narrow["src"].split(",", 1)[1])
    w, h = struct.unpack(">II", png[16:24])
    assert w <= round(core.NARROW_WIDTH_IN * 96) + 2, (name, w)
    fig = demo.func(**demo.defaults())
    try:
        panels = len({a.get_subplotspec().colspan.start for a in fig.axes
                      if a.get_subplotspec() is not None})
    finally:
        plt.close(fig)
    if panels > 1:
        assert h > w, f"{name}: {panels} panels side by side were not stacked ({w} x {h})"
    assert json.loads(live.frame(name, json.dumps(demo.defaults()), "yes"))["ok"] is False
