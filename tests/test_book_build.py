"""The book builds warning-free with Jupyter Book 1, and the site references no CDN."""

from __future__ import annotations

import re
from pathlib import Path

import jupyter_book

from conftest import HTML, REPO, toc_docnames, toc_notebooks

# Hosts a page must never load from (the site is self-contained and works offline).
CDN_HOST = re.compile(r"cdn|unpkg|jsdelivr|googleapis|gstatic|cloudflare|mathjax\.org", re.I)
URL = re.compile(r"""(?:https?:)?//([A-Za-z0-9.-]+\.[A-Za-z]{2,})[^\s"'<>)]*""")


def test_jupyter_book_is_1x():
    # 2.x ignores _config.yml/_toc.yml and "builds" nothing with exit status 0.
    assert int(jupyter_book.__version__.split(".")[0]) == 1, jupyter_book.__version__


def test_build_is_warning_free(book_build):
    assert book_build.returncode == 0, (
        "jupyter-book build . -W -n --keep-going failed; last output:\n" + book_build.output[-6000:]
    )


def test_every_toc_page_is_built(book_build):
    missing = [d for d in toc_docnames() if not (HTML / f"{d}.html").exists()]
    assert not missing, f"no HTML page for toc entries {missing}"
    for nb in toc_notebooks():
        rel = nb.relative_to(REPO).with_suffix(".html")
        assert (HTML / rel).exists(), f"{rel} not built"


def _html_files() -> list[Path]:
    return sorted(HTML.rglob("*.html"))


def test_no_cdn_urls_in_html(book_build):
    offenders = []
    for page in _html_files():
        text = page.read_text(encoding="utf-8", errors="replace")
        for m in URL.finditer(text):
            if CDN_HOST.search(m.group(1)):
                offenders.append(f"{page.relative_to(HTML)}: {m.group(0)[:120]}")
    assert not offenders, "CDN URLs in the built site:\n" + "\n".join(sorted(set(offenders))[:50])


DEMO_CELL = re.compile(r"""^widgets\.show\(["'](\w+)["']\)\s*$""")


def _demo_names(nb: Path) -> list[str]:
    import json

    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    return [m.group(1) for c in cells if c["cell_type"] == "code"
            for m in [DEMO_CELL.match("".join(c["source"]))] if m]


def test_demo_pages_show_each_demo_once_as_static_html(book_build):
    # The site shows each demo's text/html rendering (labelled native controls, default
    # figure, numbers), never the ipywidgets view: no saved widget state, no widget manager.
    demo_notebooks = [nb for nb in toc_notebooks() if _demo_names(nb)]
    assert len(demo_notebooks) >= 8, "fewer notebooks with demos than chapters (vacuous check)"
    for nb in demo_notebooks:
        page = HTML / nb.relative_to(REPO).with_suffix(".html")
        text = page.read_text(encoding="utf-8")
        for name in _demo_names(nb):
            assert text.count(f'data-demo="{name}"') == 1, f"{page.name}: demo {name} not shown once"
        assert "application/vnd.jupyter.widget-state+json" not in text, f"{page.name}: widget state"
        assert "embed-amd.js" not in text, f"{page.name} loads the ipywidgets manager"
        assert "jupyter-widgets" not in text, f"{page.name} renders an ipywidgets view"


def test_math_pages_use_local_mathjax(book_build):
    math_pages = [p for p in _html_files() if 'class="math' in p.read_text(encoding="utf-8")]
    assert math_pages, "no page with maths was built (the check would be vacuous)"
    for page in math_pages:
        text = page.read_text(encoding="utf-8")
        assert "_static/mathjax/tex-svg-full.js" in text, f"{page.relative_to(HTML)}: no local MathJax"
    assert (HTML / "_static/mathjax/tex-svg-full.js").exists()
