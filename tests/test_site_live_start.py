"""The live demos' start, each test in a browser of its own (nothing running from another
test's pages, tests/test_site_live.py's browser is shared by its pages): a runtime that
cannot load is said in place; the quiet start when a demo nears the screen; the next page
finding Python running (the shared worker outlives the page that started it)."""

from __future__ import annotations

import pytest

import browser_support as bs
from test_site_live import (LOAD_TIMEOUT_MS, _JS_MOVE, _JS_STATE, _check_state, _controls,
                            _wait_render, demo_pages, guarded_browser)

bs.require_chromium()


@pytest.fixture
def fresh_browser():
    """A Chromium of the test's own: nothing running from another test's pages."""
    with guarded_browser() as context:
        yield context



@pytest.mark.parametrize("blocked", ["pyodide.asm.wasm", "interlib-live-worker.js",
                                     "no WebAssembly"])
def test_failure_to_load_is_shown_in_place(server, blocked):
    """No runtime (its WebAssembly file or the worker script cannot be fetched, or the
    browser has no WebAssembly): every demo says so in place, keeps its static figure and
    numbers, and nothing is thrown uncaught."""
    docname, names = sorted(demo_pages().items())[0]
    if blocked != "no WebAssembly":
        server.blocked.add(blocked)  # the server answers 404 (a shared worker's fetch too)
    try:
        with guarded_browser() as browser:
            _failure_shown(server, browser, blocked, docname, names)
    finally:
        server.blocked.discard(blocked)


def _failure_shown(server, browser, blocked, docname, names):
    page = browser.new_page()
    rec = bs.Recorder(page)
    if blocked == "no WebAssembly":
        page.add_init_script("delete globalThis.WebAssembly;")
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        before = {n: page.evaluate(_JS_STATE, n) for n in names}
        # The first move of a control starts the runtime, as the button does.
        page.evaluate(_JS_MOVE, [names[0], next(iter(_controls(names[0])))])
        page.wait_for_function(
            """() => [...document.querySelectorAll('.interlib-demo')].every(
                   d => d.querySelector('.interlib-live-error[role=alert]:not([hidden])'))""",
            timeout=LOAD_TIMEOUT_MS)
        for name in names:
            state = page.evaluate(_JS_STATE, name)
            assert "Could not run this demo live" in state["error"], state["error"]
            reason = {"no WebAssembly": "no WebAssembly", "pyodide.asm.wasm": "pyodide.asm.wasm",
                      "interlib-live-worker.js": "worker"}[blocked]
            assert reason in state["error"], f"the reason is not named: {state['error']}"
            assert state["src"] == before[name]["src"] and state["loaded"], (
                f"{name}: the static figure was not kept")
            assert state["numbers"] == before[name]["numbers"]
            assert page.locator(f'.interlib-demo[data-demo="{name}"] .interlib-live-button'
                                ).is_disabled()
        assert not rec.page_errors, "uncaught errors:\n" + "\n".join(rec.page_errors)
        assert not browser.refused, "requests leaving 127.0.0.1:\n" + "\n".join(browser.refused)
    finally:
        page.close()



def test_quiet_start_when_a_demo_nears_the_screen(server, fresh_browser):
    """Scrolling to a demo starts Python quietly (issue 26, item 7: going live sooner): the
    runtime loads, the worker draws the demo once, yet the page stays static (button, status,
    figure and numbers as built) until the reader asks; then the first live figure comes
    without loading again (one request for the runtime), at the default values. With
    saveData the same scroll loads nothing (tests/test_site_offline.py checks every page)."""
    docname, names = sorted(demo_pages().items())[0]
    page = fresh_browser.new_page()
    rec = bs.Recorder(page)
    mark = len(server.served)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        before = page.evaluate(_JS_STATE, names[0])
        button = page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-button')
        status = page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-status')
        label, said = button.text_content(), status.text_content()
        page.locator(f'.interlib-demo[data-demo="{names[0]}"]').scroll_into_view_if_needed()
        # quiet: the worker is ready and its warm-up frame is back (no request in flight)
        page.wait_for_function(
            "() => window.interlibLive.state().phase === 'ready'", timeout=LOAD_TIMEOUT_MS)
        page.wait_for_timeout(500)
        assert page.evaluate("() => window.interlibLive.state()")["asked"] is False
        assert server.since(mark, "pyodide.asm.wasm") == 1  # counted at the server
        quiet = page.evaluate(_JS_STATE, names[0])
        assert (quiet["src"], quiet["numbers"], quiet["renders"], quiet["live"]) == (
            before["src"], before["numbers"], 0, None), "the page changed before the reader asked"
        assert (button.text_content(), status.text_content()) == (label, said)
        assert button.is_enabled()
        button.click()
        state = _wait_render(page, names[0], 0, 0)
        from interlib import widgets

        assert _check_state(docname, names[0], state) == widgets.get(names[0]).defaults()
        assert state["live"] == "ready" and button.is_disabled()
        wasm = server.since(mark, "pyodide.asm.wasm")
        assert wasm == 1, f"the runtime was fetched {wasm} times"
        assert not rec.console_errors and not rec.page_errors, rec.console_errors + rec.page_errors
        assert not fresh_browser.refused
    finally:
        page.close()


def test_the_next_page_finds_python_running(server, fresh_browser):
    """Going live on one chapter page, then following a link to another in the same tab:
    the second page uses the Python the first started (the shared worker outlives the page
    it was started by), so it fetches no runtime and goes live without loading; its first
    live figure is at its own defaults, and a move is computed at the moved value.
    How much sooner is measured by make bench, not here."""
    pages = sorted(demo_pages().items())[:2]
    page = fresh_browser.new_page()
    try:
        for i, (docname, names) in enumerate(pages):
            rec = bs.Recorder(page)
            mark = len(server.served)
            page.goto(f"{server}/{docname}.html", wait_until="load")
            page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-button').click()
            state = _wait_render(page, names[0], 0, 0)
            from interlib import widgets

            assert _check_state(docname, names[0], state) == widgets.get(names[0]).defaults()
            shared = page.evaluate(
                "(d) => document.querySelector(`.interlib-demo[data-demo=\"${d}\"]`)"
                ".dataset.liveShared", names[0])
            wasm = server.since(mark, "pyodide.asm.wasm")  # counted at the server
            if i == 0:
                assert shared == "new" and wasm == 1, (shared, wasm)
            else:
                assert shared == "reused", f"{docname}: Python was {shared}, not reused"
                assert not wasm, f"{docname}: the runtime was fetched again"
            key = next(iter(_controls(names[0])))
            page.evaluate(_JS_MOVE, [names[0], key])
            moved = _wait_render(page, names[0], state["renders"], state["errors"])
            assert _check_state(docname, names[0], moved) != widgets.get(names[0]).defaults(), (
                f"{docname}: moving {key} was not computed")
            assert not rec.console_errors and not rec.page_errors, (
                rec.console_errors + rec.page_errors)
        assert not fresh_browser.refused
    finally:
        page.close()
