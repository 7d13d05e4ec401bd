"""Sphinx extension with the book's site tweaks (loaded via _config.yml local_extensions).

1. Keep pages free of CDN references. Jupyter Book 1 always loads `sphinx_thebe`, which
   writes on every page an inline script naming ``https://unpkg.com/thebe@…`` and a loader
   for it. The book does not use Thebe (``launch_buttons.thebe: false``; Binder is the live
   option), so both scripts are dropped from each page. Everything else the pages load is
   served from the site itself (see book/_vendor/README.md).
2. (Not here: the default colour mode is ``html_context.default_mode: light`` in
   _config.yml; pydata-sphinx-theme's empty default logs a console error on a first visit.)
"""

from __future__ import annotations

from typing import Any


def _is_thebe(js: Any) -> bool:
    filename = str(getattr(js, "filename", js) or "")
    body = str(getattr(js, "attributes", {}).get("body", ""))
    return filename.endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body


def drop_thebe(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if scripts:
        scripts[:] = [js for js in scripts if not _is_thebe(js)]


def setup(app):
    app.connect("html-page-context", drop_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
