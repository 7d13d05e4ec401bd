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
def test_demo_pages_load_the_live_script_only(book_build):
    """The site shows each demo's static HTML (no widget manager, no saved widget state);
    exactly the pages with a demo load the live-demo script (tests/test_site_live.py)."""
    demo_pages = []
    for page in _html_files():
        text = page.read_text(encoding="utf-8")
        rel = page.relative_to(HTML)
        for gone in ("application/vnd.jupyter.widget-state+json", "embed-amd.js", "require.js"):
            assert gone not in text, f"{rel} still references {gone}"
        loads = re.search(r'<script[^>]+src="[^"]*_static/interlib-live\.js', text) is not None
        has_demo = 'class="interlib-demo"' in text
        assert loads == has_demo, f"{rel}: demo={has_demo} but loads interlib-live.js={loads}"
        demo_pages += [rel] if has_demo else []
    notebooks_with_demos = [nb for nb in toc_notebooks() if "interlib-demo" in nb.read_text()]
    assert len(demo_pages) >= len(notebooks_with_demos) > 0
    for asset in ("interlib-live.js", "interlib-live-worker.js", "interlib-live.json"):
        assert (HTML / "_static" / asset).is_file(), f"_static/{asset} missing from the build"


def test_live_assets_are_current(book_build):
    """The interlib wheel on the site holds exactly the current interlib sources, and the
    vendored Pyodide files are the ones tools/vendor_pyodide.py recorded (sha256)."""
    import hashlib
    import json
    import zipfile

    manifest = json.loads((HTML / "_static/interlib-live.json").read_text())
    wheel = HTML / "_static" / manifest["wheel"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == manifest["wheel_sha256"]
    sources = {p.relative_to(REPO).as_posix(): p.read_bytes()
               for p in (REPO / "interlib").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    # the package data interlib reads in the browser too (validation.load_measurements)
    assert "interlib/data/nccl_measurements.csv" in sources
    with zipfile.ZipFile(wheel) as z:
        packed = {n: z.read(n) for n in z.namelist() if n.startswith("interlib/")}
    assert packed == sources, "the site's interlib wheel differs from interlib/"
    prov = json.loads((REPO / "book/_vendor/static/pyodide/PROVENANCE.json").read_text())
    served = HTML / "_static" / "pyodide"
    for name, rec in prov["files"].items():
        data = (served / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == rec["sha256"], f"_static/pyodide/{name} changed"
    lock = json.loads((served / "pyodide-lock.json").read_text())
    for pkg, entry in lock["packages"].items():
        assert entry["file_name"] in prov["files"], f"the lock lists {pkg} but it is not shipped"
    assert {"numpy", "matplotlib"} <= set(lock["packages"])


def test_math_pages_use_local_mathjax(book_build):
    math_pages = [p for p in _html_files() if 'class="math' in p.read_text(encoding="utf-8")]
    assert math_pages, "no page with maths was built (the check would be vacuous)"
    for page in math_pages:
        text = page.read_text(encoding="utf-8")
        assert "_static/mathjax/tex-svg-full.js" in text, f"{page.relative_to(HTML)}: no local MathJax"
    assert (HTML / "_static/mathjax/tex-svg-full.js").exists()
