"""The built site works offline in a real browser (headless Debian Chromium via Playwright).

For every page in the table of contents: serve _build/html on 127.0.0.1, load the page,
record every request, and assert that no request leaves 127.0.0.1, none fails or returns
an HTTP error, and the console shows no error. Every demo (the static rendering of
``interlib.widgets.show``, interlib/widgets/page.py) shows its labelled controls, its
default plot image and its numbers, with no widget manager or saved widget state on the
page; a page with demos loads the live-demo script but no Python runtime until the reader
asks (tests/test_site_live.py goes live), a page without demos loads neither. Pages with
maths must be typeset by MathJax. Every image on every page has loaded
and has meaningful alt text (not empty, not a file name, not a generic word). Every link
inside the site resolves to a built page, and a link's #fragment to an id on that page.
The site search returns results that link to built pages. A screenshot of each demo page
(the viewport at its first demo) is written to _build/screenshots/.

Needs /usr/bin/chromium (Debian package `chromium`; never `playwright install`). Without it
the tests are skipped with a message saying so.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import HTML, REPO, toc_docnames

SCREENSHOTS = REPO / "_build" / "screenshots"

import browser_support as bs  # noqa: E402

bs.require_chromium()

_Recorder = bs.Recorder


@pytest.fixture(scope="module")
def browser():
    # The browser asks to save data (navigator.connection.saveData): the live demos' quiet
    # start when a demo nears the screen stays off (tests/test_site_live.py checks it), so
    # nothing of the Python runtime may load here, even after scrolling to a demo.
    with bs.chromium_context(save_data=True) as context:
        yield context


@pytest.mark.parametrize("docname", toc_docnames())
def test_page_renders_offline(server, browser, docname):
    html_file = HTML / f"{docname}.html"
    source = html_file.read_text(encoding="utf-8")
    has_demos = 'class="interlib-demo"' in source
    has_math = 'class="math' in source

    page = browser.new_page()
    rec = _Recorder(page)
    mark = len(server.served)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        if has_math:
            page.wait_for_selector("mjx-container", state="attached", timeout=20000)
        still_pending = rec.settle(page)  # late fonts, modules, images

        external = bs.external_requests(rec.requests)
        assert not external, f"{docname}: requests leaving 127.0.0.1:\n" + "\n".join(external)
        assert not rec.failures, f"{docname}: failed requests:\n" + "\n".join(rec.failures)
        assert not rec.console_errors, (
            f"{docname}: console errors:\n" + "\n".join(rec.console_errors))
        assert not still_pending, f"{docname}: requests never finished:\n" + "\n".join(still_pending)

        # The site shows the demos' static HTML: no widget manager, no saved widget state.
        assert "application/vnd.jupyter.widget-state+json" not in source, (
            f"{docname}: saved widget state on the page")
        assert page.locator(".jupyter-widgets").count() == 0, f"{docname}: ipywidgets rendered"
        live_js = [u for u in rec.requests if urlparse(u).path.endswith("/interlib-live.js")]
        runtime = [u for u in rec.requests if "/_static/pyodide/" in u
                   or urlparse(u).path.endswith((".whl", "interlib-live.json",
                                                  "interlib-live-worker.js"))]
        assert not runtime, f"{docname}: Python runtime fetched before going live:\n" + "\n".join(runtime)
        if has_demos:
            assert live_js, f"{docname}: a page with demos does not load interlib-live.js"
            _check_demos(page, docname, source)
            page.locator(".interlib-demo").first.scroll_into_view_if_needed()
            page.wait_for_timeout(200)
            runtime = [u for u in rec.requests if "/_static/pyodide/" in u
                       or urlparse(u).path.endswith(("interlib-live.json",
                                                      "interlib-live-worker.js"))]
            assert not runtime, (f"{docname}: with saveData, scrolling to a demo fetched the "
                                 "runtime:\n" + "\n".join(runtime))
            # ... nor did a worker (the server's log: a shared worker's fetches are not
            # reported on the page)
            served = [p for p in server.served[mark:] if "/_static/pyodide/" in p]
            assert not served, f"{docname}: the server sent runtime files: {served[:5]}"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{docname.replace('/', '__')}.png"))
        else:
            assert not live_js, f"{docname}: no demo, yet interlib-live.js is loaded"
        if has_math:
            assert page.locator("mjx-container").count() > 0, f"{docname}: MathJax did not typeset"
            raw = page.locator("div.math, span.math").filter(has_text="\\(").count()
            assert raw == 0, f"{docname}: {raw} maths elements left as raw LaTeX"
        _check_images(page, docname)
        _check_links(page, docname, server)
    finally:
        page.close()


def _check_demos(page, docname, source):
    """Every demo shows labelled controls (typed for the live mode), the default plot, its
    numbers, and the button and status line of the live mode."""
    expected = len(re.findall(r'<div class="interlib-demo" data-demo="', source))
    demos = page.locator(".interlib-demo[data-demo]")
    assert demos.count() == expected >= 1, f"{docname}: {demos.count()} demos for {expected}"
    for i in range(demos.count()):
        info = demos.nth(i).evaluate("""d => {
            const img = d.querySelector('.interlib-plot img');
            const fields = [...d.querySelectorAll('form.interlib-controls [data-kind]')];
            const label = f => { const l = f.id && d.querySelector(`label[for="${f.id}"]`);
                                 return l ? l.textContent.trim() : ''; };
            return {name: d.dataset.demo,
                    controls: fields.map(f => ({name: f.name, tag: f.tagName, kind: f.dataset.kind,
                                                label: label(f)})),
                    loaded: !!img && img.complete && img.naturalWidth > 0,
                    numbers: (d.querySelector('.interlib-numbers pre.interlib-summary') || {}).textContent || '',
                    button: !!d.querySelector('button.interlib-live-button'),
                    status: !!d.querySelector('.interlib-live-status[role=status]')}; }""")
        name = info["name"]
        from interlib import widgets

        demo = widgets.get(name)
        assert [c["name"] for c in info["controls"]] == list(demo.controls), (
            f"{docname}: demo {name} shows controls {info['controls']}")
        unlabelled = [c["name"] for c in info["controls"] if not c["label"]]
        assert not unlabelled, f"{docname}: demo {name}: controls without a label {unlabelled}"
        kinds = {c["kind"] for c in info["controls"]}
        assert kinds <= {"int", "intlog", "float", "log", "choice", "text"}, f"{docname}: {name}: kinds {kinds}"
        assert info["loaded"], f"{docname}: demo {name} has no default plot image"
        assert info["numbers"].strip(), f"{docname}: demo {name} shows no numbers"
        assert info["numbers"] == widgets.summary(name), f"{docname}: {name}: numbers differ"
        assert info["button"] and info["status"], f"{docname}: demo {name} has no live controls"


# Alt text that says nothing: empty, a file name, or a generic word.
_VACUOUS_ALT = re.compile(
    r"^(|image|img|figure|fig|plot|graph|chart|picture|png|logo|untitled|output)\s*\d*$"
    r"|\.(png|jpe?g|svg|gif|webp)$", re.I)


def _check_images(page, docname):
    images = page.eval_on_selector_all("img", """els => els.map(e => ({
        src: (e.getAttribute('src') || '').slice(0, 80), alt: e.getAttribute('alt'),
        loaded: e.complete && e.naturalWidth > 0}))""")
    bad = [f"{im['src']} (alt={im['alt']!r})" for im in images
           if im["alt"] is None or _VACUOUS_ALT.search(im["alt"].strip())]
    assert not bad, f"{docname}: images without meaningful alt text:\n" + "\n".join(bad)
    broken = [im["src"] for im in images if not im["loaded"]]
    assert not broken, f"{docname}: images that did not load:\n" + "\n".join(broken)


@functools.lru_cache(maxsize=None)
def _ids(path: Path) -> frozenset:
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r"""\sid=["']([^"']+)["']""", text))


def _check_links(page, docname, server):
    """Links within the site (as the browser resolves them) point to built files, and a
    #fragment to an element id on the target page."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    bad = []
    for href in sorted(set(hrefs)):
        url = urlparse(href)
        if url.scheme not in ("http", "https") or f"{url.scheme}://{url.netloc}" != server:
            continue
        target = HTML / unquote(url.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            bad.append(f"{href}: no such file")
        elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in _ids(target):
            bad.append(f"{href}: no id {url.fragment!r} on that page")
    assert not bad, f"{docname}: broken internal links:\n" + "\n".join(bad)


@pytest.mark.parametrize("query", ["all-reduce", "NVLink"])
def test_search_returns_results(server, browser, query):
    """Sphinx's client-side search (searchindex.js, local) finds pages for a book term."""
    page = browser.new_page()
    rec = _Recorder(page)
    try:
        page.goto(f"{server}/search.html?q={query}", wait_until="load")
        page.wait_for_selector("#search-results ul.search li", timeout=20000)
        links = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(e => e.href)")
        assert links, f"search for {query!r} returned nothing"
        for href in links:
            path = HTML / unquote(urlparse(href).path).lstrip("/")
            assert path.is_file(), f"search result {href} is not a built page"
        assert not rec.console_errors, "search page console errors:\n" + "\n".join(rec.console_errors)
        external = bs.external_requests(rec.requests)
        assert not external, "search page requests leaving 127.0.0.1:\n" + "\n".join(external)
    finally:
        page.close()
