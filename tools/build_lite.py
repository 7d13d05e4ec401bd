"""Build the JupyterLite edition of the book into the built site (``_build/html/lite/``).

Every notebook of ``_toc.yml`` (chapters, front matter, appendices) opens in a real
JupyterLab in the reader's browser, with a Python kernel (Pyodide, WebAssembly) and no
server. Run by the site build itself (``book/_ext/lite_launch.py``, at the end of every
``jupyter-book build``), or by hand after one:

    python tools/build_lite.py [--site _build/html]

Nothing is fetched from the network, at build or at read time:

* Pyodide 0.27.7 (runtime and its wasm wheels) is the site's own copy, vendored in
  ``book/_vendor/static/pyodide/`` and served at ``_static/pyodide/``; the kernel is
  pointed there (``pyodideUrl``), never at a CDN, and PyPI fallback is off.
* ipywidgets, comm and networkx are the wheels in ``book/_vendor/piplite/`` (the same
  files, by sha256, as the reader's lock pins); interlib is a wheel built here from the
  repository.
* A copy of Pyodide's lock (``lite/pypi/pyodide-lock.json``) adds those four wheels, so
  the kernel loads ``interlib`` and everything it imports when it starts: notebooks run
  unchanged (``from interlib import ...``, ``%matplotlib inline``). It adds the kernel's own
  wheels too (piplite, pyodide-kernel, its ipykernel shim), and the kernel is told to load
  all it needs at Pyodide's start (:data:`KERNEL_PRELOAD`): in one batch, fetched in
  parallel, instead of installing them one at a time after it.

The build runs in a fresh temporary ``--lite-dir`` each time, so a stale
``.jupyterlite.doit.db`` (which makes jupyterlite skip the local Pyodide URL and fetch
one from a CDN) can never be picked up. It takes a few seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "book" / "_ext"))
from book_site import build_interlib_wheel  # noqa: E402  (the one packer of interlib)
from toc import toc_notebooks  # noqa: E402

PIPLITE_WHEELS = REPO / "book" / "_vendor" / "piplite"
# Where the site serves Pyodide, relative to the site root (Sphinx copies
# book/_vendor/static/ to _static/).
PYODIDE_IN_SITE = Path("_static") / "pyodide"
LITE_IN_SITE = "lite"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# The kernelspec the Pyodide kernel registers; the notebooks say python3 (CPython).
LITE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
# What each added wheel needs from Pyodide's own distribution, by Pyodide's package names.
# ipywidgets' front-end requirements (widgetsnbextension, jupyterlab_widgets) are served
# by JupyterLite itself; comm and networkx need nothing at import time.
ADDED_DEPENDS = {
    "comm": [],
    "ipywidgets": ["comm", "ipython", "traitlets"],
    "networkx": [],
    "interlib": ["numpy", "matplotlib", "ipywidgets", "networkx"],
}
# What the kernel itself loads at start-up from Pyodide's distribution (ssl, sqlite3 and
# ipython by jupyterlite-pyodide-kernel 0.5, micropip for piplite, matplotlib-pyodide
# via matplotlib); all of it, with dependencies, must be among the vendored files.
KERNEL_NEEDS = ["micropip", "ssl", "sqlite3", "ipython", "interlib"]
# What the kernel loads as it starts, by the names jupyterlite-pyodide-kernel 0.5.2 checks
# against loadPyodideOptions.packages (its worker's initPackageManager: micropip, piplite;
# initKernel: ssl, sqlite3, ipykernel, comm, pyodide_kernel, ipython). Each one named here
# is loaded with interlib in one loadPackage at Pyodide's start (the wheels fetched in
# parallel); one not named is installed afterwards, one at a time (micropip, then
# `piplite.install` per name). make bench measures both ways (bench_lite).
KERNEL_PRELOAD = ["interlib", "micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm",
                  "pyodide_kernel", "ipython"]
# The kernel's own wheels (served by its extension), added to the lock for the preload.
KERNEL_WHEELS = {"piplite": ["micropip"], "pyodide-kernel": [], "ipykernel": []}
KERNEL_WHEEL_DIR = Path("extensions") / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
# The JupyterLab extensions of the edition. jupyterlite picks up every extension installed
# in the build environment; others there (jupytext's and ipylab's, from the developer's
# lock) are built for a newer JupyterLab and fail to load in JupyterLite's ("The getter
# for the shared module is not a function", a console error on every page).
LITE_EXTENSIONS = {"@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension",
                   "jupyterlab-myst", "jupyterlab_pygments"}
DATA_DIRS = ("chapters/data",)
BIBFILE = REPO / "book" / "references.bib"
# From the JupyterLite app (<site>/lite/lab/index.html, or lite/notebooks/...) to the site
# root: a page of the website that is not a notebook opens from there, in a new tab.
SITE_FROM_APP = "../../"


# --- The notebooks as JupyterLite shows them -----------------------------------------------
#
# JupyterLite renders markdown cells with jupyterlab-myst, one cell at a time, with no
# Sphinx behind it: the book's cross-references ({doc}, {ref}) and citations ({cite},
# {footcite}, {footbibliography}, {bibliography}) would show as raw keys and log "Cross
# reference target was not found". The copies JupyterLite serves therefore get them
# resolved here, as the site resolves them: a reference to another notebook becomes a link
# that opens it in JupyterLite, a reference to a page that is not a notebook a link to the
# website's page (new tab), a citation its author-year or footnote label as plain text,
# and a bibliography the formatted entries (pybtex's "plain" style, as on the site). The
# repository's notebooks are never changed.

_ROLE = re.compile(r"\{(?P<role>[a-z][a-z0-9_-]*(?::[a-z]+)?)\}`(?P<body>[^`]+)`")
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
_LABEL = re.compile(r"^\((?P<label>[^()\s]+)\)=\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,}|:{3,})\s*(?P<info>\S*)")
_BIB_DIRECTIVE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})\{(?P<name>footbibliography|bibliography)\}[^\n]*\n"
    r"(?P<body>.*?)^(?P=fence)\s*$", re.S | re.M)


def _doc_source(docname: str) -> tuple[str, list[str]]:
    """('ipynb' or 'md', its markdown texts) for a document of the book."""
    nb = REPO / f"{docname}.ipynb"
    if nb.is_file():
        cells = json.loads(nb.read_text())["cells"]
        return "ipynb", ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                         for c in cells if c["cell_type"] == "markdown"]
    md = REPO / f"{docname}.md"
    if md.is_file():
        return "md", [md.read_text()]
    raise SystemExit(f"build_lite: {docname} is listed in _toc.yml but has no .ipynb or .md")


class Book:
    """What the cross-references point at: every document of _toc.yml (its kind and title)
    and every label ``(name)=`` (its document and the title of the heading it names)."""

    def __init__(self, repo: Path = REPO):
        from toc import toc_docnames

        self.docs: dict[str, tuple[str, str]] = {}
        self.labels: dict[str, tuple[str, str | None]] = {}
        for docname in toc_docnames(repo):
            kind, texts = _doc_source(docname)
            title = None
            for text in texts:
                lines = text.splitlines()
                for i, line in enumerate(lines):
                    head = _HEADING.match(line)
                    if head and title is None and line.startswith("# "):
                        title = head.group("title")
                    label = _LABEL.match(line)
                    if label:
                        nxt = next((x for x in lines[i + 1:] if x.strip()), "")
                        under = _HEADING.match(nxt)
                        self.labels[label.group("label")] = (
                            docname, under.group("title") if under else None)
            self.docs[docname] = (kind, title or docname.rsplit("/", 1)[-1])


def _short_authors(entry) -> str:
    """The author part of an author-year citation, as sphinxcontrib-bibtex writes it
    (``last`` names; "A and B"; "A et al." from three authors on)."""
    import pybtex.plugin

    last = pybtex.plugin.find_plugin("pybtex.style.names", "last")()
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [last.format(p).format().render_as("text") for p in people]
    if not names:
        return entry.fields.get("title", entry.key)
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


class Bibliography:
    """references.bib, formatted as the site formats it (pybtex's ``plain`` style; the
    author-year labels of ``bibtex_reference_style: author_year``)."""

    def __init__(self, path: Path = BIBFILE):
        import pybtex.plugin
        from pybtex.database import parse_file

        self.data = parse_file(str(path))
        self.style = pybtex.plugin.find_plugin("pybtex.style.formatting", "plain")()

    def entry(self, key: str):
        try:
            return self.data.entries[key]
        except KeyError:
            raise SystemExit(f"build_lite: citation key {key!r} is not in {BIBFILE.name}") from None

    def author_year(self, key: str) -> tuple[str, str]:
        e = self.entry(key)
        return _short_authors(e), e.fields.get("year", "n.d.")

    def formatted(self, keys) -> list[str]:
        """The entries of ``keys``, in that order, as one-line markdown."""
        return [" ".join(self.style.format_entry(str(i), self.entry(k)).text
                         .render_as("markdown").split()) for i, k in enumerate(keys, 1)]

    def all_sorted(self) -> list[str]:
        """Every entry, in the order the site's References page lists them."""
        return [" ".join(f.text.render_as("markdown").split())
                for f in self.style.format_bibliography(self.data)]


