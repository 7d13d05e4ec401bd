"""The static site's live demos, in a real browser (headless Debian Chromium, Playwright).

The built site is served on 127.0.0.1 and every request to anywhere else is refused and
fails the test. On each chapter page with demos the test goes live once (the runtime is
loaded once, by the first page: one request for ``pyodide.asm.wasm`` at the server; the
later pages of the same browser use that Python, the shared worker), then for every demo in
``interlib.widgets.DEMOS`` moves every control at least once. After each move it waits for
the demo's new render and checks it against CPython's ``interlib`` for the values the page
reports it used (``data-params``, Python's JSON of the checked values): the printed numbers
equal ``widgets.summary``, the image's alt text equals ``widgets.figure_alt`` of the same
figure (titles, axis labels and settings), the values equal what the controls show, and
each slider's readout equals Python's ``format`` of its value. Each demo's figure must have
changed from the stored default. This proves ``interlib`` imports and renders on Pyodide's
numpy 2.0 and matplotlib 3.8.

Failure is visible: with the WebAssembly file blocked, every demo shows the reason in place
(``role=alert``) and keeps its static figure, and the page has no uncaught error; a value
that ``interlib`` refuses shows its error message in the demo.

Needs /usr/bin/chromium (skipped with a message otherwise, as tests/test_site_offline.py).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import re

import pytest

from conftest import HTML, REPO, toc_docnames
from interlib import display

import browser_support as bs  # noqa: E402

bs.require_chromium()

LOAD_TIMEOUT_MS = 180_000   # going live on a loaded 2-core machine (measured: 6-11 s)
RENDER_TIMEOUT_MS = 60_000


def demo_pages() -> dict[str, list[str]]:
    """docname -> the demos its built page shows (from the built HTML)."""
    out = {}
    for doc in toc_docnames():
        path = HTML / f"{doc}.html"
        if path.exists():
            names = re.findall(r'<div class="interlib-demo" data-demo="([^"]+)"',
                               path.read_text(encoding="utf-8"))
            if names:
                out[doc] = names
    return out


@functools.lru_cache(maxsize=1)
def demo_sources() -> dict[str, list[str]]:
    """docname -> the demos its notebook shows (``widgets.show("name")`` in code cells).

    The tests are parametrized from the sources, not from the built HTML: on a fresh clone
    the site is built by the session's first test, after collection, so a list read from
    ``_build`` is empty then and the test would be skipped, not run (it was, in CI)."""
    out = {}
    for doc in toc_docnames():
        path = REPO / f"{doc}.ipynb"
        if not path.exists():  # a Markdown page
            continue
        nb = json.loads(path.read_text(encoding="utf-8"))
        names = [m for c in nb["cells"] if c["cell_type"] == "code"
                 for m in re.findall(r'widgets\.show\(\s*"([^"]+)"', "".join(c["source"]))]
        if names:
            out[doc] = names
    return out


@contextlib.contextmanager
def guarded_browser():
    """A fresh Chromium (its own profile: no Python running from an earlier page); every
    request a page makes that leaves 127.0.0.1 is aborted and remembered (``refused``). A
    shared worker's requests are not seen here: the browser resolves no other host
    (browser_support.CHROMIUM_ARGS), and the server logs what it served."""
    with bs.chromium_context() as context:
        context.refused = []

        def guard(route):
            url = route.request.url
            if bs.external_requests([url]):
                context.refused.append(url)
                route.abort()
            else:
                route.continue_()

        context.route("**/*", guard)
        yield context


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the module's pages (so the live demos' one Python, a shared worker,
    serves every page after the first, as in a reader's browser). Tests that need a browser
    with no Python running yet are in tests/test_site_live_start.py."""
    with guarded_browser() as context:
        yield context


_JS_MOVE = bs.SITE_MOVE_JS

