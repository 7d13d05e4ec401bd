"""The live demos' start, each test in a browser of its own (nothing running from another
test's pages, tests/test_site_live.py's browser is shared by its pages): a runtime that
cannot load is said in place; the quiet start when a demo nears the screen; the next page
finding Python running (the shared worker outlives the page that started it)."""

from __future__ import annotations

import json

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
            "() => { const s = window.interlibLive.state();"
            "        return s.phase === 'ready' && s.sent >= 1 && s.inflight === 0; }",
            timeout=LOAD_TIMEOUT_MS)
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


# ------------------------------------------------------------------ the interpreter snapshot
PYODIDE = bs.REPO / "book" / "_vendor" / "static" / "pyodide"


def test_snapshot_matches_the_shipped_runtime():
    """The snapshot the worker restores (tools/vendor_pyodide.py) was made by the runtime
    the site ships: its JSON's runtime sha256 are those of the files here (and of
    PROVENANCE.json), its build id is pyodide.js's, and the snapshot itself carries that
    build id in its header (Pyodide's layout: magic, offsets, then the build id's 64 hex
    digits as eight 32-bit little-endian words from byte 16) and has the size and sha256 its JSON says, gzipped and not."""
    import gzip
    import hashlib
    import re
    import struct

    info = json.loads((PYODIDE / "pyodide-snapshot.json").read_text())
    prov = json.loads((PYODIDE / "PROVENANCE.json").read_text())["files"]
    for name, digest in info["runtime_sha256"].items():
        assert hashlib.sha256((PYODIDE / name).read_bytes()).hexdigest() == digest, name
        assert prov[name]["sha256"] == digest, name
    build = re.search(rb'BUILD_ID:"([0-9a-f]+)"', (PYODIDE / "pyodide.js").read_bytes())
    assert build and build.group(1).decode() == info["pyodide_build_id"]
    gz = (PYODIDE / "pyodide-snapshot.bin.gz").read_bytes()
    assert (len(gz), hashlib.sha256(gz).hexdigest()) == (info["gz_bytes"], info["gz_sha256"])
    assert prov["pyodide-snapshot.bin.gz"]["sha256"] == info["gz_sha256"]
    raw = gzip.decompress(gz)
    assert (len(raw), hashlib.sha256(raw).hexdigest()) == (info["snapshot_bytes"],
                                                            info["snapshot_sha256"])
    words = struct.unpack("<8I", raw[16:48])  # the id's hex, as 8 little-endian words
    assert "".join(f"{w:08x}" for w in words) == info["pyodide_build_id"]


def _start_of(server, browser, docname, names):
    """Go live on ``docname`` in ``browser``: the worker's timings (how Python started)."""
    page = browser.new_page()
    rec = bs.Recorder(page)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        page.locator(f'.interlib-demo[data-demo="{names[0]}"] .interlib-live-button').click()
        state = _wait_render(page, names[0], 0, 0)
        from interlib import widgets

        assert _check_state(docname, names[0], state) == widgets.get(names[0]).defaults()
        assert not rec.page_errors, rec.page_errors
        return json.loads(page.evaluate(
            "(d) => document.querySelector(`.interlib-demo[data-demo=\"${d}\"]`)"
            ".dataset.liveTimings", names[0]))
    finally:
        page.close()


def test_python_starts_from_the_snapshot_reseeded(server):
    """Two fresh browsers: each restores the snapshot (the worker says so) and each draws a
    different first random number (``random`` is reseeded after the restore: the snapshot
    holds a generator seeded with 0)."""
    import random

    docname, names = sorted(demo_pages().items())[0]
    draws = []
    for _ in range(2):
        with guarded_browser() as browser:
            t = _start_of(server, browser, docname, names)
        assert t["start"] == "snapshot", t
        draws.append(t["random"])
    seeded0 = random.Random(random.Random(0).getrandbits(64)).random()
    assert draws[0] != draws[1] and seeded0 not in draws, draws


@pytest.mark.parametrize("how", ["missing", "tampered", "not a snapshot"])
def test_python_starts_plainly_when_the_snapshot_cannot_be_used(server, how):
    """A snapshot that is missing (404), whose bytes differ from its JSON's sha256, or that
    checks out but is not a snapshot Pyodide can restore (its magic number): the demo
    still goes live, Python started the plain way, and the worker says why."""
    import gzip
    import hashlib

    docname, names = sorted(demo_pages().items())[0]
    if how == "missing":
        server.blocked.add("pyodide-snapshot.bin.gz")
    elif how == "tampered":
        server.replaced["pyodide-snapshot.bin.gz"] = gzip.compress(b"\0" * 1024)
    else:
        junk = gzip.compress(b"\1" * 4096, mtime=0)
        info = json.loads((PYODIDE / "pyodide-snapshot.json").read_text())
        info.update(gz_bytes=len(junk), gz_sha256=hashlib.sha256(junk).hexdigest(),
                    snapshot_bytes=4096)
        server.replaced["pyodide-snapshot.bin.gz"] = junk
        server.replaced["pyodide-snapshot.json"] = json.dumps(info).encode()
    try:
        with guarded_browser() as browser:
            t = _start_of(server, browser, docname, names)
    finally:
        server.blocked.discard("pyodide-snapshot.bin.gz")
        server.replaced.clear()
    said = {"missing": "snapshot not used: pyodide-snapshot.bin.gz answered HTTP 404",
            "tampered": "snapshot not used: its sha256 differs",
            "not a snapshot": "snapshot not restored: "}[how]
    assert t["start"].startswith("plain (" + said), t["start"]
