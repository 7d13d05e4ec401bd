"""The JupyterLite edition (tools/build_lite.py, built with every site build into
_build/html/lite/) in a real browser: from Chapter 1's page, its launch button opens the
notebook in JupyterLite; Run All on the Pyodide kernel runs every cell without error; a
demo's slider redraws the plot and the numbers; and no request leaves 127.0.0.1 (Pyodide,
its packages and interlib are the site's own files).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_support import (LabNotebook, chromium_context, expected_numbers_after,
                             external_requests, numbers_agree, require_chromium)

require_chromium()

REPO = Path(__file__).resolve().parent.parent
HTML = REPO / "_build" / "html"
CHAPTER = "chapters/01_why_connect"
# Matplotlib writes this once per fresh Pyodide (no font cache in the browser's memory
# file system yet): a notice on stderr, not an error.
FONT_CACHE_NOTICE = "Matplotlib is building the font cache; this may take a moment."


@pytest.fixture(scope="module")
def site(server):
    assert (HTML / "lite" / "lab" / "index.html").is_file(), "no JupyterLite build"
    return server


def test_lite_config_points_at_local_pyodide_only():
    config = json.loads((HTML / "lite" / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./../_static/pyodide/pyodide.js"
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((HTML / "lite" / "pypi" / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == "0.27.7"
    for name in ("interlib", "ipywidgets", "comm", "networkx"):
        assert (HTML / "_static" / "pyodide" / lock["packages"][name]["file_name"]).resolve() \
            .is_file(), name
    assert not (REPO / ".jupyterlite.doit.db").exists()


class _LiteServer:
    """What LabNotebook needs of a server: the URL that opens a notebook."""

    def __init__(self, url):
        self.url = url

    def lab_url(self, rel):
        return self.url


def test_chapter_1_runs_in_jupyterlite_and_a_slider_redraws(site):
    requests: list[str] = []
    with chromium_context() as context:
        context.on("request", lambda r: requests.append(r.url))
        # The launch button on the chapter's page.
        page = context.new_page()
        page.goto(f"{site}/{CHAPTER}.html", wait_until="load")
        link = page.locator("a.btn-jupyterlite-button")
        assert link.count() == 1, "no JupyterLite launch button on the chapter page"
        assert "Open in a browser tab (JupyterLite)" in link.inner_text()
        href = link.evaluate("a => a.href")
        assert href.startswith(f"{site}/lite/lab/index.html?path={CHAPTER}.ipynb"), href
        page.close()

        nb = LabNotebook(context, _LiteServer(href), f"{CHAPTER}.ipynb")
        nb.run_all(timeout_s=240)
        counts = nb.execution_counts()
        assert counts and counts == list(range(1, len(counts) + 1)), counts
        stderr = [e for e in nb.error_outputs() if e.strip() != FONT_CACHE_NOTICE]
        assert not stderr, f"error or stderr output: {stderr}"
        assert not nb.errors, nb.errors

        demos = nb.demos()
        assert demos.count() >= 2, "Chapter 1 has at least two demos"
        moved = 0
        for i in range(demos.count()):
            demo = demos.nth(i)
            if demo.locator(".noUi-handle").count() == 0:
                continue
            before = nb.state(demo)
            assert before["src"] and before["src"].startswith("data:image/png"), before
            assert before["width"] > 0 and before["text"], before
            ms = nb.move_first_control(demo)
            assert ms is not None, f"demo {i}: no new plot within 20 s of a slider move"
            after = nb.state(demo)
            assert after["src"] != before["src"] and after["text"] != before["text"]
            # the numbers Pyodide's interlib printed are CPython's for the same values
            want = expected_numbers_after(before["text"], after["alt"] or "")
            assert want is not None, f"demo {i}: no demo prints {before['text']!r}"
            assert numbers_agree(after["text"], want), (after["text"], want)
            moved += 1
            break
        assert moved == 1, "no demo with a slider in Chapter 1"
        assert not nb.errors, nb.errors
        nb.close()

    outside = external_requests(requests)
    assert not outside, f"requests left 127.0.0.1: {outside[:10]}"
    # Positive evidence that the kernel came from the site's own files.
    for part in ("/_static/pyodide/pyodide.asm.wasm", "/lite/pypi/interlib-",
                 "/lite/pypi/ipywidgets-8.1.7-", "/_static/pyodide/numpy-"):
        assert any(part in u for u in requests), f"never requested {part}"
