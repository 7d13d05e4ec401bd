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


@pytest.fixture(scope="module", autouse=True)
def _built(book_build):
    """The tests that read _build/html/lite without the browser (the config, the kernel's
    packages) wait for the session's build too: make test may run this file before any
    other file that builds (tests/conftest.py orders files by length)."""
    return book_build


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
    # only the extensions the edition needs (others in the build environment fail to load)
    names = {e["name"] for e in config["jupyter-config-data"]["federated_extensions"]}
    assert names == {"@jupyter-widgets/jupyterlab-manager", "jupyterlab-myst",
                     "@jupyterlite/pyodide-kernel-extension", "jupyterlab_pygments"}, names
    assert not (HTML / "lite" / "extensions" / "jupyterlab-jupytext").exists()


def test_lite_kernel_loads_what_it_needs_at_pyodides_start():
    """The kernel is told to load at Pyodide's start (one loadPackage, wheels fetched in
    parallel) every package jupyterlite-pyodide-kernel 0.5.2's worker would otherwise
    install one at a time after it: by the names its worker checks (read from the built
    extension's code, not from tools/build_lite.py), each in the lock, each file present
    with the sha256 the lock says."""
    import hashlib
    import re

    config = json.loads((HTML / "lite" / "jupyter-lite.json").read_text())
    packages = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]["packages"]
    static = HTML / "lite" / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    code = "\n".join(p.read_text(errors="replace") for p in static.glob("*.js"))
    started = re.search(r'i=\[("ssl"[^\]]*)\]', code)  # initKernel's list
    assert started, "the kernel's start-up package list was not found in its code"
    needed = set(json.loads(f"[{started.group(1)}]")) | {"micropip", "piplite"}
    assert needed <= set(packages), f"installed one at a time: {needed - set(packages)}"
    lock = json.loads((HTML / "lite" / "pypi" / "pyodide-lock.json").read_text())
    for name in packages:
        key = name.lower().replace("_", "-")
        entry = lock["packages"][key]
        path = (HTML / "_static" / "pyodide" / entry["file_name"]).resolve()
        assert path.is_file(), name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], name


class _LiteServer:
    """What LabNotebook needs of a server: the URL that opens a notebook."""

    def __init__(self, url):
        self.url = url

    def lab_url(self, rel):
        return self.url


@pytest.fixture(scope="module")
def chapter_1(site):
    """Chapter 1 opened in JupyterLite once, from the launch button on its page, for the two
    tests that run it (each boot of Pyodide plus Run All of the chapter took about a minute
    of a 2-core CI machine; they used to do it once each). One browser context records every
    request and console error of the session; the rest is what the reader sees before Run
    All (the markdown, a cross-reference, a demo's stored figure), after it (execution
    counts, stderr, page errors, then again once the page is idle) and after one slider
    move. Only observes: each test asserts what it asserted before, in the same order."""
    seen: dict = {"site": site, "requests": [], "console": [], "moves": []}
    plain = f"{site}/lite/lab/index.html?path={CHAPTER}.ipynb"
    with chromium_context() as context:
        context.on("request", lambda r: seen["requests"].append(r.url))
        context.on("console", lambda m: seen["console"].append(
            f"{m.text} @ {m.location.get('url')}") if m.type == "error" else None)
        # The launch button on the chapter's page.
        page = context.new_page()
        page.goto(f"{site}/{CHAPTER}.html", wait_until="load")
        link = page.locator("a.btn-jupyterlite-button")
        seen["links"] = link.count()
        seen["link_text"] = link.first.inner_text() if seen["links"] else ""
        seen["href"] = link.first.evaluate("a => a.href") if seen["links"] else ""
        page.close()

        nb = LabNotebook(context, _LiteServer(seen["href"] or plain), f"{CHAPTER}.ipynb")
        # markdown cells render (jupyterlab-myst) after the kernel is ready: wait until each
        # shows its text and the last one its reference list
        nb.page.wait_for_function("""() => {
            const md = window.jupyterapp.shell.currentWidget.content.widgets
                .filter(c => c.model.type === 'markdown');
            // the chapter's references sit in a folded block ("The sources this chapter
            // cites"): open it, as a reader does, to read the list
            if (md.length) md[md.length - 1].node.querySelectorAll('details')
                .forEach(d => { d.open = true; });
            return md.length > 0 && md.every(c => c.node.innerText.trim().length > 0)
                && /^\\[\\d+\\] /m.test(md[md.length - 1].node.innerText); }""",
            timeout=120000, polling=250)
        seen["markdown"] = nb.page.evaluate("""() => window.jupyterapp.shell.currentWidget
            .content.widgets.filter(c => c.model.type === 'markdown')
            .map(c => c.node.innerText)""")
        # a cross-reference to another notebook
        xref = nb.page.locator(".jp-MarkdownCell a",
                               has_text=_first_heading("book/notation.ipynb")).first
        seen["xref_href"] = xref.get_attribute("href")
        seen["xref_command"] = xref.get_attribute("data-commandlinker-command")
        # before Run All, the demos show their stored figure and say how to go live
        demo = nb.demos().first
        seen["buttons_before_run"] = demo.locator("button").count()
        seen["demo_text_before_run"] = demo.inner_text()

        nb.run_all()
        seen["counts"] = nb.execution_counts()
        seen["stderr"] = nb.error_outputs()
        seen["errors_after_run"] = list(nb.errors)
        # the page idle again (outputs drawn, late errors reported), not a fixed pause
        nb.page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                         "requestIdleCallback(() => r(true), {timeout: 30000})))")
        seen["errors_when_idle"] = list(nb.errors)

        demos = nb.demos()
        seen["demos"] = demos.count()
        for i in range(demos.count()):
            demo = demos.nth(i)
            if demo.locator(".noUi-handle").count() == 0:
                continue
            before = nb.state(demo)
            ms = nb.move_first_control(demo)
            seen["moves"].append((i, before, ms, nb.state(demo)))
            break
        seen["errors_at_end"] = list(nb.errors)
        nb.close()
    return seen