def _outside_code(text: str, fn) -> str:
    """``fn`` applied to the parts of a markdown text outside plain code fences (a
    directive's fence, ```{name}, holds markdown and is not code)."""
    out, chunk, fence = [], [], None
    for line in text.splitlines(keepends=True):
        m = _FENCE.match(line)
        if fence is None and m and not m.group("info").startswith("{") \
                and m.group("fence")[0] != ":":
            out.append(fn("".join(chunk)))
            chunk, fence = [line], m.group("fence")
        elif fence is not None:
            chunk.append(line)
            if line.strip() == fence:
                out.append("".join(chunk))
                chunk, fence = [], None
        else:
            chunk.append(line)
    out.append("".join(chunk) if fence is not None else fn("".join(chunk)))
    return "".join(out)


class LiteMarkdown:
    """Rewrites one notebook's markdown cells for JupyterLite (see the comment above)."""

    def __init__(self, book: Book, bib: Bibliography, docname: str):
        self.book, self.bib, self.docname = book, bib, docname
        self.footkeys: list[str] = []  # {footcite} keys in order of first citation

    def _href(self, target_doc: str, fragment: str = "") -> tuple[str, bool]:
        """(link, opens in JupyterLite) from this notebook to a document of the book."""
        kind, _ = self.book.docs[target_doc]
        frag = f"#{fragment}" if fragment else ""
        if kind == "ipynb":
            here = posixpath.dirname(self.docname) or "."
            return posixpath.relpath(f"{target_doc}.ipynb", here) + frag, True
        return f"{SITE_FROM_APP}{target_doc}.html{frag}", False

    @staticmethod
    def _link(text: str, href: str, in_lite: bool) -> str:
        text = " ".join(text.split())
        if in_lite:  # JupyterLab opens it in a tab of the same JupyterLite
            return f"[{text}]({href})"
        # a raw anchor: JupyterLab leaves it alone, so it resolves against the app's URL
        return (f'<a href="{html.escape(href, quote=True)}" target="_blank" '
                f'rel="noopener">{html.escape(text)}</a>')

    def _doc(self, body: str) -> str:
        m = _TITLED.match(body.strip())
        title, target = (m.group("title"), m.group("target")) if m else (None, body.strip())
        target = target.removesuffix(".ipynb").removesuffix(".md")
        docname = (target.lstrip("/") if target.startswith("/") else
                   posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), target)))
        if docname not in self.book.docs:
            raise SystemExit(f"build_lite: {self.docname}: {{doc}} target {target!r} is not "
                             "a document of _toc.yml")
        return self._link(title or self.book.docs[docname][1], *self._href(docname))

    def _ref(self, body: str) -> str:
        m = _TITLED.match(body.strip())
        title, label = (m.group("title"), m.group("target")) if m else (None, body.strip())
        if label not in self.book.labels:
            raise SystemExit(f"build_lite: {self.docname}: {{ref}} label {label!r} is not "
                             "defined by any document of _toc.yml")
        docname, heading = self.book.labels[label]
        text = title or heading or self.book.docs[docname][1]
        return self._link(text, *self._href(docname, label))

    def _cite(self, role: str, body: str) -> str:
        keys = [k.strip() for k in body.split(",") if k.strip()]
        textual = role.endswith((":t", ":ts"))
        if role.startswith("footcite"):
            for k in keys:
                self.bib.entry(k)
                if k not in self.footkeys:
                    self.footkeys.append(k)
            nums = [str(self.footkeys.index(k) + 1) for k in keys]
            if textual:
                return ", ".join(f"{self.bib.author_year(k)[0]} [{n}]"
                                 for k, n in zip(keys, nums))
            return f"[{', '.join(nums)}]"
        pairs = [self.bib.author_year(k) for k in keys]
        if textual:
            return ", ".join(f"{a} [{y}]" for a, y in pairs)
        return "[" + "; ".join(f"{a}, {y}" for a, y in pairs) + "]"

    def _role(self, m: re.Match) -> str:
        role, body = m.group("role"), m.group("body")
        if role == "doc":
            return self._doc(body)
        if role in ("ref", "numref"):
            return self._ref(body)
        if role.split(":")[0] in ("cite", "footcite"):
            return self._cite(role, body)
        if role == "term":
            t = _TITLED.match(body.strip())
            return t.group("title") if t else body
        return m.group(0)  # {eval}, {math}, ...: jupyterlab-myst renders them

    def _bibliography(self, m: re.Match) -> str:
        if m.group("name") == "bibliography":
            opts = m.group("body")
            if ":all:" not in opts:
                raise SystemExit(f"build_lite: {self.docname}: only `{{bibliography}}` with "
                                 ":all: is supported in the JupyterLite edition")
            items = self.bib.all_sorted()
        else:
            items = self.bib.formatted(self.footkeys)
        return "\n\n".join(f"\\[{i}\\] {text}" for i, text in enumerate(items, 1)) + "\n"

    def cell(self, source: str) -> str:
        text = _outside_code(source, lambda s: _ROLE.sub(self._role, s))
        return _BIB_DIRECTIVE.sub(self._bibliography, text)


