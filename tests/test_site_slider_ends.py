"""Every slider of every demo on the built site, dragged to both ends and back, live in
Chromium; typed values the demo cannot use, refused in place (issue 34, item 2).

For each chapter page with demos (one browser for the module, so one Python, as a reader's):
go live, then for every slider of every demo set it to its first position, its last and
back to its default (an ``input`` event, as a drag ends), waiting each time for the demo's
render. Each render must show, for that slider, exactly the end Python's
:meth:`~interlib.widgets.core.Demo.positions` gives (the labelled end: 1,024 GPUs, not
1,023), in its readout and in the values the figure used (tests/test_site_live.py's state
checks: numbers and alt text equal CPython's); back at the default the value is the
default exactly (64, not 65).

Then, for every log slider, a value typed into its box that is out of range: the refusal is
shown under the control (``role=status``) in exactly the words of
:meth:`~interlib.widgets.core.Demo.refusal`, no render is asked for, and the readout, the box
and the figure stay as they were. On a page that has not gone live (saveData: no quiet
start), the same refusal comes without starting Python; and a valid value typed between
two positions (the capstone's 36 servers) is used exactly.

Needs /usr/bin/chromium (skipped with a message otherwise).
"""

from __future__ import annotations

import json

import pytest

import browser_support as bs
from test_site_live import (LOAD_TIMEOUT_MS, _JS_STATE, _check_state, _controls,
                            _wait_render, demo_sources, guarded_browser)

bs.require_chromium()

# Set slider `key` of `demo` to `value` (a position: an index into a log slider's
# data-values, the value itself on a linear slider), as the end of a drag; returns the value
# the page then reads from the slider.
_JS_SET = """([demo, key, value]) => {
  const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
  const el = d.querySelector(`form.interlib-controls [name="${key}"]`);
  const values = el.dataset.values ? JSON.parse(el.dataset.values) : null;
  el.value = String(values ? values.indexOf(value) : value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return values ? values[Number(el.value)] : Number(el.value);
}"""

# Type `text` into the number box of slider `key` and commit it (a change event, as Enter
# or leaving the box does); returns what the page then shows for that control.
_JS_TYPE = """([demo, key, text]) => {
  const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
  const el = d.querySelector(`form.interlib-controls [name="${key}"]`);
  const row = el.closest('.interlib-control');
  const box = row.querySelector('input.interlib-typed');
  box.focus();
  box.value = text;
  box.dispatchEvent(new Event('change', {bubbles: true}));
  box.blur();
  const note = row.querySelector('.interlib-control-msg');
  return {note: note && !note.hidden ? note.textContent : null,
          role: note ? note.getAttribute('role') : null,
          box: box.value, readout: row.querySelector('output').textContent,
          phase: window.interlibLive.state().phase};
}"""


@pytest.fixture(scope="module")
def browser():
    with guarded_browser() as context:
        yield context


def _sliders(name):
    from interlib.widgets import core

    return [k for k, c in _controls(name).items()
            if isinstance(c, (core.IntSlider, core.FloatSlider))]


@pytest.mark.parametrize("docname", sorted(d for d, names in demo_sources().items()
                                           if any(_sliders(n) for n in names)))
def test_every_slider_to_both_ends_and_back_live(server, browser, docname):
    from interlib import widgets

    names = [n for n in demo_sources()[docname] if _sliders(n)]
    page = browser.new_page()
    rec = bs.Recorder(page)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-button').click()
        page.wait_for_function(
            "() => window.interlibLive.state().phase !== 'loading' && "
            "window.interlibLive.state().phase !== 'idle'", timeout=LOAD_TIMEOUT_MS)
        assert page.evaluate("() => window.interlibLive.state().phase") == "ready"
        for name in names:
            demo = widgets.get(name)
            state = page.evaluate(_JS_STATE, name)
            for key in _sliders(name):
                c = demo.controls[key]
                for end in ("min", "max", "default"):
                    params = json.loads(state["params"]) if state["params"] else demo.defaults()
                    pos = demo.positions(key, params)
                    want = {"min": pos[0], "max": pos[-1], "default": c.default}[end]
                    if params[key] == want:
                        continue  # already there: nothing to render
                    set_to = page.evaluate(_JS_SET, [name, key, want])
                    state = _wait_render(page, name, state["renders"], state["errors"])
                    used = _check_state(docname, name, state)
                    assert set_to == want and used[key] == want, (
                        f"{docname}: {name}.{key} at its {end}: the slider gave {set_to}, the "
                        f"figure used {used[key]}, Python's position is {want}")
                # back at the default: the default exactly, the others as they were moved
                assert json.loads(state["params"])[key] == c.default
        assert not rec.console_errors, "\n".join(rec.console_errors)
        assert not browser.refused
    finally:
        page.close()


def _log_sliders():
    from interlib import widgets

    out = []
    for docname, names in sorted(demo_sources().items()):
        for name in names:
            for key in _sliders(name):
                if widgets.get(name).controls[key].log:
                    out.append((docname, name, key))
    return out


@pytest.mark.parametrize("docname, name, key", _log_sliders(),
                         ids=[f"{n}.{k}" for _, n, k in _log_sliders()])