def test_chapter_1_runs_in_jupyterlite_and_a_slider_redraws(chapter_1):
    site = chapter_1["site"]
    # The launch button on the chapter's page.
    assert chapter_1["links"] == 1, "no JupyterLite launch button on the chapter page"
    assert "Open in a browser tab (JupyterLite)" in chapter_1["link_text"]
    href = chapter_1["href"]
    assert href.startswith(f"{site}/lite/lab/index.html?path={CHAPTER}.ipynb"), href

    counts = chapter_1["counts"]
    assert counts and counts == list(range(1, len(counts) + 1)), counts
    stderr = [e for e in chapter_1["stderr"] if e.strip() != FONT_CACHE_NOTICE]
    assert not stderr, f"error or stderr output: {stderr}"
    assert not chapter_1["errors_after_run"], chapter_1["errors_after_run"]

    assert chapter_1["demos"] >= 2, "Chapter 1 has at least two demos"
    moved = 0
    for i, before, ms, after in chapter_1["moves"]:
        assert before["src"] and before["src"].startswith("data:image/png"), before
        assert before["width"] > 0 and before["text"], before
        assert ms is not None, f"demo {i}: no new plot within 20 s of a slider move"
        assert after["src"] != before["src"] and after["text"] != before["text"]
        # the numbers Pyodide's interlib printed are CPython's for the same values
        want = expected_numbers_after(before["text"], after["alt"] or "")
        assert want is not None, f"demo {i}: no demo prints {before['text']!r}"
        assert numbers_agree(after["text"], want), (after["text"], want)
        moved += 1
    assert moved == 1, "no demo with a slider in Chapter 1"
    assert not chapter_1["errors_at_end"], chapter_1["errors_at_end"]

    outside = external_requests(chapter_1["requests"])
    assert not outside, f"requests left 127.0.0.1: {outside[:10]}"
    # Positive evidence that the kernel came from the site's own files.
    for part in ("/_static/pyodide/pyodide.asm.wasm", "/lite/pypi/interlib-",
                 "/lite/pypi/ipywidgets-8.1.7-", "/_static/pyodide/numpy-"):
        assert any(part in u for u in chapter_1["requests"]), f"never requested {part}"


# --- What JupyterLite shows of the book's references, citations and demos ------------------
# tools/build_lite.py rewrites the copies JupyterLite serves (the repository's notebooks stay
# as they are): without Sphinx, jupyterlab-myst would show {doc}/{ref} targets and citation
# keys raw, log "Cross reference target was not found" and print "Unknown Directive" for
# {footbibliography}; and each demo's stored static HTML would offer the site's "Run live"
# button, which does nothing in JupyterLab.

import re  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, str(REPO / "tools"))
import build_lite  # noqa: E402

ROLE_LEFT = re.compile(r"\{(doc|ref|numref|cite|footcite|footbibliography|bibliography)[}:]")
RUN_LIVE = ("Run live in your browser", "interlib-live-button")


