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
        assert r["ok"] is False and message in r["detail"], (text, r)
        assert "Error" not in r["error"], r
    r = json.loads(live.frame("no_such_demo", "{}"))
    assert r["ok"] is False and "no_such_demo" in r["error"]
    # what the reader reads for a value of a control: its label and its range, in words
    # (the range by hand: PCIe transfer sizes 1 kB = 1e-6 GB to 100 GB, ch02)
    plain = {json.dumps({"lanes": 3}): "lanes: that choice is not one of its options.",
             json.dumps({"size_gb": 1e9}): "copy size (GB): 1,000,000,000 is outside "
                                           "1 × 10⁻⁶ to 100."}
    for text, said in plain.items():
        assert json.loads(live.frame(name, text))["error"] == said


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


# --- the phone layout's text: legible, nothing on top of anything, nothing cut -------------

#: Smallest tick or axis-label type as a phone shows it (points): the figure's own size
#: times the scale at which the image is shown in its box (no larger than 1).
MIN_PHONE_PT = 8.0
#: The demo figure's box on a 390 px phone (CSS px, measured on the built site: the
#: ``.interlib-plot`` clientWidth of every demo of every chapter, 2026-11-26).
PHONE_BOX_PX = 330
#: Two labels closer than this (px) read as one ("1 KiB4 KiB").
MIN_GAP_PX = 2.0


def _drawn_tick_labels(axis):
    """The tick labels matplotlib draws on ``axis``: visible, non-empty, at a tick inside
    the view (an axis also keeps labels for ticks just outside it, which are not drawn)."""
    import numpy as np

    ax = axis.axes
    if not (ax.get_visible() and ax.axison and axis.get_visible()):
        return []
    lo, hi = sorted(axis.get_view_interval())
    trans = axis.get_transform()
    a, b = sorted(trans.transform(np.array([lo, hi])))
    tol = 1e-9 * max(abs(b - a), 1e-300)
    out = []
    for t in axis.get_ticklabels(which="both"):
        if not (t.get_visible() and t.get_text().strip()):
            continue
        loc = t.get_position()[0 if axis.axis_name == "x" else 1]
        p = trans.transform(np.array([loc]))[0]
        if a - tol <= p <= b + tol:
            out.append(t)
    return out


def _touch(e1, e2, gap):
    return (e1.x0 < e2.x1 + gap and e2.x0 < e1.x1 + gap and
            e1.y0 < e2.y1 + gap and e2.y0 < e1.y1 + gap)


def phone_text_problems(fig):
    """Tick labels and axis labels of a drawn phone figure that overlap each other (same
    axis, another axis, any axis label), lie outside the rendered image, or are too small,
    and an image wider than the phone figure (something drawn past its edge). Returns a
    list of messages (empty: legible)."""
    import itertools

    from interlib.widgets import core

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    r = canvas.get_renderer()
    image = core.figure_bbox(fig).transformed(fig.dpi_scale_trans)
    scale = min(1.0, PHONE_BOX_PX / image.width)  # max-width: 100% shrinks, never grows
    ticks, labels = [], []  # (axis name, Text, window extent)
    for i, ax in enumerate(fig.axes):
        for axis in (ax.xaxis, ax.yaxis):
            name = f"axes {i} {axis.axis_name}"
            ticks += [(name, t, t.get_window_extent(r)) for t in _drawn_tick_labels(axis)]
            lab = axis.label
            if (ax.get_visible() and ax.axison and axis.get_visible() and lab.get_visible()
                    and lab.get_text().strip()):
                labels.append((name + " label", lab, lab.get_window_extent(r)))
    out = []
    if image.width > core.NARROW_WIDTH_IN * fig.dpi + 2:  # something spills past the figure
        out.append(f"the image is {image.width:.0f} px wide, not "
                   f"{core.NARROW_WIDTH_IN * fig.dpi:.0f}")
    for (n1, t1, e1), (n2, t2, e2) in itertools.combinations(ticks + labels, 2):
        # Neighbours on one axis must stand apart; labels of two axes (the corner's "0 s"
        # and "0 B") merely must not overlap.
        if _touch(e1, e2, MIN_GAP_PX if n1 == n2 else 0.0):
            out.append(f"{n1} {t1.get_text()!r} overlaps {n2} {t2.get_text()!r}")
    for n, t, e in ticks + labels:
        if e.x0 < image.x0 - 0.5 or e.x1 > image.x1 + 0.5 or \
                e.y0 < image.y0 - 0.5 or e.y1 > image.y1 + 0.5:
            out.append(f"{n} {t.get_text()!r} is cut at the image's edge")
        if t.get_fontsize() * scale < MIN_PHONE_PT - 1e-9:
            out.append(f"{n} {t.get_text()!r} is {t.get_fontsize() * scale:.1f} pt on a phone")
    return out