def _is_json_mime(mime: str) -> bool:
    return mime == "application/json" or (mime.startswith("application/") and
                                          mime.endswith("+json"))


def _joined(value):
    return "".join(value) if isinstance(value, list) else value


def _without_live_bar(page: str) -> str:
    """A demo's stored static HTML (interlib/widgets/page.py) without its "Run live in your
    browser" bar (the site's interlib-live.js runs it; JupyterLite has no such script, the
    live widget comes from running the cell) and with its controls disabled, plus a line
    saying how to make the demo live here."""
    start = page.find('<div class="interlib-live-bar"')
    if start < 0:
        return page
    depth, i = 0, start
    for m in re.finditer(r"<div\b|</div>", page[start:]):
        depth += 1 if m.group(0) == "<div" else -1
        if depth == 0:
            i = start + m.end()
            break
    else:
        return page
    note = ('<p class="interlib-lite-note"><em>The figure and numbers show the default '
            "settings. Run the notebook (Run ▸ Run All Cells) to make this demo live.</em></p>")
    page = page[:start] + note + page[i:]
    return re.sub(r"<(input|select|textarea)\b", r"<\1 disabled", page)


def lite_notebook(notebook: dict, docname: str, book: Book, bib: Bibliography) -> dict:
    """The copy of a notebook JupyterLite serves: the Pyodide kernelspec, markdown cells
    with resolved references (:class:`LiteMarkdown`), multi-line strings joined as a
    Jupyter server joins them (JupyterLab's table of contents fails on the list form:
    "TypeError: this.buffer.charCodeAt is not a function"), and each demo's stored static
    HTML without the site's "Run live" bar (:func:`_without_live_bar`)."""
    notebook = json.loads(json.dumps(notebook))
    notebook.setdefault("metadata", {})["kernelspec"] = dict(LITE_KERNELSPEC)
    md = LiteMarkdown(book, bib, docname)
    for cell in notebook["cells"]:
        cell["source"] = _joined(cell["source"])
        if cell["cell_type"] == "markdown":
            cell["source"] = md.cell(cell["source"])
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = _joined(out["text"])
            data = out.get("data", {})
            for mime, value in data.items():
                if not _is_json_mime(mime):
                    data[mime] = _joined(value)
            if "text/html" in data and "application/vnd.jupyter.widget-view+json" in data:
                data["text/html"] = _without_live_bar(data["text/html"])
    return notebook