def _lite(sources, docname="chapters/01_why_connect", outputs=()):
    """The lite copy of a notebook of markdown cells (plus one code cell with outputs)."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": s} for s in sources]
    cells.append({"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["x\n"],
                  "outputs": list(outputs)})
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4,
          "nbformat_minor": 5}
    return build_lite.lite_notebook(nb, docname, build_lite.Book(), build_lite.Bibliography())


def _first_heading(rel):
    first = json.loads((REPO / rel).read_text())["cells"][0]["source"]
    return ("".join(first) if isinstance(first, list) else first).splitlines()[0][2:].strip()


def test_lite_copies_resolve_cross_references():
    md = _lite(["Read {doc}`../book/notation` and {doc}`Chapter 4\n<04_nvswitch>`; see "
                "{doc}`../book/how_to_use`, {ref}`claim a <errata-a>` and {ref}`errata-b`.",
                "```python\n{doc}`not/a/doc`  # code is left alone\n```"])["cells"]
    text = md[0]["source"]
    # to a notebook: a markdown link JupyterLab opens in JupyterLite, titled as on the site
    assert f"[{_first_heading('book/notation.ipynb')}](../book/notation.ipynb)" in text
    assert "[Chapter 4](04_nvswitch.ipynb)" in text
    # to a page that is not a notebook: the website's page, from lite/lab/index.html
    assert ('<a href="../../book/how_to_use.html" target="_blank" rel="noopener">'
            "How to use this book</a>") in text
    assert "[claim a](../book/appendix_errata.ipynb#errata-a)" in text
    # a bare {ref} takes the title of the heading its label names, as Sphinx does
    assert "[(b) NVLink 5 vs PCIe 5](../book/appendix_errata.ipynb#errata-b)" in text
    assert not ROLE_LEFT.search(text), text
    assert md[1]["source"] == "```python\n{doc}`not/a/doc`  # code is left alone\n```"
    with pytest.raises(SystemExit, match=r"\{doc\} target '\.\./book/no_such_page' is not "):
        _lite(["{doc}`../book/no_such_page`"])
    with pytest.raises(SystemExit, match="label 'no-such-label'"):
        _lite(["{ref}`no-such-label`"])


def test_lite_copies_resolve_citations_as_the_site_labels_them():
    cells = _lite(["NCCL {footcite}`nccltests`, MPICH {footcite}`thakur2005`, again "
                   "{footcite}`nccltests`; {cite}`thakur2005`; {cite:t}`patarasuk2009`.",
                   "## References\n\n```{footbibliography}\n```"])["cells"]
    text, refs = cells[0]["source"], cells[1]["source"]
    # footnotes numbered in order of first citation; author-year for {cite} (references.bib:
    # Thakur, Rabenseifner and Gropp 2005; Patarasuk and Yuan 2009)
    assert text == ("NCCL [1], MPICH [2], again [1]; [Thakur et al., 2005]; "
                    "Patarasuk and Yuan [2009].")
    entries = refs.split("\n\n")[1:]
    assert [e[:12] for e in entries] == ["\\[1\\] NVIDIA", "\\[2\\] Rajeev"], refs
    assert "NCCL Tests" in entries[0] and "Rabenseifner" in entries[1]
    assert "(https://doi.org/10.1177/1094342005051521)" in entries[1]
    with pytest.raises(SystemExit, match="'nosuchkey2099'"):
        _lite(["{cite}`nosuchkey2099`"])


def test_lite_copies_drop_the_sites_live_button_and_join_multiline_outputs():
    from interlib.widgets import DEMOS
    from interlib.widgets.page import static_html

    page = static_html(next(iter(DEMOS)))
    assert all(s in page for s in RUN_LIVE)  # the site's markup, which the lite build edits
    lines = page.splitlines(keepends=True) or [page]
    demo = {"output_type": "display_data", "metadata": {},
            "data": {"text/html": lines, "text/plain": ["DemoBox(...)\n"],
                     "application/vnd.jupyter.widget-view+json": {"model_id": "m1",
                                                                  "version_major": 2}}}
    table = {"output_type": "execute_result", "execution_count": 1, "metadata": {},
             "data": {"text/html": ["<table>\n", "</table>"], "application/json": ["a", "b"]}}
    stream = {"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]}
    outs = _lite([], outputs=[demo, table, stream])["cells"][-1]["outputs"]
    html_ = outs[0]["data"]["text/html"]
    assert isinstance(html_, str) and not any(s in html_ for s in RUN_LIVE), html_[:400]
    assert "Run All Cells" in html_ and '<img' in html_ and "interlib-numbers" in html_
    fields = re.findall(r"<(?:input|select|textarea)\b[^>]*>", html_)
    assert fields and all(" disabled" in f for f in fields), fields
    # one string, as a Jupyter server hands it to JupyterLab (its table of contents fails
    # on the list form); JSON data is data, not lines
    assert outs[1]["data"] == {"text/html": "<table>\n</table>", "application/json": ["a", "b"]}
    assert outs[2]["text"] == "1\n2\n"


def test_built_lite_notebooks_have_no_raw_roles_or_live_buttons(book_build):
    assert book_build.returncode == 0, book_build.output[-3000:]
    served = sorted((HTML / "lite" / "files").rglob("*.ipynb"))
    assert len(served) == len(list(REPO.glob("chapters/*.ipynb"))) + len(
        [p for p in (REPO / "book").glob("*.ipynb")]), served
    for path in served:
        nb = json.loads(path.read_text())
        for i, cell in enumerate(nb["cells"]):
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                assert not ROLE_LEFT.search(src), f"{path.name} cell {i}: {src[:300]}"
            for out in cell.get("outputs", []):
                html_ = out.get("data", {}).get("text/html", "")
                assert isinstance(html_, str), f"{path.name} cell {i}: text/html as a list"
                assert not any(s in html_ for s in RUN_LIVE), f"{path.name} cell {i}"


def _site_footnotes(page_html: str) -> list[str]:
    """The text of each entry of a built chapter page's footnote bibliography."""
    items = re.findall(r'<aside class="footnote[^"]*" id="footcite-[^"]+"[^>]*>.*?<p>(.*?)</p>',
                       page_html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", i).split()) for i in items]


def test_lite_chapter_shows_titles_and_references_and_runs_without_console_error(chapter_1):
    source = json.loads((REPO / f"{CHAPTER}.ipynb").read_text())
    md_source = "".join("".join(c["source"]) for c in source["cells"]
                        if c["cell_type"] == "markdown")
    keys = set(re.findall(r"\{(?:foot)?cite(?::\w+)?\}`([^`]+)`", md_source))
    keys = {k.strip() for group in keys for k in group.split(",")}
    targets = {m.strip() for m in re.findall(r"\{(?:doc|ref)\}`(?:[^`<]*<)?([^`>]+)>?`",
                                             md_source)}
    assert keys and targets, "Chapter 1 cites and cross-references (the oracle is empty)"
    site_refs = _site_footnotes((HTML / f"{CHAPTER}.html").read_text())
    assert len(site_refs) >= len(keys) > 0, site_refs

    texts = chapter_1["markdown"]
    rendered = "\n".join(texts)
    assert "Unknown Directive" not in rendered and "Unknown Role" not in rendered
    assert not ROLE_LEFT.search(rendered)
    raw = sorted(k for k in keys | targets if re.search(rf"(?<![\w/.-]){re.escape(k)}"
                                                        rf"(?![\w/-])", rendered))
    assert not raw, f"raw citation keys or cross-reference targets shown: {raw}"
    # the chapter's reference list, entry by entry as on the site's page
    lite_refs = [" ".join(t.split()) for t in re.findall(r"^\[\d+\] (.+)$", texts[-1], re.M)]
    assert len(lite_refs) == len(site_refs), (lite_refs, site_refs)
    for lite_ref, site_ref in zip(lite_refs, site_refs):
        assert lite_ref[:60] == site_ref[:60], (lite_ref, site_ref)
    # a cross-reference to another notebook opens it inside JupyterLite
    assert chapter_1["xref_href"].endswith("/lite/files/book/notation.ipynb")
    assert chapter_1["xref_command"] == "rendermime:handle-local-link"
    # before Run All, the demos show their stored figure and say how to go live
    assert chapter_1["buttons_before_run"] == 0
    assert "Run All Cells" in chapter_1["demo_text_before_run"]

    counts = chapter_1["counts"]
    assert counts == list(range(1, len(counts) + 1)), counts
    # the page idle again (outputs drawn, late errors reported), not a fixed pause
    assert not chapter_1["errors_when_idle"], chapter_1["errors_when_idle"]
    console = chapter_1["console"]
    assert not console, f"console errors in JupyterLite: {console[:10]}"
