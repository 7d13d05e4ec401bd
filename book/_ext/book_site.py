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
4. Tables that read whole (issue 34). The stylesheet never breaks a word or a number in a
   table (book/_vendor/static/interlib.css); :data:`TABLE_JS`, on every page, measures each
   table in its column and re-lays out one that does not fit: smaller type first, then one
   card per row with each cell labelled by its column's heading. After the build, long
   inline code names and paths get break opportunities (:func:`breakable_code`), so they
   wrap at ``/``, ``.`` and ``_`` instead of running off a phone's screen.
5. A static figure's phone layout (issue 34): a figure a notebook shows through
   ``interlib.plots.BookFigure`` stores a phone rendering in its output's metadata; the page
   gets both images (:func:`image_with_phone_layout`) and the stylesheet shows the one
   that fits, as a demo's ``<picture>`` does.
6. (Not here: the default colour mode is ``html_context.default_mode: light`` in
   _config.yml; pydata-sphinx-theme's empty default logs a console error on a first visit.)
"""

from __future__ import annotations

import re
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


# Every table of a page that does not fit its column, measured in the page (module docstring,
# 4). A table fits if it is no wider than the box it sits in (its scroll wrapper) and no row
# is a tall blank one (TALL_ROW_LINES or more lines high because one cell holds fewer than
# SQUEEZED_CHARS_PER_LINE characters a line: a column squeezed to the width of a word).
# Else it gets .interlib-compact (smaller type), and if that does not fit either,
# .interlib-cards (a card per row; each cell's data-label is its column's heading).
# Measured again whenever a box changes width (a phone turned, a folded output opened, the
# window resized). tests/test_site_layout.py checks the result on every page at 1280, 960
# and 390 px.
TALL_ROW_LINES = 5
SQUEEZED_CHARS_PER_LINE = 10
TABLE_JS = r"""(function () {
  var BOX = '.interlib-table-wrap, .pst-scrollable-table-container';
  var TALL = %(tall)d, SQUEEZED = %(squeezed)s;
  function lines(el) {
    var r = document.createRange();
    r.selectNodeContents(el);
    var tops = Array.from(r.getClientRects()).filter(function (x) { return x.width > 0; })
      .map(function (x) { return [x.top, x.height]; })
      .sort(function (a, b) { return a[0] - b[0]; });
    var n = 0, last = -1e9;
    for (var t of tops) if (t[0] > last + 0.6 * t[1]) { n++; last = t[0]; }
    return n;
  }
  function squeezed(t) {
    for (var row of t.rows) {
      var most = 0, cell = null;
      for (var c of row.cells) { var n = lines(c); if (n > most) { most = n; cell = c; } }
      if (most >= TALL && cell.textContent.trim().length / most < SQUEEZED)
        return true;
    }
    return false;
  }
  function label(t) {
    var head = t.tHead && t.tHead.rows[0];
    if (!head || !t.tBodies.length) return false;
    var names = [];
    for (var c of head.cells)
      for (var k = 0; k < (c.colSpan || 1); k++) names.push(c.textContent.trim());
    for (var body of t.tBodies) for (var r of body.rows) {
      var i = 0;
      for (var cell of r.cells) {
        if (!cell.hasAttribute('data-label')) cell.setAttribute('data-label', names[i] || '');
        i += cell.colSpan || 1;
      }
    }
    return true;
  }
  function fits(t, room) {
    return t.getBoundingClientRect().width <= room + 0.5 && !squeezed(t);
  }
  function fit(t) {
    var box = t.closest(BOX) || t.parentElement;
    var room = box.clientWidth;
    if (!room) return;                                   // not shown (a folded output)
    t.classList.remove('interlib-compact', 'interlib-cards');
    if (fits(t, room)) return;
    t.classList.add('interlib-compact');
    if (fits(t, room)) return;
    if (label(t)) t.classList.replace('interlib-compact', 'interlib-cards');
  }
  function start() {
    var seen = new Map();
    var observer = window.ResizeObserver && new ResizeObserver(function (entries) {
      for (var e of entries) {
        var w = Math.round(e.contentRect.width);
        if (seen.get(e.target) === w) continue;
        seen.set(e.target, w);
        for (var t of e.target.querySelectorAll('table')) fit(t);
      }
    });
    for (var t of document.querySelectorAll('.bd-content table')) {
      fit(t);
      if (observer) observer.observe(t.closest(BOX) || t.parentElement);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();""" % {"tall": TALL_ROW_LINES, "squeezed": SQUEEZED_CHARS_PER_LINE}


def image_with_phone_layout(render_image):
    """Wrap myst-nb's ``render_image``: a figure output that carries a phone rendering in its
    metadata (``interlib.plots.PHONE_METADATA``, written when a notebook shows a
    ``plots.BookFigure``) is shown as two images, the figure and its phone layout; the
    stylesheet shows the second below 600 px and the first above (module docstring, 5)."""
    import base64
    import hashlib

    def render(self, data):
        from interlib.plots import PHONE_METADATA

        out = render_image(self, data)
        phone = data.output_metadata.get(PHONE_METADATA)
        if not phone or data.mime_type != "image/png" or len(out) != 1:
            return out
        wide = out[0]
        png = base64.b64decode(phone)
        uri = self.write_file([hashlib.sha256(png).hexdigest() + ".png"], png,
                              overwrite=False, exists_ok=True)
        narrow = wide.deepcopy()
        narrow["uri"] = uri
        for key in ("width", "height", "scale"):
            narrow.attributes.pop(key, None)
        wide["classes"] = [*wide.get("classes", []), "interlib-wide"]
        narrow["classes"] = [*narrow.get("classes", []), "interlib-phone"]
        return [wide, narrow]

    return render


def setup(app):
    from myst_nb.core.execute.base import NotebookClientBase
    from myst_nb.core.render import NbElementRenderer

    NotebookClientBase.eval_variable = stored_eval_variable
    NbElementRenderer.render_image = image_with_phone_layout(NbElementRenderer.render_image)
    app.connect("html-page-context", drop_thebe, priority=900)
    setup_accessibility(app)
    app.connect("html-page-context", add_live_script)
    app.connect("build-finished", write_live_assets)
    app.connect("builder-inited", plain_data_docstrings)
    app.connect("autodoc-process-docstring", reexported_data_docstring, priority=400)
    app.connect("builder-inited", readable_constants)
    app.add_js_file(None, body=TABLE_JS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def reexported_data_docstring(app, what, name, obj, options, lines) -> None:
    """Appendix C: a constant a package re-exports (``interlib.nccltests.MAX_CHARS``, defined
    in ``interlib.nccltests.runs``) is documented under the package's name, where autodoc
    finds no docstring and falls back to its type's (``int([x]) -> integer ...``). Take the
    docstring written under the assignment in the submodule that defines it instead."""
    if what != "data" or "." not in name:
        return
    import importlib
    import inspect
    import pkgutil

    from sphinx.pycode import ModuleAnalyzer

    modname, attr = name.rsplit(".", 1)
    try:
        package = importlib.import_module(modname)
    except ImportError:
        return
    own = inspect.cleandoc(type(obj).__doc__ or "").splitlines()
    if not hasattr(package, "__path__") or not lines or not own or lines[0] != own[0]:
        return  # not a package, or the constant has a docstring of its own
    for sub in pkgutil.iter_modules(package.__path__):
        full = f"{modname}.{sub.name}"
        try:
            module = importlib.import_module(full)
            analyzer = ModuleAnalyzer.for_module(full)
            analyzer.analyze()
        except Exception:  # noqa: BLE001 - a submodule autodoc cannot read is skipped
            continue
        doc = analyzer.attr_docs.get(("", attr))
        if doc and getattr(module, attr, None) is obj:
            lines[:] = list(doc)
            return


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


# --- Appendix C: constants in a readable form -----------------------------------------------

_READABLE_MAX = 300
"""Longest value Appendix C prints after a constant's name (characters); a longer one, or
one holding records (a catalogue's dataclasses), is described instead."""


def readable_value(obj) -> str | None:
    """A constant as a reader would write it, or None if it has no short readable form.
    Python syntax, so it can be typed back: large counts grouped (``10_000_000``), sizes
    that are powers of two as such (``2**30``), text quoted; records, paths and anything
    longer than :data:`_READABLE_MAX` give None.

    >>> readable_value((65536, 1073741824)), readable_value(10000000)
    ('(2**16, 2**30)', '10_000_000')
    >>> readable_value((('latency-bound', 0.0, 1048576.0), ('bandwidth-bound', 1048576.0,
    ...                 float('inf'))))
    "(('latency-bound', 0.0, 2**20), ('bandwidth-bound', 2**20, inf))"
    >>> readable_value({'a': object()}) is None
    True
    """
    import math

    def one(x):
        if x is None or isinstance(x, bool):
            return repr(x)
        if isinstance(x, (int, float)):
            if isinstance(x, float) and math.isinf(x):
                return "inf" if x > 0 else "-inf"
            if float(x).is_integer() and x >= 2**16 and int(x).bit_count() == 1:
                return f"2**{int(x).bit_length() - 1}"
            if isinstance(x, int):
                return f"{x:_}" if abs(x) >= 10_000 else str(x)
            return repr(x)
        if isinstance(x, str):
            return repr(x)
        if isinstance(x, (tuple, list)):
            items = [one(i) for i in x]
            if None in items:
                return None
            body = ", ".join(items)
            if isinstance(x, list):
                return f"[{body}]"
            return f"({body},)" if len(items) == 1 else f"({body})"
        if isinstance(x, dict):
            pairs = [(one(k), one(val)) for k, val in x.items()]
            if any(k is None or val is None for k, val in pairs):
                return None
            return "{" + ", ".join(f"{k}: {val}" for k, val in pairs) + "}"
        return None

    text = one(obj)
    return text if text is not None and len(text) <= _READABLE_MAX else None


def value_summary(obj) -> str:
    """What a constant without a short readable form holds: its kind, its size and its
    keys (or the kind of its items), e.g. "A dict of 3 entries: 'a', 'b', 'c'."."""
    kind = type(obj).__name__
    if isinstance(obj, dict):
        keys = ", ".join(readable_value(k) or str(k) for k in obj)
        keys = keys if len(keys) <= _READABLE_MAX else f"{keys[:_READABLE_MAX]}…"
        values = sorted({type(val).__name__ for val in obj.values()})
        return (f"A dict of {len(obj)} entries ({' or '.join(values)}), keyed "
                f"{keys}.")
    if isinstance(obj, (tuple, list)):
        items = sorted({type(i).__name__ for i in obj})
        return f"A {kind} of {len(obj)} items ({' or '.join(items)})."
    return f"A {kind}."


def readable_constants(app) -> None:
    """Appendix C: a module constant is shown as :func:`readable_value` writes it, not as
    Python's repr (a dict of catalogue records printed as one 7,000-character line that
    made the page scroll sideways); a constant with no short readable form says what it
    holds (:func:`value_summary`) under its description."""
    from sphinx.ext.autodoc import DataDocumenter

    class ReadableData(DataDocumenter):
        def get_module_comment(self, attrname: str):
            """The constant's docstring where it is defined: a module that re-exports it
            (``interlib.nccltests.FLOOR_FACTOR``, defined in ``nccltests.causes``) has none
            of its own, and autodoc would print the docstring of ``float`` instead."""
            found = super().get_module_comment(attrname)
            if found:
                return found
            import sys

            package = self.modname.split(".")[0] + "."
            for name, module in sorted(sys.modules.items()):
                if (name.startswith(package) and module is not None and
                        getattr(module, attrname, None) is self.object):
                    try:
                        from sphinx.pycode import ModuleAnalyzer

                        analyzer = ModuleAnalyzer.for_module(name)
                        analyzer.analyze()
                    except Exception:  # noqa: BLE001 (no source: keep looking)
                        continue
                    if ("", attrname) in analyzer.attr_docs:
                        return list(analyzer.attr_docs[("", attrname)])
            return None

        def get_doc(self):
            doc = super().get_doc()
            # Never the docstring of the value's type ("Built-in immutable sequence...").
            own = self.get_module_comment(self.objpath[-1])
            return doc if own else []

        def should_suppress_value_header(self) -> bool:
            return True  # the value line is written below, readable

        def add_directive_header(self, sig: str) -> None:
            super().add_directive_header(sig)
            text = None if self.options.no_value else readable_value(self.object)
            if text is not None:
                self.add_line("   :value: " + text, self.get_sourcename())

        def add_content(self, more_content) -> None:
            super().add_content(more_content)
            if not self.options.no_value and readable_value(self.object) is None:
                source = self.get_sourcename()
                self.add_line("", source)
                self.add_line(value_summary(self.object), source)

    app.add_autodocumenter(ReadableData, override=True)


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
    """Apply :data:`_A11Y_REPLACEMENTS` and :func:`breakable_code` to every HTML page the
    build wrote."""
    from pathlib import Path

    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        if "lite" in page.relative_to(app.outdir).parts[:1]:
            continue  # the JupyterLite edition's own pages
        text = page.read_text(encoding="utf-8")
        new = text
        for old, repl in _A11Y_REPLACEMENTS:
            new = new.replace(old, repl)
        new = breakable_code(new)
        if new != text:
            page.write_text(new, encoding="utf-8")


# Sphinx writes inline code (and API signatures) as one ``<span class="pre">`` per word,
# and its stylesheet keeps each span on one line (white-space: nowrap): a long path or
# dotted name runs past the right edge of a phone and the whole page scrolls sideways.
_PRE_SPAN = re.compile(r'<span class="pre">([^<]{%d,})</span>' % 18)
# A link whose text is a URL or a path (the bibliography's, a source's): no tags inside.
_LINK_TEXT = re.compile(r'(<a [^>]*>)([^<]*[^\s<]{%d,}[^<]*)</a>' % 18)
# An API entry's module path and its name are two spans with nothing between them.
_SIG_NAME = '</span></span><span class="sig-name descname">'


def breakable_code(page: str) -> str:
    """``page`` with each long ``<span class="pre">`` cut into spans with a ``<wbr>``
    between them where a path or code name may break (``interlib.display.breakable``:
    after ``/``, ``_``, ``(``, ``,``; before a ``.`` that starts a name), the same breaks
    in the long words of a link's text (a URL in the bibliography), and a ``<wbr>``
    between an API entry's module path and its name. Short spans and words (numbers,
    words) are left whole.

    >>> breakable_code('<span class="pre">capstone.network_price</span>').split("<wbr>")
    ['<span class="pre">capstone</span>', '<span class="pre">.network_</span>', \
'<span class="pre">price</span>']
    """
    import html

    from interlib.display import breakable

    def cut(m):
        pieces = breakable(html.unescape(m.group(1)))
        return "<wbr>".join(f'<span class="pre">{html.escape(p, quote=False)}</span>'
                            for p in pieces)

    def link(m):
        text = html.unescape(m.group(2))
        pieces = [breakable(t) if t.strip() else [t] for t in re.split(r"(\s+)", text)]
        return m.group(1) + "".join("<wbr>".join(html.escape(p, quote=False) for p in ps)
                                    for ps in pieces) + "</a>"

    page = page.replace(_SIG_NAME, '</span></span><wbr><span class="sig-name descname">')
    page = _LINK_TEXT.sub(link, page)
    return _PRE_SPAN.sub(cut, page)


def setup_accessibility(app) -> None:
    app.connect("build-finished", fix_page_accessibility)