def test_typed_values_are_refused_in_place_without_python(server, browser, docname, name, key):
    """On the static page (saveData: Python does not start by itself), a value out of
    range typed into a log slider's box: the control says why in Python's words and
    nothing changes (readout, box, figure); Python is not started for it."""
    from interlib import display, widgets
    from interlib.widgets import core

    demo = widgets.get(name)
    c = demo.controls[key]
    lo, hi = demo.ranges(demo.defaults()).get(key, (c.min, c.max))
    # A page of the module's browser that has not asked for Python (saveData: no quiet
    # start; a shared worker another page started stays unused until this page asks).
    page = browser.new_page()
    page.add_init_script(bs.SAVE_DATA_JS)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        before = page.evaluate(_JS_STATE, name)
        for typed in (hi * 10, -1 if lo > 0.5 else lo / 10, "abc"):
            text = typed if isinstance(typed, str) else core.plain_decimal(typed)
            got = page.evaluate(_JS_TYPE, [name, key, text])
            # a number box gives "" for text that is not a number
            want = demo.refusal(key, "" if typed == "abc" else typed, demo.defaults())
            assert got["note"] == want, f"{name}.{key}: the page says {got['note']!r}, " \
                                        f"Python {want!r}"
            assert got["role"] == "status"
            assert got["readout"] == display.fmt_readout(c.default, c.readout_format)
            assert got["box"] == core.plain_decimal(c.default)
            assert got["phase"] == "idle", "typing a refused value started Python"
        after = page.evaluate(_JS_STATE, name)
        assert (after["src"], after["numbers"], after["renders"]) == (
            before["src"], before["numbers"], 0)
    finally:
        page.close()


def test_capstone_typed_servers_live(server, browser):
    """Live: the capstone's servers at TP 8 x PP 4 (multiples of 4): a typed 33 is refused
    in Python's words (the nearest are 32 and 36) with no render; a typed 36, between two
    positions, is used exactly; a typed 100000 is refused and 36 kept."""
    from interlib import widgets

    demo = widgets.get("capstone")
    docname = next(d for d, names in demo_sources().items() if "capstone" in names)
    page = browser.new_page()
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        page.locator('.interlib-demo[data-demo="capstone"] .interlib-live-button').click()
        state = _wait_render(page, "capstone", 0, 0)
        sent = page.evaluate("() => window.interlibLive.state().sent")
        got = page.evaluate(_JS_TYPE, ["capstone", "nodes", "33"])
        assert got["note"] == demo.refusal("nodes", "33", demo.defaults())
        assert got["box"] == "32" and got["readout"] == "32"
        # refused before anything is asked of Python (the page asks synchronously)
        assert page.evaluate("() => window.interlibLive.state().sent") == sent
        page.evaluate(_JS_TYPE, ["capstone", "nodes", "36"])
        state = _wait_render(page, "capstone", state["renders"], state["errors"])
        used = _check_state(docname, "capstone", state)
        assert used["nodes"] == 36 and state["controls"]["nodes"]["readout"] == "36"
        assert "288 GPUs" in state["numbers"]
        got = page.evaluate(_JS_TYPE, ["capstone", "nodes", "100000"])
        assert got["note"] == demo.refusal("nodes", "100000", used)
        assert got["box"] == "36" and got["readout"] == "36"
    finally:
        page.close()


# ---------------------------------------------------------------- the capstone on a phone
PHONE = {"width": 390, "height": 844}  # an iPhone 12-15's CSS viewport


def test_capstone_controls_grouped_and_its_figure_within_the_first_phone_screen(server, browser):
    """The capstone's 14 controls sit in three titled groups (cluster, network, model: the
    order Demo.groups gives). At 1280 px all are open; on a 390 x 844 phone only the first,
    so that, with the demo's top at the top of the screen, its figure starts within that
    screen (at least 100 px of it shows); opening another group shows its controls."""
    from interlib import widgets

    demo = widgets.get("capstone")
    docname = next(d for d, names in demo_sources().items() if "capstone" in names)
    js = """() => { const d = document.querySelector('.interlib-demo[data-demo="capstone"]');
        const top = d.getBoundingClientRect().top;
        return {groups: [...d.querySelectorAll('details.interlib-group')].map(g => ({
                    title: g.querySelector('summary').textContent, open: g.open,
                    keys: [...g.querySelectorAll('[data-kind]')].map(e => e.name)})),
                plot: d.querySelector('.interlib-plot').getBoundingClientRect().top - top}; }"""
    for viewport, phone in (({"width": 1280, "height": 900}, False), (PHONE, True)):
        page = browser.new_page()
        page.set_viewport_size(viewport)
        page.add_init_script(bs.SAVE_DATA_JS)
        try:
            page.goto(f"{server}/{docname}.html", wait_until="load")
            got = page.evaluate(js)
            assert [(g["title"].split(" (")[0], g["keys"]) for g in got["groups"]] == [
                (t, list(k)) for t, k in demo.groups]
            assert [g["open"] for g in got["groups"]] == (
                [True, False, False] if phone else [True, True, True]), got
            if phone:
                assert got["plot"] <= PHONE["height"] - 100, (
                    f"the figure starts {got['plot']:.0f} px below the demo's top")
                page.locator('.interlib-demo[data-demo="capstone"] details.interlib-group '
                             'summary').nth(1).click()
                assert page.locator('.interlib-demo[data-demo="capstone"] '
                                    '[name="nic_gbps"]').is_visible()
        finally:
            page.close()
