"""Sphinx extension with the book's site tweaks (loaded via _config.yml local_extensions).

1. Keep pages free of CDN references. Jupyter Book 1 always loads `sphinx_thebe`, which
   writes on every page an inline script naming ``https://unpkg.com/thebe@…`` and a loader
   for it. The book does not use Thebe (``launch_buttons.thebe: false``; Binder is the live
   option), so both scripts are dropped from each page. Everything else the pages load is
   served from the site itself (see book/_vendor/README.md).
2. Figures quoted in prose with ``{eval}`expression``` are shown from the values stored in
   each markdown cell's ``user_expressions`` metadata by ``tools/execute_notebooks.py``
   (the build does not execute notebooks, so myst-nb has no kernel to ask). An expression
   without a stored value is a build warning, so ``-W`` fails on it. Text results show
   without their quotes, as jupyterlab-myst shows them.
3. Live demos. A page whose body holds a demo (``interlib-demo``, the static rendering of
   ``interlib.widgets.show``) loads ``_static/interlib-live.js`` (and only such a page). After
   an HTML build, the current ``interlib`` is packed into a pure-Python wheel in
   ``_static/`` (stdlib ``zipfile``, deterministic, offline, well under a second) and
   ``_static/interlib-live.json`` names it with its sha256 and the byte counts of what going
   live fetches; the script runs that wheel on the vendored Pyodide
   (``_static/pyodide/``), so the live demos and the stored outputs come from the same code.
4. (Not here: the default colour mode is ``html_context.default_mode: light`` in
   _config.yml; pydata-sphinx-theme's empty default logs a console error on a first visit.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _is_thebe(js: Any) -> bool:
    filename = str(getattr(js, "filename", js) or "")
    body = str(getattr(js, "attributes", {}).get("body", ""))
    return filename.endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body


def _is_widget_state(js: Any) -> bool:
    return getattr(js, "attributes", {}).get("type") == "application/vnd.jupyter.widget-state+json"


def drop_thebe(app, pagename, templatename, context, doctree) -> None:
    """Drop Thebe's CDN scripts and the saved ipywidgets state (the site shows each demo's
    static HTML rendering instead of the widget view; see _config.yml)."""
    scripts = context.get("script_files")
    if scripts:
        scripts[:] = [js for js in scripts if not (_is_thebe(js) or _is_widget_state(js))]


def add_live_script(app, pagename, templatename, context, doctree) -> None:
    """Load the live-demo script on pages that show a demo (module docstring, 3)."""
    if "interlib-demo" in (context.get("body") or ""):
        app.add_js_file("interlib-live.js", defer="defer")


REPO = Path(__file__).resolve().parent.parent.parent
# What the browser loads from _static/pyodide/ to go live (the runtime and the wheels of
# numpy, matplotlib and their dependencies: the whole trimmed lock).
RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
           "pyodide-lock.json", "matplotlib-fontlist.json", "site-packages-pycache.zip")


def interlib_files() -> list[Path]:
    """What a wheel of interlib holds: its modules and its package data (``interlib/data``),
    no bytecode."""
    return sorted(p for p in (REPO / "interlib").rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def build_interlib_wheel(dest: Path) -> Path:
    """Pack ``interlib/`` (:func:`interlib_files`) into
    ``dest/interlib-<version>-py3-none-any.whl`` with the standard library: a valid wheel
    (METADATA with pyproject.toml's dependencies, WHEEL, RECORD), byte-for-byte the same for
    the same sources (fixed timestamps, sorted entries). The one packer of interlib: the
    site's live demos load it, and tools/build_lite.py puts it in the JupyterLite edition."""
    import base64
    import hashlib
    import tomllib
    import zipfile

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    version = project["version"]
    info = f"interlib-{version}.dist-info"
    entries = [(p.relative_to(REPO).as_posix(), p.read_bytes()) for p in interlib_files()]
    metadata = ["Metadata-Version: 2.1", "Name: interlib", f"Version: {version}",
                f"Summary: {project['description']}",
                f"Requires-Python: {project['requires-python']}"]
    if isinstance(project.get("license"), str):  # the SPDX expression (issue 29: MIT)
        metadata.append(f"License: {project['license']}")
    metadata += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    entries.append((f"{info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    entries.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: book_site.py\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    entries.append((f"{info}/top_level.txt", b"interlib\n"))
    record = []
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / f"interlib-{version}-py3-none-any.whl"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return out


VENDOR_STATIC = REPO / "book" / "_vendor" / "static"


def _refresh_live_static(static: Path) -> None:
    """Copy the live-demo files of book/_vendor/static/ that are missing or differ in
    _static/. Sphinx 7.4 copies static files only when some page is rewritten, so an
    incremental build after re-vendoring or editing the scripts would serve stale ones."""
    import shutil

    sources = [*VENDOR_STATIC.glob("interlib-live*.js"), *(VENDOR_STATIC / "pyodide").iterdir()]
    for src in sources:
        dest = static / src.relative_to(VENDOR_STATIC)
        st = src.stat()
        if not dest.is_file() or dest.stat().st_size != st.st_size or \
                dest.stat().st_mtime < st.st_mtime:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)


def write_live_assets(app, exception) -> None:
    """After an HTML build: the interlib wheel and ``interlib-live.json`` in _static/."""
    import hashlib
    import json

    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    _refresh_live_static(static)
    wheel = build_interlib_wheel(static)
    pyodide = static / "pyodide"
    missing = [n for n in RUNTIME if not (pyodide / n).is_file()]
    if missing:
        raise RuntimeError(f"_static/pyodide/ lacks {missing}: run tools/vendor_pyodide.py")
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    packages = sorted(lock["packages"])
    runtime_bytes = sum((pyodide / n).stat().st_size for n in RUNTIME)
    package_bytes = sum((pyodide / e["file_name"]).stat().st_size
                        for e in lock["packages"].values())
    manifest = {
        "wheel": wheel.name,
        "wheel_sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "packages": packages,
        "bytes": {"runtime": runtime_bytes, "packages": package_bytes,
                  "interlib": wheel.stat().st_size},
    }
    (static / "interlib-live.json").write_text(json.dumps(manifest, indent=1) + "\n")


def stored_eval_variable(self, name: str) -> list:
    """The stored result of the inline expression ``name`` (see module docstring, 2).

    Replaces myst-nb's ``NotebookClientBase.eval_variable``, which needs a live kernel. The
    same expression always has one value in a notebook (tests/test_notebook_hygiene.py)."""
    from nbformat import from_dict

    for cell in self.notebook.get("cells", []):
        for item in cell.get("metadata", {}).get("user_expressions", []):
            if item.get("expression") == name and item.get("result", {}).get("status") == "ok":
                return [from_dict({"output_type": "execute_result", "execution_count": None,
                                   "data": item["result"].get("data", {}),
                                   "metadata": {"strip_text_quotes": True}})]
    raise KeyError(f"no stored value for {{eval}}`{name}`: run tools/execute_notebooks.py")


def setup(app):
    from myst_nb.core.execute.base import NotebookClientBase

    NotebookClientBase.eval_variable = stored_eval_variable
    app.connect("html-page-context", drop_thebe, priority=900)
    setup_accessibility(app)
    app.connect("html-page-context", add_live_script)
    app.connect("build-finished", write_live_assets)
    app.connect("builder-inited", plain_data_docstrings)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def plain_data_docstrings(app) -> None:
    """Appendix C: a module constant's docstring is prose. Napoleon reads the first line of a
    data or attribute docstring as ``type: description``, so "Chapter 8's two fabrics: a
    DGX H100 ..." would become a type named "Chapter 8's two fabrics". interlib does not
    use that form, so napoleon's handler is wrapped to read such a docstring as it reads a
    module's: its sections (Args, Returns, ...) still parse; its first line stays text."""
    from sphinx.ext import napoleon

    listeners = app.events.listeners.get("autodoc-process-docstring", [])
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            listeners.remove(listener)

            def process(app, what, name, obj, options, lines):
                napoleon._process_docstring(
                    app, "module" if what in ("data", "attribute") else what, name, obj,
                    options, lines)

            app.connect("autodoc-process-docstring", process, priority=listener.priority)


# --- Accessibility fixes of the generated HTML (added by the "pages" work on issue 13) ------
# Self-contained: exact replacements in every written page, after the build.
# * myst-nb's hide-input/hide-cell toggles are <summary aria-label="Toggle hidden content">
#   around visible text "Show code cell source": the accessible name must match the visible
#   text (axe label-content-name-mismatch), so the aria-label goes and the text names it.
# * pydata-sphinx-theme's primary sidebar (site title, search, book navigation) is a plain
#   <div>, content outside any landmark (axe region): it becomes a navigation landmark.
# * sphinxcontrib-bibtex's citation list is role="list" around non-listitem children
#   (axe aria-required-children, critical) with the deprecated role doc-biblioentry.
# * The theme's search field and colour-mode button: names that match what they show.
# * Scrolling figure boxes are focusable.
_A11Y_REPLACEMENTS = (
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    ('<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar">',
     '<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar" role="navigation" '
     'aria-label="Book">'),
    ('<div role="list" class="citation-list">', '<div class="citation-list">'),
    (' role="doc-biblioentry"', ""),
    # The theme's search field shows "Search Ctrl+K" but is named "Search"; its colour-mode
    # button is named "Color mode" while its icon glyphs count as visible text.
    ('<button class="btn search-button-field search-button__button pst-js-only" '
     'title="Search" aria-label="Search"',
     '<button class="btn search-button-field search-button__button pst-js-only" '
     'title="Search"'),
    ('<i class="theme-switch fa-solid', '<i aria-hidden="true" class="theme-switch fa-solid'),
    # Figures keep a legible width on a phone and their box scrolls sideways (interlib.css):
    # a keyboard must be able to scroll it too (axe scrollable-region-focusable), so the
    # box of a demo's figure and of a figure output is focusable.
    ('<div class="interlib-plot">', '<div class="interlib-plot" tabindex="0">'),
    ('<div class="cell_output docutils container">\n<img ',
     '<div class="cell_output docutils container" tabindex="0">\n<img '),
)


def fix_page_accessibility(app, exception) -> None:
    """Apply :data:`_A11Y_REPLACEMENTS` to every HTML page the build wrote."""
    from pathlib import Path

    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = text
        for old, repl in _A11Y_REPLACEMENTS:
            new = new.replace(old, repl)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup_accessibility(app) -> None:
    app.connect("build-finished", fix_page_accessibility)