_JS_STATE = """(demo) => {
  const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
  const img = d.querySelector('.interlib-plot img');
  const err = d.querySelector('.interlib-live-error');
  const controls = {};
  for (const el of d.querySelectorAll('form.interlib-controls [data-kind]')) {
    const out = el.closest('.interlib-control').querySelector('output.interlib-readout');
    controls[el.name] = {kind: el.dataset.kind, raw: el.value, format: el.dataset.format || null,
                         moved: el.dataset.moved === '1', default: el.dataset.default,
                         exact: el.dataset.exact === undefined ? null : el.dataset.exact,
                         min: el.min, max: el.max, values: el.dataset.values || null,
                         valuetext: el.getAttribute('aria-valuetext'),
                         readout: out ? out.textContent : null};
  }
  return {src: img.getAttribute('src'), alt: img.getAttribute('alt'),
          loaded: img.complete && img.naturalWidth > 0,
          numbers: (d.querySelector('.interlib-numbers pre') || {}).textContent || '',
          params: d.dataset.params || null, failed_params: d.dataset.failedParams || null,
          renders: Number(d.dataset.liveRenders || 0),
          errors: Number(d.dataset.liveErrors || 0),
          error: err && !err.hidden ? err.textContent : null,
          busy: d.querySelector('.interlib-plot').hasAttribute('aria-busy'),
          live: d.dataset.live || null, controls};
}"""


def _wait_render(page, demo, renders=None, errors=None):
    """Wait until the demo has more renders (or errors) than given and nothing in flight."""
    page.wait_for_function(
        """([demo, renders, errors]) => {
            const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
            const r = Number(d.dataset.liveRenders || 0), e = Number(d.dataset.liveErrors || 0);
            return (r > renders || e > errors) && !d.querySelector('.interlib-plot[aria-busy]');
        }""", arg=[demo, renders, errors], timeout=RENDER_TIMEOUT_MS)
    return page.evaluate(_JS_STATE, demo)


def _expected(name, params):
    """What CPython's interlib shows for these values: (numbers, alt text)."""
    import matplotlib.pyplot as plt

    from interlib import widgets

    demo = widgets.get(name)
    fig = demo.func(**params)
    try:
        alt = widgets.figure_alt(fig, name, params)
    finally:
        plt.close(fig)
    return widgets.summary(name, **params), alt


def _control_value(control, shown):
    """The value a control shows: a dropdown's option (JSON), a slider's position
    (``data-values[index]``, page.py's contract), a typed exact value, or a text; a control
    the reader has not moved has its exact default (data-default)."""
    kind = control.__class__.__name__
    raw = shown["raw"]
    if kind == "Dropdown":
        return json.loads(raw)
    if shown["exact"] is not None:  # a typed value between two positions
        return json.loads(shown["exact"])
    if kind == "TextArea":  # the textarea's text (the default until the reader edits it)
        return raw if shown["moved"] else control.default
    if not shown["moved"]:
        assert json.loads(shown["default"]) == control.default
        return control.default
    if shown["values"] is not None:  # a log slider: an index into its positions
        return json.loads(shown["values"])[int(raw)]
    return int(raw) if kind == "IntSlider" else float(raw)


def _check_state(docname, name, state):
    from interlib import widgets

    demo = widgets.get(name)
    where = f"{docname}: {name}"
    assert state["error"] is None, f"{where}: the demo shows an error: {state['error']}"
    assert state["loaded"], f"{where}: the live image did not load"
    params = json.loads(state["params"])
    assert list(params) == list(demo.controls), f"{where}: params {params}"
    for key, control in demo.controls.items():
        shown = state["controls"][key]
        value = _control_value(control, shown)
        assert value == pytest.approx(params[key], rel=1e-12), (
            f"{where}: {key} shows {value!r} but the figure used {params[key]!r}")
        if shown["readout"] is not None:
            want = display.fmt_readout(params[key], shown["format"])
            assert shown["readout"] == want, (
                f"{where}: readout of {key} is {shown['readout']!r}, Python formats "
                f"{params[key]!r} as {want!r}")
    for key, shown in state["controls"].items():  # every slider's positions, valid ones
        if shown["kind"] not in ("int", "float", "intlog", "log"):
            continue
        assert shown["valuetext"] == shown["readout"], (where, key, shown)
        want = demo.positions(key, params)
        if shown["values"] is not None:  # a log slider: its positions, by index
            assert json.loads(shown["values"]) == want, (
                f"{where}: {key} steps through {shown['values']}, Python's positions at "
                f"these values are {want}")
            assert (int(shown["min"]), int(shown["max"])) == (0, len(want) - 1)
        else:  # a linear slider: its range in values (a dependent one follows)
            assert (float(shown["min"]), float(shown["max"])) == pytest.approx(
                (want[0], want[-1])), (
                f"{where}: {key} spans {shown['min']}..{shown['max']}, the others allow "
                f"{want[0]}..{want[-1]}")
    numbers, alt = _expected(name, params)
    assert state["numbers"] == numbers, (
        f"{where} at {params}: the page prints\n{state['numbers']}\nCPython prints\n{numbers}")
    assert state["alt"] == alt, f"{where} at {params}: alt {state['alt']!r} != {alt!r}"
    return params


