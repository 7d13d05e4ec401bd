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


def test_widget_pages_use_local_assets(book_build):
    widget_pages = [p for p in _html_files()
                    if "application/vnd.jupyter.widget-state+json" in p.read_text(encoding="utf-8")]
    notebooks_with_widgets = [nb for nb in toc_notebooks()
                              if "application/vnd.jupyter.widget-view+json" in nb.read_text()]
    assert len(widget_pages) >= len(notebooks_with_widgets)
    for page in widget_pages:
        text = page.read_text(encoding="utf-8")
        for asset in ("_static/widgets-setup.js", "_static/requirejs/require.js",
                      "_static/html-manager/embed-amd.js"):
            assert asset in text, f"{page.relative_to(HTML)} does not load {asset}"
            assert (HTML / asset).exists(), f"{asset} missing from the build"
        # RequireJS must be configured before it loads, and load before the embed manager.
        order = [text.index(a) for a in ("widgets-setup.js", "requirejs/require.js",
                                         "html-manager/embed-amd.js")]
        assert order == sorted(order), f"widget scripts out of order in {page.relative_to(HTML)}"


def test_math_pages_use_local_mathjax(book_build):
    math_pages = [p for p in _html_files() if 'class="math' in p.read_text(encoding="utf-8")]
    assert math_pages, "no page with maths was built (the check would be vacuous)"
    for page in math_pages:
        text = page.read_text(encoding="utf-8")
        assert "_static/mathjax/tex-svg-full.js" in text, f"{page.relative_to(HTML)}: no local MathJax"
    assert (HTML / "_static/mathjax/tex-svg-full.js").exists()


def test_icon_fonts_are_served(book_build):
    # The widget bundles fetch their (hashed) Font Awesome files from their own folder, which
    # _static/widgets-setup.js makes _static/html-manager/ (otherwise: 404 beside the page).
    fonts = {p.name for p in (HTML / "_static/html-manager").glob("*.woff2")}
    bundle = (HTML / "_static/html-manager/embed-amd.js").read_text(encoding="utf-8")
    named = set(re.findall(r'"([0-9a-f]{20}\.woff2)"', bundle))
    assert named and named <= fonts, f"fonts named by embed-amd.js but not served: {named - fonts}"