def stage_contents(dest: Path) -> list[str]:
    """Copy the notebooks of _toc.yml (and their data folders) as JupyterLite shows them
    (:func:`lite_notebook`; the Pyodide kernelspec, so JupyterLite opens them without
    asking for a kernel). Returns their paths."""
    rels = []
    book, bib = Book(), Bibliography()
    for nb in toc_notebooks(REPO):
        rel = Path(nb).resolve().relative_to(REPO)
        notebook = lite_notebook(json.loads((REPO / rel).read_text()),
                                 rel.with_suffix("").as_posix(), book, bib)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        rels.append(rel.as_posix())
    for extra in DATA_DIRS:
        if (REPO / extra).is_dir():
            shutil.copytree(REPO / extra, dest / extra)
    return rels


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_entry(wheel: Path, file_name: str, depends: list | None = None) -> dict:
    """A pyodide-lock.json package entry for a pure-Python wheel (its name as Pyodide
    looks names up: lower case, ``-`` for ``_``)."""
    name, version = wheel.name.split("-")[:2]
    name = name.lower().replace("_", "-")
    with zipfile.ZipFile(wheel) as zf:
        tops = sorted({n.split("/")[0] for n in zf.namelist()
                       if not n.split("/")[0].endswith((".dist-info", ".data"))})
    imports = sorted({t[:-3] if t.endswith(".py") else t for t in tops})
    return {"name": name, "version": version, "file_name": file_name, "install_dir": "site",
            "sha256": _sha256(wheel), "package_type": "package", "imports": imports,
            "depends": ADDED_DEPENDS[name] if depends is None else depends,
            "unvendored_tests": False,
            "shared_library": False}