def test_every_demo_is_on_a_page():
    from interlib import widgets

    shown = [n for names in demo_pages().values() for n in names]
    assert sorted(shown) == sorted(widgets.DEMOS), (
        f"demos on no page: {sorted(set(widgets.DEMOS) - set(shown))}; "
        f"on a page twice or unknown: {sorted(n for n in set(shown) if shown.count(n) > 1 or n not in widgets.DEMOS)}")
    # test_demos_go_live is parametrized from the notebooks (demo_sources): they must show
    # the same demos on the same pages as the built site
    assert demo_sources() == demo_pages()


def test_readouts_format_like_python(server, browser):
    """The slider readouts (JavaScript) format numbers as Python's ``format`` does, for every
    format spec the demos use, over values from 1e-9 to 1e12, exact ties included."""
    from interlib import widgets

    specs = sorted({c.readout_format for d in widgets.DEMOS.values()
                    for c in d.controls.values() if hasattr(c, "readout_format")} | {"d", "num"})
    values = [0.0, 0.5, 1.0, 2.5, 3.0, 12.5, 64.0, 99.95, 999.5, 1234.5, 1235.5, 0.125,
              1e-9, 2.5e-7, 1e-5, 0.000123456, 0.1 + 0.2, 1 / 3, 2 / 3, 1e5, 123456789.0,
              1.5e9, 1e12, 64.56542290346556, 1029.8880769971893, 10 ** 2.37,
              1024.0, 16384.0, 0.0078125, 9999.5, 99950.0, 999500.0, 2064.0, 1e-6, 3.3e-4,
              -2.5, 0.001]
    docname = sorted(demo_pages())[0]
    page = browser.new_page()
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        page.wait_for_function("() => window.interlibLive !== undefined")
        cases = [(x, f) for f in specs for x in values if not f.endswith("d") or x.is_integer()]
        got = page.evaluate("cases => cases.map(([x, f]) => window.interlibLive.format(x, f))",
                            cases)
        def py(x, f):
            return display.fmt_readout(int(x) if f.endswith("d") else x, f)

        bad = [f"{x!r:>24} {f:6} JS {g!r} Python {py(x, f)!r}"
               for (x, f), g in zip(cases, got) if g != py(x, f)]
        assert not bad, "readouts differ from Python:\n" + "\n".join(bad)
    finally:
        page.close()


