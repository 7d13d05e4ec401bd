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
3. (Not here: the default colour mode is ``html_context.default_mode: light`` in
   _config.yml; pydata-sphinx-theme's empty default logs a console error on a first visit.)
"""

from __future__ import annotations

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
    return {"parallel_read_safe": True, "parallel_write_safe": True}


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
