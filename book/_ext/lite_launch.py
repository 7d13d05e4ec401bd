"""Sphinx extension: the JupyterLite edition of the book, built with the site, and its
launch button (loaded via _config.yml ``local_extensions``).

1. After every HTML build, ``tools/build_lite.py`` builds the notebooks of ``_toc.yml``
   into ``<site>/lite/`` (JupyterLite with the Pyodide kernel; Pyodide is the site's own
   ``_static/pyodide/``). A few seconds; a failure fails the build.
2. On every notebook page, the launch (rocket) menu gets "Open in a browser tab
   (JupyterLite)" beside Binder's button: the same notebook, run by Python in the reader's
   browser, no server.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[2]
LITE_DIR = "lite"  # tools/build_lite.py LITE_IN_SITE
BUTTON_TEXT = "Open in a browser tab (JupyterLite)"


def _is_notebook(app, pagename: str) -> bool:
    try:
        return Path(app.env.doc2path(pagename)).suffix == ".ipynb"
    except Exception:  # noqa: BLE001 - not a document (genindex, search)
        return False


def add_lite_button(app, pagename, templatename, context, doctree) -> None:
    """Add the JupyterLite link to the launch menu sphinx-book-theme built (priority 501)."""
    if doctree is None or not _is_notebook(app, pagename):
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "launch-buttons":
            url = context["pathto"](f"{LITE_DIR}/lab/index.html", 1)
            group["buttons"].append({
                "type": "link",
                "text": BUTTON_TEXT,
                "tooltip": "Run this notebook with Python in your browser (JupyterLite): "
                           "no server, nothing to install",
                "icon": "fas fa-laptop-code",
                "url": f"{url}?path={pagename}.ipynb",
                "label": "jupyterlite-button",
            })
            return


def build_lite(app, exception) -> None:
    if exception is not None or app.builder.name != "html":
        return
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "build_lite.py"),
                           "--site", str(app.outdir)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise ExtensionError(f"JupyterLite build failed:\n{proc.stdout}\n{proc.stderr}")
    LOGGER.info(proc.stdout.strip())


def setup(app):
    app.connect("html-page-context", add_lite_button, priority=502)
    app.connect("build-finished", build_lite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