def lite_lock(pyodide_dir: Path, wheels: list[Path], wheels_url_from_pyodide: str) -> dict:
    """Pyodide's lock plus the added wheels (file names relative to Pyodide's folder, as
    Pyodide resolves them). Fails if anything the kernel loads is not a local file."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    for wheel in wheels:
        entry = wheel_entry(wheel, f"{wheels_url_from_pyodide}/{wheel.name}")
        packages[entry["name"]] = entry
    def norm(name):  # Pyodide's lock writes depends both ways (prompt_toolkit)
        return name.lower().replace("_", "-")

    missing, seen, todo = [], set(), list(KERNEL_NEEDS)
    while todo:
        name = norm(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        if name not in packages:
            missing.append(f"{name} (not in pyodide-lock.json)")
            continue
        todo.extend(packages[name].get("depends", []))
        if name not in ADDED_DEPENDS and not (pyodide_dir / packages[name]["file_name"]).is_file():
            missing.append(packages[name]["file_name"])
    if missing:
        raise SystemExit(f"build_lite: Pyodide files missing from {pyodide_dir} (the kernel "
                         f"would load them): {', '.join(sorted(missing))}")
    return lock


def add_kernel_wheels(lock: dict, out: Path, pyodide_dir: Path) -> None:
    """Lock entries for the kernel's own wheels (piplite, pyodide-kernel and its ipykernel
    shim, served by its extension), so :data:`KERNEL_PRELOAD` loads them with everything
    else at Pyodide's start instead of installing them one at a time afterwards."""
    found = {}
    for wheel in sorted((out / KERNEL_WHEEL_DIR).glob("*.whl")):
        key = wheel.name.split("-")[0].lower().replace("_", "-")
        if key in KERNEL_WHEELS:
            found[key] = wheel
    missing = sorted(set(KERNEL_WHEELS) - set(found))
    if missing:
        raise SystemExit(f"build_lite: the kernel's wheels {missing} are not in "
                         f"{out / KERNEL_WHEEL_DIR} (jupyterlite-pyodide-kernel changed?)")
    for key, wheel in found.items():
        rel = Path(os.path.relpath(wheel, pyodide_dir)).as_posix()
        lock["packages"][key] = wheel_entry(wheel, rel, KERNEL_WHEELS[key])