@pytest.mark.parametrize("name", sorted(widgets.DEMOS))
def test_phone_figure_text_is_legible(name):
    """Every demo's phone layout (:func:`interlib.widgets.core.narrow_figure`) at its
    defaults: no two tick labels on one axis overlap or touch (a log axis keeps the
    desktop's tick density otherwise: "1 KiB4 KiB16 KiB"), no tick label runs into another
    axis's labels or an axis label, no axis label or tick label is cut at the image's edge,
    none is under about 8 pt as shown on a 390 px phone, and nothing (a legend) spills past
    the figure's 384 px; its alt text is the desktop figure's."""
    from interlib.widgets import core

    demo = widgets.get(name)
    fig, wide = demo.func(**demo.defaults()), demo.func(**demo.defaults())
    try:
        core.narrow_figure(fig)
        assert phone_text_problems(fig) == []
        # Labels broken onto lines for the phone still read the same to a screen reader.
        assert widgets.figure_alt(fig, name, {}) == widgets.figure_alt(wide, name, {})
    finally:
        plt.close(fig)
        plt.close(wide)


def test_phone_text_checker_catches_overlap_cut_and_small_type():
    """The checker above finds what it is for, on a figure built to have it."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3), dpi=96)
    ax = fig.add_subplot()
    ax.set_xscale("log")
    ax.set_xlim(1, 1e12)
    ax.set_xticks([10.0 ** k for k in range(13)],
                  [f"{k} long label" for k in range(13)])  # far too many, too long
    ax.set_xlabel("an axis label far too long to fit in a four-inch-wide phone figure at all")
    ax.tick_params(axis="y", labelsize=6)
    found = "\n".join(phone_text_problems(fig))
    assert "'0 long label' overlaps axes 0 x '1 long label'" in found
    assert "axes 0 x label 'an axis label far too long" in found and "is cut" in found
    assert "pt on a phone" in found
    clean = Figure(figsize=(4, 3), dpi=96)
    bx = clean.add_subplot()
    bx.plot([0, 1], [0, 1])
    bx.set_xlabel("x")
    clean.set_layout_engine("constrained")
    assert phone_text_problems(clean) == []


# ------------------------------------------------------------------ the page's contract
def test_frame_result_has_the_fields_the_page_reads():
    """The page (book/_vendor/static/interlib-live.js) reads these names; a renamed key
    would leave the demo blank."""
    r = json.loads(live.frame("capstone", "{}"))
    assert set(r) == {"ok", "src", "alt", "summary", "summary_html", "params", "ranges",
                      "limits"}
    from interlib.widgets.core import _pre_html
    assert r["summary_html"] == _pre_html(r["summary"]) and r["summary"]
    # the capstone's server count follows TP x PP: 8 x 4 = 32 GPUs = 4 servers of 8
    assert r["ranges"] == {"nodes": [4, 2048]}
    lim = r["limits"]["nodes"]
    assert (lim["lo"], lim["hi"], lim["multiple"]) == (4, 2048, 4)
    assert lim["values"][:3] == [4, 8, 12] and all(x % 4 == 0 for x in lim["values"])
    assert "must divide the GPUs" in lim["why"]
    # the positions are those of the frame's own settings, not the defaults': TP 8 x PP 8 =
    # 64 GPUs = 8 servers of 8, so the servers step by 8
    r = json.loads(live.frame("capstone", json.dumps({"pp": 8})))
    lim = r["limits"]["nodes"]
    assert (lim["lo"], lim["multiple"]) == (8, 8)
    # the slider's grid (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 per decade and the powers of two)
    # has no 24
    assert lim["values"][:4] == [8, 16, 32, 40] and all(x % 8 == 0 for x in lim["values"])


def test_frame_without_a_summary_sends_empty_text(monkeypatch):
    """A demo whose frame has no numbers (text None) sends "" for both summaries."""
    class NoText:
        def frame(self, kw):
            return b"\x89PNG\r\n\x1a\n", "alt text", None

    monkeypatch.setitem(live._FRAMES, ("pcie_transfer", False), NoText())
    r = json.loads(live.frame("pcie_transfer", "{}"))
    assert r["ok"] and r["summary"] == "" and r["summary_html"] == "" and r["alt"] == "alt text"
    assert r["src"] == "data:image/png;base64," + base64.b64encode(
        b"\x89PNG\r\n\x1a\n").decode("ascii")


def test_frames_are_kept_per_demo_and_layout():
    """One live figure per demo and layout, as show() keeps one: the second frame reuses it."""
    live._FRAMES.pop(("ring_vs_nvls", False), None)
    live._FRAMES.pop(("ring_vs_nvls", True), None)
    json.loads(live.frame("ring_vs_nvls", "{}"))
    wide = live._FRAMES[("ring_vs_nvls", False)]
    assert wide.demo is widgets.get("ring_vs_nvls") and wide.narrow is False
    json.loads(live.frame("ring_vs_nvls", json.dumps({"gpus": 4})))
    assert live._FRAMES[("ring_vs_nvls", False)] is wide
    assert json.loads(live.frame("ring_vs_nvls", "{}", True))["ok"]
    phone = live._FRAMES[("ring_vs_nvls", True)]
    assert phone is not wide and phone.narrow is True


def test_frame_names_a_wrong_argument():
    for args, detail in [((3, "{}"), "ValueError: name=3 must be a demo name"),
                         (("pcie_transfer", 5), "ValueError: params_json=5 must be a JSON object"),
                         (("pcie_transfer", "{}", "yes"),
                          "ValueError: narrow='yes' must be True or False")]:
        r = json.loads(live.frame(*args))
        assert r == {"ok": False, "detail": detail,
                     "error": f"interlib could not compute this setting ({detail[12:]})"}


def test_versions_names_what_the_page_runs_on():
    import platform

    import matplotlib
    import numpy

    assert json.loads(live.versions()) == {"python": platform.python_version(),
                                           "numpy": numpy.__version__,
                                           "matplotlib": matplotlib.__version__}


def test_close_is_rounding_only():
    # within 1e-9 x max(1, |bound|), the bound included: 0 + 1e-9 is the edge at bound 0
    assert live._close(1e-9, 0.0) and not live._close(1.5e-9, 0.0)
    assert live._close(0.5 + 1e-10, 0.5) and not live._close(0.5 + 1.5e-9, 0.5)
    assert live._close(1000 + 1e-7, 1000.0) and not live._close(1000 + 2e-6, 1000.0)


def test_typed_values_by_control_kind():
    from interlib.widgets.core import TextArea

    f = FloatSlider(1.0, 10.0, 2.0, "f")
    # a value off the range by rounding only lands on the bound; a real miss is refused
    assert live._typed("f", f, 1.0 - 5e-10) == 1.0 and live._typed("f", f, 1.0) == 1.0
    assert live._typed("f", f, 10.0 + 5e-9) == 10.0 and live._typed("f", f, 10.0) == 10.0
    assert live._typed("f", f, 3) == 3.0 and type(live._typed("f", f, 3)) is float
    with pytest.raises(ValueError, match=r"^f=0\.99 is out of range: must be >= 1 and <= 10$"):
        live._typed("f", f, 0.99)
    with pytest.raises(ValueError, match=r"^f=10\.5 is out of range: must be >= 1 and <= 10$"):
        live._typed("f", f, 10.5)
    for bad in (True, "3", float("nan"), float("inf"), None):
        with pytest.raises(ValueError, match=r"^f=.* must be a finite number"):
            live._typed("f", f, bad)
    # a bound 0 < value < 1: the tolerance is 1e-9 absolute, not relative to the bound
    g = FloatSlider(0.5, 0.9, 0.6, "g")
    assert live._typed("g", g, 0.5 - 1e-10) == 0.5
    with pytest.raises(ValueError, match=r"^g=0\.4999999985 is out of range"):
        live._typed("g", g, 0.4999999985)
    i = IntSlider(2, 8, 4, "i")
    assert live._typed("i", i, 8.0) == 8 and type(live._typed("i", i, 8.0)) is int
    with pytest.raises(ValueError, match=r"^i=1 is out of range: must be between 2 and 8$"):
        live._typed("i", i, 1)
    with pytest.raises(ValueError, match=r"^i=9 is out of range: must be between 2 and 8$"):
        live._typed("i", i, 9)
    d = Dropdown((1.0, 2.0), 1.0, "d")
    assert live._typed("d", d, 2) == 2.0 and type(live._typed("d", d, 2)) is float
    with pytest.raises(ValueError, match=r"^d=True must be one of \[1\.0, 2\.0\]"):
        live._typed("d", d, True)    # True == 1.0, but a checkbox's value is not a number
    s = Dropdown(("1", "2"), "1", "s")
    with pytest.raises(ValueError, match=r"^s=1 must be one of \['1', '2'\]"):
        live._typed("s", s, 1)       # an int is not the string option
    n = Dropdown((1, 2), 1, "n")
    with pytest.raises(ValueError, match=r"^n=1\.0 must be one of \[1, 2\]"):
        live._typed("n", n, 1.0)     # a float is not an int option
    t = TextArea("", "log", 5)
    assert live._typed("t", t, "abcde") == "abcde"
    with pytest.raises(ValueError, match=r"^t has 6 characters; the limit is 5$"):
        live._typed("t", t, "abcdef")
    with pytest.raises(ValueError, match=r"^t=3 must be text$"):
        live._typed("t", t, 3)
    with pytest.raises(ValueError, match=r"^control 'x' has an unknown type object$"):
        live._typed("x", object(), 1)


def test_check_params_refusals_in_the_readers_words():
    with pytest.raises(ValueError, match=r"^params=\[1\] must be a dict of control values$"):
        live.check_params("pcie_transfer", [1])
    # check_cluster's log box: 10,000,000 characters at most (its TextArea)
    with pytest.raises(live.ControlError) as e:
        live.check_params("check_cluster", {"log": 3})
    assert e.value.plain == "nccl-tests output (paste yours): not text."
    with pytest.raises(live.ControlError) as e:
        live.check_params("check_cluster", {"log": "x" * 10_000_001})
    assert e.value.plain == ("nccl-tests output (paste yours): 10,000,001 characters; the "
                             "limit is 10,000,000.")
    # a slider's refusal names the value the demo keeps, computed at the other values given
    # (by hand: at the defaults TP 8 x PP 4 = 32 GPUs = 4 servers of 8 must divide the GPUs;
    # with PP 1 given too, 8 GPUs = 1 server, so the range starts at 1)
    with pytest.raises(live.ControlError) as e:
        live.check_params("capstone", {"nodes": 2049})
    assert e.value.plain == ("servers (8 GPUs each): 2,049 is outside 4 to 2,048 (TP 8 × PP 4 "
                             "= 32 GPUs, 4 servers' worth, must divide the GPUs).")
    assert str(e.value) == "nodes=2049 is out of range: must be between 1 and 2048"
    with pytest.raises(live.ControlError) as e:
        live.check_params("capstone", {"nodes": 2049, "pp": 1})
    assert e.value.plain == "servers (8 GPUs each): 2,049 is outside 1 to 2,048."