@pytest.mark.parametrize("docname", sorted(demo_sources()))
def test_demos_go_live(server, browser, docname):
    names = demo_sources()[docname]
    page = browser.new_page()
    rec = bs.Recorder(page)
    mark = len(server.served)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        before = {n: page.evaluate(_JS_STATE, n) for n in names}
        # Going live: the first demo's button; every demo on the page shares one runtime.
        page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-button').click()
        page.wait_for_function(
            """(demo) => { const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
                           return Number(d.dataset.liveRenders || 0) > 0
                                  || !!d.querySelector('.interlib-live-error:not([hidden])'); }""",
            arg=names[0], timeout=LOAD_TIMEOUT_MS)
        state = page.evaluate(_JS_STATE, names[0])
        first = _check_state(docname, names[0], state)
        from interlib import widgets

        assert first == widgets.get(names[0]).defaults(), (
            f"{docname}: going live without a move changed the values: {first}")
        # Every demo on the page is live on the shipped Pyodide's numpy and matplotlib.
        lock = json.loads((HTML / "_static/pyodide/pyodide-lock.json").read_text())["packages"]
        for name in names:
            assert page.evaluate(_JS_STATE, name)["live"] == "ready", f"{name} is not live"
            said = page.locator(f'.interlib-demo[data-demo="{name}"] .interlib-live-status'
                                ).text_content()
            for pkg in ("numpy", "matplotlib"):
                assert f"{pkg} {lock[pkg]['version']}" in said, f"{name}: status {said!r}"

        from interlib import widgets

        for name in names:
            state = page.evaluate(_JS_STATE, name)
            sources = {before[name]["src"]}
            for key in widgets.get(name).controls:
                page.evaluate(_JS_MOVE, [name, key])
                state = _wait_render(page, name, state["renders"], state["errors"])
                _check_state(docname, name, state)
                sources.add(state["src"])
            assert state["src"] != before[name]["src"], f"{docname}: {name}: figure unchanged"
            assert len(sources) > 1

        # A value interlib refuses (an option rewritten to an invalid one): the demo shows
        # interlib's own error message in place, and recovers on the next valid move.
        name = names[0]
        state = page.evaluate(_JS_STATE, name)
        key = page.evaluate("""(demo) => {
            const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
            const el = d.querySelector('form.interlib-controls [data-kind]');
            if (el.tagName === 'SELECT') el.options[el.selectedIndex].value = '"no such option"';
            else if (el.dataset.values) {  // a log slider: a position past its end
                   const v = JSON.parse(el.dataset.values);
                   v.push(v[v.length - 1] * 10 + 1); el.dataset.values = JSON.stringify(v);
                   el.max = String(v.length - 1); el.value = el.max; }
            else { const lo = Number(el.min), hi = Number(el.max);
                   el.max = String(hi + (hi - lo)); el.value = el.max; }
            el.dispatchEvent(new Event('input', {bubbles: true}));
            return el.name; }""", name)
        state = _wait_render(page, name, state["renders"], state["errors"])
        assert state["error"], f"{docname}: {name}: no error shown after moving {key} out of range"
        from interlib.widgets import live

        expected = json.loads(live.frame(name, state["failed_params"]))
        assert not expected["ok"] and state["error"].endswith(expected["error"]), (
            f"{docname}: {name}: shows {state['error']!r}, CPython says {expected}")
        # in the reader's words: the control's label, no exception name or parameter name
        label = _controls(name)[key].label
        assert label in state["error"], state["error"]
        assert "Error" not in state["error"] and f"{key}=" not in state["error"]
        assert expected["detail"].startswith(f"{key}="), expected
        assert page.locator(f'.interlib-demo[data-demo="{name}"] [role=alert]').count() == 1

        # The runtime is fetched once by the page that started Python, and not at all by a
        # page that found it running (the shared worker of an earlier page of this browser).
        shared = page.evaluate(
            "(d) => document.querySelector(`.interlib-demo[data-demo=\"${d}\"]`)"
            ".dataset.liveShared", names[0])
        wasm = server.since(mark, "pyodide.asm.wasm")  # counted at the server
        assert shared in ("new", "own", "reused"), shared
        assert wasm == (0 if shared == "reused" else 1), (
            f"{docname}: the runtime was fetched {wasm} times (Python {shared})")
        assert not browser.refused, "requests leaving 127.0.0.1:\n" + "\n".join(browser.refused)
        assert not rec.failures, f"{docname}: failed requests:\n" + "\n".join(rec.failures)
        assert not rec.console_errors, f"{docname}: console errors:\n" + "\n".join(rec.console_errors)
    finally:
        page.close()


def _controls(name):
    from interlib import widgets

    return widgets.get(name).controls