def keep_only_extensions(out: Path) -> None:
    """Drop the extensions the build picked up that are not in LITE_EXTENSIONS."""
    path = out / "jupyter-lite.json"
    config = json.loads(path.read_text())
    data = config["jupyter-config-data"]
    found = data.get("federated_extensions", [])
    missing = LITE_EXTENSIONS - {e["name"] for e in found}
    if missing:
        raise SystemExit(f"build_lite: extensions missing from the build: {sorted(missing)}")
    data["federated_extensions"] = [e for e in found if e["name"] in LITE_EXTENSIONS]
    path.write_text(json.dumps(config, indent=2))
    for ext in found:
        if ext["name"] not in LITE_EXTENSIONS:
            shutil.rmtree(out / "extensions" / ext["name"], ignore_errors=True)


def link_favicons(out: Path) -> None:
    """Point each JupyterLite app's page at the favicon.ico beside it. Its pages name none,
    so the browser asks for /favicon.ico at the server's root: a 404 (a console error)
    wherever the site is not served with one there."""
    for index in sorted(out.glob("*/index.html")):
        text = index.read_text()
        icon = "./favicon.ico" if (index.parent / "favicon.ico").is_file() else "../lab/favicon.ico"
        if 'rel="icon"' not in text and "</head>" in text:
            link = f'<link rel="icon" type="image/x-icon" href="{icon}" />'
            index.write_text(text.replace("</head>", f"  {link}\n  </head>", 1))


def build(site: Path, quiet: bool = True) -> float:
    t0 = time.perf_counter()
    site = site.resolve()
    pyodide_dir = site / PYODIDE_IN_SITE
    if not (pyodide_dir / "pyodide.js").is_file():
        raise SystemExit(
            f"build_lite: no Pyodide at {pyodide_dir}: it comes from book/_vendor/static/"
            "pyodide/ (copied there by the site build). Build the site first.")
    out = site / LITE_IN_SITE
    stale_db = REPO / ".jupyterlite.doit.db"
    stale_db.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="interconnects-lite-") as tmp:
        tmp = Path(tmp)
        lite_dir, contents, wheels_dir = tmp / "lite", tmp / "contents", tmp / "wheels"
        for d in (lite_dir, contents, wheels_dir):
            d.mkdir()
        notebooks = stage_contents(contents)
        wheels = [build_interlib_wheel(wheels_dir)]
        for wheel in sorted(PIPLITE_WHEELS.glob("*.whl")):
            wheels.append(Path(shutil.copy2(wheel, wheels_dir / wheel.name)))
        wheels_url = Path(os.path.relpath(out / "pypi", pyodide_dir)).as_posix()
        lock = lite_lock(pyodide_dir, wheels, wheels_url)
        pyodide_url = Path(os.path.relpath(pyodide_dir / "pyodide.js", out)).as_posix()
        config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
            "appName": "Interconnects (JupyterLite)",
            "exposeAppInBrowser": True,
            "litePluginSettings": {KERNEL_PLUGIN: {
                "pyodideUrl": f"./{pyodide_url}",
                "disablePyPIFallback": True,
                # keys ending in URL are resolved against the lite root by the extension
                "loadPyodideOptions": {"lockFileURL": "pypi/pyodide-lock.json",
                                       "packages": KERNEL_PRELOAD}}}}}
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=2))
        # Every cell attached to the page (JupyterLab's default 'full' windowing detaches
        # cells out of view; chapters are short enough to render whole).
        (lite_dir / "overrides.json").write_text(json.dumps(
            {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}, indent=2))
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"output_dir": str(out), "contents": [str(contents)],
                                "no_sourcemaps": True, "no_unused_shared_packages": True},
            "PipliteAddon": {"piplite_urls": [str(w) for w in wheels]}}, indent=2))
        if out.exists():
            shutil.rmtree(out)
        cmd = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite_dir)]
        env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1"}
        proc = subprocess.run(cmd, cwd=lite_dir, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"build_lite: jupyter lite build failed:\n{proc.stdout[-4000:]}\n"
                             f"{proc.stderr[-4000:]}")
        add_kernel_wheels(lock, out, pyodide_dir)
        (out / "pypi" / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
        link_favicons(out)
        keep_only_extensions(out)
        if not quiet:
            print(proc.stdout[-2000:])
    seconds = time.perf_counter() - t0
    print(f"build_lite: {len(notebooks)} notebooks, {len(wheels)} wheels -> "
          f"{out.relative_to(REPO) if out.is_relative_to(REPO) else out} in {seconds:.1f} s")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html",
                        help="the built site (default: _build/html)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    build(args.site, quiet=not args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
